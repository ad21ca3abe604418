/*
 * The model's runs behind spu-diff (replay.h).
 */
#include <inttypes.h>
#include <stdio.h>

#include "replay.h"

static void keep_access(replay_t *p, const replay_access_t *a)
{
    p->acc[p->nacc++ % REPLAY_ACCESSES] = *a;
}

/* What a cycle of stimulus held and what the model made of it. */
static void note(replay_t *p, const spu_cyc_t *cy, const spu_out_t *out)
{
    if (cy->el != p->el || cy->allow != p->allow) {
        const replay_access_t a = {.cycle = cy->cycle, .kind = RA_CTX, .el = cy->el, .allow = cy->allow};
        keep_access(p, &a);
        p->el = cy->el;
        p->allow = cy->allow;
    }
    if (cy->reset) {
        const replay_access_t a = {.cycle = cy->cycle, .kind = RA_RESET};
        keep_access(p, &a);
    }
    if (cy->reg_valid) {
        const replay_access_t a = {.cycle = cy->cycle, .kind = cy->reg_write ? RA_WRITE : RA_READ,
                                   .enc = cy->reg_enc, .wdata = cy->reg_wdata, .rdata = out->reg_rdata,
                                   .undef = out->reg_undef};
        keep_access(p, &a);
    }
    for (unsigned l = 0; cy->pop_mask >> l; l++) {
        if (!((cy->pop_mask >> l) & 1u))
            continue;
        replay_member_t *m = &p->mem[p->nmem++ % REPLAY_MEMBERS];
        m->cycle = cy->cycle;
        m->op = cy->op_id[l];
        m->lane = (uint8_t)l;
        m->fate = ((out->smp_valid >> l) & 1u) ? 1 : ((out->col_valid >> l) & 1u) ? 2 : 0;
        m->slot = out->smp_slot[l];
    }
}

/* Cycles up to the start of `stop` or the end of the run (1 or 0), skipping
 * ahead where nothing can happen when `skip` (a skip may pass `stop`; only
 * a whole run skips); -1 with r->err set. */
static int cycles(replay_t *p, int skip, uint64_t stop, int hist)
{
    spu_run_t *r = &p->run;
    spu_cyc_t cy;
    spu_in_t in = {0}; /* the record payloads stay as the last finish left them */
    spu_out_t out;
    while (r->cycle < stop) {
        uint64_t k = 0;
        if (skip && run_skip(r, &p->model, &k))
            return -1;
        if (k)
            continue;
        const int more = run_inputs(r, &cy, &in);
        if (more <= 0)
            return more;
        spu_model_step(&p->model, &in, &out);
        if (hist)
            note(p, &cy, &out);
        if (run_observe(r, &cy, &in, &out) || run_records(r, &cy, &out, &p->model))
            return -1;
    }
    return 1;
}

/* A fresh model and run loop over src, logging to `log` (NULL: none). */
static int start(replay_t *p, const spu_setup_t *s, spu_src_t src, FILE *log)
{
    char err[256];
    if (spu_model_init(&p->model, &s->cfg, err, sizeof err)) {
        fprintf(stderr, "error: %s\n", err);
        return -1;
    }
    run_init(&p->run, &s->cfg, src, log, NULL);
    p->run.mem_stall = p->mem_stall;
    p->run.check_stream = 1;
    p->nmem = p->nacc = 0;
    p->el = p->allow = 0; /* the context at the start (docs/formats.md) */
    return 0;
}

int replay_log(replay_t *p, const spu_setup_t *s, FILE *log)
{
    if (start(p, s, s->src, log))
        return -1;
    if (cycles(p, 1, UINT64_MAX, 0) < 0 || run_check_end(&p->run)) {
        fprintf(stderr, "error: the model's run: %s\n", p->run.err);
        return -1;
    }
    run_finish(&p->run);
    return 0;
}

int replay_until(replay_t *p, const spu_setup_t *s, uint64_t stop)
{
    if (start(p, s, opts_fresh_source(s, &p->cursor, &p->gen, &p->pev), NULL))
        return -1;
    if (cycles(p, 0, stop, 1) < 0) {
        fprintf(stderr, "error: the model's second run: %s\n", p->run.err);
        return -1;
    }
    return 0;
}

int replay_op(const replay_t *p, uint64_t id, spu_op_t *op)
{
    for (unsigned s = 0; s < SPU_MAX_SLOTS; s++) /* an op in flight */
        if (p->run.core.slot[s].live && p->run.core.slot[s].op.id == id) {
            *op = p->run.core.slot[s].op;
            return 0;
        }
    return p->run.src.op && p->run.src.op(p->run.src.self, id, op) == 0 ? 0 : -1;
}

void replay_op_keys(const replay_t *p, uint64_t id, char *buf, size_t len)
{
    spu_op_t op;
    FILE *k = len ? fmemopen(buf, len, "w") : NULL;
    if (len)
        buf[0] = '\0';
    if (k && replay_op(p, id, &op) == 0)
        spt_write_op_keys(k, &op);
    if (k)
        fclose(k);
    if (len)
        buf[len - 1] = '\0';
}
