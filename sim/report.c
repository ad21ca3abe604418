/* The shared part of the run report (report.h). */
#include <inttypes.h>
#include <stdio.h>

#include "report.h"
#include "spt.h"
#include "stats_setup.h"

/* A number as a table cell. */
#define NUM(buf, v) (snprintf(buf, sizeof buf, "%" PRIu64, (uint64_t)(v)), buf)

void report_stimulus(const report_run_t *r, const char **what, char *which, size_t len)
{
    *what = r->s->have_trace ? "trace" : "seed";
    if (r->s->have_trace)
        snprintf(which, len, "%s", r->o->trace);
    else
        snprintf(which, len, "%" PRIu64, r->o->seed);
}

static void setup_knobs(html_t *h, const report_run_t *r)
{
    const spu_config_t *cfg = &r->s->cfg;
    const uint32_t given = setup_knobs_given(r->o);
    char v[24];
    html_tag(h, "h2", "Configuration %s: knobs", cfg->name);
    html_table(h, 3, "knob", "value", "set with --knob");
    for (int k = 0; k < SPU_NKNOBS; k++)
        html_row(h, 3, spu_knob_name(k), NUM(v, cfg->knob[k]), (given >> k) & 1u ? "yes" : "");
    html_table_end(h);
}

/* "F=v ..." of register reg's fields the configuration has. */
static void reg_fields(const spu_config_t *cfg, int reg, uint64_t v, char *buf, size_t len)
{
    setup_field_t fld[SETUP_MAX_FIELDS];
    const unsigned n = setup_fields(cfg, reg, v, fld);
    size_t k = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < n && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, fld[i].msb - fld[i].lsb < 16 ? "%s%s=%" PRIu64 : "%s%s=0x%" PRIx64,
                              i ? " " : "", fld[i].name, fld[i].value);
}

void report_setup(html_t *h, const report_run_t *r)
{
    const spu_config_t *cfg = &r->s->cfg;
    char val[24], fields[512];
    setup_knobs(h, r);
    html_tag(h, "h2", "Registers at the end of the run, decoded");
    html_table(h, 3, "register", "value", "fields");
    for (int i = 0; i < SPU_NREGS; i++) {
        if (!cfg->present[i])
            continue;
        snprintf(val, sizeof val, "0x%016" PRIx64, r->regs[i]);
        reg_fields(cfg, i, r->regs[i], fields, sizeof fields);
        html_row(h, 3, spu_reg_name(i), val, fields);
    }
    html_table_end(h);
    if (r->s->have_pev) {
        setup_period_t p;
        char a[24], g[24];
        setup_period(r->o, r->s, &p);
        html_tag(h, "h2", "perf event");
        html_table(h, 5, "event", "period asked", "from", "programmed (PMSIRR_EL1.INTERVAL)", "rule");
        html_row(h, 5, r->o->perf_event, NUM(a, p.asked), p.source, NUM(g, p.programmed), p.rule ? p.rule : "");
        html_table_end(h);
    }
}

/* The rows of a linear histogram as bars; the index of the first row from
 * mark on (rows when none is). */
static unsigned rows_bars(const lhist_t *lh, uint64_t edge, html_bar_t *bar, uint64_t mark, int *at)
{
    lhist_row_t row[LHIST_ROWS];
    uint64_t w;
    const unsigned n = lhist_rows(lh, edge, row, &w);
    *at = (int)n;
    for (unsigned i = 0; i < n; i++) {
        if (w == 1)
            snprintf(bar[i].label, HTML_LABEL, "%" PRIu64, row[i].lo);
        else
            snprintf(bar[i].label, HTML_LABEL, "%" PRIu64 "-%" PRIu64, row[i].lo, row[i].hi);
        bar[i].v[0] = row[i].count;
        bar[i].v[1] = 0;
        if (row[i].lo >= mark && *at == (int)n)
            *at = (int)i;
    }
    return n;
}

static void plot_intervals(html_t *h, const spu_stats_t *st)
{
    html_bar_t bar[STATS_BUCKETS];
    unsigned n = 0, lo = STATS_BUCKETS, hi = 0;
    int at;
    for (unsigned b = 0; b < STATS_BUCKETS; b++)
        if (st->bucket[b]) {
            lo = b < lo ? b : lo;
            hi = b;
        }
    for (unsigned b = lo; b <= hi && lo < STATS_BUCKETS; b++, n++) {
        snprintf(bar[n].label, HTML_LABEL, "%" PRIu64 "-%" PRIu64, (uint64_t)1 << b, ((uint64_t)2 << b) - 1);
        bar[n].v[0] = st->bucket[b];
    }
    html_plot(h, &(html_plot_t){.id = "intervals_log2", .title = "Intervals between selections (log2)",
                                .xlabel = "members between selections", .ylabel = "intervals",
                                .series = {"intervals"}, .bar = bar, .n = n, .mark = -1});
    n = rows_bars(&st->ilin, 0, bar, UINT64_MAX, &at);
    html_plot(h, &(html_plot_t){.id = "intervals_linear", .title = "Intervals between selections (linear)",
                                .xlabel = "members between selections", .ylabel = "intervals",
                                .series = {"intervals"}, .bar = bar, .n = n, .mark = -1});
}

