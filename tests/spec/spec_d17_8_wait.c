/*
 * D17.3.7, D17.4, D17.8: a kept record that finds the Profiling Buffer's
 * write queue full is not lost (docs/buffer.md). It waits in its slot (as
 * every kept record does in its finish cycle), which
 * stays occupied, so a selection that finds no free slot is a collision
 * (SPESampleCollision(): SAMPLE_COLLISION, PMBSR_EL1.COLL); the waiting
 * records take free entries first, in the order they finished, and reserve
 * their place at PMBPTR_EL1 then; a record that fills the buffer stops
 * profiling and every later record of the cycle, waiting or not, is
 * discarded (D17.4), as is every waiting record while the buffer is
 * disabled. The slot is freed when its record enters or is discarded, with
 * the SLOT_REUSE rule of a finish.
 *
 * Every expectation is worked out by hand from docs/buffer.md's timing:
 * knob BUF_QUEUE = 1 and the memory stalled (mem_ready = 0) keep the queue
 * full. A record entering in cycle t shows its first beat in cycle t+1; the
 * memory takes a beat shown in cycle u's outputs in cycle u+1 when it is
 * ready, and the entry is free in the cycle its last beat is taken. A plain
 * load record is 23 bytes (spec_d17_8_buffer.c): at address 0 it is the
 * beats at 0, 8, 16; at 23 (offset 7) the beats at 16, 24, 32, 40. Only
 * outputs and architectural registers are checked, so the tests also run
 * against a model without waiting records (they fail there).
 */
#include "spec.h"

#define REC_LOAD 23u                  /* the record of a plain load */
#define LIMIT_PAGE1 0x1001u           /* PMBLIMITR_EL1: E = 1, LIMIT = 1: the limit is 0x1000 */
#define BSR_FULL ((1ull << 17) | 1u)  /* S, EC = 0, MSS = BSC 0b000001 */

static uint64_t ptr(const spec_t *s)
{
    return s->m.reg[SPU_REG_PMBPTR_EL1];
}

/* cfg with BUF_QUEUE = 1 and SLOT_REUSE = reuse, PMBPTR_EL1 = at, profiling
 * on, the memory stalled, and record A (a plain load) queued (every kept
 * record waits in its finish cycle and enters at the earliest in the next). */
static int wait_setup(spec_t *s, const char *cfg, unsigned reuse, uint64_t at, uint64_t limitr)
{
    spu_config_t c;
    TRY(spec_cfg(&c, cfg));
    TRY(spec_knob(&c, "BUF_QUEUE", 1));
    TRY(spec_knob(&c, "SLOT_REUSE", reuse));
    TRY(spec_init(s, &c));
    spec_wr(s, SPU_REG_PMBPTR_EL1, at);
    TRY(spec_enable(s, IRR(1, 0), 0, limitr));
    s->mem_stall = 1;
    TRY(spec_expect(s, 10, TLD, 0, 0, 0, 0));
    CHECK_EQ(s->o.rec_wr, 0u, "record A waits in its finish cycle");
    spec_idle(s, 1);
    CHECK_EQ(s->o.rec_wr, 1u, "record A enters the queue (slot 0) in the next");
    CHECK_EQ(ptr(s), at + REC_LOAD, "PMBPTR_EL1 reserved for A");
    return 0;
}

/* A forced selection (PMSICR_EL1 = 1, one member) that must collide: every
 * slot is busy or waits (SPESampleCollision()). */
static int collide(spec_t *s)
{
    spec_wr(s, SPU_REG_PMSICR_EL1, 1);
    spec_pop(s, 1);
    CHECK_EQ(s->o.smp_valid, 0u, "no slot free: no sample");
    CHECK_EQ(s->o.col_valid, 1u, "a collision");
    return 0;
}

/* v1p4 (one slot): record B waits while the queue is full. */
static int wait_b(spec_t *s, unsigned reuse)
{
    TRY(wait_setup(s, "v1p4", reuse, 0, PMBLIMITR_E));
    TRY(spec_expect(s, 10, TLD, 0, 0, 0, 0));
    CHECK_EQ(s->o.rec_len[0], REC_LOAD, "record B is built");
    CHECK_EQ(s->o.rec_wr, 0u, "... and waits: no queue entry");
    CHECK_EQ(ptr(s), REC_LOAD, "no place reserved for B yet");
    return 0;
}

