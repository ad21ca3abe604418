/*
 * .spl reader (spl_read.h). Tokens, numbers and register names are read by
 * the .spt lexer (spt_lex.h), so both formats spell them alike and report
 * a defect with the same FILE:LINE:COL form; the `why` reasons are spelled
 * as the writer spells them (spl_why_str()).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spl.h"
#include "spl_read.h"
#include "spt_lex.h"

#define NWHY 6 /* reasons of spu_why_bit */

/* One key=value field of a line, found in the line or not. */
typedef struct field {
    const char *key;
    tok_t tok;            /* the whole key=value token */
    tok_t val;            /* its value */
    int given;
} field_t;

/* The key=value tokens after the kind: each key of fl[0..n-1] exactly once,
 * in any order (`all` spells them for messages); a missing key is reported
 * just after the last token. */
static int get_fields(parser_t *p, const char *cur, const char *le, const char *kind, field_t *fl, int n,
                      const char *all)
{
    char b[200];
    tok_t t;
    const char *end = cur;
    while (spt_next_tok(&cur, le, &t)) {
        end = t.s + t.n;
        const char *eq = memchr(t.s, '=', t.n);
        if (!eq)
            return spt_fail(p, t.s, "expected key=value, got '%s' (a %s line has %s)", SHOW(b, t), kind, all);
        const tok_t k = {t.s, (size_t)(eq - t.s)};
        int i = 0;
        while (i < n && !spt_tok_is(k, fl[i].key))
            i++;
        if (i == n)
            return spt_fail(p, t.s, "unknown key '%s' in a %s line (it has %s)", SHOW(b, k), kind, all);
        if (fl[i].given)
            return spt_fail(p, t.s, "%s= given twice", fl[i].key);
        fl[i].given = 1;
        fl[i].tok = t;
        fl[i].val = (tok_t){eq + 1, (size_t)(t.s + t.n - eq - 1)};
    }
    for (int i = 0; i < n; i++)
        if (!fl[i].given)
            return spt_fail(p, end, "a %s line needs %s= (it has %s)", kind, fl[i].key, all);
    return 0;
}

/* A field's number in lo..hi (range spells it for the message). */
static int field_num(parser_t *p, const field_t *f, uint64_t lo, uint64_t hi, const char *range, uint64_t *v)
{
    return spt_get_range(p, f->tok.s, f->key, f->val, lo, hi, range, v);
}

/* `why=`: `-` or reasons joined by commas, each once, in any order. */
static int get_why(parser_t *p, const field_t *f, uint8_t *why)
{
    char b[200], name[16];
    const tok_t v = f->val;
    *why = 0;
    if (spt_tok_is(v, "-"))
        return 0;
    if (v.n == 0)
        return spt_fail(p, f->tok.s, "why= needs - or the rejecting reasons");
    const char *s = v.s, *e = v.s + v.n;
    for (;;) {
        const char *c = memchr(s, ',', (size_t)(e - s));
        const tok_t r = {s, (size_t)((c ? c : e) - s)};
        int bit = -1;
        for (int k = 0; k < NWHY && bit < 0; k++) {
            spl_why_str(1u << k, name, sizeof name);
            if (spt_tok_is(r, name))
                bit = k;
        }
        if (r.n == 0)
            return spt_fail(p, f->tok.s, "why: an empty reason in '%s'", SHOW(b, v));
        if (bit < 0)
            return spt_fail(p, f->tok.s, "why: unknown reason '%s' (known: discard, ds, ev, lat, nev, type; - for none)",
                            SHOW(b, r));
        if ((*why >> bit) & 1u)
            return spt_fail(p, f->tok.s, "why: reason '%s' given twice", SHOW(b, r));
        *why = (uint8_t)(*why | 1u << bit);
        if (!c)
            return 0;
        s = c + 1;
    }
}

/* Nothing may follow the last field of a positional line. */
static int no_more(parser_t *p, const char *cur, const char *le, const char *after)
{
    char b[200];
    tok_t t;
    if (spt_next_tok(&cur, le, &t))
        return spt_fail(p, t.s, "unexpected '%s' after %s", SHOW(b, t), after);
    return 0;
}

/* The next positional token, or an error just after the last one. */
static int need_tok(parser_t *p, const char **cur, const char *le, tok_t *t, const char *what)
{
    const char *at = *cur;
    if (!spt_next_tok(cur, le, t))
        return spt_fail(p, at, "%s", what);
    return 0;
}

/* "0..N-1 (configuration C has N lanes)" */
static void range_of(char *buf, size_t len, const spu_config_t *cfg, unsigned n, const char *what)
{
    snprintf(buf, len, "0..%u (configuration %s has %u %s%s)", n - 1, cfg->name, n, what, n == 1 ? "" : "s");
}

