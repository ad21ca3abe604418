/* csim --stats-json: the counts of stats.c and the set-up of stats_setup.c
 * as members of the run's JSON object (stats_json.h; docs/formats.md). */
#include <stdio.h>

#include "json.h"
#include "spl.h"
#include "spt.h"
#include "stats_json.h"

/* A value as a number, or as a "0x..." string when a JSON reader might
 * round it (wider than 32 bits). */
static void json_wide(json_t *j, const char *key, uint64_t v, unsigned width)
{
    char h[24];
    if (width <= 32) {
        json_u64(j, key, v);
        return;
    }
    snprintf(h, sizeof h, "0x%016llx", (unsigned long long)v);
    json_str(j, key, h);
}

/* "rows": [{"lo", "hi", "count"}, ...] and their "width". */
static void json_rows(json_t *j, const lhist_t *h, uint64_t edge)
{
    lhist_row_t row[LHIST_ROWS];
    uint64_t w;
    const unsigned n = lhist_rows(h, edge, row, &w);
    json_u64(j, "width", w);
    json_arr(j, "rows");
    for (unsigned r = 0; r < n; r++) {
        json_obj(j, NULL);
        json_u64(j, "lo", row[r].lo);
        json_u64(j, "hi", row[r].hi);
        json_u64(j, "count", row[r].count);
        json_close(j);
    }
    json_close(j);
}

static void json_intervals(json_t *j, const spu_stats_t *s)
{
    json_obj(j, "intervals"); /* population members between selections */
    json_u64(j, "n", s->nint);
    json_num(j, "mean", s->nint ? (double)s->sum / (double)s->nint : 0.0);
    json_u64(j, "min", s->nint ? s->ilin.min : 0);
    json_u64(j, "max", s->ilin.max);
    json_arr(j, "log2");
    for (unsigned b = 0; b < STATS_BUCKETS; b++) {
        if (!s->bucket[b])
            continue;
        json_obj(j, NULL);
        json_u64(j, "lo", 1ull << b);
        json_u64(j, "hi", (2ull << b) - 1);
        json_u64(j, "count", s->bucket[b]);
        json_close(j);
    }
    json_close(j);
    json_obj(j, "linear");
    json_rows(j, &s->ilin, 0);
    json_close(j);
    json_close(j);
}

static void json_latency(json_t *j, const spu_stats_t *s, const spu_model_t *m)
{
    const uint32_t minlat = spu_minlat(m->reg);
    json_obj(j, "latency"); /* the records' total latency, cycles */
    json_u64(j, "n", s->lat.n);
    json_u64(j, "min", s->lat.n ? s->lat.min : 0);
    json_u64(j, "max", s->lat.max);
    json_u64(j, "minlat", minlat);
    json_u64(j, "below_minlat", lhist_below(&s->lat, minlat));
    json_rows(j, &s->lat, minlat);
    json_close(j);
}

static void json_reasons(json_t *j, const spu_stats_t *s)
{
    json_obj(j, "rejected_alone"); /* records rejected for this reason only */
    for (int b = 0; b < STATS_NWHY; b++) {
        char w[16];
        spl_why_str(1u << b, w, sizeof w);
        json_u64(j, w, s->only[b]);
    }
    json_close(j);
    json_u64(j, "rejected_several", s->several);
    json_obj(j, "by_type");
    for (unsigned t = 0; t < STATS_NTYPES; t++) {
        if (!s->kept[t] && !s->rejected[t])
            continue;
        char n[32];
        spt_type_str((uint8_t)t, n, sizeof n);
        json_obj(j, t ? n : "none");
        json_u64(j, "kept", s->kept[t]);
        json_u64(j, "rejected", s->rejected[t]);
        json_close(j);
    }
    json_close(j);
}

void stats_json(const spu_stats_t *s, const spu_model_t *m, json_t *j)
{
    json_intervals(j, s);
    json_latency(j, s, m);
    json_reasons(j, s);
}

static void json_filters(json_t *j, const spu_config_t *cfg, const spu_model_t *m, const spu_stats_t *st)
{
    uint64_t v[STATS_NFREGS];
    setup_filter_regs(m, v);
    json_obj(j, "filters"); /* at the end of the run */
    json_u64(j, "setups_met", st->setups);
    for (int i = 0; i < STATS_NFREGS; i++) {
        const int reg = stats_freg[i];
        if (!cfg->present[reg])
            continue;
        setup_field_t fld[SETUP_MAX_FIELDS];
        const unsigned n = setup_fields(cfg, reg, v[i], fld);
        json_obj(j, spu_reg_name(reg));
        json_wide(j, "value", v[i], 64);
        for (unsigned k = 0; k < n; k++)
            json_wide(j, fld[k].name, fld[k].value, fld[k].msb - fld[k].lsb + 1);
        json_close(j);
    }
    json_close(j);
}

static void json_knobs(json_t *j, const spu_opts_t *o, const spu_config_t *cfg)
{
    const uint32_t given = setup_knobs_given(o);
    json_obj(j, "knobs");
    for (int k = 0; k < SPU_NKNOBS; k++)
        json_u64(j, spu_knob_name(k), cfg->knob[k]);
    json_close(j);
    json_obj(j, "knobs_given"); /* those set with --knob */
    for (int k = 0; k < SPU_NKNOBS; k++)
        if ((given >> k) & 1u)
            json_u64(j, spu_knob_name(k), cfg->knob[k]);
    json_close(j);
}

void stats_json_setup(json_t *j, const spu_opts_t *o, const spu_setup_t *s, const spu_model_t *m,
                      const spu_stats_t *st)
{
    json_obj(j, "setup");
    json_filters(j, &s->cfg, m, st);
    json_knobs(j, o, &s->cfg);
    if (s->have_pev) {
        setup_period_t p;
        setup_period(o, s, &p);
        json_obj(j, "perf_event");
        json_str(j, "event", o->perf_event);
        json_u64(j, "period_asked", p.asked);
        json_str(j, "period_source", p.source);
        json_u64(j, "period_programmed", p.programmed);
        json_str(j, "period_rule", p.rule);
        json_close(j);
    }
    json_close(j);
}
