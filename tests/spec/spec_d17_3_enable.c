/*
 * D17.3.3/D17.3.5 and StatisticalProfilingEnabled() (the M.a.a pseudocode (Arm ARM J1.1)):
 * what enables profiling, and that PMSICR_EL1 holds while it is disabled.
 * The unit's context: docs/semantics.md step 2, en = prof_allowed &&
 * PMBLIMITR.E && !PMBSR.S && ((el == 0 && E0SPE) || (el == 1 && E1SPE)).
 */
#include "spec.h"

enum hold_path { BY_ALLOW, BY_EL2, BY_EL3, BY_E1SPE, BY_E0SPE, BY_LIMIT_E, BY_PMBSR_S };

/* Apply (on = 0) or undo (on = 1) one way of disabling profiling. */
static void set_path(spec_t *s, enum hold_path p, int on)
{
    switch (p) {
    case BY_ALLOW: s->allow = (uint8_t)on; break;
    case BY_EL2: s->el = on ? 1 : 2; break;
    case BY_EL3: s->el = on ? 1 : 3; break;
    case BY_E1SPE: spec_wr(s, SPU_REG_PMSCR_EL1, on ? PMSCR_E0E1 : 0x1); break; /* at EL1 */
    case BY_E0SPE: /* at EL0 with only E1SPE set */
        if (!on) {
            spec_wr(s, SPU_REG_PMSCR_EL1, 0x2);
            s->el = 0;
        } else {
            spec_wr(s, SPU_REG_PMSCR_EL1, PMSCR_E0E1);
        }
        break;
    case BY_LIMIT_E: spec_wr(s, SPU_REG_PMBLIMITR_EL1, on ? PMBLIMITR_E : 0); break;
    case BY_PMBSR_S: spec_wr(s, SPU_REG_PMBSR_EL1, on ? 0 : PMBSR_S); break;
    }
}

/* D17.3.5: "When profiling is disabled: No operations are selected for
 * sampling. No sample records are collected. The sample interval counters
 * retain their values and do not decrement." Arm ARM D24.7 PMSICR_EL1: "The
 * value of PMSICR_EL1 does not change whilst profiling is disabled." D14.3
 * SAMPLE_POP: "The counter does not count when profiling is disabled."
 * Then D17.3.3: on re-enable "If PMSICR_EL1 is nonzero, then sampling
 * restarts from the current values". v1p4 with RND=1 checks that ECOUNT holds
 * too (PMSICR = {ECOUNT 3, COUNT 100}, 2 members -> {1, 98}). */
static int hold_case(enum hold_path p, const char *cfg)
{
    spec_t s;
    const int ernd = cfg[2] == 'p';
    TRY(spec_open(&s, cfg));
    TRY(spec_enable(&s, IRR(1, ernd), ernd ? ICR(3, 100) : 0, PMBLIMITR_E));
    CHECK_EQ(spec_feed(&s, ernd ? 2 : 6, 1, NULL, 0, 0, 0), 0, "selections before disabling");
    const uint64_t held = ernd ? ICR(1, 98) : 250;
    CHECK_EQ(s.o.obs_pmsicr, held, "PMSICR before disabling");
    set_path(&s, p, 0);
    const uint64_t pop0 = s.pmu[SPU_PMU_POP], sel0 = s.nsmp + s.ncol;
    spec_feed(&s, 600, 1, NULL, 0, 0, 0);
    CHECK(!s.o.obs_enabled, "profiling still enabled (path %d)", (int)p);
    CHECK_EQ(s.o.obs_pmsicr, held, "PMSICR changed while disabled (path %d)", (int)p);
    CHECK_EQ(s.pmu[SPU_PMU_POP] - pop0, 0, "SAMPLE_POP counted while disabled (path %d)", (int)p);
    CHECK_EQ(s.nsmp + s.ncol - sel0, 0, "selection while disabled (path %d)", (int)p);
    CHECK_EQ(spec_rd(&s, SPU_REG_PMSICR_EL1), held, "PMSICR read while disabled");
    set_path(&s, p, 1);
    spec_idle(&s, 1);
    CHECK(s.o.obs_enabled, "not re-enabled (path %d)", (int)p);
    CHECK_EQ(s.o.obs_pmsicr, held, "nonzero PMSICR reloaded at the edge (path %d)", (int)p);
    spec_pop(&s, 1);
    CHECK_EQ(s.o.obs_pmsicr, ernd ? ICR(0, 97) : 249, "restart from the held value (path %d)", (int)p);
    CHECK_EQ(s.pmu[SPU_PMU_POP] - pop0, 1, "SAMPLE_POP after re-enable");
    return 0;
}

