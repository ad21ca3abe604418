/*
 * Programming the unit the way Linux does (docs/perf-event.md): a perf event
 * string of the arm_spe PMU (`arm_spe_0/load_filter=1,min_latency=20/u`) is
 * parsed into the perf_event_attr words, checked against the configuration
 * the way the arm_spe driver's event_init does (EOPNOTSUPP), and turned into
 * the register accesses of the driver's start and stop sequences. Pure
 * functions: pev_src.c plays the accesses as stimulus.
 */
#ifndef SPU_PERF_EVENT_H
#define SPU_PERF_EVENT_H

#include <stddef.h>

#include "stim.h"

/* The format fields of the arm_spe PMU: X(name, attr word (0 = config,
 * 1 = config1, ...), lsb, msb), as its sysfs format directory lists them. */
#define PEV_FIELD_LIST(X)                                                      \
    X(ts_enable, 0, 0, 0)                                                      \
    X(pa_enable, 0, 1, 1)                                                      \
    X(pct_enable, 0, 2, 2)                                                     \
    X(jitter, 0, 16, 16)                                                       \
    X(branch_filter, 0, 32, 32)                                                \
    X(load_filter, 0, 33, 33)                                                  \
    X(store_filter, 0, 34, 34)                                                 \
    X(discard, 0, 35, 35)                                                      \
    X(branch_filter_mask, 0, 36, 36)                                           \
    X(load_filter_mask, 0, 37, 37)                                             \
    X(store_filter_mask, 0, 38, 38)                                            \
    X(simd_filter, 0, 39, 39)                                                  \
    X(simd_filter_mask, 0, 40, 40)                                             \
    X(float_filter, 0, 41, 41)                                                 \
    X(float_filter_mask, 0, 42, 42)                                            \
    X(event_filter, 1, 0, 63)                                                  \
    X(min_latency, 2, 0, 11)                                                   \
    X(inv_event_filter, 3, 0, 63)                                              \
    X(inv_data_src_filter, 4, 0, 63)

enum pev_field {
#define PEV_ENUM(name, word, lsb, msb) PEV_##name,
    PEV_FIELD_LIST(PEV_ENUM)
#undef PEV_ENUM
    PEV_NFIELDS
};

#define PEV_NWORDS 5

/* The part of perf_event_attr the driver reads. */
typedef struct pev_attr {
    uint64_t config[PEV_NWORDS];  /* config, config1 .. config4 */
    uint64_t period;              /* sample_period */
    int have_period;              /* period= term given */
    uint8_t exclude_user, exclude_kernel;
} pev_attr_t;

/* One access of the register port. */
typedef struct pev_access {
    uint16_t enc;
    uint8_t write;
    uint64_t value;
} pev_access_t;

#define PEV_MAX_START 10
#define PEV_MAX_STOP 2

/* What the driver does to the unit for one event: the start sequence, the
 * stop sequence's writes (stop[0] before the drain, stop[1] after it; the
 * reads that follow depend on what they return: pev_src.c), the Exception
 * level the run starts at (one profiling is enabled at), and the AUX area
 * the interrupt handler re-arms the buffer in (pev_rearm()). */
typedef struct pev_prog {
    pev_access_t start[PEV_MAX_START];
    unsigned nstart;
    pev_access_t stop[PEV_MAX_STOP];
    unsigned nstop;
    uint8_t el;
    uint8_t aux;                  /* a buffer in memory (not discard mode) */
    uint64_t period;              /* the sample period: the event's, --period's or the default */
    uint8_t have_period;          /* ... given (the event's term or --period), not the default */
    uint64_t base, size;          /* the AUX area */
    uint64_t rec_max;             /* 1 << PMSIDR_EL1.MaxSize: the driver's max_record_sz */
    uint64_t align;               /* 1 << PMBIDR_EL1.Align */
} pev_prog_t;

/* Cycles from PMBIRQ (seen at the unit's output) to the first access of the
 * driver's interrupt handler: its interrupt entry, a choice of this model
 * (docs/perf-event.md), not of the architecture. */
#define PEV_IRQ_CYCLES 100

/* The default Profiling Buffer: a page-aligned kernel virtual address and
 * perf record's AUX area for a privileged user (4 MiB). */
#define PEV_DEFAULT_BASE 0xFFFF800080000000ull
#define PEV_DEFAULT_SIZE 0x400000ull

/* Parse "PMU/term,.../modifiers"; 0, or -1 with a message in err naming the
 * term and value (syntax, unknown field, value out of range). */
int pev_parse(pev_attr_t *a, const char *s, char *err, size_t errlen);
/* Value of one format field. */
uint64_t pev_get(const pev_attr_t *a, enum pev_field f);
const char *pev_field_name(enum pev_field f);
/* The driver's event_init checks against the configuration, in its order:
 * 0, or -1 with "FIELD=VALUE: EOPNOTSUPP: reason" in err. */
int pev_check(const pev_attr_t *a, const spu_config_t *c, char *err, size_t errlen);
/* perf's default sample period for the PMU: caps/min_interval, which the
 * driver derives from PMSIDR_EL1.Interval. */
uint64_t pev_default_period(const spu_config_t *c);
/* The sample period as the driver programs it into PMSIRR_EL1 (INTERVAL,
 * RND clear): clamped to pev_default_period() .. INTERVAL's largest value,
 * else its low 8 bits dropped. *why (when why is not NULL): the rule that
 * changed it, NULL when it is the period as given. */
uint64_t pev_interval(const spu_config_t *c, uint64_t period, const char **why);
/* "BASE,SIZE" of the Profiling Buffer, checked as perf and the driver
 * would (page-aligned base, a power-of-two number of at least 2 pages, room
 * for a record of PMSIDR_EL1.MaxSize); 0, or -1 with a message. */
int pev_buffer(const char *s, const spu_config_t *c, uint64_t *base, uint64_t *size, char *err, size_t errlen);
/* Where the driver puts the Profiling Buffer for data from ptr on (its
 * aux_output_begin, docs/perf-event.md): PMBPTR_EL1 and PMBLIMITR_EL1 for
 * the page of perf's next wakeup point (a multiple of half the AUX area)
 * past ptr, at most the area's end; when less than a record of
 * PMSIDR_EL1.MaxSize fits below it, the driver pads up to it and looks
 * again. Returns 1 when no room is left (TRUNCATED: PMBLIMITR_EL1.E = 0),
 * else 0. The data is not consumed during a run. */
int pev_rearm(const pev_prog_t *p, uint64_t ptr, uint64_t *pmbptr, uint64_t *pmblimitr);
/* The accesses of the start and stop sequences (the attr must have passed
 * pev_check; a.period is used when have_period, else the default). */
void pev_program(const pev_attr_t *a, const spu_config_t *c, uint64_t base, uint64_t size, pev_prog_t *p);

#endif
