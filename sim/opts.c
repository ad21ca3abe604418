/*
 * Options of spu-csim and spu-tb (opts.h). Every bad option names itself and
 * the value; nothing is ignored.
 *
 * Over 500 lines because it still holds spu-tb's own options, help and
 * conflicts beside the shared ones (one table marks which tool has each,
 * so that either refuses the other's by name); moving spu-tb's into tb/
 * behind a table the front end passes in is open work of issue 25.
 */
#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"
#include "opts.h"

static void usage(FILE *f, const char *prog, int tb)
{
    fprintf(f, "usage: %s [options] [TRACE.spt]\n", prog);
    fprintf(f, "  TRACE.spt           replay a stimulus trace (else: seeded random stimulus)\n"
               "  --config NAME       configuration (default: the trace's cfg line, else v1p4):");
    for (unsigned i = 0; i < spu_nconfigs; i++)
        fprintf(f, " %s", spu_configs[i].name);
    fprintf(f, "\n  --seed S            generator seed (default 1)\n");
    if (tb)
        fprintf(f, "  --cycles N          cycles of generated stimulus (default 1000000)\n");
    else
        fprintf(f, "  --ops N             population members the generator offers (default 1000000); --stats\n"
                   "                      counts as 'members' those offered while profiling was enabled\n");
    if (!tb)
        fprintf(f, "  --knob NAME=V       override a knob of the configuration (docs/impl-defined.md)\n"
                   "  --emit-trace FILE   also write the stimulus as a .spt trace\n"
                   "  --vectors FILE      also write every cycle's inputs and outputs as spu_top's ports, for\n"
                   "                      the Icarus bench (tb/icarus/spu_vec_tb.v); steps every cycle\n");
    fprintf(f, "  --perf-event EVENT  program the unit as the Linux arm_spe driver does for this perf event,\n"
               "                      e.g. 'arm_spe_0/load_filter=1,min_latency=20,period=1024/u' (docs/perf-event.md)\n"
               "  --period N          the event's sample period (perf -c N; default caps/min_interval)\n"
               "  --buffer BASE,SIZE  the event's Profiling Buffer (default 0x%llx,0x%llx)\n",
            (unsigned long long)PEV_DEFAULT_BASE, (unsigned long long)PEV_DEFAULT_SIZE);
    fprintf(f, "  --gen NAME=V[,..]   generator knob(s); --help-gen lists them\n"
               "  --cov FILE          write the functional coverage bins to FILE (docs/coverage.md)%s\n"
               "  --rec-bin FILE      write every sample record's bytes to FILE, back to back (what the\n"
               "                      Profiling Buffer receives; docs/records.md)\n"
               "  --records FILE      write every sample record to FILE as text, one line per packet in\n"
               "                      the words of perf report -D ('-' for stdout; docs/records.md)\n"
               "  --mem-bin FILE      write the memory the Profiling Buffer wrote, from its lowest to its\n"
               "                      highest written address, to FILE (docs/buffer.md)\n"
               "  --mem-stall PCT     the memory stalls the write port in PCT %% of the cycles, 0..99\n"
               "                      (default 0; docs/buffer.md)\n"
               "  --log FILE          write the .spl log to FILE (default stdout)\n"
               "  --quiet             no .spl log\n"
               "  --stats             print statistics to stderr at the end\n"
               "  --stats-json FILE   write the run's figures to FILE as JSON, for scripts (docs/formats.md)\n"
               "  --progress / --no-progress   progress line on stderr (default: when a terminal)\n",
            tb ? "" : "; steps every cycle");
    if (!tb)
        fprintf(f, "  --no-skip           step every cycle (no skipping ahead)\n");
    else
        fprintf(f, "  --no-skip           check each cycle on its own (default: runs of plain cycles in blocks,\n"
                   "                      docs/performance.md; the logs are identical)\n");
    if (tb)
        fprintf(f, "  --wave              on a difference, re-run and write an FST of the window around it\n"
                   "                      (the whole run uses the model built with tracing, a little slower)\n"
                   "  --shrink            on a difference, reduce the failing stimulus (delta debugging)\n"
                   "  --init-seed N       +verilator+seed for X initialisation (default derived from --seed)\n"
                   "  --expect-vacuous    a trace that selects nothing is not a failure\n"
                   "  --dut-only          benchmark: the DUT alone on the same stimulus (no model, no compare)\n"
                   "  --inject SIG@CYCLE  flip bit 0 of a model output in one cycle (checker self-test)\n"
                   "  --fail-dir DIR      where a failure's stimulus, wave and reduced trace go (default: fail/\n"
                   "                      beside the spu-tb binary)\n"
                   "  --full-clock        drive both clock edges with an eval each (default: one eval per\n"
                   "                      cycle where the Verilated model allows it; the logs are identical)\n"
                   "  --reference         run the reference loop, the checker's specification (tb/lockstep.c):\n"
                   "                      spu_top's own timing, both clock edges, every cycle compared whole;\n"
                   "                      the default fast loop gives the same logs, records and reports\n"
                   "  --apb               the DUT is spu_apb, the APB4 wrapper: the register accesses go over\n"
                   "                      APB, PRDATA/PREADY/PSLVERR compared too (configurations built with it)\n"
                   "  --mutant K          a mutant build only (build/spu-tb-mut, make mutate): mutsel = K,\n"
                   "                      0 the unmutated design; reports whether mutant K was activated\n"
                   "  (regressions over many seeds: tools/regress.py, make regress)\n");
    if (tb)
        fprintf(f, "exit status: 0 no difference and not vacuous, 1 a difference or a vacuous run, 2 bad input\n");
    else
        fprintf(f, "exit status: 0 ok, 1 the outputs contradict the core model or a file could not be written,\n"
                   "             2 bad input\n");
}

