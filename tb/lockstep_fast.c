/*
 * The fast lockstep loop (lockstep_priv.h): what the reference loop of
 * lockstep.c does, cycle for cycle, with its speed behind this one file:
 *   - late: spu_top behind its input stage, so the DUT's step shows the
 *     outputs of the cycle before (one evaluation per cycle, dut.h), and
 *     its clocks raised in one evaluation (vl/vl_clock.h);
 *   - quiet cycles (the model's spu_fast_step() returned 1) checked in
 *     place against spu_quiet_t, not unpacked (step_check_quiet());
 *   - blocks: runs of plain cycles counted by the model at once
 *     (spu_model_block(), golden/spu_fast.h) while the DUT steps through
 *     them and checks each in place (step_block()). The history has no
 *     entry for a block, so lockstep_run() reports a failing run with
 *     blocks from the reference loop run again.
 * tests/tb_tests.sh requires identical logs, records and reports from both.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "lockstep_priv.h"

/* Everything one run of the loop keeps. */
typedef struct ls_fast {
    const ls_cfg_t *c;
    ls_result_t *r;
    spu_model_t m;
    spu_run_t run;
    spu_cyc_t cy;
    spu_out_t dout;              /* the DUT's outputs of the last step, unpacked */
    spu_dut_t *d;
    int late;                    /* the DUT shows the outputs of the cycle before */
    int tracing;                 /* --wave: the FST is open */
    uint64_t evals0;
    spu_mem_t mmem, dmem;
    ls_beat_t dbeat;             /* the DUT's beat shown */
    spu_quiet_t pq;              /* late: pend's outputs as a quiet cycle (pq.quiet: they are) */
    ls_hist_t *pend;             /* late: the cycle whose outputs the DUT's next step shows */
    ls_apb_t *ap;                /* --apb */
    spu_block_t *pb;             /* blocks of plain cycles (NULL: none) */
    uint8_t inj_pop;             /* --inject in a block: the flips of SAMPLE_POP ... */
    uint64_t inj_pmsicr;         /* ... and PMSICR_EL1 (inject_in_block()) */
    double t0;
    spu_block_t pbuf;
} ls_fast_t;

/* The last cycle was a block's: no history entry came after it, so pend is
 * the cycle before the block and pq the block's last cycle. */
#define LS_AFTER_BLOCK(r) ((r)->blocks && (r)->nhist == (r)->nhist_block)

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
    if (cmp_equal(&o, &z)) {
        *pop = o.pmu[SPU_PMU_POP];
        *pmsicr = o.obs_pmsicr;
    }
}

/* The model, the DUT (late: behind the input stage; --dut-only feeds the
 * core model from the DUT's outputs, so it steps without delay), the run
 * and the APB master. 0, or -1 (r says why). */
static int fast_open(ls_fast_t *f, const ls_cfg_t *c, spu_src_t src, ls_result_t *r, int blocks)
{
    f->c = c;
    f->r = r;
    if (ls_start(c, &f->m, r))
        return -1;
    f->late = c->vt->input_stage && !c->dut_only;
    if (!(f->d = ls_open_dut(c, c->full_clock, f->late, r)))
        return -1;
    f->evals0 = c->vt->evals(f->d);
    ls_begin_run(c, src, &f->run, &f->m, &f->mmem, &f->dmem);
    f->ap = ls_apb_open(c, r);
    if (c->apb && !f->ap) {
        mem_free(&f->mmem);
        mem_free(&f->dmem);
        c->vt->destroy(f->d);
        return -1;
    }
    /* blocks of plain cycles: late only (the model drives the stimulus), and
     * not with --apb or coverage, which see every cycle */
    f->pb = blocks && f->late && !f->ap && !c->cov ? &f->pbuf : NULL;
    inject_in_block(c->inject, &f->inj_pop, &f->inj_pmsicr);
    f->t0 = ls_now();
    return 0;
}

/* A block of plain cycles, when the last cycle was one and the next are:
 * the model counts them at once, the DUT steps through them and checks
 * each in place. --inject: a block stops before its cycle, unless it flips
 * an output that varies in one. 1: a block was taken; 0: none; -1: the run
 * stops (r->status set). */
