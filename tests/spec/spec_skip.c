/*
 * Skipping ahead (spu_model_quiet_pops(), spu_model_skip(); docs/api.md):
 * the number of members that can be counted with no selection, no random
 * draw and no reload, worked out from SPEToCollectSample() of D17.3 (the
 * M.a.a pseudocode), and the PMSICR_EL1 a skip leaves, which must be the one
 * that counting the members one by one leaves. Each case writes PMSICR_EL1
 * directly (software may, D17.3.3: "sampling restarts from the current
 * values") while profiling is enabled.
 */
#include <stdio.h>
#include <string.h>

#include "spec.h"
#include "spu_fast.h"

/* Profiling enabled on cfg with PMSIRR_EL1 = irr, then PMSICR_EL1 = icr. */
static int at(spec_t *s, const char *cfg, uint64_t irr, uint64_t icr)
{
    TRY(spec_open(s, cfg));
    TRY(spec_enable(s, irr, 0, PMBLIMITR_E));
    spec_wr(s, SPU_REG_PMSICR_EL1, icr);
    CHECK_EQ(s->m.reg[SPU_REG_PMSICR_EL1], icr, "PMSICR_EL1 as written");
    CHECK_EQ(spu_model_settled(&s->m, s->el, s->allow), 1, "settled while enabled");
    return 0;
}

/* quiet_pops must be q; skipping q members (in q cycles) leaves PMSICR =
 * after; one more member is then selected iff sel. */
static int skip_case(spec_t *s, uint64_t q, uint64_t after, int sel)
{
    CHECK_EQ(spu_model_quiet_pops(&s->m, s->el, s->allow), q, "quiet members");
    CHECK_EQ(spu_model_skip(&s->m, q, q, s->el, s->allow), 0, "skip of %llu members", (unsigned long long)q);
    CHECK_EQ(s->m.reg[SPU_REG_PMSICR_EL1], after, "PMSICR_EL1 after the skip");
    spec_pop(s, 1);
    CHECK_EQ(s->o.smp_valid, sel, "selection of the next member");
    return 0;
}

/* D17.3.4.1, RND = 0: each member decrements COUNT and the one that makes it
 * zero is selected, so from COUNT = 100 members 1..99 are quiet and member
 * 100 is selected. ECOUNT takes part only when RND == 1 and FEAT_SPE_ERnd
 * (pseudocode: "if PMSIRR_EL1.RND == '1' && IsFeatureImplemented(FEAT_SPE_ERnd)
 * && !IsZero(PMSICR_EL1.ECOUNT)"), so on v1p4 an ECOUNT of 5 written by
 * software neither shortens the quiet stretch nor counts down. */
static int d17_3_4_1_skip_rnd0_ecount_idle(void)
{
    spec_t s;
    CASE(1);
    TRY(at(&s, "v1p4", IRR(1, 0), ICR(5, 100)));
    TRY(skip_case(&s, 99, ICR(5, 1), 1));
    CASE(2); /* the same without ECOUNT, and on v1 (no ERnd: ECOUNT is RES0) */
    TRY(at(&s, "v1", IRR(1, 0), ICR(0, 100)));
    TRY(skip_case(&s, 99, ICR(0, 1), 1));
    CASE(3); /* v1, RND = 1 (no ERnd): COUNT counts down the same way */
    TRY(at(&s, "v1", IRR(1, 1), ICR(0, 40)));
    TRY(skip_case(&s, 39, ICR(0, 1), 1));
    return 0;
}

/* spu_model_skip(): "-1 (and changes nothing) when the preconditions do not
 * hold": more members than are quiet (the 100th member from COUNT = 100 is
 * selected), or an enable edge pending (not settled). */
