/*
 * The IMPLEMENTATION DEFINED / UNKNOWN choices as knobs (configs/spu.toml
 * [knobs], docs/semantics.md): each value of INTERVAL0,
 * INFLIGHT and LFSR_SEED, and the knob values of the named configurations.
 * (CU_* are tested in spec_d17_5_*.c as d17_5_*_knob_cu_*, SLOT_REUSE in
 * spec_d17_3_7_coll.c as d17_3_7_knob_slot_reuse_*.)
 */
#include <string.h>

#include "spec.h"

static int open_knob(spec_t *s, const char *cfgname, const char *knob, uint32_t v)
{
    spu_config_t cfg;
    TRY(spec_cfg(&cfg, cfgname));
    TRY(spec_knob(&cfg, knob, v));
    return spec_init(s, &cfg);
}

/* PMSIRR_EL1.INTERVAL: "If this field is zero, then an UNKNOWN sampling
 * interval is used." Knob INTERVAL0 = 0 (not the default; the -alt
 * configurations): "use the field as written": SPEResetSampleCounter loads
 * COUNT<31:8> = 0, so with RND = 0 COUNT is 0 at every member, each member
 * only reloads, and none is selected (cases 1, 2: v1 and v1p4 with the knob
 * set; case 4: the named configuration v1-alt). Case 3: RND = 1 without ERnd:
 * COUNT = the random byte; seed 0x00AB00 draws 0xAB at the edge: the first
 * selection is member 0xAB = 171. */
static int knob_interval0_0(void)
{
    static const char *const cfgs[] = {"v1", "v1p4"};
    for (unsigned c = 0; c < 2; c++) {
        spec_t s;
        CASE((int)c + 1);
        TRY(open_knob(&s, cfgs[c], "INTERVAL0", 0));
        TRY(spec_enable(&s, IRR(0, 0), 0, PMBLIMITR_E));
        CHECK_EQ(spec_feed(&s, 2000, 1, NULL, 0, 1, 0), 0, "selections with INTERVAL = 0");
        CHECK_EQ(s.pmu[SPU_PMU_POP], 2000, "SAMPLE_POP");
        CHECK_EQ(s.o.obs_pmsicr, 0, "PMSICR");
    }
    spu_config_t cfg;
    spec_t s;
    uint64_t pos[1];
    CASE(3);
    TRY(spec_cfg(&cfg, "v1"));
    TRY(spec_knob(&cfg, "INTERVAL0", 0));
    TRY(spec_knob(&cfg, "LFSR_SEED", 0x00AB00));
    TRY(spec_init(&s, &cfg));
    TRY(spec_enable(&s, IRR(0, 1), 0, PMBLIMITR_E));
    CHECK_EQ(s.o.obs_pmsicr, 0xAB, "edge load");
    CHECK_EQ(spec_feed(&s, 171, 1, pos, 1, 1, 0), 1, "selections");
    CHECK_EQ(pos[0], 171, "first selection");
    CASE(4);
    TRY(spec_open(&s, "v1-alt"));
    TRY(spec_enable(&s, IRR(0, 0), 0, PMBLIMITR_E));
    CHECK_EQ(spec_feed(&s, 2000, 1, NULL, 0, 1, 0), 0, "selections with INTERVAL = 0, v1-alt");
    CHECK_EQ(s.o.obs_pmsicr, 0, "PMSICR, v1-alt");
    return 0;
}

/* Knob INTERVAL0 = 1 (the default: some finite interval must be used):
 * INTERVAL == 0 behaves as INTERVAL = 1. The edge load is {1, 0x00} = 0x100
 * (D17.3.3); member 1 decrements it to 0xFF, so member 256 makes COUNT zero
 * and is selected (D17.3.4.1), member 257 only reloads 0x100 and the next
 * selections are every INTERVAL x 256 + 1 = 257 members: 513, 770. PMSIRR_EL1
 * still reads 0. Case 1: v1p4 with the knob set; case 2: the named
 * configuration v1 with its default knobs. */
