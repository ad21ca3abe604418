/*
 * The golden model's fast entry points, for csim and spu-tb: the same
 * outputs and state as the reference spu_model_step() (spu_model.h) at a
 * fraction of the cost where a cycle, or a run of cycles, is plain (no
 * reset, register access, issue or finish, no write beat queued, no
 * enable edge, no member selected). A testbench that uses the model as
 * its scoreboard needs none of them. tests/spec/spec_skip.c steps each
 * against spu_model_step_full() side by side.
 */
#ifndef SPU_FAST_H
#define SPU_FAST_H

#include "spu_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* spu_model_step() without its input check: a plain cycle counted as
 * spu_model_skip() counts members, every other through
 * spu_model_step_full(). Returns 1 for a plain cycle, whose outputs are
 * all zero but SAMPLE_POP's count, obs_enabled, obs_pmsicr and pmbirq;
 * else 0. */
int spu_fast_step(spu_model_t *m, const spu_in_t *in, spu_out_t *out);
/* The same cycle through every step of docs/semantics.md, whatever the
 * cycle (what spu_model_step() takes after its input check). */
void spu_model_step_full(spu_model_t *m, const spu_in_t *in, spu_out_t *out);

/* ------------------------------------------------------ skipping ahead */
/* How many population members can be counted from now on with no selection,
 * no random draw and no reload (UINT64_MAX while profiling is disabled). */
uint64_t spu_model_quiet_pops(const spu_model_t *m, uint8_t el, uint8_t prof_allowed);

/* Advance ncycles cycles that carry npops members in all, with no register
 * access, no issue/finish and the same context. Requires that the enable state
 * is settled (spu_model_settled) and npops <= spu_model_quiet_pops(). Returns
 * 0, or -1 (and changes nothing) when the preconditions do not hold. */
int spu_model_skip(spu_model_t *m, uint64_t ncycles, uint64_t npops,
                   uint8_t el, uint8_t prof_allowed);

/* A block of plain cycles, counted one by one (spu_model_block()). */
#define SPU_BLOCK_MAX 256u
typedef struct spu_block {
    uint64_t cycle;                       /* the first cycle's number, as the caller counts (not read) */
    uint8_t el, prof_allowed;             /* the context of every cycle */
    uint8_t pop_mask[SPU_BLOCK_MAX];      /* cycle i's members, by lane */
    uint8_t npop[SPU_BLOCK_MAX];          /* out: the members cycle i counted (0 while disabled) */
    uint64_t pmsicr[SPU_BLOCK_MAX];       /* out: PMSICR_EL1 after cycle i */
} spu_block_t;
/* spu_model_skip() for k cycles (k <= SPU_BLOCK_MAX) one by one, with the
 * outputs that vary: b->pop_mask[i] are the lanes with a member in cycle i,
 * in the context b->el, b->prof_allowed. Each cycle's outputs, as
 * spu_fast_step() would give them (it would return 1 for each), are zero
 * but pmu[SPU_PMU_POP] = b->npop[i], obs_pmsicr = b->pmsicr[i], and
 * obs_enabled and pmbirq, which are those of the cycle before (a plain
 * cycle changes neither). Returns 0, or -1 (and the model is unchanged)
 * when the preconditions of spu_model_skip() do not hold for the members
 * of all k cycles. */
int spu_model_block(spu_model_t *m, spu_block_t *b, unsigned k);

/* 1 when a cycle with this context would be neither an enable nor a disable
 * edge (the enable state it computes equals the previous cycle's) and the
 * Profiling Buffer's write path is empty (no record encoded, no beat queued or shown). */
int spu_model_settled(const spu_model_t *m, uint8_t el, uint8_t prof_allowed);

#ifdef __cplusplus
}
#endif
#endif
