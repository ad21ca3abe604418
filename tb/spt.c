/*
 * .spt stimulus traces: parser, replay source and writer. The format is
 * documented in docs/formats.md.
 *
 * The whole file is read into one buffer and parsed in place: no allocation
 * per line; the item and op arrays grow by doubling. Every defect is an error
 * "FILE:LINE:COL: error: ..." with COL (1-based, bytes) at the offending token.
 */
#include "spl.h"
#include "spt.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* One cycle that carries something (op, register access, reset or a ctx
 * line). Cycles between items are empty and keep the context. */
struct spt_item {
    uint64_t cycle;
    uint64_t first_op;      /* id of the member in the lowest set lane */
    uint64_t wdata;
    uint16_t enc;
    uint8_t flags;          /* IT_* */
    uint8_t pop_mask;
    uint8_t next_lane;      /* parser: next free lane */
    uint8_t el, allow;      /* context in force in this cycle */
};

enum { IT_RESET = 1, IT_REG = 2, IT_WRITE = 4, IT_CTX_EL = 8, IT_CTX_ALLOW = 16 };

/* Where each op was written, for spt_check_config(). */
struct spt_oploc {
    uint32_t line;
    uint32_t col;           /* of `op`, or of `lane=` when explicit */
    uint8_t lane;
    uint8_t explicit_lane;
};

#define SPT_MAX_CYCLE ((uint64_t)INT64_MAX)

/* ------------------------------------------------------------ registers */

/* Register names are the golden model's (spu_reg_by_name); the s-form of an
 * unknown encoding is spl_reg_str()'s, so traces and logs spell alike. */
static int reg_lookup(const char *s, size_t n, uint16_t *enc)
{
    char name[32];
    if (n >= sizeof name)
        return 0;
    memcpy(name, s, n);
    name[n] = '\0';
    const int idx = spu_reg_by_name(name);
    if (idx < 0)
        return 0;
    *enc = spu_reg_enc(idx);
    return 1;
}

static void reg_str(uint16_t enc, char *buf, size_t len)
{
    spl_reg_str(enc, buf, len);
}

/* -------------------------------------------------------------- parsing */

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
} parser_t;

