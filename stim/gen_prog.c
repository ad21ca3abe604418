/*
 * What the generator's software does to the unit: the Linux-like start
 * sequence, mid-run reprogramming, enable toggling, reads (including UNDEFINED
 * encodings) and resets. Each op's attributes are gen_op.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gen_prog.h"

#define PCT(g, n) (rng_below(&(g)->rng, 100) < (n))

static void push(spu_gen_t *g, uint8_t kind, int reg, uint64_t value)
{
    if (g->nact >= GEN_MAX_ACTIONS)
        return;
    /* Now and then RES0 / RAZ-WI bits set as well: they must read back as
     * zero and change nothing (D17.x register pages). */
    if (kind == GEN_ACT_WRITE && reg >= 0 && rng_below(&g->rng, 100) < 15)
        value |= rng_next(&g->rng) & ~g->cfg->wmask[reg];
    gen_action_t *a = &g->act[g->nact++];
    memset(a, 0, sizeof *a);
    a->kind = kind;
    a->enc = reg >= 0 ? spu_reg_enc(reg) : 0;
    a->value = value;
}

/* The last action queued gets a member in every lane of its cycle. */
static void fill_lanes(spu_gen_t *g)
{
    if (g->nact)
        g->act[g->nact - 1].full = 1;
}

static void push_ctx(spu_gen_t *g, uint8_t el, uint8_t allow)
{
    push(g, GEN_ACT_CTX, -1, 0);
    g->act[g->nact - 1].el = el;
    g->act[g->nact - 1].allow = allow;
}

/* A few bits of `mask`, or occasionally zero or junk (CU and RAZ/WI cases). */
static uint64_t sparse(spu_gen_t *g, uint64_t mask)
{
    const uint32_t r = rng_below(&g->rng, 10);
    if (r == 0)
        return 0;
    if (r == 1)
        return rng_next(&g->rng);
    /* One or two of the implemented bits. */
    uint64_t v = 0;
    const int nbits = __builtin_popcountll(mask);
    for (int i = 0, n = 1 + (int)rng_below(&g->rng, 2); i < n && nbits; i++) {
        uint64_t m = mask;
        for (uint32_t k = rng_below(&g->rng, (uint32_t)nbits); k; k--)
            m &= m - 1;
        v |= m & -m;
    }
    return v;
}

static uint64_t fcr_value(spu_gen_t *g)
{
    uint64_t v = 0;
    const uint32_t pf = g->p.p_filter;
    /* One draw per statement: the order of draws is the stimulus. */
    v |= SPU_PUT(PMSFCR_EL1, FE, PCT(g, pf));
    v |= SPU_PUT(PMSFCR_EL1, FT, PCT(g, pf + (100 - pf) / 3)); /* the type filter has the most classes */
    v |= SPU_PUT(PMSFCR_EL1, FL, PCT(g, pf));
    v |= SPU_PUT(PMSFCR_EL1, FnE, PCT(g, pf));
    v |= SPU_PUT(PMSFCR_EL1, FDS, PCT(g, pf));
    /* Each type bit (TYPE<2:0> = B, LD, ST; TYPE<4:3> = FP, SIMD) in one of
     * the EFT classes, mostly "any" so that the others can still pass:
     * ctrl/mask 0/0 any (60 %), 1/0 or (10 %), 1/1 must be set (20 %),
     * 0/1 must be clear (10 %). */
    uint64_t type = 0, typem = 0;
    for (unsigned bit = 0; bit < 5; bit++) {
        const uint32_t k = rng_below(&g->rng, 10);
        type |= (uint64_t)(k == 6 || k == 7 || k == 8) << bit;
        typem |= (uint64_t)(k == 7 || k == 8 || k == 9) << bit;
    }
    if (PCT(g, 10)) /* a dense, mostly rejecting pattern too */
        type = rng_next(&g->rng), typem = PCT(g, 50) ? rng_next(&g->rng) : 0;
    else if (PCT(g, 5)) /* TYPE = 0 with one must-be-clear bit */
        type = 0, typem = 1ull << rng_below(&g->rng, 5);
    else if (PCT(g, 30)) { /* one type bit constrained, in one class, the rest any */
        const uint64_t bit = 1ull << rng_below(&g->rng, 5);
        const uint32_t k = 1 + rng_below(&g->rng, 3); /* or, must be clear, must be set */
        type = (k & 1u) ? bit : 0, typem = (k & 2u) ? bit : 0;
    }
    v |= SPU_PUT(PMSFCR_EL1, TYPE, type) |
         SPU_PUT(PMSFCR_EL1, TYPEX, type >> (SPU_F_PMSFCR_EL1_TYPE_MSB - SPU_F_PMSFCR_EL1_TYPE_LSB + 1)) |
         SPU_PUT(PMSFCR_EL1, TYPEm, typem);
    if (PCT(g, 5))
        v |= rng_next(&g->rng); /* RES0 bits must read back as zero */
    return v;
}

