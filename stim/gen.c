/*
 * Seeded random stimulus: phases of lane patterns and bursts of register
 * actions (gen.h). The register programs themselves are in gen_prog.c.
 */
#include <string.h>

#include "gen.h"
#include "gen_prog.h"

/* A gap with mean `mean` cycles (uniform 1..2*mean), UINT64_MAX when mean is 0. */
static uint64_t gap(spu_gen_t *g, uint32_t mean)
{
    return mean ? g->cycle + 1 + rng_below(&g->rng, 2 * mean) : UINT64_MAX;
}

/* A new phase: a lane pattern of 1..16 cycles repeated for a random length,
 * at a density around the pop_density knob (0 % and 100 % included). */
static void new_phase(spu_gen_t *g)
{
    static const uint32_t scale[] = {0, 25, 50, 100, 100, 100, 200, 400};
    uint32_t d = g->p.pop_density * scale[rng_below(&g->rng, 8)] / 100;
    if (d > 100)
        d = 100;
    g->period = 1 + rng_below(&g->rng, GEN_MAX_PERIOD);
    g->prefix[0] = 0;
    for (uint32_t i = 0; i < g->period; i++) {
        uint8_t m = 0;
        for (unsigned l = 0; l < g->cfg->lanes; l++)
            if (rng_below(&g->rng, 100) < d)
                m |= (uint8_t)(1u << l);
        g->mask[i] = m;
        g->prefix[i + 1] = g->prefix[i] + (uint32_t)__builtin_popcount(m);
    }
    g->pat_start = g->cycle;
    g->pat_idx = 0;
    /* Mostly short phases, some very long ones (where csim skips ahead). */
    uint64_t len = rng_below(&g->rng, 4) ? 1 + rng_below(&g->rng, 200)
                                         : 1 + rng_below(&g->rng, g->phase_max);
    g->phase_end = g->cycle + len;
}

/* Lower a mean gap to at most c cycles (0, never, stays never). */
static void cap_gap(uint32_t *gap_mean, uint64_t c)
{
    if (c == 0)
        c = 1;
    if (*gap_mean > c)
        *gap_mean = (uint32_t)c;
}

/* A short run (end_cycle < GEN_SHORT_RUN): the knobs that set a time scale
 * are fitted to the length L, so that the run sees several phases, programs
 * and toggles, and INTERVAL is small enough that a program lasting the whole
 * run still selects about 32 members (about half of them
 * while profiling is enabled). The start sequence is fitted too
 * (gen_prog_program). A longer run keeps the knobs as they are. */
static void fit_short_run(spu_gen_t *g)
{
    const uint64_t len = g->end_cycle;
    gen_params_t *p = &g->p;
    g->short_run = 1;
    g->phase_max = len / 10 == 0 ? 1 : len / 10 < GEN_LONG_PHASE ? (uint32_t)(len / 10) : GEN_LONG_PHASE;
    /* a long op holds a slot for at most a tenth of the run (at least fin_max) */
    if (len / 10 < g->long_lat)
        g->long_lat = len / 10 > p->fin_max ? (uint32_t)(len / 10) : p->fin_max;
    cap_gap(&p->reprog_gap, len / 10);
    cap_gap(&p->toggle_gap, len / 8);
    cap_gap(&p->read_gap, len / 20);
    cap_gap(&p->reset_gap, len / 2);
    const uint64_t members = len * g->cfg->lanes * p->pop_density / 100;
    uint64_t int_cap = members / (256u * 32u);
    if (int_cap < 1)
        int_cap = 1;
    if (p->int_max > int_cap)
        p->int_max = (uint32_t)int_cap;
    if (p->int_min > p->int_max)
        p->int_min = p->int_max;
}

/* With no_regs: one context change, mostly profiling allowed at EL0 or EL1
 * (sometimes EL2/EL3, sometimes the previous EL with allow flipped). */
static void ctx_change(spu_gen_t *g)
{
    gen_action_t *a = &g->act[g->nact++];
    const uint32_t r = rng_below(&g->rng, 8);
    memset(a, 0, sizeof *a);
    a->kind = GEN_ACT_CTX;
    a->el = r == 0 ? (uint8_t)rng_below(&g->rng, 4) : r == 1 ? g->el : (uint8_t)rng_below(&g->rng, 2);
    a->allow = r == 1 ? (uint8_t)!g->allow : 1;
}