static int fail(parser_t *p, const char *at, const char *fmt, ...)
{
    if (p->err && p->errlen) {
        uint64_t col = at ? (uint64_t)(at - p->ls) + 1 : 1;
        int k = snprintf(p->err, p->errlen, "%s:%" PRIu64 ":%" PRIu64 ": error: ", p->path,
                         p->line, col);
        if (k >= 0 && (size_t)k < p->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(p->err + k, p->errlen - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

/* Printable, bounded copy of a token for a message. */
static const char *show(char *buf, size_t len, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    for (size_t i = 0; i < n && o + 8 < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i >= 40) {
            buf[o++] = '.', buf[o++] = '.', buf[o++] = '.';
            break;
        }
        if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
            buf[o++] = (char)c;
        } else {
            buf[o++] = '\\', buf[o++] = 'x';
            buf[o++] = hex[c >> 4], buf[o++] = hex[c & 15];
        }
    }
    buf[o] = 0;
    return buf;
}
#define SHOW(b, t) show(b, sizeof b, (t).s, (t).n)

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Next token of [*cur, le): runs of characters other than white space; a
 * `#` ends the line. 0 when there is none. */
static int next_tok(const char **cur, const char *le, tok_t *t)
{
    const char *s = *cur;
    while (s < le && is_ws(*s))
        s++;
    if (s == le || *s == '#') {
        *cur = le;
        return 0;
    }
    const char *b = s;
    while (s < le && !is_ws(*s) && *s != '#')
        s++;
    t->s = b;
    t->n = (size_t)(s - b);
    *cur = s;
    return 1;
}

static int tok_is(tok_t t, const char *w)
{
    size_t n = strlen(w);
    return t.n == n && memcmp(t.s, w, n) == 0;
}
/* The same for a string literal, without strlen. */
#define TOK_IS(t, lit) ((t).n == sizeof(lit) - 1 && memcmp((t).s, lit, sizeof(lit) - 1) == 0)

enum { NUM_OK, NUM_BAD, NUM_BIG };

/* Decimal or 0x hex, the whole token. */
static int parse_num(const char *s, size_t n, uint64_t *v)
{
    uint64_t x = 0;
    int big = 0;
    if (n == 0)
        return NUM_BAD;
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        if (n == 2)
            return NUM_BAD;
        for (size_t i = 2; i < n; i++) {
            unsigned c = (unsigned char)s[i], d;
            if (c >= '0' && c <= '9')
                d = c - '0';
            else if (c >= 'a' && c <= 'f')
                d = c - 'a' + 10;
            else if (c >= 'A' && c <= 'F')
                d = c - 'A' + 10;
            else
                return NUM_BAD;
            if (x >> 60)
                big = 1;
            x = x << 4 | d;
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            unsigned c = (unsigned char)s[i];
            if (c < '0' || c > '9')
                return NUM_BAD;
            if (x > (UINT64_MAX - (c - '0')) / 10)
                big = 1;
            x = x * 10 + (c - '0');
        }
    }
    if (big)
        return NUM_BIG;
    *v = x;
    return NUM_OK;
}

/* A number in lo..hi; `what` names it in messages, `at` is the token the
 * column points at, v the value text. */
static int get_range(parser_t *p, const char *at, const char *what, tok_t v, uint64_t lo,
                     uint64_t hi, const char *range, uint64_t *out)
{
    char b[200];
    int r = parse_num(v.s, v.n, out);
    if (r == NUM_BAD)
        return fail(p, at, "%s '%s' is not a number (decimal or 0x hex)", what, SHOW(b, v));
    if (r == NUM_BIG || *out < lo || *out > hi)
        return fail(p, at, "%s %s out of range %s", what, SHOW(b, v), range);
    return 0;
}

static int get_u64(parser_t *p, const char *at, const char *what, tok_t v, uint64_t *out)
{
    char b[200];
    int r = parse_num(v.s, v.n, out);
    if (r == NUM_BAD)
        return fail(p, at, "%s '%s' is not a number (decimal or 0x hex)", what, SHOW(b, v));
    if (r == NUM_BIG)
        return fail(p, at, "%s '%s' does not fit in 64 bits", what, SHOW(b, v));
    return 0;
}

/* s<op0>_<op1>_c<CRn>_c<CRm>_<op2>; 1 = this form (ok or error reported via
 * *bad), 0 = not this form at all. */
static int parse_sform(parser_t *p, tok_t t, uint16_t *enc, int *bad)
{
    static const char *const fname[5] = {"op0", "op1", "CRn", "CRm", "op2"};
    static const unsigned fmax[5] = {3, 7, 15, 15, 7};
    static const unsigned fshift[5] = {14, 11, 7, 3, 0};
    const char *s = t.s, *e = t.s + t.n;
    unsigned f[5];
    char b[200];
    *bad = 0;
    if (t.n < 2 || (s[0] != 's' && s[0] != 'S') || s[1] < '0' || s[1] > '9')
        return 0;
    s++;
    for (int i = 0; i < 5; i++) {
        if (i > 0) {
            if (s == e || *s != '_')
                goto malformed;
            s++;
        }
        if (i == 2 || i == 3) {
            if (s == e || (*s != 'c' && *s != 'C'))
                goto malformed;
            s++;
        }
        if (s == e || *s < '0' || *s > '9')
            goto malformed;
        unsigned v = 0;
        while (s < e && *s >= '0' && *s <= '9') {
            if (v < 1000)
                v = v * 10 + (unsigned)(*s - '0');
            s++;
        }
        f[i] = v;
    }
    if (s != e)
        goto malformed;
    for (int i = 0; i < 5; i++)
        if (f[i] > fmax[i]) {
            fail(p, t.s, "%s in '%s' out of range 0..%u", fname[i], SHOW(b, t), fmax[i]);
            *bad = 1;
            return 1;
        }
    *enc = 0;
    for (int i = 0; i < 5; i++)
        *enc = (uint16_t)(*enc | f[i] << fshift[i]);
    return 1;
malformed:
    fail(p, t.s, "malformed register encoding '%s' (expected s<op0>_<op1>_c<CRn>_c<CRm>_<op2>)",
         SHOW(b, t));
    *bad = 1;
    return 1;
}

static int get_reg(parser_t *p, tok_t t, uint16_t *enc)
{
    char b[200];
    int bad;
    if (reg_lookup(t.s, t.n, enc))
        return 0;
    if (parse_sform(p, t, enc, &bad))
        return bad ? -1 : 0;
    return fail(p, t.s, "unknown register '%s'", SHOW(b, t));
}

static int grow(void **a, size_t *cap, size_t need, size_t elsz)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 1024;
    while (n < need)
        n *= 2;
    void *x = realloc(*a, n * elsz);
    if (!x)
        return -1;
    *a = x;
    *cap = n;
    return 0;
}

