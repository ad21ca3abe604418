/*
 * D14.3 SAMPLE_* PMU events: where each is generated, what it ignores, which
 * configurations implement them (D14.6), and invariants that follow from
 * D14.3 and the pseudocode, over a random stimulus.
 */
#include "spec.h"

static int open_pmu(spec_t *s, const char *cfg)
{
    TRY(spec_open(s, cfg));
    return spec_enable(s, IRR(1, 0), 0, PMBLIMITR_E);
}

/* SAMPLE_POP: "The counter counts each operation that might be sampled,
 * whether or not the operation was sampled." Per cycle it is the number of
 * valid lanes (semantics.md: pmu_pop_o 0..LANES). wide, 4 lanes x 1000
 * cycles, no finishes (so later selections collide): POP = 4000 including the
 * collided and unselected ones. Case 2: 8 lanes (wide-alt), mask 0xB5. */
static int d14_3_sample_pop_every_member(void)
{
    spec_t s;
    CASE(1);
    TRY(open_pmu(&s, "wide"));
    spec_feed(&s, 4000, 4, NULL, 0, 0, 0);
    CHECK_EQ(s.pmu[SPU_PMU_POP], 4000, "SAMPLE_POP total");
    CHECK(s.ncol > 0 && s.nsmp == 2, "expected 2 samples and some collisions (%llu, %llu)",
          (unsigned long long)s.nsmp, (unsigned long long)s.ncol);
    CASE(2);
    TRY(open_pmu(&s, "wide-alt"));
    spec_pop(&s, 0xB5);
    CHECK_EQ(s.o.pmu[SPU_PMU_POP], 5, "SAMPLE_POP in one cycle, lanes 0xB5");
    spec_pop(&s, 0xFF);
    CHECK_EQ(s.o.pmu[SPU_PMU_POP], 8, "SAMPLE_POP in one cycle, 8 lanes");
    return 0;
}

/* SAMPLE_FEED: "Samples that are removed by filtering, or discarded, and not
 * written to the Profiling Buffer are counted"; raised in SPECompleteSample(),
 * i.e. in the finish cycle, not at selection. SAMPLE_FILTRATE: "each sample
 * counted by SAMPLE_FEED that is not removed by filtering". v1, FT = 1,
 * TYPE = {B}: a load is fed but not filtrate, a branch is both. */
static int d14_3_sample_feed_and_filtrate(void)
{
    spec_t s;
    TRY(open_pmu(&s, "v1"));
    spec_wr(&s, SPU_REG_PMSFCR_EL1, FCR_FT | FCR_TYPE(TB));
    const int slot = spec_take(&s);
    CHECK(slot >= 0, "no sample");
    CHECK_EQ(s.o.pmu[SPU_PMU_FEED], 0, "SAMPLE_FEED at selection");
    spec_idle(&s, 3);
    CHECK_EQ(s.pmu[SPU_PMU_FEED], 0, "SAMPLE_FEED while in flight");
    CASE(1);
    spec_fin(&s, (unsigned)slot, TLD, 0, 0, 0);
    CHECK_EQ(s.o.pmu[SPU_PMU_FEED], 1, "SAMPLE_FEED for a filtered-out sample");
    CHECK_EQ(s.o.pmu[SPU_PMU_FILTRATE], 0, "SAMPLE_FILTRATE for a filtered-out sample");
    CASE(2);
    TRY(spec_expect(&s, 3, TB, 0, 0, 0, 0));
    CHECK_EQ(s.o.pmu[SPU_PMU_FEED], 1, "SAMPLE_FEED");
    CHECK_EQ(s.o.pmu[SPU_PMU_FILTRATE], 1, "SAMPLE_FILTRATE");
    return 0;
}

