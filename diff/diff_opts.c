/*
 * spu-diff's command line (diff_opts.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_opts.h"

#define LAT_MAX 1000000000LL /* the largest tolerance, in cycles either way */

static void usage(FILE *f, const char *prog)
{
    fprintf(f, "usage: %s [options] TRACE.spt THEIR.spl\n", prog);
    fprintf(f, "  Replays TRACE.spt through the golden model and matches the sample, collision and record\n"
               "  lines of THEIR.spl (a log your testbench wrote for the same stimulus) to the model's by op\n"
               "  id, read and undef lines by cycle (docs/diff.md).\n"
               "  --record-latency N|MIN:MAX  a record line's cycle may be the model's + MIN..MAX (default 0:0)\n"
               "  --sample-latency N|MIN:MAX  the same for sample and collision lines (default 0:0)\n"
               "  --ignore-reads      read and undef lines are read but not compared\n"
               "  --list N            disagreements listed after the one reported in full (default 10)\n"
               "  --show N            report the Nth disagreement (from 1) in full instead of the first\n"
               "  --config NAME       configuration (default: the trace's cfg line, else v1p4):");
    for (unsigned i = 0; i < spu_nconfigs; i++)
        fprintf(f, " %s", spu_configs[i].name);
    fprintf(f, "\n  --knob NAME=V       override a knob of the configuration (docs/impl-defined.md)\n"
               "  --perf-event EVENT, --period N, --buffer BASE,SIZE\n"
               "                      the driver's sequences around the trace, as spu-csim (docs/perf-event.md)\n"
               "  --mem-stall PCT     the memory stalls the write port in PCT %% of the cycles, as spu-csim\n"
               "exit status: 0 the logs agree, 1 they disagree (the first disagreement is reported),\n"
               "             2 bad input\n");
}

/* The engine's options spu-diff passes on, each with its value. */
static const char *const eng_value[] = {"--config", "--knob", "--perf-event", "--period", "--buffer", "--mem-stall"};
/* The engine's options that make or run other stimulus, and those that
 * write what spu-diff does not. */
static const char *const gen_opt[] = {"--seed", "--ops", "--cycles", "--gen", "--help-gen"};
static const char *const out_opt[] = {"--emit-trace", "--vectors", "--cov", "--rec-bin", "--records", "--mem-bin",
                                      "--log", "--quiet", "--stats", "--no-skip", "--progress", "--no-progress"};

static int in_list(const char *a, const char *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(a, v[i]))
            return 1;
    return 0;
}