static int parse_u64(const char *opt, const char *s, uint64_t *v)
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

static int parse_count(const char *opt, const char *s, uint64_t *v)
{
    if (parse_u64(opt, s, v))
        return -1;
    if (*v == 0) {
        fprintf(stderr, "error: %s 0: a run needs at least one %s\n", opt, strcmp(opt, "--ops") ? "cycle" : "op");
        return -1;
    }
    return 0;
}

/* Options that do not apply to the run asked for are errors, not ignored. */
static int check_combination(const spu_opts_t *o)
{
    const char *bad = NULL, *why = NULL;
    if (o->trace && o->seed_opt)
        bad = o->seed_opt, why = "the trace is the stimulus; the generator's seed does not apply";
    else if (o->trace && o->len_opt)
        bad = o->len_opt, why = "a trace runs to its end (cut the trace to run less of it)";
    else if (o->trace && o->ngen)
        bad = "--gen", why = "the trace is the stimulus; generator knobs do not apply";
    else if (o->quiet && o->log)
        bad = "--log", why = "--quiet writes no log";
    else if (o->reference && (o->dut_only || o->no_skip || o->full_clock))
        bad = o->dut_only ? "--dut-only" : o->no_skip ? "--no-skip" : "--full-clock",
        why = o->dut_only ? "--reference compares every cycle; --dut-only compares none"
                          : "the reference loop already steps and compares each cycle with both clock edges";
    else if (o->dut_only && o->wave)
        bad = "--wave", why = "--dut-only compares nothing, so there is no difference to show";
    else if (o->dut_only && o->shrink)
        bad = "--shrink", why = "--dut-only compares nothing, so there is no failure to shrink";
    else if (o->dut_only && o->inject)
        bad = "--inject", why = "--dut-only compares nothing, so an injected difference cannot be caught";
    else if (o->dut_only && o->expect_vacuous)
        bad = "--expect-vacuous", why = "--dut-only does not check vacuity";
    else if (o->dut_only && o->cov)
        bad = "--cov", why = "--dut-only runs no model, and coverage is sampled with the model's state";
    else if (o->dut_only && o->records)
        bad = "--records", why = "--dut-only runs no model; the records printed are the model's (equal to the DUT's when compared)";
    else if (o->quiet == 0 && o->records && !strcmp(o->records, "-") && !o->log)
        bad = "--records -", why = "stdout carries the .spl log; add --quiet or --log FILE";
    else if (o->dut_only && o->rec_bin)
        bad = "--rec-bin", why = "--dut-only runs no model; the records written are the model's (equal to the DUT's when compared)";
    else if (o->dut_only && o->mem_bin)
        bad = "--mem-bin", why = "--dut-only runs no model; the memory written is the model's (equal to the DUT's when compared)";
    else if (o->dut_only && o->stats)
        bad = "--stats", why = "--dut-only runs no model, so there are no statistics to print";
    else if (o->dut_only && o->stats_json)
        bad = "--stats-json", why = "--dut-only runs no model, so there are no statistics to write";
    else if (o->tb && o->expect_vacuous && !o->trace)
        bad = "--expect-vacuous", why = "it is for a directed trace; a random run must select, keep and reject";
    else if (o->tb && o->nknob)
        bad = "--knob", why = "in the RTL the knobs are parameters of a build; pick a configuration that has them (e.g. v1-alt, wide-alt)";
    else if (o->apb && o->perf_event)
        bad = "--perf-event", why = "with --apb the driver's accesses would reach the unit later than its handler reads them; "
                                    "--apb runs traces and the generator";
    else if (o->apb && o->mutant >= 0)
        bad = "--mutant", why = "the mutant builds are of spu_top, not spu_apb";
    else if (o->have_period && !o->perf_event)
        bad = "--period", why = "it is the sample period of --perf-event, which is not given";
    else if (o->buffer && !o->perf_event)
        bad = "--buffer", why = "it is the Profiling Buffer of --perf-event, which is not given";
    else if (o->tb && o->emit)
        bad = "--emit-trace", why = "it is spu-csim's; spu-tb saves the stimulus of a failure itself";
    if (!bad)
        return 0;
    fprintf(stderr, "error: %s: %s\n", bad, why);
    return -1;
}