/* The item of the current cycle, created when needed. */
static spt_item_t *cur_item(parser_t *p, spt_trace_t *t)
{
    if (t->nitems && t->items[t->nitems - 1].cycle == p->cur)
        return &t->items[t->nitems - 1];
    void *a = t->items;
    if (grow(&a, &t->cap, t->nitems + 1, sizeof *t->items)) {
        fail(p, p->ls, "out of memory");
        return NULL;
    }
    t->items = a;
    spt_item_t *it = &t->items[t->nitems++];
    memset(it, 0, sizeof *it);
    it->cycle = p->cur;
    it->first_op = t->nops;
    it->el = p->el;
    it->allow = p->allow;
    return it;
}

static int no_more(parser_t *p, const char **cur, const char *le, const char *after)
{
    tok_t x;
    char b[200];
    if (next_tok(cur, le, &x))
        return fail(p, x.s, "unexpected '%s' after %s", SHOW(b, x), after);
    return 0;
}

static int line_magic(parser_t *p, const char *s, const char *le)
{
    tok_t m, v;
    char b[200];
    if (!next_tok(&s, le, &m))
        return fail(p, p->ls, "expected 'spu-trace 1' as the first line");
    if (!TOK_IS(m, "spu-trace"))
        return fail(p, m.s, "expected 'spu-trace 1' as the first line, got '%s'", SHOW(b, m));
    if (!next_tok(&s, le, &v))
        return fail(p, m.s + m.n, "expected a version after 'spu-trace'");
    if (!TOK_IS(v, "1"))
        return fail(p, v.s, "unsupported trace version '%s' (this reader knows 'spu-trace 1')",
                    SHOW(b, v));
    return no_more(p, &s, le, "'spu-trace 1'");
}

static int line_cfg(parser_t *p, spt_trace_t *t, tok_t kw, const char *s, const char *le)
{
    tok_t n;
    char b[200];
    if (p->have_cfg)
        return fail(p, kw.s, "second cfg line (the first is on line %" PRIu64 ")", p->cfg_line);
    if (p->content)
        return fail(p, kw.s, "cfg must come before every other line but 'spu-trace 1'");
    if (!next_tok(&s, le, &n))
        return fail(p, kw.s + kw.n, "cfg needs a configuration name");
    const spu_config_t *c = NULL;
    for (unsigned i = 0; i < spu_nconfigs; i++)
        if (tok_is(n, spu_configs[i].name))
            c = &spu_configs[i];
    if (!c || strlen(c->name) >= sizeof t->cfg) {
        char known[256];
        size_t o = 0;
        known[0] = 0;
        for (unsigned i = 0; i < spu_nconfigs && o < sizeof known; i++) {
            int k = snprintf(known + o, sizeof known - o, "%s%s", i ? ", " : "",
                             spu_configs[i].name);
            if (k < 0)
                break;
            o += (size_t)k;
        }
        return fail(p, n.s, "unknown configuration '%s' (known: %s)", SHOW(b, n), known);
    }
    snprintf(t->cfg, sizeof t->cfg, "%s", c->name);
    p->have_cfg = 1;
    p->cfg_line = p->line;
    t->cfg_line = p->line > UINT32_MAX ? UINT32_MAX : (uint32_t)p->line;
    t->cfg_col = (uint32_t)(n.s - p->ls) + 1;
    return no_more(p, &s, le, "the configuration name");
}

static int line_at(parser_t *p, tok_t kw, const char *s, const char *le)
{
    tok_t v = {kw.s + 1, kw.n - 1};
    uint64_t c;
    char b[200];
    int r = parse_num(v.s, v.n, &c);
    if (r == NUM_BAD)
        return fail(p, kw.s, "bad cycle '%s' (expected @N, N decimal or 0x hex)", SHOW(b, kw));
    if (r == NUM_BIG || c > SPT_MAX_CYCLE)
        return fail(p, kw.s, "cycle %s out of range 0..%" PRIu64, SHOW(b, v), SPT_MAX_CYCLE);
    if (c < p->cur)
        return fail(p, kw.s, "cycle %" PRIu64 " is before the current cycle %" PRIu64, c, p->cur);
    p->cur = c;
    return no_more(p, &s, le, "the cycle");
}