static int fast_block(ls_fast_t *f)
{
    const ls_cfg_t *c = f->c;
    ls_result_t *r = f->r;
    spu_block_t *pb = f->pb;
    unsigned max = SPU_BLOCK_MAX;
    if (c->inject && !(f->inj_pop | f->inj_pmsicr) && c->inject_cycle >= f->run.cycle &&
        c->inject_cycle - f->run.cycle < max)
        max = (unsigned)(c->inject_cycle - f->run.cycle);
    const unsigned k = max ? run_block(&f->run, &f->m, max, pb) : 0;
    if (k == UINT_MAX) {
        r->status = LS_ERROR;
        snprintf(r->err, sizeof r->err, "%s", f->run.err);
        return -1;
    }
    if (!k)
        return 0;
    if ((f->inj_pop | f->inj_pmsicr) && c->inject_cycle >= pb->cycle && c->inject_cycle - pb->cycle < k) {
        pb->npop[c->inject_cycle - pb->cycle] ^= f->inj_pop;
        pb->pmsicr[c->inject_cycle - pb->cycle] ^= f->inj_pmsicr;
        r->injected = 1;
    }
    r->nhist_block = r->nhist; /* the history has no entry for the block */
    const unsigned ok = c->vt->step_block(f->d, pb, k, &f->pq);
    r->cycles += ok;
    r->quiet += ok;
    r->blocks += ok;
    if (ok < k) {
        r->status = LS_DIFF;
        r->fail_cycle = pb->cycle + ok - 1; /* the outputs of the cycle before step ok */
        return -1;
    }
    f->pq.pop = pb->npop[k - 1];
    f->pq.obs_pmsicr = pb->pmsicr[k - 1];
    return 1;
}

/* The DUT's step of a cycle. Late, after a plain cycle of the model (its
 * outputs quiet) and with no write beat of the DUT's to take: the outputs
 * the DUT shows checked in place, not unpacked. 1: checked so; 0: the
 * outputs are in f->dout; -1: the run stops. */
static int fast_dut_step(ls_fast_t *f, spu_in_t *in)
{
    const ls_cfg_t *c = f->c;
    ls_result_t *r = f->r;
    if (f->pq.quiet && !f->dbeat.valid) {
        const int checked = c->vt->step_check_quiet(f->d, in, &f->pq);
        if (!checked && LS_AFTER_BLOCK(r)) { /* pend is before the block: the run again reports it */
            r->status = LS_DIFF;
            r->fail_cycle = f->cy.cycle - 1;
            return -1;
        }
        if (!checked)
            c->vt->outputs(f->d, &f->dout); /* not those: the full check below reports them */
        return checked;
    }
    if (!f->ap)
        c->vt->step(f->d, in, &f->dout);
    else if (ls_apb_step(f->ap, c, f->d, in, &f->dout, &f->run, f->cy.cycle, r))
        return -1;
    return 0;
}

/* --dut-only: the same stimulus and core model, fed by the DUT. 1: the run
 * stops. */
static int fast_dut_only(ls_fast_t *f, const spu_in_t *in)
{
    ls_result_t *r = f->r;
    if (ls_dut_beat(&f->dbeat, &f->dmem, in, &f->dout, r))
        return 1;
    if (f->ap)
        ls_apb_after(f->ap, f->c, in, &f->dout, f->cy.cycle, r);
    r->cycles++;
    if (run_observe(&f->run, &f->cy, in, &f->dout)) {
        r->status = LS_CORE;
        r->fail_cycle = f->cy.cycle;
        snprintf(r->err, sizeof r->err, "%s", f->run.err);
        return 1;
    }
    return 0;
}

/* The model's step of cycle h, and the check of the DUT's outputs: late,
 * those of the cycle before (pend); else h's. 1: the run stops. */
static int fast_model_step(ls_fast_t *f, ls_hist_t *h, int checked)
{
    const ls_cfg_t *c = f->c;
    ls_result_t *r = f->r;
    const int late = f->late, ap = f->ap != NULL;
    if (checked) {
        r->cycles++;
        r->quiet++;
    } else if (late && f->pend &&
               ls_dut_check(f->pend, &f->dout, 0, NULL, NULL, &f->dbeat, &f->dmem, r))
        return 1;
    const int plain = cov_model_step(c->cov, &f->m, &h->in, &h->out) && late && !ap;
    if (c->inject && f->cy.cycle == c->inject_cycle) {
        /* perturbed: a quiet cycle still if only an output it carries changed */
        r->injected = cmp_perturb(&h->out, c->inject) == 0;
        cmp_quiet(&h->out, &f->pq);
        f->pq.quiet = f->pq.quiet && late && !ap;
    } else if ((f->pq.quiet = (uint8_t)plain)) {
        cmp_quiet_carried(&h->out, &f->pq);
    }
    const int apb_differs = ap && ls_apb_after(f->ap, c, &h->in, &h->out, f->cy.cycle, r);
    h->cycle = f->cy.cycle;
    r->nhist++;
    f->pend = h;
    if (!late) {
        f->pend = NULL;
        return ls_dut_check(h, &f->dout, apb_differs, ap ? &f->ap->dapb : NULL,
                            ap ? &f->ap->mapb : NULL, &f->dbeat, &f->dmem, r);
    }
    return 0;
}

