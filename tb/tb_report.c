/*
 * spu-tb's report of a run's outcome (tb_report.h): the first-difference
 * report, the stimulus up to it saved as a .spt, the --wave window and the
 * --shrink of a failure; the closing line, vacuity, --stats and
 * --stats-json of a pass.
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
#include "json.h"
#include "plural.h"
#include "shrink.h"
#include "tb_html.h"
#include "tb_report.h"
#include "vacuity.h"

/* tb_report.h */
void tb_fail_dir(char *buf, size_t len)
{
    char exe[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = n > 0 ? (exe[n] = '\0', strrchr(exe, '/')) : NULL;
    if (slash)
        *slash = '\0';
    if (!slash || snprintf(buf, len, "%s/fail", exe) >= (int)len)
        snprintf(buf, len, "fail");
}

/* Write the stimulus of cycles 0..last to path; 0 or -1. */

#define S_(n) plural_s(n)
static int save_stimulus(const spu_setup_t *s, uint64_t last, const char *path)
{
    spt_cursor_t k;
    pev_src_t p;
    spu_gen_t *g = malloc(sizeof *g);
    FILE *f = g ? fopen(path, "w") : NULL;
    if (!f) {
        free(g);
        return -1;
    }
    spu_src_t src = opts_fresh_source(s, &k, g, &p);
    spu_cyc_t cy;
    spt_writer_t w;
    int rc = 0;
    spt_write_begin(&w, f, s->cfg.name);
    for (uint64_t c = 0; rc == 0 && c <= last && src.next(src.self, &cy); c++)
        rc = spt_write_cycle(&w, &cy, &src);
    if (spt_write_end(&w))
        rc = -1;
    if (fclose(f))
        rc = -1;
    free(g);
    return rc;
}

static size_t digits_before(const char *s, size_t k)
{
    while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
        k--;
    return k;
}

/* Length of name without a trailing "-c<cycle>" or "-c<cycle>-<n>" that
 * fail_path() added when it saved that trace. */
static size_t strip_fail_suffix(const char *s, size_t n)
{
    const size_t d = digits_before(s, n);
    if (d == n || d < 2)
        return n;
    if (s[d - 1] == 'c' && s[d - 2] == '-') /* "-c<cycle>" */
        return d - 2;
    if (s[d - 1] == '-') { /* "-<n>", after "-c<cycle>"? */
        const size_t e = digits_before(s, d - 1);
        if (e < d - 1 && e >= 2 && s[e - 1] == 'c' && s[e - 2] == '-')
            return e - 2;
    }
    return n;
}

/* DIR/<config>-<seedS|trace name>-c<cycle>[-N].spt, never an existing file
 * (a failing run of a saved trace must not overwrite its own input). A trace
 * that already carries the configuration's prefix, or the -c<cycle> of an
 * earlier save, is not given them twice. 0, or -1 with errno set. */
static int fail_path(const tb_opts_t *t, const spu_setup_t *s, uint64_t cycle, char *buf, size_t len)
{
    const spu_opts_t *o = &t->eng;
    char dir[PATH_MAX], what[160];
    if (t->fail_dir)
        snprintf(dir, sizeof dir, "%s", t->fail_dir);
    else
        tb_fail_dir(dir, sizeof dir);
    if (s->have_trace) {
        const char *b = strrchr(o->trace, '/');
        b = b ? b + 1 : o->trace;
        size_t n = strlen(b);
        if (n > 4 && !strcmp(b + n - 4, ".spt"))
            n -= 4;
        const size_t pl = strlen(s->cfg.name);
        if (n > pl && !strncmp(b, s->cfg.name, pl) && b[pl] == '-') {
            b += pl + 1;
            n -= pl + 1;
        }
        n = strip_fail_suffix(b, n);
        snprintf(what, sizeof what, "%.*s", (int)(n < 120 ? n : 120), b);
    } else {
        snprintf(what, sizeof what, "seed%" PRIu64, o->seed);
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return -1;
    struct stat st;
    for (int i = 0; i < 10000; i++) {
        char nth[16] = "";
        if (i)
            snprintf(nth, sizeof nth, "-%d", i);
        if (snprintf(buf, len, "%s/%s-%s-c%" PRIu64 "%s.spt", dir, s->cfg.name, what, cycle, nth) >= (int)len) {
            errno = ENAMETOOLONG;
            return -1;
        }
        if (stat(buf, &st) != 0)
            return 0;
    }
    errno = EEXIST; /* never overwrite: 10000 failures of the same run are there */
    return -1;
}

/* The options that reproduce this run, after the stimulus itself. */
static void repro_opts(const tb_opts_t *t, const ls_cfg_t *lc, char *buf, size_t len)
{
    const spu_opts_t *o = &t->eng;
    size_t n = (size_t)snprintf(buf, len, " --init-seed %" PRIu64, lc->init_seed);

    if (t->inject && n < len)
        n += (size_t)snprintf(buf + n, len - n, " --inject '%s'", t->inject);
    if (t->reference && n < len)
        n += (size_t)snprintf(buf + n, len - n, " --reference");
    if (t->full_clock && n < len)
        n += (size_t)snprintf(buf + n, len - n, " --full-clock");
    if (o->mem_stall && n < len)
        n += (size_t)snprintf(buf + n, len - n, " --mem-stall %" PRIu64, o->mem_stall);
    if (o->stray && n < len)
        n += (size_t)snprintf(buf + n, len - n, " --stray-events %" PRIu64, o->stray);
    if (t->have_mutant && n < len)
        snprintf(buf + n, len - n, " --mutant %lld", (long long)t->mutant);
}

static void print_report(const tb_opts_t *t, const spu_setup_t *s, const ls_cfg_t *lc,
                         const ls_result_t *r, const char *saved)
{
    const spu_opts_t *o = &t->eng;
    char a[512], b[512], ro[256], pe[700] = "";
    const int period = opts_given(o, "--period");
    FILE *e = stderr;
    fprintf(e, "\n=== spu-tb: FIRST DIFFERENCE at cycle %" PRIu64 " ===\n", r->fail_cycle);
    if (t->inject && r->injected)
        fprintf(e, "INJECTED by --inject %s (checker self-test: the model output was flipped on purpose)\n", t->inject);
    else if (t->inject)
        fprintf(e, "NOT INJECTED: this difference is real; it came before cycle %" PRIu64 " of --inject %s\n",
                lc->inject_cycle, t->inject);
    fprintf(e, "configuration %s   %s %s   init seed %" PRIu64 "\n", s->cfg.name,
            s->have_trace ? "trace" : "seed", s->have_trace ? o->trace : (snprintf(a, sizeof a, "%" PRIu64, o->seed), a),
            lc->init_seed);
    fprintf(e, "binary %s (%s)\n", o->argv[0], lc->vt->identity);
    if (r->clocking)
        fprintf(e, "DUT clocking: %s\n", r->clocking);
    if (r->status == LS_CORE) {
        fprintf(e, "the outputs (equal in DUT and model) contradict the core model: %s\n", r->err);
    } else {
        fprintf(e, "%-28s %20s %20s\n", "signal", "DUT", "model");
        for (int i = 0; i < r->ndiff && i < CMP_MAX_DIFFS; i++)
            fprintf(e, "%-28s %#20" PRIx64 " %#20" PRIx64 "\n", r->diff[i].name, r->diff[i].dut, r->diff[i].model);
    }
    const unsigned nh = (unsigned)(r->nhist < LS_HISTORY ? r->nhist : LS_HISTORY);
    fprintf(e, "--- last %u cycle%s (inputs | outputs; DUT and model agree until the last)\n", nh, S_(nh));
    const uint64_t first = r->nhist > LS_HISTORY ? r->nhist - LS_HISTORY : 0;
    for (uint64_t k = first; k < r->nhist; k++) {
        const ls_hist_t *h = &r->hist[k % LS_RING];
        const int last = k + 1 == r->nhist && r->status == LS_DIFF;
        cmp_in_str(&s->cfg, &h->in, a, sizeof a);
        cmp_out_str(&s->cfg, last ? &r->fail_dut : &h->out, b, sizeof b);
        fprintf(e, "%8" PRIu64 " | %s | %s%s\n", h->cycle, a, last ? "DUT:   " : "", b);
        if (last) {
            cmp_out_str(&s->cfg, &r->fail_model, b, sizeof b);
            fprintf(e, "%8s   %*s | model: %s\n", "", (int)strlen(a), "", b);
        }
    }
    fprintf(e, "--- model registers after cycle %" PRIu64 " (LFSR 0x%06X)\n", r->fail_cycle, r->lfsr);
    for (int i = 0; i < SPU_NREGS; i++)
        fprintf(e, "  %-14s 0x%016" PRIx64 "%s", spu_reg_name(i), r->regs[i], i % 3 == 2 ? "\n" : "");
    fprintf(e, "\n--- reproduce\n");
    repro_opts(t, lc, ro, sizeof ro);
    /* --perf-event belongs to the run's stimulus; the saved trace already has its sequences */
    if (o->perf_event)
        snprintf(pe, sizeof pe, " --perf-event '%s'%s%s%s%s", o->perf_event, period ? " --period " : "",
                 period ? (snprintf(a, sizeof a, "%" PRIu64, o->period), a) : "", o->buffer ? " --buffer " : "",
                 o->buffer ? o->buffer : "");
    if (s->have_trace) {
        fprintf(e, "  %s %s --config %s%s%s\n", o->argv[0], o->trace, s->cfg.name, pe, ro);
    } else {
        /* the run's own length: a short run's stimulus depends on it (docs/generator.md) */
        fprintf(e, "  %s --config %s --seed %" PRIu64 " --cycles %" PRIu64, o->argv[0], s->cfg.name, o->seed,
                o->cycles);
        for (int i = 0; i < o->ngen; i++)
            fprintf(e, " --gen %s", o->gen[i]);
        fprintf(e, "%s%s\n", pe, ro);
    }
    if (saved)
        fprintf(e, "  %s %s%s     (stimulus up to the failure)\n", o->argv[0], saved, ro);
    if (!t->wave || !t->shrink)
        fprintf(e, "  add%s%s\n", t->wave ? "" : " --wave for an FST of the cycles around it (the model built with "
                                                  "tracing, whose random initial values differ),",
                t->shrink ? "" : " --shrink for a smaller trace");
}

/* A run needs samples, a kept and a rejected record to prove anything. When
 * one is missing, say which, and estimate from what the run did see how many
 * cycles would have been needed (assuming the stimulus goes on alike). */
static int check_vacuous(const tb_opts_t *t, const ls_result_t *r)
{
    char why[VAC_WHY_LEN], est[VAC_EST_LEN];
    if (!spl_vacuous(&r->log, r->cycles, r->regs[SPU_REG_PMSIRR_EL1], why, est) || t->expect_vacuous)
        return 0;
    fprintf(stderr, "VACUOUS: %s in %" PRIu64 " cycle%s: %s (a directed trace that expects this passes --expect-vacuous)\n",
            why, r->cycles, S_(r->cycles), est);
    return 1;
}

/* --wave: re-run with the same binary and init seed, FST of the window. */
static void write_wave(const spu_setup_t *s, const ls_cfg_t *lc, const ls_result_t *r, const char *saved)
{
    spt_cursor_t k;
    pev_src_t p;
    spu_gen_t *g = malloc(sizeof *g);
    ls_result_t *r2 = malloc(sizeof *r2);
    char fst[PATH_MAX + 8];
    if (!g || !r2) {
        fprintf(stderr, "wave: out of memory\n");
        free(g);
        free(r2);
        return;
    }
    snprintf(fst, sizeof fst, "%.*s.fst", (int)(strlen(saved) - 4), saved);
    ls_cfg_t wc = *lc;
    wc.log = NULL;
    wc.cov = NULL;
    wc.rec_f = NULL;
    wc.rec_txt = NULL;
    wc.mem_f = NULL;
    wc.progress = 0;
    wc.fresh_source = NULL;
    wc.stats = NULL;
    wc.wave = fst;
    wc.wave_from = r->fail_cycle > 200 ? r->fail_cycle - 200 : 0;
    wc.wave_to = r->fail_cycle + 2;
    lockstep_run(&wc, opts_fresh_source(s, &k, g, &p), r2);
    fprintf(stderr, "wave: %s (cycles %" PRIu64 "..%" PRIu64 ", same binary and init seed; difference %s)\n", fst,
            wc.wave_from, r2->fail_cycle,
            r2->status != LS_PASS && r2->fail_cycle == r->fail_cycle ? "reproduced" : "NOT reproduced");
    free(g);
    free(r2);
}

static int on_failure(const tb_opts_t *t, const spu_setup_t *s, const ls_cfg_t *lc, const ls_result_t *r)
{
    char saved[PATH_MAX] = "";
    int ok = fail_path(t, s, r->fail_cycle, saved, sizeof saved) == 0;
    int err = ok ? 0 : errno;
    if (ok && save_stimulus(s, r->fail_cycle, saved) != 0) {
        err = errno;
        ok = 0;
    }
    print_report(t, s, lc, r, ok ? saved : NULL);
    if (!ok) {
        fprintf(stderr, "warning: could not save the stimulus to %s: %s\n", saved[0] ? saved : "the fail directory",
                strerror(err));
        return 1;
    }
    if (t->wave)
        write_wave(s, lc, r, saved);
    if (t->shrink)
        shrink_trace(lc, r, saved);
    return 1;
}

/* Why the run took no blocks of plain cycles, when it was not its stimulus
 * (NULL: it could take them). */
static const char *blocks_off(const tb_opts_t *t, const ls_cfg_t *lc)
{
    const spu_opts_t *o = &t->eng;
    return t->reference ? "--reference" : o->no_skip ? "--no-skip" : lockstep_rerun_refusal(lc);
}

static double evals_per_cycle(const ls_result_t *r)
{
    return r->cycles ? (double)r->evals / (double)r->cycles : 0.0;
}

/* --stats: how the DUT ran and was checked, the records, the PMU totals. */
static void print_stats(const tb_opts_t *t, const spu_setup_t *s, const ls_cfg_t *lc, const ls_result_t *r)
{
    fprintf(stderr, "  clock: %.2f DUT evals per cycle (%s; %s)\n",
            evals_per_cycle(r), r->clocking ? r->clocking : "not run",
            lc->vt->input_stage ? "spu_top behind the input stage, its outputs checked one step late"
                                : "spu_top's own ports");
    const char *off = blocks_off(t, lc);
    fprintf(stderr, "  checks: %" PRIu64 " cycle%s outputs checked in place as quiet cycles (%" PRIu64 " of them in "
                    "blocks of plain cycles%s%s), the rest unpacked and compared whole (docs/performance.md)\n",
            r->quiet, r->quiet == 1 ? "'s" : "s'", r->blocks, off ? "; blocks off: " : "", off ? off : "");
    spl_print_records(&r->log, stderr);
    opts_print_driver(s, stderr);
    for (int i = 0; i < SPU_NPMU; i++)
        if (spu_pmu_implemented(&s->cfg, i))
            fprintf(stderr, "  %-20s %" PRIu64 "\n", spu_pmu_name(i), r->log.pmu[i]);
}

/* --stats-json: the figures of print_stats() and the run's result (pass,
 * vacuous, difference) for scripts (docs/formats.md). */
static void write_stats_json(const tb_opts_t *t, const spu_setup_t *s, const ls_cfg_t *lc, const ls_result_t *r,
                             const char *result)
{
    const spu_opts_t *o = &t->eng;
    json_t j;
    json_begin(&j, s->json_f);
    json_str(&j, "tool", "spu-tb");
    json_str(&j, "result", result);
    json_str(&j, "config", s->cfg.name);
    if (s->have_trace)
        json_str(&j, "trace", o->trace);
    else
        json_u64(&j, "seed", o->seed);
    json_u64(&j, "init_seed", lc->init_seed);
    json_u64(&j, "cycles", r->cycles);
    if (r->status == LS_DIFF)
        json_u64(&j, "fail_cycle", r->fail_cycle);
    json_num(&j, "seconds", r->seconds);
    json_u64(&j, "evals", r->evals);
    json_num(&j, "evals_per_cycle", evals_per_cycle(r));
    json_str(&j, "clocking", r->clocking);
    json_u64(&j, "input_stage", (uint64_t)lc->vt->input_stage);
    json_u64(&j, "checked_in_place", r->quiet);
    json_u64(&j, "checked_in_blocks", r->blocks);
    json_str(&j, "blocks_off", blocks_off(t, lc));
    json_u64(&j, "rerun", (uint64_t)r->rerun);
    if (t->apb) {
        json_obj(&j, "apb");
        json_u64(&j, "accesses", r->apb.accesses);
        json_u64(&j, "unmapped", r->apb.unmapped);
        json_u64(&j, "dropped_by_reset", r->apb.dropped);
        json_u64(&j, "pmu_reads", r->apb.pmu_reads);
        json_u64(&j, "partial_strobe_writes", r->apb.bad_strobes);
        json_u64(&j, "transfers", r->apb.transfers);
        json_close(&j);
    }
    spl_log_json(&r->log, &j);
    opts_driver_json(s, &j);
    json_end(&j);
}

/* --stats-json and --report, when asked for; result as the JSON's. */
static void write_results(const tb_opts_t *t, const spu_setup_t *s, const ls_cfg_t *lc, const ls_result_t *r,
                          const char *result)
{
    if (s->json_f)
        write_stats_json(t, s, lc, r, result);
    if (s->report_f)
        tb_html(t, s, lc, r, result);
}

/* A run without a difference: the closing line (PASS, or FAIL when
 * vacuous or the log incomplete), --stats, --stats-json; its exit status. */
static int report_pass(const tb_opts_t *t, const spu_setup_t *s, const ls_cfg_t *lc, const ls_result_t *r)
{
    const spu_opts_t *o = &t->eng;
    if (t->dut_only) {
        /* the DUT's own selections and records (make bench-peers checks every row saw the same) */
        fprintf(stderr, "DUT-ONLY config %s: %" PRIu64 " cycle%s, nothing compared, %" PRIu64 " sample%s, %" PRIu64
                        " collision%s, records kept %" PRIu64 " rejected %" PRIu64 ", %.2f M cycles/s\n",
                s->cfg.name, r->cycles, S_(r->cycles), r->log.samples, S_(r->log.samples), r->log.collisions,
                S_(r->log.collisions), r->log.kept, r->log.rejected,
                r->seconds > 0 ? (double)r->cycles / r->seconds / 1e6 : 0.0);
        return 0;
    }
    if (t->inject) {
        fprintf(stderr, "FAIL: --inject %s fired but no difference was reported\n", t->inject);
        return 1;
    }
    int rc = check_vacuous(t, r);
    if (t->apb && !r->apb.transfers) {
        fprintf(stderr, "FAIL: vacuous: --apb, but no register access went over the bus\n");
        rc = 1;
    }
    if (s->log_f && (fflush(s->log_f) || ferror(s->log_f)))
        rc = 1; /* FAIL: opts_teardown() says the log is incomplete */
    fprintf(stderr, "%s config %s: %" PRIu64 " cycle%s compared, 0 differences, %" PRIu64 " sample%s, %" PRIu64
                    " collision%s, records kept %" PRIu64 " rejected %" PRIu64 ", %" PRIu64
                    " cycle%s with several selections, %.2f M cycles/s\n",
            rc ? "FAIL" : "PASS", s->cfg.name, r->cycles, S_(r->cycles), r->log.samples, S_(r->log.samples),
            r->log.collisions, S_(r->log.collisions), r->log.kept, r->log.rejected, r->log.multi, S_(r->log.multi),
            r->seconds > 0 ? (double)r->cycles / r->seconds / 1e6 : 0.0);
    if (t->apb)
        fprintf(stderr, "  APB: %" PRIu64 " register access%s, %" PRIu64 " to encodings outside the map, %" PRIu64
                        " dropped by a reset; %" PRIu64 " SAMPLE_* counter read%s, %" PRIu64
                        " partial-strobe write%s; %" PRIu64 " transfer%s\n",
                r->apb.accesses, r->apb.accesses == 1 ? "" : "es", r->apb.unmapped, r->apb.dropped, r->apb.pmu_reads,
                S_(r->apb.pmu_reads), r->apb.bad_strobes, S_(r->apb.bad_strobes), r->apb.transfers, S_(r->apb.transfers));
    if (o->stats)
        print_stats(t, s, lc, r);
    write_results(t, s, lc, r, rc ? "vacuous" : "pass");
    return rc;
}

/* SIGINT stopped the run: what it checked (all equal), --stats,
 * --stats-json; SPU_EXIT_INTERRUPTED. */
static int report_stopped(const tb_opts_t *t, const spu_setup_t *s, const ls_cfg_t *lc, const ls_result_t *r)
{
    fprintf(stderr, "\nINTERRUPTED config %s: stopped by SIGINT after %" PRIu64 " cycle%s compared, 0 differences, %" PRIu64
                    " sample%s, %" PRIu64 " collision%s, records kept %" PRIu64 " rejected %" PRIu64 "; not checked for "
                    "vacuity or at the run's end\n",
            s->cfg.name, r->cycles, S_(r->cycles), r->log.samples, S_(r->log.samples), r->log.collisions,
            S_(r->log.collisions), r->log.kept, r->log.rejected);
    if (t->eng.stats)
        print_stats(t, s, lc, r);
    write_results(t, s, lc, r, "interrupted");
    return SPU_EXIT_INTERRUPTED;
}

/* What became of the run: an error (2), a difference (its report, 1), or
 * report_pass(); coverage is written for a failing run too. */
int tb_outcome(const tb_opts_t *t, const spu_setup_t *s, const ls_cfg_t *lc, const ls_result_t *r, int argc,
                   char **argv)
{
    const spu_opts_t *o = &t->eng;
    if (r->rerun)
        fprintf(stderr, "spu-tb: the run did not pass (%s; %" PRIu64 " cycle%s checked, %" PRIu64 " in blocks of plain "
                        "cycles); the report below is from the reference loop run again%s%s\n",
                r->rerun_why, r->rerun_cycles, S_(r->rerun_cycles), r->rerun_blocks, r->rerun_dir[0] ? ", its files in " : "",
                r->rerun_dir);
    /* make mutate reads this line (tools/mutate_rtl.py), whatever the outcome */
    if (t->have_mutant && r->status != LS_ERROR)
        fprintf(stderr, "MUTANT %lld %s\n", (long long)t->mutant, r->mutant_activated ? "activated" : "not-activated");
    if (r->status == LS_ERROR) {
        fprintf(stderr, "error: %s\n", r->err);
        return 2;
    }
    if (lc->cov) {
        char what[512];
        cov_describe(what, sizeof what, argc, argv);
        if (cov_finish(lc->cov, o->cov, what))
            return 2;
    }
    if (t->inject && !r->injected && r->status == LS_PASS) {
        fprintf(stderr, "error: --inject %s never fired: the run ended after %" PRIu64 " cycle%s\n", t->inject, r->cycles,
                S_(r->cycles));
        return 2;
    }
    if (r->status == LS_STOPPED)
        return report_stopped(t, s, lc, r);
    if (r->status != LS_PASS) { /* a real difference before the injection is reported as such */
        const int rc = on_failure(t, s, lc, r);
        write_results(t, s, lc, r, r->status == LS_DIFF ? "difference" : "core model contradicted");
        return rc;
    }
    return report_pass(t, s, lc, r);
}
