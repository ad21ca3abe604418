/*
 * D17.7, D17.8 the Profiling Buffer: PMBPTR_EL1 advances by each record
 * written; SPEBufferIsFull() (UInt(PMBPTR) > UInt(LIMIT:Zeros(12)) -
 * (1 << MaxSize)) after a record raises OtherSPEManagementEvent('000001')
 * (PMBSR_EL1.S = 1, EC = 0, BSC = 1, DL and COLL kept) and SAMPLE_BUFFER_FULL,
 * and profiling stops; D17.4 nothing is written while the buffer is disabled
 * or stopped; the write port (docs/buffer.md) shows a record as 8-byte
 * aligned beats with byte enables.
 *
 * v1p4: PMSIDR_EL1.MaxSize = 7 (128 bytes), Align 0, 4-byte Events. A load
 * with no address, sampled with PMSCR_EL1 = E0SPE|E1SPE (no CX, PA, TS), is
 * Counters 6 + PC 9 + Operation Type 2 + Events 5 + End 1 = 23 bytes.
 */
#include <string.h>

#include "spec.h"

#define REC_LOAD 23u              /* the record of a plain load (above) */
#define MAX_V1P4 128u             /* 1 << PMSIDR_EL1.MaxSize */
#define LIMIT_PAGE1 0x1001u       /* PMBLIMITR_EL1: E = 1, LIMIT = 1: the limit is 0x1000 */
#define BSR_FULL ((1ull << 17) | 1u) /* S, EC = 0, MSS = BSC 0b000001 */

/* The cycle after a kept record's finish: in its finish cycle it waits in
 * its slot (PMBPTR_EL1 still ptr), in the next it enters the write path. */
static int buffer_reserve(spec_t *s, uint64_t ptr)
{
    CHECK_EQ(s->o.rec_wr, 0u, "the record waits in its slot in its finish cycle");
    CHECK_EQ(s->m.reg[SPU_REG_PMBPTR_EL1], ptr, "PMBPTR_EL1 after the finish cycle (no read cycle)");
    spec_idle(s, 1);
    return 0;
}

/* A buffer at ptr below LIMIT_PAGE1, profiling on, one kept load record,
 * and the cycle it enters the write path. */
static int buffer_record(spec_t *s, uint64_t ptr)
{
    TRY(spec_open(s, "v1p4"));
    spec_wr(s, SPU_REG_PMBPTR_EL1, ptr);
    TRY(spec_enable(s, IRR(1, 0), 0, LIMIT_PAGE1));
    TRY(spec_expect(s, 10, TLD, 0, 0, 0, 0));
    CHECK_EQ(s->o.rec_len[0], REC_LOAD, "the record of a plain load");
    TRY(buffer_reserve(s, ptr));
    return 0;
}

/* Not full: 0xF00 + 23 = 0xF17 <= 0x1000 - 128 = 0xF80. */
static int d17_8_pointer_advances(void)
{
    spec_t s;
    TRY(buffer_record(&s, 0xF00));
    CHECK_EQ(s.o.rec_wr, 1u, "the record is written");
    CHECK_EQ(s.o.pmbirq, 0u, "no management event");
    CHECK_EQ(spec_rd(&s, SPU_REG_PMBPTR_EL1), 0xF00u + REC_LOAD, "PMBPTR_EL1 after the record");
    CHECK_EQ(spec_rd(&s, SPU_REG_PMBSR_EL1), 0u, "PMBSR_EL1");
    CHECK_EQ(s.pmu[SPU_PMU_BUFFER_FULL], 0u, "SAMPLE_BUFFER_FULL");
    return 0;
}

/* The boundary: a record that ends exactly at LIMIT - MaxSize leaves room for
 * one more of the largest size (PTR > LIMIT - 128 is false); the next one
 * fills the buffer. */
