/*
 * D17.3.4.3 (PMSIRR_EL1.RND = 1 with FEAT_SPE_ERnd): the secondary counter
 * PMSICR_EL1.ECOUNT of SPEToCollectSample() (M.a.a pseudocode, Arm ARM J1.1),
 * on v1p4. Where COUNT reloads with and without ERnd: spec_knobs.c.
 */
#include "spec.h"

static uint64_t mean_pos[20000];

static double dabs(double d) { return d < 0 ? -d : d; }

/* D17.3.4.3: "When PMSIRR_EL1.RND is set to 1 and FEAT_SPE_ERnd is
 * implemented, the mean interval ... is (INTERVAL x 256+1)". Worked out from
 * M.a.a: COUNT reaches zero every INTERVAL*256+1 members whatever ECOUNT
 * does (it reloads on the next member and keeps counting), and sample k is
 * r_k members after the k-th zero. So (last - first)/(N-1) = INTERVAL*256+1
 * + (r_N - r_1)/(N-1), within 255/19999 < 0.013 of INTERVAL*256+1 whatever
 * the generator: tolerance 0.02. Selections that collide count (a kept
 * record holds its slot while the encoder writes it, D17.3.7), and
 * collisions are rare: an interval shorter than a record's encoding. */
static int d17_3_4_3_ernd_mean_interval(void)
{
    spec_t s;
    const uint32_t n = 20000;
    TRY(spec_open(&s, "v1p4"));
    TRY(spec_enable(&s, IRR(1, 1), 0, PMBLIMITR_E));
    CHECK_EQ(spec_feed(&s, (uint64_t)n * 258u + 600u, 1, mean_pos, n, 1, n), n, "selections");
    const double mean = (double)(mean_pos[n - 1] - mean_pos[0]) / (double)(n - 1);
    CHECK(dabs(mean - 257.0) <= 0.02, "mean interval %.4f, expected 257 +- 0.02", mean);
    CHECK(s.ncol < n / 100, "%llu collisions of %u selections", (unsigned long long)s.ncol, n);
    return 0;
}

static int open_ernd(spec_t *s, uint32_t seed, uint64_t icr)
{
    spu_config_t cfg;
    TRY(spec_cfg(&cfg, "v1p4"));
    TRY(spec_knob(&cfg, "LFSR_SEED", seed));
    TRY(spec_init(s, &cfg));
    TRY(spec_enable(s, IRR(1, 1), icr, PMBLIMITR_E));
    return 0;
}

/* D17.3.4.3: ECOUNT "is set to a random or pseudorandom value ... If this
 * value is zero, then an operation is selected for sampling" - the member on
 * which COUNT reached zero. Forced: PMSICR = 1 (no edge load, nonzero) and a
 * seed whose first draw is 0: the first draw returns seed<15:8>, so seed
 * 0x5A00C3 draws 0x00. Case 2: seed 0x5A07C3 draws 7: COUNT reaches zero on
 * member 1, ECOUNT = 7; member 2 reloads COUNT (256) and ECOUNT -> 6, ...,
 * member 8 takes ECOUNT to 0 and is selected, with COUNT = 256 - 6 = 250. */
static int d17_3_4_3_ecount_zero_selects_same_member(void)
{
    spec_t s;
    CASE(1);
    TRY(open_ernd(&s, 0x5A00C3, 1));
    spec_pop(&s, 1);
    CHECK(s.o.smp_valid & 1u, "member on which COUNT reached zero not selected (draw 0)");
    CHECK_EQ(s.o.obs_pmsicr, 0, "PMSICR: COUNT 0, ECOUNT 0");
    CASE(2);
    TRY(open_ernd(&s, 0x5A07C3, 1));
    spec_pop(&s, 1);
    CHECK(!s.o.smp_valid, "selected with ECOUNT = 7");
    CHECK_EQ(s.o.obs_pmsicr, ICR(7, 0), "ECOUNT loaded with the draw");
    s.members = 1;
    uint64_t pos[2];
    CHECK_EQ(spec_feed(&s, 7, 1, pos, 2, 0, 0), 1, "selections in members 2..8");
    CHECK_EQ(pos[0], 8, "selection 7 members after COUNT reached zero");
    CHECK_EQ(s.o.obs_pmsicr, ICR(0, 250), "COUNT kept decrementing through the tail");
    return 0;
}

