/*
 * The lockstep checker (lockstep.h): the reference loop, which is its
 * specification, and lockstep_run(), which runs it (--reference) or the
 * fast loop of lockstep_fast.c, whose speed sits behind that one file and
 * golden/spu_fast.h. Per cycle, the same inputs to the DUT and the model,
 * a compare of every output, and the core model fed from the (equal)
 * outputs; the last LS_HISTORY cycles are kept for the report. A fast run
 * with blocks of plain cycles that does not pass is run again by the
 * reference loop, into its own files, for its report.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "interrupt.h"
#include "lockstep_priv.h"
#include "stats.h"

/* The reference loop's model step: spu_model_step(), the reference API,
 * with coverage sampled when it is on. 0, or -1 (r says why). */
static int ref_model_step(const ls_cfg_t *c, spu_model_t *m, const spu_in_t *in, spu_out_t *out, ls_result_t *r)
{
    spu_model_t before;
    if (c->cov)
        before = *m;
    const int rc = spu_model_step(m, in, out);
    if (c->cov && rc == 0)
        cov_sample(c->cov, &before, in, out, m);
    if (rc == 0)
        return 0;
    r->status = LS_ERROR;
    snprintf(r->err, sizeof r->err, "the stimulus gave the model an input that does not fit its port: %s",
             spu_model_bad_input(m, in));
    return -1;
}

/* --wave: the FST opened at its first cycle (*tracing); 1 when it cannot be
 * written (r says so). */
static int ref_wave(const ls_cfg_t *c, spu_dut_t *d, uint64_t cycle, int *tracing, ls_result_t *r)
{
    if (!c->wave || *tracing || cycle < c->wave_from)
        return 0;
    if ((*tracing = c->vt->trace_open(d, c->wave) == 0))
        return 0;
    r->status = LS_ERROR;
    snprintf(r->err, sizeof r->err, "cannot write the wave file %s", c->wave);
    return 1;
}

/* The core model fed from the cycle's (equal) outputs: 1, r->status
 * LS_CORE, when they contradict it. */
static int ref_observe(spu_run_t *run, const spu_cyc_t *cy, const ls_hist_t *h, const spu_model_t *m,
                       ls_result_t *r)
{
    if (!run_observe(run, cy, &h->in, &h->out) && !run_records(run, cy, &h->out, m))
        return 0;
    r->status = LS_CORE;
    r->fail_cycle = cy->cycle;
    snprintf(r->err, sizeof r->err, "%s", run->err);
    return 1;
}

/* The reference loop, the specification of the checker (--reference; the
 * fast loop of lockstep_fast.c must give the same logs, records and
 * reports): each cycle, the stimulus's inputs to the DUT (spu_top's own
 * timing, eval() on both clock edges) and to the model (spu_model_step()),
 * every output and record byte compared, the core model fed from them. */
static void ls_reference(const ls_cfg_t *c, spu_src_t src, ls_result_t *r)
{
    spu_model_t m;
    spu_run_t run;
    spu_cyc_t cy;
    spu_out_t dout;
    spu_mem_t mmem, dmem;
    ls_beat_t beat = {0};
    int tracing = 0;
    spu_dut_t *d = ls_start(c, &m, r) ? NULL : ls_open_dut(c, 1, 0, r);
    if (!d)
        return;
    const uint64_t evals0 = c->vt->evals(d);
    const double t0 = ls_now();
    ls_begin_run(c, src, &run, &m, &mmem, &dmem);
    ls_apb_t *ap = ls_apb_open(c, r);
    while (r->status == LS_PASS) {
        ls_hist_t *h = &r->hist[r->nhist % LS_RING];
        if (run_inputs(&run, &cy, &h->in) <= 0 || ref_wave(c, d, cy.cycle, &tracing, r))
            break;
        if (!ap)
            c->vt->step(d, &h->in, &dout);
        else if (ls_apb_step(ap, c, d, &h->in, &dout, &run, cy.cycle, r))
            break;
        if (ref_model_step(c, &m, &h->in, &h->out, r))
            break;
        if (c->inject && cy.cycle == c->inject_cycle)
            r->injected = cmp_perturb(&h->out, c->inject) == 0;
        const int apb_differs = ap && ls_apb_after(ap, c, &h->in, &h->out, cy.cycle, r);
        h->cycle = cy.cycle;
        r->nhist++;
        if (ls_dut_check(h, &dout, apb_differs, ap ? &ap->dapb : NULL,
                         ap ? &ap->mapb : NULL, &beat, &dmem, r) ||
            ref_observe(&run, &cy, h, &m, r) || (tracing && cy.cycle >= c->wave_to))
            break;
        if (!(r->cycles & 0xFFFF) && spu_interrupted)
            r->status = LS_STOPPED;
        else if (c->progress && !(r->cycles & 0xFFFF))
            ls_progress(c, r, &run, t0);
    }
    ls_close(c, &run, &m, &mmem, &dmem, d, ap, tracing, evals0, t0, r);
}

/* The output files a run writes as it goes (and --mem-bin at the end): the
 * reference loop run again after a failing fast run writes its own copy
 * of each the user asked for, never into the user's. */