/* PMSIRR; `start` is the start sequence of a short run: INTERVAL is never 0
 * there (INTERVAL0 = 0 would sample nothing until a reprogram). */
static uint64_t irr_value(spu_gen_t *g, int start)
{
    uint64_t interval;
    if (!start && PCT(g, g->p.p_int0))
        interval = 0;
    else if (PCT(g, g->p.p_int1))
        interval = 1;
    else if (!start && PCT(g, 3)) { /* one high bit, or a few random ones: COUNT's upper bits in use */
        const unsigned w = SPU_F_PMSIRR_EL1_INTERVAL_MSB - SPU_F_PMSIRR_EL1_INTERVAL_LSB + 1;
        interval = 1ull << rng_below(&g->rng, w);
        if (PCT(g, 50))
            interval |= rng_next(&g->rng) & rng_next(&g->rng) & ((1ull << w) - 1u);
    }
    else
        interval = g->p.int_min + rng_below(&g->rng, g->p.int_max - g->p.int_min + 1);
    uint64_t v = SPU_PUT(PMSIRR_EL1, INTERVAL, interval) | SPU_PUT(PMSIRR_EL1, RND, PCT(g, g->p.p_rnd));
    if (PCT(g, 3)) /* RES0 junk */
        v |= rng_next(&g->rng) & ~(SPU_F_PMSIRR_EL1_INTERVAL_MASK | SPU_F_PMSIRR_EL1_RND_MASK);
    return v;
}

/* PMSLATFR_EL1 with MINLAT = minlat: its low 12 bits in MINLAT, the rest in
 * MINLAT_HI (RES0 with 12-bit counters; the write mask drops it there). */
static uint64_t latfr(uint64_t minlat)
{
    const unsigned lo_bits = SPU_F_PMSLATFR_EL1_MINLAT_MSB - SPU_F_PMSLATFR_EL1_MINLAT_LSB + 1;
    return SPU_PUT(PMSLATFR_EL1, MINLAT, minlat) | SPU_PUT(PMSLATFR_EL1, MINLAT_HI, minlat >> lo_bits);
}

/* p_edge_buf: a buffer at the edges of the full test (docs/buffer.md),
 * starting near the end of its first page, so that records cross pages
 * (in a one-page buffer a fifth start past LIMIT - (1 << MaxSize)).
 * Its page: anywhere, the top page of the address space, or that page with
 * one bit clear; its size in pages: 1 to 3, or 2^k + j (k < 52, j < 4), so
 * that LIMIT - PMBPTR_EL1[63:12] meets 0, 1, 2 with one bit more, and
 * LIMIT wraps past 2^64 to 0, 1, 2^k + 1 from the top page. (The draws are
 * made only with the knob on: other runs' streams are unchanged.) */