static int skip_refused(void)
{
    spec_t s;
    TRY(at(&s, "v1p4", IRR(1, 0), ICR(0, 100)));
    const uint64_t cyc = s.m.cycle;
    CASE(1);
    CHECK_EQ(spu_model_skip(&s.m, 100, 100, s.el, s.allow), (uint64_t)-1, "skip over the selected member");
    CHECK_EQ(s.m.reg[SPU_REG_PMSICR_EL1], ICR(0, 100), "PMSICR_EL1 after a refused skip");
    CHECK_EQ(s.m.cycle, cyc, "cycle after a refused skip");
    CASE(2);
    /* el 0 with E0SPE = 0 disables: the context would be a disable edge. */
    spec_wr(&s, SPU_REG_PMSCR_EL1, 0x2);
    CHECK_EQ(spu_model_settled(&s.m, 0, 1), 0, "settled across a disable edge");
    CHECK_EQ(spu_model_skip(&s.m, 5, 0, 0, 1), (uint64_t)-1, "skip across a disable edge");
    CHECK_EQ(s.m.cycle, cyc + 1, "cycle after a refused skip");
    return 0;
}

/* D17.3.4.3, RND = 1 with FEAT_SPE_ERnd (v1p4):
 * case 1: COUNT == 0 and ECOUNT != 0: the next member reloads COUNT (the
 *   call "only reloads the counter"): no member is quiet.
 * case 2: COUNT = 10, ECOUNT = 3: both count down; the third member makes
 *   ECOUNT 0 and is selected: 2 quiet, leaving {ECOUNT 1, COUNT 8}.
 * case 3: COUNT = 3, ECOUNT = 10: the third member makes COUNT 0 and draws
 *   ECOUNT: 2 quiet, leaving {8, 1}.
 * case 4: COUNT = 10, ECOUNT = 0: ECOUNT is not running (decrements only
 *   when nonzero): 9 quiet, ECOUNT stays 0, member 10 makes COUNT 0 and
 *   draws ECOUNT = draw #1 = 0xFF (tests/vectors/README.md): not selected. */
static int d17_3_4_3_skip_ernd(void)
{
    spec_t s;
    CASE(1);
    TRY(at(&s, "v1p4", IRR(1, 1), ICR(3, 0)));
    CHECK_EQ(spu_model_quiet_pops(&s.m, s.el, s.allow), 0, "quiet members with COUNT 0, ECOUNT 3");
    CHECK_EQ(spu_model_skip(&s.m, 1, 1, s.el, s.allow), (uint64_t)-1, "skip over a reload");
    spec_pop(&s, 1);
    CHECK_EQ(s.o.obs_pmsicr, ICR(2, 0x100), "PMSICR_EL1 after the reloading member");
    CASE(2);
    TRY(at(&s, "v1p4", IRR(1, 1), ICR(3, 10)));
    TRY(skip_case(&s, 2, ICR(1, 8), 1));
    CASE(3);
    TRY(at(&s, "v1p4", IRR(1, 1), ICR(10, 3)));
    TRY(skip_case(&s, 2, ICR(8, 1), 0));
    CHECK_EQ(s.o.obs_pmsicr, ICR(0xFF, 0), "ECOUNT drawn when COUNT reached 0");
    CASE(4);
    TRY(at(&s, "v1p4", IRR(1, 1), ICR(0, 10)));
    TRY(skip_case(&s, 9, ICR(0, 1), 0));
    CHECK_EQ(s.o.obs_pmsicr, ICR(0xFF, 0), "ECOUNT drawn when COUNT reached 0");
    return 0;
}

/* spu_fast_step() returns 1 for a plain cycle: D17.3.4.1, RND = 0, each
 * member decrements COUNT and the one that makes it zero is selected. From
 * COUNT = 2 the first member leaves 1 and is not selected (plain, the last
 * quiet member: spu_model_quiet_pops() is 1); the next is selected (not
 * plain). A cycle with a register access is not plain either. */
