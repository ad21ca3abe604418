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
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "lockstep.h"
#include "opts.h"
#include "shrink.h"

#define FAIL_DIR "build/fail"

/* A fresh stimulus source equal to the one the run used. */
static int fresh_source(const spu_opts_t *o, const spu_setup_t *s, spt_trace_t *t, spu_gen_t *g,
                        spu_src_t *src)
{
    char err[512];
    if (s->have_trace) {
        if (spt_load(t, o->trace, err, sizeof err))
            return -1;
        *src = spt_source(t);
    } else {
        gen_init(g, &s->cfg, &s->gp, o->seed, o->cycles, UINT64_MAX);
        *src = gen_source(g);
    }
    return 0;
}

/* Write the stimulus of cycles 0..last to path. */
static int save_stimulus(const spu_opts_t *o, const spu_setup_t *s, uint64_t last, const char *path)
{
    static spt_trace_t t;
    static spu_gen_t g;
    spu_src_t src;
    spu_cyc_t cy;
    FILE *f = fopen(path, "w");
    if (!f || fresh_source(o, s, &t, &g, &src)) {
        if (f)
            fclose(f);
        return -1;
    }
    spt_writer_t w;
    spt_write_begin(&w, f, s->cfg.name);
    for (uint64_t c = 0; c <= last && src.next(src.self, &cy); c++)
        spt_write_cycle(&w, &cy, &src);
    spt_write_end(&w);
    fclose(f);
    if (s->have_trace)
        spt_free(&t);
    return 0;
}

/* build/fail/<config>-<seedS|trace name>-c<cycle>[-N].spt, never an existing
 * file (a failing run of a saved trace must not overwrite its own input). */
static void fail_path(const spu_opts_t *o, const spu_setup_t *s, uint64_t cycle, char *buf, size_t len)
{
    char what[128];
    if (s->have_trace) {
        const char *b = strrchr(o->trace, '/');
        b = b ? b + 1 : o->trace;
        snprintf(what, sizeof what, "%.*s", (int)(strlen(b) > 4 && !strcmp(b + strlen(b) - 4, ".spt") ? strlen(b) - 4 : strlen(b)), b);
    } else {
        snprintf(what, sizeof what, "seed%" PRIu64, o->seed);
    }
    struct stat st;
    for (int n = 0; n < 1000; n++) {
        if (n == 0)
            snprintf(buf, len, FAIL_DIR "/%s-%.100s-c%" PRIu64 ".spt", s->cfg.name, what, cycle);
        else
            snprintf(buf, len, FAIL_DIR "/%s-%.100s-c%" PRIu64 "-%d.spt", s->cfg.name, what, cycle, n);
        if (stat(buf, &st) != 0)
            return;
    }
}

