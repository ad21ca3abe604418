/* Private to the .spt reader, replay and writer (spt_*.c). */
#ifndef SPU_SPT_PRIV_H
#define SPU_SPT_PRIV_H

#include "spt.h"
#include "spt_lex.h"

/* One cycle that carries something (op, register access, reset or a ctx
 * line), or a run of cycles from an `op*N` line (rep > 0). Cycles between
 * items are empty and keep the context. */
struct spt_item {
    uint64_t cycle;
    uint64_t rep;           /* 0: the one cycle `cycle`; R > 0: cycles cycle..cycle+R-1,
                               each with one member in the lane of pop_mask, op ids
                               first_op, first_op+1, ... (the middle of an op*N) */
    uint64_t first_op;      /* id of the member in the lowest set lane */
    uint64_t wdata;
    uint16_t enc;
    uint8_t flags;          /* IT_* */
    uint8_t pop_mask;
    uint8_t next_lane;      /* parser: next free lane */
    uint8_t el, allow;      /* context in force in this cycle */
};

enum { IT_RESET = 1, IT_REG = 2, IT_WRITE = 4, IT_CTX_EL = 8, IT_CTX_ALLOW = 16 };

/* Where each `op` line was written, for spt_check_config(), and how many
 * members it stands for (N of op*N, else 1). */
struct spt_oploc {
    uint64_t count;
    uint32_t line;
    uint32_t col;           /* of `op`, or of `lane=` when explicit */
    uint8_t lane;
    uint8_t explicit_lane;
};

/* The parser's shared pieces (spt.c), for the op line (spt_op.c). */
/* Grow *a (cap elements of elsz bytes) to hold need: 0, or -1 (no memory). */
int spt_grow(void **a, size_t *cap, size_t need, size_t elsz);
/* A new item at the end, for the current cycle; NULL (reported) on no memory. */
spt_item_t *spt_next_item(parser_t *p, spt_trace_t *t);
/* The item of the current cycle, created when needed. */
spt_item_t *spt_cur_item(parser_t *p, spt_trace_t *t);
/* -1 (reported) when the line has a token after `after`. */
int spt_no_more(parser_t *p, const char **cur, const char *le, const char *after);
/* Split key=value; -1 (reported) when there is no '='. */
int spt_split_kv(parser_t *p, tok_t x, tok_t *k, tok_t *v);
/* An `op` (or `op*N`, rep = N) line from s to le (spt_op.c): 0, or -1
 * (reported). */
int spt_line_op(parser_t *p, spt_trace_t *t, tok_t kw, uint64_t rep, const char *s, const char *le);

/* The ops[] entry (spt_trace_t) holding op id `id` (id < t->nops). */
size_t spt_rec_of(const spt_trace_t *t, uint64_t id);

#endif