/* D14.3 counts a sample whether or not its record is written: SAMPLE_FEED
 * "Samples that are removed by filtering, or discarded, and not written to
 * the Profiling Buffer are counted"; SAMPLE_FILTRATE "Sample records that are
 * not removed by filtering, but are discarded before being written to the
 * Profiling Buffer ... are counted"; each SAMPLE_FEED_* the same. So a record
 * dropped because profiling was disabled while the sample was in flight
 * (knob INFLIGHT = 1, named configuration wide-alt, D17.4) still counts.
 * wide-alt: MINLAT = 0x10, PMSEVFR = 0x2 (retired), FE = 0 and FL = 0 so
 * nothing is rejected. Sample taken, profiling disabled by PMBLIMITR_EL1.E = 0
 * (D17.4: the buffer disabled), then finishes with lat >= 3:
 * case 1, a store with events 0x2: FEED 1, FILTRATE 1, FEED_ST 1,
 *   FEED_EVENT 1 (E[1] set), FEED_LAT 0 (tot = 3 < 0x10), no record;
 * case 2, a branch+load with no events after 0x20 cycles, FT = 1 with
 *   TYPE = {ST}: rejected by type, so FEED 1, FILTRATE 0, FEED_BR 1,
 *   FEED_LD 1, FEED_OP 0 (no ST flag), FEED_EVENT 0 (E[1] clear),
 *   FEED_LAT 1 (tot = 0x20 >= 0x10), no record. */
static int d14_3_feed_counts_dropped_inflight_record(void)
{
    static const struct {
        uint8_t type; uint64_t events; uint32_t idle; uint64_t fcr;
        int feed, filtrate, br, ld, st, op, ev, lat;
    } c[] = {
        {TST, 0x2, 2, 0, 1, 1, 0, 0, 1, 0, 1, 0},
        {TB | TLD, 0, 0x1F, FCR_FT | FCR_TYPE(TST), 1, 0, 1, 1, 0, 0, 0, 1},
    };
    for (unsigned k = 0; k < 2; k++) {
        spec_t s;
        CASE((int)k + 1);
        TRY(open_pmu(&s, "wide-alt"));
        CHECK_EQ(s.cfg.knob[SPU_KNOB_INFLIGHT], 1, "wide-alt INFLIGHT");
        spec_wr(&s, SPU_REG_PMSLATFR_EL1, 0x10);
        spec_wr(&s, SPU_REG_PMSEVFR_EL1, 0x2);
        spec_wr(&s, SPU_REG_PMSFCR_EL1, c[k].fcr);
        const int slot = spec_take(&s);
        CHECK(slot >= 0, "no sample");
        spec_wr(&s, SPU_REG_PMBLIMITR_EL1, 0);
        spec_idle(&s, c[k].idle - 1u);
        CHECK_EQ(s.o.obs_enabled, 0, "disabled");
        spec_fin(&s, (unsigned)slot, c[k].type, c[k].events, 0, 0);
        CHECK_EQ(s.o.rec_valid, 0, "record of a finish while disabled, INFLIGHT = 1");
        CHECK_EQ(s.o.pmu[SPU_PMU_FEED], c[k].feed, "SAMPLE_FEED");
        CHECK_EQ(s.o.pmu[SPU_PMU_FILTRATE], c[k].filtrate, "SAMPLE_FILTRATE");
        CHECK_EQ(s.o.pmu[SPU_PMU_FEED_BR], c[k].br, "SAMPLE_FEED_BR");
        CHECK_EQ(s.o.pmu[SPU_PMU_FEED_LD], c[k].ld, "SAMPLE_FEED_LD");
        CHECK_EQ(s.o.pmu[SPU_PMU_FEED_ST], c[k].st, "SAMPLE_FEED_ST");
        CHECK_EQ(s.o.pmu[SPU_PMU_FEED_OP], c[k].op, "SAMPLE_FEED_OP");
        CHECK_EQ(s.o.pmu[SPU_PMU_FEED_EVENT], c[k].ev, "SAMPLE_FEED_EVENT");
        CHECK_EQ(s.o.pmu[SPU_PMU_FEED_LAT], c[k].lat, "SAMPLE_FEED_LAT");
        CHECK_EQ(s.o.pmu[SPU_PMU_POP] + s.o.pmu[SPU_PMU_COLLISION], 0, "POP/COLLISION while disabled");
    }
    return 0;
}

