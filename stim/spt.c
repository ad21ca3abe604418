/*
 * .spt parser: reads the whole file into one buffer and parses it in place
 * (no allocation per line; the item and op arrays grow by doubling); checks a
 * parsed trace against a configuration. Format: docs/formats.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "spt_priv.h"
#include "plural.h"





static int line_magic(parser_t *p, spt_trace_t *t, const char *s, const char *le)
{
    tok_t m, v;
    char b[200];
    if (!spt_next_tok(&s, le, &m))
        return spt_fail(p, p->ls, "expected 'spu-trace 2' (or 'spu-trace 1') as the first line");
    if (!TOK_IS(m, "spu-trace"))
        return spt_fail(p, m.s, "expected 'spu-trace 2' (or 'spu-trace 1') as the first line, got '%s'",
                        SHOW(b, m));
    if (!spt_next_tok(&s, le, &v))
        return spt_fail(p, m.s + m.n, "expected a version after 'spu-trace'");
    if (TOK_IS(v, "1"))
        p->version = 1;
    else if (TOK_IS(v, "2"))
        p->version = 2;
    else
        return spt_fail(p, v.s, "unsupported trace version '%s' (this reader knows 'spu-trace 1' and "
                                "'spu-trace 2')", SHOW(b, v));
    t->version = p->version;
    return spt_no_more(p, &s, le, p->version == 1 ? "'spu-trace 1'" : "'spu-trace 2'");
}

/* A version 2 form met in a version 1 file. */
static int needs_v2(parser_t *p, const char *at, const char *form)
{
    return spt_fail(p, at, "%s needs format version 2 (this file starts with 'spu-trace 1')", form);
}

static int line_cfg(parser_t *p, spt_trace_t *t, tok_t kw, const char *s, const char *le)
{
    tok_t n;
    char b[200];
    if (p->have_cfg)
        return spt_fail(p, kw.s, "second cfg line (the first is on line %" PRIu64 ")", p->cfg_line);
    if (p->content)
        return spt_fail(p, kw.s, "cfg must come before every other line but the 'spu-trace' line");
    if (!spt_next_tok(&s, le, &n))
        return spt_fail(p, kw.s + kw.n, "cfg needs a configuration name");
    const spu_config_t *c = NULL;
    for (unsigned i = 0; i < spu_nconfigs; i++)
        if (spt_tok_is(n, spu_configs[i].name))
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
        return spt_fail(p, n.s, "unknown configuration '%s' (known: %s)", SHOW(b, n), known);
    }
    snprintf(t->cfg, sizeof t->cfg, "%s", c->name);
    p->have_cfg = 1;
    p->cfg_line = p->line;
    t->cfg_line = p->line > UINT32_MAX ? UINT32_MAX : (uint32_t)p->line;
    t->cfg_col = (uint32_t)(n.s - p->ls) + 1;
    return spt_no_more(p, &s, le, "the configuration name");
}

/* `@N`, or in version 2 `@+K` (K cycles after the current one). */
static int line_at(parser_t *p, tok_t kw, const char *s, const char *le)
{
    const int rel = kw.n >= 2 && kw.s[1] == '+';
    tok_t v = {kw.s + 1 + rel, kw.n - 1 - (size_t)rel};
    uint64_t c;
    char b[200];
    if (rel && p->version < 2)
        return needs_v2(p, kw.s, "a relative cycle '@+K'");
    int r = spt_parse_num(v.s, v.n, &c);
    if (r == NUM_BAD)
        return spt_fail(p, kw.s, rel ? "bad relative cycle '%s' (expected @+K, K decimal or 0x hex)"
                                     : "bad cycle '%s' (expected @N, N decimal or 0x hex)", SHOW(b, kw));
    if (rel) {
        if (r == NUM_BIG || c > SPT_MAX_CYCLE - p->cur)
            return spt_fail(p, kw.s, "cycle %" PRIu64 " + %s out of range 0..%" PRIu64, p->cur, SHOW(b, v),
                            SPT_MAX_CYCLE);
        c += p->cur;
    } else {
        if (r == NUM_BIG || c > SPT_MAX_CYCLE)
            return spt_fail(p, kw.s, "cycle %s out of range 0..%" PRIu64, SHOW(b, v), SPT_MAX_CYCLE);
        if (c < p->cur)
            return spt_fail(p, kw.s, "cycle %" PRIu64 " is before the current cycle %" PRIu64, c, p->cur);
    }
    p->cur = c;
    return spt_no_more(p, &s, le, "the cycle");
}