static int plain_cycle_return(void)
{
    spec_t s;
    TRY(at(&s, "v1p4", IRR(1, 0), ICR(0, 2)));
    CASE(1);
    CHECK_EQ(spu_model_quiet_pops(&s.m, s.el, s.allow), 1, "quiet members from COUNT 2");
    s.in.pop_valid = 1;
    s.in.rst_n = 1;
    s.in.el = s.el;
    s.in.prof_allowed = s.allow;
    s.in.mem_ready = 1;
    CHECK_EQ(spu_fast_step(&s.m, &s.in, &s.o), 1, "the member that leaves COUNT 1");
    CHECK_EQ(s.o.smp_valid, 0, "not selected");
    CHECK_EQ(s.o.obs_pmsicr, ICR(0, 1), "PMSICR_EL1 after it");
    CASE(2);
    CHECK_EQ(spu_fast_step(&s.m, &s.in, &s.o), 0, "the member that makes COUNT 0");
    CHECK_EQ(s.o.smp_valid, 1, "selected");
    CASE(3);
    s.in.pop_valid = 0;
    s.in.reg_valid = 1;
    s.in.reg_enc = spu_reg_enc(SPU_REG_PMSICR_EL1);
    CHECK_EQ(spu_fast_step(&s.m, &s.in, &s.o), 0, "a register read");
    return 0;
}

/* -------------------------------------------- plain cycles (spu_fast_step) */

#define ONE_IN(st, n) (spec_rng(st) % (n) == 0)

/* A random cycle for configuration cfg: mostly population members, now and
 * then a register write or read (short intervals, small counts, so members
 * are selected and collide, ECOUNT draws and reloads; enables and disables),
 * an issue or a finish (records, Profiling Buffer writes, memory stalls),
 * another Exception level or profiling disallowed, a reset. */
static void plain_mix_cycle(const spu_config_t *cfg, uint32_t *st, uint64_t t, spu_in_t *in, uint8_t *el,
                            uint8_t *allow)
{
    memset(in, 0, sizeof *in);
    in->rst_n = !ONE_IN(st, 3000);
    if (ONE_IN(st, 400))
        *el = ONE_IN(st, 4) ? (uint8_t)(spec_rng(st) % 3) : 1;
    if (*allow ? ONE_IN(st, 3000) : ONE_IN(st, 50))
        *allow = !*allow;
    in->el = *el;
    in->prof_allowed = *allow;
    in->ts = t;
    in->mem_ready = !ONE_IN(st, 4);
    if (!ONE_IN(st, 5)) /* at least lane 0 */
        in->pop_valid = (uint8_t)((spec_rng(st) & ((1u << cfg->lanes) - 1u)) | 1u);
    if (cfg->lanes < 8 && ONE_IN(st, 50)) /* a lane the configuration does not have: ignored */
        in->pop_valid |= (uint8_t)(0x80u >> (spec_rng(st) % (8u - cfg->lanes)));
    if (ONE_IN(st, 40)) {
        static const int regs[] = {SPU_REG_PMSIRR_EL1, SPU_REG_PMSICR_EL1, SPU_REG_PMSICR_EL1, SPU_REG_PMSICR_EL1,
                                   SPU_REG_PMSCR_EL1, SPU_REG_PMBLIMITR_EL1, SPU_REG_PMBSR_EL1, SPU_REG_PMBPTR_EL1};
        const int reg = regs[spec_rng(st) % (sizeof regs / sizeof regs[0])];
        uint64_t v = spec_rng64(st);
        if (reg == SPU_REG_PMSIRR_EL1)
            v = IRR(1 + v % 3, (v >> 8) & 1);
        else if (reg == SPU_REG_PMSICR_EL1)
            v = ICR((v >> 8) % 6, v % 60);
        else if (reg == SPU_REG_PMSCR_EL1) /* E0SPE, E1SPE, CX; mostly enabled at EL1 */
            v = ONE_IN(st, 4) ? v & 0x7u : (v & 0x5u) | 0x2u;
        else if (reg == SPU_REG_PMBLIMITR_EL1)
            v = ONE_IN(st, 8) ? 0 : PMBLIMITR_E;
        else if (reg == SPU_REG_PMBSR_EL1)
            v = 0;
        else
            v = (v % 64) * 64;
        in->reg_valid = 1;
        in->reg_write = !ONE_IN(st, 4);
        in->reg_enc = spu_reg_enc(reg);
        in->reg_wdata = v;
    }
    for (unsigned p = 0; p < cfg->slots; p++) {
        if (ONE_IN(st, 40)) {
            in->iss_valid |= (uint8_t)(1u << p);
            in->iss_slot[p] = (uint8_t)(spec_rng(st) % cfg->slots);
        }
        if (ONE_IN(st, 40)) {
            in->fin_valid |= (uint8_t)(1u << p);
            in->fin_slot[p] = (uint8_t)(spec_rng(st) % cfg->slots);
            in->fin_type[p] = (uint8_t)(spec_rng(st) & 0x1Fu);
            in->fin_events[p] = spec_rng64(st);
            in->fin_ds_valid |= (uint8_t)((spec_rng(st) & 1u) << p);
            in->fin_ds[p] = (uint16_t)spec_rng(st);
            in->fin_pc[p] = spec_rng64(st) & 0xFFFFFFFFFFFFFFull;
        }
    }
}

