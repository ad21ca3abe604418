/* The line lexer of the .spt trace format (spt_lex.c), public: spu-diff's
 * .spl reader (diff/spl_read.c) uses it too, so both formats spell their
 * tokens, numbers and register names alike and report errors as
 * FILE:LINE:COL the same way. */
#ifndef SPU_SPT_LEX_H
#define SPU_SPT_LEX_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SPT_MAX_CYCLE ((uint64_t)INT64_MAX)

typedef struct {
    const char *s;
    size_t n;
} tok_t;

/* A line reader's state: where an error points (path, line, ls) and where
 * it goes (err), and the .spt parser's own state (the rest). */
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
