/*
 * D17.3.7, D17.4, D17.8: a kept record that finds the Profiling Buffer's
 * write path busy is not lost (docs/buffer.md). It waits in its slot (as
 * every kept record does in its finish cycle), which stays occupied, and so
 * does the slot of the record the encoder is writing until its last packet
 * is read: a selection that finds no free slot is a collision
 * (SPESampleCollision(): SAMPLE_COLLISION, PMBSR_EL1.COLL). The waiting
 * records enter one at a time, in the order they finished, each in a cycle
 * that starts with the encoder idle, and reserve their place at PMBPTR_EL1
 * then; a record that fills the buffer stops profiling and the records
 * waiting behind it are discarded (D17.4), as is every waiting record while
 * the buffer is disabled. A slot is freed when its last packet is read or
 * its record discarded, with the SLOT_REUSE rule of a finish.
 *
 * Every expectation is worked out by hand from docs/buffer.md's rules: the
 * encoder takes a packet per cycle from the cycle after its record enters
 * (cycle E) while the beat queue had room at the start of the cycle (knob
 * BUF_BEATS beats); a beat written in cycle c is loaded into the port in a
 * later cycle when the port is empty or its beat is taken (mem_ready), and
 * leaves the queue then. A plain load record (v1p4, wide: Counter 0 3,
 * Counter 1 3, PC 9, Operation Type 2, Events 5, End 1 = 23 bytes) at 0:
 * E+1 Counter 0 (window 3), E+2 Counter 1 (6), E+3 PC (15: beat 0, 7 left),
 * E+4 Operation Type (9: beat 1, 1 left), E+5 Events (6), E+6 End (7: beat
 * 2, the last). With BUF_BEATS = 1 and the memory stalled: beat 0 goes into
 * the queue in E+3 and on to the port in E+4; beat 1 into the queue in E+5;
 * from E+6 the queue is full and the encoder waits with Events and End
 * unread. Only outputs and architectural registers are checked (and the
 * slots' state), so the tests fail against a model without waiting
 * records.
 */
#include "spec.h"

#define REC_LOAD 23u                  /* the record of a plain load (v1p4, wide) */
#define REC_ALT 64u                   /* ... on wide-alt: 27 bytes, Align 6 */
#define LIMIT_PAGE1 0x1001u           /* PMBLIMITR_EL1: E = 1, LIMIT = 1: the limit is 0x1000 */
#define BSR_FULL ((1ull << 17) | 1u)  /* S, EC = 0, MSS = BSC 0b000001 */

static uint64_t ptr(const spec_t *s)
{
    return s->m.reg[SPU_REG_PMBPTR_EL1];
}

/* cfg with BUF_BEATS = beats and SLOT_REUSE = reuse, PMBPTR_EL1 = at,
 * profiling on, the memory stalled. */
static int open_stalled(spec_t *s, const char *cfg, unsigned beats, unsigned reuse, uint64_t at,
                        uint64_t limitr)
{
    spu_config_t c;
    TRY(spec_cfg(&c, cfg));
    TRY(spec_knob(&c, "BUF_BEATS", beats));
    TRY(spec_knob(&c, "SLOT_REUSE", reuse));
    TRY(spec_init(s, &c));
    spec_wr(s, SPU_REG_PMBPTR_EL1, at);
    TRY(spec_enable(s, IRR(1, 0), 0, limitr));
    s->mem_stall = 1;
    return 0;
}

/* Record A (a plain load, slot a) finishes, enters in the next cycle and
 * its encoder is stuck after k more cycles. */
static int enter_a(spec_t *s, unsigned a, uint64_t at, unsigned len, unsigned k)
{
    spec_fin(s, a, TLD, 0, 0, 0);
    CHECK_EQ(s->o.rec_wr, 0u, "record A waits in its finish cycle");
    spec_idle(s, 1);
    CHECK_EQ(s->o.rec_wr, 1u << a, "record A enters in the next");
    CHECK_EQ(ptr(s), at + len, "PMBPTR_EL1 reserved for A");
    spec_idle(s, k);
    return 0;
}

/* A forced selection (PMSICR_EL1 = 1, one member) that must collide: every
 * slot is busy, waits or is being read (SPESampleCollision()). */
static int collide(spec_t *s)
{
    spec_wr(s, SPU_REG_PMSICR_EL1, 1);
    spec_pop(s, 1);
    CHECK_EQ(s->o.smp_valid, 0u, "no slot free: no sample");
    CHECK_EQ(s->o.col_valid, 1u, "a collision");
    return 0;
}