/* A signed count of cycles, the whole of [s, *end) up to a ':' or the end. */
static int cycles_num(const char *s, const char **end, long long *v)
{
    char *e;
    if (!((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9')))
        return -1;
    errno = 0;
    *v = strtoll(s, &e, 10);
    *end = e;
    return errno || *v < -LAT_MAX || *v > LAT_MAX ? -1 : 0;
}

/* N or MIN:MAX. */
static int parse_tol(const char *opt, const char *v, match_tol_t *t)
{
    const char *e;
    long long lo, hi;
    if (cycles_num(v, &e, &lo) || (*e == ':' ? cycles_num(e + 1, &e, &hi) : (hi = lo, 0)) || *e) {
        fprintf(stderr, "error: %s '%s': expected N or MIN:MAX, whole numbers of cycles within -%lld..%lld "
                        "(e.g. 3 or 0:8)\n", opt, v, LAT_MAX, LAT_MAX);
        return -1;
    }
    if (lo > hi) {
        fprintf(stderr, "error: %s '%s': MIN %lld is above MAX %lld\n", opt, v, lo, hi);
        return -1;
    }
    t->min = lo;
    t->max = hi;
    return 0;
}

/* --list N or --show N: a whole number in lo..1000000 (--show is checked
 * against the count of disagreements later); 0, or -1 (message printed). */
static int parse_count(const char *opt, const char *v, unsigned long lo, unsigned long *n)
{
    char *e;
    errno = 0;
    *n = strtoul(v, &e, 10);
    if (!(*v >= '0' && *v <= '9') || *e || errno || *n < lo || *n > 1000000) {
        fprintf(stderr, "error: %s '%s': expected a %s of %lu..1000000\n", opt, v, lo ? "number" : "count", lo);
        return -1;
    }
    return 0;
}

/* The engine's options spu-diff passes on are all the engine's own. */
static const opts_front_t diff_eng = {.tool = "spu-diff", .size = sizeof(spu_opts_t)};

int diff_opts_parse(diff_opts_t *d, int argc, char **argv)
{
    const char *trace = NULL, *list = NULL;
    int ne = 0;
    memset(d, 0, sizeof *d);
    d->list = 10;
    d->eng_argv[ne++] = argv[0];
    for (int i = 1; i < argc; i++) {
        char name[64];
        const char *eq = opts_split_eq(argv[i], name, sizeof name);
        const char *a = eq ? name : argv[i], *v = eq ? eq : i + 1 < argc ? argv[i + 1] : NULL;
        const char **own = !strcmp(a, "--record-latency") ? &d->record_opt
                           : !strcmp(a, "--sample-latency") ? &d->sample_opt
                           : !strcmp(a, "--list") ? &list
                           : !strcmp(a, "--show") ? &d->show_opt : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout, argv[0]);
            return 1;
        } else if (own || in_list(a, eng_value, sizeof eng_value / sizeof eng_value[0])) {
            if (!v) {
                fprintf(stderr, "error: %s needs a value\n", a);
                return -1;
            }
            if (own && *own) {
                fprintf(stderr, "error: %s given twice (it takes one value; the second would replace the first)\n", a);
                return -1;
            }
            if (own) {
                *own = v;
            } else if (ne + 2 < DIFF_MAX_ARGS) {
                d->eng_argv[ne++] = argv[i]; /* --name=value as it is, else the name and its value */
                if (!eq)
                    d->eng_argv[ne++] = argv[i + 1];
            } else {
                fprintf(stderr, "error: too many options\n");
                return -1;
            }
            i += !eq;
        } else if (eq && !strcmp(a, "--ignore-reads")) {
            fprintf(stderr, "error: %s: --ignore-reads takes no value\n", argv[i]);
            return -1;
        } else if (!strcmp(a, "--ignore-reads")) {
            d->match.ignore_reads = 1;
        } else if (in_list(a, gen_opt, sizeof gen_opt / sizeof gen_opt[0])) {
            fprintf(stderr, "error: %s: spu-diff replays the stimulus of TRACE.spt, which your testbench ran "
                            "(spu-csim --emit-trace saves a generated run as a trace)\n", a);
            return -1;
        } else if (in_list(a, out_opt, sizeof out_opt / sizeof out_opt[0])) {
            fprintf(stderr, "error: %s: spu-diff writes its report only; spu-csim TRACE.spt %s writes that for "
                            "the same run\n", a, a);
            return -1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "error: unknown option '%s' (try --help)\n", a);
            return -1;
        } else if (!trace) {
            trace = a;
        } else if (!d->theirs) {
            d->theirs = a;
        } else {
            fprintf(stderr, "error: a third file '%s' (spu-diff takes TRACE.spt and THEIR.spl)\n", a);
            return -1;
        }
    }
    if (!d->theirs) {
        fprintf(stderr, "error: spu-diff needs TRACE.spt and THEIR.spl, %s (try --help)\n",
                trace ? "THEIR.spl is missing" : "both are missing");
        return -1;
    }
    if ((d->record_opt && parse_tol("--record-latency", d->record_opt, &d->match.record)) ||
        (d->sample_opt && parse_tol("--sample-latency", d->sample_opt, &d->match.sample)) ||
        (list && parse_count("--list", list, 0, &d->list)) || (d->show_opt && parse_count("--show", d->show_opt, 1, &d->show)))
        return -1;
    d->eng_argv[ne++] = (char *)trace;
    d->eng_argv[ne] = NULL;
    return opts_parse(&d->eng, ne, d->eng_argv, &diff_eng) ? -1 : 0;
}