static void buf_edge(spu_gen_t *g, uint64_t maxrec, uint64_t align)
{
    const uint32_t where = rng_below(&g->rng, 3);
    g->buf_base = where == 0 ? rng_next(&g->rng) & ~0xFFFull : ~0xFFFull;
    if (where == 2)
        g->buf_base &= ~(1ull << (12 + rng_below(&g->rng, 52)));
    const uint64_t pages = PCT(g, 50) ? 1 + rng_below(&g->rng, 3)
                                      : (1ull << rng_below(&g->rng, 52)) + rng_below(&g->rng, 4);
    g->buf_size = pages << 12;
    /* a fifth of the starts in the page's last 1 << MaxSize bytes: past
     * LIMIT - (1 << MaxSize) for a one-page buffer (D17.7.4; impl-defined.md
     * row 44: written where it points) */
    g->buf_base += (4095 - rng_below(&g->rng, (uint32_t)(5 * maxrec))) & ~(align - 1);
}

/* A Profiling Buffer as the Linux driver sets one up (docs/generator.md):
 * page-aligned (a quarter start a few bytes in with Align 0, a twentieth
 * with a larger Align, so records and write beats fall across 8-byte
 * boundaries every way), 4 KiB to 16 MiB.
 * p_small_buf % of them start near the end of their last page instead,
 * with room for a few records only, so that they fill (D17.7.4 allows any
 * start below LIMIT - 2^MaxSize). */
static void buf_new(spu_gen_t *g, int small)
{
    const uint64_t align = 1ull << (g->cfg->pmbidr & 0xFu);          /* PMBIDR_EL1.Align */
    const uint64_t maxrec = 1ull << SPU_GET(g->cfg->pmsidr, PMSIDR_EL1, MaxSize);
    /* most in the low 48 bits, an eighth anywhere in the 64 (the top byte a
     * tag, as in a pointer with TBI) */
    g->buf_base = rng_next(&g->rng) & (PCT(g, 12) ? ~0xFFFull : 0x0000FFFFFFFFF000ull);
    g->buf_size = 4096ull << rng_below(&g->rng, 13);
    if (g->p.p_edge_buf && PCT(g, g->p.p_edge_buf)) {
        buf_edge(g, maxrec, align);
    } else if (small || PCT(g, g->p.p_small_buf)) {
        g->buf_size = 4096;
        g->buf_base += (4096 - maxrec - rng_below(&g->rng, (uint32_t)(4 * maxrec))) & ~(align - 1);
    } else if (PCT(g, align == 1 ? 25 : 5)) {
        /* a start a few bytes in; with Align > 0 not aligned to it, which
         * D17.7.4 makes CONSTRAINED UNPREDICTABLE (impl-defined.md row 44:
         * written where it points) */
        g->buf_base |= rng_below(&g->rng, 64);
    }
}

/* PMBLIMITR_EL1.LIMIT of the buffer: its first page after the end. */
static uint64_t buf_limit(const spu_gen_t *g)
{
    return ((g->buf_base & ~0xFFFull) + g->buf_size) >> SPU_F_PMBLIMITR_EL1_LIMIT_LSB;
}

/* Software re-arms the buffer from its start (the driver after a
 * buffer-full interrupt, before it clears PMBSR_EL1). */
static void buf_rearm(spu_gen_t *g)
{
    push(g, GEN_ACT_WRITE, SPU_REG_PMBPTR_EL1, g->buf_base);
}

/* PMBLIMITR_EL1: the buffer's LIMIT, FM = 0 (no discard), E = 1. */
static uint64_t limitr_plain(spu_gen_t *g)
{
    return SPU_PUT(PMBLIMITR_EL1, LIMIT, buf_limit(g)) | SPU_PUT(PMBLIMITR_EL1, E, 1);
}