uint32_t gen_fin_bound(const spu_gen_t *g)
{
    /* gen_op(): fin_max, or long_lat for a p_long op */
    return g->p.fin_max > g->long_lat ? g->p.fin_max : g->long_lat;
}

void gen_init(spu_gen_t *g, const spu_config_t *cfg, const gen_params_t *p, uint64_t seed,
              uint64_t end_cycle, uint64_t end_ops)
{
    memset(g, 0, sizeof *g);
    g->cfg = cfg;
    g->p = *p;
    g->seed = seed;
    g->rng = seed ^ 0x5EED5EED5EED5EEDull;
    g->end_cycle = end_cycle;
    g->end_ops = end_ops;
    g->phase_max = GEN_LONG_PHASE;
    g->long_lat = GEN_LONG_LAT;
    if (g->p.no_regs) /* only the context changes, now and then */
        g->p.reprog_gap = g->p.read_gap = g->p.reset_gap = 0;
    if (end_cycle < GEN_SHORT_RUN)
        fit_short_run(g);
    new_phase(g);
    if (g->p.no_regs)
        ctx_change(g);
    else
        gen_prog_program(g); /* software programs the unit first */
    g->next_reprog = gap(g, g->p.reprog_gap);
    g->next_toggle = gap(g, g->p.toggle_gap);
    g->next_read = gap(g, g->p.read_gap);
    g->next_reset = gap(g, g->p.reset_gap);
    if (g->short_run) {
        /* the start program stands for the first quarter of a short run */
        const uint64_t q = end_cycle / 4;
        if (g->next_reprog != UINT64_MAX)
            g->next_reprog += q;
        if (g->next_toggle != UINT64_MAX)
            g->next_toggle += q;
    }
}

/* First cycle from which something other than plain members happens. */
static uint64_t plain_until(const spu_gen_t *g)
{
    uint64_t t = g->phase_end;
    const uint64_t c[] = {g->next_reprog, g->next_toggle, g->next_read, g->next_reset, g->end_cycle};
    if (g->iact < g->nact || g->ham_left)
        return g->cycle;
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        if (c[i] < t)
            t = c[i];
    return t;
}

/* Queue the bursts that are due this cycle. */
static void schedule(spu_gen_t *g)
{
    if (g->iact < g->nact)
        return;
    g->iact = g->nact = 0;
    if (g->ham_left) {
        gen_prog_hammer_more(g);
    } else if (g->cycle >= g->next_reset) {
        g->next_reset = gap(g, g->p.reset_gap);
        gen_prog_reset(g);
    } else if (g->cycle >= g->next_reprog) {
        g->next_reprog = gap(g, g->p.reprog_gap);
        gen_prog_reprogram(g);
    } else if (g->cycle >= g->next_toggle) {
        g->next_toggle = gap(g, g->p.toggle_gap);
        if (g->p.no_regs)
            ctx_change(g);
        else
            gen_prog_toggle(g);
    } else if (g->cycle >= g->next_read) {
        g->next_read = gap(g, g->p.read_gap);
        gen_prog_read(g);
    }
}

/* The cycles up to plain_until() carry only members; gen_next() takes the
 * short path through them (it runs every cycle of a lockstep run). */
static void take_action(spu_gen_t *g, spu_cyc_t *cy)
{
    const gen_action_t *a = &g->act[g->iact++];
    switch (a->kind) {
    case GEN_ACT_WRITE:
    case GEN_ACT_READ:
        cy->reg_valid = 1;
        cy->reg_write = a->kind == GEN_ACT_WRITE;
        cy->reg_enc = a->enc;
        cy->reg_wdata = a->kind == GEN_ACT_WRITE ? a->value : 0;
        break;
    case GEN_ACT_CTX:
        g->el = a->el;
        g->allow = a->allow;
        break;
    default: /* GEN_ACT_RESET: the cycle carries nothing else */
        cy->reset = 1;
        g->el = 0;
        g->allow = 0;
        break;
    }
}

