/*
 * The statistics of a run (spu-csim --stats, --report; spu-tb --report):
 * the counting. Per selection: the intervals between selections (log2 and
 * linear histograms). Per record: kept and rejected per op type, the
 * reasons a rejected record had (one alone, or several), its total latency
 * (a linear histogram), and the filter set-ups records met. Per record
 * written: its packets by kind. run.c counts when spu_run_t.stats is set;
 * printing is the front ends' (csim/stats_text.c, stats_json.c) and
 * report.c's.
 */
#ifndef SPU_STATS_H
#define SPU_STATS_H

#include "core.h"
#include "lhist.h"
#include "spe_pkt.h"
#include "spu_model.h"

#define STATS_BUCKETS 34           /* log2 interval buckets */
#define STATS_INT_BINS 4096        /* linear interval bins (they widen) */
#define STATS_LAT_BINS 65536       /* a bin per total latency (16-bit counters) */
#define STATS_NTYPES 32            /* op types: every set of {SIMD,FP,ST,LD,B} */
#define STATS_NWHY 6               /* rec_why bits (SPU_WHY_*) */
#define STATS_NPKT (SPE_PKT_COUNTER + 1) /* packet kinds (spe_pkt_kind_t) */

/* The filter registers, in the order --stats shows them. */
#define STATS_FILTER_REGS(X) X(PMSFCR_EL1) X(PMSEVFR_EL1) X(PMSNEVFR_EL1) X(PMSLATFR_EL1) X(PMSDSFR_EL1)
enum {
#define STATS_FREG_ENUM(r) STATS_FREG_##r,
    STATS_FILTER_REGS(STATS_FREG_ENUM)
#undef STATS_FREG_ENUM
    STATS_NFREGS
};
extern const int stats_freg[STATS_NFREGS]; /* their SPU_REG_* */

typedef struct spu_stats {
    uint64_t last_sel;              /* pop index of the last selection, 0: none yet */
    uint64_t nint, sum;             /* intervals between selections, in members */
    uint64_t bucket[STATS_BUCKETS]; /* log2 histogram of intervals */
    lhist_t ilin;                   /* linear histogram of intervals (min, max) */
    lhist_t lat;                    /* linear histogram of the records' total latency */
    uint64_t kept[STATS_NTYPES], rejected[STATS_NTYPES]; /* records per op type */
    uint64_t only[STATS_NWHY];      /* records rejected for this reason alone */
    uint64_t several;               /* records rejected for more than one reason */
    uint64_t freg[STATS_NFREGS];    /* the filter registers the last record met */
    uint64_t setups;                /* records that met other filter registers than the one before */
    uint64_t pkt[STATS_NPKT];       /* packets of the records written, by kind */
    uint64_t pkt_bad;               /* records written that did not decode (none expected) */
    uint64_t ilin_bin[STATS_INT_BINS];
    uint64_t lat_bin[STATS_LAT_BINS];
} spu_stats_t;

void stats_init(spu_stats_t *s);
/* A selection (sample or collision) at pop index `at` (1-based). */
void stats_select(spu_stats_t *s, uint64_t at);
/* A record of an op of type flags `type` with total latency tot, kept or
 * rejected for the reasons `why` (rec_why), filtered by m's registers. */
void stats_record(spu_stats_t *s, const spu_model_t *m, unsigned type, unsigned tot, int keep, unsigned why);
/* A cycle's selections and records, the model m's outputs out, the core
 * model's finishing ops in core; members are numbered by SAMPLE_POP, pop
 * of them counted before this cycle (run_observe_full() calls it first). */
void stats_cycle(spu_stats_t *s, const spu_model_t *m, const spu_core_t *core, uint64_t pop,
                 const spu_cyc_t *cy, const spu_out_t *out);
/* A record of n bytes b written to the Profiling Buffer: its packets. */
void stats_packets(spu_stats_t *s, const uint8_t *b, unsigned n);
/* A packet kind's name ("Address", "Counter", ...). */
const char *stats_pkt_name(int kind);

#endif