/* SAMPLE_FEED_{BR,LD,ST,FP,SIMD}: "each sample counted by SAMPLE_FEED that is
 * a branch / load or load atomic / store or atomic / floating-point / SIMD
 * operation"; "The values of PMSFCR_EL1.{X,FT} and ... Xm, are ignored".
 * v1p4, all 32 type combinations under a type filter that rejects most. */
static int d14_3_feed_type_events(void)
{
    spec_t s;
    static const int ev[5] = {SPU_PMU_FEED_BR, SPU_PMU_FEED_LD, SPU_PMU_FEED_ST, SPU_PMU_FEED_FP,
                              SPU_PMU_FEED_SIMD};
    TRY(open_pmu(&s, "v1p4"));
    spec_wr(&s, SPU_REG_PMSFCR_EL1, FCR_FT | FCR_TYPE(TST | TSIMD) | FCR_TYPEM(TSIMD | TB));
    for (uint8_t t = 0; t < 32; t++) {
        CASE(t + 1);
        TRY(spec_record(&s, 2, t, 0, 0, 0));
        for (unsigned b = 0; b < 5; b++)
            CHECK_EQ(s.o.pmu[ev[b]], (t >> b) & 1u, "%s for type 0x%X", spu_pmu_name(ev[b]), t);
    }
    return 0;
}

/* SAMPLE_FEED_OP: "each sample ... that meets the sample type filter
 * constraints"; "The value of PMSFCR_EL1.FT is ignored"; "No event is
 * generated if the type filter constraint controls are all zero." Case 1:
 * TYPE = TYPEm = 0: never. Case 2: FT = 0, TYPE = {LD}: loads only. Case 3:
 * TYPE = 0, TYPEm = {SIMD} (ctrl 0, mask nonzero): non-SIMD only. */
static int d14_3_feed_op(void)
{
    spec_t s;
    static const uint8_t types[] = {0, TB, TLD, TST, TLD | TST, TSIMD, TLD | TSIMD, TFP};
    static const uint64_t fcr[3] = {FCR_FT, FCR_TYPE(TLD), FCR_FT | FCR_TYPEM(TSIMD)};
    TRY(open_pmu(&s, "v1p4"));
    for (unsigned c = 0; c < 3; c++) {
        spec_wr(&s, SPU_REG_PMSFCR_EL1, fcr[c]);
        for (unsigned i = 0; i < sizeof types; i++) {
            CASE((int)((c + 1) * 100 + i));
            TRY(spec_record(&s, 2, types[i], 0, 0, 0));
            const int want = c == 0 ? 0 : c == 1 ? (types[i] & TLD) != 0 : (types[i] & TSIMD) == 0;
            CHECK_EQ(s.o.pmu[SPU_PMU_FEED_OP], want, "SAMPLE_FEED_OP for type 0x%X", types[i]);
        }
    }
    return 0;
}

/* SAMPLE_FEED_EVENT: "each sample with all the events in the filter sets
 * defined by PMSEVFR_EL1 and, if implemented, PMSNEVFR_EL1 ... The values of
 * PMSFCR_EL1.{FnE,FE} are ignored". PMSEVFR = {3}, PMSNEVFR = {5}, with FE =
 * FnE = 0 (case 1xx) and 1 (2xx). Case 3xx: both registers zero -> always. */