enum { OPT_BOTH, OPT_CSIM, OPT_TB };
static const struct {
    const char *name;
    size_t off;                  /* the const char * member of spu_opts_t */
    int who;                     /* OPT_BOTH, or the one front end that has it */
} str_opt[] = {
    {"--config", offsetof(spu_opts_t, config), OPT_BOTH},
    {"--perf-event", offsetof(spu_opts_t, perf_event), OPT_BOTH},
    {"--buffer", offsetof(spu_opts_t, buffer), OPT_BOTH},
    {"--vectors", offsetof(spu_opts_t, vectors), OPT_CSIM},
    {"--cov", offsetof(spu_opts_t, cov), OPT_BOTH},
    {"--rec-bin", offsetof(spu_opts_t, rec_bin), OPT_BOTH},
    {"--records", offsetof(spu_opts_t, records), OPT_BOTH},
    {"--mem-bin", offsetof(spu_opts_t, mem_bin), OPT_BOTH},
    {"--stats-json", offsetof(spu_opts_t, stats_json), OPT_BOTH},
    {"--emit-trace", offsetof(spu_opts_t, emit), OPT_BOTH},
    {"--log", offsetof(spu_opts_t, log), OPT_BOTH},
    {"--fail-dir", offsetof(spu_opts_t, fail_dir), OPT_TB},
    {"--inject", offsetof(spu_opts_t, inject), OPT_TB},
};

/* Options that set a flag (an int member of spu_opts_t to val). */
static const struct {
    const char *name;
    size_t off;
    int val, who, once;          /* once: may be given once (--progress may be turned on and off) */
} flag_opt[] = {
    {"--quiet", offsetof(spu_opts_t, quiet), 1, OPT_BOTH, 1},
    {"--stats", offsetof(spu_opts_t, stats), 1, OPT_BOTH, 1},
    {"--progress", offsetof(spu_opts_t, progress), 1, OPT_BOTH, 0},
    {"--no-progress", offsetof(spu_opts_t, progress), 0, OPT_BOTH, 0},
    {"--no-skip", offsetof(spu_opts_t, no_skip), 1, OPT_BOTH, 1},
    {"--wave", offsetof(spu_opts_t, wave), 1, OPT_TB, 1},
    {"--shrink", offsetof(spu_opts_t, shrink), 1, OPT_TB, 1},
    {"--full-clock", offsetof(spu_opts_t, full_clock), 1, OPT_TB, 1},
    {"--reference", offsetof(spu_opts_t, reference), 1, OPT_TB, 1},
    {"--apb", offsetof(spu_opts_t, apb), 1, OPT_TB, 1},
    {"--dut-only", offsetof(spu_opts_t, dut_only), 1, OPT_TB, 1},
    {"--expect-vacuous", offsetof(spu_opts_t, expect_vacuous), 1, OPT_TB, 1},
};

/* Options that take a number: each sets its member from n, read by
 * parse_u64() (parse_count() where count): 0, or -1 with the message. */
