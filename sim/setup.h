/*
 * The set-up spu-csim and spu-tb (and spu-diff's engine) do with their
 * options (opts.h): the configuration (with knob overrides), the stimulus
 * source (trace, generator, --perf-event's driver) and the output files.
 */
#ifndef SPU_SETUP_H
#define SPU_SETUP_H

#include <stdio.h>

#include "gen.h"
#include "opts.h"
#include "pev_src.h"
#include "spt.h"

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
    FILE *report_f;              /* --report (the front end writes it at the end) */
} spu_setup_t;

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
