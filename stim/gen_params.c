/*
 * The generator's knobs: a profile drawn from the seed, overrides by name
 * (`--gen name=value`), and their one-line description for reproduction.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gen_prog.h"

/* X(name, lo, hi, regs, doc); regs 1: it only shapes the register traffic
 * and resets, which the generator makes none of with no_regs. */
#define GEN_PARAM_LIST(X)                                                                  \
    X(int_min, 1, 0xFFFFFF, 1, "smallest PMSIRR.INTERVAL")                                      \
    X(int_max, 1, 0xFFFFFF, 1, "largest PMSIRR.INTERVAL")                                       \
    X(p_int1, 0, 100, 1, "% programs with INTERVAL=1")                                          \
    X(p_int0, 0, 100, 1, "% programs with INTERVAL=0")                                          \
    X(p_rnd, 0, 100, 1, "% programs with RND=1")                                                \
    X(p_ld, 0, 100, 0, "% loads")                                                               \
    X(p_st, 0, 100, 0, "% stores")                                                              \
    X(p_b, 0, 100, 0, "% branches")                                                             \
    X(p_atomic, 0, 100, 0, "% atomics (LD+ST)")                                                 \
    X(p_fp, 0, 100, 0, "% FP ops")                                                              \
    X(p_simd, 0, 100, 0, "% SIMD ops")                                                          \
    X(ev_density, 1, 1024, 0, "event bit density /1024")                                        \
    X(p_ds, 0, 100, 0, "% ops with a data source")                                              \
    X(fin_max, 1, 0xFFFFFF, 0, "typical finish latency bound")                                  \
    X(p_long, 0, 1000, 0, "per mille ops with latency up to 70000")                             \
    X(pop_density, 0, 100, 0, "% members per lane per cycle")                                   \
    X(reprog_gap, 0, 0xFFFFFFFF, 1, "mean cycles between reprogramming (0 never)")              \
    X(toggle_gap, 0, 0xFFFFFFFF, 0, "mean cycles between enable toggles (0 never)")             \
    X(read_gap, 0, 0xFFFFFFFF, 1, "mean cycles between reads (0 never)")                        \
    X(reset_gap, 0, 0xFFFFFFFF, 1, "mean cycles between resets (0 never)")                      \
    X(p_filter, 0, 100, 1, "% programs enabling each filter")                                  \
    X(p_close, 0, 100, 1, "% reprogramming bursts that hammer PMSICR (several selections a cycle)") \
    X(p_small_buf, 0, 100, 1, "% Profiling Buffers with room for a few records (they fill)")    \
    X(p_edge_buf, 0, 100, 1, "% Profiling Buffers at the full test's edges (top page, 2^k+j pages)")

void gen_params_default(gen_params_t *p, const spu_config_t *cfg, uint64_t seed)
{
    uint64_t s = seed ^ 0xD1CEull;
    (void)cfg;
    memset(p, 0, sizeof *p);
    /* Profiles: collision pressure (tiny intervals, long latencies), filter
     * exercise, and realistic long intervals; chosen by the seed. */
    switch (rng_below(&s, 3)) {
    case 0:
        p->int_min = 1, p->int_max = 2, p->p_int1 = 70, p->p_long = 40, p->fin_max = 300;
        break;
    case 1:
        p->int_min = 1, p->int_max = 8, p->p_int1 = 40, p->p_long = 20, p->fin_max = 64;
        break;
    default:
        p->int_min = 1, p->int_max = 16, p->p_int1 = 10, p->p_long = 10, p->fin_max = 40;
        break;
    }
    p->p_int0 = 5;
    p->p_rnd = 50;
    p->p_ld = 30, p->p_st = 20, p->p_b = 20, p->p_atomic = 5;
    p->p_fp = 20, p->p_simd = 20;
    p->ev_density = 1u << rng_below(&s, 10);
    p->p_ds = 60;
    p->pop_density = 40 + rng_below(&s, 60);
    p->reprog_gap = 5000 + rng_below(&s, 40000);
    p->toggle_gap = 2000 + rng_below(&s, 20000);
    p->read_gap = 500 + rng_below(&s, 5000);
    p->reset_gap = 100000 + rng_below(&s, 400000);
    p->p_filter = 35;
    p->p_close = 40;
    p->p_small_buf = 25;
}

int gen_params_set(gen_params_t *p, const char *kv, char *err, size_t errlen)
{
    const char *eq = strchr(kv, '=');
    if (!eq) {
        snprintf(err, errlen, "generator knob '%s': expected name=value", kv);
        return -1;
    }
    const size_t n = (size_t)(eq - kv);
    char *end;
    errno = 0;
    const unsigned long long v = strtoull(eq + 1, &end, 0);
    if (eq[1] == '\0' || *end != '\0' || errno) {
        snprintf(err, errlen, "generator knob '%.*s': value '%s' is not a number", (int)n, kv, eq + 1);
        return -1;
    }
#define SET_PARAM(name, lo, hi, regs, doc)                                                        \
    if (strlen(#name) == n && strncmp(kv, #name, n) == 0) {                                  \
        if (v + 1 < (lo) + 1ull || v > (hi)) {                                               \
            snprintf(err, errlen, "generator knob %s=%llu out of range %llu..%llu", #name, v, \
                     (unsigned long long)(lo), (unsigned long long)(hi));                    \
            return -1;                                                                       \
        }                                                                                    \
        p->name = (uint32_t)v;                                                               \
        return 0;                                                                            \
    }
    GEN_PARAM_LIST(SET_PARAM)
#undef SET_PARAM
    snprintf(err, errlen, "unknown generator knob '%.*s' (see --help-gen)", (int)n, kv);
    return -1;
}

void gen_params_print(const gen_params_t *p, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
#define PRINT_PARAM(name, lo, hi, regs, doc)                                                \
    if (n < len && !(regs && p->no_regs))                                                    \
        n += (size_t)snprintf(buf + n, len - n, "%s%s=%u", n ? "," : "", #name, p->name);
    GEN_PARAM_LIST(PRINT_PARAM)
#undef PRINT_PARAM
}

int gen_param_regs_only(const char *name, size_t n)
{
#define REGS_PARAM(name_, lo, hi, regs, doc)                                                \
    if (regs && strlen(#name_) == n && strncmp(name, #name_, n) == 0)                        \
        return 1;
    GEN_PARAM_LIST(REGS_PARAM)
#undef REGS_PARAM
    return 0;
}

void gen_params_help(FILE *f)
{
#define HELP_PARAM(name, lo, hi, regs, doc) fprintf(f, "  %-12s %s (%u..%u)\n", #name, doc, (unsigned)(lo), (unsigned)(hi));
    GEN_PARAM_LIST(HELP_PARAM)
#undef HELP_PARAM
}

int gen_params_check(const gen_params_t *p, char *err, size_t errlen)
{
    if (p->int_min > p->int_max) {
        snprintf(err, errlen, "generator knobs int_min=%u > int_max=%u", p->int_min, p->int_max);
        return -1;
    }
    if (p->p_ld + p->p_st + p->p_b + p->p_atomic > 100) {
        snprintf(err, errlen, "generator knobs p_ld+p_st+p_b+p_atomic = %u > 100",
                 p->p_ld + p->p_st + p->p_b + p->p_atomic);
        return -1;
    }
    return 0;
}
