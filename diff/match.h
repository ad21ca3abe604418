/*
 * Transaction-level comparison of two .spl logs (docs/diff.md): the model's
 * and a user's. Sample and collision lines are matched by op id, record
 * lines by op id, read and undef lines by cycle; cycles of sample,
 * collision and record lines may differ within a latency tolerance.
 */
#ifndef SPU_MATCH_H
#define SPU_MATCH_H

#include "spl_read.h"

/* Why a pair of lines (or a line alone) disagrees; one bit each. */
enum match_reason {
    MR_MISSING,       /* the model has the line, theirs does not */
    MR_EXTRA,         /* theirs has a line the model does not */
    MR_DUPLICATE,     /* theirs has a second line for the same op (or cycle) */
    MR_KIND,          /* sample vs collision */
    MR_LANE,
    MR_SLOT,
    MR_KEEP,          /* keep= or why= */
    MR_LAT,           /* tot= or iss= */
    MR_SAMPLE_CYCLE,  /* sample/collision cycle outside the tolerance */
    MR_RECORD_CYCLE,  /* record cycle outside the tolerance */
    MR_READ_UNDEF,    /* read vs undef */
    MR_REGISTER,      /* another register, or w vs r */
    MR_VALUE,         /* another value read */
    MR_PMU,           /* another PMU total */
    MR_N
};

/* What is compared: the class of a line. */
enum match_class { MC_SELECT, MC_RECORD, MC_REG, MC_PMU, MC_N };

/* The tolerances: their cycle minus the model's must lie in min..max. */
typedef struct match_tol {
    int64_t min, max;
} match_tol_t;

typedef struct match_opts {
    match_tol_t sample, record;
    int ignore_reads;          /* read and undef lines are not compared */
} match_opts_t;

#define MATCH_NO_OP UINT64_MAX

/* One disagreement: a line of the model, of theirs, or a pair. */
typedef struct match_dis {
    uint64_t time;             /* where it stands on the model's time line */
    uint64_t op;               /* op id, MATCH_NO_OP for read/undef/pmu */
    const spl_line_t *model, *theirs; /* NULL when that side has none */
    uint32_t reasons;          /* bit per enum match_reason */
    uint8_t cls;               /* enum match_class */
    int8_t pmu;                /* MC_PMU: the event */
} match_dis_t;

typedef struct match_result {
    match_dis_t *dis;          /* every disagreement, first one first */
    size_t n, cap;
    uint64_t count[MR_N][MC_N]; /* disagreements per reason and class */
    uint64_t matched[MC_N];    /* lines of the model that theirs has, agreeing */
    uint64_t model_lines[MC_N];
    /* MC_SELECT, MC_RECORD: the pairs of lines (both logs have one) and the
     * least and most of their cycle less the model's over them */
    uint64_t pairs[MC_N];
    int64_t dmin[MC_N], dmax[MC_N];
    int failed;                /* out of memory */
} match_result_t;

/* The op ids of theirs against the model's shifted by a constant: how many of
 * their sample, collision and record lines agree with the model's line for
 * their op id less `shift`, and how many they have. */
typedef struct match_shift {
    int64_t shift;             /* theirs = model + shift (0: no shift found) */
    uint64_t agree, lines;
} match_shift_t;

/* Compare theirs with the model's log; 0, or -1 when out of memory. */
int match_logs(const spl_file_t *model, const spl_file_t *theirs, const match_opts_t *o, match_result_t *r);
void match_free(match_result_t *r);
/* The likeliest shift of their op ids (the commonest difference between the
 * k-th op id of their sample and collision lines and the model's), and how
 * many lines agree under it. 0, or -1 when out of memory. */
int match_op_shift(const spl_file_t *model, const spl_file_t *theirs, const match_opts_t *o, match_shift_t *sh);
const char *match_reason_name(int reason);
const char *match_class_name(int cls);

#endif
