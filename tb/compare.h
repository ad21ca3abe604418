/* Output comparison: every output field, named as the RTL port. */
#ifndef SPU_COMPARE_H
#define SPU_COMPARE_H

#include <stdio.h>

#include "spu_model.h"

#define CMP_MAX_DIFFS 64

typedef struct cmp_diff {
    char name[40];               /* e.g. "rec_tot_lat_o[port 1]" */
    uint64_t dut, model;
} cmp_diff_t;

/* Every differing output of one cycle; returns the number found. */
int cmp_outputs(const spu_config_t *cfg, const spu_out_t *dut, const spu_out_t *model,
                cmp_diff_t *diffs, int max);
/* Flip bit 0 of the named output (tb --inject): -1 for an unknown name. */
int cmp_perturb(spu_out_t *o, const char *name);
/* One line summary of a cycle's outputs ("smp=.. rec=.. pmu=.."). */
void cmp_out_str(const spu_config_t *cfg, const spu_out_t *o, char *buf, size_t len);
/* One line summary of a cycle's inputs. */
void cmp_in_str(const spu_config_t *cfg, const spu_in_t *in, char *buf, size_t len);

#endif
