/*
 * One run of stimulus through the unit: stimulus source + core model + .spl
 * log, cycle by cycle. csim steps only the golden model; tb also steps the
 * DUT and compares. Both use run_inputs()/run_observe() so they see the same
 * cycles and write the same log; csim may also run_skip() ahead.
 */
#ifndef SPU_RUN_H
#define SPU_RUN_H

#include <string.h>

#include "core.h"
#include "spu_fast.h" /* run_skip(), run_block(): the model's fast entry points */
#include "mem.h"
#include "spl.h"
#include "spt.h"

typedef struct spu_run {
    const spu_config_t *cfg;
    spu_src_t src;
    spu_core_t core;
    spl_log_t log;
    spt_writer_t *emit;      /* optional: write the stimulus as a .spt */
    uint64_t cycle;          /* next cycle to run */
    uint8_t el, allow;       /* context in force */
    int src_done;
    FILE *rec_f;             /* optional: every record's bytes, back to back */
    FILE *rec_txt;           /* optional: every record's packets as text (docs/records.md) */
    /* The Profiling Buffer's memory side (docs/buffer.md) */
    unsigned mem_stall;      /* percent of cycles in which the memory stalls (mem_ready = 0) */
    unsigned stray;          /* percent of cycles with stray issue/finish events (core_stray()) */
    spu_mem_t *mem;          /* optional: the memory the write beats go to */
    int check_stream;        /* the beats must write the records of run_records(), in order */
    uint8_t beat_valid, beat_strb; /* the beat shown in this cycle (last cycle's outputs) */
    uint64_t beat_addr, beat_data;
    uint8_t mem_busy;        /* the last outputs showed a beat or queued a record, or bytes
                                are still expected (beat_valid implies it) */
    uint8_t hold;            /* a layer between the stimulus and the unit still has work (spu-tb
                                --apb: register accesses queued for the bus): keep draining */
    struct spu_stats *stats; /* optional: the run's statistics, counted per selection and record (stats.h) */
    const spu_model_t *stats_m; /* the model whose filter registers the records met */
    /* Kept records not yet written or discarded (docs/buffer.md): their
     * slots in finish order, the order they enter the write queue (rec_q,
     * rec_qn; bit s of rec_waited once slot s's has waited a cycle);
     * rec_fin[s] is the finish that built slot s's, on port rec_port[s] in
     * cycle rec_cycle[s]. */
    uint8_t rec_q[SPU_MAX_SLOTS], rec_qn;
    uint8_t rec_waited;
    uint8_t rec_port[SPU_MAX_SLOTS];
    uint64_t rec_cycle[SPU_MAX_SLOTS];
    core_slot_t rec_fin[SPU_MAX_SLOTS];
    uint8_t exp[2048];       /* bytes of the queued records not yet written (a ring) */
    unsigned exp_head, exp_n;
    uint8_t exp_len[64];     /* their lengths (a ring) */
    unsigned len_head, len_n;
    unsigned rec_left;       /* bytes of the record being written still to come */
    uint64_t next_addr;      /* where its next byte goes */
    char err[320];           /* why run_observe()/run_skip() failed */
} spu_run_t;

void run_init(spu_run_t *r, const spu_config_t *cfg, spu_src_t src, FILE *log,
              spt_writer_t *emit);
/* The inputs of the next cycle: 1; 0 when the stimulus has ended and every
 * sampled op has finished (the run is over); -1 with r->err set when the
 * stimulus could not be written to the emitted trace. */
int run_inputs(spu_run_t *r, spu_cyc_t *cy, spu_in_t *in);
/* Check the unit's (model's) outputs against the core model, log the cycle
 * and advance; 0, or -1 with r->err set. */
int run_observe_full(spu_run_t *r, const spu_cyc_t *cy, const spu_in_t *in, const spu_out_t *out);
/* The write port of the cycle: the beat shown is taken when the memory is
 * ready; the outputs show the next (run_observe() calls it). 0, or -1 with
 * r->err set when the beats break the records' order or bytes. */
int run_mem_full(spu_run_t *r, const spu_cyc_t *cy, const spu_in_t *in, const spu_out_t *out);
static inline int run_observe(spu_run_t *r, const spu_cyc_t *cy, const spu_in_t *in, const spu_out_t *out)
{
    if ((r->mem_busy | out->mem_valid | out->rec_wr) && run_mem_full(r, cy, in, out))
        return -1;
    if (cy->reset | out->smp_valid | out->col_valid | out->rec_valid | in->reg_valid)
        return run_observe_full(r, cy, in, out);
    /* Most cycles: nothing for the core model to learn, no log line. */
    if (out->pmbirq && r->src.observe)
        r->src.observe(r->src.self, out);
    r->cycle++;
    spl_pmu_add(&r->log, out);
    return 0;
}
/* Skip ahead over plain cycles (no register access, no context change, no
 * reset, no issue or finish event) in which the model m can neither select
 * nor draw: the source, the model, the cycle count and the log's counters
 * move together. Sets *skipped (0 when nothing could be skipped, and always
 * while a trace is being emitted). 0, or -1 with r->err set. */
int run_skip_full(spu_run_t *r, spu_model_t *m, uint64_t *skipped);
static inline int run_skip(spu_run_t *r, spu_model_t *m, uint64_t *skipped)
{
    if (r->src_done || r->emit || !r->src.skip) {
        *skipped = 0;
        return 0;
    }
    return run_skip_full(r, m, skipped);
}
/* The plain cycles run_skip() would skip, handed out one by one for a DUT
 * to be stepped through (spu-tb's blocks, docs/performance.md): up to max
 * cycles whose inputs are those of the cycle before but their members and
 * timestamp (in->ts is the cycle's number; no reset, register access,
 * context change, issue or finish; the memory ready and nothing for the
 * write port or the core model to see), counted by m into b. The source,
 * the model, the cycle count and the log's counters move together, as
 * run_observe() would have moved them. Returns how many (0 when the next
 * cycle is not such a cycle, with nothing changed), or UINT_MAX with
 * r->err set; b->cycle is the first cycle's number. */
unsigned run_block(spu_run_t *r, spu_model_t *m, unsigned max, spu_block_t *b);
/* Count the records of cycle cy: those built (out.rec_len), those that
 * entered the write queue (out.rec_wr; the model's bytes of the slot,
 * spu_model_record()), those that wait and those discarded; write the
 * bytes of those entering to r->rec_f and their packets to r->rec_txt, and
 * expect them on the write port; call it after run_observe() of the same
 * cycle. 0, or -1 with r->err set on a write error. */
int run_records_full(spu_run_t *r, const spu_cyc_t *cy, const spu_out_t *out, const spu_model_t *m);
static inline int run_records(spu_run_t *r, const spu_cyc_t *cy, const spu_out_t *out, const spu_model_t *m)
{
    uint32_t any;
    _Static_assert(SPU_MAX_SLOTS == sizeof any, "rec_len is read as one word");
    memcpy(&any, out->rec_len, sizeof any);
    return any | out->rec_wr | r->rec_qn ? run_records_full(r, cy, out, m) : 0;
}
/* Close the log with the pmu line. */
void run_finish(spu_run_t *r);
/* At the end of a run: every record queued for the Profiling Buffer was
 * written (run_inputs() drains the queue). 0, or -1 with r->err set. */
int run_check_end(spu_run_t *r);
/* --mem-bin: r->mem's written bytes to f. 0, or -1 with r->err set. */
int run_write_mem(spu_run_t *r, FILE *f);

#endif
