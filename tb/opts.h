/*
 * Command-line options shared by spu-csim and spu-tb, and the set-up both do
 * with them: the configuration (with knob overrides), the stimulus source
 * (trace or generator) and the optional trace writer.
 */
#ifndef SPU_OPTS_H
#define SPU_OPTS_H

#include "gen.h"
#include "spt.h"

#define OPT_MAX_KV 32

typedef struct spu_opts {
    const char *prog;
    const char *config;          /* --config NAME */
    const char *trace;           /* positional TRACE */
    const char *emit;            /* --emit-trace FILE */
    const char *log;             /* --log FILE (default stdout) */
    uint64_t seed;               /* --seed S */
    uint64_t ops;                /* --ops N (csim) */
    uint64_t cycles;             /* --cycles N (tb) */
    const char *knob[OPT_MAX_KV];
    int nknob;
    const char *gen[OPT_MAX_KV];
    int ngen;
    int stats, quiet, no_skip, progress;
    /* tb only */
    int wave, shrink, expect_vacuous, dut_only;
    const char *inject;          /* --inject SIGNAL@CYCLE */
    uint64_t init_seed;          /* +verilator+seed (0: derive from --seed) */
    int argc;
    char **argv;
} spu_opts_t;

/* Everything a run needs, built from the options. */
typedef struct spu_setup {
    spu_config_t cfg;            /* the named configuration, knobs applied */
    spt_trace_t trace;           /* when a trace is given */
    spu_gen_t gen;               /* otherwise */
    gen_params_t gp;
    spu_src_t src;
    FILE *emit_f;
    spt_writer_t emit;
    FILE *log_f;
    int have_trace;
} spu_setup_t;

/* Parse argv; `tb` enables the tb-only options. 0 ok, 1 --help printed, -1 error
 * (message printed). */
int opts_parse(spu_opts_t *o, int argc, char **argv, int tb);
/* Load the trace or build the generator, apply knobs; 0 or -1 (message printed). */
int opts_setup(const spu_opts_t *o, spu_setup_t *s);
void opts_teardown(spu_setup_t *s);

#endif