static int set_seed(spu_opts_t *o, const char *a, const char *v, uint64_t n)
{
    (void)v;
    o->seed = n;
    o->seed_opt = a;
    return 0;
}
static int set_length(spu_opts_t *o, const char *a, const char *v, uint64_t n)
{
    (void)v;
    *(o->tb ? &o->cycles : &o->ops) = n;
    o->len_opt = a;
    return 0;
}
static int set_mem_stall(spu_opts_t *o, const char *a, const char *v, uint64_t n)
{
    (void)a;
    if (n > 99) {
        fprintf(stderr, "error: --mem-stall %s: a percentage of cycles, 0..99 (at 100 nothing is ever written)\n", v);
        return -1;
    }
    o->mem_stall = n;
    return 0;
}
static int set_period(spu_opts_t *o, const char *a, const char *v, uint64_t n)
{
    (void)a, (void)v;
    o->period = n;
    o->have_period = 1;
    return 0;
}
static int set_init_seed(spu_opts_t *o, const char *a, const char *v, uint64_t n)
{
    (void)a;
    if (n < 1 || n > 0x7FFFFFFF) {
        fprintf(stderr, "error: --init-seed %s: Verilator's +verilator+seed takes 1..2147483647\n", v);
        return -1;
    }
    o->init_seed = n;
    return 0;
}
static int set_mutant(spu_opts_t *o, const char *a, const char *v, uint64_t n)
{
    (void)a;
    if (n > 0xFFFF) {
        fprintf(stderr, "error: --mutant %s: mutant numbers are 0..65535\n", v);
        return -1;
    }
    o->mutant = (int64_t)n;
    return 0;
}
static const struct {
    const char *name;
    int who, count;              /* count: parse_count() (no 0), else parse_u64() */
    int (*set)(spu_opts_t *o, const char *a, const char *v, uint64_t n);
} num_opt[] = {
    {"--seed", OPT_BOTH, 0, set_seed},           {"--ops", OPT_CSIM, 1, set_length},
    {"--cycles", OPT_TB, 1, set_length},         {"--mem-stall", OPT_BOTH, 0, set_mem_stall},
    {"--period", OPT_BOTH, 0, set_period},       {"--init-seed", OPT_TB, 0, set_init_seed},
    {"--mutant", OPT_TB, 0, set_mutant},
};
#define NOPT(t) (sizeof t / sizeof t[0])
#define FOR_US(w) ((w) == OPT_BOTH || ((w) == OPT_TB) == !!tb)

/* a (argv[i]) is an option that takes one value or is a flag given once,
 * and was given before: the second would silently replace the first. */
static int given_twice(char **argv, int i)
{
    const char *a = argv[i];
    int once = 0;
    for (size_t k = 0; k < NOPT(str_opt); k++)
        once |= !strcmp(a, str_opt[k].name);
    for (size_t k = 0; k < NOPT(num_opt); k++)
        once |= !strcmp(a, num_opt[k].name);
    for (size_t k = 0; k < NOPT(flag_opt); k++)
        once |= flag_opt[k].once && !strcmp(a, flag_opt[k].name);
    for (int j = 1; once && j < i; j++)
        if (!strcmp(argv[j], a)) {
            fprintf(stderr, "error: %s given twice (it takes one value; the second would replace the first)\n", a);
            return 1;
        }
    return 0;
}

/* An argument no table takes: an unknown option (saying whose it is when it
 * is the other front end's), or the trace. 0, or -1 with the message. */
static int positional(spu_opts_t *o, const char *a, int tb)
{
    if (a[0] == '-' && a[1]) {
        const char *hint = "";
        for (size_t k = 0; k < NOPT(str_opt); k++)
            if (!tb && str_opt[k].who == OPT_TB && !strcmp(a, str_opt[k].name))
                hint = " (it is spu-tb's)";
        for (size_t k = 0; k < NOPT(flag_opt); k++)
            if (!tb && flag_opt[k].who == OPT_TB && !strcmp(a, flag_opt[k].name))
                hint = " (it is spu-tb's)";
        for (size_t k = 0; k < NOPT(num_opt); k++)
            if (!tb && num_opt[k].who == OPT_TB && !strcmp(a, num_opt[k].name))
                hint = !strcmp(a, "--cycles") ? " (it is spu-tb's; spu-csim runs --ops N members)" : " (it is spu-tb's)";
        if (tb && !strcmp(a, "--ops"))
            hint = " (it is spu-csim's; spu-tb runs --cycles N)";
        if (tb && !strcmp(a, "--threads"))
            hint = " (removed: the checker runs in one thread; two were slower than one once one thread took "
                   "blocks of plain cycles: docs/performance.md, \"Two threads\")";
        fprintf(stderr, "error: unknown option '%s'%s (try --help)\n", a, hint);
        return -1;
    }
    if (o->trace) {
        fprintf(stderr, "error: more than one trace given ('%s' and '%s'; a stray argument, or a value that needs quotes?)\n",
                o->trace, a);
        return -1;
    }
    o->trace = a;
    return 0;
}