static int d17_8_full_boundary(void)
{
    spec_t s;
    TRY(buffer_record(&s, 0x1000u - MAX_V1P4 - REC_LOAD));
    CHECK_EQ(s.o.pmbirq, 0u, "PTR == LIMIT - 128 is not full");
    CHECK_EQ(spec_rd(&s, SPU_REG_PMBPTR_EL1), 0x1000u - MAX_V1P4, "PMBPTR_EL1");
    TRY(spec_expect(&s, 10, TLD, 0, 0, 0, 0));
    TRY(buffer_reserve(&s, 0x1000u - MAX_V1P4));
    CHECK_EQ(s.o.rec_wr, 1u, "the last record that fits is written");
    CHECK_EQ(s.o.pmbirq, 1u, "and fills the buffer: PMBIRQ");
    CHECK_EQ(s.pmu[SPU_PMU_BUFFER_FULL], 1u, "SAMPLE_BUFFER_FULL once");
    CHECK_EQ(spec_rd(&s, SPU_REG_PMBSR_EL1), BSR_FULL, "PMBSR_EL1: S, EC 0, BSC buffer full");
    CHECK_EQ(spec_rd(&s, SPU_REG_PMBPTR_EL1), 0x1000u - MAX_V1P4 + REC_LOAD,
             "PMBPTR_EL1: the first byte after the last record (D17.8.2)");
    return 0;
}

/* Full: profiling stops (ProfilingBufferEnabled() needs S = 0), COLL and DL
 * are kept; software re-arms PMBPTR_EL1 and clears PMBSR_EL1 to restart. */
static int d17_8_full_stops_profiling(void)
{
    spec_t s;
    TRY(spec_open(&s, "v1p4"));
    spec_wr(&s, SPU_REG_PMBPTR_EL1, 0xF78);
    spec_wr(&s, SPU_REG_PMBSR_EL1, (1ull << 16) | (1ull << 19)); /* COLL, DL from before */
    TRY(spec_enable(&s, IRR(1, 0), 0, LIMIT_PAGE1));
    TRY(spec_expect(&s, 10, TLD, 0, 0, 0, 0));
    TRY(buffer_reserve(&s, 0xF78));
    CHECK_EQ(s.o.rec_wr, 1u, "written: 0xF78 <= 0xF80 when it starts");
    CHECK_EQ(spec_rd(&s, SPU_REG_PMBSR_EL1), BSR_FULL | (1ull << 16) | (1ull << 19), "S set, COLL and DL kept");
    CHECK_EQ(s.o.obs_enabled, 0u, "profiling stopped");
    spec_wr(&s, SPU_REG_PMSICR_EL1, 1);
    spec_pop(&s, 1);
    CHECK_EQ(s.o.smp_valid | s.o.col_valid, 0u, "no selection while stopped");
    CHECK_EQ(spec_rd(&s, SPU_REG_PMBPTR_EL1), 0xF78u + REC_LOAD, "PMBPTR_EL1 frozen");
    spec_wr(&s, SPU_REG_PMBPTR_EL1, 0x0);
    spec_wr(&s, SPU_REG_PMBSR_EL1, 0);
    spec_idle(&s, 1);
    CHECK_EQ(s.o.obs_enabled, 1u, "profiling again after the re-arm");
    CHECK_EQ(s.o.pmbirq, 0u, "PMBIRQ cleared by software");
    return 0;
}

/* Discard mode (FM = 0b10) and a disabled buffer write nothing and leave
 * PMBPTR_EL1 alone (D17.5.5, D17.4). */
static int d17_4_no_write_when_discarding(void)
{
    spec_t s;
    TRY(spec_open(&s, "v1p4"));
    spec_wr(&s, SPU_REG_PMBPTR_EL1, 0xF78);
    TRY(spec_enable(&s, IRR(1, 0), 0, LIMIT_PAGE1 | 4u));
    TRY(spec_expect(&s, 10, TLD, 0, 0, 0, WDISC));
    CHECK_EQ(s.o.rec_len[0] | s.o.rec_wr, 0u, "no record");
    spec_idle(&s, 4);
    CHECK_EQ(s.o.mem_valid, 0u, "no write beat");
    CHECK_EQ(spec_rd(&s, SPU_REG_PMBPTR_EL1), 0xF78u, "PMBPTR_EL1 unchanged");
    CHECK_EQ(spec_rd(&s, SPU_REG_PMBSR_EL1), 0u, "no buffer-full event although 0xF78 + 23 > 0xF80");
    return 0;
}

