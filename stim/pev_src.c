/*
 * The perf-event stimulus decorator (pev_src.h): start sequence, inner
 * stimulus with the interrupt handler, stop sequence, as one stream of
 * cycles.
 */
#include <string.h>

#include "pev_src.h"

enum { PH_START, PH_INNER, PH_IRQ, PH_STOP, PH_DONE };

/* A cycle with nothing but the context in force. */
static void plain_cycle(pev_src_t *p, spu_cyc_t *cy)
{
    memset(cy, 0, sizeof *cy);
    cy->cycle = p->cycle;
    cy->el = p->el;
    cy->allow = p->allow;
}

/* A cycle with one register access and nothing else. */
static int seq_cycle(pev_src_t *p, spu_cyc_t *cy, const pev_access_t *a)
{
    plain_cycle(p, cy);
    cy->reg_valid = 1;
    cy->reg_write = a->write;
    cy->reg_enc = a->enc;
    cy->reg_wdata = a->write ? a->value : 0;
    p->reading = !a->write;
    return 1;
}

/* The same for an access the handler or the stop decides on the way. */
static int access_cycle(pev_src_t *p, spu_cyc_t *cy, int reg, int write, uint64_t value)
{
    const pev_access_t a = {spu_reg_enc(reg), (uint8_t)write, value};
    return seq_cycle(p, cy, &a);
}

/* The stop sequence (arm_spe_pmu_stop): PMSCR_EL1 = 0, the drain,
 * PMBLIMITR_EL1 = 0; with a buffer, PMBSR_EL1: a pending fault is cleared
 * (PMBSR_EL1 = 0), else PMBPTR_EL1 gives the data's end; then PMSICR_EL1,
 * the remaining period. */
static int stop_next(pev_src_t *p, spu_cyc_t *cy)
{
    if (p->i == 1 && p->wait) {
        p->wait--;
        plain_cycle(p, cy);
        return 1;
    }
    if (p->i < p->prog.nstop)
        return seq_cycle(p, cy, &p->prog.stop[p->i++]);
    /* steps 0 and 1 look at the buffer (none in discard mode), step 2 reads PMSICR_EL1 */
    const unsigned k = p->i++ - p->prog.nstop;
    switch (p->prog.aux ? k : k + 2) {
    case 0:
        return access_cycle(p, cy, SPU_REG_PMBSR_EL1, 0, 0);
    case 1:
        if (p->rd & SPU_F_PMBSR_EL1_S_MASK)
            return access_cycle(p, cy, SPU_REG_PMBSR_EL1, 1, 0);
        return access_cycle(p, cy, SPU_REG_PMBPTR_EL1, 0, 0);
    case 2:
        return access_cycle(p, cy, SPU_REG_PMSICR_EL1, 0, 0);
    default:
        p->phase = PH_DONE;
        return 0;
    }
}

static int start_stop(pev_src_t *p, spu_cyc_t *cy)
{
    p->phase = PH_STOP;
    p->i = 0;
    p->wait = p->drain - 1;
    return stop_next(p, cy);
}

/* The interrupt handler (arm_spe_pmu_irq_handler) for PMBIRQ: PMBSR_EL1
 * (S clear: spurious, nothing to do; EC = 0 with BSC = 1, buffer full:
 * handled; anything else fatal), PMBPTR_EL1 (the data's end), the buffer
 * re-armed past it (pev_rearm()), PMBSR_EL1 = 0 to resume. */
static int irq_next(pev_src_t *p, spu_cyc_t *cy);

static int inner_next(pev_src_t *p, spu_cyc_t *cy)
{
    if (p->irq_at && p->cycle >= p->irq_at) {
        p->irq_at = 0;
        p->phase = PH_IRQ;
        p->i = 0;
        return irq_next(p, cy);
    }
    if (!p->in.next(p->in.self, cy))
        return start_stop(p, cy);
    /* The inner stimulus's context holds from its first change; until then
     * the context the start sequence set (docs/perf-event.md). */
    if (cy->el || cy->allow)
        p->inner_ctx = 1;
    if (p->inner_ctx)
        p->el = cy->el, p->allow = cy->allow;
    cy->el = p->el;
    cy->allow = p->allow;
    cy->cycle = p->cycle;
    p->reading = 0;
    return 1;
}

