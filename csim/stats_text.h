/* csim --stats for people (stats_text.c): the set-up, then the counts. */
#ifndef SPU_STATS_TEXT_H
#define SPU_STATS_TEXT_H

#include <stdio.h>

#include "spl.h"
#include "stats_setup.h"

/* The stimulus (--perf-event's event and period, the generator's knobs),
 * the knobs and the filter registers. */
void stats_print_setup(FILE *f, const spu_opts_t *o, const spu_setup_t *s, const spu_model_t *m,
                       const spu_stats_t *st);
/* The selections, records, reasons, op types, latencies, PMU totals and
 * intervals. */
void stats_print(const spu_stats_t *s, const spl_log_t *log, const spu_model_t *m, FILE *f);

#endif