/* B waits 9 cycles, a selection meanwhile collides, then B enters in the
 * cycle A's last beat is taken and its place is reserved then. */
static int d17_8_record_waits_then_enters(void)
{
    spec_t s;
    TRY(wait_b(&s, 0));
    TRY(collide(&s)); /* the only slot waits */
    CHECK_EQ(s.pmu[SPU_PMU_COLLISION], 1u, "SAMPLE_COLLISION");
    CHECK_EQ(s.m.reg[SPU_REG_PMBSR_EL1], PMBSR_COLL, "PMBSR_EL1.COLL");
    for (int k = 0; k < 5; k++) {
        spec_idle(&s, 1);
        CHECK_EQ(s.o.rec_wr, 0u, "still waiting (stalled cycle %d)", k);
        CHECK_EQ(s.o.mem_addr, 0u, "A's first beat stays");
    }
    s.mem_stall = 0;
    static const uint64_t shown[2] = {8, 16};
    for (int k = 0; k < 2; k++) {
        spec_idle(&s, 1);
        CHECK_EQ(s.o.rec_wr, 0u, "A's beat %d taken, B still waits", k);
        CHECK_EQ(s.o.mem_addr, shown[k], "A's next beat");
    }
    spec_idle(&s, 1);
    CHECK_EQ(s.o.rec_wr, 1u, "A's last beat taken: B enters in the same cycle");
    CHECK_EQ(ptr(&s), 2u * REC_LOAD, "PMBPTR_EL1 reserved for B now");
    CHECK_EQ(s.o.mem_valid, 0u, "B's bytes come in the next cycle");
    spec_idle(&s, 1);
    CHECK_EQ(s.o.mem_valid, 1u, "B's first beat");
    CHECK_EQ(s.o.mem_addr, 16u, "B at 23: the word at 16 ...");
    CHECK_EQ(s.o.mem_strb, 0x80u, "... its byte 7");
    CHECK_EQ(s.pmu[SPU_PMU_FILTRATE], 2u, "both records counted at their finish");
    return 0;
}

/* The entry cycle frees the slot with the rule of a finish: SLOT_REUSE = 0,
 * a selection of that cycle collides; 1, it takes the slot. */
static int d17_3_7_slot_reuse_at_entry(void)
{
    for (unsigned reuse = 0; reuse <= 1; reuse++) {
        CASE(reuse);
        spec_t s;
        TRY(wait_b(&s, reuse));
        spec_wr(&s, SPU_REG_PMSICR_EL1, 1);
        s.mem_stall = 0;
        spec_idle(&s, 2);
        CHECK_EQ(s.o.rec_wr, 0u, "B still waits");
        spec_pop(&s, 1);
        CHECK_EQ(s.o.rec_wr, 1u, "B enters");
        CHECK_EQ(s.o.smp_valid, reuse, "SLOT_REUSE %u: sampled into the freed slot", reuse);
        CHECK_EQ(s.o.col_valid, 1u - reuse, "SLOT_REUSE %u: collides", reuse);
        CHECK_EQ(s.m.reg[SPU_REG_PMBSR_EL1], reuse ? 0u : PMBSR_COLL, "PMBSR_EL1.COLL");
    }
    return 0;
}

/* wide (two slots): with A queued, slot 1 finishes before slot 0; both
 * records wait. Returns the slots in s0 (finished second) and s1. */
static int wait_two(spec_t *s, uint64_t at, uint64_t limitr)
{
    TRY(wait_setup(s, "wide", 0, at, limitr));
    const int s0 = spec_take(s), s1 = spec_take(s);
    CHECK(s0 == 0 && s1 == 1, "two samples in slots 0 and 1 (%d, %d)", s0, s1);
    spec_fin(s, 1, TLD, 0, 0, 0);
    CHECK_EQ(s->o.rec_len[0], REC_LOAD, "slot 1's record is built");
    CHECK_EQ(s->o.rec_wr, 0u, "... and waits");
    spec_fin(s, 0, TLD, 0, 0, 0);
    CHECK_EQ(s->o.rec_len[0], REC_LOAD, "slot 0's record is built");
    CHECK_EQ(s->o.rec_wr, 0u, "... and waits too");
    return collide(s); /* both slots wait */
}

