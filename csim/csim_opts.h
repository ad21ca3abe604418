/*
 * spu-csim's command line: the engine's options (opts.h) and spu-csim's
 * own, with its rules and help (csim_opts.c).
 */
#ifndef SPU_CSIM_OPTS_H
#define SPU_CSIM_OPTS_H

#include "opts.h"

typedef struct csim_opts {
    spu_opts_t eng;              /* the engine's options; first, for opts_parse() */
    const char *vectors;         /* --vectors FILE: ports per cycle for the Icarus bench */
    int expect_vacuous;          /* --expect-vacuous: a generated run that proves nothing is not a failure */
} csim_opts_t;

/* 0 ok, 1 --help printed, -1 error (message printed). */
int csim_opts_parse(csim_opts_t *c, int argc, char **argv);

#endif
