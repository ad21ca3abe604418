/*
 * D17.3 sample interval counter: the LFSR of SPEGetRandomInterval(), the
 * enable-edge load (D17.3.3) and the counting rules of D17.3.4.1-2
 * (SPEToCollectSample(), SPEResetSampleCounter(), the M.a.a pseudocode (Arm ARM J1.1));
 * D17.3.4.3 (ERnd) is in spec_d17_3_4_3_ernd.c.
 */
#include "spec.h"

/* the M.a.a pseudocode (Arm ARM J1.1), "One possible generator": "with seed PC<23:0> =
 * 0x001000, the first 8 return values are 0x1C, 0xAF, 0xB0, 0x00, 0x96, 0x10,
 * 0x48, 0xEA". Its first call advances the state 8 times (seeding) and returns
 * L<23:16>; later calls advance once. spu_lfsr_draw() is one advance
 * (docs/semantics.md), so the spec's first value is the 8th draw.
 * Case 2: "A seed of zero locks the generator at 0x00".
 * Case 3: "One call equals 8 steps of the Fibonacci LFSR L = L<22:0> :
 * (L<23> EOR L<22> EOR L<21> EOR L<16>)". Case 4: "The period is 2^24-1". */
static int d17_3_2_lfsr_test_vector(void)
{
    static const uint8_t want[8] = {0x1C, 0xAF, 0xB0, 0x00, 0x96, 0x10, 0x48, 0xEA};
    uint32_t l = 0x001000;
    CASE(1);
    for (int i = 0; i < 7; i++)
        (void)spu_lfsr_draw(&l);
    for (int i = 0; i < 8; i++)
        CHECK_EQ(spu_lfsr_draw(&l), want[i], "return value %d after seeding", i + 1);
    CASE(2);
    l = 0;
    for (int i = 0; i < 4; i++)
        CHECK_EQ(spu_lfsr_draw(&l), 0, "zero seed must stay locked");
    CASE(3);
    uint32_t a = 0xC0FFEE, f = 0xC0FFEE;
    for (int i = 0; i < 100; i++) {
        (void)spu_lfsr_draw(&a);
        for (int k = 0; k < 8; k++) {
            const uint32_t b = ((f >> 23) ^ (f >> 22) ^ (f >> 21) ^ (f >> 16)) & 1u;
            f = ((f << 1) | b) & 0xFFFFFFu;
        }
        CHECK_EQ(a, f, "state after draw %d vs 8 Fibonacci steps", i + 1);
    }
    CASE(4);
    const uint32_t seed = 0x001000;
    l = seed;
    uint32_t n = 0;
    do {
        (void)spu_lfsr_draw(&l);
        n++;
    } while (l != seed && n <= 0xFFFFFFu);
    CHECK_EQ(n, 0xFFFFFFu, "period of the byte-wise LFSR");
    return 0;
}

/* D17.3.3: "If PMSICR_EL1 is zero, then it is loaded with an initial value
 * ... If PMSIRR_EL1.RND is 0: COUNT[31:8] is set to PMSIRR_EL1.INTERVAL,
 * COUNT[7:0] is set to 0x00." The edge is the first cycle in which the
 * PMBLIMITR_EL1.E write is seen (writes take effect from the next cycle). */
static int d17_3_3_edge_load_rnd0(void)
{
    static const uint32_t iv[] = {1, 5, 0xABCDE, 0xFFFFFF};
    for (unsigned i = 0; i < sizeof iv / sizeof iv[0]; i++) {
        spec_t s;
        CASE((int)i + 1);
        TRY(spec_open(&s, i & 1 ? "v1p4" : "v1"));
        TRY(spec_enable(&s, IRR(iv[i], 0), 0, PMBLIMITR_E));
        CHECK_EQ(s.o.obs_pmsicr, (uint64_t)iv[i] << 8, "PMSICR after the edge, INTERVAL=0x%X", iv[i]);
        CHECK_EQ(spec_rd(&s, SPU_REG_PMSICR_EL1), (uint64_t)iv[i] << 8, "PMSICR read");
    }
    return 0;
}

/* D17.3.3: "If PMSICR_EL1 is nonzero, then sampling restarts from the current
 * values in PMSICR_EL1." Case 2: nonzero means the whole register: ECOUNT != 0
 * with COUNT == 0 is not reloaded at the edge; with RND = 0 the member then
 * reloads COUNT and leaves ECOUNT alone (the ECOUNT step needs RND == 1). */
