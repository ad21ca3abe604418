/*
 * The lockstep checker: DUT and golden model on the same inputs, every output
 * compared on every cycle, stop at the first difference.
 */
#ifndef SPU_LOCKSTEP_H
#define SPU_LOCKSTEP_H

#include "apb_master.h"
#include "compare.h"
#include "cov.h"
#include "dut.h"
#include "run.h"

#define LS_HISTORY 32
/* Slots of the ring: more than LS_HISTORY, for the cycle being built while
 * the one before is checked; a power of two, so the index is a mask. */
#define LS_RING (2 * LS_HISTORY)
_Static_assert((LS_RING & (LS_RING - 1)) == 0 && LS_RING > LS_HISTORY, "LS_RING: a power of two above LS_HISTORY");

/* One cycle of history. Until the failing cycle the DUT's outputs equal the
 * model's, so only one copy is kept (this is written every cycle). */
typedef struct ls_hist {
    uint64_t cycle;
    spu_in_t in;
    spu_out_t out;
} ls_hist_t;

typedef struct ls_cfg {
    const spu_dut_vtbl_t *vt;
    const spu_config_t *cfg;
    uint64_t init_seed;          /* +verilator+seed */
    FILE *log;                   /* .spl (NULL: none) */
    int progress;                /* a progress line on stderr ... */
    uint64_t progress_total;     /* ... of this many stimulus cycles (0: unknown) */
    const char *inject;          /* flip this model output ... */
    uint64_t inject_cycle;       /* ... in this cycle */
    int full_clock;              /* DUT: an eval on each clock edge */
    const char *wave;            /* FST path, written for cycles [wave_from, wave_to] */
    uint64_t wave_from, wave_to;
    int dut_only;                /* bench: no model, no compare */
    spu_cov_t *cov;              /* functional coverage of the run (NULL: off) */
    FILE *rec_f;                 /* the records' bytes (NULL: off) */
    FILE *rec_txt;               /* the records as text (NULL: off) */
    FILE *mem_f;                 /* the memory the Profiling Buffer wrote (NULL: off) */
    unsigned mem_stall;          /* percent of cycles the memory stalls the write port */
    unsigned stray;              /* percent of cycles with stray issue/finish events */
    int64_t mutant;              /* mutsel of a mutant build (-1: not a mutant run) */
    int apb;                     /* vt is spu_apb: register accesses over APB (apb_master.h) */
    /* 1: the reference loop (--reference, lockstep.c), the checker's
     * specification: spu_top's own timing clocked on both edges, every
     * cycle stepped and compared whole. 0: the fast loop (lockstep_fast.c),
     * which must give the same logs, records and reports. */
    int reference;
    /* The fast loop: 1, no blocks of plain cycles (--no-skip). Else it
     * steps runs of plain cycles at once (run_block(), step_block()) when
     * lockstep_rerun_refusal() allows; a run that takes a block and does
     * not pass is run again by the reference loop from a fresh source, for
     * its report, writing its own copies of the output files in a new
     * directory under rerun_dir (none when NULL); the user's files keep
     * what the fast run wrote. */
    int no_blocks;
    spu_src_t (*fresh_source)(void *ctx); /* blocks: the stimulus again, from its start */
    void *fresh_ctx;
    const char *rerun_dir;
    struct spu_stats *stats;     /* --report: the run's statistics, counted per selection and record (NULL: off) */
} ls_cfg_t;

/* LS_STOPPED: SIGINT stopped the run (interrupt.h); what it checked passed. */
enum { LS_PASS = 0, LS_DIFF = 1, LS_CORE = 2, LS_ERROR = 3, LS_STOPPED = 4 };

typedef struct ls_result {
    int status;
    uint64_t cycles;             /* cycles run (and compared) */
    uint64_t quiet;              /* of them, checked in place as quiet cycles (dut.h) */
    uint64_t blocks;             /* of those, in blocks of plain cycles (ls_cfg_t.no_blocks) */
    uint64_t fail_cycle;
    int injected;                /* the --inject flip happened */
    int ndiff;
    cmp_diff_t diff[CMP_MAX_DIFFS];
    ls_hist_t hist[LS_RING];     /* ring: the last cycles up to the failure (cycle k in slot k % LS_RING) */
    spu_out_t fail_dut, fail_model; /* the outputs of the failing cycle */
    uint64_t nhist;
    uint64_t nhist_block;        /* nhist at the last block of plain cycles (which has no entries) */
    uint64_t regs[SPU_NREGS];    /* model registers after the failing cycle */
    uint32_t lfsr;
    spl_log_t log;               /* counts: samples, kept, rejected, PMU */
    double seconds;
    uint64_t evals;              /* eval() calls of the DUT in the run */
    const char *clocking;        /* how the DUT's clocks were raised (dut.h's clocking_says) */
    uint64_t mem_bytes;          /* bytes the Profiling Buffer wrote (equal in DUT and model) */
    int mutant_activated;        /* mutant runs: the mutated site changed a value */
    apb_stats_t apb;             /* --apb: what the bus master did */
    int rerun;                   /* 1: a fast run with blocks did not pass after checking
                                    rerun_cycles cycles (rerun_blocks of them in blocks):
                                    this is its run again by the reference loop */
    uint64_t rerun_cycles, rerun_blocks;
    char rerun_why[200];         /* why it stopped: a difference at cycle N, or an error */
    char rerun_dir[4200];        /* where the run again wrote its files ("" : nowhere) */
    char err[320];
} ls_result_t;

/* Run src through DUT and model; fills r (status LS_ERROR with r->err when
 * the DUT or the model could not be set up). Re-entrant: all state is in c,
 * r and the stack. */
void lockstep_run(const ls_cfg_t *c, spu_src_t src, ls_result_t *r);

/* Why c cannot take blocks of plain cycles, whose failing runs are run
 * again from the start by the reference loop, or NULL: an option whose
 * work runs with the DUT or after a failure, or a stimulus that cannot
 * start again. */
const char *lockstep_rerun_refusal(const ls_cfg_t *c);

#endif