static int d14_3_feed_event(void)
{
    spec_t s;
    static const struct { uint64_t ev; int want; } c[] = {{0x08, 1}, {0x28, 0}, {0, 0}, {0x88, 1}, {0x20, 0}};
    TRY(open_pmu(&s, "v1p4"));
    spec_wr(&s, SPU_REG_PMSEVFR_EL1, 0x08);
    spec_wr(&s, SPU_REG_PMSNEVFR_EL1, 0x20);
    for (unsigned f = 0; f < 3; f++) {
        if (f == 1)
            spec_wr(&s, SPU_REG_PMSFCR_EL1, FCR_FE | FCR_FNE);
        if (f == 2) {
            spec_wr(&s, SPU_REG_PMSEVFR_EL1, 0);
            spec_wr(&s, SPU_REG_PMSNEVFR_EL1, 0);
        }
        for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
            CASE((int)((f + 1) * 100 + i + 1));
            TRY(spec_record(&s, 2, TLD, c[i].ev, 0, 0));
            CHECK_EQ(s.o.pmu[SPU_PMU_FEED_EVENT], f == 2 ? 1 : c[i].want, "SAMPLE_FEED_EVENT events 0x%llX",
                     (unsigned long long)c[i].ev);
        }
    }
    return 0;
}

/* SAMPLE_FEED_LAT: "each sample with a total latency greater than or equal to
 * the minimum latency ... The value of PMSFCR_EL1.FL is ignored"; "With
 * MINLAT = 0, every sample is counted". */
static int d14_3_feed_lat(void)
{
    spec_t s;
    TRY(open_pmu(&s, "v1p4"));
    spec_wr(&s, SPU_REG_PMSLATFR_EL1, 5);
    static const struct { uint32_t lat; int want; } c[] = {{4, 0}, {5, 1}, {6, 1}, {1, 0}};
    for (unsigned i = 0; i < 4; i++) {
        CASE((int)i + 1);
        TRY(spec_record(&s, c[i].lat, TST, 0, 0, 0));
        CHECK_EQ(s.o.pmu[SPU_PMU_FEED_LAT], c[i].want, "SAMPLE_FEED_LAT for latency %u", c[i].lat);
    }
    CASE(10);
    spec_wr(&s, SPU_REG_PMSLATFR_EL1, 0);
    TRY(spec_record(&s, 1, TST, 0, 0, 0));
    CHECK_EQ(s.o.pmu[SPU_PMU_FEED_LAT], 1, "SAMPLE_FEED_LAT with MINLAT = 0");
    return 0;
}

/* SAMPLE_FEED_DS: "each SPE sample that is a load operations where
 * PMSDSFR_EL1[S] is 1 and S is bits [5:0] of the sampled Data Source"; "The
 * values of PMSFCR_EL1.FDS are ignored"; "Loads without a Data Source are not
 * counted". FDS = 0, PMSDSFR = {7}. */
static int d14_3_feed_ds(void)
{
    spec_t s;
    static const struct { uint8_t type; int dsv; uint16_t ds; int want; } c[] = {
        {TLD, 1, 7, 1}, {TLD, 1, 8, 0}, {TLD, 0, 7, 0}, {TST, 1, 7, 0},
        {TB | TLD, 1, 7, 0}, {TLD | TST, 1, 7, 1}, {TLD, 1, 0x47, 1}};
    TRY(open_pmu(&s, "v1p4"));
    spec_wr(&s, SPU_REG_PMSDSFR_EL1, 1ull << 7);
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
        CASE((int)i + 1);
        TRY(spec_record(&s, 2, c[i].type, 0, c[i].dsv, c[i].ds));
        CHECK_EQ(s.o.pmu[SPU_PMU_FEED_DS], c[i].want, "SAMPLE_FEED_DS");
    }
    return 0;
}

/* Arm ARM D14.6, which events are required when: SAMPLE_POP/FEED/FILTRATE/COLLISION
 * with FEAT_SPE; FEED_BR/LD/ST/OP/EVENT/LAT with FEAT_SPEv1p2; FEED_FP/SIMD
 * with FEAT_SPE_EFT; FEED_DS with FEAT_SPE_FDS. v1 has none of these features:
 * only the first four; absent events read 0 (semantics.md "absent ones are
 * constant zero"). v1p4 has all. */
