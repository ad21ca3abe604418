/*
 * spu-csim: the golden model on its own. Replays a .spt trace or runs seeded
 * random stimulus, writes the .spl log, and skips ahead over stretches where
 * nothing can happen (no selection possible, no register access, no event).
 *
 *   build/spu-csim TRACE.spt
 *   build/spu-csim --config wide --seed 7 --ops 100000000 --stats --quiet
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vacuity.h"
#include "interrupt.h"
#include "csim_opts.h"
#include "setup.h"
#include "run.h"
#include "cov.h"
#include "csim_html.h"
#include "json.h"
#include "stats_json.h"
#include "stats_text.h"
#include "vectors.h"
#include "plural.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct csim {
    spu_run_t run;
    spu_model_t model;
    spu_stats_t stats;
    int skip;                    /* skip ahead where nothing can happen */
    FILE *vec;                   /* --vectors: every cycle's ports */
    spu_cov_t *cov;              /* --cov: functional coverage (NULL: off) */
    int expect_vacuous;          /* --expect-vacuous */
} csim_t;

/* Progress: the share of the stimulus consumed (ops handed out of --ops, or
 * cycles of the trace). */
static void progress_line(const csim_t *c, const spu_setup_t *s, double t0)
{
    const double dt = now_s() - t0;
    const uint64_t total = s->have_trace ? s->trace.last_cycle + 1 : s->end_ops;
    uint64_t ops = s->have_trace ? c->run.cycle : s->gen.next_op;
    if (ops > total)
        ops = total; /* the cycles after the trace that finish sampled ops */
    fprintf(stderr, "\r%s %" PRIu64 " of %" PRIu64 " (%.0f%%)  %.1f M %s/s  samples %" PRIu64 "   ",
            s->have_trace ? "cycle" : "op", ops, total, total ? 100.0 * (double)ops / (double)total : 0.0,
            dt > 0 ? (double)ops / dt / 1e6 : 0.0, s->have_trace ? "cycles" : "ops", c->run.log.samples);
}

/* not inlined: make bench-peers counts its instructions (callgrind --toggle-collect=run_all) */
static __attribute__((noinline)) int run_all(csim_t *c, const spu_setup_t *s, int progress)
{
    spu_run_t *r = &c->run;
    spu_cyc_t cy;
    spu_in_t in = {0}; /* the record payloads stay as the last finish left them */
    spu_out_t out;
    const double t0 = now_s();
    double next_report = t0 + 0.5;
    for (uint64_t iter = 0;; iter++) {
        if (!(iter & 0xFFFF) && spu_interrupted)
            break;
        uint64_t k = 0;
        if (c->skip && run_skip(r, &c->model, &k))
            return -1;
        if (k)
            continue;
        const int more = run_inputs(r, &cy, &in);
        if (more < 0)
            return -1;
        if (!more)
            break;
        cov_model_step(c->cov, &c->model, &in, &out);
        if (c->vec)
            vec_cycle(c->vec, &s->cfg, &in, &out);
        if (run_observe(r, &cy, &in, &out) || run_records(r, &cy, &out, &c->model))
            return -1;
        if (progress && (iter & 0xFFFF) == 0 && now_s() >= next_report) {
            progress_line(c, s, t0);
            next_report = now_s() + 0.5;
        }
    }
    if (progress) {
        progress_line(c, s, t0); /* the last one stays */
        fputc('\n', stderr);
    }
    return 0;
}

/* ops: every population member offered; members (SAMPLE_POP): those
 * counted while profiling was enabled. */
static uint64_t ops_offered(const spu_setup_t *s)
{
    return s->have_trace ? s->trace.nops : s->gen.next_op;
}

static void print_stats(const csim_t *c, const spu_opts_t *o, const spu_setup_t *s, double dt)
{
    fprintf(stderr, "config %s  %s ", s->cfg.name, s->have_trace ? "trace" : "seed");
    if (s->have_trace)
        fprintf(stderr, "%s\n", o->trace);
    else
        fprintf(stderr, "%" PRIu64 "\n", o->seed);
    stats_print_setup(stderr, o, s, &c->model, &c->stats);
    const uint64_t ops = ops_offered(s);
    fprintf(stderr, "cycles %" PRIu64 "  ops %" PRIu64 "  members %" PRIu64 "  %.3f s  %.1f M ops/s\n",
            c->run.cycle, ops, c->run.log.pmu[SPU_PMU_POP], dt, dt > 0 ? (double)ops / dt / 1e6 : 0.0);
    stats_print(&c->stats, &c->run.log, &c->model, stderr);
    opts_print_driver(s, stderr);
}