/* wide: A (slot 0) stuck in the encoder, B (slot 1) finishes and waits; a
 * selection collides. Ready memory from cycle R: R takes beat 0 and loads
 * beat 1 (the queue was full at R's start: the encoder waits), R+1 reads
 * Events, R+2 End (A's last packet and beat: slot 0 freed, the encoder
 * idle from R+3), and B enters in R+3, its place reserved then. */
static int d17_8_record_waits_then_enters(void)
{
    spec_t s;
    TRY(open_stalled(&s, "wide", 1, 0, 0, PMBLIMITR_E));
    CHECK(spec_take(&s) == 0 && spec_take(&s) == 1, "A in slot 0, B in slot 1");
    TRY(enter_a(&s, 0, 0, REC_LOAD, 8));
    spec_fin(&s, 1, TLD, 0, 0, 0);
    CHECK_EQ(s.o.rec_len[0], REC_LOAD, "record B is built");
    spec_idle(&s, 3);
    CHECK_EQ(s.o.rec_wr, 0u, "B waits: the encoder is busy");
    CHECK_EQ(ptr(&s), REC_LOAD, "no place reserved for B yet");
    CHECK_EQ(s.o.mem_addr, 0u, "A's first beat stays");
    TRY(collide(&s)); /* slot 0 is read, slot 1 waits */
    CHECK_EQ(s.pmu[SPU_PMU_COLLISION], 1u, "SAMPLE_COLLISION");
    CHECK_EQ(s.m.reg[SPU_REG_PMBSR_EL1], PMBSR_COLL, "PMBSR_EL1.COLL");
    s.mem_stall = 0;
    for (int k = 0; k < 3; k++) {
        spec_idle(&s, 1);
        CHECK_EQ(s.o.rec_wr, 0u, "cycle R+%d: B still waits", k);
    }
    CHECK(!s.m.slot[0].waiting, "A's slot is free from R+2, its End read");
    spec_idle(&s, 1);
    CHECK_EQ(s.o.rec_wr, 2u, "R+3: B enters, the encoder idle");
    CHECK_EQ(ptr(&s), 2u * REC_LOAD, "PMBPTR_EL1 reserved for B now");
    CHECK_EQ(s.pmu[SPU_PMU_FILTRATE], 2u, "both records counted at their finish");
    return 0;
}

/* v1p4: the cycle the encoder reads a record's last packet frees its slot
 * with the rule of a finish: SLOT_REUSE = 0, a selection of that cycle
 * collides; 1, it takes the slot. A stuck as above; with the memory ready
 * from R, End is read in R+2. */
static int d17_3_7_slot_reuse_at_release(void)
{
    for (unsigned reuse = 0; reuse <= 1; reuse++) {
        CASE(reuse);
        spec_t s;
        TRY(open_stalled(&s, "v1p4", 1, reuse, 0, PMBLIMITR_E));
        CHECK(spec_take(&s) == 0, "A in slot 0");
        TRY(enter_a(&s, 0, 0, REC_LOAD, 8));
        TRY(collide(&s)); /* its packets are still to be read */
        spec_wr(&s, SPU_REG_PMSICR_EL1, 1);
        s.mem_stall = 0;
        spec_idle(&s, 2);
        CHECK(s.m.slot[0].waiting, "R+1: A's End not read yet");
        spec_pop(&s, 1);
        CHECK(!s.m.slot[0].waiting, "R+2: End read, the slot freed");
        CHECK_EQ(s.o.smp_valid, reuse, "SLOT_REUSE %u: sampled into the freed slot", reuse);
        CHECK_EQ(s.o.col_valid, 1u - reuse, "SLOT_REUSE %u: collides", reuse);
    }
    return 0;
}

/* wide-alt (three slots, 64-byte records, SLOT_REUSE 0, BUF_BEATS 4): A
 * (slot 0, at `at`) is 27 bytes of packets and 37 of padding. With the
 * memory stalled: beats 0, 1, 2 go into the queue in E+3, E+4, E+5 (beat 0
 * on to the port in E+4), End is read in E+6 (slot 0 freed: A's record is
 * no longer read), beats 3 and 4 (padding) in E+7, E+8; from E+9 the queue
 * holds 4 and the encoder waits with three beats to write. Then C (slot 1)
 * and B (slot 0) finish, in that order, and wait. */
