/* Output comparison: every output field, named as the RTL port. */
#ifndef SPU_COMPARE_H
#define SPU_COMPARE_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "spu_model.h"

#define CMP_MAX_DIFFS 64

typedef struct cmp_diff {
    char name[40];               /* e.g. "rec_tot_lat_o[port 1]" */
    uint64_t dut, model;
} cmp_diff_t;

/* spu_out_t compared without its padding: the 8- and 16-bit members up to
 * obs_enabled form one padding-free block (asserted member by member below),
 * the two 64-bit members end the struct and are compared as values. Unused
 * lanes and ports are inside the block, so they must match (zero) too. */
#define CMP_NEXT(a, b) (offsetof(spu_out_t, b) == offsetof(spu_out_t, a) + sizeof(((spu_out_t *)0)->a))
_Static_assert(offsetof(spu_out_t, smp_valid) == 0 && CMP_NEXT(smp_valid, col_valid) &&
                   CMP_NEXT(col_valid, smp_slot) && CMP_NEXT(smp_slot, rec_valid) &&
                   CMP_NEXT(rec_valid, rec_keep) && CMP_NEXT(rec_keep, rec_slot) &&
                   CMP_NEXT(rec_slot, rec_why) && CMP_NEXT(rec_why, rec_tot_lat) &&
                   CMP_NEXT(rec_tot_lat, rec_iss_lat) && CMP_NEXT(rec_iss_lat, pmu) &&
                   CMP_NEXT(pmu, reg_undef) && CMP_NEXT(reg_undef, obs_enabled),
               "spu_out_t: the 8/16-bit block has padding; update cmp_equal()");
_Static_assert(offsetof(spu_out_t, obs_pmsicr) + sizeof(uint64_t) == sizeof(spu_out_t) &&
                   offsetof(spu_out_t, reg_rdata) + sizeof(uint64_t) == offsetof(spu_out_t, obs_pmsicr),
               "spu_out_t: reg_rdata and obs_pmsicr must be its last members; update cmp_equal()");
#undef CMP_NEXT
#define CMP_BLOCK (offsetof(spu_out_t, obs_enabled) + sizeof(uint8_t))

/* 1 when every output is equal. */
static inline int cmp_equal(const spu_out_t *a, const spu_out_t *b)
{
    return memcmp(a, b, CMP_BLOCK) == 0 && a->reg_rdata == b->reg_rdata && a->obs_pmsicr == b->obs_pmsicr;
}

/* Every differing output of one cycle; returns the number found. */
int cmp_outputs(const spu_out_t *dut, const spu_out_t *model,
                cmp_diff_t *diffs, int max);
/* Flip bit 0 of the named output (tb --inject): -1 for an unknown name. */
int cmp_perturb(spu_out_t *o, const char *name);
/* One line summary of a cycle's outputs ("smp=.. rec=.. pmu=.."). */
void cmp_out_str(const spu_config_t *cfg, const spu_out_t *o, char *buf, size_t len);
/* One line summary of a cycle's inputs. */
void cmp_in_str(const spu_config_t *cfg, const spu_in_t *in, char *buf, size_t len);

#endif
