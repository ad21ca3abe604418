/* Output comparison: every output field, named as the RTL port. */
#ifndef SPU_COMPARE_H
#define SPU_COMPARE_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "dut.h"
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

/* Byte k of 64-bit word i of spu_out_t, if it lies in [off, off + len): its
 * mask in that word (little-endian), else 0. Constant expressions. */
#define CMP_BYTE(i, k, off, len) \
    ((8 * (i) + (k) >= (off) && 8 * (i) + (k) < (off) + (len)) ? 0xFFull << (8 * (k)) : 0ull)
#define CMP_SPAN(i, off, len)                                                                              \
    (CMP_BYTE(i, 0, off, len) | CMP_BYTE(i, 1, off, len) | CMP_BYTE(i, 2, off, len) | CMP_BYTE(i, 3, off, len) | \
     CMP_BYTE(i, 4, off, len) | CMP_BYTE(i, 5, off, len) | CMP_BYTE(i, 6, off, len) | CMP_BYTE(i, 7, off, len))
#define CMP_MEMBER(i, m) CMP_SPAN(i, offsetof(spu_out_t, m), sizeof(((spu_out_t *)0)->m))
/* The bits of word i a quiet cycle leaves free: the outputs spu_quiet_t
 * carries, and SAMPLE_POP's count up to its field's width. */
#define CMP_FREE(i)                                                                                          \
    (CMP_MEMBER(i, reg_undef) | CMP_MEMBER(i, obs_enabled) | CMP_MEMBER(i, pmbirq) | CMP_MEMBER(i, reg_rdata) | \
     CMP_MEMBER(i, obs_pmsicr) |                                                                              \
     (CMP_SPAN(i, offsetof(spu_out_t, pmu) + SPU_PMU_POP, 1) & 0x0101010101010101ull * ((1u << SPU_PMU_W) - 1)))
_Static_assert(sizeof(spu_out_t) == 12 * 8, "cmp_quiet() reads spu_out_t as 12 words");
static const uint64_t cmp_quiet_zero[12] = {
    ~CMP_FREE(0), ~CMP_FREE(1), ~CMP_FREE(2), ~CMP_FREE(3), ~CMP_FREE(4),  ~CMP_FREE(5),
    ~CMP_FREE(6), ~CMP_FREE(7), ~CMP_FREE(8), ~CMP_FREE(9), ~CMP_FREE(10), ~CMP_FREE(11),
};

/* The model's outputs o of a cycle, as the DUT's step_check_quiet() checks them
 * (dut.h): q->quiet 1 when o is a quiet cycle (no selection, collision,
 * record, buffer write, write beat, PMU count but SAMPLE_POP's), with the
 * outputs that remain in q; else q->quiet 0. Every bit of o is either in q
 * or required zero (cmp_quiet_zero: all but the members q carries, by
 * name), so a quiet cycle that step_check_quiet() passes compares equal in
 * cmp_equal() too. */
static inline uint64_t cmp_word(const spu_out_t *o, int i)
{
    uint64_t w;
    memcpy(&w, (const unsigned char *)o + 8 * i, sizeof w);
    return w & cmp_quiet_zero[i];
}
/* The outputs q carries, from o. */
static inline void cmp_quiet_carried(const spu_out_t *o, spu_quiet_t *q)
{
    q->pop = o->pmu[SPU_PMU_POP];
    q->reg_rdata = o->reg_rdata;
    q->obs_pmsicr = o->obs_pmsicr;
    q->reg_undef = o->reg_undef;
    q->obs_enabled = o->obs_enabled;
    q->pmbirq = o->pmbirq;
}
static inline void cmp_quiet(const spu_out_t *o, spu_quiet_t *q)
{
    /* written out: constant masks, so the words with none cost nothing */
    const uint64_t a = cmp_word(o, 0) | cmp_word(o, 1) | cmp_word(o, 2) | cmp_word(o, 3) | cmp_word(o, 4) |
                       cmp_word(o, 5) | cmp_word(o, 6) | cmp_word(o, 7) | cmp_word(o, 8) | cmp_word(o, 9) |
                       cmp_word(o, 10) | cmp_word(o, 11);
    q->quiet = a == 0;
    cmp_quiet_carried(o, q);
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
