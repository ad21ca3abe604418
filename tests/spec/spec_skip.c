/*
 * Skipping ahead (spu_model_quiet_pops(), spu_model_skip(); docs/api.md):
 * the number of members that can be counted with no selection, no random
 * draw and no reload, worked out from SPEToCollectSample() of D17.3 (the
 * M.a.a pseudocode), and the PMSICR_EL1 a skip leaves, which must be the one
 * that counting the members one by one leaves. Each case writes PMSICR_EL1
 * directly (software may, D17.3.3: "sampling restarts from the current
 * values") while profiling is enabled.
 */
#include "spec.h"

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

const spec_test_t spec_tests_skip[] = {
    SPEC_TEST(d17_3_4_1_skip_rnd0_ecount_idle),
    SPEC_TEST(skip_refused),
    SPEC_TEST(d17_3_4_3_skip_ernd),
    SPEC_END,
};