static int gen_next(void *self, spu_cyc_t *cy)
{
    spu_gen_t *g = self;
    if (g->next_op >= g->end_ops)
        return 0;
    /* Clear only the fields a cycle may set; op_id[] is read only for lanes
     * in pop_mask. */
    cy->cycle = g->cycle;
    cy->reset = 0;
    cy->pop_mask = 0;
    cy->reg_valid = 0;
    cy->reg_write = 0;
    cy->reg_enc = 0;
    cy->reg_wdata = 0;
    if (g->cycle >= g->quiet_until) {
        if (g->cycle >= g->end_cycle)
            return 0;
        if (g->cycle >= g->phase_end)
            new_phase(g);
        schedule(g);
        if (g->iact < g->nact)
            take_action(g, cy);
        g->quiet_until = g->iact < g->nact ? g->cycle + 1 : plain_until(g);
    }
    cy->el = g->el;
    cy->allow = g->allow;
    if (!cy->reset) {
        const int full = cy->reg_valid && g->act[g->iact - 1].full;
        uint8_t m = full ? (uint8_t)((1u << g->cfg->lanes) - 1u) : g->mask[g->pat_idx];
        for (unsigned l = 0; m; l++, m >>= 1) {
            if (!(m & 1u))
                continue;
            if (g->next_op >= g->end_ops)
                break;
            cy->pop_mask |= (uint8_t)(1u << l);
            cy->op_id[l] = g->next_op++;
        }
    }
    if (++g->pat_idx == g->period)
        g->pat_idx = 0;
    g->cycle++;
    return 1;
}

/* Members in k cycles of the pattern starting at pattern offset o. */
static uint64_t pops_in(const spu_gen_t *g, uint64_t o, uint64_t k)
{
    const uint64_t per = g->period, tot = g->prefix[per];
    uint64_t n = (k / per) * tot;
    const uint64_t r = k % per, end = o + r;
    n += end <= per ? g->prefix[end] - g->prefix[o]
                    : (tot - g->prefix[o]) + g->prefix[end - per];
    return n;
}

static uint64_t gen_skip(void *self, uint64_t max_cycles, uint64_t max_pops, uint64_t *pops, uint8_t *pop_mask)
{
    spu_gen_t *g = self;
    *pops = 0;
    const uint64_t until = plain_until(g);
    if (until <= g->cycle || g->next_op >= g->end_ops)
        return 0;
    uint64_t lim = until - g->cycle;
    if (lim > max_cycles)
        lim = max_cycles;
    const uint64_t ops_left = g->end_ops - g->next_op;
    const uint64_t budget = max_pops < ops_left ? max_pops : ops_left;
    const uint64_t o = g->pat_idx;
    uint64_t k = lim;
    if (pops_in(g, o, k) > budget) {
        /* Largest k with pops_in(o, k) <= budget: pops_in is monotonic in k. */
        uint64_t lo = 0, hi = lim;
        while (lo < hi) {
            const uint64_t mid = lo + (hi - lo + 1) / 2;
            if (pops_in(g, o, mid) <= budget)
                lo = mid;
            else
                hi = mid - 1;
        }
        k = lo;
    }
    if (k && pops_in(g, o, k) == ops_left) {
        /* The last member: the stimulus ends with its cycle, as next() does. */
        uint64_t lo = 1, hi = k;
        while (lo < hi) {
            const uint64_t mid = lo + (hi - lo) / 2;
            if (pops_in(g, o, mid) >= ops_left)
                hi = mid;
            else
                lo = mid + 1;
        }
        k = lo;
    }
    *pops = pops_in(g, o, k);
    if (pop_mask) /* the pattern's masks, whole: the members do not run out before the last */
        for (uint64_t i = 0, j = o, n; i < k; i += n, j = 0) {
            n = g->period - j < k - i ? g->period - j : k - i;
            memcpy(pop_mask + i, g->mask + j, n);
        }
    g->cycle += k;
    g->pat_idx = (uint32_t)((o + k) % g->period);
    g->next_op += *pops;
    return k;
}

static int gen_op_cb(void *self, uint64_t id, spu_op_t *op)
{
    const spu_gen_t *g = self;
    if (id >= g->next_op)
        return -1; /* never handed out */
    gen_op(g, id, op);
    return 0;
}

spu_src_t gen_source(spu_gen_t *g)
{
    spu_src_t s = {g, gen_next, gen_op_cb, gen_skip, NULL}; /* open loop */
    return s;
}