static int d14_3_events_per_config(void)
{
    const spu_config_t *v1 = spu_config_find("v1"), *v1p4 = spu_config_find("v1p4");
    CHECK(v1 && v1p4, "configs");
    static const int base[4] = {SPU_PMU_POP, SPU_PMU_FEED, SPU_PMU_FILTRATE, SPU_PMU_COLLISION};
    for (int i = 0; i < SPU_NPMU; i++) {
        CASE(i + 1);
        int in_base = 0;
        for (int k = 0; k < 4; k++)
            in_base |= base[k] == i;
        CHECK_EQ(spu_pmu_implemented(v1, i), in_base, "v1 implements %s", spu_pmu_name(i));
        CHECK_EQ(spu_pmu_implemented(v1p4, i), 1, "v1p4 implements %s", spu_pmu_name(i));
    }
    spec_t s;
    CASE(100);
    TRY(open_pmu(&s, "v1"));
    TRY(spec_record(&s, 2, 0x1F, 0xFF, 1, 0));
    for (int i = 0; i < SPU_NPMU; i++)
        if (!spu_pmu_implemented(v1, i))
            CHECK_EQ(s.o.pmu[i], 0, "absent %s in v1", spu_pmu_name(i));
    CHECK_EQ(s.o.pmu[SPU_PMU_FEED], 1, "SAMPLE_FEED in v1");
    return 0;
}


/* Invariants a checker can use, derived from D14.3 and the pseudocode, over a random stream (random
 * lane masks, finish delays 1..700 so that collisions happen, random types,
 * events and data sources, random issue events), all filters off, INTERVAL 1,
 * RND 0, from PMSICR = 0, never disabled; every sample finished at the end:
 * FEED + COLLISION = selections; FEED + COLLISION <= POP; FILTRATE and each
 * FEED_* <= FEED; FILTRATE == FEED (filters off); FEED_EVENT == FEED
 * (PMSEVFR/PMSNEVFR zero); FEED_LAT == FEED (MINLAT 0); FEED_OP == 0 (TYPE,
 * TYPEm zero). Selections: a first reading gives floor(POP/(INTERVAL*256+1)),
 * but the D17.3.3 edge load makes the first selection member INTERVAL*256,
 * so the exact count is floor((POP+1)/(INTERVAL*256+1)) (checked here; the
 * two differ only when POP mod 257 = 256, see d14_3_selection_count). */
static int invariants(const char *cfgname, uint32_t seed)
{
    spec_t s;
    uint64_t due[SPU_MAX_SLOTS] = {0};
    uint32_t x = seed;
    TRY(open_pmu(&s, cfgname));
    const unsigned lanes = s.cfg.lanes, slots = s.cfg.slots;
    for (uint64_t c = 0; c < 200000 || (s.nsmp != s.pmu[SPU_PMU_FEED] && c < 202000); c++) {
        unsigned p = 0;
        if (c < 200000)
            s.in.pop_valid = (uint8_t)(spec_rng(&x) & ((1u << lanes) - 1u));
        for (unsigned sl = 0; sl < slots; sl++) {
            if (due[sl] && due[sl] <= s.t) {
                s.in.fin_valid |= (uint8_t)(1u << p);
                s.in.fin_slot[p] = (uint8_t)sl;
                s.in.fin_type[p] = (uint8_t)(spec_rng(&x) & 0x1F);
                s.in.fin_events[p] = spec_rng64(&x);
                s.in.fin_ds_valid |= (uint8_t)((spec_rng(&x) & 1u) << p);
                s.in.fin_ds[p] = (uint16_t)spec_rng(&x);
                p++;
                due[sl] = 0;
            } else if (due[sl] && (spec_rng(&x) & 7u) == 0) {
                s.in.iss_valid |= (uint8_t)(1u << (sl % slots));
                s.in.iss_slot[sl % slots] = (uint8_t)sl;
            }
        }
        spec_cycle(&s);
        for (unsigned l = 0; l < lanes; l++)
            if ((s.o.smp_valid >> l) & 1u)
                due[s.o.smp_slot[l]] = s.t + (spec_rng(&x) % 700u);
    }
    const uint64_t *v = s.pmu, feed = v[SPU_PMU_FEED];
    CHECK_EQ(feed + v[SPU_PMU_COLLISION], s.nsmp + s.ncol, "FEED + COLLISION vs selections");
    CHECK(feed + v[SPU_PMU_COLLISION] <= v[SPU_PMU_POP], "FEED + COLLISION > POP");
    for (int i = SPU_PMU_FEED_BR; i < SPU_NPMU; i++)
        CHECK(v[i] <= feed, "%s = %llu > FEED = %llu", spu_pmu_name(i), (unsigned long long)v[i],
              (unsigned long long)feed);
    CHECK_EQ(v[SPU_PMU_FILTRATE], feed, "FILTRATE with every filter off");
    if (spu_pmu_implemented(&s.cfg, SPU_PMU_FEED_EVENT))
        CHECK_EQ(v[SPU_PMU_FEED_EVENT], feed, "FEED_EVENT with zero event filters");
    if (spu_pmu_implemented(&s.cfg, SPU_PMU_FEED_LAT))
        CHECK_EQ(v[SPU_PMU_FEED_LAT], feed, "FEED_LAT with MINLAT 0");
    CHECK_EQ(v[SPU_PMU_FEED_OP], 0, "FEED_OP with TYPE = TYPEm = 0");
    CHECK_EQ(s.nsmp + s.ncol, (v[SPU_PMU_POP] + 1) / 257, "selections for POP = %llu",
             (unsigned long long)v[SPU_PMU_POP]);
    CHECK(s.ncol > 0 && feed > 100, "stimulus too weak (feed %llu, coll %llu)",
          (unsigned long long)feed, (unsigned long long)s.ncol);
    return 0;
}