/* Cycle t < 3 of a run that starts enabled: PMSIRR_EL1 (irr), PMSCR_EL1,
 * PMBLIMITR_EL1 written in turn. */
static void enable_cycle(uint64_t t, uint64_t irr, uint8_t el, spu_in_t *in)
{
    const int reg[3] = {SPU_REG_PMSIRR_EL1, SPU_REG_PMSCR_EL1, SPU_REG_PMBLIMITR_EL1};
    const uint64_t val[3] = {irr, PMSCR_E0E1, PMBLIMITR_E};
    memset(in, 0, sizeof *in);
    in->rst_n = in->reg_valid = in->reg_write = in->prof_allowed = in->mem_ready = 1;
    in->el = el;
    in->reg_enc = spu_reg_enc(reg[t]);
    in->reg_wdata = val[t];
}

/* The state of two models, a after spu_fast_step() and b after
 * spu_model_step_full(): equal (0), or a failed check (1). */
static int same_state(const spu_config_t *cfg, const spu_model_t *a, const spu_model_t *b, uint64_t t)
{
    CHECK(memcmp(a->reg, b->reg, sizeof a->reg) == 0, "%s cycle %llu: registers differ", cfg->name,
          (unsigned long long)t);
    CHECK(a->lfsr == b->lfsr && a->prev_en == b->prev_en && a->cycle == b->cycle && a->bq_n == b->bq_n &&
              a->bq_head == b->bq_head && a->enc.busy == b->enc.busy && a->port_valid == b->port_valid,
          "%s cycle %llu: lfsr %x/%x prev_en %u/%u cycle %llu/%llu queue %u/%u", cfg->name, (unsigned long long)t,
          a->lfsr, b->lfsr, a->prev_en, b->prev_en, (unsigned long long)a->cycle, (unsigned long long)b->cycle,
          a->bq_n, b->bq_n);
    for (unsigned sl = 0; sl < cfg->slots; sl++) {
        const spu_slot_t *x = &a->slot[sl], *y = &b->slot[sl];
        CHECK(x->busy == y->busy && x->issued == y->issued && x->el == y->el && x->cx == y->cx &&
                  x->iss_lat == y->iss_lat && x->entry == y->entry,
              "%s cycle %llu: slot %u differs", cfg->name, (unsigned long long)t, sl);
    }
    return 0;
}

/* What a random mix reached: selections, collisions, kept records, write
 * beats, resets, enables, disables, plain cycles with members. */
typedef struct mix_reach {
    uint64_t smp, col, kept, wr, resets, ups, downs, members;
    uint8_t was;                 /* enabled in the cycle before */
} mix_reach_t;

static void mix_count(mix_reach_t *n, const spu_in_t *in, const spu_out_t *o)
{
    n->smp += o->smp_valid != 0;
    n->col += o->col_valid != 0;
    n->kept += o->rec_keep != 0;
    n->wr += o->mem_valid;
    n->resets += !in->rst_n;
    n->ups += o->obs_enabled && !n->was;
    n->downs += !o->obs_enabled && n->was;
    n->was = o->obs_enabled;
}

