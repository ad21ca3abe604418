/*
 * Latency counters of a sample (SPEStartCounter/SPEStopCounter of the total
 * and issue latency, D18 counter packets) as the unit measures them
 * (docs/semantics.md step 4-5), their saturation at PMSIDR_EL1.CountSize,
 * and D17.5.3 at the saturation limit.
 */
#include "spec.h"

static int open_lat(spec_t *s, const char *cfg)
{
    TRY(spec_open(s, cfg));
    return spec_enable(s, IRR(1, 0), 0, PMBLIMITR_E);
}

/* semantics.md: "Latency counters therefore read fin and iss for an op
 * presented iss/fin cycles after it entered the population". Sample taken in
 * cycle P: issue at P+3, finish at P+10 -> tot 10, iss 3. Case 2: finish in
 * the cycle right after the selection -> tot 1. */
static int latency_tot_and_iss(void)
{
    spec_t s;
    TRY(open_lat(&s, "v1p4"));
    CASE(1);
    const int slot = spec_take(&s);
    CHECK(slot >= 0, "no sample");
    spec_idle(&s, 2);
    spec_iss(&s, (unsigned)slot);
    spec_idle(&s, 6);
    spec_fin(&s, (unsigned)slot, TLD, 0, 0, 0);
    CHECK_EQ(s.o.rec_valid, 1, "record");
    CHECK_EQ(s.o.rec_slot[0], slot, "record slot");
    CHECK_EQ(s.o.rec_tot_lat[0], 10, "total latency");
    CHECK_EQ(s.o.rec_iss_lat[0], 3, "issue latency");
    CASE(2);
    TRY(spec_record(&s, 1, TST, 0, 0, 0));
    CHECK_EQ(s.o.rec_tot_lat[0], 1, "total latency");
    CHECK_EQ(s.o.rec_iss_lat[0], 1, "issue latency (never issued)");
    return 0;
}

/* semantics.md step 4: "an issue event in this same cycle for s counts as
 * issued with latency tot"; and without any issue event iss = tot. */
static int latency_issue_same_cycle_as_finish(void)
{
    spec_t s;
    TRY(open_lat(&s, "v1"));
    const int slot = spec_take(&s);
    CHECK(slot >= 0, "no sample");
    spec_idle(&s, 8);
    s.in.iss_valid = 1;
    s.in.iss_slot[0] = (uint8_t)slot;
    spec_fin(&s, (unsigned)slot, TLD, 0, 0, 0);
    CHECK_EQ(s.o.rec_tot_lat[0], 9, "total latency");
    CHECK_EQ(s.o.rec_iss_lat[0], 9, "issue latency = total latency");
    return 0;
}

/* SPEStopCounter() is called once per counter: only the first issue event of
 * a sample stops the issue latency (semantics.md step 5: "busy and not yet
 * issued"). Issue at +2, again at +5, finish at +7 -> iss 2. */
static int latency_first_issue_counts(void)
{
    spec_t s;
    TRY(open_lat(&s, "v1p4"));
    const int slot = spec_take(&s);
    CHECK(slot >= 0, "no sample");
    spec_idle(&s, 1);
    spec_iss(&s, (unsigned)slot);
    spec_idle(&s, 2);
    spec_iss(&s, (unsigned)slot);
    spec_idle(&s, 1);
    spec_fin(&s, (unsigned)slot, TLD, 0, 0, 0);
    CHECK_EQ(s.o.rec_tot_lat[0], 7, "total latency");
    CHECK_EQ(s.o.rec_iss_lat[0], 2, "issue latency from the first issue event");
    return 0;
}

/* PMSIDR_EL1.CountSize 0b0010 "12-bit saturating counters" (v1): finished
 * after 5000 cycles -> tot 4095, iss 4095 (never issued) and issued after
 * 4500 -> 4095. Arm ARM D24.7 PMSLATFR_EL1: "If PMSIDR_EL1.CountSize is
 * 0b0010, PMSLATFR_EL1.MINLAT[15:12] is RES0": 0xFFFF reads 0x0FFF. D17.5.3
 * with MINLAT = 4095: the saturated 4095 >= 4095 is kept; 4094 is not. */
static int d17_5_3_saturate_12bit(void)
{
    spec_t s;
    TRY(open_lat(&s, "v1"));
    spec_wr(&s, SPU_REG_PMSLATFR_EL1, 0xFFFF);
    CHECK_EQ(spec_rd(&s, SPU_REG_PMSLATFR_EL1), 0xFFF, "MINLAT[15:12] RES0 with 12-bit counters");
    spec_wr(&s, SPU_REG_PMSFCR_EL1, FCR_FL);
    CASE(1);
    TRY(spec_expect(&s, 5000, TLD, 0, 0, 0, 0));
    CHECK_EQ(s.o.rec_tot_lat[0], 4095, "saturated total latency");
    CHECK_EQ(s.o.rec_iss_lat[0], 4095, "saturated issue latency");
    CASE(2);
    TRY(spec_expect(&s, 4094, TLD, 0, 0, 0, WLAT));
    CASE(3);
    const int slot = spec_take(&s);
    CHECK(slot >= 0, "no sample");
    spec_idle(&s, 4499);
    spec_iss(&s, (unsigned)slot);
    spec_idle(&s, 499);
    spec_fin(&s, (unsigned)slot, TLD, 0, 0, 0);
    CHECK_EQ(s.o.rec_tot_lat[0], 4095, "saturated total latency");
    CHECK_EQ(s.o.rec_iss_lat[0], 4095, "saturated issue latency (4500)");
    return 0;
}

/* PMSIDR_EL1.CountSize 0b0011 "16-bit saturating counters" (v1p4): 70000 ->
 * 65535; 4096 is not saturated; MINLAT is 16 bits (0xFFFF read back), and
 * 65535 >= 65535 is kept. */
static int d17_5_3_saturate_16bit(void)
{
    spec_t s;
    TRY(open_lat(&s, "v1p4"));
    CASE(1);
    TRY(spec_expect(&s, 4096, TLD, 0, 0, 0, 0));
    CHECK_EQ(s.o.rec_tot_lat[0], 4096, "16-bit total latency");
    spec_wr(&s, SPU_REG_PMSLATFR_EL1, 0xFFFF);
    CHECK_EQ(spec_rd(&s, SPU_REG_PMSLATFR_EL1), 0xFFFF, "MINLAT 16 bits");
    spec_wr(&s, SPU_REG_PMSFCR_EL1, FCR_FL);
    CASE(2);
    TRY(spec_expect(&s, 70000, TLD, 0, 0, 0, 0));
    CHECK_EQ(s.o.rec_tot_lat[0], 65535, "saturated total latency");
    CHECK_EQ(s.o.rec_iss_lat[0], 65535, "saturated issue latency");
    CHECK_EQ(s.o.pmu[SPU_PMU_FEED_LAT], 1, "SAMPLE_FEED_LAT at the limit");
    CASE(3);
    TRY(spec_expect(&s, 65534, TLD, 0, 0, 0, WLAT));
    return 0;
}

const spec_test_t spec_tests_latency[] = {
    SPEC_TEST(latency_tot_and_iss),
    SPEC_TEST(latency_issue_same_cycle_as_finish),
    SPEC_TEST(latency_first_issue_counts),
    SPEC_TEST(d17_5_3_saturate_12bit),
    SPEC_TEST(d17_5_3_saturate_16bit),
    SPEC_END,
};
