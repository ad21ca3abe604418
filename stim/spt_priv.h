/* Private to the .spt reader, replay and writer (spt_*.c). */
#ifndef SPU_SPT_PRIV_H
#define SPU_SPT_PRIV_H

#include "spt.h"

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

#define SPT_MAX_CYCLE ((uint64_t)INT64_MAX)

typedef struct {
    const char *s;
    size_t n;
} tok_t;

typedef struct {
    const char *path;
    const char *ls;         /* start of the current line */
    uint64_t line;
    char *err;
    size_t errlen;
    uint64_t cur;           /* current cycle */
    uint8_t el, allow;      /* context state */
    int content;            /* a content line has been seen */
    int have_cfg;
    uint64_t cfg_line;
    int version;            /* from line 1 */
} parser_t;

/* The ops[] entry (spt_trace_t) holding op id `id` (id < t->nops). */
size_t spt_rec_of(const spt_trace_t *t, uint64_t id);

/* Lexing (spt_lex.c). Each returns 0, or -1 with the error in p->err. */
int spt_fail(parser_t *p, const char *at, const char *fmt, ...);
const char *spt_show(char *buf, size_t len, const char *s, size_t n);
#define SHOW(b, t) spt_show(b, sizeof b, (t).s, (t).n)
int spt_next_tok(const char **cur, const char *le, tok_t *t);
int spt_tok_is(tok_t t, const char *w);
/* A literal keyword or key name. */
#define TOK_IS(t, lit) ((t).n == sizeof(lit) - 1 && memcmp((t).s, lit, sizeof(lit) - 1) == 0)
enum { NUM_OK, NUM_BAD, NUM_BIG };
/* Decimal or 0x hex filling the whole token: NUM_OK, NUM_BAD or NUM_BIG. */
int spt_parse_num(const char *s, size_t n, uint64_t *v);
/* A number in lo..hi; `range` spells the range for the message. */
int spt_get_range(parser_t *p, const char *at, const char *what, tok_t v, uint64_t lo,
                  uint64_t hi, const char *range, uint64_t *out);
int spt_get_u64(parser_t *p, const char *at, const char *what, tok_t v, uint64_t *out);
int spt_get_reg(parser_t *p, tok_t t, uint16_t *enc);

#endif
