/*
 * D17.3.7 sample collisions and the sample slots (SPEStartSample(),
 * SPESampleCollision()), and several population lanes per cycle handled
 * serially in lane order (docs/semantics.md step 6).
 */
#include "spec.h"

/* Feed members until the n-th member from now is about to be fed. */
static void feed_to(spec_t *s, uint64_t n)
{
    (void)spec_feed(s, n, 1, NULL, 0, 0, 0);
}

/* D17.3.7: "On a sample collision: The PMU event SAMPLE_COLLISION is
 * generated. PMBSR_ELx.COLL is set to 1 ... The new operation is not
 * sampled." v1 has one slot: the selection of member 256 stays in flight,
 * member 513 collides. Arm ARM D14.3: a collided sample is not counted by
 * SAMPLE_FEED. The record of the in-flight sample keeps its own latency
 * (entry at member 256's cycle). */
static int d17_3_7_collision(void)
{
    spec_t s;
    TRY(spec_open(&s, "v1"));
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    feed_to(&s, 255);
    spec_pop(&s, 1);
    CHECK(s.o.smp_valid == 1 && s.o.smp_slot[0] == 0, "member 256 not sampled in slot 0");
    const uint64_t t_entry = s.t;
    feed_to(&s, 256);
    CASE(1);
    spec_pop(&s, 1);
    CHECK_EQ(s.o.col_valid, 1, "member 513 collision bit");
    CHECK_EQ(s.o.smp_valid, 0, "collided member sampled");
    CHECK_EQ(s.o.pmu[SPU_PMU_COLLISION], 1, "SAMPLE_COLLISION in the collision cycle");
    CHECK_EQ(s.o.pmu[SPU_PMU_POP], 1, "SAMPLE_POP in the collision cycle");
    CASE(2);
    CHECK_EQ(spec_rd(&s, SPU_REG_PMBSR_EL1), PMBSR_COLL, "PMBSR_EL1 after the collision");
    CHECK_EQ(s.pmu[SPU_PMU_FEED], 0, "SAMPLE_FEED for a collided sample");
    CASE(3);
    spec_fin(&s, 0, 0, 0, 0, 0);
    CHECK_EQ(s.o.rec_valid, 1, "record of the in-flight sample");
    CHECK_EQ(s.o.rec_tot_lat[0], s.t - t_entry, "latency counted from the first sample");
    CHECK_EQ(s.pmu[SPU_PMU_FEED], 1, "SAMPLE_FEED: one record");
    CHECK_EQ(s.pmu[SPU_PMU_COLLISION], 1, "SAMPLE_COLLISION total");
    return 0;
}

/* the M.a.a pseudocode (Arm ARM J1.1) SPEStartSample notes: "the interval counter is updated,
 * then the collision check is made. A collided sample still uses up its
 * interval." Selections at 256, 513 (collides), 770 (sampled again), 1027. */
static int d17_3_7_collided_selection_uses_interval(void)
{
    spec_t s;
    uint64_t pos[4];
    TRY(spec_open(&s, "v1"));
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    CHECK_EQ(spec_feed(&s, 600, 1, pos, 4, 0, 0), 2, "selections in 600 members");
    CHECK(pos[0] == 256 && pos[1] == 513, "selections at %llu, %llu", (unsigned long long)pos[0],
          (unsigned long long)pos[1]);
    CHECK_EQ(s.ncol, 1, "the second selection collided");
    spec_fin(&s, 0, 0, 0, 0, 0);
    CHECK_EQ(spec_feed(&s, 500, 1, pos, 4, 1, 0), 2, "selections in members 601..1100");
    CHECK_EQ(pos[0], 770, "next selection after the collided one");
    CHECK_EQ(pos[1], 1027, "then every 257");
    CHECK_EQ(s.ncol, 1, "no more collisions");
    return 0;
}

/* D17.3.7: "The other fields in PMBSR_ELx and the other PMBSR_ELy registers
 * are unchanged." PMBSR = MSS 0xBEEF, DL, EC 0b100101, MSS2 0xABCDEF
 * (S = 0 so profiling runs; EA is RES0 here, impl-defined.md row 31); a
 * collision only adds COLL (bit 16). */