/* the M.a.a pseudocode (Arm ARM J1.1), SPEToCollectSample notes: "with INTERVAL = 1 and the
 * counter starting at 0, COUNT reaches zero at operations 257, 514, 771.
 * Random values 0, 1, 5 then give samples at operations 257, 515 and 776."
 * Seed 0x370001 draws 0x00 (seed<15:8>), 0x01 (seed<7:0>) and 0x05 (the new
 * byte L<16:9>^L<21:14>^L<22:15>^L<23:16> of 0x370001, worked out by hand:
 * 0x80 ^ 0xDC ^ 0x6E ^ 0x37 = 0x05). "Counter starting at 0" while enabled:
 * PMSICR is written 0 after the edge. Also checks PMSICR at the draw of 1
 * (ECOUNT=1, COUNT=0) and on member 515 (COUNT reloaded 256, ECOUNT 0). */
static int d17_3_4_3_ecount_tail_example(void)
{
    spec_t s;
    uint64_t pos[4];
    TRY(open_ernd(&s, 0x370001, 0));
    spec_wr(&s, SPU_REG_PMSICR_EL1, 0);
    s.members = 0;
    CASE(1);
    CHECK_EQ(spec_feed(&s, 514, 1, pos, 4, 1, 0), 1, "selections in members 1..514 (draw 1 at 514)");
    CHECK_EQ(pos[0], 257, "sample for draw 0");
    CHECK_EQ(s.o.obs_pmsicr, ICR(1, 0), "PMSICR at member 514");
    spec_pop(&s, 1);
    CHECK(s.o.smp_valid & 1u, "member 515 not selected");
    CHECK_EQ(s.o.obs_pmsicr, ICR(0, 256), "PMSICR at member 515");
    spec_fin(&s, s.o.smp_slot[0], 0, 0, 0, 0);
    s.members = 515;
    CASE(2);
    CHECK_EQ(spec_feed(&s, 285, 1, pos + 1, 3, 1, 0), 1, "selections in members 516..800");
    CHECK_EQ(pos[1], 776, "sample for draw 5");
    return 0;
}

/* D17.3.4.3 (RND = 1, ERnd): "While the secondary sample interval counter is
 * nonzero, the secondary sample interval counter decrements by 1 for each
 * member ... The primary sample interval counter also continues to decrement"
 * PMSICR = {ECOUNT 3, COUNT 100}: members 1..3 give {2,99}, {1,98}, {0,97},
 * member 3 selected, no draw. Case 2: RND = 0 leaves ECOUNT alone (the ECOUNT
 * step needs RND == 1): {5,10} counts COUNT only, selection at member 10. */
static int d17_3_4_3_both_counters_decrement(void)
{
    spec_t s;
    CASE(1);
    TRY(open_ernd(&s, 0x5A07C3, ICR(3, 100)));
    spec_pop(&s, 1);
    CHECK_EQ(s.o.obs_pmsicr, ICR(2, 99), "member 1");
    spec_pop(&s, 1);
    CHECK_EQ(s.o.obs_pmsicr, ICR(1, 98), "member 2");
    CHECK(!s.o.smp_valid, "member 2 selected");
    spec_pop(&s, 1);
    CHECK_EQ(s.o.obs_pmsicr, ICR(0, 97), "member 3");
    CHECK(s.o.smp_valid & 1u, "member 3 (ECOUNT reached zero) not selected");
    CASE(2);
    TRY(spec_open(&s, "v1p4"));
    TRY(spec_enable(&s, IRR(1, 0), ICR(5, 10), PMBLIMITR_E));
    uint64_t pos[2];
    CHECK_EQ(spec_feed(&s, 9, 1, pos, 2, 0, 0), 0, "selections in 9 members");
    CHECK_EQ(s.o.obs_pmsicr, ICR(5, 1), "ECOUNT held with RND=0");
    spec_pop(&s, 1);
    CHECK(s.o.smp_valid & 1u, "member 10 not selected");
    return 0;
}

const spec_test_t spec_tests_ernd[] = {
    SPEC_TEST(d17_3_4_3_ernd_mean_interval),
    SPEC_TEST(d17_3_4_3_ecount_zero_selects_same_member),
    SPEC_TEST(d17_3_4_3_ecount_tail_example),
    SPEC_TEST(d17_3_4_3_both_counters_decrement),
    SPEC_END,
};