/* PMSFCR_EL1 v with FL the only filter enabled (TYPE and masks kept). */
static uint64_t latency_filter_only(uint64_t v)
{
    v &= ~(SPU_F_PMSFCR_EL1_FE_MASK | SPU_F_PMSFCR_EL1_FT_MASK | SPU_F_PMSFCR_EL1_FL_MASK |
           SPU_F_PMSFCR_EL1_FnE_MASK | SPU_F_PMSFCR_EL1_FDS_MASK);
    return v | SPU_PUT(PMSFCR_EL1, FL, 1);
}

static uint64_t limitr_value(spu_gen_t *g)
{
    const uint64_t fm = PCT(g, 80) ? 0 : PCT(g, 75) ? 2 : rng_below(&g->rng, 4);
    return SPU_PUT(PMBLIMITR_EL1, LIMIT, buf_limit(g)) | SPU_PUT(PMBLIMITR_EL1, FM, fm) | SPU_PUT(PMBLIMITR_EL1, E, 1);
}

/* PMSCR_EL1 with sampling at EL0 and EL1. */
static uint64_t pmscr_both_els(void)
{
    return SPU_PUT(PMSCR_EL1, E0SPE, 1) | SPU_PUT(PMSCR_EL1, E1SPE, 1);
}

/* What records collect (PMSCR_EL1.CX, PA, TS, PCT): no effect on sampling,
 * each bit half the time. */
static uint64_t pmscr_collect(spu_gen_t *g)
{
    const uint64_t r = rng_next(&g->rng);
    return SPU_PUT(PMSCR_EL1, CX, r) | SPU_PUT(PMSCR_EL1, PA, r >> 1) | SPU_PUT(PMSCR_EL1, TS, r >> 2) |
           SPU_PUT(PMSCR_EL1, PCT, r >> 3);
}

static uint64_t pmscr_value(spu_gen_t *g)
{
    if (PCT(g, 80))
        return pmscr_both_els() | pmscr_collect(g);
    const uint32_t els = rng_below(&g->rng, 4);
    const uint64_t rest = rng_next(&g->rng); /* CX, PA, TS, PCT: no effect on sampling */
    return SPU_PUT(PMSCR_EL1, E0SPE, els) | SPU_PUT(PMSCR_EL1, E1SPE, els >> 1) |
           SPU_PUT(PMSCR_EL1, CX, rest >> 3) | SPU_PUT(PMSCR_EL1, PA, rest >> 4) |
           SPU_PUT(PMSCR_EL1, TS, rest >> 5) | SPU_PUT(PMSCR_EL1, PCT, rest >> 6);
}

/* PMSNEVFR_EL1: sometimes the PMSEVFR_EL1 value, so that FE and FnE overlap
 * (a CONSTRAINED UNPREDICTABLE case, D17.5.2). */
static uint64_t nevfr_value(spu_gen_t *g)
{
    if (g->last_evfr && PCT(g, 25))
        return g->last_evfr;
    return sparse(g, g->cfg->event_mask);
}

