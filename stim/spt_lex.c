/*
 * .spt lexing: tokens, numbers, register names (the model's, or the
 * s<op0>_<op1>_c<CRn>_c<CRm>_<op2> form) and the "FILE:LINE:COL: error:"
 * messages every defect gets (docs/formats.md).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "spt_priv.h"

/* ------------------------------------------------------------ registers */

/* Register names are the golden model's (spu_reg_by_name); the s-form of an
 * unknown encoding is stim_reg_str()'s, so traces and logs spell alike. */
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



int spt_fail(parser_t *p, const char *at, const char *fmt, ...)
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
const char *spt_show(char *buf, size_t len, const char *s, size_t n)
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

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Next token of [*cur, le): runs of characters other than white space; a
 * `#` ends the line. 0 when there is none. */
int spt_next_tok(const char **cur, const char *le, tok_t *t)
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

int spt_tok_is(tok_t t, const char *w)
{
    /* No strlen(): a token holds no NUL, so w's end is a mismatch; most
     * calls (a key looked up in a list) stop at the first byte. */
    for (size_t i = 0; i < t.n; i++)
        if (t.s[i] != w[i])
            return 0;
    return w[t.n] == '\0';
}


/* Decimal or 0x hex, the whole token. */
int spt_parse_num(const char *s, size_t n, uint64_t *v)
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
int spt_get_range(parser_t *p, const char *at, const char *what, tok_t v, uint64_t lo,
                  uint64_t hi, const char *range, uint64_t *out)
{
    char b[200];
    int r = spt_parse_num(v.s, v.n, out);
    if (r == NUM_BAD)
        return spt_fail(p, at, "%s '%s' is not a number (decimal or 0x hex)", what, SHOW(b, v));
    if (r == NUM_BIG || *out < lo || *out > hi)
        return spt_fail(p, at, "%s %s out of range %s", what, SHOW(b, v), range);
    return 0;
}

int spt_get_u64(parser_t *p, const char *at, const char *what, tok_t v, uint64_t *out)
{
    char b[200];
    int r = spt_parse_num(v.s, v.n, out);
    if (r == NUM_BAD)
        return spt_fail(p, at, "%s '%s' is not a number (decimal or 0x hex)", what, SHOW(b, v));
    if (r == NUM_BIG)
        return spt_fail(p, at, "%s '%s' does not fit in 64 bits", what, SHOW(b, v));
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
            spt_fail(p, t.s, "%s in '%s' out of range 0..%u", fname[i], SHOW(b, t), fmax[i]);
            *bad = 1;
            return 1;
        }
    *enc = 0;
    for (int i = 0; i < 5; i++)
        *enc = (uint16_t)(*enc | f[i] << fshift[i]);
    return 1;
malformed:
    spt_fail(p, t.s, "malformed register encoding '%s' (expected s<op0>_<op1>_c<CRn>_c<CRm>_<op2>)",
         SHOW(b, t));
    *bad = 1;
    return 1;
}

int spt_get_reg(parser_t *p, tok_t t, uint16_t *enc)
{
    char b[200];
    int bad;
    if (reg_lookup(t.s, t.n, enc))
        return 0;
    if (parse_sform(p, t, enc, &bad))
        return bad ? -1 : 0;
    return spt_fail(p, t.s, "unknown register '%s'", SHOW(b, t));
}

