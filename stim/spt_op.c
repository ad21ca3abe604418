/*
 * The .spt `op` line (spt_priv.h: spt_line_op()): its keys, what each
 * implies and excludes, and where its members go (lanes, cycles, op*N
 * runs). The rest of the parser is spt.c. Format: docs/formats.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "spt_priv.h"

const char *const spt_type_names[5] = {"B", "LD", "ST", "FP", "SIMD"}; /* enum spu_type_bit */

static int parse_type(parser_t *p, tok_t x, tok_t v, uint8_t *type)
{
    const char *const *names = spt_type_names;
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
    if (spt_grow(&a, &cap, t->nrec + 1, sizeof *t->ops))
        return spt_fail(p, p->ls, "out of memory"), UINT64_MAX;
    t->ops = a;
    a = t->oploc;
    if (spt_grow(&a, &t->opcap, t->nrec + 1, sizeof *t->oploc))
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
        spt_item_t *run = spt_next_item(p, t);
        if (!run)
            return -1;
        run->cycle = p->cur + 1;
        run->rep = rep - 2;
        run->first_op = id + 1;
        run->pop_mask = (uint8_t)(1u << l2);
    }
    p->cur += rep - 1;
    it = spt_cur_item(p, t);
    if (!it)
        return -1;
    it->first_op = id + rep - 1;
    it->pop_mask = (uint8_t)(1u << l2);
    it->next_lane = (uint8_t)(l2 + 1);
    return 0;
}

int spt_line_op(parser_t *p, spt_trace_t *t, tok_t kw, uint64_t rep, const char *s, const char *le)
{
    spu_op_t op = SPU_OP_DEFAULT;
    tok_t x, k, v;
    const char *at[K_NKEYS] = {0};
    uint64_t lane = 0, pass = 1;
    char b[200];
    while (spt_next_tok(&s, le, &x)) {
        if (spt_split_kv(p, x, &k, &v))
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
    spt_item_t *it = spt_cur_item(p, t);
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