/* One register write chosen among the filter and interval controls. */
static void write_some(spu_gen_t *g)
{
    const spu_config_t *c = g->cfg;
    switch (rng_below(&g->rng, 11)) {
    case 0: push(g, GEN_ACT_WRITE, SPU_REG_PMSFCR_EL1, fcr_value(g)); break;
    case 1: push(g, GEN_ACT_WRITE, SPU_REG_PMSEVFR_EL1, g->last_evfr = sparse(g, c->event_mask)); break;
    case 2: push(g, GEN_ACT_WRITE, SPU_REG_PMSNEVFR_EL1, nevfr_value(g)); break;
    case 3: push(g, GEN_ACT_WRITE, SPU_REG_PMSDSFR_EL1, rng_next(&g->rng)); break;
    case 4: push(g, GEN_ACT_WRITE, SPU_REG_PMSLATFR_EL1, latfr(PCT(g, 20) ? 0 : rng_below(&g->rng, 2 * g->p.fin_max + 2))); break;
    case 9: { /* PMBPTR_EL1: re-arm; a new buffer; now and then one past the limit (D17.7.4) */
        const uint32_t r = rng_below(&g->rng, 100);
        if (r < 10) {
            buf_new(g, 0);
            buf_rearm(g);
            push(g, GEN_ACT_WRITE, SPU_REG_PMBLIMITR_EL1, limitr_value(g));
        } else if (r < 15) {
            push(g, GEN_ACT_WRITE, SPU_REG_PMBPTR_EL1, rng_next(&g->rng) & ~0xFFFull);
        } else {
            buf_rearm(g);
        }
        break;
    }
    case 10: push(g, GEN_ACT_WRITE, SPU_REG_PMSCR_EL1, pmscr_value(g)); break;
    case 5: push(g, GEN_ACT_WRITE, SPU_REG_PMSIRR_EL1, irr_value(g, 0)); break;
    case 6: { /* a small remaining interval, as a context switch restores it (sometimes any) */
        const uint64_t count = PCT(g, 10) ? rng_next(&g->rng) : rng_below(&g->rng, 600);
        const uint64_t ecount = PCT(g, 30) ? rng_next(&g->rng) : 0;
        push(g, GEN_ACT_WRITE, SPU_REG_PMSICR_EL1,
             SPU_PUT(PMSICR_EL1, COUNT, count) | SPU_PUT(PMSICR_EL1, ECOUNT, ecount));
        break;
    }
    case 7: push(g, GEN_ACT_WRITE, SPU_REG_PMBLIMITR_EL1, limitr_value(g)); break;
    default: /* PMBSR_EL1 cleared after a re-arm, or its syndrome fields set (S mostly clear) */
        if (PCT(g, 50)) {
            buf_rearm(g);
            push(g, GEN_ACT_WRITE, SPU_REG_PMBSR_EL1, 0);
        } else {
            push(g, GEN_ACT_WRITE, SPU_REG_PMBSR_EL1, rng_next(&g->rng) & ~(PCT(g, 90) ? SPU_F_PMBSR_EL1_S_MASK : 0));
        }
        break;
    }
    /* Software reading back what it wrote (a syndrome, a restored counter):
     * the written value is seen before anything else changes it. */
    if (g->nact && g->act[g->nact - 1].kind == GEN_ACT_WRITE && PCT(g, 25)) {
        const uint16_t enc = g->act[g->nact - 1].enc;
        push(g, GEN_ACT_READ, -1, 0);
        g->act[g->nact - 1].enc = enc;
    }
}

/* The start order of the Linux SPE driver. In a short
 * run (gen.h) the sequence always enables profiling at the EL it picks, with
 * no discard mode, INTERVAL >= 1 and the latency filter as the only filter,
 * MINLAT near the middle of the finish latencies, so that about half the
 * records are kept and half rejected until a reprogram changes the filters;
 * the register values are otherwise as random as in a long run. */
void gen_prog_program(spu_gen_t *g)
{
    const spu_config_t *c = g->cfg;
    const int fit = g->short_run;
    buf_new(g, 0);
    buf_rearm(g);
    push(g, GEN_ACT_WRITE, SPU_REG_PMBLIMITR_EL1, fit ? limitr_plain(g) : limitr_value(g));
    push(g, GEN_ACT_WRITE, SPU_REG_PMSFCR_EL1, fit ? latency_filter_only(fcr_value(g)) : fcr_value(g));
    push(g, GEN_ACT_WRITE, SPU_REG_PMSEVFR_EL1, g->last_evfr = sparse(g, c->event_mask));
    if (c->features & SPU_FEAT_FNE)
        push(g, GEN_ACT_WRITE, SPU_REG_PMSNEVFR_EL1, nevfr_value(g));
    if (c->features & SPU_FEAT_FDS)
        push(g, GEN_ACT_WRITE, SPU_REG_PMSDSFR_EL1, rng_next(&g->rng));
    push(g, GEN_ACT_WRITE, SPU_REG_PMSLATFR_EL1,
         latfr(fit ? (1u + g->p.fin_max / 2) & SPU_GET(~0ull, PMSLATFR_EL1, MINLAT) /* fits 12-bit counters */
                   : rng_below(&g->rng, 2 * g->p.fin_max + 2)));
    push(g, GEN_ACT_WRITE, SPU_REG_PMSIRR_EL1, irr_value(g, fit));
    push(g, GEN_ACT_WRITE, SPU_REG_PMSICR_EL1, 0);
    push_ctx(g, PCT(g, 50) ? 0 : 1, 1);
    push(g, GEN_ACT_WRITE, SPU_REG_PMSCR_EL1, pmscr_value(g) | (fit ? pmscr_both_els() : 0));
}

