/*
 * Register-port timing against the unit's own updates (docs/semantics.md
 * step 7: "A direct write wins over the unit's own update of the same
 * register in the same cycle (PMSICR counting, PMBSR.COLL). Writes take
 * effect from cycle t+1."), and reset (Arm ARM D24.7 reset column).
 */
#include <string.h>

#include "spec.h"

/* Writes take effect from the next cycle. Case 1: a PMSFCR_EL1 write in the
 * cycle of a finish: that record uses the old filter (none), the next one the
 * new (FT, TYPE = ST rejects a load). Case 2: a PMSIRR_EL1 write in the cycle
 * of the reloading member: the reload uses the old INTERVAL (1), a later one
 * the new (5). */
static int regs_write_takes_effect_next_cycle(void)
{
    spec_t s;
    CASE(1);
    TRY(spec_open(&s, "v1p4"));
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    int slot = spec_take(&s);
    CHECK(slot >= 0, "no sample");
    spec_idle(&s, 2);
    s.in.fin_valid = 1;
    s.in.fin_slot[0] = (uint8_t)slot;
    s.in.fin_type[0] = TLD;
    spec_wr(&s, SPU_REG_PMSFCR_EL1, FCR_FT | FCR_TYPE(TST));
    CHECK(s.o.rec_valid == 1 && s.o.rec_keep == 1, "record in the write cycle not kept (why 0x%X)",
          s.o.rec_why[0]);
    TRY(spec_expect(&s, 3, TLD, 0, 0, 0, WTYPE));
    CASE(2);
    TRY(spec_open(&s, "v1"));
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    slot = spec_take(&s);
    CHECK(slot >= 0, "no sample");
    spec_fin(&s, (unsigned)slot, 0, 0, 0, 0);
    s.in.pop_valid = 1;
    spec_wr(&s, SPU_REG_PMSIRR_EL1, IRR(5, 0));
    CHECK_EQ(s.o.obs_pmsicr, 0x100, "reload in the PMSIRR write cycle uses the old INTERVAL");
    spec_wr(&s, SPU_REG_PMSICR_EL1, 0);
    spec_pop(&s, 1);
    CHECK_EQ(s.o.obs_pmsicr, 0x500, "later reload uses the new INTERVAL");
    return 0;
}

/* A direct write of PMSICR_EL1 wins over the same cycle's counting. Case 1:
 * COUNT 0x10 and a member: 0x777 after, not 0xF. Case 2: COUNT 1, the member
 * is still selected (it saw the start-of-cycle value) and 0x777 is left. */
static int regs_write_wins_over_pmsicr_update(void)
{
    spec_t s;
    TRY(spec_open(&s, "v1"));
    TRY(spec_enable(&s, IRR(1, 0), 0x10, PMBLIMITR_E));
    CASE(1);
    s.in.pop_valid = 1;
    spec_wr(&s, SPU_REG_PMSICR_EL1, 0x777);
    CHECK_EQ(s.o.pmu[SPU_PMU_POP], 1, "member counted");
    CHECK_EQ(s.o.obs_pmsicr, 0x777, "PMSICR after write + member");
    CASE(2);
    spec_wr(&s, SPU_REG_PMSICR_EL1, 1);
    s.in.pop_valid = 1;
    spec_wr(&s, SPU_REG_PMSICR_EL1, 0x777);
    CHECK_EQ(s.o.smp_valid, 1, "member selected from the start-of-cycle COUNT");
    CHECK_EQ(s.o.obs_pmsicr, 0x777, "PMSICR after write + selection");
    return 0;
}

/* A direct write of PMBSR_EL1 wins over the same cycle's COLL = 1 of
 * SPESampleCollision(). Case 1: write 0 -> 0. Case 2: write MSS 0x55 ->
 * 0x55. Case 3 (no write): COLL set. */
