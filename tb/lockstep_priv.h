/*
 * What the lockstep loop (lockstep.c) keeps apart: the check of the DUT's
 * outputs of one cycle; and in lockstep_check.c, the start and end of a
 * run. Internal to tb/.
 */
#ifndef SPU_LOCKSTEP_PRIV_H
#define SPU_LOCKSTEP_PRIV_H

#include <stdio.h>
#include <string.h>

#include "lockstep.h"

/* The DUT's write beat shown (its outputs before). */
typedef struct ls_beat {
    uint8_t valid, strb;
    uint64_t addr, data;
} ls_beat_t;

/* A difference in cycle e's outputs: r filled, with the APB outputs (dapb,
 * mapb; NULL without --apb). Out of line, once a run. */
int ls_dut_differs(const ls_hist_t *e, const spu_out_t *dout, const spu_apb_out_t *dapb,
                   const spu_apb_out_t *mapb, ls_result_t *r);

/* The DUT's write beat: the one shown (the outputs before) is taken into
 * its memory when the memory is ready in this cycle; the outputs of this
 * cycle show the next. 0, or -1 (r->err set) when memory runs out. */
static inline int ls_dut_beat(ls_beat_t *b, spu_mem_t *dmem, const spu_in_t *in, const spu_out_t *dout,
                              ls_result_t *r)
{
    if (b->valid && in->mem_ready && in->rst_n && mem_write(dmem, b->addr, b->data, b->strb)) {
        r->status = LS_ERROR;
        snprintf(r->err, sizeof r->err, "out of memory for the DUT's Profiling Buffer pages");
        return -1;
    }
    if ((b->valid = dout->mem_valid)) {
        b->addr = dout->mem_addr;
        b->data = dout->mem_data;
        b->strb = dout->mem_strb;
    }
    return 0;
}

/* The DUT's outputs of cycle e (its inputs and the model's outputs): the
 * write beat and every output (a record's bytes are compared as the write
 * beats that carry them, and in the memory at the end). 1 when the run
 * stops here (r->status set: a difference, or LS_ERROR). */
static inline __attribute__((always_inline)) int ls_dut_check(const ls_hist_t *e, const spu_out_t *dout,
                                                              int apb_differs, const spu_apb_out_t *dapb,
                                                              const spu_apb_out_t *mapb, ls_beat_t *b,
                                                              spu_mem_t *dmem, ls_result_t *r)
{
    if (ls_dut_beat(b, dmem, &e->in, dout, r))
        return 1;
    r->cycles++;
    if (!cmp_equal(dout, &e->out) || apb_differs)
        return ls_dut_differs(e, dout, dapb, mapb, r);
    return 0;
}

/* Seconds on a monotonic clock. */
double ls_now(void);
/* The progress line, rewritten in place (the last one stays, with a
 * newline): r->cycles cycles in the time since t0. */
void ls_progress(const ls_cfg_t *c, const ls_result_t *r, const spu_run_t *run, double t0);
/* A run's result cleared, and the golden model set up: 0, or -1 with
 * r->status LS_ERROR and r->err saying why. */
int ls_start(const ls_cfg_t *c, spu_model_t *m, ls_result_t *r);
/* Before the first cycle: the run (its source, log and record files, and
 * --report's statistics of the model m's records) and
 * the memory each side's write port writes, the model's (mmem) and the
 * DUT's (dmem). */
void ls_begin_run(const ls_cfg_t *c, spu_src_t src, spu_run_t *run, const spu_model_t *m, spu_mem_t *mmem,
                  spu_mem_t *dmem);
/* After the last cycle: the checks at the end (every queued record
 * written, the DUT's memory equal to the model's), --mem-bin, the log's
 * last line, and what r reports of the model and the run; frees the two
 * memories. */
void ls_end_run(const ls_cfg_t *c, spu_run_t *run, const spu_model_t *m, spu_mem_t *mmem, spu_mem_t *dmem,
                ls_result_t *r);

/* --apb (lockstep_apb.c): the bus master, the wrapper's model, and the APB
 * inputs and outputs of the cycle (the outputs shown: the last step's). */
typedef struct ls_apb {
    apb_master_t bus;
    spu_apb_t ma;
    spu_apb_in_t ai;
    spu_apb_out_t dapb, mapb;
} ls_apb_t;
/* NULL without --apb, or on no memory (r->status LS_ERROR then). */
ls_apb_t *ls_apb_open(const ls_cfg_t *c, ls_result_t *r);
/* Its statistics into r; frees a (NULL is ignored). */
void ls_apb_close(ls_apb_t *a, ls_result_t *r);
/* The DUT's step with the bus: the stimulus's access queued, the APB
 * inputs of the cycle, the access the wrapper presents given to the model
 * (in->reg_*). 0, or -1 when the queue is full (r->status LS_ERROR, r->err
 * says so). */
int ls_apb_step(ls_apb_t *a, const ls_cfg_t *c, spu_dut_t *d, spu_in_t *in, spu_out_t *dout, spu_run_t *run,
                uint64_t cycle, ls_result_t *r);
/* After the model's step (or the DUT's, --dut-only): the wrapper's model
 * clocked, the --inject of an APB output, and the APB outputs compared.
 * 1 when they differ (r->diff gets them after the unit's). */
int ls_apb_after(ls_apb_t *a, const ls_cfg_t *c, const spu_in_t *in, const spu_out_t *out, uint64_t cycle,
                 ls_result_t *r);

/* The DUT of a run, created (piped: behind the input stage, its outputs
 * one step late; full_clock: eval() on both clock edges), its mutant made
 * live and reset: NULL with r->status LS_ERROR and r->err on failure. */
spu_dut_t *ls_open_dut(const ls_cfg_t *c, int full_clock, int piped, ls_result_t *r);

/* The end of a run of either loop: its seconds, the last progress line,
 * the APB statistics, ls_end_run(), what r says of the DUT (evaluations
 * since evals0, its clocking, the mutant), the wave closed and the DUT
 * destroyed. */
void ls_close(const ls_cfg_t *c, spu_run_t *run, const spu_model_t *m, spu_mem_t *mmem, spu_mem_t *dmem,
              spu_dut_t *d, ls_apb_t *ap, int tracing, uint64_t evals0, double t0, ls_result_t *r);

/* The fast loop (lockstep_fast.c): the reference loop's results (lockstep.c),
 * with the DUT behind its input stage and clocked in one evaluation,
 * quiet cycles checked in place and, with blocks, runs of plain cycles
 * stepped at once (golden/spu_fast.h). */
void ls_fast_run(const ls_cfg_t *c, spu_src_t src, ls_result_t *r, int blocks);

#endif