/* A hammer burst: PMSICR rewritten every cycle with a tiny remaining
 * interval while every lane has a member, so that a selection falls in most
 * cycles (slots fill, collide, free and are taken again at once).
 *
 * Several selections in one cycle need two interval expiries in it; a reload
 * is 0 or at least 256 members, so with ERnd the second one comes from
 * ECOUNT: ECOUNT = e expires at member e, COUNT = c > e expires at member c,
 * draws r and selects at member c + r, in the same cycle when r <= LANES - c
 * (r = 0: at once). Each attempt draws at most once, so without knowing the
 * draws e = 1, c = 2 (the widest window) is the common choice. A burst that
 * starts from a reset knows them: the LFSR restarts at LFSR_SEED and nothing
 * draws before the burst (with ERnd only a COUNT expiry draws, and the start
 * sequence counts fewer than 256 members), so the generator steps its own
 * copy of the LFSR (spu_lfsr_draw()) and sets up two selections whenever the
 * coming draw allows it, and a zero draw at once on one lane
 * (docs/generator.md). */
static void hammer_attempt(spu_gen_t *g)
{
    const unsigned lanes = g->cfg->lanes;
    uint64_t e = 0, c;
    if (g->ham_lfsr_known) {
        uint32_t peek = g->ham_lfsr;
        const unsigned r = spu_lfsr_draw(&peek);
        if (lanes == 1) {
            c = 1;
            if (r != 0 && PCT(g, 10)) /* ECOUNT from software expires; no draw */
                e = 1, c = 2;
        } else if (r + 2 <= lanes) {
            c = 2 + rng_below(&g->rng, lanes - 1 - r);
            e = 1 + rng_below(&g->rng, (uint32_t)c - 1);
        } else {
            c = 1; /* spend the draw */
        }
        if (c <= lanes)
            (void)spu_lfsr_draw(&g->ham_lfsr);
    } else if (g->ham_ernd && lanes > 1 && PCT(g, 75)) {
        e = 1, c = 2;
    } else {
        /* c = LANES + 1 leaves a cycle without a selection (a slot freed in
         * it is taken in the next one) */
        c = 1 + rng_below(&g->rng, lanes + 1);
        if (g->ham_ernd && c > 1)
            e = 1 + rng_below(&g->rng, (uint32_t)c - 1);
    }
    push(g, GEN_ACT_WRITE, SPU_REG_PMSICR_EL1, SPU_PUT(PMSICR_EL1, ECOUNT, e) | SPU_PUT(PMSICR_EL1, COUNT, c));
    fill_lanes(g);
}

