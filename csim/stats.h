/* csim --stats: sample intervals, collisions, keep/reject reasons, PMU totals. */
#ifndef SPU_STATS_H
#define SPU_STATS_H

#include <stdio.h>

#include "spl.h"

#define STATS_BUCKETS 34

typedef struct spu_stats {
    uint64_t last_sel;              /* pop index of the last selection, 0: none yet */
    uint64_t nint, sum, min, max;   /* intervals between selections, in members */
    uint64_t bucket[STATS_BUCKETS]; /* log2 histogram of intervals */
} spu_stats_t;

void stats_init(spu_stats_t *s);
/* A selection (sample or collision) at pop index `at` (1-based). */
void stats_select(spu_stats_t *s, uint64_t at);
void stats_print(const spu_stats_t *s, const spl_log_t *log, FILE *f);
/* The sample intervals as a member "intervals" of a --stats-json object. */
struct json;
void stats_json(const spu_stats_t *s, struct json *j);

#endif