/* --stats-json: the figures of print_stats() for scripts (docs/formats.md). */
static void write_stats_json(const csim_t *c, const spu_opts_t *o, const spu_setup_t *s, double dt, int rc,
                             int vacuous)
{
    json_t j;
    json_begin(&j, s->json_f);
    json_str(&j, "tool", "spu-csim");
    json_str(&j, "result", rc ? "error" : spu_interrupted ? "interrupted" : vacuous ? "vacuous" : "ok");
    json_str(&j, "config", s->cfg.name);
    if (s->have_trace)
        json_str(&j, "trace", o->trace);
    else
        json_u64(&j, "seed", o->seed);
    json_u64(&j, "cycles", c->run.cycle);
    json_u64(&j, "ops", ops_offered(s));
    json_u64(&j, "members", c->run.log.pmu[SPU_PMU_POP]);
    json_num(&j, "seconds", dt);
    spl_log_json(&c->run.log, &j);
    stats_json(&c->stats, &c->model, &j);
    stats_json_setup(&j, o, s, &c->model, &c->stats);
    opts_driver_json(s, &j);
    json_end(&j);
}

/* --report: the run as an HTML page. */
static void write_report(const csim_t *c, const spu_opts_t *o, const spu_setup_t *s, double dt, int rc, int vacuous)
{
    uint64_t regs[SPU_NREGS];
    for (int i = 0; i < SPU_NREGS; i++)
        regs[i] = spu_model_reg_read(&c->model, i);
    const report_run_t r = {.o = o, .s = s, .regs = regs, .st = &c->stats, .log = &c->run.log};
    const csim_ran_t ran = {.result = rc ? "error" : spu_interrupted ? "interrupted" : vacuous ? "vacuous" : "ok",
                            .cycles = c->run.cycle, .ops = ops_offered(s), .members = c->run.log.pmu[SPU_PMU_POP],
                            .seconds = dt};
    csim_report(s->report_f, &r, &ran);
}

/* A generated run that selected or recorded nothing (vacuity.h) fails with
 * spu-tb's words, unless --expect-vacuous; a run with records all kept or
 * all rejected (a perf event without filters keeps every one), or a trace
 * (csim turns directed traces into vectors, records and perf data), gets a
 * note. 1 when the run fails for it. */
static int report_vacuous(const csim_t *c, const spu_setup_t *s)
{
    char why[VAC_WHY_LEN], est[VAC_EST_LEN];
    const uint64_t n = c->run.cycle;
    const int v = spl_vacuous(&c->run.log, n, spu_model_reg_read(&c->model, SPU_REG_PMSIRR_EL1), why, est);
    if (!v || c->expect_vacuous)
        return 0;
    const int fails = v == VAC_NOTHING && !s->have_trace;
    fprintf(stderr, "%s: %s in %" PRIu64 " cycle%s: %s (%s)\n", fails ? "VACUOUS" : "note: vacuous", why, n,
            n == 1 ? "" : "s", est, fails ? "a run that expects this passes --expect-vacuous"
                                  : "spu-tb fails such a run unless --expect-vacuous");
    return fails;
}