/* The next part of a hammer burst (gen.c calls it while ham_left > 0). */
void gen_prog_hammer_more(spu_gen_t *g)
{
    for (unsigned i = 0; i < GEN_HAMMER && g->ham_left; i++, g->ham_left--)
        hammer_attempt(g);
    if (g->ham_left)
        return;
    g->ham_lfsr_known = 0;
    push(g, GEN_ACT_READ, SPU_REG_PMSICR_EL1, 0);
    fill_lanes(g);
    /* The slots are full now: sometimes reset or stop profiling with samples
     * in flight (their finishes then arrive while disabled), also by stopping
     * or disabling the Profiling Buffer (D17.4: their records are not
     * written). */
    const uint32_t r = rng_below(&g->rng, 100);
    if (r < 35)
        gen_prog_reset(g);
    else if (r < 50)
        push_ctx(g, g->el, 0);
    else if (r < 68)
        push(g, GEN_ACT_WRITE, SPU_REG_PMBSR_EL1, SPU_PUT(PMBSR_EL1, S, 1));
    else if (r < 78)
        push(g, GEN_ACT_WRITE, SPU_REG_PMBLIMITR_EL1, 0);
}

static void hammer(spu_gen_t *g)
{
    const int ernd_cfg = (g->cfg->features & SPU_FEAT_ERND) != 0;
    g->ham_ernd = ernd_cfg && PCT(g, 70);
    g->ham_left = GEN_HAMMER;
    if (g->ham_ernd && PCT(g, 15)) {
        /* from a reset, profiling surely enabled: the draws are known */
        gen_prog_reset(g);
        push_ctx(g, 1, 1);
        push(g, GEN_ACT_WRITE, SPU_REG_PMSCR_EL1, pmscr_both_els() | pmscr_collect(g));
        push(g, GEN_ACT_WRITE, SPU_REG_PMBLIMITR_EL1, limitr_plain(g));
        g->ham_lfsr = g->cfg->knob[SPU_KNOB_LFSR_SEED];
        g->ham_lfsr_known = 1;
        g->ham_left = GEN_HAMMER_KNOWN;
    } else {
        /* software (re)starts profiling first, so the burst samples; a
         * third of the bursts into a buffer with room for a few records, so
         * that the records of one cycle fill it (later ports not written) */
        if (PCT(g, 33))
            buf_new(g, 1);
        buf_rearm(g);
        push(g, GEN_ACT_WRITE, SPU_REG_PMBSR_EL1, 0);
        push(g, GEN_ACT_WRITE, SPU_REG_PMBLIMITR_EL1, limitr_plain(g));
        push_ctx(g, g->el < 2 ? g->el : 1, 1);
        push(g, GEN_ACT_WRITE, SPU_REG_PMSCR_EL1, pmscr_both_els() | pmscr_collect(g));
    }
    const uint64_t interval = PCT(g, 20) ? 0 : 1 + rng_below(&g->rng, 2);
    push(g, GEN_ACT_WRITE, SPU_REG_PMSIRR_EL1,
         SPU_PUT(PMSIRR_EL1, INTERVAL, interval) | SPU_PUT(PMSIRR_EL1, RND, g->ham_ernd || PCT(g, 50)));
}

void gen_prog_reprogram(spu_gen_t *g)
{
    if (rng_below(&g->rng, 100) < g->p.p_close) {
        hammer(g);
        return;
    }
    for (int i = 0, n = 1 + (int)rng_below(&g->rng, 3); i < n; i++)
        write_some(g);
}

/* In a short run every second toggle restarts profiling, as software that
 * stopped it would, so that no short run spends most of its cycles with
 * profiling off (a long run leaves that to chance). */
static void restart(spu_gen_t *g)
{
    buf_rearm(g);
    push(g, GEN_ACT_WRITE, SPU_REG_PMBSR_EL1, 0);
    push(g, GEN_ACT_WRITE, SPU_REG_PMBLIMITR_EL1, limitr_plain(g));
    push_ctx(g, PCT(g, 50) ? 0 : 1, 1);
    push(g, GEN_ACT_WRITE, SPU_REG_PMSCR_EL1, pmscr_value(g) | pmscr_both_els());
}