static int wait_two(spec_t *s, uint64_t at, uint64_t limitr)
{
    TRY(open_stalled(s, "wide-alt", 4, 0, at, limitr));
    CHECK(spec_take(s) == 0, "A in slot 0");
    TRY(enter_a(s, 0, at, REC_ALT, 9));
    CHECK(!s->m.slot[0].waiting, "A's packets are read: slot 0 is free");
    CHECK(spec_take(s) == 0 && spec_take(s) == 1, "B in slot 0, C in slot 1");
    spec_fin(s, 1, TLD, 0, 0, 0);
    CHECK_EQ(s->o.rec_len[0], REC_ALT, "C's record is built");
    spec_fin(s, 0, TLD, 0, 0, 0);
    CHECK_EQ(s->o.rec_len[0], REC_ALT, "B's record is built");
    spec_idle(s, 2);
    CHECK_EQ(s->o.rec_wr, 0u, "both wait: A's padding is still to be written");
    CHECK_EQ(ptr(s), at + REC_ALT, "no place for them yet");
    return 0;
}

/* Ready memory from R: the queue holds 4 at R's start (no room), so A's
 * beats 5, 6, 7 go in R+1, R+2, R+3 (the port takes a beat a cycle) and C,
 * the first to finish, enters in R+4. */
static int ready_until_c(spec_t *s)
{
    s->mem_stall = 0;
    for (int k = 0; k < 4; k++) {
        spec_idle(s, 1);
        CHECK_EQ(s->o.rec_wr, 0u, "cycle R+%d: A's padding", k);
    }
    spec_idle(s, 1);
    CHECK_EQ(s->o.rec_wr, 2u, "R+4: slot 1's record (C) enters first");
    return 0;
}

/* Two waiting records enter in finish order, one at a time: C, then B once
 * the encoder has written C. */
static int d17_8_waiting_records_in_finish_order(void)
{
    spec_t s;
    TRY(wait_two(&s, 0, PMBLIMITR_E));
    TRY(ready_until_c(&s));
    CHECK_EQ(ptr(&s), 2u * REC_ALT, "C at 64");
    CHECK(s.m.slot[0].waiting, "B waits on");
    unsigned k = 0;
    do {
        spec_idle(&s, 1);
        k++;
    } while (k < 32 && !s.o.rec_wr);
    CHECK_EQ(s.o.rec_wr, 1u, "then slot 0's (B)");
    /* C enters in E': packets in E'+1 .. E'+6 (beats 0, 1, 2 in E'+3, +4,
     * +5), its padding's beats 3 .. 7 in E'+7 .. E'+11 (the queue has
     * room: the port takes a beat a cycle) */
    CHECK_EQ(k, 12u, "B enters in E'+12, once C's 8 beats are written");
    CHECK_EQ(ptr(&s), 3u * REC_ALT, "B at 128");
    return 0;
}

/* The first waiting record fills the buffer: A at 0xF08 leaves PMBPTR_EL1
 * at 0xF48, C's 64 bytes take it to 0xF88 > 0x1000 - 128 (MaxSize 7):
 * profiling stops and B, waiting behind C, is discarded in the same cycle,
 * its slot freed; C's bytes are still written. */
static int d17_8_full_discards_later_waiting(void)
{
    spec_t s;
    TRY(wait_two(&s, 0xF08, LIMIT_PAGE1));
    TRY(ready_until_c(&s));
    CHECK_EQ(s.o.pmbirq, 1u, "C fills the buffer");
    CHECK_EQ(s.m.reg[SPU_REG_PMBSR_EL1], BSR_FULL, "PMBSR_EL1: S, BSC buffer full");
    CHECK_EQ(s.pmu[SPU_PMU_BUFFER_FULL], 1u, "SAMPLE_BUFFER_FULL");
    CHECK_EQ(ptr(&s), 0xF08u + 2u * REC_ALT, "no place for B");
    CHECK(!s.m.slot[0].waiting && !s.m.slot[0].busy, "B discarded, its slot free");
    uint64_t last = 0;
    for (int k = 0; k < 40; k++) {
        spec_idle(&s, 1);
        if (s.o.mem_valid)
            last = s.o.mem_addr;
    }
    CHECK_EQ(last, 0xF80u, "C's last beat (0xF48 + 64 - 8) is written");
    CHECK_EQ(ptr(&s), 0xF08u + 2u * REC_ALT, "B was not written");
    return 0;
}

