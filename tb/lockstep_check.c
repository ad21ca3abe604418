/*
 * What the lockstep loops share (lockstep_priv.h): the progress line, the
 * check of a cycle's records and the report of a difference, the start
 * and the end of a run.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lockstep_priv.h"

/* lockstep_priv.h */
double ls_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* lockstep_priv.h */
void ls_progress(const ls_cfg_t *c, const ls_result_t *r, const spu_run_t *run, double t0)
{
    const double dt = ls_now() - t0;
    const uint64_t tot = c->progress_total, cyc = tot && run->cycle > tot ? tot : run->cycle;
    char pct[80] = "";
    if (tot)
        snprintf(pct, sizeof pct, " of %" PRIu64 " (%.0f%%)%s", tot, 100.0 * (double)cyc / (double)tot,
                 run->cycle > tot ? " + cycles finishing sampled ops" : "");
    fprintf(stderr, "\rcycle %" PRIu64 "%s  %.1f M cycles/s  samples %" PRIu64 "  kept %" PRIu64
                    "  rejected %" PRIu64 "  differences %d   ",
            cyc, pct, dt > 0 ? (double)r->cycles / dt / 1e6 : 0.0, run->log.samples,
            run->log.kept, run->log.rejected, r->status == LS_DIFF ? 1 : 0);
}

/* lockstep_priv.h */
__attribute__((noinline)) int ls_dut_differs(const ls_hist_t *e, const spu_out_t *dout, const spu_apb_out_t *dapb, const spu_apb_out_t *mapb,
                   ls_result_t *r)
{
    r->fail_dut = *dout;
    r->fail_model = e->out;
    r->status = LS_DIFF;
    r->fail_cycle = e->cycle;
    r->ndiff = cmp_outputs(dout, &e->out, r->diff, CMP_MAX_DIFFS);
    if (dapb) {
        const int room = r->ndiff < CMP_MAX_DIFFS ? CMP_MAX_DIFFS - r->ndiff : 0;
        r->ndiff += cmp_apb(dapb, mapb, room ? r->diff + r->ndiff : NULL, room);
    }
    return 1;
}

/* lockstep_priv.h */
int ls_start(const ls_cfg_t *c, spu_model_t *m, ls_result_t *r)
{
    char err[256];
    memset(r, 0, sizeof *r);
    if (spu_model_init(m, c->cfg, err, sizeof err)) {
        r->status = LS_ERROR;
        snprintf(r->err, sizeof r->err, "golden model: %s", err);
        return -1;
    }
    return 0;
}

/* lockstep_priv.h */
void ls_begin_run(const ls_cfg_t *c, spu_src_t src, spu_run_t *run, const spu_model_t *m, spu_mem_t *mmem,
                  spu_mem_t *dmem)
{
    run_init(run, c->cfg, src, c->log, NULL);
    run->stats = c->stats;
    run->stats_m = m;
    run->rec_f = c->rec_f;
    run->rec_txt = c->rec_txt;
    /* The memory each side's write port writes: the model's (the run's,
     * with its check that the beats write the records) and the DUT's, the
     * same at the end (docs/buffer.md). */
    mem_init(mmem);
    mem_init(dmem);
    run->mem = mmem;
    run->mem_stall = c->mem_stall;
    run->stray = c->stray;
    run->check_stream = !c->dut_only;
}

/* lockstep_priv.h */
void ls_end_run(const ls_cfg_t *c, spu_run_t *run, const spu_model_t *m, spu_mem_t *mmem, spu_mem_t *dmem,
                ls_result_t *r)
{
    if (r->status == LS_PASS && !c->wave && run_check_end(run)) {
        r->status = LS_CORE;
        r->fail_cycle = run->cycle;
        snprintf(r->err, sizeof r->err, "%s", run->err);
    }
    if (r->status == LS_PASS && !c->wave && !c->dut_only) {
        /* the final buffer: every byte the DUT wrote, and only those, as the model */
        uint64_t a;
        int hd, hm;
        uint8_t bd, bm;
        if (mem_compare(dmem, mmem, &a, &hd, &bd, &hm, &bm)) {
            r->status = LS_DIFF;
            r->fail_cycle = run->cycle;
            r->fail_dut = r->fail_model = r->hist[(r->nhist + LS_RING - 1) % LS_RING].out;
            r->ndiff = 1;
            snprintf(r->diff[0].name, sizeof r->diff[0].name, "memory[0x%" PRIx64 "]", a);
            r->diff[0].dut = hd ? bd : 0x100u; /* 0x100: never written */
            r->diff[0].model = hm ? bm : 0x100u;
        }
        r->mem_bytes = mmem->bytes;
    }
    if (r->status == LS_PASS && c->mem_f && run_write_mem(run, c->mem_f)) {
        r->status = LS_ERROR;
        snprintf(r->err, sizeof r->err, "%s", run->err);
    }
    mem_free(mmem);
    mem_free(dmem);
    if (r->status == LS_PASS && !c->wave)
        run_finish(run);
    for (int i = 0; i < SPU_NREGS; i++)
        r->regs[i] = spu_model_reg_read(m, i);
    r->lfsr = m->lfsr;
    r->log = run->log;
}

/* lockstep_priv.h */
spu_dut_t *ls_open_dut(const ls_cfg_t *c, int full_clock, int piped, ls_result_t *r)
{
    spu_dut_t *d = c->vt->create(c->init_seed, full_clock, piped);
    if (!d) {
        r->status = LS_ERROR;
        snprintf(r->err, sizeof r->err, "could not create the Verilated model");
        return NULL;
    }
    if (c->mutant >= 0 && (!c->vt->set_mutant || c->vt->set_mutant(d, (unsigned)c->mutant))) {
        r->status = LS_ERROR;
        snprintf(r->err, sizeof r->err, c->vt->set_mutant ? "this build has no mutant %lld"
                                                          : "--mutant %lld: this is not a mutant build (build/spu-tb-mut)",
                 (long long)c->mutant);
        c->vt->destroy(d);
        return NULL;
    }
    c->vt->reset(d);
    return d;
}

/* lockstep_priv.h */
void ls_close(const ls_cfg_t *c, spu_run_t *run, const spu_model_t *m, spu_mem_t *mmem, spu_mem_t *dmem,
              spu_dut_t *d, ls_apb_t *ap, int tracing, uint64_t evals0, double t0, ls_result_t *r)
{
    r->seconds = ls_now() - t0;
    if (c->progress) {
        ls_progress(c, r, run, t0);
        fputc('\n', stderr);
    }
    ls_apb_close(ap, r);
    ls_end_run(c, run, m, mmem, dmem, r);
    r->evals = c->vt->evals(d) - evals0;
    r->clocking = c->vt->clocking_says(d);
    r->mutant_activated = c->mutant >= 0 ? c->vt->mutant_activated(d) : 0;
    if (tracing)
        c->vt->trace_close(d);
    c->vt->destroy(d);
}
