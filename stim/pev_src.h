/*
 * A stimulus source that programs the unit the way the Linux arm_spe driver
 * does around another source (docs/perf-event.md): the start sequence, one
 * register access per cycle; then the inner stimulus (a trace or the
 * generator without register traffic); then the stop sequence: PMSCR_EL1 = 0,
 * a drain long enough for every sampled op to finish, PMBLIMITR_EL1 = 0 and a
 * read of PMSICR_EL1.
 */
#ifndef SPU_PEV_SRC_H
#define SPU_PEV_SRC_H

#include "perf_event.h"

typedef struct pev_src {
    spu_src_t in;                /* the inner stimulus */
    pev_prog_t prog;
    uint64_t drain;              /* cycles from PMSCR_EL1 = 0 to PMBLIMITR_EL1 = 0 */
    uint64_t cycle;              /* next cycle to hand out */
    int phase;                   /* 0 start sequence, 1 inner stimulus, 2 stop sequence, 3 done */
    unsigned i;                  /* next access of the phase's sequence */
    uint64_t wait;               /* drain cycles still to run */
    int inner_ctx;               /* the inner stimulus has changed the context */
    uint8_t el, allow;           /* context in force */
} pev_src_t;

/* Wrap `in`; fin_bound is the longest finish latency `in` can give an op
 * (every sampled op has finished that many cycles after PMSCR_EL1 = 0). */
spu_src_t pev_source(pev_src_t *p, spu_src_t in, const pev_prog_t *prog, uint64_t fin_bound);

#endif