/* StatisticalProfilingEnabled(): prof_allowed stands for the owning
 * security state / EL2 / EL3 controls (semantics.md step 2). */
static int d17_3_5_hold_prof_not_allowed(void)
{
    CASE(1);
    TRY(hold_case(BY_ALLOW, "v1"));
    CASE(2);
    return hold_case(BY_ALLOW, "v1p4");
}

/* StatisticalProfilingEnabled(): owning EL is EL1; "UInt(owning_el) <
 * UInt(el)" returns FALSE at EL2 and EL3. */
static int d17_3_5_hold_el2_el3(void)
{
    CASE(1);
    TRY(hold_case(BY_EL2, "v1"));
    CASE(2);
    return hold_case(BY_EL3, "v1p4");
}

/* StatisticalProfilingEnabled(): "when EL1 spe_bit = PMSCR_EL1.E1SPE; when
 * EL0 spe_bit = PMSCR_EL1.E0SPE" (TGE = 0): E1SPE = 0 disables EL1 (case 1),
 * E0SPE = 0 disables EL0 (case 2). */
static int d17_3_5_hold_pmscr_spe_bit(void)
{
    CASE(1);
    TRY(hold_case(BY_E1SPE, "v1"));
    CASE(2);
    return hold_case(BY_E0SPE, "v1p4");
}

/* ProfilingBufferEnabled(): PMBLIMITR_EL1.E == '1'. */
static int d17_3_5_hold_pmblimitr_e0(void)
{
    CASE(1);
    TRY(hold_case(BY_LIMIT_E, "v1"));
    CASE(2);
    return hold_case(BY_LIMIT_E, "v1p4");
}

/* SPEProfilingStopped(): PMBSR_EL1.S == '1' stops profiling; Arm ARM D24.7
 * PMBSR_EL1: "Writing 0 to S lets profiling restart". */
static int d17_3_5_hold_pmbsr_s1(void)
{
    CASE(1);
    TRY(hold_case(BY_PMBSR_S, "v1"));
    CASE(2);
    return hold_case(BY_PMBSR_S, "v1p4");
}

/* D17.3.5: "No operations are selected for sampling." PMSICR = 1 (the next
 * member would be selected) with PMBLIMITR.E = 0: members are neither
 * selected nor collide, and COUNT stays 1. After enabling (PMSICR nonzero, no
 * load) the first member is selected. */
static int d17_3_5_no_selection_while_disabled(void)
{
    spec_t s;
    TRY(spec_open(&s, "v1"));
    spec_wr(&s, SPU_REG_PMSIRR_EL1, IRR(1, 0));
    spec_wr(&s, SPU_REG_PMSICR_EL1, 1);
    spec_wr(&s, SPU_REG_PMSCR_EL1, PMSCR_E0E1);
    spec_feed(&s, 20, 1, NULL, 0, 0, 0);
    CHECK_EQ(s.nsmp + s.ncol, 0, "selections while PMBLIMITR.E = 0");
    CHECK_EQ(s.pmu[SPU_PMU_POP], 0, "SAMPLE_POP while disabled");
    CHECK_EQ(s.o.obs_pmsicr, 1, "PMSICR held");
    spec_wr(&s, SPU_REG_PMBLIMITR_EL1, PMBLIMITR_E);
    spec_pop(&s, 1);
    CHECK(s.o.obs_enabled, "not enabled");
    CHECK(s.o.smp_valid & 1u, "first member after enable not selected");
    return 0;
}

/* D17.3.3 with a zero PMSICR at re-enable: disabled right after a selection
 * (COUNT = 0), the edge loads INTERVAL*256, so the next selection is the
 * INTERVAL*256-th member after re-enabling (the reload member of the
 * continuous case does not happen). */