/* n cycles with the memory ready: no record enters in the first n - 1, the
 * records of the slots in mask wr in the last. */
static int enter_after(spec_t *s, unsigned n, unsigned wr)
{
    s->mem_stall = 0;
    for (unsigned k = 1; k < n; k++) {
        spec_idle(s, 1);
        CHECK_EQ(s->o.rec_wr, 0u, "nothing enters in cycle %u of %u", k, n);
    }
    spec_idle(s, 1);
    CHECK_EQ(s->o.rec_wr, wr, "slots 0x%X enter in cycle %u", wr, n);
    return 0;
}

/* Two waiting records enter in finish order: slot 1's, then slot 0's once
 * slot 1's four beats are taken. */
static int d17_8_waiting_records_in_finish_order(void)
{
    spec_t s;
    TRY(wait_two(&s, 0, PMBLIMITR_E));
    TRY(enter_after(&s, 3, 2)); /* A's third (last) beat: slot 1's record first */
    CHECK_EQ(ptr(&s), 2u * REC_LOAD, "slot 1's at 23");
    TRY(enter_after(&s, 5, 1)); /* its first beat shown, four taken: slot 0's */
    CHECK_EQ(ptr(&s), 3u * REC_LOAD, "slot 0's at 46");
    return 0;
}

/* The first waiting record fills the buffer (0xF6A + 23 = 0xF81 > 0x1000 -
 * 128): profiling stops and the second is discarded in the same cycle, its
 * slot freed. A at 0xF53 is four beats (0xF50 .. 0xF68). */
static int d17_8_full_discards_later_waiting(void)
{
    spec_t s;
    TRY(wait_two(&s, 0xF53, LIMIT_PAGE1));
    TRY(enter_after(&s, 4, 2)); /* A's fourth (last) beat: slot 1's record ... */
    CHECK_EQ(s.o.pmbirq, 1u, "... fills the buffer");
    CHECK_EQ(s.m.reg[SPU_REG_PMBSR_EL1], BSR_FULL | PMBSR_COLL, "PMBSR_EL1: S, BSC buffer full, COLL kept");
    CHECK_EQ(s.pmu[SPU_PMU_BUFFER_FULL], 1u, "SAMPLE_BUFFER_FULL");
    CHECK_EQ(ptr(&s), 0xF53u + 2u * REC_LOAD, "no place for slot 0's");
    spec_idle(&s, 8);
    CHECK_EQ(ptr(&s), 0xF53u + 2u * REC_LOAD, "slot 0's record was discarded");
    CHECK_EQ(s.o.mem_valid, 0u, "two records' beats and no more");
    /* restarted as the Linux driver does, the unit has both slots again */
    spec_wr(&s, SPU_REG_PMBPTR_EL1, 0);
    spec_wr(&s, SPU_REG_PMBSR_EL1, 0);
    spec_idle(&s, 1);
    CHECK(spec_take(&s) == 0 && spec_take(&s) == 1, "both slots free");
    return 0;
}

/* D17.4: disabling the buffer discards the waiting record (the cycle after
 * the MSR holds the reservation, and finds PMBLIMITR_EL1.E = 0 at its
 * start) and frees its slot. */
static int d17_4_disable_discards_waiting(void)
{
    spec_t s;
    TRY(wait_b(&s, 0));
    TRY(collide(&s)); /* the slot waits */
    spec_wr(&s, SPU_REG_PMBLIMITR_EL1, 0);
    s.mem_stall = 0;
    spec_idle(&s, 10);
    CHECK_EQ(s.o.mem_valid, 0u, "A, reserved before, is written; B is not");
    CHECK_EQ(ptr(&s), REC_LOAD, "no place for B");
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    CHECK(spec_take(&s) == 0, "the slot is free again");
    return 0;
}

const spec_test_t spec_tests_wait[] = {
    SPEC_TEST(d17_8_record_waits_then_enters),
    SPEC_TEST(d17_3_7_slot_reuse_at_entry),
    SPEC_TEST(d17_8_waiting_records_in_finish_order),
    SPEC_TEST(d17_8_full_discards_later_waiting),
    SPEC_TEST(d17_4_disable_discards_waiting),
    SPEC_END,
};
