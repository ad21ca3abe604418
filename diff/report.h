/*
 * What spu-diff prints (docs/diff.md): one line when the logs agree; else
 * one disagreement in full (the first, or --show N) with the model's state there and the stimulus
 * before it, the next disagreements, and a count per reason.
 */
#ifndef SPU_REPORT_H
#define SPU_REPORT_H

#include <stdio.h>

#include "diff_opts.h"
#include "match.h"
#include "replay.h"

typedef struct report {
    const diff_opts_t *o;
    const spu_setup_t *s;
    const spl_file_t *model, *theirs;
    const match_result_t *res;
    size_t at;            /* the disagreement reported in full: res->dis[at] */
    replay_t *p;          /* replayed up to that disagreement (report_disagree()) */
} report_t;

void report_agree(FILE *f, const report_t *r);
void report_disagree(FILE *f, const report_t *r);

#endif