static int sample_line(parser_t *p, const char *cur, const char *le, const spu_config_t *cfg, spl_line_t *l, int col)
{
    char lr[64], sr[64];
    uint64_t op, lane = 0, slot = 0;
    field_t f[3] = {{.key = "op"}, {.key = "lane"}, {.key = "slot"}};
    const int n = col ? 1 : 3;
    if (get_fields(p, cur, le, col ? "collision" : "sample", f, n, col ? "op=" : "op= lane= slot="))
        return -1;
    range_of(lr, sizeof lr, cfg, cfg->lanes, "lane");
    range_of(sr, sizeof sr, cfg, cfg->slots, "slot");
    if (field_num(p, &f[0], 0, UINT64_MAX, "0..18446744073709551615", &op) ||
        (!col && (field_num(p, &f[1], 0, cfg->lanes - 1, lr, &lane) || field_num(p, &f[2], 0, cfg->slots - 1, sr, &slot))))
        return -1;
    l->kind = col ? SPL_COLLISION : SPL_SAMPLE;
    l->op = op;
    l->lane = (uint8_t)lane;
    l->slot = (uint8_t)slot;
    return 0;
}

static int record_line(parser_t *p, const char *cur, const char *le, const spu_config_t *cfg, spl_line_t *l)
{
    char sr[64];
    uint64_t op, slot, tot, iss, keep;
    field_t f[6] = {{.key = "op"}, {.key = "slot"}, {.key = "tot"}, {.key = "iss"}, {.key = "keep"}, {.key = "why"}};
    if (get_fields(p, cur, le, "record", f, 6, "op= slot= tot= iss= keep= why="))
        return -1;
    range_of(sr, sizeof sr, cfg, cfg->slots, "slot");
    if (field_num(p, &f[0], 0, UINT64_MAX, "0..18446744073709551615", &op) || field_num(p, &f[1], 0, cfg->slots - 1, sr, &slot) ||
        field_num(p, &f[2], 0, UINT32_MAX, "0..4294967295", &tot) ||
        field_num(p, &f[3], 0, UINT32_MAX, "0..4294967295", &iss) || field_num(p, &f[4], 0, 1, "0..1", &keep) ||
        get_why(p, &f[5], &l->why))
        return -1;
    l->kind = SPL_RECORD;
    l->op = op;
    l->slot = (uint8_t)slot;
    l->tot = (uint32_t)tot;
    l->iss = (uint32_t)iss;
    l->keep = (uint8_t)keep;
    return 0;
}

/* `read REG VALUE` and `undef w|r REG`. */
static int reg_line(parser_t *p, const char *cur, const char *le, spl_line_t *l, int undef)
{
    char b[200];
    tok_t t;
    if (undef) {
        if (need_tok(p, &cur, le, &t, "an undef line needs w or r, then the register"))
            return -1;
        if (!spt_tok_is(t, "w") && !spt_tok_is(t, "r"))
            return spt_fail(p, t.s, "expected w or r, got '%s'", SHOW(b, t));
        l->write = t.s[0] == 'w';
    }
    if (need_tok(p, &cur, le, &t, undef ? "an undef line needs the register after w or r"
                                         : "a read line needs the register, then the value read") ||
        spt_get_reg(p, t, &l->enc))
        return -1;
    l->kind = undef ? SPL_UNDEF : SPL_READ;
    if (undef)
        return no_more(p, cur, le, "the register");
    if (need_tok(p, &cur, le, &t, "a read line needs the value read after the register") ||
        spt_get_u64(p, t.s, "read value", t, &l->value))
        return -1;
    return no_more(p, cur, le, "the value read");
}

/* `pmu NAME=N ...`: the events the configuration implements, each once. */
static int pmu_line(parser_t *p, const char *cur, const char *le, const spu_config_t *cfg, spl_file_t *f)
{
    char b[200];
    tok_t t;
    while (spt_next_tok(&cur, le, &t)) {
        const char *eq = memchr(t.s, '=', t.n);
        if (!eq)
            return spt_fail(p, t.s, "expected EVENT=COUNT, got '%s'", SHOW(b, t));
        const tok_t k = {t.s, (size_t)(eq - t.s)}, v = {eq + 1, (size_t)(t.s + t.n - eq - 1)};
        int i = 0;
        while (i < SPU_NPMU && !spt_tok_is(k, spu_pmu_name(i)))
            i++;
        if (i == SPU_NPMU)
            return spt_fail(p, t.s, "unknown PMU event '%s'", SHOW(b, k));
        if (!spu_pmu_implemented(cfg, i))
            return spt_fail(p, t.s, "configuration %s does not implement %s", cfg->name, spu_pmu_name(i));
        if (f->pmu_given[i])
            return spt_fail(p, t.s, "%s given twice", spu_pmu_name(i));
        if (spt_get_u64(p, t.s, spu_pmu_name(i), v, &f->pmu[i]))
            return -1;
        f->pmu_given[i] = 1;
    }
    f->have_pmu = 1;
    f->pmu_line = (uint32_t)p->line;
    return 0;
}

