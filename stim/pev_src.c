/*
 * The perf-event stimulus decorator (pev_src.h): start sequence, inner
 * stimulus, stop sequence, as one stream of cycles.
 */
#include <string.h>

#include "pev_src.h"

enum { PH_START, PH_INNER, PH_STOP, PH_DONE };

/* A cycle with one register access and nothing else. */
static void access_cycle(pev_src_t *p, spu_cyc_t *cy, const pev_access_t *a)
{
    memset(cy, 0, sizeof *cy);
    cy->cycle = p->cycle;
    cy->reg_valid = 1;
    cy->reg_write = a->write;
    cy->reg_enc = a->enc;
    cy->reg_wdata = a->write ? a->value : 0;
    cy->el = p->el;
    cy->allow = p->allow;
}

/* The stop sequence: stop[0], the drain, then the rest. */
static int stop_next(pev_src_t *p, spu_cyc_t *cy)
{
    if (p->i == 1 && p->wait) {
        p->wait--;
        memset(cy, 0, sizeof *cy);
        cy->cycle = p->cycle;
        cy->el = p->el;
        cy->allow = p->allow;
        return 1;
    }
    if (p->i >= p->prog.nstop) {
        p->phase = PH_DONE;
        return 0;
    }
    access_cycle(p, cy, &p->prog.stop[p->i++]);
    return 1;
}

static int pev_next(void *self, spu_cyc_t *cy)
{
    pev_src_t *p = self;
    int more = 1;
    switch (p->phase) {
    case PH_START:
        access_cycle(p, cy, &p->prog.start[p->i++]);
        if (p->i == p->prog.nstart)
            p->phase = PH_INNER;
        break;
    case PH_INNER:
        if (p->in.next(p->in.self, cy)) {
            /* The inner stimulus's context holds from its first change; until
             * then the context the start sequence set (docs/perf-event.md). */
            if (cy->el || cy->allow)
                p->inner_ctx = 1;
            if (p->inner_ctx)
                p->el = cy->el, p->allow = cy->allow;
            cy->el = p->el;
            cy->allow = p->allow;
            cy->cycle = p->cycle;
            break;
        }
        p->phase = PH_STOP;
        p->i = 0;
        p->wait = p->drain - 1;
        more = stop_next(p, cy);
        break;
    case PH_STOP:
        more = stop_next(p, cy);
        break;
    default:
        more = 0;
        break;
    }
    if (more)
        p->cycle++;
    return more;
}

static int pev_op(void *self, uint64_t id, spu_op_t *op)
{
    pev_src_t *p = self;
    return p->in.op(p->in.self, id, op);
}

/* Plain cycles: the inner stimulus's, or the drain's (no members). */
static uint64_t pev_skip(void *self, uint64_t max_cycles, uint64_t max_pops, uint64_t *pops)
{
    pev_src_t *p = self;
    uint64_t k = 0;
    *pops = 0;
    if (p->phase == PH_INNER && p->in.skip)
        k = p->in.skip(p->in.self, max_cycles, max_pops, pops);
    else if (p->phase == PH_STOP && p->i == 1) {
        k = p->wait < max_cycles ? p->wait : max_cycles;
        p->wait -= k;
    }
    p->cycle += k;
    return k;
}

spu_src_t pev_source(pev_src_t *p, spu_src_t in, const pev_prog_t *prog, uint64_t fin_bound)
{
    memset(p, 0, sizeof *p);
    p->in = in;
    p->prog = *prog;
    p->drain = fin_bound ? fin_bound : 1;
    p->el = prog->el;
    p->allow = 1;
    spu_src_t s = {p, pev_next, pev_op, pev_skip};
    return s;
}
