/*
 * The command line of the engine's front ends (opts.h): the engine's own
 * options, the front end's from its table, the rules between them, and the
 * help. Every bad option names itself and the value; nothing is ignored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen.h"
#include "opts.h"
#include "perf_event.h"

#define M(m) offsetof(spu_opts_t, m)
/* What the engine's set-up reads (setup.c). --knob and --gen add up
 * (opts_parse()); TRACE is the one argument that is not an option. */
static const opt_def_t eng_opt[] = {
    STR_OPT("--config", M(config)),
    STR_OPT("--perf-event", M(perf_event)),
    STR_OPT("--buffer", M(buffer)),
    STR_OPT("--cov", M(cov)),
    STR_OPT("--rec-bin", M(rec_bin)),
    STR_OPT("--records", M(records)),
    STR_OPT("--mem-bin", M(mem_bin)),
    STR_OPT("--stats-json", M(stats_json)),
    STR_OPT("--report", M(report)),
    STR_OPT("--emit-trace", M(emit)),
    STR_OPT("--log", M(log)),
    NUM_OPT("--seed", M(seed), 0, 0, NULL),
    NUM_OPT("--period", M(period), 0, 0, NULL),
    NUM_OPT("--mem-stall", M(mem_stall), 0, 99, "a percentage of cycles, 0..99 (at 100 nothing is ever written)"),
    NUM_OPT("--stray-events", M(stray), 0, 100, "a percentage of cycles, 0..100"),
    FLAG_OPT("--quiet", M(quiet), 1),
    FLAG_OPT("--stats", M(stats), 1),
    FLAG_OPT("--no-skip", M(no_skip), 1),
    {.name = "--progress", .kind = OPT_FLAG, .off = M(progress), .val = 1, .repeat = 1},
    {.name = "--no-progress", .kind = OPT_FLAG, .off = M(progress), .val = 0, .repeat = 1},
};
#undef M

/* Refused whichever front end parses. */
static const opt_rule_t eng_rule[] = {
    {"TRACE", "--seed", 0, "the trace is the stimulus; the generator's seed does not apply"},
    {"TRACE", "--gen", 0, "the trace is the stimulus; generator knobs do not apply"},
    {"--quiet", "--log", 0, "--quiet writes no log"},
    {"--perf-event", "--period", 1, "it is the sample period of --perf-event, which is not given"},
    {"--perf-event", "--buffer", 1, "it is the Profiling Buffer of --perf-event, which is not given"},
};

static void usage(FILE *f, const char *prog, const opts_front_t *fe)
{
    fprintf(f, "usage: %s [options] [TRACE.spt]\n", prog);
    fprintf(f, "  TRACE.spt           replay a stimulus trace (else: seeded random stimulus)\n"
               "  --config NAME       configuration (default: the trace's cfg line, else v1p4):");
    for (unsigned i = 0; i < spu_nconfigs; i++)
        fprintf(f, " %s", spu_configs[i].name);
    fprintf(f, "\n  --seed S            generator seed (default 1)\n%s", fe->help_length ? fe->help_length : "");
    fprintf(f, "  --perf-event EVENT  program the unit as the Linux arm_spe driver does for this perf event,\n"
               "                      e.g. 'arm_spe_0/load_filter=1,min_latency=20,period=1024/u' (docs/perf-event.md)\n"
               "  --period N          the event's sample period (perf -c N; default caps/min_interval)\n"
               "  --buffer BASE,SIZE  the event's Profiling Buffer (default 0x%llx,0x%llx)\n",
            (unsigned long long)PEV_DEFAULT_BASE, (unsigned long long)PEV_DEFAULT_SIZE);
    fprintf(f, "  --gen NAME=V[,..]   generator knob(s); --help-gen lists them\n"
               "  --cov FILE          write the functional coverage bins to FILE (docs/coverage.md)\n"
               "  --rec-bin FILE      write every sample record's bytes to FILE, back to back (what the\n"
               "                      Profiling Buffer receives; docs/records.md)\n"
               "  --records FILE      write every sample record to FILE as text, one line per packet in\n"
               "                      the words of perf report -D (docs/records.md)\n"
               "  --mem-bin FILE      write the memory the Profiling Buffer wrote, from its lowest to its\n"
               "                      highest written address, to FILE (docs/buffer.md)\n"
               "  --mem-stall PCT     the memory stalls the write port in PCT %% of the cycles, 0..99\n"
               "                      (default 0; docs/buffer.md)\n"
               "  --stray-events PCT  in PCT %% of the cycles the core also drives an issue and/or a finish\n"
               "                      that no sampled op stands behind: for a free, an issued or no slot\n"
               "                      (default 0; docs/semantics.md, \"Input corner cases\")\n"
               "  --log FILE          write the .spl log to FILE (default stdout)\n"
               "  --quiet             no .spl log\n"
               "  --stats             print statistics to stderr at the end\n"
               "  --stats-json FILE   write the run's figures to FILE as JSON, for scripts (docs/formats.md)\n"
               "  --report FILE       write the run as one self-contained HTML page to FILE: set-up,\n"
               "                      registers decoded, plots, PMU totals (docs/formats.md)\n"
               "  --progress / --no-progress   progress line on stderr (default: when a terminal)\n");
    fprintf(f, "%s", fe->help ? fe->help : "");
    fprintf(f, "  (a FILE of '-' is stdout, for one output: the .spl log's unless --quiet or --log FILE;\n"
               "  every option is also --name=value)\n%s", fe->help_exit ? fe->help_exit : "");
}

