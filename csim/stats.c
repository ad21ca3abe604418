/* csim --stats: the counting (stats.h). */
#include <string.h>

#include "stats.h"

const int stats_freg[STATS_NFREGS] = {
#define STATS_FREG_IDX(r) SPU_REG_##r,
    STATS_FILTER_REGS(STATS_FREG_IDX)
#undef STATS_FREG_IDX
};

void stats_init(spu_stats_t *s)
{
    memset(s, 0, offsetof(spu_stats_t, ilin_bin));
    lhist_init(&s->ilin, s->ilin_bin, STATS_INT_BINS);
    lhist_init(&s->lat, s->lat_bin, STATS_LAT_BINS);
}

void stats_select(spu_stats_t *s, uint64_t at)
{
    if (s->last_sel) {
        const uint64_t d = at - s->last_sel;
        s->nint++;
        s->sum += d;
        lhist_add(&s->ilin, d);
        unsigned b = 0;
        while (b + 1 < STATS_BUCKETS && (d >> (b + 1)))
            b++;
        s->bucket[b]++;
    }
    s->last_sel = at;
}

/* A set-up differs from the last record's: count it (the first one too). */
static void note_setup(spu_stats_t *s, const spu_model_t *m)
{
    uint64_t r[STATS_NFREGS];
    for (int i = 0; i < STATS_NFREGS; i++)
        r[i] = spu_model_reg_read(m, stats_freg[i]);
    if (s->setups && !memcmp(r, s->freg, sizeof r))
        return;
    memcpy(s->freg, r, sizeof r);
    s->setups++;
}

void stats_record(spu_stats_t *s, const spu_model_t *m, unsigned type, unsigned tot, int keep, unsigned why)
{
    note_setup(s, m);
    lhist_add(&s->lat, tot);
    if (keep)
        s->kept[type % STATS_NTYPES]++;
    else
        s->rejected[type % STATS_NTYPES]++;
    if (why & (why - 1u))
        s->several++;
    else if (why)
        s->only[__builtin_ctz(why) % STATS_NWHY]++;
}
