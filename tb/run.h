/*
 * One run of stimulus through the unit: stimulus source + core model + log,
 * cycle by cycle. csim steps only the golden model; tb also steps the DUT and
 * compares. Both use run_inputs()/run_observe() so they see the same cycles.
 */
#ifndef SPU_RUN_H
#define SPU_RUN_H

#include "core.h"
#include "spt.h"

typedef struct spu_run {
    const spu_config_t *cfg;
    spu_src_t src;
    spu_core_t core;
    spl_log_t log;
    spt_writer_t *emit;      /* optional: write the stimulus as a .spt */
    uint64_t cycle;          /* next cycle to run */
    uint8_t el, allow;       /* context in force */
    int src_done;
} spu_run_t;

void run_init(spu_run_t *r, const spu_config_t *cfg, spu_src_t src, FILE *log,
              spt_writer_t *emit);
/* The inputs of the next cycle; 0 when the stimulus has ended and every
 * sampled op has finished (the run is over). */
int run_inputs(spu_run_t *r, spu_cyc_t *cy, spu_in_t *in);
/* Log the cycle from the unit's (model's) outputs and advance; 0 or -1 with
 * r->core.err set. */
int run_observe(spu_run_t *r, const spu_cyc_t *cy, const spu_in_t *in, const spu_out_t *out);
/* Close the log with the pmu line. */
void run_finish(spu_run_t *r);

#endif
