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

/* The number of elements of a member of each packing (every lane and port a
 * configuration could have: those it lacks must be zero in both). */
#define CMP_N_ONE 1
#define CMP_N_LANES 1
#define CMP_N_PORTS 1
#define CMP_N_LANE SPU_MAX_LANES
#define CMP_N_PORT SPU_MAX_SLOTS
#define CMP_N_PMU SPU_NPMU

/* Nonzero when some element of member m is (the bits of its elements
 * ORed; an array has no padding, so its bytes are its elements'). */
#define CMP_OR(o, m, PACK) cmp_or_bytes(&(o)->m, sizeof((o)->m))
static inline uint64_t cmp_or_bytes(const void *a, size_t n)
{
    /* whole words, then the rest: with n a constant, a few plain loads */
    const unsigned char *b = (const unsigned char *)a;
    uint64_t v = 0, w8;
    uint32_t w4;
    uint16_t w2;
    for (; n >= 8; n -= 8, b += 8) {
        memcpy(&w8, b, 8);
        v |= w8;
    }
    if (n >= 4) {
        memcpy(&w4, b, 4);
        v |= w4;
        n -= 4;
        b += 4;
    }
    if (n >= 2) {
        memcpy(&w2, b, 2);
        v |= w2;
        n -= 2;
        b += 2;
    }
    return n ? v | *b : v;
}

/* 1 when every output is equal (spu_out_equal(), member by member). */
static inline int cmp_equal(const spu_out_t *a, const spu_out_t *b)
{
    return spu_out_equal(a, b);
}

/* The model's outputs o of a cycle, as the DUT's step_check_quiet() checks them
 * (dut.h): q->quiet 1 when o is a quiet cycle (every output of
 * SPU_OUT_QUIET_ZERO and SPU_OUT_GATED zero, every PMU count but
 * SAMPLE_POP's zero, each carried value within its port's width), with the
 * outputs that remain (SPU_OUT_CARRIED) in q; else q->quiet 0. Every output
 * is either carried or required zero, so a quiet cycle that
 * step_check_quiet() passes compares equal in cmp_equal() too. */
static inline void cmp_quiet_carried(const spu_out_t *o, spu_quiet_t *q)
{
#define CMP_CARRY(port, m, PACK, w) q->m = o->m;
    SPU_OUT_CARRIED(CMP_CARRY)
#undef CMP_CARRY
    q->pop = o->pmu[SPU_PMU_POP];
}
static inline void cmp_quiet(const spu_out_t *o, spu_quiet_t *q)
{
#define CMP_ZERO(port, m, PACK, w) | CMP_OR(o, m, PACK)
/* a carried value must fit its port, as the in-place check reads it */
#define CMP_BEYOND(port, m, PACK, w) | ((w) < 64 ? (uint64_t)o->m >> ((w) & 63) : 0)
    const uint64_t a = 0 SPU_OUT_QUIET_ZERO(CMP_ZERO) SPU_OUT_GATED(CMP_ZERO) SPU_OUT_CARRIED(CMP_BEYOND) |
                       cmp_or_bytes(o->pmu, SPU_PMU_POP) | /* every PMU count but SAMPLE_POP's */
                       cmp_or_bytes(o->pmu + SPU_PMU_POP + 1, SPU_NPMU - SPU_PMU_POP - 1) |
                       (uint64_t)(o->pmu[SPU_PMU_POP] >> SPU_PMU_W);
#undef CMP_ZERO
#undef CMP_BEYOND
    q->quiet = a == 0;
    cmp_quiet_carried(o, q);
}


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
/* The named output element's value in o (a name cmp_outputs() gives): 0, or
 * -1 for an unknown name (a record byte, an APB output). */
int cmp_value(const spu_out_t *o, const char *name, uint64_t *v);
/* One line summary of a cycle's outputs ("smp=.. rec=.. pmu=.."). */
void cmp_out_str(const spu_config_t *cfg, const spu_out_t *o, char *buf, size_t len);
/* One line summary of a cycle's inputs. */
void cmp_in_str(const spu_config_t *cfg, const spu_in_t *in, char *buf, size_t len);

#endif
