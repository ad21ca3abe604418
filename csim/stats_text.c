/* csim --stats: the counts of stats.c and the set-up of stats_setup.c for
 * people, on stderr (stats_text.h). */
#include <inttypes.h>

#include "spt.h"
#include "stats_text.h"

/* The control that enables each rec_why reason (SPU_WHY_* order). */
static const char *const why_control[STATS_NWHY] = {
    "PMSFCR_EL1.FT", "PMSFCR_EL1.FE", "PMSFCR_EL1.FnE", "PMSFCR_EL1.FL", "PMSFCR_EL1.FDS", "PMBLIMITR_EL1.FM",
};

/* "REG 0x...  F=v ..." with every field the configuration has (a field
 * that is the whole register is the value). */
static void print_reg(FILE *f, const spu_config_t *cfg, int reg, uint64_t v)
{
    setup_field_t fld[SETUP_MAX_FIELDS];
    const unsigned n = setup_fields(cfg, reg, v, fld);
    fprintf(f, "  %-13s 0x%016" PRIx64, spu_reg_name(reg), v);
    for (unsigned i = 0; i < n; i++)
        if (fld[i].msb - fld[i].lsb < 16)
            fprintf(f, " %s=%" PRIu64, fld[i].name, fld[i].value);
        else if (fld[i].msb - fld[i].lsb < 63)
            fprintf(f, " %s=0x%" PRIx64, fld[i].name, fld[i].value);
    fputc('\n', f);
}

/* The type filter's terms (spu_type_ctrl_mask()): one of the OR part's
 * types, and the mask's types set as the AND part says. */
static void print_types_filter(FILE *f, const spu_config_t *cfg, uint64_t fcr)
{
    uint32_t ctrl, mask;
    char any[32], set[32], of[32];
    spu_type_ctrl_mask(cfg, fcr, &ctrl, &mask);
    spt_type_str((uint8_t)(ctrl & ~mask), any, sizeof any);
    fprintf(f, "  type filter: %s%s%s", any[0] ? "one of {" : "any type", any, any[0] ? "}" : "");
    if (mask) {
        spt_type_str((uint8_t)(ctrl & mask), set, sizeof set);
        spt_type_str((uint8_t)mask, of, sizeof of);
        fprintf(f, ", and of {%s} exactly {%s}", of, set);
    }
    fputc('\n', f);
}

static void print_filters(FILE *f, const spu_config_t *cfg, const spu_model_t *m, const spu_stats_t *st)
{
    uint64_t v[STATS_NFREGS];
    setup_filter_regs(m, v);
    fprintf(f, "filters at the end of the run (records met %" PRIu64 " set-up%s of these registers%s):\n",
            st->setups, st->setups == 1 ? "" : "s", st->setups > 1 ? "; the counts below add them up" : "");
    for (int i = 0; i < STATS_NFREGS; i++)
        if (cfg->present[stats_freg[i]])
            print_reg(f, cfg, stats_freg[i], v[i]);
    print_types_filter(f, cfg, v[STATS_FREG_PMSFCR_EL1]);
}

static void print_knobs(FILE *f, const spu_opts_t *o, const spu_config_t *cfg)
{
    const uint32_t given = setup_knobs_given(o);
    const spu_config_t *named = spu_config_find(cfg->name);
    fprintf(f, "knobs");
    if (!given)
        fprintf(f, " as configuration %s (none set with --knob)", cfg->name);
    for (int k = 0; k < SPU_NKNOBS; k++)
        if ((given >> k) & 1u)
            fprintf(f, " %s=%" PRIu32 " (--knob; %s: %" PRIu32 ")", spu_knob_name(k), cfg->knob[k], cfg->name,
                    named ? named->knob[k] : cfg->knob[k]);
    fputc('\n', f);
}

/* --perf-event: the event and its period; the generator knobs that apply. */
static void print_stimulus(FILE *f, const spu_opts_t *o, const spu_setup_t *s)
{
    char gp[512];
    if (s->have_pev) {
        setup_period_t p;
        setup_period(o, s, &p);
        fprintf(f, "perf-event %s\n  period %" PRIu64 " asked for (%s), %" PRIu64 " programmed (PMSIRR_EL1.INTERVAL)",
                o->perf_event, p.asked, p.source, p.programmed);
        if (p.rule)
            fprintf(f, ": %s", p.rule);
        fprintf(f, "; PMSICR_EL1 starts at %" PRIu64 "\n", p.asked);
    }
    if (!s->have_trace) {
        gen_params_print(&s->gp, gp, sizeof gp);
        fprintf(f, "generator %s%s\n", gp, s->have_pev ? " (the knobs that apply: the driver programs the unit)" : "");
    }
}

void stats_print_setup(FILE *f, const spu_opts_t *o, const spu_setup_t *s, const spu_model_t *m,
                       const spu_stats_t *st)
{
    print_stimulus(f, o, s);
    print_knobs(f, o, &s->cfg);
    print_filters(f, &s->cfg, m, st);
}