static int line_reg(parser_t *p, spt_trace_t *t, tok_t kw, const char *s, const char *le)
{
    int write = kw.s[0] == 'w';
    tok_t r, v;
    uint16_t enc = 0;
    uint64_t val = 0;
    if (!next_tok(&s, le, &r))
        return fail(p, kw.s + kw.n, "missing register after '%c'", kw.s[0]);
    if (get_reg(p, r, &enc))
        return -1;
    if (write) {
        if (!next_tok(&s, le, &v))
            return fail(p, r.s + r.n, "missing value to write");
        if (get_u64(p, v.s, "value", v, &val))
            return -1;
    }
    if (no_more(p, &s, le, write ? "the value" : "the register"))
        return -1;
    spt_item_t *it = cur_item(p, t);
    if (!it)
        return -1;
    if (it->flags & IT_RESET)
        return fail(p, kw.s, "register access in reset cycle %" PRIu64
                             " (a reset cycle carries no op or register access)", p->cur);
    if (it->flags & IT_REG)
        return fail(p, kw.s, "second register access in cycle %" PRIu64
                             " (the register port takes one access per cycle)", p->cur);
    it->flags |= IT_REG | (write ? IT_WRITE : 0);
    it->enc = enc;
    it->wdata = val;
    return 0;
}

/* Split key=value; -1 (reported) when there is no '='. */
static int split_kv(parser_t *p, tok_t x, tok_t *k, tok_t *v)
{
    char b[200];
    const char *eq = memchr(x.s, '=', x.n);
    if (!eq)
        return fail(p, x.s, "expected key=value, got '%s'", SHOW(b, x));
    k->s = x.s;
    k->n = (size_t)(eq - x.s);
    v->s = eq + 1;
    v->n = x.n - k->n - 1;
    return 0;
}

static int line_ctx(parser_t *p, spt_trace_t *t, tok_t kw, const char *s, const char *le)
{
    tok_t x, k, v;
    int seen = 0;
    uint64_t el = 0, allow = 0;
    char b[200];
    while (next_tok(&s, le, &x)) {
        if (split_kv(p, x, &k, &v))
            return -1;
        int bit;
        if (TOK_IS(k, "el"))
            bit = 1;
        else if (TOK_IS(k, "allow"))
            bit = 2;
        else
            return fail(p, x.s, "unknown ctx key '%s' (expected el, allow)", SHOW(b, k));
        if (seen & bit)
            return fail(p, x.s, "duplicate ctx key '%s'", SHOW(b, k));
        seen |= bit;
        if (bit == 1 ? get_range(p, x.s, "el", v, 0, 3, "0..3", &el)
                     : get_range(p, x.s, "allow", v, 0, 1, "0..1", &allow))
            return -1;
    }
    if (!seen)
        return fail(p, kw.s, "ctx needs el=N and/or allow=B");
    spt_item_t *it = cur_item(p, t);
    if (!it)
        return -1;
    if (((seen & 1) && (it->flags & IT_CTX_EL)) || ((seen & 2) && (it->flags & IT_CTX_ALLOW)))
        return fail(p, kw.s, "ctx %s set twice in cycle %" PRIu64,
                    (seen & 1) && (it->flags & IT_CTX_EL) ? "el" : "allow", p->cur);
    if (seen & 1) {
        it->flags |= IT_CTX_EL;
        it->el = p->el = (uint8_t)el;
    }
    if (seen & 2) {
        it->flags |= IT_CTX_ALLOW;
        it->allow = p->allow = (uint8_t)allow;
    }
    return 0;
}