static int d17_3_7_collision_keeps_other_pmbsr_fields(void)
{
    spec_t s;
    const uint64_t v = 0xBEEFull | 1ull << 19 | 0x25ull << 26 | 0xABCDEFull << 32;
    TRY(spec_open(&s, "v1p4"));
    spec_wr(&s, SPU_REG_PMBSR_EL1, v);
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    CHECK_EQ(spec_feed(&s, 520, 1, NULL, 0, 0, 0), 2, "selections");
    CHECK_EQ(s.ncol, 1, "collisions");
    CHECK_EQ(spec_rd(&s, SPU_REG_PMBSR_EL1), v | PMBSR_COLL, "PMBSR_EL1 after the collision");
    return 0;
}

/* D17.3.7: "The maximum number of sampled operations that a PE can support
 * simultaneously is IMPLEMENTATION DEFINED" - 2 slots in "wide". Selections
 * at 256 (slot 0) and 513 (slot 1) stay in flight; 770 collides. Then the
 * lowest-numbered free slot is taken (semantics.md step 6): slot 0 freed ->
 * 1027 in slot 0; slot 1 freed -> 1284 in slot 1. */
static int d17_3_7_two_slots_then_collide(void)
{
    spec_t s;
    TRY(spec_open(&s, "wide"));
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    static const struct { uint64_t gap; int col; uint8_t slot; int fin; } step[] = {
        {255, 0, 0, -1}, {256, 0, 1, -1}, {256, 1, 0, 0}, {256, 0, 0, 1}, {256, 0, 1, -1},
    };
    for (unsigned i = 0; i < sizeof step / sizeof step[0]; i++) {
        CASE((int)i + 1);
        feed_to(&s, step[i].gap);
        spec_pop(&s, 1);
        if (step[i].col) {
            CHECK(s.o.col_valid == 1 && s.o.smp_valid == 0, "third selection did not collide");
        } else {
            CHECK_EQ(s.o.smp_valid, 1, "selection not sampled");
            CHECK_EQ(s.o.smp_slot[0], step[i].slot, "slot given");
        }
        if (step[i].fin >= 0) {
            spec_fin(&s, (unsigned)step[i].fin, 0, 0, 0, 0);
            CHECK_EQ(s.o.rec_valid, 1, "record of slot %d", step[i].fin);
        }
    }
    return 0;
}

/* Knob SLOT_REUSE (D17.3.7, semantics.md step 4): a slot freed by a finish is
 * free from the next cycle (0) or already for this cycle's selections (1).
 * v1 (one slot): finish of slot 0 in the same cycle as a selection. Its
 * record is rejected (PMSFCR_EL1.FT, branches only), so the finish frees
 * the slot; a kept record holds it until the encoder has read it
 * (spec_d17_8_wait.c: d17_3_7_slot_reuse_at_release). */
static int slot_reuse_case(uint32_t knob)
{
    spu_config_t cfg;
    spec_t s;
    TRY(spec_cfg(&cfg, "v1"));
    TRY(spec_knob(&cfg, "SLOT_REUSE", knob));
    TRY(spec_init(&s, &cfg));
    spec_wr(&s, SPU_REG_PMSFCR_EL1, FCR_FT | FCR_TYPE(TB));
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    TRY(spec_take(&s) != 0);
    spec_wr(&s, SPU_REG_PMSICR_EL1, 1);
    s.in.pop_valid = 1;
    s.in.fin_valid = 1;
    s.in.fin_slot[0] = 0;
    spec_cycle(&s);
    CHECK_EQ(s.o.rec_valid, 1, "record of the finishing sample");
    CHECK_EQ(s.o.rec_keep, 0, "rejected (not a branch): the finish frees the slot");
    if (knob) {
        CHECK(s.o.smp_valid == 1 && s.o.smp_slot[0] == 0, "SLOT_REUSE=1: freed slot not reused");
        CHECK_EQ(s.o.col_valid, 0, "SLOT_REUSE=1: collision");
    } else {
        CHECK_EQ(s.o.col_valid, 1, "SLOT_REUSE=0: slot freed this cycle must still collide");
        CHECK_EQ(s.o.smp_valid, 0, "SLOT_REUSE=0: sampled");
        CHECK_EQ(s.o.pmu[SPU_PMU_COLLISION], 1, "SAMPLE_COLLISION");
        TRY(spec_take(&s) != 0); /* free from the next cycle */
    }
    return 0;
}

