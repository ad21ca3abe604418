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

/* A new item at the end, for the current cycle. */
static spt_item_t *next_item(parser_t *p, spt_trace_t *t)
{
    void *a = t->items;
    if (grow(&a, &t->cap, t->nitems + 1, sizeof *t->items)) {
        spt_fail(p, p->ls, "out of memory");
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

/* The item of the current cycle, created when needed. */
static spt_item_t *cur_item(parser_t *p, spt_trace_t *t)
{
    if (t->nitems && t->items[t->nitems - 1].cycle == p->cur && !t->items[t->nitems - 1].rep)
        return &t->items[t->nitems - 1];
    return next_item(p, t);
}

static int no_more(parser_t *p, const char **cur, const char *le, const char *after)
{
    tok_t x;
    char b[200];
    if (spt_next_tok(cur, le, &x))
        return spt_fail(p, x.s, "unexpected '%s' after %s", SHOW(b, x), after);
    return 0;
}

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
    return no_more(p, &s, le, p->version == 1 ? "'spu-trace 1'" : "'spu-trace 2'");
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
    return no_more(p, &s, le, "the configuration name");
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
    return no_more(p, &s, le, "the cycle");
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
    if (no_more(p, &s, le, write ? "the value" : "the register"))
        return -1;
    spt_item_t *it = cur_item(p, t);
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

/* Split key=value; -1 (reported) when there is no '='. */
static int split_kv(parser_t *p, tok_t x, tok_t *k, tok_t *v)
{
    char b[200];
    const char *eq = memchr(x.s, '=', x.n);
    if (!eq)
        return spt_fail(p, x.s, "expected key=value, got '%s'", SHOW(b, x));
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
    while (spt_next_tok(&s, le, &x)) {
        if (split_kv(p, x, &k, &v))
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
    spt_item_t *it = cur_item(p, t);
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
            if (spt_tok_is(n, names[i]))
                bit = i;
        if (n.n == 0)
            return spt_fail(p, x.s, "empty name in type '%s'", SHOW(b, v));
        if (TOK_IS(n, "-"))
            return spt_fail(p, x.s, "type '-' (none) cannot be combined with others in '%s'",
                        SHOW(b, v));
        if (bit < 0)
            return spt_fail(p, x.s, "unknown op type '%s' in '%s' (expected LD, ST, B, FP, SIMD or -)",
                        SHOW(b, n), SHOW(b2, v));
        if (*type & (1u << bit))
            return spt_fail(p, x.s, "op type %s given twice in '%s'", names[bit], SHOW(b, v));
        *type = (uint8_t)(*type | 1u << bit);
        if (!q)
            return 0;
        s = q + 1;
    }
}

/* The keys of an `op` line, in the order the error message lists them. */
enum {
    K_TYPE, K_EV, K_DS, K_ISS, K_FIN, K_LANE, K_PC, K_NS, K_TGT, K_VA, K_PA, K_PBT, K_CTX,
    K_COND, K_PASS, K_IND, K_EXCL, K_AR, K_SVE, K_PRED, K_SG, K_EVL, K_NKEYS
};
static const char *const op_keys[K_NKEYS] = {
    "type", "ev", "ds", "iss", "fin", "lane", "pc", "ns", "tgt", "va", "pa", "pbt", "ctx",
    "cond", "pass", "ind", "excl", "ar", "sve", "pred", "sg", "evl"};
#define OP_KEY_LIST "type, ev, ds, iss, fin, lane, pc, ns, tgt, va, pa, pbt, ctx, cond, pass, ind, excl, ar, sve, pred, sg, evl"

/* An address key: a 56-bit address (va: 64 bits with the tag) that sets its
 * addr_valid bit. */
static int op_addr(parser_t *p, const char *at, int key, tok_t v, spu_op_t *op)
{
    static const struct { int key; uint8_t bit; size_t off; } a[] = {
        {K_PC, 0, offsetof(spu_op_t, pc)},          {K_TGT, SPU_REC_TGT, offsetof(spu_op_t, tgt)},
        {K_VA, SPU_REC_VA, offsetof(spu_op_t, va)}, {K_PA, SPU_REC_PA, offsetof(spu_op_t, pa)},
        {K_PBT, SPU_REC_PBT, offsetof(spu_op_t, pbt)}};
    for (unsigned i = 0; i < sizeof a / sizeof a[0]; i++) {
        if (a[i].key != key)
            continue;
        uint64_t *dst = (uint64_t *)((char *)op + a[i].off);
        if (key == K_VA ? spt_get_u64(p, at, "va", v, dst)
                        : spt_get_range(p, at, op_keys[key], v, 0, SPU_OP_ADDR_MAX,
                                        "0..0xffffffffffffff (a 56-bit address)", dst))
            return -1;
        op->addr_valid |= a[i].bit;
    }
    return 0;
}

/* The checks across keys (docs/formats.md): what an address or attribute
 * needs of the op's type, and Events bit 6 ("not taken", set by
 * SPECompleteSample() from is_conditional && !cond_pass) agreeing with cond
 * and pass. */
static int op_cross(parser_t *p, const spu_op_t *op, const char *const at[K_NKEYS], uint64_t pass)
{
    const int b = op->type & (1u << SPU_T_B);
    const int ldst = op->type & (1u << SPU_T_LD | 1u << SPU_T_ST);
    if (at[K_TGT] && !b)
        return spt_fail(p, at[K_TGT], "tgt= (branch target) needs type B");
    if (at[K_IND] && (op->attr >> SPU_ATTR_IND & 1u) && !b)
        return spt_fail(p, at[K_IND], "ind=1 (indirect branch) needs type B");
    if (at[K_VA] && !ldst)
        return spt_fail(p, at[K_VA], "va= (data address) needs type LD or ST");
    if (at[K_PA] && !at[K_VA])
        return spt_fail(p, at[K_PA], "pa= (physical address) needs va=: no physical address "
                                     "packet without the virtual one (D17.6.4)");
    for (int k = K_EXCL; k <= K_AR; k++)
        if (at[k] && (op->attr >> (k == K_EXCL ? SPU_ATTR_EXCL : SPU_ATTR_AR) & 1u) && !ldst)
            return spt_fail(p, at[k], "%s=1 needs type LD or ST", op_keys[k]);
    const int sve = op->attr >> SPU_ATTR_SVE & 1u;
    if (sve && b)
        return spt_fail(p, at[K_SVE], "sve=1 with type B: a branch is never an SVE operation");
    for (int k = K_PRED; k <= K_EVL; k++)
        if (at[k] && !sve)
            return spt_fail(p, at[k], "%s= needs sve=1", op_keys[k]);
    if (at[K_SG] && (op->attr >> SPU_ATTR_SG & 1u) && !ldst)
        return spt_fail(p, at[K_SG], "sg=1 (gather/scatter) needs type LD or ST");
    const int cond = op->attr >> SPU_ATTR_COND & 1u;
    if (at[K_PASS] && !pass && !cond)
        return spt_fail(p, at[K_PASS], "pass=0 needs cond=1 (only a conditional op can fail its condition)");
    if (at[K_EV]) {
        const uint64_t want = (uint64_t)(cond && !pass);
        if ((op->ev >> 6 & 1u) != want)
            return spt_fail(p, at[K_EV], "ev bit 6 (not taken) is %u, but cond=%d pass=%u make it %u",
                            (unsigned)(op->ev >> 6 & 1u), cond, (unsigned)pass, (unsigned)want);
    }
    return 0;
}

/* `op KEYS`, or `op*N KEYS` (rep = N): the same as N lines `op KEYS`, one
 * in each of the cycles cur..cur+N-1 (docs/formats.md). */
/* One key=value of an op line (key i of op_keys, token x): into op, or
 * lane and pass. 0, or -1 (the error in p). */
static int op_key(parser_t *p, int i, tok_t x, tok_t v, spu_op_t *o, uint64_t *lane, uint64_t *pass)
{
    uint64_t val;
    switch (i) {
    case K_TYPE:
        if (parse_type(p, x, v, &o->type))
            return -1;
        break;
    case K_EV:
        if (spt_get_u64(p, x.s, "ev", v, &o->ev))
            return -1;
        break;
    case K_DS:
        if (!TOK_IS(v, "-")) {
            if (spt_get_range(p, x.s, "ds", v, 0, 0xFFFF, "0..0xffff (or - for none)", &val))
                return -1;
            o->ds_valid = 1;
            o->ds = (uint16_t)val;
        }
        break;
    case K_ISS:
    case K_FIN:
        if (spt_get_range(p, x.s, op_keys[i], v, 1, SPU_OP_MAX_LAT, "1..16777215", &val))
            return -1;
        if (i == K_ISS)
            o->iss = (uint32_t)val;
        else
            o->fin = (uint32_t)val;
        break;
    case K_LANE:
        if (spt_get_range(p, x.s, "lane", v, 0, SPU_MAX_LANES - 1, "0..7", lane))
            return -1;
        break;
    case K_CTX:
        if (spt_get_range(p, x.s, "ctx", v, 0, 0xFFFFFFFFu, "0..0xffffffff", &val))
            return -1;
        o->ctx = (uint32_t)val;
        break;
    case K_PASS:
        if (spt_get_range(p, x.s, "pass", v, 0, 1, "0..1", pass))
            return -1;
        break;
    case K_NS: case K_COND: case K_IND: case K_EXCL: case K_AR: case K_SVE: case K_PRED: case K_SG: {
        static const int8_t bit[K_NKEYS] = {[K_NS] = SPU_ATTR_NS, [K_COND] = SPU_ATTR_COND,
                                            [K_IND] = SPU_ATTR_IND, [K_EXCL] = SPU_ATTR_EXCL,
                                            [K_AR] = SPU_ATTR_AR, [K_SVE] = SPU_ATTR_SVE,
                                            [K_PRED] = SPU_ATTR_PRED, [K_SG] = SPU_ATTR_SG};
        if (spt_get_range(p, x.s, op_keys[i], v, 0, 1, "0..1", &val))
            return -1;
        o->attr = (uint16_t)((o->attr & ~(1u << bit[i])) | val << bit[i]);
        break;
    }
    case K_EVL: { /* the effective vector length in bits: 32 << EVL */
        unsigned e = 0;
        if (spt_get_range(p, x.s, "evl", v, 32, 2048, "32..2048 bits", &val))
            return -1;
        while ((32u << e) < val)
            e++;
        if ((32u << e) != val)
            return spt_fail(p, x.s, "evl %" PRIu64 " is not a power of two (32, 64, ..., 2048 bits)", val);
        o->attr = (uint16_t)((o->attr & ~(7u << SPU_ATTR_EVL)) | e << SPU_ATTR_EVL);
        break;
    }
    default:
        if (op_addr(p, x.s, i, v, o))
            return -1;
        break;
    }
    return 0;
}

/* Events bit 6 ("not taken") is cond && !pass. Whatever of the three is
 * not given follows from the others: with ev given, a missing cond is
 * bit 6 and a missing pass is !bit 6 (for a conditional op); without ev,
 * bit 6 is set from cond and pass. op_cross() rejects what is left
 * contradictory. */
static void op_implied(spu_op_t *op, const char *const at[K_NKEYS], uint64_t *pass)
{
    const unsigned bit6 = (unsigned)(op->ev >> 6 & 1u);
    if (at[K_EV]) {
        if (!at[K_COND] && bit6)
            op->attr |= 1u << SPU_ATTR_COND;
        if (!at[K_PASS] && (op->attr >> SPU_ATTR_COND & 1u))
            *pass = !bit6;
    } else if ((op->attr >> SPU_ATTR_COND & 1u) && !*pass) {
        op->ev |= 1u << 6;
    }
}

/* Append op (rep members from this line, at lane; at_lane: lane= was
 * given there) to the trace with where it was written: its id, or
 * UINT64_MAX (the error in p). */
static uint64_t op_store(parser_t *p, spt_trace_t *t, tok_t kw, uint64_t rep, spu_op_t op, const char *at_lane,
                         uint64_t lane)
{
    const uint64_t id = t->nops;
    if (rep > UINT64_MAX / 4 - id)
        return spt_fail(p, kw.s, "too many ops in one trace"), UINT64_MAX;
    void *a = t->ops;
    size_t cap = t->opcap;
    if (grow(&a, &cap, t->nrec + 1, sizeof *t->ops))
        return spt_fail(p, p->ls, "out of memory"), UINT64_MAX;
    t->ops = a;
    a = t->oploc;
    if (grow(&a, &t->opcap, t->nrec + 1, sizeof *t->oploc))
        return spt_fail(p, p->ls, "out of memory"), UINT64_MAX;
    t->oploc = a;
    op.id = id;
    t->ops[t->nrec] = op;
    spt_oploc_t *loc = &t->oploc[t->nrec];
    const char *where = at_lane ? at_lane : kw.s;
    loc->count = rep;
    loc->line = p->line > UINT32_MAX ? UINT32_MAX : (uint32_t)p->line;
    loc->col = (uint64_t)(where - p->ls) + 1 > UINT32_MAX ? UINT32_MAX : (uint32_t)(where - p->ls) + 1;
    loc->lane = (uint8_t)lane;
    loc->explicit_lane = at_lane != NULL;
    t->nrec++;
    t->nops += rep;
    return id;
}

/* Op id (rep members) placed at lane of the current cycle's item it; for
 * op*N the cycles after: a run item for the middle ones and an ordinary
 * item for the last, so that later lines of that cycle can join it (their
 * member takes lane 0, or the lane= given). 0, or -1 (the error in p). */
static int op_place(parser_t *p, spt_trace_t *t, spt_item_t *it, uint64_t id, uint64_t rep, const char *at_lane,
                    uint64_t lane)
{
    if (!it->pop_mask)
        it->first_op = id;
    it->pop_mask = (uint8_t)(it->pop_mask | 1u << lane);
    it->next_lane = (uint8_t)(lane + 1);
    if (rep == 1)
        return 0;
    const uint8_t l2 = at_lane ? (uint8_t)lane : 0;
    if (rep > 2) {
        spt_item_t *run = next_item(p, t);
        if (!run)
            return -1;
        run->cycle = p->cur + 1;
        run->rep = rep - 2;
        run->first_op = id + 1;
        run->pop_mask = (uint8_t)(1u << l2);
    }
    p->cur += rep - 1;
    it = cur_item(p, t);
    if (!it)
        return -1;
    it->first_op = id + rep - 1;
    it->pop_mask = (uint8_t)(1u << l2);
    it->next_lane = (uint8_t)(l2 + 1);
    return 0;
}

static int line_op(parser_t *p, spt_trace_t *t, tok_t kw, uint64_t rep, const char *s, const char *le)
{
    spu_op_t op = SPU_OP_DEFAULT;
    tok_t x, k, v;
    const char *at[K_NKEYS] = {0};
    uint64_t lane = 0, pass = 1;
    char b[200];
    while (spt_next_tok(&s, le, &x)) {
        if (split_kv(p, x, &k, &v))
            return -1;
        int i = 0; /* (the first byte is compared here: most keys differ in it) */
        while (i < K_NKEYS && (op_keys[i][0] != *k.s || !spt_tok_is(k, op_keys[i])))
            i++;
        if (i == K_NKEYS)
            return spt_fail(p, x.s, "unknown op key '%s' (expected " OP_KEY_LIST ")", SHOW(b, k));
        if (at[i])
            return spt_fail(p, x.s, "duplicate op key '%s'", op_keys[i]);
        at[i] = x.s;
        if (op_key(p, i, x, v, &op, &lane, &pass))
            return -1;
    }
    op_implied(&op, at, &pass);
    if (op_cross(p, &op, at, pass))
        return -1;
    const char *at_iss = at[K_ISS], *at_fin = at[K_FIN], *at_lane = at[K_LANE];
    if (op.fin < op.iss)
        return spt_fail(p, at_fin ? at_fin : at_iss, "fin %" PRIu32 " < iss %" PRIu32, op.fin,
                    op.iss);
    spt_item_t *it = cur_item(p, t);
    if (!it)
        return -1;
    if (it->flags & IT_RESET)
        return spt_fail(p, kw.s, "op in reset cycle %" PRIu64
                             " (a reset cycle carries no op or register access)", p->cur);
    if (at_lane) {
        if (lane < it->next_lane)
            return spt_fail(p, at_lane, "lane %" PRIu64 " is taken: the next free lane of cycle %" PRIu64
                                    " is %u", lane, p->cur, (unsigned)it->next_lane);
    } else {
        lane = it->next_lane;
        if (lane >= SPU_MAX_LANES)
            return spt_fail(p, kw.s, "too many ops for the %d lanes of cycle %" PRIu64
                                 " (at most %d in any configuration)",
                        SPU_MAX_LANES, p->cur, SPU_MAX_LANES);
    }
    const uint64_t id = op_store(p, t, kw, rep, op, at_lane, lane);
    if (id == UINT64_MAX)
        return -1;
    return op_place(p, t, it, id, rep, at_lane, lane);
}

static int line_reset(parser_t *p, spt_trace_t *t, tok_t kw, const char *s, const char *le)
{
    if (no_more(p, &s, le, "'reset'"))
        return -1;
    spt_item_t *it = cur_item(p, t);
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
        return line_op(p, t, kw, 1, s, le);
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
        return line_op(p, t, kw, n, s, le);
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