static int regs_write_wins_over_coll(void)
{
    static const struct { int wr; uint64_t v, want; } c[] = {
        {1, 0, 0}, {1, 0x55, 0x55}, {0, 0, PMBSR_COLL}};
    for (unsigned i = 0; i < 3; i++) {
        spec_t s;
        CASE((int)i + 1);
        TRY(spec_open(&s, "v1"));
        TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
        TRY(spec_take(&s) != 0);
        spec_wr(&s, SPU_REG_PMSICR_EL1, 1);
        s.in.pop_valid = 1;
        if (c[i].wr)
            spec_wr(&s, SPU_REG_PMBSR_EL1, c[i].v);
        else
            spec_cycle(&s);
        CHECK_EQ(s.o.col_valid, 1, "collision in the write cycle");
        CHECK_EQ(s.o.pmu[SPU_PMU_COLLISION], 1, "SAMPLE_COLLISION still counted");
        CHECK_EQ(spec_rd(&s, SPU_REG_PMBSR_EL1), c[i].want, "PMBSR_EL1 after the cycle");
    }
    return 0;
}

/* Reset (semantics.md: "a cycle with rst_ni = 0 resets all control state at
 * the clock edge and all outputs read zero in the next cycle. Inputs of a
 * reset cycle are ignored."); Arm ARM D24.7: PMBLIMITR_EL1.E resets to '0', so
 * profiling is off after reset; D17.3.2 "The random number generator must be
 * reset into a useable state": the LFSR restarts from LFSR_SEED, so the edge
 * load after reset draws seed<15:8> again. A sample in flight is gone: its
 * finish makes no record. */
static int regs_reset(void)
{
    spu_config_t cfg;
    spec_t s;
    spu_out_t zero;
    memset(&zero, 0, sizeof zero);
    TRY(spec_cfg(&cfg, "v1"));
    TRY(spec_knob(&cfg, "LFSR_SEED", 0x00AB00));
    TRY(spec_init(&s, &cfg));
    TRY(spec_enable(&s, IRR(2, 1), 0, PMBLIMITR_E));
    CHECK_EQ(s.o.obs_pmsicr, 0x2AB, "edge load before reset");
    TRY(spec_take(&s) != 0);
    CASE(1);
    s.in.pop_valid = 1;
    s.in.reg_valid = 1;
    s.in.reg_write = 1;
    s.in.reg_enc = spu_reg_enc(SPU_REG_PMBLIMITR_EL1);
    s.in.reg_wdata = PMBLIMITR_E;
    spec_reset(&s);
    CHECK(memcmp(&s.o, &zero, sizeof zero) == 0, "outputs of the reset cycle not all zero");
    CASE(2);
    CHECK_EQ(spec_field(spec_rd(&s, SPU_REG_PMBLIMITR_EL1), 0, 0), 0, "PMBLIMITR_EL1.E after reset");
    spec_wr(&s, SPU_REG_PMSCR_EL1, PMSCR_E0E1);
    spec_wr(&s, SPU_REG_PMSIRR_EL1, IRR(2, 1));
    spec_pop(&s, 1);
    CHECK_EQ(s.o.obs_enabled, 0, "enabled after reset without PMBLIMITR.E");
    CHECK_EQ(s.o.pmu[SPU_PMU_POP], 0, "SAMPLE_POP after reset");
    CASE(3);
    spec_fin(&s, 0, TLD, 0, 0, 0);
    CHECK_EQ(s.o.rec_valid, 0, "record of a sample from before reset");
    CASE(4);
    spec_wr(&s, SPU_REG_PMSICR_EL1, 0);
    spec_wr(&s, SPU_REG_PMBLIMITR_EL1, PMBLIMITR_E);
    spec_idle(&s, 1);
    CHECK_EQ(s.o.obs_pmsicr, 0x2AB, "edge load after reset draws the seed's first byte again");
    return 0;
}

const spec_test_t spec_tests_regs_port[] = {
    SPEC_TEST(regs_write_takes_effect_next_cycle),
    SPEC_TEST(regs_write_wins_over_pmsicr_update),
    SPEC_TEST(regs_write_wins_over_coll),
    SPEC_TEST(regs_reset),
    SPEC_END,
};
