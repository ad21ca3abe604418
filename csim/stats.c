/* csim --stats (stats.h). */
#include <inttypes.h>
#include <string.h>

#include "json.h"
#include "stats.h"

void stats_init(spu_stats_t *s)
{
    memset(s, 0, sizeof *s);
    s->min = UINT64_MAX;
}

void stats_select(spu_stats_t *s, uint64_t at)
{
    if (s->last_sel) {
        const uint64_t d = at - s->last_sel;
        s->nint++;
        s->sum += d;
        if (d < s->min)
            s->min = d;
        if (d > s->max)
            s->max = d;
        unsigned b = 0;
        while (b + 1 < STATS_BUCKETS && (d >> (b + 1)))
            b++;
        s->bucket[b]++;
    }
    s->last_sel = at;
}

/* Bucket b holds intervals 2^b .. 2^(b+1) - 1. */
static void interval_label(FILE *f, unsigned b)
{
    fprintf(f, "  [%10" PRIu64 ", %10" PRIu64 "]", (uint64_t)1 << b, ((uint64_t)2 << b) - 1);
}

void stats_print(const spu_stats_t *s, const spl_log_t *log, FILE *f)
{
    fprintf(f, "samples %" PRIu64 "  collisions %" PRIu64 "  records kept %" PRIu64
               "  rejected %" PRIu64 "  reads %" PRIu64 "\n",
            log->samples, log->collisions, log->kept, log->rejected, log->reads);
    fprintf(f, "cycles with several selections %" PRIu64 "\n", log->multi);
    static const char *const why[6] = {"type", "ev", "nev", "lat", "ds", "discard"};
    fprintf(f, "rejected by reason:");
    for (int b = 0; b < 6; b++)
        fprintf(f, " %s=%" PRIu64, why[b], log->why[b]);
    fputc('\n', f);
    spl_print_records(log, f);
    fprintf(f, "PMU totals:\n");
    for (int i = 0; i < SPU_NPMU; i++)
        if (spu_pmu_implemented(log->cfg, i))
            fprintf(f, "  %-20s %" PRIu64 "\n", spu_pmu_name(i), log->pmu[i]);
    if (!s->nint) {
        fprintf(f, "sample intervals: fewer than two selections\n");
        return;
    }
    fprintf(f, "sample intervals (members between selections): n %" PRIu64 " mean %.2f min %" PRIu64
               " max %" PRIu64 "\n",
            s->nint, (double)s->sum / (double)s->nint, s->min, s->max);
    spl_histogram(f, s->bucket, STATS_BUCKETS, interval_label);
}

void stats_json(const spu_stats_t *s, json_t *j)
{
    json_obj(j, "intervals"); /* population members between selections */
    json_u64(j, "n", s->nint);
    json_num(j, "mean", s->nint ? (double)s->sum / (double)s->nint : 0.0);
    json_u64(j, "min", s->nint ? s->min : 0);
    json_u64(j, "max", s->max);
    json_close(j);
}