/* One line from [ls, le); blank and comment lines add nothing. */
static int parse_line(parser_t *p, const char *ls, const char *le, const spu_config_t *cfg, spl_file_t *f)
{
    char b[200];
    const char *cur = ls;
    tok_t t;
    spl_line_t l = {0};
    if (!spt_next_tok(&cur, le, &t))
        return 0;
    if (f->have_pmu)
        return spt_fail(p, t.s, "a line after the pmu line (line %" PRIu32 "), which closes a log", f->pmu_line);
    if (spt_get_range(p, t.s, "cycle", t, 0, SPT_MAX_CYCLE, "0..9223372036854775807", &l.cycle))
        return -1;
    if (need_tok(p, &cur, le, &t, "a line needs a kind after its cycle (sample, collision, record, read, undef, reset or pmu)"))
        return -1;
    int rc;
    if (TOK_IS(t, "sample") || TOK_IS(t, "collision")) {
        rc = sample_line(p, cur, le, cfg, &l, TOK_IS(t, "collision"));
    } else if (TOK_IS(t, "record")) {
        rc = record_line(p, cur, le, cfg, &l);
    } else if (TOK_IS(t, "read") || TOK_IS(t, "undef")) {
        rc = reg_line(p, cur, le, &l, TOK_IS(t, "undef"));
    } else if (TOK_IS(t, "reset")) {
        l.kind = SPL_RESET;
        rc = no_more(p, cur, le, "reset");
    } else if (TOK_IS(t, "pmu")) {
        f->pmu_cycle = l.cycle;
        return pmu_line(p, cur, le, cfg, f);
    } else {
        return spt_fail(p, t.s, "unknown line kind '%s' (expected sample, collision, record, read, undef, reset or pmu)",
                        SHOW(b, t));
    }
    if (rc)
        return -1;
    if (f->n == f->cap) {
        const size_t cap = f->cap ? 2 * f->cap : 1024;
        spl_line_t *v = realloc(f->v, cap * sizeof *v);
        if (!v)
            return spt_fail(p, ls, "out of memory for %zu lines", cap);
        f->v = v;
        f->cap = cap;
    }
    l.off = (size_t)(ls - f->text);
    l.line = (uint32_t)p->line;
    f->v[f->n++] = l;
    return 0;
}

int spl_load_stream(spl_file_t *f, const char *name, FILE *in, const spu_config_t *cfg, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    snprintf(f->path, sizeof f->path, "%s", name);
    size_t cap = 0;
    for (;;) {
        if (f->size + 65536 + 1 > cap) {
            cap = 2 * cap + 65536 + 1;
            char *t = realloc(f->text, cap);
            if (!t) {
                snprintf(err, errlen, "error: out of memory reading the log '%s'", name);
                return -1;
            }
            f->text = t;
        }
        const size_t k = fread(f->text + f->size, 1, cap - f->size - 1, in);
        f->size += k;
        if (k == 0)
            break;
    }
    if (ferror(in)) {
        snprintf(err, errlen, "error: cannot read the log '%s': %s", name, strerror(errno));
        return -1;
    }
    f->text[f->size] = '\0';
    parser_t p = {.path = f->path, .err = err, .errlen = errlen};
    const char *s = f->text, *end = f->text + f->size;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *le = nl ? nl : end;
        p.line++;
        p.ls = s;
        if (p.line > UINT32_MAX)
            return spt_fail(&p, s, "more than %" PRIu32 " lines", UINT32_MAX);
        if (parse_line(&p, s, le, cfg, f))
            return -1;
        s = le + 1;
    }
    return 0;
}

int spl_load(spl_file_t *f, const char *path, const spu_config_t *cfg, char *err, size_t errlen)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        memset(f, 0, sizeof *f);
        snprintf(err, errlen, "error: cannot open the log '%s': %s", path, strerror(errno));
        return -1;
    }
    const int rc = spl_load_stream(f, path, in, cfg, err, errlen);
    fclose(in);
    return rc;
}

void spl_free(spl_file_t *f)
{
    free(f->text);
    free(f->v);
    f->text = NULL;
    f->v = NULL;
    f->n = f->cap = 0;
}

void spl_line_text(const spl_file_t *f, const spl_line_t *l, char *buf, size_t len)
{
    const char *s = f->text + l->off;
    const char *nl = memchr(s, '\n', f->size - l->off);
    size_t n = nl ? (size_t)(nl - s) : f->size - l->off;
    while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n >= len)
        n = len - 1;
    for (size_t i = 0; i < n; i++) /* a line that reached here is printable but for white space */
        buf[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : ' ';
    buf[n] = '\0';
}
