/* spu-csim --report: the run as one HTML page (sim/report.h; docs/formats.md). */
#ifndef SPU_CSIM_HTML_H
#define SPU_CSIM_HTML_H

#include "report.h"

/* What spu-csim ran, for the page's run table. */
typedef struct csim_ran {
    const char *result;          /* as --stats-json's "result" */
    uint64_t cycles, ops, members;
    double seconds;
} csim_ran_t;

/* The page to f: the run table, then report.h's parts. */
void csim_report(FILE *f, const report_run_t *r, const csim_ran_t *ran);

#endif