/* argv[*i] as an option of a table: 1 taken (*i past its value), 0 not an
 * option of a table, -1 an error (message printed). */
static int table_opt(spu_opts_t *o, int argc, char **argv, int *i, int tb)
{
    const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    for (size_t k = 0; k < NOPT(flag_opt); k++)
        if (FOR_US(flag_opt[k].who) && !strcmp(a, flag_opt[k].name)) {
            *(int *)(void *)((char *)o + flag_opt[k].off) = flag_opt[k].val;
            return 1;
        }
    int str = -1, num = -1;
    for (size_t k = 0; k < NOPT(str_opt); k++)
        if (FOR_US(str_opt[k].who) && !strcmp(a, str_opt[k].name))
            str = (int)k;
    for (size_t k = 0; k < NOPT(num_opt); k++)
        if (FOR_US(num_opt[k].who) && !strcmp(a, num_opt[k].name))
            num = (int)k;
    if (str < 0 && num < 0)
        return 0;
    if (!v) {
        fprintf(stderr, "error: %s needs a value\n", a);
        return -1;
    }
    (*i)++;
    if (str >= 0) {
        *(const char **)(void *)((char *)o + str_opt[str].off) = v;
        return 1;
    }
    uint64_t n;
    if ((num_opt[num].count ? parse_count(a, v, &n) : parse_u64(a, v, &n)) || num_opt[num].set(o, a, v, n))
        return -1;
    return 1;
}

int opts_parse(spu_opts_t *o, int argc, char **argv, int tb)
{
    memset(o, 0, sizeof *o);
    o->tb = tb;
    o->prog = argv[0];
    o->seed = 1;
    o->ops = 1000000;
    o->cycles = 1000000;
    o->progress = isatty(2);
    o->mutant = -1;
    o->argc = argc;
    o->argv = argv;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (given_twice(argv, i))
            return -1;
        const int t = table_opt(o, argc, argv, &i, tb);
        if (t < 0)
            return -1;
        if (t)
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout, o->prog, tb);
            return 1;
        } else if (!strcmp(a, "--help-gen")) {
            gen_params_help(stdout);
            return 1;
        } else if (!strcmp(a, "--knob") || !strcmp(a, "--gen")) { /* these add up */
            if (i + 1 >= argc) {
                fprintf(stderr, "error: %s needs a value\n", a);
                return -1;
            }
            const int k = !strcmp(a, "--knob");
            if ((k ? o->nknob : o->ngen) >= OPT_MAX_KV) {
                fprintf(stderr, "error: too many %s options\n", a);
                return -1;
            }
            *(k ? &o->knob[o->nknob++] : &o->gen[o->ngen++]) = argv[++i];
        } else if (positional(o, a, tb)) {
            return -1;
        }
    }
    return check_combination(o);
}

static int apply_knobs(const spu_opts_t *o, spu_config_t *cfg)
{
    char err[256];
    for (int i = 0; i < o->nknob; i++) {
        const char *eq = strchr(o->knob[i], '=');
        uint64_t v;
        char name[64];
        if (!eq || (size_t)(eq - o->knob[i]) >= sizeof name) {
            fprintf(stderr, "error: --knob '%s': expected NAME=VALUE\n", o->knob[i]);
            return -1;
        }
        memcpy(name, o->knob[i], (size_t)(eq - o->knob[i]));
        name[eq - o->knob[i]] = '\0';
        if (parse_u64("--knob", eq + 1, &v))
            return -1;
        if (v > 0xFFFFFFFFu || spu_config_set_knob(cfg, name, (uint32_t)v, err, sizeof err)) {
            fprintf(stderr, "error: --knob %s: %s\n", o->knob[i], v > 0xFFFFFFFFu ? "value too large" : err);
            return -1;
        }
    }
    return 0;
}

