/*
 * spu-tb's command line: the engine's options (opts.h) and spu-tb's own,
 * with its rules and help (tb_opts.c).
 */
#ifndef SPU_TB_OPTS_H
#define SPU_TB_OPTS_H

#include "opts.h"

typedef struct tb_opts {
    spu_opts_t eng;              /* the engine's options; first, for opts_parse() */
    int wave, shrink, expect_vacuous, dut_only, full_clock, reference;
    int apb;                     /* --apb: the DUT is spu_apb, registers over APB */
    const char *inject;          /* --inject SIGNAL@CYCLE */
    const char *fail_dir;        /* --fail-dir DIR (NULL: fail/ beside the binary) */
    uint64_t init_seed;          /* +verilator+seed (0: derive from --seed) */
    uint64_t mutant;             /* --mutant K: mutsel of a mutant build (make mutate) */
    int have_mutant;             /* --mutant given */
} tb_opts_t;

/* 0 ok, 1 --help printed, -1 error (message printed). */
int tb_opts_parse(tb_opts_t *t, int argc, char **argv);

#endif