static int d17_3_3_reenable_with_zero_reloads(void)
{
    spec_t s;
    uint64_t pos[2];
    TRY(spec_open(&s, "v1"));
    TRY(spec_enable(&s, IRR(2, 0), 0, PMBLIMITR_E));
    CHECK_EQ(spec_feed(&s, 512, 1, pos, 2, 1, 0), 1, "selections");
    CHECK_EQ(pos[0], 512, "first selection");
    spec_wr(&s, SPU_REG_PMSCR_EL1, 0);
    CHECK_EQ(s.o.obs_pmsicr, 0, "PMSICR zero when disabling");
    spec_wr(&s, SPU_REG_PMSCR_EL1, PMSCR_E0E1);
    spec_idle(&s, 1);
    CHECK_EQ(s.o.obs_pmsicr, 0x200, "edge load after re-enable");
    s.members = 0;
    CHECK_EQ(spec_feed(&s, 600, 1, pos, 2, 1, 0), 1, "selections after re-enable");
    CHECK_EQ(pos[0], 512, "selection after re-enable");
    return 0;
}

/* StatisticalProfilingEnabled(): EL0 uses E0SPE, EL1 uses E1SPE, EL2/EL3 never
 * (owning EL1); ProfilingBufferEnabled() needs PMBLIMITR.E and !PMBSR.S.
 * Truth table over el x PMSCR{E1SPE,E0SPE}, through obs_enabled. Also: a
 * write takes effect from the next cycle, so obs_enabled of the PMSCR write
 * cycle still shows the old value. */
static int spe_enabled_truth_table(void)
{
    spec_t s;
    TRY(spec_open(&s, "v1p4"));
    spec_wr(&s, SPU_REG_PMBLIMITR_EL1, PMBLIMITR_E);
    for (unsigned pmscr = 0; pmscr < 4; pmscr++) {
        spec_wr(&s, SPU_REG_PMSCR_EL1, pmscr);
        for (unsigned el = 0; el < 4; el++) {
            CASE((int)(pmscr * 4 + el + 1));
            s.el = (uint8_t)el;
            spec_idle(&s, 1);
            const int want = (el == 0 && (pmscr & 1u)) || (el == 1 && (pmscr & 2u));
            CHECK_EQ(s.o.obs_enabled, want, "el=%u PMSCR=%u", el, pmscr);
            s.allow = 0;
            spec_idle(&s, 1);
            CHECK_EQ(s.o.obs_enabled, 0, "prof_allowed=0, el=%u PMSCR=%u", el, pmscr);
            s.allow = 1;
        }
        s.el = 1;
    }
    CASE(17);
    spec_wr(&s, SPU_REG_PMSCR_EL1, 0);
    spec_idle(&s, 1);
    CHECK_EQ(s.o.obs_enabled, 0, "PMSCR=0");
    spec_wr(&s, SPU_REG_PMSCR_EL1, PMSCR_E0E1);
    CHECK_EQ(s.o.obs_enabled, 0, "PMSCR write cycle uses the old value");
    spec_idle(&s, 1);
    CHECK_EQ(s.o.obs_enabled, 1, "enabled the cycle after the write");
    spec_wr(&s, SPU_REG_PMSCR_EL1, 0);
    CHECK_EQ(s.o.obs_enabled, 1, "PMSCR=0 write cycle still enabled");
    spec_idle(&s, 1);
    CHECK_EQ(s.o.obs_enabled, 0, "disabled the cycle after the write");
    return 0;
}

const spec_test_t spec_tests_enable[] = {
    SPEC_TEST(d17_3_5_hold_prof_not_allowed),
    SPEC_TEST(d17_3_5_hold_el2_el3),
    SPEC_TEST(d17_3_5_hold_pmscr_spe_bit),
    SPEC_TEST(d17_3_5_hold_pmblimitr_e0),
    SPEC_TEST(d17_3_5_hold_pmbsr_s1),
    SPEC_TEST(d17_3_5_no_selection_while_disabled),
    SPEC_TEST(d17_3_3_reenable_with_zero_reloads),
    SPEC_TEST(spe_enabled_truth_table),
    SPEC_END,
};