static int d17_3_7_knob_slot_reuse_0(void) { return slot_reuse_case(0); }
static int d17_3_7_knob_slot_reuse_1(void) { return slot_reuse_case(1); }

/* semantics.md step 4: "A finish for a slot that is not busy is ignored (no
 * record, no event)" - no sample in flight means SPECompleteSample() is not
 * reached (its assert SPESampleInFlight). Case 2: a second finish for the
 * same sample is ignored too. */
static int d17_3_7_finish_not_busy_ignored(void)
{
    spec_t s;
    TRY(spec_open(&s, "v1p4"));
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    CASE(1);
    spec_fin(&s, 0, TLD, 0x2, 1, 3);
    CHECK_EQ(s.o.rec_valid, 0, "record without a sample");
    for (int i = 0; i < SPU_NPMU; i++)
        CHECK_EQ(s.o.pmu[i], 0, "%s without a sample", spu_pmu_name(i));
    CASE(2);
    TRY(spec_record(&s, 3, TLD, 0, 0, 0));
    spec_fin(&s, 0, TLD, 0, 0, 0);
    CHECK_EQ(s.o.rec_valid, 0, "second finish of the same slot");
    CHECK_EQ(s.pmu[SPU_PMU_FEED], 1, "SAMPLE_FEED total");
    return 0;
}

/* semantics.md step 6: lanes are handled "in lane order (serially, each lane
 * sees the state left by the lane before)". wide, PMSICR = 2, INTERVAL = 1,
 * 4 members in one cycle: lane 0 2->1, lane 1 1->0 selected, lane 2 reloads
 * 256, lane 3 255. Case 2: lanes 1 and 3 only: lane 1 2->1, lane 3 selected.
 * Case 3: 4 members per cycle from PMSICR = 0 give the same member positions
 * as one per cycle (256 + k*257). */
static int lanes_serial_order(void)
{
    spec_t s;
    CASE(1);
    TRY(spec_open(&s, "wide"));
    TRY(spec_enable(&s, IRR(1, 0), 2, PMBLIMITR_E));
    spec_pop(&s, 0xF);
    CHECK_EQ(s.o.smp_valid, 0x2, "selected lanes");
    CHECK_EQ(s.o.smp_slot[1], 0, "slot of lane 1");
    CHECK_EQ(s.o.pmu[SPU_PMU_POP], 4, "SAMPLE_POP for 4 lanes");
    CHECK_EQ(s.o.obs_pmsicr, 255, "PMSICR after the cycle");
    CASE(2);
    TRY(spec_open(&s, "wide"));
    TRY(spec_enable(&s, IRR(1, 0), 2, PMBLIMITR_E));
    spec_pop(&s, 0xA);
    CHECK_EQ(s.o.smp_valid, 0x8, "selected lanes (mask 0b1010)");
    CHECK_EQ(s.o.pmu[SPU_PMU_POP], 2, "SAMPLE_POP for 2 lanes");
    CHECK_EQ(s.o.obs_pmsicr, 0, "PMSICR after the cycle");
    CASE(3);
    uint64_t pos[6];
    TRY(spec_open(&s, "wide"));
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    CHECK_EQ(spec_feed(&s, 256 + 5 * 257, 4, pos, 6, 1, 0), 6, "selections");
    for (unsigned k = 0; k < 6; k++)
        CHECK_EQ(pos[k], 256 + 257 * k, "selection %u with 4 lanes per cycle", k + 1);
    return 0;
}

/* Two selections in one cycle (wide, ERnd, RND = 1, INTERVAL = 1), forced:
 * PMSICR = {ECOUNT 1, COUNT 2}, seed 0x000001 whose first draw is 0x00
 * (= seed<15:8>). Lane 0: COUNT 2->1, ECOUNT 1->0: selected (slot 0). Lane 1:
 * COUNT 1->0, ECOUNT = draw = 0: selected (slot 1). Lane 2: COUNT == 0,
 * reload 256. Lane 3: 255. Case 2: both slots busy; PMSICR = {ECOUNT 1,
 * COUNT 5}: lane 0 selected by ECOUNT -> collision (D17.3.7) on lane 0. */
