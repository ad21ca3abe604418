/*
 * spu-csim: the golden model on its own. Replays a .spt trace or runs seeded
 * random stimulus, writes the .spl log, and skips ahead over stretches where
 * nothing can happen (no selection possible, no register access, no event).
 *
 *   build/spu-csim TRACE.spt
 *   build/spu-csim --config wide --seed 7 --ops 100000000 --stats --quiet
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "opts.h"
#include "run.h"
#include "stats.h"

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
    int no_skip;
} csim_t;

/* Skip plain cycles that cannot select, draw or meet an event. Returns the
 * number of cycles skipped. */
static uint64_t try_skip(csim_t *c)
{
    spu_run_t *r = &c->run;
    if (c->no_skip || r->src_done || !r->src.skip || !spu_model_settled(&c->model, r->el, r->allow))
        return 0;
    const uint64_t next_ev = core_next_event(&r->core);
    if (next_ev <= r->cycle)
        return 0;
    const uint64_t max_cycles = next_ev - r->cycle;
    const uint64_t quiet = spu_model_quiet_pops(&c->model, r->el, r->allow);
    uint64_t pops;
    const uint64_t k = r->src.skip(r->src.self, max_cycles, quiet, &pops);
    if (!k)
        return 0;
    if (spu_model_skip(&c->model, k, pops, r->el, r->allow) != 0) {
        /* Cannot happen: the preconditions were checked above. */
        fprintf(stderr, "internal error: skip of %" PRIu64 " cycles refused\n", k);
        return 0;
    }
    r->cycle += k;
    if (c->model.prev_en) {
        r->log.pmu[SPU_PMU_POP] += pops;
        c->stats.pops += pops;
    }
    return k;
}

/* Selections of this cycle for the interval statistics. */
static void note_selections(csim_t *c, const spu_cyc_t *cy, const spu_out_t *out)
{
    const uint8_t sel = out->smp_valid | out->col_valid;
    for (unsigned l = 0; sel >> l; l++)
        if ((sel >> l) & 1u)
            stats_select(&c->stats, c->stats.pops + (uint64_t)__builtin_popcount(cy->pop_mask & ((1u << l) - 1u)) + 1);
    c->stats.pops += out->pmu[SPU_PMU_POP];
}

static int run_all(csim_t *c, int progress, uint64_t target_ops)
{
    spu_run_t *r = &c->run;
    spu_cyc_t cy;
    spu_in_t in;
    spu_out_t out;
    const double t0 = now_s();
    double next_report = t0 + 0.5;
    for (uint64_t iter = 0;; iter++) {
        if (try_skip(c))
            continue;
        if (!run_inputs(r, &cy, &in))
            break;
        spu_model_step(&c->model, &in, &out);
        note_selections(c, &cy, &out);
        if (run_observe(r, &cy, &in, &out)) {
            fprintf(stderr, "error: %s\n", r->core.err);
            return -1;
        }
        if (progress && (iter & 0xFFFF) == 0 && now_s() >= next_report) {
            const double dt = now_s() - t0;
            fprintf(stderr, "\rcycle %" PRIu64 "  members %" PRIu64 " (%.0f%%)  %.1f M members/s  samples %" PRIu64 "   ",
                    r->cycle, c->stats.pops, target_ops ? 100.0 * (double)c->stats.pops / (double)target_ops : 0.0,
                    (double)c->stats.pops / dt / 1e6, r->log.samples);
            next_report = now_s() + 0.5;
        }
    }
    if (progress)
        fprintf(stderr, "\r%*s\r", 100, "");
    return 0;
}

int main(int argc, char **argv)
{
    spu_opts_t o;
    spu_setup_t s;
    static csim_t c;
    char err[256];
    const int pr = opts_parse(&o, argc, argv, 0);
    if (pr)
        return pr > 0 ? 0 : 2;
    if (opts_setup(&o, &s))
        return 2;
    if (spu_model_init(&c.model, &s.cfg, err, sizeof err)) {
        fprintf(stderr, "error: %s\n", err);
        return 2;
    }
    if (!s.have_trace) {
        gen_init(&s.gen, &s.cfg, &s.gp, o.seed, UINT64_MAX, o.ops);
        s.src = gen_source(&s.gen);
    }
    c.no_skip = o.no_skip || o.emit; /* a written trace needs every cycle */
    stats_init(&c.stats);
    run_init(&c.run, &s.cfg, s.src, s.log_f, o.emit ? &s.emit : NULL);
    const double t0 = now_s();
    const int rc = run_all(&c, o.progress, s.have_trace ? 0 : o.ops);
    const double dt = now_s() - t0;
    run_finish(&c.run);
    if (o.stats) {
        char gp[512];
        fprintf(stderr, "config %s  %s %s\n", s.cfg.name, s.have_trace ? "trace" : "seed",
                s.have_trace ? o.trace : (snprintf(gp, sizeof gp, "%" PRIu64, o.seed), gp));
        if (!s.have_trace) {
            gen_params_print(&s.gp, gp, sizeof gp);
            fprintf(stderr, "generator %s\n", gp);
        }
        /* ops: every population member offered; members: those counted
         * while profiling was enabled (SAMPLE_POP). */
        const uint64_t ops = s.have_trace ? s.trace.nops : s.gen.next_op;
        fprintf(stderr, "cycles %" PRIu64 "  ops %" PRIu64 "  members %" PRIu64 "  %.3f s  %.1f M ops/s\n",
                c.run.cycle, ops, c.stats.pops, dt, dt > 0 ? (double)ops / dt / 1e6 : 0.0);
        stats_print(&c.stats, &c.run.log, stderr);
    }
    if (s.log_f)
        fflush(s.log_f);
    opts_teardown(&s);
    return rc ? 1 : 0;
}
