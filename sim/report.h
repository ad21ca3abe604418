/*
 * The part of a run's --report (an HTML page, html.h) that spu-csim and
 * spu-tb share: the configuration and its knobs, the registers decoded by
 * their fields, the statistics of stats.h as plots (intervals, latency
 * against MINLAT, what each filter rejected, kept and rejected per op
 * type, the records' packets by kind), the records' counts and the PMU
 * totals. Each front end adds its own run table and extras
 * (docs/formats.md, "The run report").
 */
#ifndef SPU_REPORT_H
#define SPU_REPORT_H

#include "html.h"
#include "setup.h"
#include "spl.h"
#include "stats.h"

typedef struct report_run {
    const spu_opts_t *o;
    const spu_setup_t *s;
    const uint64_t *regs;        /* the registers at the end (SPU_NREGS) */
    const spu_stats_t *st;
    const spl_log_t *log;
} report_run_t;

/* The stimulus's row values: "trace" or "seed", and which. */
void report_stimulus(const report_run_t *r, const char **what, char *which, size_t len);
/* The configuration, its knobs and the registers decoded. */
void report_setup(html_t *h, const report_run_t *r);
/* The plots, the records' counts and the PMU totals. */
void report_stats(html_t *h, const report_run_t *r);

#endif
