/*
 * spu-diff's command line: its own options (the tolerances, --ignore-reads)
 * and the two files; the options of the stimulus and the configuration
 * (--config, --knob, --perf-event, ...) are the engine's (opts.h), passed on
 * to opts_parse() (the engine's own options only). An option spu-diff has no use for
 * is an error naming it.
 */
#ifndef SPU_DIFF_OPTS_H
#define SPU_DIFF_OPTS_H

#include "match.h"
#include "setup.h"

#define DIFF_MAX_ARGS 256

typedef struct diff_opts {
    spu_opts_t eng;                  /* TRACE.spt and the engine's options */
    const char *theirs;              /* THEIR.spl */
    match_opts_t match;
    const char *record_opt, *sample_opt; /* the tolerances as given (NULL: exact) */
    unsigned long list;              /* --list N: disagreements listed after the one shown */
    unsigned long show;              /* --show N: the Nth disagreement in full (0: the first) */
    const char *show_opt;            /* --show as given */
    char *eng_argv[DIFF_MAX_ARGS];   /* what opts_parse() was given */
} diff_opts_t;

/* 0 ok, 1 --help printed, -1 error (message printed). */
int diff_opts_parse(diff_opts_t *d, int argc, char **argv);

#endif