static int knob_interval0_1(void)
{
    for (unsigned c = 0; c < 2; c++) {
        spec_t s;
        uint64_t pos[4];
        CASE((int)c + 1);
        if (c == 0)
            TRY(open_knob(&s, "v1p4", "INTERVAL0", 1));
        else
            TRY(spec_open(&s, "v1"));
        TRY(spec_enable(&s, IRR(0, 0), 0, PMBLIMITR_E));
        CHECK_EQ(s.o.obs_pmsicr, 0x100, "edge load");
        CHECK_EQ(spec_feed(&s, 800, 1, pos, 4, 1, 0), 3, "selections");
        CHECK(pos[0] == 256 && pos[1] == 513 && pos[2] == 770, "selections at %llu %llu %llu",
              (unsigned long long)pos[0], (unsigned long long)pos[1], (unsigned long long)pos[2]);
        CHECK_EQ(spec_rd(&s, SPU_REG_PMSIRR_EL1), 0, "PMSIRR_EL1 unchanged");
    }
    return 0;
}

/* D17.3.1 step 4: "It is IMPLEMENTATION DEFINED whether the sample interval
 * counter is reloaded before step 3.a) or at step 3.b). That is, before or
 * after counting the random number of further operations." PMSIDR_EL1.ERnd
 * reports which: 1 "the new interval started after the interval programmed
 * in PMSIRR_EL1.INTERVAL expires"; 0 "The random number is added at the
 * start of the interval". So it follows FEAT_SPE_ERnd (v1p4 has it, v1 not).
 * INTERVAL 1, RND 1, counter starting at 0 (written after the edge), seed
 * 0x370001: draws 0x00, 0x01, 0x05, 0x00, 0x85 (the first three worked out
 * in d17_3_4_3_ecount_tail_example; the 4th is the new byte of the state
 * after draw 1, the 5th of draw 2 - both from the LFSR formula).
 * ERnd (M.a.a): COUNT reaches zero every 257 members (257, 514, 771, 1028,
 * 1285) and sample k is r_k later: 257, 515, 776, 1028, 1418.
 * No ERnd: the enable-edge load already drew r_1 (D17.3.3, RND = 1 without
 * ERnd) before the write of 0, so member 1 reloads COUNT = 0x100 + r_2 = 257,
 * zero at member 258 (sample); member 259 reloads 0x100 + r_3 = 261, sample
 * at 520; member 521 reloads 0x100 + r_4 = 256, sample at 777; member 778
 * reloads 0x100 + r_5 = 389, sample at 1167; the next is past member 1424
 * (256 + r_6 >= 256 after member 1168), so 1500 members hold 4 samples. */
static int reload_point_case(const char *config, unsigned n, const uint64_t *want)
{
    spu_config_t cfg;
    spec_t s;
    uint64_t pos[6];
    TRY(spec_cfg(&cfg, config));
    TRY(spec_knob(&cfg, "LFSR_SEED", 0x370001));
    TRY(spec_init(&s, &cfg));
    TRY(spec_enable(&s, IRR(1, 1), 0, PMBLIMITR_E));
    spec_wr(&s, SPU_REG_PMSICR_EL1, 0);
    s.members = 0;
    CHECK_EQ(spec_feed(&s, 1500, 1, pos, 6, 1, 0), n, "selections in 1500 members");
    for (unsigned k = 0; k < n; k++)
        CHECK_EQ(pos[k], want[k], "sample %u, %s", k + 1, config);
    return 0;
}

static int d17_3_1_reload_before_tail_with_ernd(void)
{
    static const uint64_t want[5] = {257, 515, 776, 1028, 1418};
    return reload_point_case("v1p4", 5, want);
}

static int d17_3_1_random_at_start_without_ernd(void)
{
    static const uint64_t want[4] = {258, 520, 777, 1167};
    return reload_point_case("v1", 4, want);
}