/* The write port: a record at 0x1003 goes out as beats at 0x1000 (bytes
 * 0..4 in lanes 3..7), 0x1008, 0x1010 and 0x1018 (bytes 21, 22 in lanes 0,
 * 1). Worked out from the encoder (docs/buffer.md), a packet per cycle
 * from the cycle after the record enters (cycle E): its window starts at
 * offset 3; Counter 0 (3 bytes) in E+1 fills it to 6; Counter 1 (3) in E+2
 * to 9: beat 0; PC (9) in E+3 to 10: beat 1; Operation Type (2) in E+4 to
 * 4; Events (5) in E+5 to 9: beat 2; End (1) in E+6, the last byte: beat 3.
 * A beat written in cycle c is shown in c+1's outputs when the port is
 * free: beats 0..3 in E+3, E+4, E+6, E+7; a stalled beat is shown again
 * and the next follows it. */
static int d17_8_write_beats(void)
{
    for (int stall = 0; stall <= 1; stall++) {
        CASE(stall);
        spec_t s;
        TRY(spec_open(&s, "v1p4"));
        spec_wr(&s, SPU_REG_PMBPTR_EL1, 0x1003);
        TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
        TRY(spec_expect(&s, 10, TLD, 0, 0, 0, 0));
        TRY(buffer_reserve(&s, 0x1003));
        CHECK_EQ(s.o.rec_wr, 1u, "written");
        uint8_t rec[32];
        memcpy(rec, spu_model_record(&s.m, 0), REC_LOAD);
        static const uint64_t addr[4] = {0x1000, 0x1008, 0x1010, 0x1018};
        static const uint8_t strb[4] = {0xF8, 0xFF, 0xFF, 0x03};
        static const int first[4] = {-3, 5, 13, 21}; /* record byte in lane 0 */
        /* the beat shown in cycles E+1 .. E+8 (-1: none); with stall, the
         * memory does not take beat 1 in its first cycle */
        static const int shown[2][8] = {{-1, -1, 0, 1, -1, 2, 3, -1}, {-1, -1, 0, 1, 1, 2, 3, -1}};
        for (int t = 0; t < 8; t++) {
            s.mem_stall = stall && t == 4; /* the input of cycle E+5, beat 1 shown since E+4 */
            spec_idle(&s, 1);
            const int k = shown[stall][t];
            CHECK_EQ(s.o.mem_valid, k >= 0, "cycle E+%d: a beat shown", t + 1);
            if (k < 0)
                continue;
            CHECK_EQ(s.o.mem_addr, addr[k], "cycle E+%d: beat %d address", t + 1, k);
            CHECK_EQ(s.o.mem_strb, strb[k], "beat %d byte enables", k);
            uint64_t want = 0;
            for (int j = 0; j < 8; j++)
                if ((strb[k] >> j) & 1u)
                    want |= (uint64_t)rec[first[k] + j] << (8 * j);
            CHECK_EQ(s.o.mem_data, want, "beat %d data", k);
        }
    }
    return 0;
}

/* Two records in one cycle (wide: ports 0 and 1): port 0's enters the
 * write path in the next and fills the buffer (0xF6A + 23 = 0xF81 >
 * 0xF80), so profiling stops and port 1's, waiting behind it, is built but
 * discarded (records of one cycle wait in port order, docs/buffer.md). */
static int d17_8_full_stops_later_port(void)
{
    spec_t s;
    TRY(spec_open(&s, "wide"));
    spec_wr(&s, SPU_REG_PMBPTR_EL1, 0xF6A);
    TRY(spec_enable(&s, IRR(1, 0), 0, LIMIT_PAGE1));
    const int s0 = spec_take(&s), s1 = spec_take(&s);
    CHECK(s0 >= 0 && s1 >= 0 && s0 != s1, "two samples in flight (slots %d, %d)", s0, s1);
    s.in.fin_valid = 3;
    s.in.fin_slot[0] = (uint8_t)s0;
    s.in.fin_slot[1] = (uint8_t)s1;
    s.in.fin_type[0] = s.in.fin_type[1] = TLD;
    spec_cycle(&s);
    CHECK_EQ(s.o.rec_keep, 3u, "both kept");
    CHECK_EQ(s.o.rec_len[0], REC_LOAD, "port 0's record");
    CHECK_EQ(s.o.rec_len[1], REC_LOAD, "port 1's record is built");
    TRY(buffer_reserve(&s, 0xF6A));
    CHECK_EQ(s.o.rec_wr, 1u << s0, "only port 0's (slot s0's) is written");
    CHECK_EQ(s.o.pmbirq, 1u, "port 0's filled the buffer");
    CHECK_EQ(s.pmu[SPU_PMU_BUFFER_FULL], 1u, "SAMPLE_BUFFER_FULL once");
    CHECK_EQ(spec_rd(&s, SPU_REG_PMBPTR_EL1), 0xF6Au + REC_LOAD, "PMBPTR_EL1 moved for port 0 only");
    spec_idle(&s, 8);
    CHECK_EQ(s.o.rec_wr, 0u, "port 1's was discarded, not kept waiting");
    return 0;
}

