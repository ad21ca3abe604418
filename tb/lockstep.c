/*
 * The lockstep loop (lockstep.h): per cycle, the same inputs to the DUT and
 * the model, a compare of every output, and the core model fed from the
 * (equal) outputs. The last LS_HISTORY cycles are kept for the report.
 * With blocks of plain cycles, lockstep_run() runs again, cycle by cycle,
 * a run that does not pass, for its report.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "lockstep_priv.h"

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

/* --inject of SAMPLE_POP's count or PMSICR_EL1, the outputs of a plain
 * cycle that vary in a block: the flip to make in them (xor masks; 0 and 0
 * for any other output, whose cycle a block stops before). */
static void inject_in_block(const char *sig, uint8_t *pop, uint64_t *pmsicr)
{
    spu_out_t o, z;
    memset(&o, 0, sizeof o);
    memset(&z, 0, sizeof z);
    *pop = 0;
    *pmsicr = 0;
    if (!sig || cmp_perturb(&o, sig) != 0)
        return;
    z.pmu[SPU_PMU_POP] = o.pmu[SPU_PMU_POP];
    z.obs_pmsicr = o.obs_pmsicr;
    if (memcmp(&o, &z, sizeof o) == 0) {
        *pop = o.pmu[SPU_PMU_POP];
        *pmsicr = o.obs_pmsicr;
    }
}

/* blocks: step runs of plain cycles at once (run_plain(), step_plain());
 * a run that took one and did not pass is run again without (lockstep_run()). */
/* The last cycle was a block's: no history entry came after it, so pend is
 * the cycle before the block and pq the block's last cycle. */