/* One cycle of both models: the outputs equal, a plain cycle's in its
 * quiet form (every output zero but SAMPLE_POP's count, obs_enabled,
 * obs_pmsicr and pmbirq), the state equal. 0, or 1 on a failed check. */
static int step_both(const spu_config_t *cfg, spu_model_t *a, spu_model_t *b, const spu_in_t *in, uint64_t t,
                     mix_reach_t *n)
{
    spu_out_t oa, ob;
    const int plain = spu_fast_step(a, in, &oa);
    spu_model_step_full(b, in, &ob);
    if (plain) {
        spu_out_t q;
        memset(&q, 0, sizeof q);
        q.pmu[SPU_PMU_POP] = oa.pmu[SPU_PMU_POP];
        q.obs_enabled = oa.obs_enabled;
        q.obs_pmsicr = oa.obs_pmsicr;
        q.pmbirq = oa.pmbirq;
        CHECK(spu_out_equal(&q, &oa), "%s cycle %llu: a plain cycle's outputs are not its quiet form", cfg->name,
              (unsigned long long)t);
        n->members += oa.pmu[SPU_PMU_POP] != 0;
    }
    CHECK(spu_out_equal(&oa, &ob),
          "%s cycle %llu: outputs differ: step smp %x col %x pop %u pmsicr %016llx en %u, full step smp %x col %x "
          "pop %u pmsicr %016llx en %u", cfg->name, (unsigned long long)t, oa.smp_valid, oa.col_valid,
          oa.pmu[SPU_PMU_POP], (unsigned long long)oa.obs_pmsicr, oa.obs_enabled, ob.smp_valid, ob.col_valid,
          ob.pmu[SPU_PMU_POP], (unsigned long long)ob.obs_pmsicr, ob.obs_enabled);
    TRY(same_state(cfg, a, b, t));
    mix_count(n, in, &oa);
    return 0;
}

/* spu_fast_step() takes a plain cycle (no reset, register access, issue or
 * finish, no write beat queued, no enable edge, no member selected) the way
 * spu_model_skip() counts members, not member by member: every output and
 * the state after every cycle must be those of spu_model_step_full(), which
 * takes each step of docs/semantics.md every cycle. When it says a cycle was
 * plain (returns 1), every output but SAMPLE_POP's count, obs_enabled,
 * obs_pmsicr and pmbirq must be zero (the lockstep checker then compares the
 * DUT's outputs with that quiet form). 150,000 random cycles on each
 * configuration (plain_mix_cycle()); the mix must reach selections,
 * collisions, kept records, buffer writes, resets, enable edges both ways,
 * and many plain cycles with members, around which the shortcut's
 * conditions change. */
static int plain_cycles_equal_full_steps(void)
{
    for (unsigned ci = 0; ci < spu_nconfigs; ci++) {
        const spu_config_t *cfg = &spu_configs[ci];
        spu_model_t a, b;
        char err[200];
        CASE((int)ci);
        CHECK(spu_model_init(&a, cfg, err, sizeof err) == 0 && spu_model_init(&b, cfg, err, sizeof err) == 0,
              "%s: %s", cfg->name, err);
        uint32_t st = 42 + ci;
        mix_reach_t n = {0};
        uint8_t el = 1, allow = 1;
        spu_in_t in;
        for (uint64_t t = 0; t < 150000; t++) {
            if (t < 3)
                enable_cycle(t, IRR(1, 1), el, &in);
            else
                plain_mix_cycle(cfg, &st, t, &in, &el, &allow);
            TRY(step_both(cfg, &a, &b, &in, t, &n));
        }
        CHECK(n.smp >= 50 && n.col >= 5 && n.kept >= 10 && n.wr >= 10 && n.resets >= 10 && n.ups >= 10 &&
                  n.downs >= 10 && n.members >= 30000,
              "%s: the mix reached too little: %llu selections, %llu collisions, %llu records kept, %llu write "
              "beats, %llu resets, %llu enables, %llu disables, %llu plain cycles with members",
              cfg->name, (unsigned long long)n.smp, (unsigned long long)n.col, (unsigned long long)n.kept,
              (unsigned long long)n.wr, (unsigned long long)n.resets, (unsigned long long)n.ups,
              (unsigned long long)n.downs, (unsigned long long)n.members);
    }
    return 0;
}