/* D17.8: "Reported synchronously means that profiling is disabled before
 * the Statistical Profiling Unit samples further operations". A kept load finishes in cycle F with a
 * member (PMSICR_EL1 COUNT 2 -> 1: counted, not selected) and enters the
 * write path in F + 1 with another member that would take COUNT to 0.
 * At 0xF6A it fills the buffer, so F + 1's member is neither counted nor
 * selected and COUNT stays 1; at 0 it does not, and the member's selection
 * collides (the slot is freed from F + 2, SLOT_REUSE = 0). */
static int d17_8_full_stops_its_cycle(void)
{
    for (unsigned fills = 0; fills <= 1; fills++) {
        CASE(fills);
        spec_t s;
        TRY(spec_open(&s, "v1p4"));
        spec_wr(&s, SPU_REG_PMBPTR_EL1, fills ? 0xF6A : 0);
        TRY(spec_enable(&s, IRR(1, 0), 0, LIMIT_PAGE1));
        const int slot = spec_take(&s);
        CHECK_EQ(slot, 0, "the only slot");
        TRY(spec_fin_counted(&s, 0));
        s.in.pop_valid = 1;
        spec_cycle(&s);
        CHECK_EQ(s.o.rec_wr, 1u, "F + 1: the record enters");
        CHECK_EQ(s.o.pmbirq, fills, "F + 1: it fills the buffer (%u)", fills);
        CHECK_EQ(s.o.pmu[SPU_PMU_POP], 1u - fills, "F + 1: SAMPLE_POP");
        CHECK_EQ(s.o.col_valid, 1u - fills, "F + 1: collision");
        CHECK_EQ(s.o.smp_valid, 0u, "F + 1: no sample");
        if (fills)
            CHECK_EQ(s.m.reg[SPU_REG_PMSICR_EL1], 1u, "F + 1: COUNT held");
        CHECK_EQ(s.m.reg[SPU_REG_PMBSR_EL1], fills ? BSR_FULL : PMBSR_COLL, "F + 1: PMBSR_EL1");
    }
    return 0;
}

/* A write of PMBPTR_EL1 or PMBLIMITR_EL1 in the finish cycle of a kept load
 * holds the reservation in the next two cycles, while the unit recomputes
 * its limit (docs/buffer.md): the record enters two cycles later, with the
 * new values. The held cycles' members are counted (the stop ahead of a
 * fill holds the answer of the MSR's cycle, when no record waited); the
 * entry cycle's is stopped when the record fills the buffer. Cases: PMBLIMITR_EL1 and PMBPTR_EL1 rewritten with their own
 * values (it enters at 0xF00); PMBPTR_EL1 = 0xF6A (it enters there and
 * fills the buffer, 0xF6A + 23 > 0xF80); PMBLIMITR_EL1 = 0 (the held cycle
 * still discards it, D17.4: the buffer is disabled). */