static int d17_3_3_edge_keeps_nonzero(void)
{
    spec_t s;
    CASE(1);
    TRY(spec_open(&s, "v1"));
    TRY(spec_enable(&s, IRR(4, 0), 0x1234, PMBLIMITR_E));
    CHECK_EQ(s.o.obs_pmsicr, 0x1234, "PMSICR kept at the edge");
    spec_pop(&s, 1);
    CHECK_EQ(s.o.obs_pmsicr, 0x1233, "first member decrements the kept value");
    CASE(2);
    TRY(spec_open(&s, "v1p4"));
    TRY(spec_enable(&s, IRR(4, 0), ICR(7, 0), PMBLIMITR_E));
    CHECK_EQ(s.o.obs_pmsicr, ICR(7, 0), "ECOUNT-only PMSICR kept at the edge");
    spec_pop(&s, 1);
    CHECK_EQ(s.o.obs_pmsicr, ICR(7, 0x400), "COUNT==0 reloads INTERVAL<<8, ECOUNT untouched (RND=0)");
    CHECK(!s.o.smp_valid, "reloading member selected");
    return 0;
}

/* D17.3.3: "If PMSIRR_EL1.RND is 1 and FEAT_SPE_ERnd is not implemented ...
 * COUNT[7:0] is set to a random or pseudorandom value". With the LFSR of
 * docs/semantics.md, the first draw from reset state L returns the new
 * L<23:16> = old L<15:8>: seed 0x00AB00 gives 0xAB, seed 0x123456 gives 0x34. */
static int d17_3_3_edge_rnd1_random_low_byte(void)
{
    static const struct { uint32_t seed; uint8_t byte; } v[] = {{0x00AB00, 0xAB}, {0x123456, 0x34}};
    for (unsigned i = 0; i < 2; i++) {
        spu_config_t cfg;
        spec_t s;
        CASE((int)i + 1);
        TRY(spec_cfg(&cfg, "v1"));
        TRY(spec_knob(&cfg, "LFSR_SEED", v[i].seed));
        TRY(spec_init(&s, &cfg));
        TRY(spec_enable(&s, IRR(2, 1), 0, PMBLIMITR_E));
        CHECK_EQ(s.o.obs_pmsicr, 0x200u | v[i].byte, "PMSICR after the edge, seed 0x%06X", v[i].seed);
    }
    return 0;
}

/* D17.3.3: "If PMSIRR_EL1.RND is 1 and FEAT_SPE_ERnd is implemented:
 * COUNT[31:8] is set to PMSIRR_EL1.INTERVAL. COUNT[7:0] is set to 0x00." */
static int d17_3_3_edge_rnd1_ernd_low_byte_zero(void)
{
    spu_config_t cfg;
    spec_t s;
    TRY(spec_cfg(&cfg, "v1p4"));
    TRY(spec_knob(&cfg, "LFSR_SEED", 0x00AB00));
    TRY(spec_init(&s, &cfg));
    TRY(spec_enable(&s, IRR(2, 1), 0, PMBLIMITR_E));
    CHECK_EQ(s.o.obs_pmsicr, 0x200, "PMSICR after the edge (ERnd: low byte 0, ECOUNT 0)");
    return 0;
}

/* D17.3.3 applies only when moving from disabled to enabled. A software write
 * of zero while enabled is not an edge: the next member finds COUNT == 0,
 * reloads (SPEResetSampleCounter, no decrement, not selected), and the
 * selection comes INTERVAL*256 members after that one. */
static int d17_3_3_no_load_without_transition(void)
{
    spec_t s;
    uint64_t pos[2];
    TRY(spec_open(&s, "v1"));
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    CHECK_EQ(spec_feed(&s, 10, 1, NULL, 0, 1, 0), 0, "selections in 10 members");
    CHECK_EQ(s.o.obs_pmsicr, 246, "PMSICR after 10 members");
    spec_wr(&s, SPU_REG_PMSICR_EL1, 0);
    CHECK_EQ(s.o.obs_pmsicr, 0, "PMSICR after the write");
    spec_idle(&s, 3);
    CHECK_EQ(s.o.obs_pmsicr, 0, "no load while staying enabled");
    s.members = 0;
    spec_pop(&s, 1);
    s.members = 1;
    CHECK_EQ(s.o.obs_pmsicr, 0x100, "member finding COUNT==0 reloads");
    CHECK(!s.o.smp_valid, "reloading member selected");
    CHECK_EQ(spec_feed(&s, 300, 1, pos, 2, 1, 0), 1, "selections");
    CHECK_EQ(pos[0], 257, "selection position after the reload member");
    return 0;
}