/* Knob INFLIGHT (D17.4: "Any sample records that have been collected but not
 * written to memory are discarded"; the M.a.a pseudocode does not show
 * whether a sample in flight when profiling became disabled still reaches
 * SPECompleteSample()). 0: the finish completes as usual (record, events);
 * 1: the record is dropped, but D14.3 counts the sample whether or not its
 * record is written: SAMPLE_FEED ("Samples that are removed by filtering, or
 * discarded, and not written to the Profiling Buffer are counted"),
 * SAMPLE_FILTRATE ("... discarded before being written to the Profiling
 * Buffer ... are counted") and every SAMPLE_FEED_* event. So the events are
 * the same for both values: a load with no events, MINLAT = 0, no filter on:
 * FEED, FILTRATE, FEED_LD, FEED_EVENT (both filter registers zero) and
 * FEED_LAT (tot >= 0), where implemented. The slot is freed either way. */
static int inflight_case(const char *cfgname, uint32_t knob)
{
    spec_t s;
    TRY(open_knob(&s, cfgname, "INFLIGHT", knob));
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    const int slot = spec_take(&s);
    CHECK(slot >= 0, "no sample");
    spec_wr(&s, SPU_REG_PMSCR_EL1, 0);
    spec_idle(&s, 1);
    CHECK_EQ(s.o.obs_enabled, 0, "disabled");
    spec_fin(&s, (unsigned)slot, TLD, 0, 0, 0);
    CHECK_EQ(s.o.rec_valid, knob ? 0 : 1, "record of a finish while disabled, INFLIGHT=%u", knob);
    CHECK_EQ(s.o.rec_keep, knob ? 0 : 1, "rec_keep");
    for (int i = 0; i < SPU_NPMU; i++) {
        const int want = (i == SPU_PMU_FEED || i == SPU_PMU_FILTRATE || i == SPU_PMU_FEED_LD ||
                          i == SPU_PMU_FEED_EVENT || i == SPU_PMU_FEED_LAT) &&
                         spu_pmu_implemented(&s.cfg, i);
        CHECK_EQ(s.o.pmu[i], want, "%s for a finish while disabled, INFLIGHT=%u", spu_pmu_name(i), knob);
    }
    spec_wr(&s, SPU_REG_PMSCR_EL1, PMSCR_E0E1);
    spec_idle(&s, 1);
    CHECK(spec_take(&s) >= 0, "slot not freed by the finish while disabled");
    CHECK_EQ(s.ncol, 0, "collisions");
    return 0;
}

static int knob_inflight_0(void)
{
    CASE(1);
    TRY(inflight_case("v1", 0));
    CASE(2);
    return inflight_case("v1p4", 0);
}

static int knob_inflight_1(void)
{
    CASE(1);
    TRY(inflight_case("v1", 1));
    CASE(2);
    return inflight_case("wide", 1);
}

/* Knob LFSR_SEED (D17.3.2: "The random number generator must be reset into a
 * useable state"; the M.a.a pseudocode (Arm ARM J1.1): "A seed of zero ... locks the
 * generator"): nonzero, 24 bits; other knobs are 0/1 (spu.toml). The seed is
 * the LFSR's reset state: the first draw is seed<15:8> (cases 10+: v1 edge
 * load with RND = 1), and the named configs carry the documented seeds. */
static int knob_lfsr_seed(void)
{
    spu_config_t cfg;
    char err[128];
    TRY(spec_cfg(&cfg, "v1"));
    CASE(1);
    CHECK(spu_config_set_knob(&cfg, "LFSR_SEED", 0, err, sizeof err) != 0, "seed 0 accepted");
    CHECK(spu_config_set_knob(&cfg, "LFSR_SEED", 0x1000000, err, sizeof err) != 0, "25-bit seed accepted");
    CHECK(spu_config_set_knob(&cfg, "LFSR_SEED", 0xFFFFFF, err, sizeof err) == 0, "seed 0xFFFFFF: %s", err);
    CHECK(spu_config_set_knob(&cfg, "CU_FE", 2, err, sizeof err) != 0, "CU_FE = 2 accepted");
    CHECK(spu_config_set_knob(&cfg, "NO_SUCH_KNOB", 0, err, sizeof err) != 0, "unknown knob accepted");
    static const uint32_t seeds[] = {0xFFFFFF, 0x000100, 0xC0FFEE};
    for (unsigned i = 0; i < 3; i++) {
        spec_t s;
        CASE((int)i + 10);
        TRY(open_knob(&s, "v1", "LFSR_SEED", seeds[i]));
        TRY(spec_enable(&s, IRR(1, 1), 0, PMBLIMITR_E));
        CHECK_EQ(s.o.obs_pmsicr, 0x100 | ((seeds[i] >> 8) & 0xFF), "edge load with seed 0x%06X", seeds[i]);
    }
    return 0;
}