/* A block spu_model_block() refused: the model a unchanged (keep), and one
 * of its k cycles (blk's members, context of in) not plain when stepped
 * from b. 0, or 1 on a failed check. */
static int refused_block(const spu_config_t *cfg, const spu_model_t *keep, const spu_model_t *a, const spu_model_t *b,
                         spu_in_t *in, const spu_block_t *blk, unsigned k, uint64_t t)
{
    CHECK(memcmp(keep, a, sizeof *a) == 0, "%s cycle %llu: a refused block changed the model", cfg->name,
          (unsigned long long)t);
    spu_model_t c;
    spu_out_t o;
    memcpy(&c, b, sizeof c);
    int plain = 1;
    for (unsigned i = 0; i < k && plain; i++) {
        in->pop_valid = blk->pop_mask[i];
        plain = spu_fast_step(&c, in, &o);
    }
    CHECK(!plain, "%s cycle %llu: a block of %u cycles refused, though every cycle is plain", cfg->name,
          (unsigned long long)t, k);
    return 0;
}

/* A block taken: b steps its k cycles (from *t on), each plain with the
 * outputs the block gives (zero but SAMPLE_POP = npop[i], obs_pmsicr =
 * pmsicr[i], obs_enabled and pmbirq those of the cycle before, *last).
 * 0, or 1 on a failed check. */
static int taken_block(const spu_config_t *cfg, spu_model_t *b, spu_in_t *in, const spu_block_t *blk, unsigned k,
                       uint64_t *t, spu_out_t *last, uint64_t *counted)
{
    for (unsigned i = 0; i < k; i++, (*t)++) {
        spu_out_t want, ob;
        in->pop_valid = blk->pop_mask[i];
        in->ts = *t;
        CHECK_EQ(spu_fast_step(b, in, &ob), 1, "%s cycle %llu: cycle %u of a block taken is plain", cfg->name,
                 (unsigned long long)*t, i);
        memset(&want, 0, sizeof want);
        want.pmu[SPU_PMU_POP] = blk->npop[i];
        want.obs_pmsicr = blk->pmsicr[i];
        want.obs_enabled = last->obs_enabled;
        want.pmbirq = last->pmbirq;
        CHECK(spu_out_equal(&want, &ob),
              "%s cycle %llu (%u of %u in the block): pop %u/%u pmsicr %016llx/%016llx en %u/%u irq %u/%u",
              cfg->name, (unsigned long long)*t, i, k, want.pmu[SPU_PMU_POP], ob.pmu[SPU_PMU_POP],
              (unsigned long long)want.obs_pmsicr, (unsigned long long)ob.obs_pmsicr, want.obs_enabled,
              ob.obs_enabled, want.pmbirq, ob.pmbirq);
        *counted += blk->npop[i];
        *last = ob;
    }
    return 0;
}

/* A random block of k cycles in the context el, allow: sparse members, now
 * and then of a lane the configuration lacks; mostly short. */
static unsigned random_block(const spu_config_t *cfg, uint32_t *st, uint8_t el, uint8_t allow, spu_block_t *blk)
{
    const unsigned k = ONE_IN(st, 10) ? 1 + spec_rng(st) % SPU_BLOCK_MAX : 1 + spec_rng(st) % 12;
    blk->el = el;
    blk->prof_allowed = allow;
    for (unsigned i = 0; i < k; i++)
        blk->pop_mask[i] =
            ONE_IN(st, 3) ? (uint8_t)(spec_rng(st) & (ONE_IN(st, 20) ? 0xFFu : (1u << cfg->lanes) - 1u)) : 0;
    return k;
}