static int lanes_two_selections_one_cycle(void)
{
    spu_config_t cfg;
    spec_t s;
    TRY(spec_cfg(&cfg, "wide"));
    TRY(spec_knob(&cfg, "LFSR_SEED", 0x000001));
    TRY(spec_init(&s, &cfg));
    TRY(spec_enable(&s, IRR(1, 1), ICR(1, 2), PMBLIMITR_E));
    CASE(1);
    spec_pop(&s, 0xF);
    CHECK_EQ(s.o.smp_valid, 0x3, "selected lanes");
    CHECK(s.o.smp_slot[0] == 0 && s.o.smp_slot[1] == 1, "slots %u,%u, expected 0,1",
          s.o.smp_slot[0], s.o.smp_slot[1]);
    CHECK_EQ(s.o.obs_pmsicr, 255, "PMSICR after the cycle");
    CASE(2);
    spec_wr(&s, SPU_REG_PMSICR_EL1, ICR(1, 5));
    spec_pop(&s, 0x1);
    CHECK_EQ(s.o.col_valid, 0x1, "collision lanes");
    CHECK_EQ(s.o.pmu[SPU_PMU_COLLISION], 1, "SAMPLE_COLLISION");
    CHECK_EQ(s.o.obs_pmsicr, 4, "PMSICR after the collision");
    CHECK_EQ(spec_rd(&s, SPU_REG_PMBSR_EL1), PMBSR_COLL, "PMBSR_EL1.COLL");
    return 0;
}

/* SLOT_REUSE = 0 (D17.3.7, semantics.md step 4) with two slots (wide): the
 * slot a finish frees is busy for this cycle's selections, any other slot
 * keeps its own state. Case 1: slot 1 finishes while slot 0 is free: the
 * selection of that cycle takes slot 0. Case 2: slot 1 finishes while slot 0
 * is busy: no slot is free for that cycle's selection, a collision. */
static int d17_3_7_slot_freed_this_cycle_two_slots(void)
{
    spec_t s;
    TRY(spec_open(&s, "wide"));
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    CHECK_EQ(spec_take(&s), 0, "first slot");
    CHECK_EQ(spec_take(&s), 1, "second slot");
    spec_fin(&s, 0, 0, 0, 0, 0);
    CHECK_EQ(s.o.rec_valid, 1, "record of slot 0");
    spec_drain(&s); /* its record is written: slot 0 is free */
    CASE(1);
    spec_wr(&s, SPU_REG_PMSICR_EL1, 1);
    s.in.pop_valid = 1;
    s.in.fin_valid = 1;
    s.in.fin_slot[0] = 1;
    spec_cycle(&s);
    CHECK_EQ(s.o.rec_valid, 1, "record of slot 1");
    CHECK_EQ(s.o.rec_slot[0], 1, "slot of the record");
    CHECK_EQ(s.o.smp_valid, 1, "selection with slot 0 free");
    CHECK_EQ(s.o.smp_slot[0], 0, "slot of the selection");
    CHECK_EQ(s.o.col_valid, 0, "collision with slot 0 free");
    CASE(2);
    CHECK_EQ(spec_take(&s), 1, "slot 1 is free from the next cycle");
    spec_wr(&s, SPU_REG_PMSICR_EL1, 1);
    s.in.pop_valid = 1;
    s.in.fin_valid = 1;
    s.in.fin_slot[0] = 1;
    spec_cycle(&s);
    CHECK_EQ(s.o.rec_valid, 1, "record of slot 1");
    CHECK_EQ(s.o.smp_valid, 0, "selection while slot 0 is busy and slot 1 is freed this cycle");
    CHECK_EQ(s.o.col_valid, 1, "collision");
    return 0;
}

/* Two selections in one cycle with only slot 1 free (wide): the first takes
 * slot 1 (the lowest free one), the second finds no slot and collides
 * (D17.3.7). Slot 0 is taken with RND = 0 (no draw); then RND = 1 with
 * ERnd and PMSICR = {ECOUNT 1, COUNT 2}, seed 0x000001 (first draw 0x00 =
 * seed<15:8>): lane 0 COUNT 2->1, ECOUNT 1->0: selected; lane 1 COUNT 1->0,
 * ECOUNT = 0x00: selected. */