/* configs/spu.toml: defaults LFSR_SEED = 0xC0FFEE, INTERVAL0 = 1 and every
 * other knob 0 (v1, v1p4, wide); the -alt configurations carry the
 * non-default value of every knob: v1-alt: seed 0x5A17E5, INTERVAL0 = 0,
 * CU_FE, CU_FT, CU_FL, SLOT_REUSE, INFLIGHT = 1; wide-alt: seed 0x000001,
 * INTERVAL0 = 0, every other knob 1 but CU_FT (no meaning with EFT). Sizes:
 * v1 1 lane 1 slot 12-bit, v1p4 1/1/16, wide 4/2/16, v1-alt 1/1/12, wide-alt
 * 8/3/16. */
static int config_named_configs(void)
{
    static const struct {
        const char *name; uint32_t lanes, slots, cs, seed; uint16_t ones; /* bit k: knob k == 1 */
    } c[] = {
        {"v1", 1, 1, 12, 0xC0FFEE, 1u << SPU_KNOB_INTERVAL0},
        {"v1p4", 1, 1, 16, 0xC0FFEE, 1u << SPU_KNOB_INTERVAL0},
        {"wide", 4, 2, 16, 0xC0FFEE, 1u << SPU_KNOB_INTERVAL0},
        {"v1-alt", 1, 1, 12, 0x5A17E5,
         1u << SPU_KNOB_CU_FE | 1u << SPU_KNOB_CU_FT | 1u << SPU_KNOB_CU_FL |
             1u << SPU_KNOB_SLOT_REUSE | 1u << SPU_KNOB_INFLIGHT},
        {"wide-alt", 8, 3, 16, 0x000001,
         (uint16_t)(0x3FEu & ~(1u << SPU_KNOB_CU_FT) & ~(1u << SPU_KNOB_INTERVAL0))},
    };
    for (unsigned i = 0; i < 5; i++) {
        CASE((int)i + 1);
        const spu_config_t *g = spu_config_find(c[i].name);
        CHECK(g != NULL, "config %s", c[i].name);
        CHECK(g->lanes == c[i].lanes && g->slots == c[i].slots && g->count_size == c[i].cs,
              "%s sizes %u/%u/%u", c[i].name, g->lanes, g->slots, g->count_size);
        CHECK_EQ(g->knob[SPU_KNOB_LFSR_SEED], c[i].seed, "%s LFSR_SEED", c[i].name);
        /* BUF_BEATS is a depth: 16 by default, 2 in v1-alt, 64 in wide-alt */
        const uint32_t q = !strcmp(c[i].name, "v1-alt") ? 2u : !strcmp(c[i].name, "wide-alt") ? 64u : 16u;
        CHECK_EQ(g->knob[SPU_KNOB_BUF_BEATS], q, "%s knob BUF_BEATS", c[i].name);
        for (int k = 1; k < SPU_NKNOBS; k++)
            if (k != SPU_KNOB_BUF_BEATS)
                CHECK_EQ(g->knob[k], (c[i].ones >> k) & 1u, "%s knob %s", c[i].name, spu_knob_name(k));
    }
    return 0;
}

const spec_test_t spec_tests_knobs[] = {
    SPEC_TEST(knob_interval0_0),
    SPEC_TEST(knob_interval0_1),
    SPEC_TEST(d17_3_1_reload_before_tail_with_ernd),
    SPEC_TEST(d17_3_1_random_at_start_without_ernd),
    SPEC_TEST(knob_inflight_0),
    SPEC_TEST(knob_inflight_1),
    SPEC_TEST(knob_lfsr_seed),
    SPEC_TEST(config_named_configs),
    SPEC_END,
};