/* D17.3.4.1: "Because the counter counts down to zero, when PMSIRR_EL1.RND is
 * 0 the interval between operations being selected for sampling is
 * (INTERVAL x 256+1)." From PMSICR = 0 the edge loads INTERVAL*256, so the
 * first selection is the INTERVAL*256-th member, then every INTERVAL*256+1. */
static int d17_3_4_1_interval_rnd0(void)
{
    static const uint32_t iv[] = {1, 2, 3, 16};
    for (unsigned i = 0; i < sizeof iv / sizeof iv[0]; i++) {
        spec_t s;
        uint64_t pos[8];
        const uint64_t p = (uint64_t)iv[i] * 256u;
        CASE((int)i + 1);
        TRY(spec_open(&s, i == 3 ? "v1p4" : "v1"));
        TRY(spec_enable(&s, IRR(iv[i], 0), 0, PMBLIMITR_E));
        const uint32_t n = spec_feed(&s, p + 4 * (p + 1) + 10, 1, pos, 8, 1, 0);
        CHECK_EQ(n, 5, "selections, INTERVAL=%u", iv[i]);
        for (unsigned k = 0; k < 5; k++)
            CHECK_EQ(pos[k], p + k * (p + 1), "selection %u, INTERVAL=%u", k + 1, iv[i]);
        CHECK_EQ(s.ncol, 0, "collisions");
    }
    return 0;
}

/* D17.3.4.1: "When the counter reaches zero: A member of the sampling
 * population is selected ... COUNT[31:8] is set to INTERVAL, COUNT[7:0] is
 * set to 0x00." In M.a.a the reload happens on the next member
 * (SPEToCollectSample: IsZero(COUNT) -> SPEResetSampleCounter, no decrement).
 * Case 2: the whole 24-bit INTERVAL field reaches COUNT[31:8]. */
static int d17_3_4_1_reload_value(void)
{
    spec_t s;
    CASE(1);
    TRY(spec_open(&s, "v1"));
    TRY(spec_enable(&s, IRR(3, 0), 0, PMBLIMITR_E));
    CHECK_EQ(spec_feed(&s, 767, 1, NULL, 0, 0, 0), 0, "selections before member 768");
    spec_pop(&s, 1);
    CHECK(s.o.smp_valid & 1u, "member 768 not selected");
    CHECK_EQ(s.o.obs_pmsicr, 0, "COUNT at the selected member");
    spec_pop(&s, 1);
    CHECK_EQ(s.o.obs_pmsicr, 0x300, "reload on the next member");
    spec_pop(&s, 1);
    CHECK_EQ(s.o.obs_pmsicr, 0x2FF, "decrement after the reload");
    CASE(2);
    TRY(spec_open(&s, "v1"));
    TRY(spec_enable(&s, IRR(0xFFFFFF, 0), 1, PMBLIMITR_E));
    spec_pop(&s, 1);
    CHECK(s.o.smp_valid & 1u, "COUNT 1 -> 0 not selected");
    spec_pop(&s, 1);
    CHECK_EQ(s.o.obs_pmsicr, 0xFFFFFF00u, "reload with INTERVAL=0xFFFFFF");
    return 0;
}

static uint64_t mean_pos[20000];

static double dabs(double d) { return d < 0 ? -d : d; }

/* Mean distance between the first and the last of n selections. */
static double mean_interval(const uint64_t *pos, uint32_t n)
{
    return (double)(pos[n - 1] - pos[0]) / (double)(n - 1);
}

/* D17.3.4.2: "When PMSIRR_EL1.RND is 1 and FEAT_SPE_ERnd is not implemented,
 * the mean interval between operations being selected for sampling is
 * (INTERVAL x 256+128), if the random number generator is uniform."
 * Worked out: the reload loads COUNT = INTERVAL*256 + r on the member after a
 * selection, so one interval is INTERVAL*256 + r + 1; with r uniform on
 * 0..255 the mean is INTERVAL*256 + 128.5. Tolerance +-3 over 20000 samples:
 * r has s.d. 73.9, so the mean of 19999 intervals has s.d. 0.52; 3 is ~6 s.d.
 * and also covers the 0.5 between the spec's +128 and +128.5. A generator
 * stuck at one value (0 or 255) misses by >= 127. */