static int line_reg(parser_t *p, spt_trace_t *t, tok_t kw, const char *s, const char *le)
{
    int write = kw.s[0] == 'w';
    tok_t r, v;
    uint16_t enc = 0;
    uint64_t val = 0;
    if (!spt_next_tok(&s, le, &r))
        return spt_fail(p, kw.s + kw.n, "missing register after '%c'", kw.s[0]);
    if (spt_get_reg(p, r, &enc))
        return -1;
    if (write) {
        if (!spt_next_tok(&s, le, &v))
            return spt_fail(p, r.s + r.n, "missing value to write");
        if (spt_get_u64(p, v.s, "value", v, &val))
            return -1;
    }
    if (spt_no_more(p, &s, le, write ? "the value" : "the register"))
        return -1;
    spt_item_t *it = spt_cur_item(p, t);
    if (!it)
        return -1;
    if (it->flags & IT_RESET)
        return spt_fail(p, kw.s, "register access in reset cycle %" PRIu64
                             " (a reset cycle carries no op or register access)", p->cur);
    if (it->flags & IT_REG)
        return spt_fail(p, kw.s, "second register access in cycle %" PRIu64
                             " (the register port takes one access per cycle)", p->cur);
    it->flags |= IT_REG | (write ? IT_WRITE : 0);
    it->enc = enc;
    it->wdata = val;
    return 0;
}