/* spu_model_block() counts a block of plain cycles at once: it must take a
 * block exactly when spu_fast_step() would call every one of its cycles
 * plain, leave the state the steps leave, and give each cycle's outputs as
 * the steps give them (zero but SAMPLE_POP = npop[i], obs_pmsicr =
 * pmsicr[i], and obs_enabled and pmbirq those of the cycle before). Random
 * cycles of plain_mix_cycle() (so the state varies: intervals, ECOUNT,
 * enables, the buffer's interrupt) between random blocks on each
 * configuration; a refused block must leave the model as it was and must
 * hold a cycle spu_fast_step() does not call plain. */
static int plain_blocks_equal_steps(void)
{
    static spu_block_t blk;
    for (unsigned ci = 0; ci < spu_nconfigs; ci++) {
        const spu_config_t *cfg = &spu_configs[ci];
        spu_model_t a, b, keep;
        char err[200];
        CASE((int)ci);
        CHECK(spu_model_init(&a, cfg, err, sizeof err) == 0 && spu_model_init(&b, cfg, err, sizeof err) == 0,
              "%s: %s", cfg->name, err);
        uint32_t st = 7 + ci;
        uint64_t taken = 0, refused = 0, disabled = 0, counted = 0, long_ones = 0, t = 0;
        uint8_t el = 1, allow = 1;
        spu_in_t in;
        spu_out_t oa, last;
        memset(&last, 0, sizeof last);
        for (int round = -3; round < 20000; round++) {
            for (unsigned n = round < 0 ? 1 : 1 + spec_rng(&st) % 4; n; n--, t++) { /* cycles of the mix */
                if (round < 0)
                    enable_cycle(t, IRR(8, 1), el, &in);
                else
                    plain_mix_cycle(cfg, &st, t, &in, &el, &allow);
                spu_fast_step(&a, &in, &oa);
                spu_fast_step(&b, &in, &last);
            }
            if (round < 0)
                continue;
            const unsigned k = random_block(cfg, &st, el, allow, &blk);
            memcpy(&keep, &a, sizeof a);
            const int r = spu_model_block(&a, &blk, k);
            memset(&in, 0, sizeof in);
            in.rst_n = in.mem_ready = 1;
            in.el = el;
            in.prof_allowed = allow;
            if (r != 0) {
                CHECK_EQ(r, -1, "%s: spu_model_block()'s refusal", cfg->name);
                TRY(refused_block(cfg, &keep, &a, &b, &in, &blk, k, t));
                refused++;
                continue;
            }
            TRY(taken_block(cfg, &b, &in, &blk, k, &t, &last, &counted));
            CHECK(memcmp(a.reg, b.reg, sizeof a.reg) == 0 && a.cycle == b.cycle && a.lfsr == b.lfsr &&
                      a.prev_en == b.prev_en,
                  "%s cycle %llu: the state after a block of %u differs from the steps'", cfg->name,
                  (unsigned long long)t, k);
            taken++;
            disabled += !b.prev_en;
            long_ones += k > 100;
        }
        CHECK(taken >= 5000 && refused >= 300 && disabled >= 2000 && counted >= 10000 && long_ones >= 100,
              "%s: too little reached: %llu blocks taken (%llu disabled, %llu longer than 100 cycles), %llu refused, "
              "%llu members counted in blocks",
              cfg->name, (unsigned long long)taken, (unsigned long long)disabled, (unsigned long long)long_ones,
              (unsigned long long)refused, (unsigned long long)counted);
    }
    return 0;
}

const spec_test_t spec_tests_skip[] = {
    SPEC_TEST(d17_3_4_1_skip_rnd0_ecount_idle),
    SPEC_TEST(skip_refused),
    SPEC_TEST(d17_3_4_3_skip_ernd),
    SPEC_TEST(plain_cycle_return),
    SPEC_TEST(plain_cycles_equal_full_steps),
    SPEC_TEST(plain_blocks_equal_steps),
    SPEC_END,
};
