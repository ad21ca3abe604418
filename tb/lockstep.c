/*
 * The lockstep loop (lockstep.h): per cycle, the same inputs to the DUT and
 * the model, a compare of every output, and the core model fed from the
 * (equal) outputs. The last LS_HISTORY cycles are kept for the report.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lockstep.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One line, rewritten in place; the last one stays (with a newline). */
static void progress_line(const ls_cfg_t *c, const ls_result_t *r, const spu_run_t *run, double t0)
{
    const double dt = now_s() - t0;
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

/* Every byte of every record: 1 (r->diff filled) when the DUT's differ.
 * Out of line: most cycles have no record (dut_check() looks first). */
static __attribute__((noinline)) int records_differ(const ls_cfg_t *c, const spu_dut_t *d, const spu_model_t *m,
                                                   const spu_out_t *mout, ls_result_t *r)
{
    uint8_t dut[SPU_MAX_SLOTS][SPU_MAX_RECORD];
    for (unsigned p = 0; p < c->cfg->slots; p++)
        c->vt->record(d, p, dut[p], c->cfg->rec_max);
    r->ndiff = cmp_records(c->cfg, mout, (const uint8_t(*)[SPU_MAX_RECORD])dut, m->rec, r->diff, CMP_MAX_DIFFS);
    if (!r->ndiff)
        return 0;
    r->fail_dut = r->fail_model = *mout;
    return 1;
}

/* --apb: the bus master, the wrapper's model, and the APB inputs and
 * outputs of the cycle (the outputs shown: the last step's). Out of line, so
 * the loop of a run without APB keeps its registers. */
typedef struct ls_apb {
    apb_master_t bus;
    spu_apb_t ma;
    spu_apb_in_t ai;
    spu_apb_out_t dapb, mapb;
} ls_apb_t;

/* The DUT's step with the bus: the stimulus's access queued, the APB
 * inputs of the cycle, the access the wrapper presents given to the model
 * (in->reg_*). 0, or -1 when the queue is full (r->err says so). */
static __attribute__((noinline)) int apb_step(ls_apb_t *a, const ls_cfg_t *c, spu_dut_t *d, spu_in_t *in,
                                              spu_out_t *dout, spu_run_t *run, uint64_t cycle, ls_result_t *r)
{
    if (apb_master_take(&a->bus, in)) {
        snprintf(r->err, sizeof r->err, "cycle %" PRIu64 ": --apb: %d register accesses wait for the bus "
                 "(the stimulus makes them faster than APB carries them, one per 6 cycles at best)", cycle, APB_QUEUE);
        return -1;
    }
    /* PREADY shown now: the model's (the DUT's equals it until a difference stops the run) */
    apb_master_drive(&a->bus, c->dut_only ? a->dapb.pready : a->mapb.pready, &a->ai);
    if (in->rst_n)
        spu_apb_drive(&a->ma, &a->ai, in); /* the access the wrapper presents to the unit now */
    c->vt->step_apb(d, in, &a->ai, dout, &a->dapb);
    run->hold = (uint8_t)apb_master_busy(&a->bus);
    return 0;
}

/* After the model's step (or the DUT's, --dut-only): the wrapper's model
 * clocked, the --inject of an APB output, and the APB outputs compared.
 * 1 when they differ (r->diff gets them after the unit's). */
static __attribute__((noinline)) int apb_after(ls_apb_t *a, const ls_cfg_t *c, const spu_in_t *in,
                                               const spu_out_t *out, uint64_t cycle, ls_result_t *r)
{
    spu_apb_clock(&a->ma, &a->ai, in, out, &a->mapb);
    if (c->dut_only)
        return 0;
    if (c->inject && cycle == c->inject_cycle && cmp_perturb_apb(&a->mapb, c->inject) == 0)
        r->injected = 1;
    return cmp_apb(&a->dapb, &a->mapb, NULL, 0) != 0;
}

/* The DUT's write beat: the one shown (the outputs before) is taken into
 * its memory when the memory is ready in this cycle; the outputs of this
 * cycle show the next. 0, or -1 (r->err set) when memory runs out. */
typedef struct ls_beat {
    uint8_t valid, strb;
    uint64_t addr, data;
} ls_beat_t;

static inline int dut_beat(ls_beat_t *b, spu_mem_t *dmem, const spu_in_t *in, const spu_out_t *dout,
                           ls_result_t *r)
{
    if (b->valid && in->mem_ready && in->rst_n && mem_write(dmem, b->addr, b->data, b->strb)) {
        r->status = LS_ERROR;
        snprintf(r->err, sizeof r->err, "out of memory for the DUT's Profiling Buffer pages");
        return -1;
    }
    if ((b->valid = dout->mem_valid)) {
        b->addr = dout->mem_addr;
        b->data = dout->mem_data;
        b->strb = dout->mem_strb;
    }
    return 0;
}

/* A difference in cycle e's outputs: r filled (out of line, once a run). */
static __attribute__((noinline)) int dut_differs(const ls_hist_t *e, const spu_out_t *dout, const ls_apb_t *ap,
                                                ls_result_t *r)
{
    r->fail_dut = *dout;
    r->fail_model = e->out;
    r->status = LS_DIFF;
    r->fail_cycle = e->cycle;
    r->ndiff = cmp_outputs(dout, &e->out, r->diff, CMP_MAX_DIFFS);
    if (ap) {
        const int room = r->ndiff < CMP_MAX_DIFFS ? CMP_MAX_DIFFS - r->ndiff : 0;
        r->ndiff += cmp_apb(&ap->dapb, &ap->mapb, room ? r->diff + r->ndiff : NULL, room);
    }
    return 1;
}

/* The DUT's outputs of cycle e (its inputs and the model's outputs): the
 * write beat, every output, every record byte. 1 when the run stops here
 * (r->status set: a difference, or LS_ERROR). */
static inline __attribute__((always_inline)) int dut_check(const ls_cfg_t *c, const spu_dut_t *d,
                                                           const spu_model_t *m, const ls_hist_t *e,
                                                           const spu_out_t *dout, int apb_differs,
                                                           const ls_apb_t *ap, ls_beat_t *b, spu_mem_t *dmem,
                                                           ls_result_t *r)
{
    if (dut_beat(b, dmem, &e->in, dout, r))
        return 1;
    r->cycles++;
    if (!cmp_equal(dout, &e->out) || apb_differs)
        return dut_differs(e, dout, ap, r);
    uint32_t any; /* a record on any port (rec_len equal in both, as cmp_equal() checked) */
    _Static_assert(SPU_MAX_SLOTS == sizeof any, "rec_len is read as one word");
    memcpy(&any, e->out.rec_len, sizeof any);
    if (any && records_differ(c, d, m, &e->out, r)) {
        r->status = LS_DIFF;
        r->fail_cycle = e->cycle;
        return 1;
    }
    return 0;
}

void lockstep_run(const ls_cfg_t *c, spu_src_t src, ls_result_t *r)
{
    spu_model_t m;
    spu_run_t run;
    spu_cyc_t cy;
    spu_out_t dout;
    char err[256];

    memset(r, 0, sizeof *r);
    if (spu_model_init(&m, c->cfg, err, sizeof err)) {
        r->status = LS_ERROR;
        snprintf(r->err, sizeof r->err, "golden model: %s", err);
        return;
    }
    /* Late: the build has the input stage and the model drives the
     * stimulus, so the DUT's step shows the outputs of the cycle before
     * (dut.h); --dut-only feeds the core model from the DUT's outputs, so
     * it steps without delay. */
    const int late = c->vt->input_stage && !c->dut_only;
    spu_dut_t *d = c->vt->create(c->init_seed, c->full_clock, late);
    if (!d) {
        r->status = LS_ERROR;
        snprintf(r->err, sizeof r->err, "could not create the Verilated model");
        return;
    }
    if (c->mutant >= 0 && (!c->vt->set_mutant || c->vt->set_mutant(d, (unsigned)c->mutant))) {
        r->status = LS_ERROR;
        snprintf(r->err, sizeof r->err, c->vt->set_mutant ? "this build has no mutant %lld"
                                                          : "--mutant %lld: this is not a mutant build (build/spu-tb-mut)",
                 (long long)c->mutant);
        c->vt->destroy(d);
        return;
    }
    c->vt->reset(d);
    const uint64_t evals0 = c->vt->evals(d);
    run_init(&run, c->cfg, src, c->log, NULL);
    run.rec_f = c->rec_f;
    run.rec_txt = c->rec_txt;
    /* The memory each side's write port writes: the model's (the run's,
     * with its check that the beats write the records) and the DUT's, the
     * same at the end (docs/buffer.md). */
    spu_mem_t mmem, dmem;
    mem_init(&mmem);
    mem_init(&dmem);
    run.mem = &mmem;
    run.mem_stall = c->mem_stall;
    run.check_stream = !c->dut_only;
    ls_beat_t dbeat = {0};       /* the DUT's beat shown */
    ls_hist_t *pend = NULL;      /* late: the cycle whose outputs the DUT's next step shows */
    ls_apb_t *ap = c->apb ? calloc(1, sizeof *ap) : NULL;
    if (c->apb && !ap) {
        r->status = LS_ERROR;
        snprintf(r->err, sizeof r->err, "out of memory for the APB master's queue");
        mem_free(&mmem);
        mem_free(&dmem);
        c->vt->destroy(d);
        return;
    }
    if (ap) {
        apb_master_init(&ap->bus);
        spu_apb_reset(&ap->ma);
    }
    const double t0 = now_s();
    double next_report = t0 + 0.5;
    int tracing = 0;

    /* Inputs and model outputs are built in place in the history ring, so
     * keeping the last LS_HISTORY cycles costs no copy (the ring has more
     * slots, lockstep.h: late, the cycle being built while the one before
     * is checked). */
    for (;;) {
        ls_hist_t *h = &r->hist[r->nhist % LS_RING];
        spu_in_t *in = &h->in;
        spu_out_t *mout = &h->out;
        if (run_inputs(&run, &cy, in) <= 0)
            break;
        if (c->wave && !tracing && cy.cycle >= c->wave_from) {
            tracing = c->vt->trace_open(d, c->wave) == 0;
            if (!tracing) {
                r->status = LS_ERROR;
                snprintf(r->err, sizeof r->err, "cannot write the wave file %s", c->wave);
                break;
            }
        }
        if (!ap) {
            c->vt->step(d, in, &dout);
        } else if (apb_step(ap, c, d, in, &dout, &run, cy.cycle, r)) {
            r->status = LS_ERROR;
            break;
        }
        if (c->dut_only) {
            /* Bench: the same stimulus and core model, fed by the DUT. */
            if (dut_beat(&dbeat, &dmem, in, &dout, r))
                break;
            if (ap)
                apb_after(ap, c, in, &dout, cy.cycle, r);
            r->cycles++;
            if (run_observe(&run, &cy, in, &dout)) {
                r->status = LS_CORE;
                r->fail_cycle = cy.cycle;
                snprintf(r->err, sizeof r->err, "%s", run.err);
                break;
            }
            continue;
        }
        /* late: the DUT's outputs of the cycle before (none after reset);
         * checked before the model's step overwrites its record bytes */
        if (late && pend && dut_check(c, d, &m, pend, &dout, 0, NULL, &dbeat, &dmem, r))
            break;
        cov_model_step(c->cov, &m, in, mout);
        if (c->inject && cy.cycle == c->inject_cycle)
            r->injected = cmp_perturb(mout, c->inject) == 0;
        const int apb_differs = ap && apb_after(ap, c, in, mout, cy.cycle, r);
        h->cycle = cy.cycle;
        r->nhist++;
        pend = h;
        if (!late) {
            pend = NULL;
            if (dut_check(c, d, &m, h, &dout, apb_differs, ap, &dbeat, &dmem, r))
                break;
        }
        if (run_observe(&run, &cy, in, mout) || run_records(&run, &cy, mout, &m)) {
            /* a difference of the DUT in this cycle comes first */
            if (pend) {
                c->vt->step(d, in, &dout);
                pend = NULL;
                if (dut_check(c, d, &m, h, &dout, 0, NULL, &dbeat, &dmem, r))
                    break;
            }
            r->status = LS_CORE;
            r->fail_cycle = cy.cycle;
            snprintf(r->err, sizeof r->err, "%s", run.err);
            break;
        }
        if (c->wave && tracing && cy.cycle >= c->wave_to)
            break;
        if (c->progress && (r->cycles & 0xFFFF) == 0 && now_s() >= next_report) {
            progress_line(c, r, &run, t0);
            next_report = now_s() + 0.5;
        }
    }
    /* late: the last cycle's outputs, one step more (its inputs again, which
     * the input stage loads and nothing uses) */
    if (pend && r->status == LS_PASS) {
        c->vt->step(d, &pend->in, &dout);
        dut_check(c, d, &m, pend, &dout, 0, NULL, &dbeat, &dmem, r);
    }
    r->seconds = now_s() - t0;
    if (c->progress) {
        progress_line(c, r, &run, t0);
        fputc('\n', stderr);
    }
    if (r->status == LS_PASS && !c->wave && run_check_end(&run)) {
        r->status = LS_CORE;
        r->fail_cycle = run.cycle;
        snprintf(r->err, sizeof r->err, "%s", run.err);
    }
    if (r->status == LS_PASS && !c->wave && !c->dut_only) {
        /* the final buffer: every byte the DUT wrote, and only those, as the model */
        uint64_t a;
        int hd, hm;
        uint8_t bd, bm;
        if (mem_compare(&dmem, &mmem, &a, &hd, &bd, &hm, &bm)) {
            r->status = LS_DIFF;
            r->fail_cycle = run.cycle;
            r->fail_dut = r->fail_model = r->hist[(r->nhist + LS_RING - 1) % LS_RING].out;
            r->ndiff = 1;
            snprintf(r->diff[0].name, sizeof r->diff[0].name, "memory[0x%" PRIx64 "]", a);
            r->diff[0].dut = hd ? bd : 0x100u; /* 0x100: never written */
            r->diff[0].model = hm ? bm : 0x100u;
        }
        r->mem_bytes = mmem.bytes;
    }
    if (r->status == LS_PASS && c->mem_f && run_write_mem(&run, c->mem_f)) {
        r->status = LS_ERROR;
        snprintf(r->err, sizeof r->err, "%s", run.err);
    }
    mem_free(&mmem);
    mem_free(&dmem);
    if (ap) {
        r->apb = ap->bus.st;
        free(ap);
    }
    if (r->status == LS_PASS && !c->wave)
        run_finish(&run);
    for (int i = 0; i < SPU_NREGS; i++)
        r->regs[i] = spu_model_reg_read(&m, i);
    r->lfsr = m.lfsr;
    r->log = run.log;
    r->evals = c->vt->evals(d) - evals0;
    r->mutant_activated = c->mutant >= 0 ? c->vt->mutant_activated(d) : 0;
    if (tracing)
        c->vt->trace_close(d);
    c->vt->destroy(d);
}