static int parse_type(parser_t *p, tok_t x, tok_t v, uint8_t *type)
{
    static const char *const names[5] = {"B", "LD", "ST", "FP", "SIMD"}; /* spu_type_bit */
    char b[200], b2[200];
    *type = 0;
    if (TOK_IS(v, "-"))
        return 0;
    const char *s = v.s, *e = v.s + v.n;
    for (;;) {
        const char *q = memchr(s, '+', (size_t)(e - s));
        tok_t n = {s, (size_t)((q ? q : e) - s)};
        int bit = -1;
        for (int i = 0; i < 5; i++)
            if (tok_is(n, names[i]))
                bit = i;
        if (n.n == 0)
            return fail(p, x.s, "empty name in type '%s'", SHOW(b, v));
        if (TOK_IS(n, "-"))
            return fail(p, x.s, "type '-' (none) cannot be combined with others in '%s'",
                        SHOW(b, v));
        if (bit < 0)
            return fail(p, x.s, "unknown op type '%s' in '%s' (expected LD, ST, B, FP, SIMD or -)",
                        SHOW(b, n), SHOW(b2, v));
        if (*type & (1u << bit))
            return fail(p, x.s, "op type %s given twice in '%s'", names[bit], SHOW(b, v));
        *type = (uint8_t)(*type | 1u << bit);
        if (!q)
            return 0;
        s = q + 1;
    }
}

enum { K_TYPE = 1, K_EV = 2, K_DS = 4, K_ISS = 8, K_FIN = 16, K_LANE = 32 };

static int line_op(parser_t *p, spt_trace_t *t, tok_t kw, const char *s, const char *le)
{
    static const char *const kname[6] = {"type", "ev", "ds", "iss", "fin", "lane"};
    spu_op_t op = {0};
    tok_t x, k, v;
    int seen = 0;
    const char *at_iss = NULL, *at_fin = NULL, *at_lane = NULL;
    uint64_t val, lane = 0;
    char b[200];
    op.iss = op.fin = 1;
    while (next_tok(&s, le, &x)) {
        if (split_kv(p, x, &k, &v))
            return -1;
        int i = 6;
        switch (k.n) {
        case 2: i = TOK_IS(k, "ev") ? 1 : TOK_IS(k, "ds") ? 2 : 6; break;
        case 3: i = TOK_IS(k, "iss") ? 3 : TOK_IS(k, "fin") ? 4 : 6; break;
        case 4: i = TOK_IS(k, "type") ? 0 : TOK_IS(k, "lane") ? 5 : 6; break;
        default: break;
        }
        if (i == 6)
            return fail(p, x.s, "unknown op key '%s' (expected type, ev, ds, iss, fin, lane)",
                        SHOW(b, k));
        if (seen & (1 << i))
            return fail(p, x.s, "duplicate op key '%s'", kname[i]);
        seen |= 1 << i;
        switch (1 << i) {
        case K_TYPE:
            if (parse_type(p, x, v, &op.type))
                return -1;
            break;
        case K_EV:
            if (get_u64(p, x.s, "ev", v, &op.ev))
                return -1;
            break;
        case K_DS:
            if (!TOK_IS(v, "-")) {
                if (get_range(p, x.s, "ds", v, 0, 0xFFFF, "0..0xffff (or - for none)", &val))
                    return -1;
                op.ds_valid = 1;
                op.ds = (uint16_t)val;
            }
            break;
        case K_ISS:
        case K_FIN:
            if (get_range(p, x.s, kname[i], v, 1, SPU_OP_MAX_LAT, "1..16777215", &val))
                return -1;
            if (i == 3)
                op.iss = (uint32_t)val, at_iss = x.s;
            else
                op.fin = (uint32_t)val, at_fin = x.s;
            break;
        default:
            if (get_range(p, x.s, "lane", v, 0, SPU_MAX_LANES - 1, "0..7", &lane))
                return -1;
            at_lane = x.s;
            break;
        }
    }
    if (op.fin < op.iss)
        return fail(p, at_fin ? at_fin : at_iss, "fin %" PRIu32 " < iss %" PRIu32, op.fin,
                    op.iss);
    spt_item_t *it = cur_item(p, t);
    if (!it)
        return -1;
    if (it->flags & IT_RESET)
        return fail(p, kw.s, "op in reset cycle %" PRIu64
                             " (a reset cycle carries no op or register access)", p->cur);
    if (at_lane) {
        if (lane < it->next_lane)
            return fail(p, at_lane, "lane %" PRIu64 " is taken: the next free lane of cycle %" PRIu64
                                    " is %u", lane, p->cur, (unsigned)it->next_lane);
    } else {
        lane = it->next_lane;
        if (lane >= SPU_MAX_LANES)
            return fail(p, kw.s, "too many ops for the %d lanes of cycle %" PRIu64
                                 " (at most %d in any configuration)",
                        SPU_MAX_LANES, p->cur, SPU_MAX_LANES);
    }
    void *a = t->ops;
    size_t cap = t->opcap;
    if (grow(&a, &cap, t->nops + 1, sizeof *t->ops))
        return fail(p, p->ls, "out of memory");
    t->ops = a;
    a = t->oploc;
    if (grow(&a, &t->opcap, t->nops + 1, sizeof *t->oploc))
        return fail(p, p->ls, "out of memory");
    t->oploc = a;
    op.id = t->nops;
    t->ops[t->nops] = op;
    spt_oploc_t *loc = &t->oploc[t->nops];
    const char *at = at_lane ? at_lane : kw.s;
    loc->line = p->line > UINT32_MAX ? UINT32_MAX : (uint32_t)p->line;
    loc->col = (uint64_t)(at - p->ls) + 1 > UINT32_MAX ? UINT32_MAX : (uint32_t)(at - p->ls) + 1;
    loc->lane = (uint8_t)lane;
    loc->explicit_lane = at_lane != NULL;
    t->nops++;
    if (!it->pop_mask)
        it->first_op = op.id;
    it->pop_mask = (uint8_t)(it->pop_mask | 1u << lane);
    it->next_lane = (uint8_t)(lane + 1);
    return 0;
}

