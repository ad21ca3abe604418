/*
 * A pipe-mode perf.data stream around a buffer of SPE records, so stock
 * perf decodes the unit's output: `spu-perf BUF.bin | perf report -D -i -`
 * and `perf script -i -` (docs/perf.md: what the stream holds and why).
 */
#ifndef SPU_PERF_DATA_H
#define SPU_PERF_DATA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The PMU number the stream's event claims. perf only matches it against
 * the AUXTRACE_INFO record's; real SPE PMUs get a dynamic number. */
#define PERF_DATA_PMU_TYPE 42u
/* The sample_type perf gives the samples it makes from the records: what
 * `perf script -F` may print (docs/perf.md). */
#define PERF_SAMPLE_IP        (1u << 0)
#define PERF_SAMPLE_TID       (1u << 1)
#define PERF_SAMPLE_TIME      (1u << 2)
#define PERF_SAMPLE_ADDR      (1u << 3)
#define PERF_SAMPLE_CPU       (1u << 7)
#define PERF_SAMPLE_PERIOD    (1u << 8)
#define PERF_SAMPLE_WEIGHT    (1u << 14)
#define PERF_SAMPLE_DATA_SRC  (1u << 15)
#define PERF_SAMPLE_PHYS_ADDR (1u << 19)
#define PERF_DATA_SAMPLE_TYPE                                                                                  \
    (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU |               \
     PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR)

/* Write the whole stream for len bytes of records taken on CPU cpu.
 * Returns 0, or -1 when a write fails (errno set). */
int perf_data_write(FILE *f, const uint8_t *buf, size_t len, uint32_t cpu);

#endif
