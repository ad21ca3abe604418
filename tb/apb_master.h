/*
 * spu-tb --apb: the register accesses of the stimulus as APB4 transfers to
 * spu_apb (docs/integration.md, "The APB wrapper"). An access is queued in
 * its stimulus cycle and carried out, in order, as two transfers: a read
 * reads the low word, then the high word; a write writes the low word, then
 * the high word (which the wrapper turns into the MSR). Each transfer is a
 * setup cycle and an access phase that lasts until PREADY. The unit sees the
 * access when the wrapper presents it, later than the stimulus cycle; the
 * model is given it in that same cycle (spu_apb_drive()).
 *
 * An encoding the wrapper's map has no address for is sent to an address
 * outside the map (it must answer PSLVERR and the unit sees nothing). A reset
 * of the stimulus drops the transfer in progress and the queued accesses
 * (the reset would have undone them).
 *
 * So that every part of the wrapper is compared, the master adds transfers
 * of its own, on a fixed schedule (no randomness): after every APB_PROBE-th
 * access a read of the next SAMPLE_* counter (the events in turn), and before
 * every APB_PROBE-th write a write of its high word with PSTRB 0011, which
 * the wrapper must refuse (PSLVERR, no MSR).
 */
#ifndef APB_MASTER_H
#define APB_MASTER_H

#include "spu_apb.h"

#define APB_QUEUE 65536                    /* accesses waiting, at most */
#define APB_UNMAPPED 0x800u                /* the address for an encoding outside the map */
#define APB_PROBE 16                       /* the master's own transfers: one per this many */

typedef struct apb_access {
    enum { APB_REG, APB_PMU_READ, APB_BAD_STROBE } kind;
    uint8_t write;
    uint16_t enc;                          /* APB_REG, APB_BAD_STROBE: the register */
    uint8_t event;                         /* APB_PMU_READ: the counter */
    uint64_t wdata;
} apb_access_t;

/* What the master did (spu-tb prints it). */
typedef struct apb_stats {
    uint64_t accesses, writes, unmapped, dropped, transfers;
    uint64_t pmu_reads, bad_strobes;
} apb_stats_t;

typedef struct apb_master {
    apb_access_t q[APB_QUEUE];
    unsigned head, count;
    enum { APB_IDLE, APB_SETUP, APB_ACCESS } phase;
    unsigned half;                         /* 0 low word, 1 high word */
    apb_access_t cur;
    uint16_t addr;                         /* its APB address (the low word's) */
    apb_stats_t st;
} apb_master_t;

void apb_master_init(apb_master_t *b);

/* Take this cycle's stimulus access (in->reg_valid ...) into the queue and
 * clear it from in; a reset cycle (in->rst_n == 0) drops everything. 0, or -1
 * when the queue is full. */
int apb_master_take(apb_master_t *b, spu_in_t *in);

/* The APB inputs of this cycle; pready: PREADY shown in this cycle (the
 * transfer in its access phase completes at this cycle's edge when set). */
void apb_master_drive(apb_master_t *b, uint8_t pready, spu_apb_in_t *ai);

/* Accesses queued or in progress. */
static inline int apb_master_busy(const apb_master_t *b)
{
    return b->count || b->phase != APB_IDLE;
}

#endif