/* The core model fed from the cycle's (equal) outputs; a difference of the
 * DUT in this cycle comes first. 1: the run stops. */
static int fast_observe(ls_fast_t *f, ls_hist_t *h)
{
    ls_result_t *r = f->r;
    if (!run_observe(&f->run, &f->cy, &h->in, &h->out) && !run_records(&f->run, &f->cy, &h->out, &f->m))
        return 0;
    if (f->pend) {
        f->c->vt->step(f->d, &h->in, &f->dout);
        f->pend = NULL;
        if (ls_dut_check(h, &f->dout, 0, NULL, NULL, &f->dbeat, &f->dmem, r))
            return 1;
    }
    r->status = LS_CORE;
    r->fail_cycle = f->cy.cycle;
    snprintf(r->err, sizeof r->err, "%s", f->run.err);
    return 1;
}

/* One cycle, its inputs and model outputs built in place in the history
 * ring (no copy: the ring has room for the cycle being built while the one
 * before is checked). 1: the run stops (or the stimulus ended). */
static int fast_cycle(ls_fast_t *f)
{
    const ls_cfg_t *c = f->c;
    ls_result_t *r = f->r;
    ls_hist_t *h = &r->hist[r->nhist % LS_RING];
    if (run_inputs(&f->run, &f->cy, &h->in) <= 0)
        return 1;
    if (c->wave && !f->tracing && f->cy.cycle >= c->wave_from) {
        if (!(f->tracing = c->vt->trace_open(f->d, c->wave) == 0)) {
            r->status = LS_ERROR;
            snprintf(r->err, sizeof r->err, "cannot write the wave file %s", c->wave);
            return 1;
        }
    }
    const int checked = fast_dut_step(f, &h->in);
    if (checked < 0)
        return 1;
    if (c->dut_only)
        return fast_dut_only(f, &h->in);
    if (fast_model_step(f, h, checked) || fast_observe(f, h))
        return 1;
    return c->wave && f->tracing && f->cy.cycle >= c->wave_to;
}

/* Late: the last cycle's outputs, one step more (its inputs again, which
 * the input stage loads and nothing uses); then the end of the run. */
static void fast_close(ls_fast_t *f)
{
    const ls_cfg_t *c = f->c;
    ls_result_t *r = f->r;
    if (f->pend && r->status == LS_PASS && LS_AFTER_BLOCK(r)) {
        /* the block's last cycle, quiet (the run again reports a difference) */
        if (c->vt->step_check_quiet(f->d, &f->pend->in, &f->pq)) {
            r->cycles++;
            r->quiet++;
        } else {
            r->status = LS_DIFF;
            r->fail_cycle = f->run.cycle - 1;
        }
    } else if (f->pend && r->status == LS_PASS) {
        c->vt->step(f->d, &f->pend->in, &f->dout);
        ls_dut_check(f->pend, &f->dout, 0, NULL, NULL, &f->dbeat, &f->dmem, r);
    }
    ls_close(c, &f->run, &f->m, &f->mmem, &f->dmem, f->d, f->ap, f->tracing, f->evals0, f->t0, r);
}

/* lockstep_priv.h */
void ls_fast_run(const ls_cfg_t *c, spu_src_t src, ls_result_t *r, int blocks)
{
    ls_fast_t *f = calloc(1, sizeof *f);
    if (!f) {
        memset(r, 0, sizeof *r);
        r->status = LS_ERROR;
        snprintf(r->err, sizeof r->err, "out of memory for the lockstep loop");
        return;
    }
    if (fast_open(f, c, src, r, blocks) == 0) {
        uint64_t next_progress = 0x10000; /* cycles checked before the clock is looked at */
        double next_report = f->t0 + 0.5;
        for (;;) {
            if (r->cycles >= next_progress) {
                next_progress = r->cycles + 0x10000;
                if (spu_interrupted) {
                    r->status = LS_STOPPED;
                    break;
                }
                if (c->progress && ls_now() >= next_report) {
                    ls_progress(c, r, &f->run, f->t0);
                    next_report = ls_now() + 0.5;
                }
            }
            const int b = f->pb && f->pq.quiet && !f->dbeat.valid ? fast_block(f) : 0;
            if (b < 0)
                break;
            if (!b && fast_cycle(f))
                break;
        }
        fast_close(f);
    }
    free(f);
}
