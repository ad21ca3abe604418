/*
 * Seeded random stimulus (docs/generator.md): population members in phases of
 * lane patterns, register programming bursts, enable toggling, mid-run
 * reprogramming and resets. Everything follows from the seed: the same seed
 * gives the same stimulus whether it is consumed cycle by cycle (tb) or in
 * skipped stretches (csim), and an op's attributes depend only on (seed, id).
 */
#ifndef SPU_GEN_H
#define SPU_GEN_H

#include <stdio.h>

#include "stim.h"

/* Knobs of the generator; gen_params_default() draws a profile from the seed,
 * gen_params_set() overrides one ("name=value"). */
typedef struct gen_params {
    uint32_t int_min, int_max;   /* PMSIRR.INTERVAL range */
    uint32_t p_int1;             /* % of programs with INTERVAL = 1 */
    uint32_t p_int0;             /* % of programs with INTERVAL = 0 */
    uint32_t p_rnd;              /* % of programs with RND = 1 */
    uint32_t p_ld, p_st, p_b, p_atomic; /* % op-type mix (rest: other) */
    uint32_t p_fp, p_simd;       /* % of ops with FP / SIMD */
    uint32_t ev_density;         /* per event bit, in 1/1024 */
    uint32_t p_ds;               /* % of ops with a data source */
    uint32_t fin_max;            /* typical finish latency bound */
    uint32_t p_long;             /* per mille of ops with a long latency (collisions, saturation) */
    uint32_t pop_density;        /* % chance of a member per lane per cycle (phases vary around it) */
    uint32_t reprog_gap;         /* mean cycles between reprogramming bursts (0 = never) */
    uint32_t toggle_gap;         /* mean cycles between enable toggles (0 = never) */
    uint32_t read_gap;           /* mean cycles between register reads (0 = never) */
    uint32_t reset_gap;          /* mean cycles between mid-run resets (0 = never) */
    uint32_t p_filter;           /* % of programs that enable each filter */
    uint32_t p_close;            /* % of reprogramming bursts that hammer PMSICR (several selections a cycle) */
    uint32_t p_small_buf;        /* % of Profiling Buffers with room for a few records (they fill) */
    uint32_t p_edge_buf;         /* % of Profiling Buffers at the full test's edges (default 0) */
    /* Not a --gen knob: 1 when something else programs the unit (--perf-event,
     * docs/perf-event.md). The generator then makes no register access and no
     * reset; members and context changes are as usual. */
    uint32_t no_regs;
} gen_params_t;

#define GEN_MAX_PERIOD 16
#define GEN_MAX_ACTIONS 96
/* PMSICR writes in a hammer burst (gen_prog.c), each with every lane
 * populated, queued GEN_HAMMER at a time; a burst from a reset, whose LFSR
 * draws the generator knows, is long enough to reach the first zero draws of
 * the default LFSR_SEED (the 820th is the first). */
#define GEN_HAMMER 64
#define GEN_HAMMER_KNOWN 1280
/* A run of fewer cycles than this (spu-tb --cycles) is a short run: the
 * generator fits its timing, interval and start sequence to the length so
 * that the run samples, keeps and rejects (docs/generator.md). Longer runs,
 * and csim's runs counted in ops, are not touched. */
#define GEN_SHORT_RUN 1000000u
#define GEN_LONG_PHASE 200000u
#define GEN_LONG_LAT 70000u      /* longest latency of a p_long op */

typedef struct gen_action {
    uint8_t kind;                /* 1 reg write, 2 reg read, 3 ctx, 4 reset */
    uint8_t full;                /* the cycle of this action has a member in every lane */
    uint16_t enc;
    uint64_t value;
    uint8_t el, allow;
} gen_action_t;

typedef struct spu_gen {
    const spu_config_t *cfg;
    gen_params_t p;
    uint64_t seed;
    uint64_t rng;                /* stream for phases and actions */
    uint64_t cycle;              /* next cycle to hand out */
    uint64_t end_cycle;          /* stop after this many cycles (UINT64_MAX: no limit) */
    uint64_t end_ops;            /* stop once this many members were handed out */
    uint64_t next_op;            /* id of the next member */
    /* lane pattern of the current phase */
    uint8_t mask[GEN_MAX_PERIOD];
    uint32_t prefix[GEN_MAX_PERIOD + 1];
    uint32_t period;
    uint32_t pat_idx;            /* (cycle - pat_start) % period, kept incrementally */
    uint64_t pat_start, phase_end;
    /* queued actions, one per cycle from next_action on */
    gen_action_t act[GEN_MAX_ACTIONS];
    unsigned nact, iact;
    uint64_t next_action;
    uint64_t next_reprog, next_toggle, next_read, next_reset;
    uint64_t quiet_until;        /* cycles before this carry only members */
    uint32_t phase_max;          /* longest phase (GEN_LONG_PHASE, less in a short run) */
    uint32_t long_lat;           /* longest p_long latency (GEN_LONG_LAT, less in a short run) */
    int short_run;               /* end_cycle < GEN_SHORT_RUN */
    uint32_t ntoggle;            /* enable toggles so far */
    uint64_t last_evfr;          /* PMSEVFR_EL1 last written (an FE/FnE overlap reuses it) */
    uint64_t buf_base, buf_size; /* the Profiling Buffer software set up (PMBPTR_EL1 start, bytes) */
    uint32_t ham_left;           /* hammer attempts still to queue */
    int ham_ernd;                /* the burst selects through ECOUNT */
    int ham_lfsr_known;          /* ham_lfsr is the unit's LFSR (burst from a reset) */
    uint32_t ham_lfsr;
    uint8_t el, allow;
} spu_gen_t;

void gen_params_default(gen_params_t *p, const spu_config_t *cfg, uint64_t seed);
/* "name=value"; 0, or -1 with a message naming the knob. */
int gen_params_set(gen_params_t *p, const char *kv, char *err, size_t errlen);
/* The knobs as name=value,...; with no_regs, only those that still apply. */
void gen_params_print(const gen_params_t *p, char *buf, size_t len);
/* 1 when the knob name[0..n) only shapes the register traffic and resets
 * (none with no_regs: docs/perf-event.md). */
int gen_param_regs_only(const char *name, size_t n);
/* 0, or -1 with a message when the knobs contradict each other. */
int gen_params_check(const gen_params_t *p, char *err, size_t errlen);
void gen_params_help(FILE *f);

void gen_init(spu_gen_t *g, const spu_config_t *cfg, const gen_params_t *p, uint64_t seed,
              uint64_t end_cycle, uint64_t end_ops);
spu_src_t gen_source(spu_gen_t *g);
/* The longest finish latency gen_op() gives a member of this run. */
uint32_t gen_fin_bound(const spu_gen_t *g);
/* Attributes of op id (pure function of seed, params and id). */
void gen_op(const spu_gen_t *g, uint64_t id, spu_op_t *op);

#endif
