/* spu-tb's report of a run's outcome (tb_report.c). */
#ifndef SPU_TB_REPORT_H
#define SPU_TB_REPORT_H

#include "lockstep.h"
#include "setup.h"
#include "tb_opts.h"

/* Failures go to fail/ beside the binary (build/fail for build/spu-tb),
 * wherever it is run from: that directory's path into buf. */
void tb_fail_dir(char *buf, size_t len);

/* What became of the run: an error (2), a difference (its report, the
 * stimulus saved, --wave, --shrink; 1), or a pass (the closing line,
 * vacuity, --stats; 0, or 1 when vacuous); --stats-json in every case,
 * and coverage written for a failing run too. */
int tb_outcome(const tb_opts_t *t, const spu_setup_t *s, const ls_cfg_t *lc, const ls_result_t *r, int argc,
               char **argv);

#endif