static int apply_gen(const spu_opts_t *o, gen_params_t *gp)
{
    char err[256], buf[256];
    for (int i = 0; i < o->ngen; i++) {
        snprintf(buf, sizeof buf, "%s", o->gen[i]);
        for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
            if (gen_params_set(gp, kv, err, sizeof err)) {
                fprintf(stderr, "error: --gen: %s\n", err);
                return -1;
            }
        }
    }
    if (gen_params_check(gp, err, sizeof err)) {
        fprintf(stderr, "error: --gen: %s\n", err);
        return -1;
    }
    return 0;
}

/* The absolute form of path: realpath() of the file, or of its directory
 * when the file does not exist yet. 0, or -1 when neither resolves. */
static int canon_path(const char *path, char *out)
{
    if (realpath(path, out))
        return 0;
    char dir[PATH_MAX], res[PATH_MAX];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash == path ? 1 : slash - path), path);
    if (!realpath(dir, res))
        return -1;
    const int n = snprintf(out, PATH_MAX, "%s/%s", strcmp(res, "/") ? res : "", base);
    return n > 0 && n < PATH_MAX ? 0 : -1;
}

/* 1 when paths a and b name the same file, existing (also through a link)
 * or about to be created. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    char ca[PATH_MAX], cb[PATH_MAX];
    if (!a || !b)
        return 0;
    if (!strcmp(a, b))
        return 1;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    return canon_path(a, ca) == 0 && canon_path(b, cb) == 0 && !strcmp(ca, cb);
}

spu_src_t opts_fresh_source(const spu_setup_t *s, spt_cursor_t *k, spu_gen_t *g, pev_src_t *p)
{
    spu_src_t in;
    uint64_t fin;
    if (s->have_trace) {
        in = spt_source(k, &s->trace);
        fin = spt_max_fin(&s->trace);
    } else {
        gen_init(g, &s->cfg, &s->gp, s->seed, s->end_cycle, s->end_ops);
        in = gen_source(g);
        fin = gen_fin_bound(g);
    }
    return s->have_pev ? pev_source(p, in, &s->pev, fin) : in;
}

/* A --gen knob that only shapes the generator's register traffic and resets,
 * which it does not make under --perf-event: its name, else NULL. */
static const char *regs_knob(const spu_opts_t *o)
{
    static const char *const knob[] = {"int_min", "int_max", "p_int1", "p_int0", "p_rnd", "reprog_gap",
                                       "read_gap", "reset_gap", "p_filter", "p_close"};
    for (int i = 0; i < o->ngen; i++)
        for (const char *kv = o->gen[i]; kv; kv = strchr(kv, ',') ? strchr(kv, ',') + 1 : NULL)
            for (size_t k = 0; k < sizeof knob / sizeof knob[0]; k++)
                if (!strncmp(kv, knob[k], strlen(knob[k])) && kv[strlen(knob[k])] == '=')
                    return knob[k];
    return NULL;
}

/* --perf-event, --period, --buffer: the driver's sequences for the event,
 * or a message naming the option, field and value. */
static int setup_perf_event(const spu_opts_t *o, spu_setup_t *s)
{
    char err[512];
    pev_attr_t a;
    uint64_t base = PEV_DEFAULT_BASE, size = PEV_DEFAULT_SIZE;
    if (pev_parse(&a, o->perf_event, err, sizeof err) || pev_check(&a, &s->cfg, err, sizeof err)) {
        fprintf(stderr, "error: --perf-event: %s\n", err);
        return -1;
    }
    if (o->have_period && a.have_period) {
        fprintf(stderr, "error: --period %" PRIu64 ": the event's period=%" PRIu64 " term is also given (perf would use the term); give one\n",
                o->period, a.period);
        return -1;
    }
    if (o->have_period) {
        if (o->period >> 63) {
            fprintf(stderr, "error: --period %" PRIu64 ": perf_event_open rejects a sample period with bit 63 set (EINVAL)\n", o->period);
            return -1;
        }
        a.period = o->period;
        a.have_period = 1;
    }
    if (o->buffer && pev_get(&a, PEV_discard)) {
        fprintf(stderr, "error: --buffer: the event has discard=1, which writes no Profiling Buffer\n");
        return -1;
    }
    if (o->buffer && pev_buffer(o->buffer, &s->cfg, &base, &size, err, sizeof err)) {
        fprintf(stderr, "error: %s\n", err);
        return -1;
    }
    if (s->have_trace) {
        uint64_t cyc;
        int reset;
        uint16_t enc;
        char reg[40];
        if (spt_first_write(&s->trace, &cyc, &reset, &enc)) {
            stim_reg_str(enc, reg, sizeof reg);
            fprintf(stderr, "error: --perf-event: the trace %s %s%s in cycle %" PRIu64 "; with --perf-event the driver's "
                            "sequences program the unit, so a trace may only read registers (docs/perf-event.md)\n",
                    o->trace, reset ? "resets the unit" : "writes ", reset ? "" : reg, cyc);
            return -1;
        }
    } else if (regs_knob(o)) {
        fprintf(stderr, "error: --gen %s: under --perf-event the driver programs the unit; the generator makes no "
                        "register access or reset, so this knob does not apply\n", regs_knob(o));
        return -1;
    } else {
        s->gp.no_regs = 1;
    }
    pev_program(&a, &s->cfg, base, size, &s->pev);
    s->have_pev = 1;
    return 0;
}

