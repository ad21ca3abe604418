/*
 * Functional coverage, written in C (Verilator ignores covergroups): bins
 * sampled once per cycle from the cycle's inputs, its outputs and the model's
 * state at the start of the cycle, which in a lockstep run equals the DUT's
 * (any difference stops the run first). csim and tb call the same
 * cov_model_step(), so a stimulus gives the same bins under both
 * (docs/coverage.md lists every bin and why some cannot be reached).
 */
#ifndef SPU_COV_H
#define SPU_COV_H

#include <stdio.h>

#include "spu_fast.h"

#define COV_NAME_LEN 40
#define COV_WHY_LEN 256
#define COV_MAX_BINS 520
#define COV_MILESTONES 3         /* cycle of the 1st, 10th and 100th hit */

typedef struct cov_bin {
    char name[COV_NAME_LEN];
    char unreachable[COV_WHY_LEN]; /* "" when the configuration can reach it */
    uint64_t hits;
    uint64_t at[COV_MILESTONES];   /* cycle (from the run's start) of hit 1, 10, 100; UINT64_MAX before */
} cov_bin_t;

typedef struct spu_cov {
    const spu_config_t *cfg;
    uint64_t cycle;              /* cycles sampled */
    uint64_t ecount_load;        /* cycle ECOUNT was last loaded by a draw */
    uint8_t freed_last;          /* slots freed in the previous cycle */
    uint8_t beat_shown;          /* the write port showed a beat in the previous cycle */
    uint8_t wait_failed;         /* slots whose waiting records did not enter the write path */
    uint64_t bad_cycle;          /* first cycle the replay disagreed with the outputs */
    int bad;
    int overflow;                /* more bins than COV_MAX_BINS, or a name or reason too long (a layout bug) */
    /* first bin of each group (cov_bins.c) */
    unsigned b_filt, b_eft, b_cu, b_ctr, b_sel, b_selk, b_col, b_slot, b_busy, b_edge,
        b_lat, b_fin, b_reg, b_regx, b_reset, b_pmu, b_pkt, b_op, b_evsz, b_buf;
    unsigned nbins;
    cov_bin_t bin[COV_MAX_BINS];
} spu_cov_t;

/* Lay out the bins of cfg (names and which ones cfg cannot reach). */
void cov_init(spu_cov_t *c, const spu_config_t *cfg);
/* Sample one cycle: b is the model before the cycle, in/out the cycle, a
 * the model after it (its records). */
void cov_sample(spu_cov_t *c, const spu_model_t *b, const spu_in_t *in, const spu_out_t *out,
                const spu_model_t *a);
/* Step the model one cycle, sampling coverage when c is not NULL; returns
 * spu_fast_step()'s 1 for a plain cycle. */
static inline int cov_model_step(spu_cov_t *c, spu_model_t *m, const spu_in_t *in, spu_out_t *out)
{
    if (!c)
        return spu_fast_step(m, in, out);
    const spu_model_t before = *m;
    const int plain = spu_fast_step(m, in, out);
    cov_sample(c, &before, in, out, m);
    return plain;
}
/* Describe a run for the .cov header: the command line that reproduces it. */
void cov_describe(char *buf, size_t len, int argc, char **argv);
/* Check the run's replay and write the bins; 0, or -1 with a message. */
int cov_finish(const spu_cov_t *c, const char *path, const char *what);
/* Write the bins as text (docs/coverage.md, "The .cov file"); 0, or -1 when
 * the file could not be written. */
int cov_write(const spu_cov_t *c, const char *path, const char *what);

#endif
