/* csim --stats-json (stats_json.c; the keys: docs/formats.md). */
#ifndef SPU_STATS_JSON_H
#define SPU_STATS_JSON_H

#include "stats_setup.h"

struct json;
/* "intervals", "latency", "rejected_alone", "rejected_several", "by_type". */
void stats_json(const spu_stats_t *s, const spu_model_t *m, struct json *j);
/* "setup": the filter registers, the knobs, --perf-event's period. */
void stats_json_setup(struct json *j, const spu_opts_t *o, const spu_setup_t *s, const spu_model_t *m,
                      const spu_stats_t *st);

#endif