static int lanes_two_selections_one_free_slot(void)
{
    spu_config_t cfg;
    spec_t s;
    TRY(spec_cfg(&cfg, "wide"));
    TRY(spec_knob(&cfg, "LFSR_SEED", 0x000001));
    TRY(spec_init(&s, &cfg));
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    CHECK_EQ(spec_take(&s), 0, "slot of the first sample");
    spec_wr(&s, SPU_REG_PMSIRR_EL1, IRR(1, 1));
    spec_wr(&s, SPU_REG_PMSICR_EL1, ICR(1, 2));
    spec_pop(&s, 0x3);
    CHECK_EQ(s.o.smp_valid, 0x1, "sampled lanes");
    CHECK_EQ(s.o.smp_slot[0], 1, "slot of lane 0");
    CHECK_EQ(s.o.col_valid, 0x2, "collided lanes");
    CHECK_EQ(s.o.pmu[SPU_PMU_COLLISION], 1, "SAMPLE_COLLISION");
    CHECK_EQ(s.o.obs_pmsicr, 0, "PMSICR after the cycle (COUNT 0, ECOUNT 0)");
    return 0;
}

/* Records on finish port 1 (wide): a port carries its own type and data
 * source (docs/ports.md); D17.5.4 with PMSFCR_EL1.FDS = 1 and PMSDSFR_EL1 =
 * {5}: a load with data source 3 on port 1 is rejected (ds), with data
 * source 5 kept with SAMPLE_FEED_DS. Case 3: ports 0 and 1 name the same
 * busy slot: the lower port completes it, the other is ignored
 * (semantics.md, input corner cases). */
static int d17_5_4_fds_on_port1(void)
{
    spec_t s;
    TRY(spec_open(&s, "wide"));
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    spec_wr(&s, SPU_REG_PMSFCR_EL1, FCR_FDS);
    spec_wr(&s, SPU_REG_PMSDSFR_EL1, 1ull << 5);
    static const struct { uint16_t ds; uint8_t why; uint8_t feed_ds; } c[] = {{3, WDS, 0}, {5, 0, 1}};
    for (unsigned i = 0; i < 2; i++) {
        CASE((int)i + 1);
        const int slot = spec_take(&s);
        CHECK_EQ(slot, 0, "slot");
        s.in.fin_valid = 0x2;
        s.in.fin_slot[1] = (uint8_t)slot;
        s.in.fin_type[1] = TLD;
        s.in.fin_ds_valid = 0x2;
        s.in.fin_ds[1] = c[i].ds;
        spec_cycle(&s);
        CHECK_EQ(s.o.rec_valid, 0x2, "record port");
        CHECK_EQ(s.o.rec_why[1], c[i].why, "rec_why of port 1 for data source %u", c[i].ds);
        CHECK_EQ((s.o.rec_keep >> 1) & 1u, c[i].why == 0, "rec_keep of port 1");
        CHECK_EQ(s.o.pmu[SPU_PMU_FEED_DS], c[i].feed_ds, "SAMPLE_FEED_DS");
    }
    CASE(3);
    CHECK_EQ(spec_take(&s), 0, "slot");
    s.in.fin_valid = 0x3;
    s.in.fin_slot[0] = 0;
    s.in.fin_slot[1] = 0;
    spec_cycle(&s);
    CHECK_EQ(s.o.rec_valid, 0x1, "records of two finishes of one slot");
    CHECK_EQ(s.o.pmu[SPU_PMU_FEED], 1, "SAMPLE_FEED");
    return 0;
}

const spec_test_t spec_tests_coll[] = {
    SPEC_TEST(d17_3_7_collision),
    SPEC_TEST(d17_3_7_collided_selection_uses_interval),
    SPEC_TEST(d17_3_7_collision_keeps_other_pmbsr_fields),
    SPEC_TEST(d17_3_7_two_slots_then_collide),
    SPEC_TEST(d17_3_7_knob_slot_reuse_0),
    SPEC_TEST(d17_3_7_knob_slot_reuse_1),
    SPEC_TEST(d17_3_7_finish_not_busy_ignored),
    SPEC_TEST(lanes_serial_order),
    SPEC_TEST(lanes_two_selections_one_cycle),
    SPEC_TEST(d17_3_7_slot_freed_this_cycle_two_slots),
    SPEC_TEST(lanes_two_selections_one_free_slot),
    SPEC_TEST(d17_5_4_fds_on_port1),
    SPEC_END,
};
