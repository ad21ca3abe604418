/*
 * A stimulus source that programs the unit the way the Linux arm_spe driver
 * does around another source (docs/perf-event.md): the start sequence, one
 * register access per cycle; then the inner stimulus (a trace or the
 * generator without register traffic), paused while the driver's interrupt
 * handler re-arms a full buffer; then the stop sequence: PMSCR_EL1 = 0, a
 * drain long enough for every sampled op to finish, PMBLIMITR_EL1 = 0, the
 * check of PMBSR_EL1 (and PMBPTR_EL1, for the data's size) and a read of
 * PMSICR_EL1. The handler and the stop depend on what the unit returns: the
 * run loop shows the source each cycle's outputs (observe()).
 */
#ifndef SPU_PEV_SRC_H
#define SPU_PEV_SRC_H

#include "perf_event.h"

typedef struct pev_src {
    spu_src_t in;                /* the inner stimulus */
    pev_prog_t prog;
    uint64_t drain;              /* cycles from PMSCR_EL1 = 0 to PMBLIMITR_EL1 = 0 */
    uint64_t cycle;              /* next cycle to hand out */
    int phase;                   /* start sequence, inner stimulus, interrupt handler, stop sequence, done */
    unsigned i;                  /* next step of the phase's sequence */
    uint64_t wait;               /* drain cycles still to run */
    int inner_ctx;               /* the inner stimulus has changed the context */
    uint8_t el, allow;           /* context in force */
    int reading;                 /* the last cycle handed out read a register ... */
    uint64_t rd;                 /* ... which returned this */
    uint64_t irq_at;             /* PMBIRQ seen: the cycle the handler starts (0: none pending) */
    uint64_t ptr, limitr;        /* the handler's re-arm */
    /* what the driver saw (--stats) */
    uint64_t irqs;               /* buffer-full interrupts handled, the buffer re-armed */
    uint64_t truncated;          /* ... of which left no room (PMBLIMITR_EL1.E = 0 from then on) */
    uint64_t collisions;         /* ... of which had PMBSR_EL1.COLL set (perf's COLLISION flag) */
    uint64_t fatal;              /* syndromes other than buffer full: the event stopped */
    uint64_t data_bytes;         /* bytes the unit wrote, from PMBPTR_EL1 as the driver read it */
} pev_src_t;

/* Wrap `in`; fin_bound is the longest finish latency `in` can give an op
 * (every sampled op has finished that many cycles after PMSCR_EL1 = 0). */
spu_src_t pev_source(pev_src_t *p, spu_src_t in, const pev_prog_t *prog, uint64_t fin_bound);

#endif