static int line_ctx(parser_t *p, spt_trace_t *t, tok_t kw, const char *s, const char *le)
{
    tok_t x, k, v;
    int seen = 0;
    uint64_t el = 0, allow = 0;
    char b[200];
    while (spt_next_tok(&s, le, &x)) {
        if (spt_split_kv(p, x, &k, &v))
            return -1;
        int bit;
        if (TOK_IS(k, "el"))
            bit = 1;
        else if (TOK_IS(k, "allow"))
            bit = 2;
        else
            return spt_fail(p, x.s, "unknown ctx key '%s' (expected el, allow)", SHOW(b, k));
        if (seen & bit)
            return spt_fail(p, x.s, "duplicate ctx key '%s'", SHOW(b, k));
        seen |= bit;
        if (bit == 1 ? spt_get_range(p, x.s, "el", v, 0, 3, "0..3", &el)
                     : spt_get_range(p, x.s, "allow", v, 0, 1, "0..1", &allow))
            return -1;
    }
    if (!seen)
        return spt_fail(p, kw.s, "ctx needs el=N and/or allow=B");
    spt_item_t *it = spt_cur_item(p, t);
    if (!it)
        return -1;
    if (((seen & 1) && (it->flags & IT_CTX_EL)) || ((seen & 2) && (it->flags & IT_CTX_ALLOW)))
        return spt_fail(p, kw.s, "ctx %s set twice in cycle %" PRIu64,
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

static int line_reset(parser_t *p, spt_trace_t *t, tok_t kw, const char *s, const char *le)
{
    if (spt_no_more(p, &s, le, "'reset'"))
        return -1;
    spt_item_t *it = spt_cur_item(p, t);
    if (!it)
        return -1;
    if (it->flags & IT_RESET)
        return spt_fail(p, kw.s, "second reset in cycle %" PRIu64, p->cur);
    if (it->pop_mask || (it->flags & IT_REG))
        return spt_fail(p, kw.s, "reset cannot share cycle %" PRIu64
                             " with an op or register access", p->cur);
    it->flags |= IT_RESET;
    return 0;
}

static int parse_line(parser_t *p, spt_trace_t *t, const char *s, const char *le)
{
    tok_t kw;
    char b[200];
    if (p->line == 1)
        return line_magic(p, t, s, le);
    if (!spt_next_tok(&s, le, &kw))
        return 0;
    if (kw.s[0] == '@') {
        p->content = 1;
        return line_at(p, kw, s, le);
    }
    if (TOK_IS(kw, "cfg"))
        return line_cfg(p, t, kw, s, le);
    p->content = 1;
    if (TOK_IS(kw, "op"))
        return spt_line_op(p, t, kw, 1, s, le);
    if (kw.n >= 3 && memcmp(kw.s, "op*", 3) == 0) {
        const tok_t nt = {kw.s + 3, kw.n - 3};
        uint64_t n;
        const int r = spt_parse_num(nt.s, nt.n, &n);
        if (p->version < 2)
            return needs_v2(p, kw.s, "a repeated op 'op*N'");
        if (r == NUM_BAD)
            return spt_fail(p, kw.s, "bad repeat count '%s' (expected op*N, N decimal or 0x hex)", SHOW(b, kw));
        if (r == NUM_BIG || n < 1 || n - 1 > SPT_MAX_CYCLE - p->cur)
            return spt_fail(p, kw.s, "repeat count %s out of range: op*N needs N >= 1 and its last cycle "
                                     "(%" PRIu64 " + N - 1) at most %" PRIu64, SHOW(b, nt),
                            p->cur, SPT_MAX_CYCLE);
        return spt_line_op(p, t, kw, n, s, le);
    }
    if (TOK_IS(kw, "w") || TOK_IS(kw, "r"))
        return line_reg(p, t, kw, s, le);
    if (TOK_IS(kw, "ctx"))
        return line_ctx(p, t, kw, s, le);
    if (TOK_IS(kw, "reset"))
        return line_reset(p, t, kw, s, le);
    return spt_fail(p, kw.s, "unknown line kind '%s' (expected @N, cfg, w, r, ctx, op, reset%s)",
                SHOW(b, kw), p->version >= 2 ? ", @+K, op*N" : "");
}

static char *read_all(const char *path, size_t *size, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (err && errlen)
            snprintf(err, errlen, "%s: error: cannot open the trace: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st = {0};
    if (fstat(fileno(f), &st) != 0 || (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))) {
        if (err && errlen)
            snprintf(err, errlen, "%s: error: %s, expected a .spt trace file", path,
                     S_ISDIR(st.st_mode) ? "is a directory" : "is not a regular file");
        fclose(f);
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

int spt_parse(spt_trace_t *t, const char *name, const char *buf, size_t size, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    snprintf(t->path, sizeof t->path, "%s", name);
    if (err && errlen)
        err[0] = 0;
    parser_t p = {0};
    p.path = name;
    p.err = err;
    p.errlen = errlen;
    p.ls = buf;
    p.line = 1;
    int rc = 0;
    if (size == 0) {
        rc = spt_fail(&p, buf, "empty trace, expected 'spu-trace 2' (or 'spu-trace 1')");
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
    if (rc) {
        spt_free(t);
        return -1;
    }
    t->last_cycle = p.cur;
    return 0;
}

int spt_load(spt_trace_t *t, const char *path, char *err, size_t errlen)
{
    size_t size = 0;
    memset(t, 0, sizeof *t);
    if (err && errlen)
        err[0] = 0;
    char *buf = read_all(path, &size, err, errlen);
    if (!buf)
        return -1;
    const int rc = spt_parse(t, path, buf, size, err, errlen);
    free(buf);
    return rc;
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
                const spt_oploc_t *loc = &t->oploc[spt_rec_of(t, it->first_op + k)];
                if (err && errlen) {
                    if (loc->explicit_lane)
                        snprintf(err, errlen, "%s:%" PRIu32 ":%" PRIu32 ": error: lane %u out of"
                                              " range for the %u lane%s of configuration %s",
                                 t->path, loc->line, loc->col, l, (unsigned)cfg->lanes, plural_s(cfg->lanes),
                                 cfg->name);
                    else
                        snprintf(err, errlen, "%s:%" PRIu32 ":%" PRIu32 ": error: too many ops"
                                              " for the %u lane%s of cycle %" PRIu64,
                                 t->path, loc->line, loc->col, (unsigned)cfg->lanes, plural_s(cfg->lanes), it->cycle);
                }
                return -1;
            }
            k++;
        }
    }
    return 0;
}

size_t spt_rec_of(const spt_trace_t *t, uint64_t id)
{
    size_t lo = 0, hi = t->nrec;
    while (hi - lo > 1) {
        const size_t mid = lo + (hi - lo) / 2;
        if (t->ops[mid].id <= id)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

void spt_free(spt_trace_t *t)
{
    free(t->items);
    free(t->ops);
    free(t->oploc);
    t->items = NULL;
    t->ops = NULL;
    t->oploc = NULL;
    t->nitems = t->cap = t->nrec = t->opcap = 0;
    t->nops = 0;
}