void gen_prog_toggle(spu_gen_t *g)
{
    if (g->short_run && (g->ntoggle++ & 1u)) {
        restart(g);
        return;
    }
    switch (rng_below(&g->rng, 8)) {
    case 6: /* stop and start as the Linux driver does: PMSICR_EL1 = 0 before the enable edge */
        push(g, GEN_ACT_WRITE, SPU_REG_PMSCR_EL1, 0);
        push(g, GEN_ACT_WRITE, SPU_REG_PMSICR_EL1, 0);
        push_ctx(g, PCT(g, 50) ? 0 : 1, 1);
        push(g, GEN_ACT_WRITE, SPU_REG_PMSCR_EL1, pmscr_both_els());
        break;
    case 7: /* a zero PMSICR_EL1 at the disable edge */
        push(g, GEN_ACT_WRITE, SPU_REG_PMSICR_EL1, 0);
        push_ctx(g, g->el, 0);
        break;
    case 0: push_ctx(g, (uint8_t)(PCT(g, 90) ? rng_below(&g->rng, 2) : rng_below(&g->rng, 4)), 1); break;
    case 1: push_ctx(g, g->el, (uint8_t)!g->allow); break;
    case 2: push(g, GEN_ACT_WRITE, SPU_REG_PMSCR_EL1, pmscr_value(g)); break;
    case 3: /* PMBSR_EL1.S set (stop), or cleared after a re-arm (restart) */
        if (PCT(g, 50)) {
            push(g, GEN_ACT_WRITE, SPU_REG_PMBSR_EL1, SPU_PUT(PMBSR_EL1, S, 1));
        } else {
            buf_rearm(g);
            push(g, GEN_ACT_WRITE, SPU_REG_PMBSR_EL1, 0);
        }
        break;
    case 4: push(g, GEN_ACT_WRITE, SPU_REG_PMBLIMITR_EL1, PCT(g, 55) ? limitr_value(g) : 0); break;
    default: push_ctx(g, g->el, 1); break;
    }
    if (!g->allow && PCT(g, 50))
        push_ctx(g, g->el, 1);
}

void gen_prog_read(spu_gen_t *g)
{
    const uint32_t r = rng_below(&g->rng, 100);
    if (r < 4) { /* an encoding nobody implements, read or written: any, or
                  * one bit away from a register's (a decoder that ignores
                  * a bit would answer it) */
        push(g, PCT(g, 50) ? GEN_ACT_WRITE : GEN_ACT_READ, -1, rng_next(&g->rng));
        uint16_t enc = (uint16_t)(0xC000u | rng_below(&g->rng, 0x4000));
        if (PCT(g, 50)) {
            enc = (uint16_t)(spu_reg_enc((int)rng_below(&g->rng, SPU_NREGS)) ^ (1u << rng_below(&g->rng, 14)));
            if (spu_reg_find(enc) >= 0) /* landed on another register: still a real access */
                enc ^= 0x2000u;
        }
        g->act[g->nact - 1].enc = enc;
    } else if (r < 10) { /* MSR to an ID register is UNDEFINED */
        push(g, GEN_ACT_WRITE, PCT(g, 50) ? SPU_REG_PMSIDR_EL1 : SPU_REG_PMBIDR_EL1, rng_next(&g->rng));
    } else if (r < 50) {
        push(g, GEN_ACT_READ, SPU_REG_PMSICR_EL1, 0);
    } else {
        push(g, GEN_ACT_READ, (int)rng_below(&g->rng, SPU_NREGS), 0);
    }
}

void gen_prog_reset(spu_gen_t *g)
{
    push(g, GEN_ACT_RESET, -1, 0); /* the context drops to EL0, not allowed, when it is taken */
    /* sometimes software reads the reset values first */
    for (int i = 0, n = PCT(g, 30) ? 1 + (int)rng_below(&g->rng, 3) : 0; i < n; i++)
        push(g, GEN_ACT_READ, (int)rng_below(&g->rng, SPU_NREGS), 0);
    gen_prog_program(g);
}