static void print_report(const spu_opts_t *o, const spu_setup_t *s, const ls_cfg_t *lc,
                         const ls_result_t *r, const char *saved)
{
    char a[512], b[512];
    FILE *e = stderr;
    fprintf(e, "\n=== spu-tb: FIRST DIFFERENCE at cycle %" PRIu64 " ===\n", r->fail_cycle);
    fprintf(e, "configuration %s   %s %s   init seed %" PRIu64 "\n", s->cfg.name,
            s->have_trace ? "trace" : "seed", s->have_trace ? o->trace : (snprintf(a, sizeof a, "%" PRIu64, o->seed), a),
            lc->init_seed);
    fprintf(e, "binary %s (%s)\n", o->argv[0], lc->vt->identity);
    if (r->status == LS_CORE) {
        fprintf(e, "the outputs (equal in DUT and model) contradict the core model: %s\n", r->err);
    } else {
        fprintf(e, "%-28s %20s %20s\n", "signal", "DUT", "model");
        for (int i = 0; i < r->ndiff && i < CMP_MAX_DIFFS; i++)
            fprintf(e, "%-28s %#20" PRIx64 " %#20" PRIx64 "\n", r->diff[i].name, r->diff[i].dut, r->diff[i].model);
    }
    fprintf(e, "--- last %u cycles (inputs | outputs; DUT and model agree until the last)\n",
            (unsigned)(r->nhist < LS_HISTORY ? r->nhist : LS_HISTORY));
    const uint64_t first = r->nhist > LS_HISTORY ? r->nhist - LS_HISTORY : 0;
    for (uint64_t k = first; k < r->nhist; k++) {
        const ls_hist_t *h = &r->hist[k % LS_HISTORY];
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
    if (s->have_trace)
        fprintf(e, "  %s %s --config %s --init-seed %" PRIu64 "\n", o->argv[0], o->trace, s->cfg.name, lc->init_seed);
    else
        fprintf(e, "  %s --config %s --seed %" PRIu64 " --cycles %" PRIu64 " --init-seed %" PRIu64 "%s%s\n",
                o->argv[0], s->cfg.name, o->seed, r->fail_cycle + 1, lc->init_seed, o->ngen ? " --gen " : "",
                o->ngen ? o->gen[0] : "");
    if (saved)
        fprintf(e, "  %s %s --init-seed %" PRIu64 "     (stimulus up to the failure)\n", o->argv[0], saved, lc->init_seed);
    fprintf(e, "  add --wave for an FST of the cycles around it, --shrink for a smaller trace\n");
}

static int check_vacuous(const spu_opts_t *o, const ls_result_t *r)
{
    const char *why = NULL;
    if (r->cycles == 0)
        why = "no cycle was compared";
    else if (r->log.samples == 0)
        why = "no sample was selected";
    else if (r->log.kept == 0)
        why = "no record was kept";
    else if (r->log.rejected == 0)
        why = "no record was rejected";
    if (!why || o->expect_vacuous)
        return 0;
    fprintf(stderr, "VACUOUS: %s in %" PRIu64 " cycles (a directed trace that expects this passes --expect-vacuous)\n",
            why, r->cycles);
    return 1;
}

int main(int argc, char **argv)
{
    spu_opts_t o;
    static spu_setup_t s;
    static ls_result_t r;
    char inj[64] = "";
    const int pr = opts_parse(&o, argc, argv, 1);
    if (pr)
        return pr > 0 ? 0 : 2;
    if (o.nknob) {
        fprintf(stderr, "error: --knob: in the RTL the knobs are parameters of a build; pick a configuration that has them (e.g. v1-alt, wide-alt)\n");
        return 2;
    }
    if (o.emit) {
        fprintf(stderr, "error: --emit-trace is spu-csim's; spu-tb saves the stimulus of a failure itself\n");
        return 2;
    }
    if (opts_setup(&o, &s))
        return 2;
    ls_cfg_t lc = {0};
    lc.cfg = &s.cfg;
    lc.vt = spu_dut_find(s.cfg.name);
    if (!lc.vt) {
        fprintf(stderr, "error: no Verilated build of configuration '%s' in this binary\n", s.cfg.name);
        return 2;
    }
    lc.init_seed = o.init_seed ? o.init_seed : o.seed % 1000003u + 1u;
    lc.log = s.log_f;
    lc.progress = o.progress;
    lc.dut_only = o.dut_only;
    if (o.inject) {
        /* FIELD@CYCLE: flip bit 0 of that model output in that cycle. */
        const char *at = strchr(o.inject, '@');
        spu_out_t probe = {0};
        unsigned long long cyc;
        if (!at || (size_t)(at - o.inject) >= sizeof inj || sscanf(at + 1, "%llu", &cyc) != 1) {
            fprintf(stderr, "error: --inject '%s': expected SIGNAL@CYCLE, e.g. rec_tot_lat_o@5000\n", o.inject);
            return 2;
        }
        memcpy(inj, o.inject, (size_t)(at - o.inject));
        if (cmp_perturb(&probe, inj)) {
            fprintf(stderr, "error: --inject: unknown output '%s'\n", inj);
            return 2;
        }
        lc.inject = inj;
        lc.inject_cycle = cyc;
    }
    if (!s.have_trace) {
        gen_init(&s.gen, &s.cfg, &s.gp, o.seed, o.cycles, UINT64_MAX);
        s.src = gen_source(&s.gen);
    }
    fprintf(stderr, "spu-tb: config %s, %s %s, init seed %" PRIu64 " (+verilator+rand+reset+2 +verilator+seed+%" PRIu64 ")\n",
            s.cfg.name, s.have_trace ? "trace" : "seed",
            s.have_trace ? o.trace : (snprintf(inj + 40, 24, "%" PRIu64, o.seed), inj + 40), lc.init_seed, lc.init_seed);
    lockstep_run(&lc, s.src, &r);
    if (s.log_f)
        fflush(s.log_f);

    if (r.status != LS_PASS) {
        char saved[512];
        mkdir("build", 0777);
        mkdir(FAIL_DIR, 0777);
        fail_path(&o, &s, r.fail_cycle, saved, sizeof saved);
        const int ok = save_stimulus(&o, &s, r.fail_cycle, saved) == 0;
        print_report(&o, &s, &lc, &r, ok ? saved : NULL);
        if (!ok)
            fprintf(stderr, "warning: could not save the stimulus to %s: %s\n", saved, strerror(errno));
        if (o.wave) {
            static spt_trace_t t;
            static spu_gen_t g;
            static ls_result_t r2;
            spu_src_t src;
            char fst[520];
            snprintf(fst, sizeof fst, "%.*s.fst", (int)(strlen(saved) - 4), saved);
            ls_cfg_t wc = lc;
            wc.log = NULL;
            wc.progress = 0;
            wc.wave = fst;
            wc.wave_from = r.fail_cycle > 200 ? r.fail_cycle - 200 : 0;
            wc.wave_to = r.fail_cycle + 2;
            if (fresh_source(&o, &s, &t, &g, &src) == 0) {
                lockstep_run(&wc, src, &r2);
                fprintf(stderr, "wave: %s (cycles %" PRIu64 "..%" PRIu64 ", same binary and init seed; difference %s)\n",
                        fst, wc.wave_from, r2.fail_cycle, r2.status != LS_PASS && r2.fail_cycle == r.fail_cycle ? "reproduced" : "NOT reproduced");
            }
        }
        if (o.shrink && ok)
            shrink_trace(&lc, saved);
        opts_teardown(&s);
        return 1;
    }
    if (o.dut_only) {
        fprintf(stderr, "DUT-ONLY config %s: %" PRIu64 " cycles, nothing compared, %.2f M cycles/s\n", s.cfg.name,
                r.cycles, r.seconds > 0 ? (double)r.cycles / r.seconds / 1e6 : 0.0);
        opts_teardown(&s);
        return 0;
    }
    const int vac = check_vacuous(&o, &r);
    fprintf(stderr, "%s config %s: %" PRIu64 " cycles compared, 0 differences, %" PRIu64 " samples, %" PRIu64
                    " collisions, records kept %" PRIu64 " rejected %" PRIu64 ", %" PRIu64
                    " cycles with several selections, %.2f M cycles/s\n",
            vac ? "FAIL" : "PASS", s.cfg.name, r.cycles, r.log.samples, r.log.collisions, r.log.kept,
            r.log.rejected, r.log.multi, r.seconds > 0 ? (double)r.cycles / r.seconds / 1e6 : 0.0);
    if (o.stats)
        for (int i = 0; i < SPU_NPMU; i++)
            if (spu_pmu_implemented(&s.cfg, i))
                fprintf(stderr, "  %-20s %" PRIu64 "\n", spu_pmu_name(i), r.log.pmu[i]);
    opts_teardown(&s);
    return vac;
}