int opts_u64(const char *opt, const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    if (!s || !*s || *s == '-') {
        fprintf(stderr, "error: %s needs a number of 0 or more, got '%s'\n", opt, s ? s : "");
        return -1;
    }
    *v = strtoull(s, &end, 0);
    if (*end || end == s) {
        fprintf(stderr, "error: %s: '%s' is not a number\n", opt, s);
        return -1;
    }
    if (errno == ERANGE) {
        fprintf(stderr, "error: %s: '%s' is out of range (at most 2^64-1)\n", opt, s);
        return -1;
    }
    return 0;
}

int opts_given(const spu_opts_t *o, const char *name)
{
    for (int i = 0; i < o->ngiven; i++)
        if (!strcmp(o->given[i], name))
            return 1;
    return 0;
}

/* Note name as given: 0, or -1 (message printed) when it takes one value
 * and was given before, so that the second would replace the first. */
static int note_given(spu_opts_t *o, const char *name, int repeat)
{
    if (opts_given(o, name)) {
        if (repeat)
            return 0;
        fprintf(stderr, "error: %s given twice (it takes one value; the second would replace the first)\n", name);
        return -1;
    }
    if (o->ngiven == OPT_MAX_GIVEN) { /* each name once: the tables have fewer */
        fprintf(stderr, "internal error: more than %d different options; raise OPT_MAX_GIVEN\n", OPT_MAX_GIVEN);
        return -1;
    }
    o->given[o->ngiven++] = name;
    return 0;
}

static const opt_def_t *find_opt(const opts_front_t *fe, const char *a)
{
    for (size_t k = 0; k < sizeof eng_opt / sizeof eng_opt[0]; k++)
        if (!strcmp(a, eng_opt[k].name))
            return &eng_opt[k];
    for (size_t k = 0; k < fe->nopt; k++)
        if (!strcmp(a, fe->opt[k].name))
            return &fe->opt[k];
    return NULL;
}

/* Set d's member of own from its value: v (the text after '=' of
 * --name=value), else the next argument (*i past it). 0, or -1 (message
 * printed). */
static int take_opt(void *own, const opt_def_t *d, const char *v, int argc, char **argv, int *i)
{
    void *m = (char *)own + d->off;
    if (note_given(own, d->name, d->repeat))
        return -1;
    if (d->kind == OPT_FLAG) {
        if (v) {
            fprintf(stderr, "error: %s=%s: %s takes no value\n", d->name, v, d->name);
            return -1;
        }
        *(int *)m = d->val;
        return 0;
    }
    if (!v && *i + 1 >= argc) {
        fprintf(stderr, "error: %s needs a value\n", d->name);
        return -1;
    }
    if (!v)
        v = argv[++*i];
    if (d->kind != OPT_NUM) {
        *(const char **)m = v;
        return 0;
    }
    uint64_t n;
    if (opts_u64(d->name, v, &n))
        return -1;
    if (n < d->min || (d->max && n > d->max)) {
        fprintf(stderr, "error: %s %s: %s\n", d->name, v, d->range);
        return -1;
    }
    *(uint64_t *)m = n;
    return 0;
}