static int irq_next(pev_src_t *p, spu_cyc_t *cy)
{
    switch (p->i++) {
    case 0:
        return access_cycle(p, cy, SPU_REG_PMBSR_EL1, 0, 0);
    case 1:
        if (!(p->rd & SPU_F_PMBSR_EL1_S_MASK)) {
            p->phase = PH_INNER; /* spurious */
            return inner_next(p, cy);
        }
        /* EC = 0 (buffer management) and BSC = MSS[5:0] = 1 (buffer full) */
        if (SPU_GET(p->rd, PMBSR_EL1, EC) != 0 || (SPU_GET(p->rd, PMBSR_EL1, MSS) & 0x3Fu) != 1) {
            p->fatal++; /* the event stops: never seen, the unit raises only buffer full */
            return start_stop(p, cy);
        }
        p->collisions += (p->rd & SPU_F_PMBSR_EL1_COLL_MASK) != 0;
        return access_cycle(p, cy, SPU_REG_PMBPTR_EL1, 0, 0);
    case 2:
        p->data_bytes += p->rd - p->ptr;
        p->truncated += (uint64_t)pev_rearm(&p->prog, p->rd, &p->ptr, &p->limitr);
        return access_cycle(p, cy, SPU_REG_PMBPTR_EL1, 1, p->ptr);
    case 3:
        return access_cycle(p, cy, SPU_REG_PMBLIMITR_EL1, 1, p->limitr);
    default:
        p->irqs++;
        p->phase = PH_INNER;
        return access_cycle(p, cy, SPU_REG_PMBSR_EL1, 1, 0);
    }
}

static int pev_next(void *self, spu_cyc_t *cy)
{
    pev_src_t *p = self;
    int more = 1;
    switch (p->phase) {
    case PH_START:
        more = seq_cycle(p, cy, &p->prog.start[p->i++]);
        if (p->i == p->prog.nstart)
            p->phase = PH_INNER;
        break;
    case PH_INNER:
        more = inner_next(p, cy);
        break;
    case PH_IRQ:
        more = irq_next(p, cy);
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

/* What the unit did in the cycle last handed out: the value of a read, and
 * PMBIRQ, which the handler answers PEV_IRQ_CYCLES later (not during the
 * stop sequence, which looks at PMBSR_EL1 itself). */
static void pev_observe(void *self, const spu_out_t *out)
{
    pev_src_t *p = self;
    if (p->reading) {
        p->rd = out->reg_rdata;
        p->reading = 0;
    }
    if (out->pmbirq && p->phase == PH_INNER && !p->irq_at)
        p->irq_at = p->cycle + PEV_IRQ_CYCLES;
}

/* Plain cycles: the inner stimulus's (up to a pending interrupt's
 * handler), or the drain's (no members). */
static uint64_t pev_skip(void *self, uint64_t max_cycles, uint64_t max_pops, uint64_t *pops, uint8_t *pop_mask)
{
    pev_src_t *p = self;
    uint64_t k = 0;
    *pops = 0;
    if (p->phase == PH_INNER && p->in.skip) {
        if (p->irq_at)
            max_cycles = p->irq_at > p->cycle ? (p->irq_at - p->cycle < max_cycles ? p->irq_at - p->cycle : max_cycles) : 0;
        if (max_cycles)
            k = p->in.skip(p->in.self, max_cycles, max_pops, pops, pop_mask);
    } else if (p->phase == PH_STOP && p->i == 1) {
        k = p->wait < max_cycles ? p->wait : max_cycles;
        p->wait -= k;
        if (pop_mask)
            memset(pop_mask, 0, k);
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
    p->ptr = prog->base;
    spu_src_t s = {p, pev_next, pev_op, pev_skip, pev_observe};
    return s;
}
