/*
 * .spl event logs (format: docs/formats.md), written the same way by
 * csim and tb. Lines of one cycle come in this order: sample/collision lines in
 * lane order, record lines in port order, then read/undef lines.
 */
#ifndef SPU_SPL_H
#define SPU_SPL_H

#include <stdio.h>
#include <string.h>

#include "spu_model.h"

typedef struct spl_log {
    FILE *f;                      /* NULL: count only */
    const spu_config_t *cfg;
    uint64_t pmu[SPU_NPMU];       /* totals of the PMU outputs */
    uint64_t samples, collisions, kept, rejected, reads;
    uint64_t multi;               /* cycles with more than one selection */
    uint64_t why[6];              /* records rejected for each reason */
    uint64_t rec_built;           /* sample records built (kept, not discarded) */
    uint64_t rec_written, rec_bytes; /* ... written to the Profiling Buffer, and their bytes */
    uint64_t rec_size[SPU_MAX_RECORD + 1]; /* records written of each length */
    uint64_t rec_stopped;         /* built, not written: the buffer disabled or stopped (D17.4) */
    uint64_t rec_waited;          /* built, waited for the write path (then written or discarded) */
    uint64_t rec_reset;           /* built, not written: a reset while it waited */
    uint64_t rec_pending;         /* built, still waiting when the log was printed */
    uint64_t buf_full;            /* buffer-full management events (PMBSR_EL1.S set by a write) */
    uint64_t mem_beats, mem_lost; /* write beats the memory took; bytes of the write path a reset dropped */
    uint64_t stray_iss, stray_fin; /* stray issue and finish events driven (--stray-events) */
} spl_log_t;

void spl_init(spl_log_t *l, FILE *f, const spu_config_t *cfg);
void spl_sample(spl_log_t *l, uint64_t cycle, uint64_t op, unsigned lane, unsigned slot);
void spl_collision(spl_log_t *l, uint64_t cycle, uint64_t op);
void spl_record(spl_log_t *l, uint64_t cycle, uint64_t op, unsigned slot, unsigned tot,
                unsigned iss, int keep, unsigned why);
void spl_read(spl_log_t *l, uint64_t cycle, uint16_t enc, uint64_t value);
void spl_undef(spl_log_t *l, uint64_t cycle, int write, uint16_t enc);
void spl_reset(spl_log_t *l, uint64_t cycle);
/* One record of n bytes written (run_records()). */
static inline void spl_rec_written(spl_log_t *l, unsigned n)
{
    l->rec_written++;
    l->rec_bytes += n;
    l->rec_size[n <= SPU_MAX_RECORD ? n : SPU_MAX_RECORD]++;
}
/* Kept records neither written, discarded (D17.4), dropped by a reset nor
 * still waiting: none, since a kept record that finds the write path busy
 * waits (docs/buffer.md); a nonzero count is a bug the stats show. */
static inline uint64_t spl_rec_lost(const spl_log_t *l)
{
    return l->rec_built - l->rec_written - l->rec_stopped - l->rec_reset - l->rec_pending;
}
/* A --stats histogram row's end: the count and a bar of up to 40 '#',
 * scaled to peak, and the newline. */
void spl_bar(FILE *f, uint64_t count, uint64_t peak);
/* A --stats histogram: for each nonzero count[i], label(i) then the count
 * and a bar of up to 40 '#' scaled to the largest count. */
void spl_histogram(FILE *f, const uint64_t *count, unsigned n,
                   void (*label)(FILE *f, unsigned i));
/* --stats lines about the records: written, bytes, sizes, and the records
 * not written with the rule that dropped each. */
void spl_print_records(const spl_log_t *l, FILE *f);
/* The counters as members of a --stats-json object (docs/formats.md). */
struct json;
void spl_log_json(const spl_log_t *l, struct json *j);
/* Members counted in skipped cycles (SAMPLE_POP and nothing else). */
void spl_add_pops(spl_log_t *l, uint64_t pops);
/* Add one cycle's PMU outputs to the totals. */
static inline void spl_pmu_add(spl_log_t *l, const spu_out_t *o)
{
    /* SAMPLE_POP counts most cycles; the others rarely, so they are added
     * only when a word-wise look finds one of them nonzero. */
    _Static_assert(SPU_PMU_POP == 0, "SAMPLE_POP is expected first");
    l->pmu[SPU_PMU_POP] += o->pmu[SPU_PMU_POP];
    /* pmu[1 .. NPMU-1] as whole 8-byte words, the last one overlapping the
     * one before (a word assembled from a partial copy makes the CPU wait
     * for the stores it is built from, in every cycle) */
    _Static_assert(SPU_NPMU >= 9, "pmu[1..] is read as 8-byte words");
    uint64_t any = 0, w;
    for (size_t i = 1; i + 8 <= SPU_NPMU; i += 8) {
        memcpy(&w, o->pmu + i, 8);
        any |= w;
    }
    memcpy(&w, o->pmu + SPU_NPMU - 8, 8);
    any |= w;
    if (any)
        for (int i = 1; i < SPU_NPMU; i++)
            l->pmu[i] += o->pmu[i];
}
/* The closing `<cycle> pmu ...` line. */
void spl_pmu_line(spl_log_t *l, uint64_t cycle);
/* "discard,ds,ev,lat,nev,type" spelling of a why set ("-" when empty). */
void spl_why_str(unsigned why, char *buf, size_t len);

#endif