typedef struct ls_output {
    FILE *const *f;              /* the field of ls_cfg_t */
    const char *name;            /* its file name in the run again's directory */
} ls_output_t;

/* 1 for /dev/null: nothing to write a copy of */
static int is_devnull(FILE *f)
{
    struct stat a, b;
    return !fstat(fileno(f), &a) && !stat("/dev/null", &b) && S_ISCHR(a.st_mode) && a.st_rdev == b.st_rdev;
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
    return NULL;
}

/* The run again's configuration: c with its output files opened anew in a
 * new directory under c->rerun_dir (rc->rerun_dir names it), or none
 * without one. 0, or -1 with r->err saying why. */
static int rerun_cfg(const ls_cfg_t *c, ls_cfg_t *rc, char *dir, size_t len, ls_result_t *r)
{
    *rc = *c;
    rc->reference = 1;
    rc->log = rc->rec_f = rc->rec_txt = rc->mem_f = NULL;
    rc->rerun_dir = NULL;
    dir[0] = '\0';
    ls_output_t out[] = {{&c->log, "run.spl"}, {&c->rec_f, "records.bin"}, {&c->rec_txt, "records.txt"},
                         {&c->mem_f, "mem.bin"}};
    FILE **to[] = {&rc->log, &rc->rec_f, &rc->rec_txt, &rc->mem_f};
    if (!c->rerun_dir)
        return 0;
    if ((mkdir(c->rerun_dir, 0777) && errno != EEXIST) ||
        snprintf(dir, len, "%s/reference-XXXXXX", c->rerun_dir) >= (int)len || !mkdtemp(dir))
        return snprintf(r->err, sizeof r->err, "the run again's directory in %.200s: %s", c->rerun_dir,
                        strerror(errno)), -1;
    for (size_t i = 0; i < sizeof out / sizeof out[0]; i++) {
        char path[PATH_MAX];
        if (!*out[i].f || is_devnull(*out[i].f))
            continue;
        if (snprintf(path, sizeof path, "%s/%s", dir, out[i].name) >= (int)sizeof path)
            return snprintf(r->err, sizeof r->err, "%.200s/%s: the path is too long", dir, out[i].name), -1;
        if (!(*to[i] = fopen(path, "w")))
            return snprintf(r->err, sizeof r->err, "%.240s: %s", path, strerror(errno)), -1;
    }
    rc->rerun_dir = dir;
    return 0;
}

/* The files rerun_cfg() opened, closed: 0, or -1 when one could not be
 * written. */
static int rerun_close(ls_cfg_t *rc)
{
    int bad = 0;
    FILE **f[] = {&rc->log, &rc->rec_f, &rc->rec_txt, &rc->mem_f};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (*f[i] && fclose(*f[i]))
            bad = -1;
    return bad;
}

void lockstep_run(const ls_cfg_t *c, spu_src_t src, ls_result_t *r)
{
    if (c->reference && !c->dut_only) {
        ls_reference(c, src, r);
        return;
    }
    const int blocks = !c->no_blocks && !lockstep_rerun_refusal(c);
    ls_fast_run(c, src, r, blocks);
    /* A pass; or no block in the history the report shows, so it is exact;
     * an error (of run_block() too) is reported as it is */
    if (!blocks || r->status == LS_PASS || r->status == LS_ERROR || r->status == LS_STOPPED || !r->blocks ||
        r->nhist - r->nhist_block >= LS_HISTORY)
        return;
    /* Not a pass: the report comes from the reference loop, on the same
     * stimulus from its start, into its own files (the user's keep what the
     * fast run wrote). */
    const uint64_t stopped = r->cycles, blocked = r->blocks;
    char why[sizeof r->rerun_why], dir[PATH_MAX];
    if (r->status == LS_DIFF)
        snprintf(why, sizeof why, "a difference at cycle %" PRIu64, r->fail_cycle);
    else
        snprintf(why, sizeof why, "%.180s", r->err);
    ls_cfg_t rc;
    if (rerun_cfg(c, &rc, dir, sizeof dir, r)) {
        char err[sizeof r->err];
        snprintf(err, sizeof err, "the fast run did not pass (%.80s), and the reference loop could not run "
                 "again: %.160s", why, r->err);
        rerun_close(&rc);
        memset(r, 0, sizeof *r);
        r->status = LS_ERROR;
        memcpy(r->err, err, sizeof err);
        return;
    }
    if (c->cov)
        cov_init(c->cov, c->cfg);
    if (c->stats) /* the report's statistics are the run again's, as its history is */
        stats_init(c->stats);
    ls_reference(&rc, c->fresh_source(c->fresh_ctx), r);
    if (rerun_close(&rc) && r->status != LS_ERROR)
        snprintf(dir + strlen(dir), sizeof dir - strlen(dir), " (a file there is incomplete)");
    r->rerun = 1;
    r->rerun_cycles = stopped;
    r->rerun_blocks = blocked;
    memcpy(r->rerun_why, why, sizeof why);
    snprintf(r->rerun_dir, sizeof r->rerun_dir, "%s", dir);
}