static int line_reset(parser_t *p, spt_trace_t *t, tok_t kw, const char *s, const char *le)
{
    if (no_more(p, &s, le, "'reset'"))
        return -1;
    spt_item_t *it = cur_item(p, t);
    if (!it)
        return -1;
    if (it->flags & IT_RESET)
        return fail(p, kw.s, "second reset in cycle %" PRIu64, p->cur);
    if (it->pop_mask || (it->flags & IT_REG))
        return fail(p, kw.s, "reset cannot share cycle %" PRIu64
                             " with an op or register access", p->cur);
    it->flags |= IT_RESET;
    return 0;
}

static int parse_line(parser_t *p, spt_trace_t *t, const char *s, const char *le)
{
    tok_t kw;
    char b[200];
    if (p->line == 1)
        return line_magic(p, s, le);
    if (!next_tok(&s, le, &kw))
        return 0;
    if (kw.s[0] == '@') {
        p->content = 1;
        return line_at(p, kw, s, le);
    }
    if (TOK_IS(kw, "cfg"))
        return line_cfg(p, t, kw, s, le);
    p->content = 1;
    if (TOK_IS(kw, "op"))
        return line_op(p, t, kw, s, le);
    if (TOK_IS(kw, "w") || TOK_IS(kw, "r"))
        return line_reg(p, t, kw, s, le);
    if (TOK_IS(kw, "ctx"))
        return line_ctx(p, t, kw, s, le);
    if (TOK_IS(kw, "reset"))
        return line_reset(p, t, kw, s, le);
    return fail(p, kw.s, "unknown line kind '%s' (expected @N, cfg, w, r, ctx, op, reset)",
                SHOW(b, kw));
}

