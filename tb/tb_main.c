/*
 * spu-tb: the lockstep checker. The Verilated spu_top and the golden model run
 * on the same stimulus; every output is compared on every cycle; the first
 * difference stops the run with a report, the stimulus up to it saved as a
 * .spt, an optional FST window (--wave) and an optional reduced trace
 * (--shrink).
 *
 *   build/spu-tb TRACE.spt
 *   build/spu-tb --config wide --seed 7 --cycles 2000000 --quiet
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "interrupt.h"
#include "lockstep.h"
#include "setup.h"
#include "stats.h"
#include "tb_opts.h"
#include "tb_report.h"

/* --inject SIGNAL@CYCLE into lc; 0 or -1 (message printed). */
static int parse_inject(const char *spec, char *sig, size_t len, ls_cfg_t *lc)
{
    const char *at = strchr(spec, '@');
    spu_out_t probe = {0};
    char *end;
    if (!at || (size_t)(at - spec) >= len || !at[1] || at[1] == '-') {
        fprintf(stderr, "error: --inject '%s': expected SIGNAL@CYCLE, e.g. rec_tot_lat_o@5000\n", spec);
        return -1;
    }
    errno = 0;
    const unsigned long long cyc = strtoull(at + 1, &end, 0);
    if (*end || errno) {
        fprintf(stderr, "error: --inject '%s': '%s' is not a cycle number\n", spec, at + 1);
        return -1;
    }
    memcpy(sig, spec, (size_t)(at - spec));
    sig[at - spec] = '\0';
    spu_apb_out_t probe_apb = {0};
    const int apb_sig = lc->apb && cmp_perturb_apb(&probe_apb, sig) == 0;
    if (!apb_sig && cmp_perturb(&probe, sig)) {
        fprintf(stderr, "error: --inject: unknown output '%s'%s\n", sig,
                lc->apb ? "" : cmp_perturb_apb(&probe_apb, sig) ? "" : " (an output of spu_apb: add --apb)");
        return -1;
    }
    if (!apb_sig && !cmp_signal_exists(lc->cfg, sig)) {
        fprintf(stderr, "error: --inject: configuration %s has no output '%s' (a lane or port it lacks, or an event it "
                        "does not implement)\n", lc->cfg->name, sig);
        return -1;
    }
    lc->inject = sig;
    lc->inject_cycle = cyc;
    return 0;
}

/* Blocks of plain cycles: the run's stimulus again from its start (lockstep.h) */
static spu_src_t fresh_source(void *ctx)
{
    spu_setup_t *s = ctx;
    return opts_fresh_source(s, &s->cursor, &s->gen, &s->pev_src);
}

/* The lockstep run's configuration from the options: 0, or 2 (the
 * message printed). inj holds --inject's signal name. */
static int make_cfg(const tb_opts_t *t, spu_setup_t *s, ls_cfg_t *lc, char *inj, size_t len)
{
    const spu_opts_t *o = &t->eng;
    lc->cfg = &s->cfg;
    /* --wave: the model Verilated with tracing, for the whole run, so that
     * the run again for the wave (write_wave) is the same model */
    lc->vt = spu_dut_find(s->cfg.name, t->apb, t->wave);
    lc->apb = t->apb;
    if (!lc->vt) {
        fprintf(stderr, "error: %s%sno Verilated build of %s%s for configuration '%s' in this binary%s\n",
                t->apb ? "--apb: " : "", t->wave ? "--wave: " : "", t->apb ? "spu_apb" : "spu_top",
                t->wave ? " with tracing" : "", s->cfg.name,
                t->apb ? " (the Makefile's APB_CONFIGS lists the ones built)" : "");
        return 2;
    }
    lc->init_seed = t->init_seed ? t->init_seed : o->seed % 1000003u + 1u;
    lc->log = s->log_f;
    lc->rec_f = s->rec_f;
    lc->rec_txt = s->rec_txt;
    lc->mem_f = s->mem_f;
    lc->mem_stall = (unsigned)o->mem_stall;
    lc->stray = (unsigned)o->stray;
    lc->progress = o->progress;
    lc->progress_total = s->have_trace ? s->trace.last_cycle + 1 : o->cycles;
    lc->dut_only = t->dut_only;
    lc->full_clock = t->full_clock;
    if (o->cov) {
        if (!(lc->cov = malloc(sizeof *lc->cov))) {
            fprintf(stderr, "error: out of memory\n");
            return 2;
        }
        cov_init(lc->cov, &s->cfg);
    }
    if (o->report) { /* counted per selection and record (run_observe_full()) */
        if (!(lc->stats = malloc(sizeof *lc->stats))) {
            fprintf(stderr, "error: out of memory\n");
            return 2;
        }
        stats_init(lc->stats);
    }
    lc->mutant = t->have_mutant ? (int64_t)t->mutant : -1;
    if (t->inject && parse_inject(t->inject, inj, len, lc))
        return 2;
    lc->reference = t->reference;
    lc->no_blocks = o->no_skip;
    lc->fresh_source = fresh_source;
    lc->fresh_ctx = s;
    static char rerun_dir[PATH_MAX]; /* a failing fast run's run again writes there */
    if (t->fail_dir)
        snprintf(rerun_dir, sizeof rerun_dir, "%s", t->fail_dir);
    else
        tb_fail_dir(rerun_dir, sizeof rerun_dir);
    lc->rerun_dir = rerun_dir;
    return 0;
}

int main(int argc, char **argv)
{
    tb_opts_t o;
    spu_setup_t *s = calloc(1, sizeof *s);
    ls_result_t *r = calloc(1, sizeof *r);
    char inj[64] = "", seed[24];
    if (!s || !r) {
        fprintf(stderr, "error: out of memory\n");
        return 2;
    }
    const int pr = tb_opts_parse(&o, argc, argv);
    if (pr || opts_setup(&o.eng, s)) {
        free(s);
        free(r);
        return pr > 0 ? 0 : 2;
    }
    ls_cfg_t lc = {0};
    int rc = make_cfg(&o, s, &lc, inj, sizeof inj);
    if (!rc) {
        snprintf(seed, sizeof seed, "%" PRIu64, o.eng.seed);
        fprintf(stderr, "spu-tb: config %s, %s %s, init seed %" PRIu64 " (+verilator+rand+reset+2 +verilator+seed+%" PRIu64
                        ")\n", s->cfg.name, s->have_trace ? "trace" : "seed", s->have_trace ? o.eng.trace : seed,
                lc.init_seed, lc.init_seed);
        spu_interrupt_install();
        lockstep_run(&lc, s->src, r);
        rc = tb_outcome(&o, s, &lc, r, argc, argv);
    }
    free(lc.cov);
    free(lc.stats);
    if (opts_teardown(s) && rc == 0)
        rc = 1;
    free(s);
    free(r);
    return rc;
}