static int d17_3_4_2_rnd_mean_interval(void)
{
    static const uint32_t iv[] = {1, 2};
    for (unsigned i = 0; i < 2; i++) {
        spec_t s;
        const uint32_t n = 20000;
        CASE((int)i + 1);
        TRY(spec_open(&s, "v1"));
        TRY(spec_enable(&s, IRR(iv[i], 1), 0, PMBLIMITR_E));
        CHECK_EQ(spec_feed(&s, (uint64_t)n * (iv[i] * 256u + 257u), 1, mean_pos, n, 1, n), n,
                 "selections");
        const double mean = mean_interval(mean_pos, n), want = iv[i] * 256.0 + 128.0;
        CHECK(dabs(mean - want) <= 3.0, "mean interval %.3f, expected %.1f +- 3 (INTERVAL=%u)",
              mean, want, iv[i]);
    }
    return 0;
}

/* D17.3.4.2: on reaching zero "COUNT[31:8] is set to PMSIRR_EL1.INTERVAL.
 * COUNT[7:0] is set to a random or pseudorandom value in the range 0x00 to
 * 0xFF". Each load takes the next LFSR draw (docs/semantics.md: one step per
 * draw, in order): the edge load is draw 1 (= seed<15:8>), the first reload
 * draw 2 (= seed<7:0>); later ones follow spu_lfsr_draw (checked against the
 * spec vector in d17_3_2_lfsr_test_vector). Each interval is then
 * INTERVAL*256 + r + 1, and the low bytes vary. */
static int d17_3_4_2_count_low_byte_random_at_reload(void)
{
    spu_config_t cfg;
    spec_t s;
    uint64_t pos[1];
    uint8_t seen[256] = {0};
    unsigned distinct = 0;
    uint32_t l = 0x3C5A96;
    TRY(spec_cfg(&cfg, "v1"));
    TRY(spec_knob(&cfg, "LFSR_SEED", l));
    TRY(spec_init(&s, &cfg));
    TRY(spec_enable(&s, IRR(1, 1), 0, PMBLIMITR_E));
    uint32_t count = 0x100u | spu_lfsr_draw(&l);
    CHECK_EQ(count, 0x15A, "hand-derived first draw (seed<15:8> = 0x5A)");
    CHECK_EQ(s.o.obs_pmsicr, count, "edge load");
    for (unsigned k = 0; k < 64; k++) {
        CASE((int)k + 1);
        s.members = 0;
        CHECK_EQ(spec_feed(&s, count, 1, pos, 1, 0, 0), 1, "selections while COUNT=0x%X runs", count);
        CHECK_EQ(pos[0], count, "selection after COUNT members");
        spec_fin(&s, s.o.smp_slot[0], 0, 0, 0, 0);
        spec_pop(&s, 1);
        const uint8_t r = spu_lfsr_draw(&l);
        if (k == 0)
            CHECK_EQ(r, 0x96, "hand-derived second draw (seed<7:0>)");
        count = 0x100u | r;
        CHECK_EQ(s.o.obs_pmsicr, count, "COUNT loaded on the member after the selection");
        CHECK(!s.o.smp_valid, "reloading member selected");
        distinct += !seen[r];
        seen[r] = 1;
    }
    CASE(0);
    CHECK(distinct >= 40, "only %u distinct low bytes in 64 reloads", distinct);
    return 0;
}

const spec_test_t spec_tests_interval[] = {
    SPEC_TEST(d17_3_2_lfsr_test_vector),
    SPEC_TEST(d17_3_3_edge_load_rnd0),
    SPEC_TEST(d17_3_3_edge_keeps_nonzero),
    SPEC_TEST(d17_3_3_edge_rnd1_random_low_byte),
    SPEC_TEST(d17_3_3_edge_rnd1_ernd_low_byte_zero),
    SPEC_TEST(d17_3_3_no_load_without_transition),
    SPEC_TEST(d17_3_4_1_interval_rnd0),
    SPEC_TEST(d17_3_4_1_reload_value),
    SPEC_TEST(d17_3_4_2_rnd_mean_interval),
    SPEC_TEST(d17_3_4_2_count_low_byte_random_at_reload),
    SPEC_END,
};
