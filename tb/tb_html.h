/* spu-tb --report: the run as one HTML page (sim/report.h; docs/formats.md):
 * what was checked, and on a difference its signals over the last cycles
 * as a small waveform. */
#ifndef SPU_TB_HTML_H
#define SPU_TB_HTML_H

#include "lockstep.h"
#include "setup.h"
#include "tb_opts.h"

/* The page to s->report_f; result as --stats-json's "result". */
void tb_html(const tb_opts_t *t, const spu_setup_t *s, const ls_cfg_t *lc, const ls_result_t *r,
             const char *result);

#endif