/* D17.8: "profiling is disabled before the Statistical Profiling Unit
 * samples further operations", with the record that fills the buffer
 * waiting for the encoder. wide, A (slot 0, at `at`) stuck as in
 * d17_8_record_waits_then_enters; B (slot 1) finishes in cycle F with a
 * member (COUNT 2 -> 1), and every cycle after it has one: the first
 * would take COUNT to 0 and collide (slot 0 is read, slot 1 waits). Ready
 * memory from R = F + 4, so B enters in R + 3 = F + 7. At 0xF00 B ends at
 * 0xF2E and does not fill the buffer: every member is counted and F + 1's
 * collides. At 0xF60 A ends at 0xF77 <= 0xF80 = 0x1000 - 128 and B at
 * 0xF8E > 0xF80: from F + 1 to B's entry no member is counted, selected or
 * collides (docs/semantics.md, the buffer-full window). */
static int d17_8_full_stops_while_waiting(void)
{
    for (unsigned fills = 0; fills <= 1; fills++) {
        CASE(fills);
        spec_t s;
        const uint64_t at = fills ? 0xF60 : 0xF00;
        TRY(open_stalled(&s, "wide", 1, 0, at, LIMIT_PAGE1));
        CHECK(spec_take(&s) == 0 && spec_take(&s) == 1, "A in slot 0, B in slot 1");
        TRY(enter_a(&s, 0, at, REC_LOAD, 8));
        CHECK_EQ(s.o.pmbirq, 0u, "A does not fill the buffer");
        TRY(spec_fin_counted(&s, 1));      /* B */
        for (unsigned t = 1; t <= 7; t++) {
            s.mem_stall = t < 4;
            s.in.pop_valid = 1;
            spec_cycle(&s);
            CHECK_EQ(s.o.rec_wr, t == 7 ? 2u : 0u, "F + %u: B enters in F + 7 only", t);
            CHECK_EQ(s.o.pmu[SPU_PMU_POP], 1u - fills, "F + %u: SAMPLE_POP", t);
            CHECK_EQ(s.o.col_valid, t == 1 ? 1u - fills : 0u, "F + %u: a collision", t);
            CHECK_EQ(s.o.smp_valid, 0u, "F + %u: no sample", t);
        }
        CHECK_EQ(s.o.pmbirq, fills, "F + 7: B fills the buffer (%u)", fills);
        CHECK_EQ(s.m.reg[SPU_REG_PMBSR_EL1], fills ? BSR_FULL : PMBSR_COLL, "PMBSR_EL1");
        if (fills)
            CHECK_EQ(s.m.reg[SPU_REG_PMSICR_EL1], 1u, "COUNT held from F + 1");
    }
    return 0;
}

/* D17.4: disabling the buffer discards the waiting records (the cycle
 * after the MSR holds the reservation, and finds PMBLIMITR_EL1.E = 0 at its
 * start) and frees their slots; A, which entered before, is written. */
static int d17_4_disable_discards_waiting(void)
{
    spec_t s;
    TRY(wait_two(&s, 0, PMBLIMITR_E));
    spec_wr(&s, SPU_REG_PMBLIMITR_EL1, 0);
    CHECK(s.m.slot[0].waiting && s.m.slot[1].waiting, "B and C wait in the MSR's cycle");
    spec_idle(&s, 1);
    CHECK(!s.m.slot[0].waiting && !s.m.slot[1].waiting, "both discarded in the next");
    s.mem_stall = 0;
    uint64_t last = 0;
    for (int k = 0; k < 20; k++) {
        spec_idle(&s, 1);
        if (s.o.mem_valid)
            last = s.o.mem_addr;
        CHECK_EQ(s.o.rec_wr, 0u, "nothing enters");
    }
    CHECK_EQ(last, 56u, "A's last beat (at 56) is written");
    CHECK_EQ(ptr(&s), REC_ALT, "no place for B or C");
    return 0;
}

const spec_test_t spec_tests_wait[] = {
    SPEC_TEST(d17_8_record_waits_then_enters),
    SPEC_TEST(d17_3_7_slot_reuse_at_release),
    SPEC_TEST(d17_8_waiting_records_in_finish_order),
    SPEC_TEST(d17_8_full_discards_later_waiting),
    SPEC_TEST(d17_8_full_stops_while_waiting),
    SPEC_TEST(d17_4_disable_discards_waiting),
    SPEC_END,
};