static char *read_all(const char *path, size_t *size, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (err && errlen)
            snprintf(err, errlen, "%s: error: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    /* a regular file is read in one go; a pipe grows the buffer */
    if (fseek(f, 0, SEEK_END) == 0) {
        long sz = ftell(f);
        if (sz > 0 && (unsigned long)sz < SIZE_MAX - 1)
            cap = (size_t)sz + 1;
        if (fseek(f, 0, SEEK_SET) != 0)
            clearerr(f);
    } else {
        clearerr(f);
    }
    char *buf = malloc(cap);
    for (;;) {
        if (!buf)
            break;
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *x = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
        if (!x) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = x;
        cap *= 2;
    }
    if (buf && ferror(f)) {
        if (err && errlen)
            snprintf(err, errlen, "%s: error: read failed: %s", path, strerror(errno));
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    if (!buf && err && errlen)
        snprintf(err, errlen, "%s: error: out of memory", path);
    *size = n;
    return buf;
}

int spt_load(spt_trace_t *t, const char *path, char *err, size_t errlen)
{
    size_t size = 0;
    memset(t, 0, sizeof *t);
    snprintf(t->path, sizeof t->path, "%s", path);
    if (err && errlen)
        err[0] = 0;
    char *buf = read_all(path, &size, err, errlen);
    if (!buf)
        return -1;
    parser_t p = {0};
    p.path = path;
    p.err = err;
    p.errlen = errlen;
    p.ls = buf;
    p.line = 1;
    int rc = 0;
    if (size == 0) {
        rc = fail(&p, buf, "empty trace, expected 'spu-trace 1'");
    } else {
        const char *s = buf, *end = buf + size;
        while (s < end) {
            const char *le = memchr(s, '\n', (size_t)(end - s));
            if (!le)
                le = end;
            p.ls = s;
            if ((rc = parse_line(&p, t, s, le)) != 0)
                break;
            p.line++;
            s = le + (le < end);
        }
    }
    free(buf);
    if (rc) {
        spt_free(t);
        return -1;
    }
    t->last_cycle = p.cur;
    return 0;
}

int spt_check_config(const spt_trace_t *t, const spu_config_t *cfg, char *err, size_t errlen)
{
    if (t->cfg[0] && strcmp(t->cfg, cfg->name) != 0) {
        if (err && errlen)
            snprintf(err, errlen, "%s:%" PRIu32 ":%" PRIu32
                                  ": error: trace written for configuration %s, running %s",
                     t->path, t->cfg_line, t->cfg_col, t->cfg, cfg->name);
        return -1;
    }
    for (size_t i = 0; i < t->nitems; i++) {
        const spt_item_t *it = &t->items[i];
        if (cfg->lanes >= SPU_MAX_LANES || !(it->pop_mask >> cfg->lanes))
            continue;
        unsigned k = 0;
        for (unsigned l = 0; l < SPU_MAX_LANES; l++) {
            if (!(it->pop_mask >> l & 1))
                continue;
            if (l >= cfg->lanes) {
                const spt_oploc_t *loc = &t->oploc[it->first_op + k];
                if (err && errlen) {
                    if (loc->explicit_lane)
                        snprintf(err, errlen, "%s:%" PRIu32 ":%" PRIu32 ": error: lane %u out of"
                                              " range for the %u lanes of configuration %s",
                                 t->path, loc->line, loc->col, l, (unsigned)cfg->lanes,
                                 cfg->name);
                    else
                        snprintf(err, errlen, "%s:%" PRIu32 ":%" PRIu32 ": error: too many ops"
                                              " for the %u lanes of cycle %" PRIu64,
                                 t->path, loc->line, loc->col, (unsigned)cfg->lanes, it->cycle);
                }
                return -1;
            }
            k++;
        }
    }
    return 0;
}

void spt_free(spt_trace_t *t)
{
    free(t->items);
    free(t->ops);
    free(t->oploc);
    t->items = NULL;
    t->ops = NULL;
    t->oploc = NULL;
    t->nitems = t->cap = t->nops = t->opcap = 0;
    t->pos = 0;
    t->cur = 0;
    t->done = 1;
}

/* --------------------------------------------------------------- replay */

static int src_next(void *self, spu_cyc_t *c)
{
    spt_trace_t *t = self;
    if (t->done || t->cur > t->last_cycle) {
        t->done = 1;
        return 0;
    }
    memset(c, 0, sizeof *c);
    c->cycle = t->cur;
    if (t->pos < t->nitems && t->items[t->pos].cycle == t->cur) {
        const spt_item_t *it = &t->items[t->pos++];
        c->reset = (it->flags & IT_RESET) != 0;
        c->pop_mask = it->pop_mask;
        uint64_t id = it->first_op;
        for (unsigned l = 0; l < SPU_MAX_LANES; l++)
            if (it->pop_mask >> l & 1)
                c->op_id[l] = id++;
        if (it->flags & IT_REG) {
            c->reg_valid = 1;
            c->reg_write = (it->flags & IT_WRITE) != 0;
            c->reg_enc = it->enc;
            c->reg_wdata = it->wdata;
        }
        t->el = it->el;
        t->allow = it->allow;
    }
    c->el = t->el;
    c->allow = t->allow;
    t->cur++;
    return 1;
}

static void src_op(void *self, uint64_t id, spu_op_t *op)
{
    const spt_trace_t *t = self;
    if (id < t->nops) {
        *op = t->ops[id];
    } else {
        memset(op, 0, sizeof *op);
        op->id = id;
        op->iss = op->fin = 1;
    }
}

static unsigned popcount8(unsigned x)
{
    unsigned n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

static uint64_t src_skip(void *self, uint64_t max_cycles, uint64_t max_pops, uint64_t *pops)
{
    spt_trace_t *t = self;
    uint64_t n = 0, np = 0;
    while (n < max_cycles && !t->done && t->cur <= t->last_cycle) {
        if (t->pos < t->nitems && t->items[t->pos].cycle == t->cur) {
            const spt_item_t *it = &t->items[t->pos];
            if ((it->flags & (IT_RESET | IT_REG)) || it->el != t->el || it->allow != t->allow)
                break;
            unsigned k = popcount8(it->pop_mask);
            if (k > max_pops - np)
                break;
            np += k;
            t->pos++;
            t->cur++;
            n++;
        } else {
            uint64_t end = t->pos < t->nitems ? t->items[t->pos].cycle : t->last_cycle + 1;
            uint64_t run = end - t->cur;
            if (run > max_cycles - n)
                run = max_cycles - n;
            t->cur += run;
            n += run;
        }
    }
    *pops = np;
    return n;
}

spu_src_t spt_source(spt_trace_t *t)
{
    spu_src_t s;
    t->pos = 0;
    t->cur = 0;
    t->el = 0;
    t->allow = 0;
    t->done = 0;
    s.self = t;
    s.next = src_next;
    s.op = src_op;
    s.skip = src_skip;
    return s;
}

/* -------------------------------------------------------------- writing */

void spt_write_begin(spt_writer_t *w, FILE *f, const char *cfg_name)
{
    memset(w, 0, sizeof *w);
    w->f = f;
    fputs("spu-trace 1\n", f);
    if (cfg_name && cfg_name[0])
        fprintf(f, "cfg %s\n", cfg_name);
}

static void write_type(FILE *f, uint8_t type)
{
    /* written in the order LD, ST, B, FP, SIMD */
    static const struct {
        int bit;
        const char *name;
    } order[5] = {{SPU_T_LD, "LD"}, {SPU_T_ST, "ST"}, {SPU_T_B, "B"},
                  {SPU_T_FP, "FP"}, {SPU_T_SIMD, "SIMD"}};
    const char *sep = " type=";
    for (int i = 0; i < 5; i++)
        if (type >> order[i].bit & 1) {
            fprintf(f, "%s%s", sep, order[i].name);
            sep = "+";
        }
}

void spt_write_cycle(spt_writer_t *w, const spu_cyc_t *c, const spu_src_t *src)
{
    FILE *f = w->f;
    int ctx = c->el != w->el || c->allow != w->allow;
    int reg = c->reg_valid && !c->reset;
    uint8_t pops = c->reset ? 0 : c->pop_mask;
    w->started = 1;
    w->last = c->cycle;
    if (!ctx && !c->reset && !reg && !pops)
        return;
    if (c->cycle != w->cur) {
        fprintf(f, "@%" PRIu64 "\n", c->cycle);
        w->cur = c->cycle;
    }
    if (ctx) {
        fputs("ctx", f);
        if (c->el != w->el)
            fprintf(f, " el=%u", (unsigned)c->el);
        if (c->allow != w->allow)
            fprintf(f, " allow=%u", (unsigned)c->allow);
        fputc('\n', f);
        w->el = c->el;
        w->allow = c->allow;
    }
    if (c->reset)
        fputs("reset\n", f);
    if (reg) {
        char name[32];
        reg_str(c->reg_enc, name, sizeof name);
        if (c->reg_write)
            fprintf(f, "w %s 0x%" PRIx64 "\n", name, c->reg_wdata);
        else
            fprintf(f, "r %s\n", name);
    }
    unsigned next = 0;
    for (unsigned l = 0; l < SPU_MAX_LANES; l++) {
        if (!(pops >> l & 1))
            continue;
        spu_op_t op;
        src->op(src->self, c->op_id[l], &op);
        fputs("op", f);
        if (op.type)
            write_type(f, op.type);
        if (op.ev)
            fprintf(f, " ev=0x%" PRIx64, op.ev);
        if (op.ds_valid)
            fprintf(f, " ds=0x%x", (unsigned)op.ds);
        if (op.iss != 1)
            fprintf(f, " iss=%" PRIu32, op.iss);
        if (op.fin != 1)
            fprintf(f, " fin=%" PRIu32, op.fin);
        if (l != next)
            fprintf(f, " lane=%u", l);
        fputc('\n', f);
        next = l + 1;
    }
}

void spt_write_end(spt_writer_t *w)
{
    if (w->started && w->last > w->cur) {
        fprintf(w->f, "@%" PRIu64 "\n", w->last);
        w->cur = w->last;
    }
}