#define LS_AFTER_BLOCK(r) ((r)->blocks && (r)->nhist == (r)->nhist_block)
static void run_one_thread(const ls_cfg_t *c, spu_src_t src, ls_result_t *r, int blocks)
{
    spu_model_t m;
    spu_run_t run;
    spu_cyc_t cy;
    spu_out_t dout;

    if (ls_start(c, &m, r))
        return;
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
    spu_mem_t mmem, dmem;
    ls_begin_run(c, src, &run, &mmem, &dmem);
    ls_beat_t dbeat = {0};       /* the DUT's beat shown */
    spu_quiet_t pq = {0};        /* late: pend's outputs as a quiet cycle (pq.quiet: they are) */
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
    const double t0 = ls_now();
    double next_report = t0 + 0.5;
    uint64_t next_progress = 0x10000; /* cycles checked before the clock is looked at */
    int tracing = 0;
    /* blocks of plain cycles: late only (the model drives the stimulus), and
     * not with --apb or coverage, which see every cycle */
    spu_plain_t pbuf;
    spu_plain_t *pb = blocks && late && !ap && !c->cov ? &pbuf : NULL;
    uint8_t inj_pop;
    uint64_t inj_pmsicr;
    inject_in_block(c->inject, &inj_pop, &inj_pmsicr);

    /* Inputs and model outputs are built in place in the history ring, so
     * keeping the last LS_HISTORY cycles costs no copy (the ring has more
     * slots, lockstep.h: late, the cycle being built while the one before
     * is checked). */
    for (;;) {
        if (c->progress && r->cycles >= next_progress) {
            next_progress = r->cycles + 0x10000;
            if (ls_now() >= next_report) {
                ls_progress(c, r, &run, t0);
                next_report = ls_now() + 0.5;
            }
        }
        /* A block of plain cycles, when the last cycle was one and the next
         * are: the model counts them at once, the DUT steps through them and
         * checks each in place. The history and pend are not kept in a
         * block, so a run with one that does not pass is run again without
         * (the report is the cycle-by-cycle loop's). --inject: a block stops
         * before its cycle, unless it flips an output that varies in one. */
        if (pb && pq.quiet && !dbeat.valid) {
            unsigned max = SPU_PLAIN_MAX;
            if (c->inject && !(inj_pop | inj_pmsicr) && c->inject_cycle >= run.cycle &&
                c->inject_cycle - run.cycle < max)
                max = (unsigned)(c->inject_cycle - run.cycle);
            const unsigned k = max ? run_plain(&run, &m, max, pb) : 0;
            if (k == UINT_MAX) {
                r->status = LS_ERROR;
                snprintf(r->err, sizeof r->err, "%s", run.err);
                break;
            }
            if (k) {
                if ((inj_pop | inj_pmsicr) && c->inject_cycle >= pb->cycle && c->inject_cycle - pb->cycle < k) {
                    pb->npop[c->inject_cycle - pb->cycle] ^= inj_pop;
                    pb->pmsicr[c->inject_cycle - pb->cycle] ^= inj_pmsicr;
                    r->injected = 1;
                }
                r->nhist_block = r->nhist; /* the history has no entry for the block */
                const unsigned ok = c->vt->step_plain(d, pb, k, &pq);
                r->cycles += ok;
                r->quiet += ok;
                r->blocks += ok;
                if (ok < k) {
                    r->status = LS_DIFF;
                    r->fail_cycle = pb->cycle + ok - 1; /* the outputs of the cycle before step ok */
                    break;
                }
                pq.pop = pb->npop[k - 1];
                pq.obs_pmsicr = pb->pmsicr[k - 1];
                continue;
            }
        }
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
        /* late, after a plain cycle of the model (spu_model_step() returned
         * 1: its outputs are quiet) and with no write beat of the DUT's
         * to take: the outputs the DUT shows checked in place, not unpacked */
        int checked = 0;
        if (pq.quiet && !dbeat.valid) {
            checked = c->vt->step_check_quiet(d, in, &pq);
            if (!checked && LS_AFTER_BLOCK(r)) { /* pend is before the block: the run again reports it */
                r->status = LS_DIFF;
                r->fail_cycle = cy.cycle - 1;
                break;
            }
            if (!checked)
                c->vt->outputs(d, &dout); /* not those: the full check below reports them */
        } else if (!ap) {
            c->vt->step(d, in, &dout);
        } else if (apb_step(ap, c, d, in, &dout, &run, cy.cycle, r)) {
            r->status = LS_ERROR;
            break;
        }
        if (c->dut_only) {
            /* Bench: the same stimulus and core model, fed by the DUT. */
            if (ls_dut_beat(&dbeat, &dmem, in, &dout, r))
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
        if (checked) {
            r->cycles++;
            r->quiet++;
        } else if (late && pend && ls_dut_check(c, d, (ls_rec_t)m.rec, pend, &dout, 0, NULL, NULL, &dbeat, &dmem, r))
            break;
        const int plain = cov_model_step(c->cov, &m, in, mout) && late && !ap;
        if (c->inject && cy.cycle == c->inject_cycle) {
            /* perturbed: a quiet cycle still if only an output it carries changed */
            r->injected = cmp_perturb(mout, c->inject) == 0;
            cmp_quiet(mout, &pq);
            pq.quiet = pq.quiet && late && !ap;
        } else if ((pq.quiet = (uint8_t)plain)) {
            cmp_quiet_carried(mout, &pq);
        }
        const int apb_differs = ap && apb_after(ap, c, in, mout, cy.cycle, r);
        h->cycle = cy.cycle;
        r->nhist++;
        pend = h;
        if (!late) {
            pend = NULL;
            if (ls_dut_check(c, d, (ls_rec_t)m.rec, h, &dout, apb_differs, ap ? &ap->dapb : NULL, ap ? &ap->mapb : NULL, &dbeat, &dmem, r))
                break;
        }
        if (run_observe(&run, &cy, in, mout) || run_records(&run, &cy, mout, &m)) {
            /* a difference of the DUT in this cycle comes first */
            if (pend) {
                c->vt->step(d, in, &dout);
                pend = NULL;
                if (ls_dut_check(c, d, (ls_rec_t)m.rec, h, &dout, 0, NULL, NULL, &dbeat, &dmem, r))
                    break;
            }
            r->status = LS_CORE;
            r->fail_cycle = cy.cycle;
            snprintf(r->err, sizeof r->err, "%s", run.err);
            break;
        }
        if (c->wave && tracing && cy.cycle >= c->wave_to)
            break;
    }
    /* late: the last cycle's outputs, one step more (its inputs again, which
     * the input stage loads and nothing uses) */
    if (pend && r->status == LS_PASS && LS_AFTER_BLOCK(r)) {
        /* the block's last cycle, quiet (the run again reports a difference) */
        if (c->vt->step_check_quiet(d, &pend->in, &pq)) {
            r->cycles++;
            r->quiet++;
        } else {
            r->status = LS_DIFF;
            r->fail_cycle = run.cycle - 1;
        }
    } else if (pend && r->status == LS_PASS) {
        c->vt->step(d, &pend->in, &dout);
        ls_dut_check(c, d, (ls_rec_t)m.rec, pend, &dout, 0, NULL, NULL, &dbeat, &dmem, r);
    }
    r->seconds = ls_now() - t0;
    if (c->progress) {
        ls_progress(c, r, &run, t0);
        fputc('\n', stderr);
    }
    if (ap) {
        r->apb = ap->bus.st;
        free(ap);
    }
    ls_end_run(c, &run, &m, &mmem, &dmem, r);
    r->evals = c->vt->evals(d) - evals0;
    r->clocking = c->vt->clocking_says(d);
    r->mutant_activated = c->mutant >= 0 ? c->vt->mutant_activated(d) : 0;
    if (tracing)
        c->vt->trace_close(d);
    c->vt->destroy(d);
}

/* The output files a run writes as it goes (and --mem-bin at the end), with
 * what to call them. */
typedef struct ls_output {
    FILE *f;
    const char *name;
    const char *refusal;         /* lockstep_rerun_refusal() when f is not a regular file */
} ls_output_t;
#define LS_NOUT 4
/* 1 for /dev/null: written again by a run again, with nothing to cut back */
static int is_devnull(FILE *f)
{
    struct stat a, b;
    return !fstat(fileno(f), &a) && !stat("/dev/null", &b) && S_ISCHR(a.st_mode) && a.st_rdev == b.st_rdev;
}
/* The outputs a run again must cut back (/dev/null is left out) */
static void outputs(const ls_cfg_t *c, ls_output_t out[LS_NOUT])
{
#define LS_REWRITE " is not a regular file (a pipe, a terminal or a device), which a run again after a failure could not rewrite"
    out[0] = (ls_output_t){c->log, "the .spl log", "the .spl log" LS_REWRITE " (--log FILE, or --quiet for none)"};
    out[1] = (ls_output_t){c->rec_f, "--rec-bin", "--rec-bin" LS_REWRITE};
    out[2] = (ls_output_t){c->rec_txt, "--records", "--records" LS_REWRITE};
    out[3] = (ls_output_t){c->mem_f, "--mem-bin", "--mem-bin" LS_REWRITE};
#undef LS_REWRITE
    for (int i = 0; i < LS_NOUT; i++)
        if (out[i].f && is_devnull(out[i].f))
            out[i].f = NULL;
}

const char *lockstep_rerun_refusal(const ls_cfg_t *c)
{
    if (c->apb)
        return "--apb: the bus master runs with the DUT, cycle by cycle";
    if (c->dut_only)
        return "--dut-only: the core model follows the DUT, so nothing runs ahead of it";
    if (c->wave)
        return "a wave is written as the run goes";
    if (c->mutant >= 0)
        return "--mutant: a mutant run is meant to fail, and a failing run would be run again";
    if (!c->fresh_source)
        return "the stimulus cannot be started again";
    ls_output_t out[LS_NOUT];
    outputs(c, out);
    for (int i = 0; i < LS_NOUT; i++) {
        struct stat st;
        if (out[i].f && (fstat(fileno(out[i].f), &st) || !S_ISREG(st.st_mode)))
            return out[i].refusal;
    }
    return NULL;
}

void lockstep_run(const ls_cfg_t *c, spu_src_t src, ls_result_t *r)
{
    /* With blocks of plain cycles, a run that does not pass is run again
     * from a fresh source, cycle by cycle, for the report */
    if (c->no_blocks || lockstep_rerun_refusal(c)) {
        run_one_thread(c, src, r, 0);
        return;
    }
    /* Where each output file stands, to cut it back to */
    ls_output_t out[LS_NOUT];
    off_t at[LS_NOUT] = {0};
    outputs(c, out);
    for (int i = 0; i < LS_NOUT; i++)
        if (out[i].f && (fflush(out[i].f) || (at[i] = ftello(out[i].f)) < 0)) {
            memset(r, 0, sizeof *r);
            r->status = LS_ERROR;
            snprintf(r->err, sizeof r->err, "blocks: where %s stands before the run is not known: %s", out[i].name,
                     strerror(errno));
            return;
        }
    run_one_thread(c, src, r, 1);
    /* A pass; or no block in the history the report shows, so it is the
     * cycle-by-cycle loop's; an error (of run_plain() too) is reported as it is */
    if (r->status == LS_PASS || r->status == LS_ERROR || !r->blocks || r->nhist - r->nhist_block >= LS_HISTORY)
        return;
    /* Not a pass: the report comes from the checker without blocks, on the
     * same stimulus from its start, into the same files. */
    const uint64_t stopped = r->cycles, blocked = r->blocks;
    char why[sizeof r->rerun_why];
    if (r->status == LS_DIFF)
        snprintf(why, sizeof why, "a difference at cycle %" PRIu64, r->fail_cycle);
    else
        snprintf(why, sizeof why, "%.180s", r->err);
    for (int i = 0; i < LS_NOUT; i++) {
        if (!out[i].f)
            continue;
        fflush(out[i].f);
        clearerr(out[i].f); /* an error of the first run must not fail the second */
        if (ftruncate(fileno(out[i].f), at[i]) || fseeko(out[i].f, at[i], SEEK_SET)) {
            memset(r, 0, sizeof *r);
            r->status = LS_ERROR;
            snprintf(r->err, sizeof r->err, "blocks: the run did not pass (%.120s), and %s could not be cut back "
                     "for a run again cycle by cycle: %s", why, out[i].name, strerror(errno));
            return;
        }
    }
    if (c->cov)
        cov_init(c->cov, c->cfg);
    run_one_thread(c, c->fresh_source(c->fresh_ctx), r, 0);
    r->rerun = 1;
    r->rerun_cycles = stopped;
    r->rerun_blocks = blocked;
    memcpy(r->rerun_why, why, sizeof why);
}