/* The configuration and the stimulus: the trace or the generator, knobs,
 * --perf-event's sequences. 0, or -1 (the message printed). */
static int setup_stimulus(const spu_opts_t *o, spu_setup_t *s)
{
    char err[512];
    const char *cname = o->config;
    if (o->trace) {
        if (spt_load(&s->trace, o->trace, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return -1;
        }
        s->have_trace = 1;
        if (!cname && s->trace.cfg[0])
            cname = s->trace.cfg;
    }
    if (!cname)
        cname = "v1p4";
    const spu_config_t *c = spu_config_find(cname);
    if (!c) {
        fprintf(stderr, "error: unknown configuration '%s' (known:", cname);
        for (unsigned i = 0; i < spu_nconfigs; i++)
            fprintf(stderr, " %s", spu_configs[i].name);
        fprintf(stderr, ")\n");
        return -1;
    }
    s->cfg = *c;
    if (apply_knobs(o, &s->cfg))
        return -1;
    if (s->have_trace) {
        if (spt_check_config(&s->trace, &s->cfg, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return -1;
        }
    } else {
        gen_params_default(&s->gp, &s->cfg, o->seed);
        if (apply_gen(o, &s->gp))
            return -1;
        s->seed = o->seed;
        s->end_cycle = o->tb ? o->cycles : UINT64_MAX;
        s->end_ops = o->tb ? UINT64_MAX : o->ops;
    }
    if (o->perf_event && setup_perf_event(o, s))
        return -1;
    s->src = opts_fresh_source(s, &s->cursor, &s->gen, &s->pev_src);
    return 0;
}

/* The output files, none of them the input trace or another output:
 * 0, or -1 (the message printed). */
static int open_outputs(const spu_opts_t *o, spu_setup_t *s)
{
    const char *const records = o->records && strcmp(o->records, "-") ? o->records : NULL;
    const struct {
        const char *opt, *path, *mode;
        FILE **f;                /* NULL: the front end opens it */
    } out[6] = {{"--vectors", o->vectors, "w", NULL}, {"--cov", o->cov, "w", NULL},
                {"--rec-bin", o->rec_bin, "wb", &s->rec_f}, {"--records", records, "w", &s->rec_txt},
                {"--mem-bin", o->mem_bin, "wb", &s->mem_f}, {"--stats-json", o->stats_json, "w", &s->json_f}};
    for (int i = 0; i < 6; i++) {
        int clash = out[i].path && (same_file(out[i].path, o->trace) || same_file(out[i].path, o->log) ||
                                    same_file(out[i].path, o->emit));
        for (int j = 0; j < i; j++)
            clash |= out[i].path && same_file(out[i].path, out[j].path);
        if (clash) {
            fprintf(stderr, "error: %s '%s' is the input trace, the --log, the --emit-trace or another output file; refusing to overwrite it\n",
                    out[i].opt, out[i].path);
            return -1;
        }
    }
    for (int i = 0; i < 6; i++)
        if (out[i].f && out[i].path && !(*out[i].f = fopen(out[i].path, out[i].mode))) {
            fprintf(stderr, "error: cannot write %s '%s': %s\n", out[i].opt, out[i].path, strerror(errno));
            return -1;
        }
    if (o->records && !records)
        s->rec_txt = stdout; /* --records - */
    for (int i = 0; i < 2; i++) {
        const char *f = i ? o->emit : o->log;
        if (same_file(f, o->trace) || (i && same_file(o->emit, o->log))) {
            fprintf(stderr, "error: %s '%s' is the %s; refusing to overwrite it\n", i ? "--emit-trace" : "--log", f,
                    same_file(f, o->trace) ? "input trace" : "--log file");
            return -1;
        }
    }
    s->log_f = stdout;
    if (o->quiet)
        s->log_f = NULL;
    else if (o->log && !(s->log_f = fopen(o->log, "w"))) {
        fprintf(stderr, "error: cannot write log '%s': %s\n", o->log, strerror(errno));
        return -1;
    }
    if (o->emit) {
        if (!(s->emit_f = fopen(o->emit, "w"))) {
            fprintf(stderr, "error: cannot write trace '%s': %s\n", o->emit, strerror(errno));
            return -1;
        }
        spt_write_begin(&s->emit, s->emit_f, s->cfg.name);
    }
    return 0;
}

static int setup(const spu_opts_t *o, spu_setup_t *s)
{
    return setup_stimulus(o, s) || open_outputs(o, s) ? -1 : 0;
}

int opts_setup(const spu_opts_t *o, spu_setup_t *s)
{
    memset(s, 0, sizeof *s);
    if (setup(o, s) == 0)
        return 0;
    opts_teardown(s); /* what was opened or loaded before the error */
    return -1;
}

int opts_teardown(spu_setup_t *s)
{
    int rc = 0;
    if (s->have_trace)
        spt_free(&s->trace);
    s->have_trace = 0;
    if (s->emit_f) {
        if (spt_write_end(&s->emit) || fclose(s->emit_f)) {
            fprintf(stderr, "error: the emitted trace could not be written completely\n");
            rc = -1;
        }
        s->emit_f = NULL;
    }
    if (s->rec_txt) {
        int bad = fflush(s->rec_txt) != 0 || ferror(s->rec_txt);
        if (s->rec_txt != stdout && fclose(s->rec_txt) != 0)
            bad = 1;
        if (bad) {
            fprintf(stderr, "error: the --records file could not be written completely\n");
            rc = -1;
        }
        s->rec_txt = NULL;
    }
    if (s->json_f) {
        if (ferror(s->json_f) | fclose(s->json_f)) {
            fprintf(stderr, "error: the --stats-json file could not be written completely\n");
            rc = -1;
        }
        s->json_f = NULL;
    }
    if (s->mem_f) {
        if (ferror(s->mem_f) | fclose(s->mem_f)) {
            fprintf(stderr, "error: the --mem-bin file could not be written completely\n");
            rc = -1;
        }
        s->mem_f = NULL;
    }
    if (s->rec_f) {
        if (ferror(s->rec_f) | fclose(s->rec_f)) {
            fprintf(stderr, "error: the --rec-bin file could not be written completely\n");
            rc = -1;
        }
        s->rec_f = NULL;
    }
    if (s->log_f) {
        int bad = fflush(s->log_f) != 0 || ferror(s->log_f);
        if (s->log_f != stdout && fclose(s->log_f) != 0) /* closed whatever fflush said */
            bad = 1;
        if (bad) {
            fprintf(stderr, "error: the log could not be written completely\n");
            rc = -1;
        }
    }
    s->log_f = NULL;
    return rc;
}

void opts_print_driver(const spu_setup_t *s, FILE *f)
{
    if (!s->have_pev)
        return;
    const pev_src_t *p = &s->pev_src;
    fprintf(f, "perf-event driver: buffer-full interrupts handled %" PRIu64 " (PMBSR_EL1.COLL set in %" PRIu64
               ", no room left after %" PRIu64 ")  other syndromes %" PRIu64 "  bytes reported at the interrupts %" PRIu64 "\n",
            p->irqs, p->collisions, p->truncated, p->fatal, p->data_bytes);
}

void opts_driver_json(const spu_setup_t *s, json_t *j)
{
    if (!s->have_pev)
        return;
    const pev_src_t *p = &s->pev_src;
    json_obj(j, "driver");
    json_u64(j, "buffer_full_interrupts", p->irqs);
    json_u64(j, "interrupts_with_collision", p->collisions);
    json_u64(j, "interrupts_with_no_room_left", p->truncated);
    json_u64(j, "other_syndromes", p->fatal);
    json_u64(j, "bytes_reported", p->data_bytes);
    json_close(j);
}
