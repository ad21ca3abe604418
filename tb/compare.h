/* Output comparison: every output field, named as the RTL port. */
#ifndef SPU_COMPARE_H
#define SPU_COMPARE_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "spu_apb.h"
#include "spu_model.h"

#define CMP_MAX_DIFFS 64

typedef struct cmp_diff {
    char name[40];               /* e.g. "rec_tot_lat_o[port 1]" */
    uint64_t dut, model;
} cmp_diff_t;

/* spu_out_t is compared as bytes: it has no padding. The 8- and 16-bit
 * members, then `reserved` (always zero) up to an 8-byte boundary, then the
 * four 64-bit members, each right after the one before (asserted member by
 * member), and nothing after them. A member added anywhere breaks one of
 * these assertions instead of escaping the compare. Unused lanes and ports
 * are inside the block, so they must match (zero) too. */
#define CMP_NEXT(a, b) (offsetof(spu_out_t, b) == offsetof(spu_out_t, a) + sizeof(((spu_out_t *)0)->a))
_Static_assert(offsetof(spu_out_t, smp_valid) == 0 && CMP_NEXT(smp_valid, col_valid) &&
                   CMP_NEXT(col_valid, smp_slot) && CMP_NEXT(smp_slot, rec_valid) &&
                   CMP_NEXT(rec_valid, rec_keep) && CMP_NEXT(rec_keep, rec_slot) &&
                   CMP_NEXT(rec_slot, rec_why) && CMP_NEXT(rec_why, rec_len) && CMP_NEXT(rec_len, rec_tot_lat) &&
                   CMP_NEXT(rec_tot_lat, rec_iss_lat) && CMP_NEXT(rec_iss_lat, pmu) &&
                   CMP_NEXT(pmu, reg_undef) && CMP_NEXT(reg_undef, obs_enabled) &&
                   CMP_NEXT(obs_enabled, rec_wr) && CMP_NEXT(rec_wr, rec_qfull) &&
                   CMP_NEXT(rec_qfull, mem_valid) && CMP_NEXT(mem_valid, mem_strb) &&
                   CMP_NEXT(mem_strb, pmbirq) && CMP_NEXT(pmbirq, reserved) &&
                   CMP_NEXT(reserved, reg_rdata) && CMP_NEXT(reg_rdata, obs_pmsicr) &&
                   CMP_NEXT(obs_pmsicr, mem_addr) && CMP_NEXT(mem_addr, mem_data) &&
                   offsetof(spu_out_t, mem_data) + sizeof(uint64_t) == sizeof(spu_out_t),
               "spu_out_t has padding or a member cmp_equal() does not know; update SPU_OUT_SMALL_BYTES and this list");
#undef CMP_NEXT
#define CMP_BLOCK offsetof(spu_out_t, reg_rdata)

/* 1 when every output is equal. */
static inline int cmp_equal(const spu_out_t *a, const spu_out_t *b)
{
    return memcmp(a, b, CMP_BLOCK) == 0 && a->reg_rdata == b->reg_rdata && a->obs_pmsicr == b->obs_pmsicr &&
           a->mem_addr == b->mem_addr && a->mem_data == b->mem_data;
}

/* The record bytes of a cycle with a record (rec_len equal in both, as
 * cmp_equal() checked): every port's cfg->rec_max bytes, the model's
 * record and zeros after it. dut and model hold SPU_MAX_SLOTS records of
 * SPU_MAX_RECORD bytes. Each differing byte is a diff named
 * "rec_data_o[port P byte K]"; returns their number. */
int cmp_records(const spu_config_t *cfg, const spu_out_t *o, const uint8_t dut[][SPU_MAX_RECORD],
                const uint8_t model[][SPU_MAX_RECORD], cmp_diff_t *diffs, int max);

/* spu-tb --apb: the APB outputs of spu_apb (prdata_o, pready_o, pslverr_o)
 * that differ, into diffs (at most max; diffs may be NULL with max 0);
 * returns the number found. */
int cmp_apb(const spu_apb_out_t *dut, const spu_apb_out_t *model, cmp_diff_t *diffs, int max);

/* --inject of an APB output: flip bit 0 of the named one; -1 when name is
 * none of them. */
int cmp_perturb_apb(spu_apb_out_t *o, const char *name);

/* Every differing output of one cycle; returns the number found. */
int cmp_outputs(const spu_out_t *dut, const spu_out_t *model,
                cmp_diff_t *diffs, int max);
/* 1 when the named output element exists in this configuration (a lane or
 * port it has, a PMU event it implements). */
int cmp_signal_exists(const spu_config_t *cfg, const char *name);
/* Flip bit 0 of the named output (tb --inject): -1 for an unknown name. */
int cmp_perturb(spu_out_t *o, const char *name);
/* One line summary of a cycle's outputs ("smp=.. rec=.. pmu=.."). */
void cmp_out_str(const spu_config_t *cfg, const spu_out_t *o, char *buf, size_t len);
/* One line summary of a cycle's inputs. */
void cmp_in_str(const spu_config_t *cfg, const spu_in_t *in, char *buf, size_t len);

#endif