static int d17_8_limit_write_holds_reservation(void)
{
    static const struct {
        int reg;
        uint64_t value, at;
        unsigned written, fills;
    } c[4] = {
        {SPU_REG_PMBLIMITR_EL1, LIMIT_PAGE1, 0xF00, 1, 0},
        {SPU_REG_PMBPTR_EL1, 0xF00, 0xF00, 1, 0},
        {SPU_REG_PMBPTR_EL1, 0xF6A, 0xF6A, 1, 1},
        {SPU_REG_PMBLIMITR_EL1, 0, 0xF00, 0, 0},
    };
    for (int k = 0; k < 4; k++) {
        CASE(k);
        spec_t s;
        TRY(spec_open(&s, "v1p4"));
        spec_wr(&s, SPU_REG_PMBPTR_EL1, 0xF00);
        TRY(spec_enable(&s, IRR(1, 0), 0, LIMIT_PAGE1));
        TRY(spec_take(&s) != 0);
        s.in.reg_valid = 1;
        s.in.reg_write = 1;
        s.in.reg_enc = spu_reg_enc(c[k].reg);
        s.in.reg_wdata = c[k].value;
        spec_fin(&s, 0, TLD, 0, 0, 0);
        CHECK_EQ(s.o.rec_keep, 1u, "kept, with the MSR in its finish cycle");
        for (int h = 1; h <= 2; h++) {
            spec_pop(&s, 1);
            CHECK_EQ(s.o.rec_wr, 0u, "cycle %d after the MSR reserves nothing", h);
            CHECK_EQ(s.o.pmu[SPU_PMU_POP], c[k].written, "its member: the answer held (cycle %d)", h);
            CHECK_EQ(s.m.reg[SPU_REG_PMBPTR_EL1], c[k].at, "PMBPTR_EL1 not moved");
            CHECK_EQ(s.m.slot[0].waiting, c[k].written, "it waits on, or the held cycle discards it");
        }
        spec_pop(&s, 1);
        CHECK_EQ(s.o.rec_wr, c[k].written, "the record enters two cycles later (or was discarded)");
        CHECK_EQ(s.o.pmu[SPU_PMU_POP], c[k].written - c[k].fills, "its member: stopped if it fills");
        CHECK_EQ(s.m.reg[SPU_REG_PMBPTR_EL1], c[k].at + c[k].written * REC_LOAD, "at its place");
        CHECK_EQ(s.o.pmbirq, c[k].fills, "the new pointer's full test");
        CHECK_EQ(s.m.slot[0].waiting, c[k].written, "an entered record holds its slot while it is read");
        spec_drain(&s);
        CHECK(!s.m.slot[0].busy && !s.m.slot[0].waiting, "the slot is free again");
    }
    return 0;
}

/* D17.4: "Any sample records that have been collected but not written to
 * memory are discarded" while profiling is stopped. A load finishes while
 * PMBSR_EL1.S = 1 (INFLIGHT = 0: its record is reported and kept by the
 * filter), and software clears S in that same cycle: the record is
 * discarded at its finish, not written once the buffer runs again. */
static int d17_4_record_finished_while_stopped(void)
{
    spec_t s;
    TRY(spec_open(&s, "v1p4"));
    TRY(spec_enable(&s, IRR(1, 0), 0, LIMIT_PAGE1));
    TRY(spec_take(&s) != 0);
    spec_wr(&s, SPU_REG_PMBSR_EL1, 1ull << 17); /* S: profiling stopped */
    s.in.reg_valid = 1;
    s.in.reg_write = 1;
    s.in.reg_enc = spu_reg_enc(SPU_REG_PMBSR_EL1);
    s.in.reg_wdata = 0;
    spec_fin(&s, 0, TLD, 0, 0, 0);
    CHECK_EQ(s.o.rec_keep, 1u, "kept by the filter");
    for (int t = 0; t < 4; t++) {
        spec_idle(&s, 1);
        CHECK_EQ(s.o.rec_wr, 0u, "never written (cycle %d after the finish)", t + 1);
    }
    CHECK_EQ(s.m.reg[SPU_REG_PMBPTR_EL1], 0u, "PMBPTR_EL1 unchanged");
    CHECK(spec_take(&s) == 0, "the slot was freed at the finish");
    return 0;
}

const spec_test_t spec_tests_buffer[] = {
    SPEC_TEST(d17_8_pointer_advances),
    SPEC_TEST(d17_8_full_boundary),
    SPEC_TEST(d17_8_full_stops_profiling),
    SPEC_TEST(d17_4_no_write_when_discarding),
    SPEC_TEST(d17_8_write_beats),
    SPEC_TEST(d17_8_full_stops_later_port),
    SPEC_TEST(d17_8_full_stops_its_cycle),
    SPEC_TEST(d17_8_limit_write_holds_reservation),
    SPEC_TEST(d17_4_record_finished_while_stopped),
    SPEC_END,
};
