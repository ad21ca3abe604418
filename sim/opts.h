/*
 * The command line of a front end of the engine (spu-csim, spu-tb, the
 * engine inside spu-diff): the options the engine's set-up reads (setup.h),
 * parsed here, and the front end's own options, given as a table
 * (opts_front_t) that this parser reads the same way. An option that does
 * not apply to the run asked for is an error naming it, never ignored; an
 * option of another tool is named as that tool's.
 */
#ifndef SPU_OPTS_H
#define SPU_OPTS_H

#include <stddef.h>
#include <stdint.h>

#define OPT_MAX_KV 32
#define OPT_MAX_GIVEN 64

struct opts_front;

/* What the engine's set-up reads. A front end's options struct begins with
 * one (or is one). */
typedef struct spu_opts {
    const struct opts_front *fe; /* the front end parsed for */
    const char *prog;
    const char *config;          /* --config NAME */
    const char *trace;           /* positional TRACE */
    const char *emit;            /* --emit-trace FILE */
    const char *cov;             /* --cov FILE: functional coverage bins (docs/coverage.md) */
    const char *rec_bin;         /* --rec-bin FILE: the records' bytes, back to back (docs/records.md) */
    const char *records;         /* --records FILE: the records' packets as text, like perf report -D */
    const char *mem_bin;         /* --mem-bin FILE: the memory the Profiling Buffer wrote (docs/buffer.md) */
    const char *stats_json;      /* --stats-json FILE: the run's figures as JSON (docs/formats.md) */
    const char *report;          /* --report FILE: the run as an HTML page (docs/formats.md) */
    uint64_t mem_stall;          /* --mem-stall PCT: cycles the memory stalls the write port, percent */
    uint64_t stray;              /* --stray-events PCT: cycles with stray issue/finish events, percent */
    const char *log;             /* --log FILE (default stdout) */
    uint64_t seed;               /* --seed S */
    uint64_t ops;                /* the generator's length in members (UINT64_MAX: none) */
    uint64_t cycles;             /* the generator's length in cycles (UINT64_MAX: none) */
    const char *knob[OPT_MAX_KV];
    int nknob;
    const char *gen[OPT_MAX_KV];
    int ngen;
    int stats, quiet, no_skip, progress;
    const char *perf_event;      /* --perf-event EVENT: program the unit as Linux does (docs/perf-event.md) */
    const char *buffer;          /* --buffer BASE,SIZE: its Profiling Buffer */
    uint64_t period;             /* --period N (perf -c N) */
    const char *given[OPT_MAX_GIVEN]; /* the options given (table names), "TRACE" for the trace */
    int ngiven;
    int argc;
    char **argv;
} spu_opts_t;

typedef enum { OPT_FLAG, OPT_STR, OPT_OUT, OPT_NUM } opt_kind_t;

/* One option: the member at `off` of the options struct it is parsed into
 * (int for OPT_FLAG, const char * for OPT_STR and OPT_OUT, uint64_t for
 * OPT_NUM). OPT_OUT is a file the front end writes: the set-up refuses it
 * when it names the trace, the log or another output. */
typedef struct opt_def {
    const char *name;
    opt_kind_t kind;
    size_t off;
    int val;                     /* OPT_FLAG: the value it sets */
    int repeat;                  /* may be given more than once (else "given twice") */
    uint64_t min, max;           /* OPT_NUM: the values taken (max 0: any) */
    const char *range;           /* OPT_NUM: what a value outside them says */
} opt_def_t;

/* Table rows: a flag setting v, a string, an output file, a number in
 * lo..hi (hi 0: any) with what a number outside says. */
#define FLAG_OPT(n, at, v) {.name = (n), .kind = OPT_FLAG, .off = (at), .val = (v)}
#define STR_OPT(n, at) {.name = (n), .kind = OPT_STR, .off = (at)}
#define OUT_OPT(n, at) {.name = (n), .kind = OPT_OUT, .off = (at)}
#define NUM_OPT(n, at, lo, hi, why) {.name = (n), .kind = OPT_NUM, .off = (at), .min = (lo), .max = (hi), .range = (why)}

/* An option refused when it is given with `when` (needs 0), or without it
 * (needs 1). `when` is an option's name, "TRACE" for a trace, or NULL:
 * always refused. */
typedef struct opt_rule {
    const char *when, *opt;
    int needs;
    const char *why;
} opt_rule_t;

/* An option this front end does not have, and what to say of it. */
typedef struct opt_hint {
    const char *name, *why;
} opt_hint_t;

/* A front end: its options, rules, hints and help. */
typedef struct opts_front {
    const char *tool;
    size_t size;                 /* of its options struct */
    void (*init)(void *own);     /* its defaults, after the engine's */
    const opt_def_t *opt;
    size_t nopt;
    const opt_rule_t *rule;
    size_t nrule;
    const opt_hint_t *hint;
    size_t nhint;
    const char *help_length;     /* help: its line for the run's length */
    const char *help;            /* help: its own options' lines */
    const char *help_exit;       /* help: its exit statuses */
} opts_front_t;

#define OPTS_TABLE(t) (t), (sizeof(t) / sizeof((t)[0]))

/* Parse argv into own (a spu_opts_t, or the front end's struct beginning
 * with one). 0 ok, 1 --help printed, -1 error (message printed). */
int opts_parse(void *own, int argc, char **argv, const opts_front_t *fe);
/* s as a number of 0 or more for option opt: 0, or -1 (message printed). */
int opts_u64(const char *opt, const char *s, uint64_t *v);
/* --name=value: name into buf and the value, else NULL (a, as given, is an
 * option or an argument). */
const char *opts_split_eq(const char *a, char *buf, size_t len);
/* 1 when the option (or "TRACE") was given. */
int opts_given(const spu_opts_t *o, const char *name);

#endif