/* The model, coverage and vectors of a run: 0, or 2 (the message printed). */
static int csim_begin(csim_t *c, const csim_opts_t *co, const spu_setup_t *s)
{
    const spu_opts_t *o = &co->eng;
    char err[256];
    if (spu_model_init(&c->model, &s->cfg, err, sizeof err)) {
        fprintf(stderr, "error: %s\n", err);
        return 2;
    }
    /* Vectors and coverage see every cycle, as the lockstep run does. */
    c->skip = !o->no_skip && !co->vectors && !o->cov;
    c->expect_vacuous = co->expect_vacuous;
    if (o->cov) {
        if (!(c->cov = malloc(sizeof *c->cov))) {
            fprintf(stderr, "error: out of memory\n");
            return 2;
        }
        cov_init(c->cov, &s->cfg);
    }
    if (co->vectors) {
        if (!(c->vec = strcmp(co->vectors, "-") ? fopen(co->vectors, "w") : stdout)) {
            fprintf(stderr, "error: cannot write vectors '%s': %s\n", co->vectors, strerror(errno));
            return 2;
        }
        vec_begin(c->vec, &s->cfg);
    }
    stats_init(&c->stats);
    return 0;
}

/* The run and what it writes at the end: 0, or -1 (the message printed). */
static int csim_run(csim_t *c, const spu_opts_t *o, spu_setup_t *s, int argc, char **argv)
{
    run_init(&c->run, &s->cfg, s->src, s->log_f, o->emit ? &s->emit : NULL);
    c->run.rec_f = s->rec_f;
    c->run.rec_txt = s->rec_txt;
    spu_mem_t mem;
    mem_init(&mem);
    c->run.mem = &mem;
    c->run.mem_stall = (unsigned)o->mem_stall;
    c->run.stray = (unsigned)o->stray;
    c->run.check_stream = 1;
    c->run.stats = &c->stats; /* counted per selection and record (run_observe_full()) */
    c->run.stats_m = &c->model;
    const double t0 = now_s();
    spu_interrupt_install();
    int rc = run_all(c, s, o->progress);
    const double dt = now_s() - t0;
    if (!rc && spu_interrupted)
        fprintf(stderr, "\nINTERRUPTED config %s: stopped by SIGINT at cycle %" PRIu64 " after %" PRIu64
                        " ops: %" PRIu64 " sample%s, %" PRIu64 " collision%s, records kept %" PRIu64 " rejected %" PRIu64
                        "; not checked at the run's end\n",
                s->cfg.name, c->run.cycle, ops_offered(s), c->run.log.samples, plural_s(c->run.log.samples),
                c->run.log.collisions, plural_s(c->run.log.collisions),
                c->run.log.kept, c->run.log.rejected);
    else if (!rc)
        rc = run_check_end(&c->run);
    const int vacuous = !rc && !spu_interrupted && report_vacuous(c, s);
    if (!rc && s->mem_f)
        rc = run_write_mem(&c->run, s->mem_f);
    if (rc)
        fprintf(stderr, "error: %s\n", c->run.err);
    else if (!spu_interrupted)
        run_finish(&c->run);
    mem_free(&mem);
    if (o->stats)
        print_stats(c, o, s, dt);
    if (s->json_f)
        write_stats_json(c, o, s, dt, rc, vacuous);
    if (s->report_f)
        write_report(c, o, s, dt, rc, vacuous);
    if (c->cov && !rc) {
        char what[512];
        cov_describe(what, sizeof what, argc, argv);
        if (cov_finish(c->cov, o->cov, what))
            rc = -1;
    }
    return rc ? rc : vacuous ? -1 : 0;
}

int main(int argc, char **argv)
{
    csim_opts_t o;
    spu_setup_t *s = calloc(1, sizeof *s);
    csim_t *c = calloc(1, sizeof *c);
    if (!s || !c) {
        fprintf(stderr, "error: out of memory\n");
        return 2;
    }
    const int pr = csim_opts_parse(&o, argc, argv);
    if (pr || opts_setup(&o.eng, s)) {
        free(s);
        free(c);
        return pr > 0 ? 0 : 2;
    }
    int rc = csim_begin(c, &o, s);
    if (!rc)
        rc = csim_run(c, &o.eng, s, argc, argv) ? 1 : spu_interrupted ? SPU_EXIT_INTERRUPTED : 0;
    free(c->cov);
    if (c->vec && (c->vec == stdout ? fflush(c->vec) != 0 || ferror(c->vec) : fclose(c->vec) != 0)) {
        fprintf(stderr, "error: the vectors could not be written completely\n");
        rc = rc ? rc : 1;
    }
    if (opts_teardown(s) && !rc)
        rc = 1;
    free(s);
    free(c);
    return rc;
}
