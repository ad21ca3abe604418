/*
 * Command-line options shared by spu-csim and spu-tb, and the set-up both do
 * with them: the configuration (with knob overrides), the stimulus source
 * (trace or generator) and the optional trace writer. An option that does not
 * apply to the run asked for is an error naming it, never ignored.
 */
#ifndef SPU_OPTS_H
#define SPU_OPTS_H

#include "gen.h"
#include "pev_src.h"
#include "spt.h"

#define OPT_MAX_KV 32

typedef struct spu_opts {
    const char *prog;
    int tb;                      /* parsed for spu-tb (else spu-csim) */
    const char *config;          /* --config NAME */
    const char *trace;           /* positional TRACE */
    const char *emit;            /* --emit-trace FILE */
    const char *vectors;         /* --vectors FILE (csim): ports per cycle for the Icarus bench */
    const char *cov;             /* --cov FILE: functional coverage bins (docs/coverage.md) */
    const char *rec_bin;         /* --rec-bin FILE: the records' bytes, back to back (docs/records.md) */
    const char *records;         /* --records FILE: the records' packets as text, like perf report -D */
    const char *mem_bin;         /* --mem-bin FILE: the memory the Profiling Buffer wrote (docs/buffer.md) */
    const char *stats_json;      /* --stats-json FILE: the run's figures as JSON (docs/formats.md) */
    uint64_t mem_stall;          /* --mem-stall PCT: cycles the memory stalls the write port, percent */
    const char *log;             /* --log FILE (default stdout) */
    uint64_t seed;               /* --seed S */
    uint64_t ops;                /* --ops N (csim) */
    uint64_t cycles;             /* --cycles N (tb) */
    const char *knob[OPT_MAX_KV];
    int nknob;
    const char *gen[OPT_MAX_KV];
    int ngen;
    int stats, quiet, no_skip, progress;
    const char *perf_event;      /* --perf-event EVENT: program the unit as Linux does (docs/perf-event.md) */
    const char *buffer;          /* --buffer BASE,SIZE: its Profiling Buffer */
    uint64_t period;             /* --period N (perf -c N) */
    int have_period;
    const char *seed_opt, *len_opt; /* spelling of --seed / --ops|--cycles when given */
    /* tb only */
    int wave, shrink, expect_vacuous, dut_only, full_clock, reference;
    int apb;                     /* spu-tb --apb: the DUT is spu_apb, registers over APB */
    const char *inject;          /* --inject SIGNAL@CYCLE */
    const char *fail_dir;        /* --fail-dir DIR (NULL: fail/ beside the binary) */
    uint64_t init_seed;          /* +verilator+seed (0: derive from --seed) */
    int64_t mutant;              /* --mutant K: mutsel of a mutant build (make mutate); -1 none */
    int argc;
    char **argv;
} spu_opts_t;

/* Everything a run needs, built from the options. */
typedef struct spu_setup {
    spu_config_t cfg;            /* the named configuration, knobs applied */
    int have_trace;
    spt_trace_t trace;           /* parsed trace, when one is given */
    gen_params_t gp;             /* otherwise the generator's knobs ... */
    uint64_t seed, end_cycle, end_ops; /* ... seed and length */
    spt_cursor_t cursor;         /* state of src */
    spu_gen_t gen;
    int have_pev;                /* --perf-event: the trace or generator inside the driver's sequences */
    pev_prog_t pev;              /* ... its start and stop sequences */
    pev_src_t pev_src;           /* ... state of src */
    spu_src_t src;               /* the run's stimulus */
    FILE *emit_f;
    spt_writer_t emit;
    FILE *log_f;
    FILE *rec_f;                 /* --rec-bin */
    FILE *rec_txt;               /* --records */
    FILE *mem_f;                 /* --mem-bin */
    FILE *json_f;                /* --stats-json (the front end writes it at the end) */
} spu_setup_t;

/* Parse argv; `tb` enables the tb-only options. 0 ok, 1 --help printed, -1 error
 * (message printed). */
int opts_parse(spu_opts_t *o, int argc, char **argv, int tb);
/* Load the trace or set up the generator, apply knobs, open the log and the
 * emitted trace; 0 or -1 (message printed). */
int opts_setup(const spu_opts_t *o, spu_setup_t *s);
/* A fresh stimulus source equal to s->src from its start, its state in *k
 * (trace) or *g (generator), and *p (--perf-event). */
spu_src_t opts_fresh_source(const spu_setup_t *s, spt_cursor_t *k, spu_gen_t *g, pev_src_t *p);
/* Close the files; 0, or -1 (message printed) when the log or the emitted
 * trace could not be written completely. */
int opts_teardown(spu_setup_t *s);
/* --stats-json: the same as a member "driver" (nothing without --perf-event). */
struct json;
void opts_driver_json(const spu_setup_t *s, struct json *j);
/* --stats: what the --perf-event driver saw (nothing without --perf-event). */
void opts_print_driver(const spu_setup_t *s, FILE *f);

#endif