static int d14_3_invariants_random(void)
{
    static const char *const cfgs[] = {"v1", "v1p4", "wide", "wide-alt", "v1-alt"};
    for (unsigned i = 0; i < 5; i++) {
        CASE((int)i + 1);
        TRY(invariants(cfgs[i], 0x9E3779B9u + i));
    }
    return 0;
}

/* A first reading of D14.3: "with RND = 0, PMSICR_EL1 = 0 at enable, and no
 * disable in between, selections = floor(SAMPLE_POP / (INTERVAL x 256 + 1))"
 * (docs/impl-defined.md notes why it is off by one). Worked out
 * from D17.3.3 + SPEToCollectSample, selections after P members are
 * floor((P + 1) / 257) for INTERVAL = 1: P = 255 -> 0, 256 -> 1 (that
 * formula would say 0), 512 -> 1, 513 -> 2. */
static int d14_3_selection_count(void)
{
    static const uint64_t p[] = {255, 256, 512, 513, 2569};
    for (unsigned i = 0; i < 5; i++) {
        spec_t s;
        CASE((int)i + 1);
        TRY(open_pmu(&s, "v1"));
        const uint32_t n = spec_feed(&s, p[i], 1, NULL, 0, 1, 0);
        CHECK_EQ(s.pmu[SPU_PMU_POP], p[i], "SAMPLE_POP");
        CHECK_EQ(n, (p[i] + 1) / 257, "selections after %llu members", (unsigned long long)p[i]);
    }
    return 0;
}

const spec_test_t spec_tests_pmu[] = {
    SPEC_TEST(d14_3_sample_pop_every_member),
    SPEC_TEST(d14_3_sample_feed_and_filtrate),
    SPEC_TEST(d14_3_feed_counts_dropped_inflight_record),
    SPEC_TEST(d14_3_feed_type_events),
    SPEC_TEST(d14_3_feed_op),
    SPEC_TEST(d14_3_feed_event),
    SPEC_TEST(d14_3_feed_lat),
    SPEC_TEST(d14_3_feed_ds),
    SPEC_TEST(d14_3_events_per_config),
    SPEC_TEST(d14_3_invariants_random),
    SPEC_TEST(d14_3_selection_count),
    SPEC_END,
};
