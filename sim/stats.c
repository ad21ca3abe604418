/* The statistics of a run: the counting (stats.h). */
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

void stats_cycle(spu_stats_t *s, const spu_model_t *m, const spu_core_t *core, uint64_t pop,
                 const spu_cyc_t *cy, const spu_out_t *out)
{
    const uint8_t sel = out->smp_valid | out->col_valid;
    for (unsigned l = 0; sel >> l; l++)
        if ((sel >> l) & 1u)
            stats_select(s, pop + (uint64_t)__builtin_popcount(cy->pop_mask & ((1u << l) - 1u)) + 1);
    for (unsigned p = 0; out->rec_valid >> p; p++)
        if ((out->rec_valid >> p) & 1u)
            stats_record(s, m, core->fin[p].op.type, out->rec_tot_lat[p], (out->rec_keep >> p) & 1u,
                         out->rec_why[p]);
}

void stats_packets(spu_stats_t *s, const uint8_t *b, unsigned n)
{
    spe_pkt_t p;
    char err[SPE_PKT_ERR_LEN];
    for (size_t off = 0; off < n; off += p.size) {
        if (!spe_pkt_next(b, n, off, &p, err)) {
            s->pkt_bad++;
            return;
        }
        s->pkt[p.kind % STATS_NPKT]++;
    }
}

const char *stats_pkt_name(int kind)
{
    static const char *const name[STATS_NPKT] = {
        [SPE_PKT_PAD] = "Padding",          [SPE_PKT_END] = "End",
        [SPE_PKT_TIMESTAMP] = "Timestamp",  [SPE_PKT_EVENTS] = "Events",
        [SPE_PKT_DATA_SOURCE] = "Data Source", [SPE_PKT_CONTEXT] = "Context",
        [SPE_PKT_OP_TYPE] = "Operation Type", [SPE_PKT_ADDRESS] = "Address",
        [SPE_PKT_COUNTER] = "Counter",
    };
    return kind >= 0 && kind < STATS_NPKT ? name[kind] : "?";
}