static void plot_latency(html_t *h, const spu_stats_t *st, const uint64_t *regs)
{
    html_bar_t bar[LHIST_ROWS];
    char mark[48];
    const uint32_t minlat = spu_minlat(regs);
    int at;
    const unsigned n = rows_bars(&st->lat, minlat, bar, minlat, &at);
    snprintf(mark, sizeof mark, "MINLAT %" PRIu32, minlat);
    html_plot(h, &(html_plot_t){.id = "latency", .title = "Records' total latency",
                                .xlabel = "total latency (cycles)", .ylabel = "records", .series = {"records"},
                                .bar = bar, .n = n, .mark = minlat ? at : -1, .mark_label = mark});
}

static void plot_filters(html_t *h, const spu_stats_t *st, const spl_log_t *log)
{
    html_bar_t bar[STATS_NWHY];
    for (int b = 0; b < STATS_NWHY; b++) {
        spl_why_str(1u << b, bar[b].label, HTML_LABEL);
        bar[b].v[0] = st->only[b];
        bar[b].v[1] = log->why[b];
    }
    html_plot(h, &(html_plot_t){.id = "filters", .title = "Records each filter rejected",
                                .xlabel = "filter (reason)", .ylabel = "records",
                                .series = {"rejected alone", "rejected"}, .bar = bar, .n = STATS_NWHY, .mark = -1});
}

static void plot_types(html_t *h, const spu_stats_t *st)
{
    html_bar_t bar[STATS_NTYPES];
    unsigned n = 0;
    for (unsigned t = 0; t < STATS_NTYPES; t++) {
        if (!st->kept[t] && !st->rejected[t])
            continue;
        spt_type_str((uint8_t)t, bar[n].label, HTML_LABEL);
        if (!t)
            snprintf(bar[n].label, HTML_LABEL, "none");
        bar[n].v[0] = st->kept[t];
        bar[n++].v[1] = st->rejected[t];
    }
    html_plot(h, &(html_plot_t){.id = "op_types", .title = "Records per op type", .xlabel = "op type",
                                .ylabel = "records", .series = {"kept", "rejected"}, .bar = bar, .n = n,
                                .mark = -1});
}

static void plot_packets(html_t *h, const spu_stats_t *st)
{
    html_bar_t bar[STATS_NPKT];
    for (int k = 0; k < STATS_NPKT; k++) {
        snprintf(bar[k].label, HTML_LABEL, "%s", stats_pkt_name(k));
        bar[k].v[0] = st->pkt[k];
    }
    html_plot(h, &(html_plot_t){.id = "packets", .title = "Packets of the records written",
                                .xlabel = "packet", .ylabel = "packets", .series = {"packets"}, .bar = bar,
                                .n = STATS_NPKT, .mark = -1});
}

static void table_counts(html_t *h, const report_run_t *r)
{
    const spl_log_t *l = r->log;
    char a[24], b[24];
    html_tag(h, "h2", "Selections and records");
    html_table(h, 2, "count", "value");
    html_row(h, 2, "samples", NUM(a, l->samples));
    html_row(h, 2, "collisions", NUM(a, l->collisions));
    html_row(h, 2, "cycles with several selections", NUM(a, l->multi));
    html_row(h, 2, "records kept", NUM(a, l->kept));
    html_row(h, 2, "records rejected", NUM(a, l->rejected));
    html_row(h, 2, "records rejected by several filters", NUM(a, r->st->several));
    html_row(h, 2, "records written to the Profiling Buffer", NUM(a, l->rec_written));
    html_row(h, 2, "bytes written", NUM(a, l->rec_bytes));
    html_row(h, 2, "records that did not decode", NUM(a, r->st->pkt_bad));
    html_table_end(h);
    html_tag(h, "h2", "PMU totals");
    html_table(h, 2, "event", "total");
    for (int i = 0; i < SPU_NPMU; i++)
        if (spu_pmu_implemented(&r->s->cfg, i))
            html_row(h, 2, spu_pmu_name(i), NUM(b, l->pmu[i]));
    html_table_end(h);
}

void report_stats(html_t *h, const report_run_t *r)
{
    html_tag(h, "h2", "Plots");
    fputs("<div class=\"plots\">\n", h->f);
    plot_intervals(h, r->st);
    plot_latency(h, r->st, r->regs);
    plot_filters(h, r->st, r->log);
    plot_types(h, r->st);
    plot_packets(h, r->st);
    fputs("</div>\n", h->f);
    table_counts(h, r);
}