static void print_reasons(FILE *f, const spu_stats_t *s, const spl_log_t *log)
{
    uint64_t alone = 0;
    for (int b = 0; b < STATS_NWHY; b++)
        alone += s->only[b];
    fprintf(f, "records %" PRIu64 ": kept %" PRIu64 ", rejected %" PRIu64 " (by one reason alone %" PRIu64
               ", by several %" PRIu64 ")\n",
            log->kept + log->rejected, log->kept, log->rejected, alone, s->several);
    fprintf(f, "  %-8s %-17s %10s %10s\n", "reason", "control", "rejected", "alone");
    for (int b = 0; b < STATS_NWHY; b++) {
        char w[16];
        spl_why_str(1u << b, w, sizeof w);
        fprintf(f, "  %-8s %-17s %10" PRIu64 " %10" PRIu64 "\n", w, why_control[b], log->why[b], s->only[b]);
    }
    fprintf(f, "  (rejected: every record with the reason; alone: those that turning its control off would keep)\n");
}

static void print_types(FILE *f, const spu_stats_t *s)
{
    fprintf(f, "  %-18s %10s %10s\n", "op type", "kept", "rejected");
    for (unsigned t = 0; t < STATS_NTYPES; t++) {
        if (!s->kept[t] && !s->rejected[t])
            continue;
        char n[32];
        spt_type_str((uint8_t)t, n, sizeof n);
        fprintf(f, "  %-18s %10" PRIu64 " %10" PRIu64 "\n", t ? n : "(none)", s->kept[t], s->rejected[t]);
    }
}

/* Rows of a linear histogram, a marker line before the first row from
 * `edge` on (when mark is not NULL). */
static void print_rows(FILE *f, const lhist_t *h, uint64_t edge, const char *mark)
{
    lhist_row_t row[LHIST_ROWS];
    uint64_t w, peak = 1;
    const unsigned n = lhist_rows(h, edge, row, &w);
    for (unsigned r = 0; r < n; r++)
        if (row[r].count > peak)
            peak = row[r].count;
    int marked = !mark;
    for (unsigned r = 0; r < n; r++) {
        if (!marked && row[r].lo >= edge) {
            fprintf(f, "  %s\n", mark);
            marked = 1;
        }
        fprintf(f, "  [%10" PRIu64 ", %10" PRIu64 "]", row[r].lo, row[r].hi);
        spl_bar(f, row[r].count, peak);
    }
    if (!marked)
        fprintf(f, "  %s\n", mark);
}

static void print_latency(FILE *f, const spu_stats_t *s, const spu_model_t *m)
{
    if (!s->lat.n)
        return;
    const uint32_t minlat = spu_minlat(m->reg);
    const int fl = (m->reg[SPU_REG_PMSFCR_EL1] & SPU_F_PMSFCR_EL1_FL_MASK) != 0;
    char mark[160];
    snprintf(mark, sizeof mark, "---------- MINLAT %" PRIu32 " (PMSFCR_EL1.FL %d%s)", minlat, fl,
             fl ? ": the latency filter rejects the records above this line" : ": no latency filter");
    fprintf(f, "total latency of the records (cycles): min %" PRIu64 " max %" PRIu64 ", below MINLAT %" PRIu64
               ", at or above %" PRIu64 "\n",
            s->lat.min, s->lat.max, lhist_below(&s->lat, minlat), s->lat.n - lhist_below(&s->lat, minlat));
    print_rows(f, &s->lat, minlat, mark);
}

/* Bucket b holds intervals 2^b .. 2^(b+1) - 1. */
static void interval_label(FILE *f, unsigned b)
{
    fprintf(f, "  [%10" PRIu64 ", %10" PRIu64 "]", (uint64_t)1 << b, ((uint64_t)2 << b) - 1);
}

static void print_intervals(FILE *f, const spu_stats_t *s)
{
    if (!s->nint) {
        fprintf(f, "sample intervals: fewer than two selections\n");
        return;
    }
    fprintf(f, "sample intervals (members between selections): n %" PRIu64 " mean %.2f min %" PRIu64
               " max %" PRIu64 "\n",
            s->nint, (double)s->sum / (double)s->nint, s->ilin.min, s->ilin.max);
    fprintf(f, " log2:\n");
    spl_histogram(f, s->bucket, STATS_BUCKETS, interval_label);
    fprintf(f, " linear:\n");
    print_rows(f, &s->ilin, 0, NULL);
}

void stats_print(const spu_stats_t *s, const spl_log_t *log, const spu_model_t *m, FILE *f)
{
    fprintf(f, "samples %" PRIu64 "  collisions %" PRIu64 "  records kept %" PRIu64 "  rejected %" PRIu64
               "  reads %" PRIu64 "\n",
            log->samples, log->collisions, log->kept, log->rejected, log->reads);
    fprintf(f, "cycles with several selections %" PRIu64 "\n", log->multi);
    print_reasons(f, s, log);
    print_types(f, s);
    print_latency(f, s, m);
    spl_print_records(log, f);
    fprintf(f, "PMU totals:\n");
    for (int i = 0; i < SPU_NPMU; i++)
        if (spu_pmu_implemented(log->cfg, i))
            fprintf(f, "  %-20s %" PRIu64 "\n", spu_pmu_name(i), log->pmu[i]);
    print_intervals(f, s);
}
