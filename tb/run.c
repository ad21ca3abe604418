/*
 * The cycle loop shared by csim and tb (see run.h).
 */
#include <string.h>

#include "run.h"

void run_init(spu_run_t *r, const spu_config_t *cfg, spu_src_t src, FILE *log,
              spt_writer_t *emit)
{
    memset(r, 0, sizeof *r);
    r->cfg = cfg;
    r->src = src;
    r->emit = emit;
    core_init(&r->core, cfg);
    spl_init(&r->log, log, cfg);
}

int run_inputs(spu_run_t *r, spu_cyc_t *cy, spu_in_t *in)
{
    static const spu_in_t zero;
    *in = zero; /* a struct copy, not memset: this runs every cycle */
    if (!r->src_done && r->src.next(r->src.self, cy)) {
        r->el = cy->el;
        r->allow = cy->allow;
        if (r->emit)
            spt_write_cycle(r->emit, cy, &r->src);
    } else {
        /* Drain: empty cycles, context held, until every op has finished. */
        r->src_done = 1;
        if (core_idle(&r->core))
            return 0;
        memset(cy, 0, sizeof *cy);
        cy->cycle = r->cycle;
        cy->el = r->el;
        cy->allow = r->allow;
    }
    cy->cycle = r->cycle;
    in->rst_n = !cy->reset;
    in->pop_valid = cy->pop_mask;
    in->reg_valid = cy->reg_valid;
    in->reg_write = cy->reg_write;
    in->reg_enc = cy->reg_enc;
    in->reg_wdata = cy->reg_wdata;
    in->el = cy->el;
    in->prof_allowed = cy->allow;
    if (!cy->reset)
        core_drive(&r->core, cy->cycle, in);
    return 1;
}

int run_observe(spu_run_t *r, const spu_cyc_t *cy, const spu_in_t *in, const spu_out_t *out)
{
    r->cycle++;
    return core_observe(&r->core, cy, in, out, &r->src, &r->log);
}

void run_finish(spu_run_t *r)
{
    spl_pmu_line(&r->log, r->cycle);
}