/* --knob and --gen, which add up (value v as for take_opt()): 0, or -1
 * (message printed). */
static int take_kv(spu_opts_t *o, const char *a, const char *v, int argc, char **argv, int *i)
{
    const int k = !strcmp(a, "--knob");
    if (!v && *i + 1 >= argc) {
        fprintf(stderr, "error: %s needs a value\n", a);
        return -1;
    }
    if ((k ? o->nknob : o->ngen) >= OPT_MAX_KV) {
        fprintf(stderr, "error: too many %s options (at most %d)\n", a, OPT_MAX_KV);
        return -1;
    }
    *(k ? &o->knob[o->nknob++] : &o->gen[o->ngen++]) = v ? v : argv[++*i];
    return note_given(o, k ? "--knob" : "--gen", 1);
}

/* An argument no table takes: an unknown option (saying what the front
 * end's hints say of it), or the trace. 0, or -1 with the message. */
static int positional(spu_opts_t *o, const char *a)
{
    if (a[0] == '-' && a[1]) {
        const char *hint = NULL;
        for (size_t k = 0; k < o->fe->nhint; k++)
            if (!strcmp(a, o->fe->hint[k].name))
                hint = o->fe->hint[k].why;
        fprintf(stderr, "error: unknown option '%s'%s%s%s (try --help)\n", a, hint ? " (" : "", hint ? hint : "",
                hint ? ")" : "");
        return -1;
    }
    if (o->trace) {
        fprintf(stderr, "error: more than one trace given ('%s' and '%s'; a stray argument, or a value that needs quotes?)\n",
                o->trace, a);
        return -1;
    }
    o->trace = a;
    return note_given(o, "TRACE", 0);
}

/* The first rule of t the options break: 1 (message printed), else 0. */
static int broken_rule(const spu_opts_t *o, const opt_rule_t *t, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        const int with = !t[k].when || opts_given(o, t[k].when);
        if (opts_given(o, t[k].opt) && (t[k].needs ? !with : with)) {
            fprintf(stderr, "error: %s: %s\n", t[k].opt, t[k].why);
            return 1;
        }
    }
    return 0;
}

/* Options that do not apply to the run asked for are errors, not ignored. */
static int check_rules(const spu_opts_t *o)
{
    return broken_rule(o, eng_rule, sizeof eng_rule / sizeof eng_rule[0]) || broken_rule(o, o->fe->rule, o->fe->nrule)
               ? -1 : 0;
}

const char *opts_split_eq(const char *a, char *buf, size_t len)
{
    const char *eq = a[0] == '-' && a[1] == '-' ? strchr(a, '=') : NULL;
    if (!eq || (size_t)(eq - a) >= len)
        return NULL;
    memcpy(buf, a, (size_t)(eq - a));
    buf[eq - a] = '\0';
    return eq + 1;
}

int opts_parse(void *own, int argc, char **argv, const opts_front_t *fe)
{
    spu_opts_t *o = own;
    memset(own, 0, fe->size);
    o->fe = fe;
    o->prog = argv[0];
    o->seed = 1;
    o->ops = o->cycles = UINT64_MAX;
    o->progress = isatty(2);
    o->argc = argc;
    o->argv = argv;
    if (fe->init)
        fe->init(own);
    for (int i = 1; i < argc; i++) {
        char name[64];
        const char *v = opts_split_eq(argv[i], name, sizeof name), *a = v ? name : argv[i];
        const opt_def_t *d = find_opt(fe, a);
        int rc;
        if (d)
            rc = take_opt(own, d, v, argc, argv, &i);
        else if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return usage(stdout, o->prog, fe), 1;
        else if (!strcmp(a, "--help-gen"))
            return gen_params_help(stdout), 1;
        else if (!strcmp(a, "--knob") || !strcmp(a, "--gen"))
            rc = take_kv(o, a, v, argc, argv, &i);
        else
            rc = positional(o, a);
        if (rc)
            return -1;
    }
    return check_rules(o);
}
