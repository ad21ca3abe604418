/*
 * The golden model's runs behind spu-diff, through the run loop csim uses
 * (run.h): the whole stimulus once for the model's .spl log, and again, a
 * cycle at a time, up to the first disagreement for the state there and
 * the stimulus just before it.
 */
#ifndef SPU_REPLAY_H
#define SPU_REPLAY_H

#include <stdio.h>

#include "setup.h"
#include "run.h"

#define REPLAY_MEMBERS 8    /* the last population members kept */
#define REPLAY_ACCESSES 16  /* the last register accesses, resets and context changes kept */

/* A population member and what the model made of it. */
typedef struct replay_member {
    uint64_t cycle, op;
    uint8_t lane;
    uint8_t fate;            /* 0 nothing, 1 sample, 2 collision */
    uint8_t slot;            /* of a sample */
} replay_member_t;

enum { RA_WRITE, RA_READ, RA_RESET, RA_CTX };

/* A register access, reset or context change of the stimulus. */
typedef struct replay_access {
    uint64_t cycle, wdata, rdata;
    uint16_t enc;
    uint8_t kind;            /* RA_* */
    uint8_t undef;
    uint8_t el, allow;       /* RA_CTX: the new context */
} replay_access_t;

typedef struct replay {
    spu_run_t run;
    spu_model_t model;
    spt_cursor_t cursor;     /* the state of a fresh source (opts_fresh_source()) */
    spu_gen_t gen;
    pev_src_t pev;
    unsigned mem_stall;      /* --mem-stall */
    /* replay_until(): the history before the stop */
    replay_member_t mem[REPLAY_MEMBERS];
    uint64_t nmem;           /* members seen in all */
    replay_access_t acc[REPLAY_ACCESSES];
    uint64_t nacc;           /* accesses, resets and context changes seen in all */
    uint8_t el, allow;       /* the context last seen */
} replay_t;

/* The whole stimulus of s (its own source s->src) through a fresh model,
 * the .spl log to `log`, skipping ahead as csim does. 0, or -1 with the
 * message printed. */
int replay_log(replay_t *p, const spu_setup_t *s, FILE *log);
/* The stimulus of s again from its start, through a fresh model, a cycle at
 * a time, up to the start of cycle `stop` (or its end): p->model is then
 * the state before that cycle, p->run.core the ops in flight, p->mem and
 * p->acc the last members and accesses. 0, or -1 with the message printed. */
int replay_until(replay_t *p, const spu_setup_t *s, uint64_t stop);
/* After replay_until(): op `id` as the trace gives it, into *op; 0, or -1
 * when the source cannot say. */
int replay_op(const replay_t *p, uint64_t id, spu_op_t *op);
/* The same as the keys of a trace's `op` line (" type=LD ev=0x2 ..."; empty
 * when unknown), into buf. */
void replay_op_keys(const replay_t *p, uint64_t id, char *buf, size_t len);

#endif
