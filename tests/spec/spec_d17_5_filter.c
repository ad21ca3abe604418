/*
 * D17.5.2 events (FE, FnE), D17.5.3 latency (FL), D17.5.4 data source (FDS)
 * and D17.5.5 discard mode: SPEFilterByEvents(), SPEFilterByLatency(),
 * SPEFilterByDataSource() and SPECompleteSample() of M.a.a (the M.a.a pseudocode (Arm ARM J1.1)
 * §5-6), with the CONSTRAINED UNPREDICTABLE knobs of configs/spu.toml.
 */
#include "spec.h"

/* Profiling enabled (INTERVAL 1, RND 0) with the given knob, then filter
 * registers: PMSFCR, PMSEVFR, PMSNEVFR (when nevfr_ok), PMSLATFR. */
static int open_ev(spec_t *s, const char *cfgname, const char *knob, uint32_t kv, uint64_t fcr,
                   uint64_t evfr, uint64_t nevfr)
{
    spu_config_t cfg;
    TRY(spec_cfg(&cfg, cfgname));
    if (knob)
        TRY(spec_knob(&cfg, knob, kv));
    TRY(spec_init(s, &cfg));
    TRY(spec_enable(s, IRR(1, 0), 0, PMBLIMITR_E));
    spec_wr(s, SPU_REG_PMSFCR_EL1, fcr);
    spec_wr(s, SPU_REG_PMSEVFR_EL1, evfr);
    if (cfg.features & SPU_FEAT_FNE)
        spec_wr(s, SPU_REG_PMSNEVFR_EL1, nevfr);
    return 0;
}

typedef struct { uint64_t ev; uint8_t why; } ecase_t;

static int ev_cases(spec_t *s, const ecase_t *c, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        spec_case_no = spec_case_no / 100 * 100 + (int)i + 1;
        TRY(spec_expect(s, 4, TLD, c[i].ev, 0, 0, c[i].why));
    }
    return 0;
}
#define EV_CASES(s, ...)                                                           \
    do {                                                                           \
        static const ecase_t ec_[] = {__VA_ARGS__};                                \
        TRY(ev_cases(s, ec_, sizeof ec_ / sizeof ec_[0]));                         \
    } while (0)

/* D17.5.2: "When PMSFCR_EL1.FE is 1, only sampled operations with all the
 * events in the filter set to 1 are recorded" (PMSEVFR_EL1 purpose: "The
 * overall filter is the logical AND of these filters", example E[3] and E[5]).
 * Case 1xx v1p4, 2xx v1. */
static int d17_5_2_fe_and(void)
{
    static const char *const cfgs[] = {"v1p4", "v1"};
    for (unsigned c = 0; c < 2; c++) {
        spec_t s;
        CASE((int)(c + 1) * 100);
        TRY(open_ev(&s, cfgs[c], NULL, 0, FCR_FE, 0x28, 0));
        EV_CASES(&s, {0x08, WEV}, {0x20, WEV}, {0x28, 0}, {0xA8, 0}, {0, WEV}, {0x82, WEV});
    }
    return 0;
}

/* D17.5.2: "When PMSFCR_EL1.FnE is 1, only sampled operations with all the
 * events in the filter set to 0 are recorded"; PMSNEVFR_EL1: "The overall
 * inverted filter is the logical OR of these filters" (E[3] or E[5]). */
static int d17_5_2_fne_or(void)
{
    spec_t s;
    CASE(100);
    TRY(open_ev(&s, "v1p4", NULL, 0, FCR_FNE, 0, 0x28));
    EV_CASES(&s, {0x08, WNEV}, {0x20, WNEV}, {0x28, WNEV}, {0x80, 0}, {0, 0}, {0x1000, 0});
    return 0;
}

/* Both filters, no common bit (not the CU case): PMSEVFR = {3}, PMSNEVFR =
 * {5}: kept iff event 3 is 1 and event 5 is 0; each filter sets its own why
 * bit ("logical AND of the filters"). */
static int d17_5_2_fe_and_fne(void)
{
    spec_t s;
    CASE(100);
    TRY(open_ev(&s, "v1p4", NULL, 0, FCR_FE | FCR_FNE, 0x08, 0x20));
    EV_CASES(&s, {0x08, 0}, {0x28, WNEV}, {0x20, WEV | WNEV}, {0, WEV}, {0x88, 0});
    return 0;
}

/* Arm ARM D24.7 CU, FE and FnE: "PMSFCR_EL1.FnE is 1, PMSFCR_EL1.FE is 1, and
 * there exists a value x such that PMSEVFR_EL1.E[x] is 1 and PMSNEVFR_EL1.E[x]
 * is 1" -> "no samples are recorded or the PE behaves as if ... 0"; in the
 * pseudocode both filters take the CU value. PMSEVFR = {3}, PMSNEVFR = {3, 5}.
 * Knob CU_EVOVERLAP 0: every record kept (even those either filter alone
 * would reject); 1: every record rejected by both. */
static int d17_5_2_knob_cu_evoverlap(void)
{
    for (uint32_t k = 0; k < 2; k++) {
        spec_t s;
        CASE((int)(k + 1) * 100);
        TRY(open_ev(&s, "v1p4", "CU_EVOVERLAP", k, FCR_FE | FCR_FNE, 0x08, 0x28));
        if (k)
            EV_CASES(&s, {0x08, WEV | WNEV}, {0x00, WEV | WNEV}, {0x20, WEV | WNEV},
                     {0x28, WEV | WNEV});
        else
            EV_CASES(&s, {0x08, 0}, {0x00, 0}, {0x20, 0}, {0x28, 0});
    }
    return 0;
}

/* Arm ARM D24.7 CU, FE: "PMSFCR_EL1.FE is 1 and PMSEVFR_EL1 is zero" (zero
 * after AND mask). Knob CU_FE: 0 as if FE = 0, 1 no samples. Case x03: bits
 * 0 and 16 are RAZ/WI (never in the mask), so PMSEVFR written with only them
 * is still the CU case. */
static int d17_5_2_knob_cu_fe(void)
{
    for (uint32_t k = 0; k < 2; k++) {
        spec_t s;
        CASE((int)(k + 1) * 100);
        TRY(open_ev(&s, k ? "v1" : "v1p4", "CU_FE", k, FCR_FE, 0, 0));
        const uint8_t w = k ? WEV : 0;
        CASE((int)(k + 1) * 100 + 1);
        TRY(spec_expect(&s, 4, TLD, 0, 0, 0, w));
        CASE((int)(k + 1) * 100 + 2);
        TRY(spec_expect(&s, 4, TLD, 0xFF, 0, 0, w));
        CASE((int)(k + 1) * 100 + 3);
        spec_wr(&s, SPU_REG_PMSEVFR_EL1, 1ull | 1ull << 16);
        TRY(spec_expect(&s, 4, TLD, 0x10001, 0, 0, w));
    }
    return 0;
}

/* Arm ARM D24.7 CU, FnE: "PMSFCR_EL1.FnE is 1 and PMSNEVFR_EL1 is zero".
 * Knob CU_FNE: 0 as if FnE = 0, 1 no samples. */
static int d17_5_2_knob_cu_fne(void)
{
    for (uint32_t k = 0; k < 2; k++) {
        spec_t s;
        CASE((int)(k + 1) * 100);
        TRY(open_ev(&s, "v1p4", "CU_FNE", k, FCR_FNE, 0, 0));
        const uint8_t w = k ? WNEV : 0;
        TRY(spec_expect(&s, 4, TLD, 0, 0, 0, w));
        TRY(spec_expect(&s, 4, TLD, 0xFEFFFE, 0, 0, w));
    }
    return 0;
}

/* the M.a.a pseudocode (Arm ARM J1.1) SPEFilterByEvents: "e = events AND mask"; "Bits 0, 16
 * and 47:32 are never checked." (Arm ARM D24.7 Events packet: "Bits outside
 * the mask ... never affect filtering"). Case 1xx: FE with PMSEVFR = {1}:
 * events 0, 16, 40 neither satisfy nor spoil it. Case 2xx: FnE with PMSNEVFR
 * = {3}: set bits 0, 16, 40 do not reject. Case 3xx: v1's mask is {1,3,5,7}:
 * PMSEVFR written 0xFF holds 0xAA, and event bits 0, 2, 4, 6 are not needed.
 * Case 4xx: spu_collect_record() with a register file holding PMSEVFR bits 0
 * and 16 (unreachable through the port) ignores them. */
static int d17_5_2_bits_outside_mask_ignored(void)
{
    spec_t s;
    const uint64_t out = 1ull | 1ull << 16 | 1ull << 40;
    CASE(100);
    TRY(open_ev(&s, "v1p4", NULL, 0, FCR_FE, 0x2, 0));
    EV_CASES(&s, {out | 0x2, 0}, {out, WEV});
    CASE(200);
    TRY(open_ev(&s, "v1p4", NULL, 0, FCR_FNE, 0, 0x8));
    EV_CASES(&s, {out | 0x2, 0}, {out | 0x8, WNEV});
    CASE(300);
    TRY(open_ev(&s, "v1", NULL, 0, FCR_FE, 0xFF, 0));
    CHECK_EQ(spec_rd(&s, SPU_REG_PMSEVFR_EL1), 0xAA, "v1 PMSEVFR read back");
    EV_CASES(&s, {0xAA, 0}, {0x55 | 0x2A, WEV}, {0xAA | out, 0});
    CASE(400);
    const spu_config_t *c = spu_config_find("v1p4");
    CHECK(c != NULL, "config v1p4");
    uint64_t regs[SPU_NREGS] = {0};
    regs[SPU_REG_PMSFCR_EL1] = FCR_FE;
    regs[SPU_REG_PMSEVFR_EL1] = 1ull | 1ull << 16 | 0x8;
    spu_record_in_t in = {.events = 0x8, .total_latency = 4, .type = TLD};
    spu_record_out_t o;
    spu_collect_record(c, regs, &in, &o);
    CHECK(o.collect && o.why == 0, "PMSEVFR bits 0/16 must be ignored (why 0x%X)", o.why);
    /* The mask the model filters with (spu_config_t.event_mask) is the
     * pseudocode's SPEFilterByEvents() mask, worked out by hand from its
     * terms: v1 (no feature, no IMPLEMENTATION DEFINED bits) bits 7, 5, 3, 1
     * = 0xAA; v1p4 and the configurations based on it (V1P1, V1P4, FnE, SVE,
     * "SPE mask" 0xF000): 23:17, 15:12, 11:8 (11 with V1P1, 10:8 with V1P4),
     * 7:1 = 0xFEFFFE; v1-alt adds the "SPE mask" 0xF000 to v1 (15:12, no
     * V1P4 so also 31:24 and 10:8 would come from it) = 0xF0AA; wide-alt
     * adds 63:48 to v1p4's = 0xFFFF000000FEFFFE. Never bits 0, 16 or 47:32. */
    static const struct { const char *name; uint64_t mask; } m[] = {
        {"v1", 0xAA}, {"v1-alt", 0xF0AA}, {"v1p4", 0xFEFFFE}, {"wide", 0xFEFFFE},
        {"wide-alt", 0xFFFF000000FEFFFEull},
    };
    for (unsigned k = 0; k < 5; k++) {
        CASE(500 + (int)k);
        const spu_config_t *g = spu_config_find(m[k].name);
        CHECK(g != NULL, "config %s", m[k].name);
        CHECK_EQ(g->event_mask, m[k].mask, "%s event mask", m[k].name);
        CHECK_EQ(g->event_mask & (1ull | 1ull << 16 | 0xFFFF00000000ull), 0,
                 "bits 0, 16, 47:32 in the %s event mask", m[k].name);
    }
    return 0;
}

/* D17.5.3: "When PMSFCR_EL1.FL is 1, only sampled operations with a total
 * latency greater than or equal to the minimum latency are recorded"; D14.3
 * SAMPLE_FEED_LAT counts "total latency greater than or equal to the minimum
 * latency" whatever FL. MINLAT = 10: 9 rejected, 10 and 11 kept. */
static int d17_5_3_minlat_boundary(void)
{
    static const char *const cfgs[] = {"v1p4", "v1"};
    for (unsigned c = 0; c < 2; c++) {
        spec_t s;
        TRY(open_ev(&s, cfgs[c], NULL, 0, FCR_FL, 0, 0));
        spec_wr(&s, SPU_REG_PMSLATFR_EL1, 10);
        for (uint32_t lat = 9; lat <= 11; lat++) {
            CASE((int)((c + 1) * 100 + lat));
            TRY(spec_expect(&s, lat, TLD, 0, 0, 0, lat < 10 ? WLAT : 0));
            CHECK_EQ(s.o.rec_tot_lat[0], lat, "total latency");
            CHECK_EQ(s.o.pmu[SPU_PMU_FEED_LAT], c == 0 && lat >= 10, "SAMPLE_FEED_LAT (absent in v1)");
        }
    }
    return 0;
}

/* Arm ARM D24.7 CU, FL: "If this field is 1 and PMSLATFR_EL1.MINLAT is zero,
 * then it is CONSTRAINED UNPREDICTABLE whether no samples are recorded or the
 * PE behaves as if PMSFCR_EL1.FL is 0." Knob CU_FL. Case 3xx: FL = 0 ignores
 * MINLAT ("This field is ignored by the PE when PMSFCR_EL1.FL is 0"). */
static int d17_5_3_knob_cu_fl_and_fl0(void)
{
    for (uint32_t k = 0; k < 2; k++) {
        spec_t s;
        CASE((int)(k + 1) * 100);
        TRY(open_ev(&s, k ? "v1" : "v1p4", "CU_FL", k, FCR_FL, 0, 0));
        TRY(spec_expect(&s, 1, TLD, 0, 0, 0, k ? WLAT : 0));
        TRY(spec_expect(&s, 900, TST, 0, 0, 0, k ? WLAT : 0));
    }
    spec_t s;
    CASE(300);
    TRY(open_ev(&s, "v1p4", NULL, 0, 0, 0, 0));
    spec_wr(&s, SPU_REG_PMSLATFR_EL1, 100);
    TRY(spec_expect(&s, 1, TLD, 0, 0, 0, 0));
    CHECK_EQ(s.o.pmu[SPU_PMU_FEED_LAT], 0, "SAMPLE_FEED_LAT below MINLAT");
    return 0;
}

/* D17.5.4: "When PMSFCR_EL1.FDS is 1, sampled load operations with a Data
 * Source packet value DS are recorded only if PMSDSFR_EL1[UInt(DS[5:0])] is
 * 1." PMSDSFR = {5, 63}: DS 5, 0x45, 0xFFC5, 63, 0x7F kept; 6, 0 rejected. */
static int d17_5_4_fds_data_source_index(void)
{
    spec_t s;
    static const struct { uint16_t ds; uint8_t why; } c[] = {
        {5, 0}, {6, WDS}, {0x45, 0}, {0xFFC5, 0}, {63, 0}, {0x7F, 0}, {0, WDS}, {0x40, WDS}};
    TRY(open_ev(&s, "v1p4", NULL, 0, FCR_FDS, 0, 0));
    spec_wr(&s, SPU_REG_PMSDSFR_EL1, 1ull << 5 | 1ull << 63);
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
        CASE((int)i + 1);
        TRY(spec_expect(&s, 4, TLD, 0, 1, c[i].ds, c[i].why));
        CHECK_EQ(s.o.pmu[SPU_PMU_FEED_DS], c[i].why == 0, "SAMPLE_FEED_DS for DS 0x%X", c[i].ds);
    }
    return 0;
}

/* D17.5.4: "Load operations without a Data Source and other sampled
 * operations are not affected by PMSFCR_EL1.FDS and PMSDSFR_EL1"; Arm ARM D24.7
 * FDS: "If PMSFCR_EL1.FDS is 1 and PMSDSFR_EL1 is zero, then no load
 * operations with a Data Source will be recorded" (defined, not CU).
 * SPEFilterByDataSource applies to optype IN {Load, LoadAtomic}: LD without B
 * (an atomic LD+ST and an FP load are loads; a GCS return B+LD is a branch). */
static int d17_5_4_fds_only_loads(void)
{
    spec_t s;
    static const struct { uint8_t type; int dsv; uint8_t why; } c[] = {
        {TLD, 1, WDS}, {TLD, 0, 0}, {TST, 1, 0}, {TB | TLD, 1, 0}, {TLD | TST, 1, WDS},
        {TLD | TFP, 1, WDS}, {TB, 1, 0}, {0, 1, 0}, {TLD | TSIMD, 1, WDS}};
    TRY(open_ev(&s, "v1p4", NULL, 0, FCR_FDS, 0, 0));
    spec_wr(&s, SPU_REG_PMSDSFR_EL1, 0);
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
        CASE((int)i + 1);
        TRY(spec_expect(&s, 4, c[i].type, 0, c[i].dsv, 9, c[i].why));
    }
    CASE(100);
    spec_wr(&s, SPU_REG_PMSFCR_EL1, 0);
    TRY(spec_expect(&s, 4, TLD, 0, 1, 9, 0)); /* FDS = 0: not removed */
    return 0;
}

/* D17.5.5: "Discard mode is enabled when PMBLIMITR_EL1.FM is 0b10 ... All
 * profiling data is discarded after filtering"; "The discarding of profiling
 * data occurs after SAMPLE_FILTRATE and other PMU events are counted." "Discard
 * mode is implemented when FEAT_SPEv1p2 is implemented." rec_why has the
 * discard bit whenever discard mode is on (semantics.md step 4). Case 2: a
 * filtered record in discard mode: WTYPE | WDISC and no FILTRATE. */
static int d17_5_5_discard_mode(void)
{
    spec_t s;
    TRY(spec_open(&s, "v1p4"));
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E | 0x4));
    CASE(1);
    TRY(spec_expect(&s, 7, TLD | TFP, 0x2, 1, 3, WDISC));
    static const int ev[] = {SPU_PMU_FEED, SPU_PMU_FILTRATE, SPU_PMU_FEED_LD, SPU_PMU_FEED_FP,
                             SPU_PMU_FEED_EVENT, SPU_PMU_FEED_LAT};
    for (unsigned i = 0; i < sizeof ev / sizeof ev[0]; i++)
        CHECK_EQ(s.o.pmu[ev[i]], 1, "%s in discard mode", spu_pmu_name(ev[i]));
    CHECK_EQ(s.o.rec_tot_lat[0], 7, "latency still measured");
    CASE(2);
    spec_wr(&s, SPU_REG_PMSFCR_EL1, FCR_FT | FCR_TYPE(TST));
    TRY(spec_expect(&s, 7, TLD, 0, 0, 0, WTYPE | WDISC));
    CHECK_EQ(s.o.pmu[SPU_PMU_FILTRATE], 0, "SAMPLE_FILTRATE for a filtered record");
    CHECK_EQ(s.o.pmu[SPU_PMU_FEED], 1, "SAMPLE_FEED for a filtered record");
    return 0;
}

/* D17.5.5: "Sample collisions will still set PMBSR_ELx.COLL to 1." */
static int d17_5_5_discard_collision_sets_coll(void)
{
    spec_t s;
    TRY(spec_open(&s, "v1p4"));
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E | 0x4));
    CHECK_EQ(spec_feed(&s, 600, 1, NULL, 0, 0, 0), 2, "selections");
    CHECK_EQ(s.ncol, 1, "collisions");
    CHECK_EQ(spec_rd(&s, SPU_REG_PMBSR_EL1), PMBSR_COLL, "PMBSR_EL1 in discard mode");
    return 0;
}

/* PMBLIMITR_EL1.FM: 10 "Discard mode" (FEAT_SPEv1p2), "All other values are
 * reserved"; the pseudocode enables discard only for FM == '10' with
 * FEAT_SPEv1p2. Case 1/2: v1p4 FM = 01, 11 keep. Case 3: v1 (no v1p2) FM = 10
 * keeps. */
static int d17_5_5_discard_only_fm10_v1p2(void)
{
    static const struct { const char *cfg; uint64_t fm; } c[] = {{"v1p4", 1}, {"v1p4", 3}, {"v1", 2}};
    for (unsigned i = 0; i < 3; i++) {
        spec_t s;
        CASE((int)i + 1);
        TRY(spec_open(&s, c[i].cfg));
        TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E | c[i].fm << 1));
        CHECK_EQ(spec_rd(&s, SPU_REG_PMBLIMITR_EL1), PMBLIMITR_E | c[i].fm << 1, "FM written");
        TRY(spec_expect(&s, 4, TLD, 0, 0, 0, 0));
    }
    return 0;
}

/* D17.5: "If multiple filters are enabled, a packet is discarded if it is
 * discarded by any of the enabled filters"; PMSFCR_EL1: "The filter is the
 * logical AND of the filters controlled by FDS, FnE, FL, FT, and FE bits."
 * Every filter on; a record failing each one alone, then all at once. */
static int d17_5_filters_and(void)
{
    spec_t s;
    TRY(open_ev(&s, "v1p4", NULL, 0, FCR_FE | FCR_FNE | FCR_FL | FCR_FT | FCR_FDS | FCR_TYPE(TLD),
                0x08, 0x20));
    spec_wr(&s, SPU_REG_PMSLATFR_EL1, 50);
    spec_wr(&s, SPU_REG_PMSDSFR_EL1, 1ull << 2);
    static const struct { uint32_t lat; uint8_t type; uint64_t ev; uint16_t ds; uint8_t why; } c[] = {
        {50, TLD, 0x08, 2, 0},   {50, TST, 0x08, 2, WTYPE}, {50, TLD, 0x00, 2, WEV},
        {50, TLD, 0x28, 2, WNEV}, {49, TLD, 0x08, 2, WLAT},  {50, TLD, 0x08, 3, WDS},
        {10, TLD, 0x20, 3, WEV | WNEV | WLAT | WDS}};
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
        CASE((int)i + 1);
        TRY(spec_expect(&s, c[i].lat, c[i].type, c[i].ev, 1, c[i].ds, c[i].why));
    }
    return 0;
}

/* The CONSTRAINED UNPREDICTABLE overlap needs both filters on: the
 * pseudocode tests "PMSFCR_EL1.<FnE,FE> == '11'" (registers.md, PMSFCR_EL1
 * CU: "PMSFCR_EL1.FnE is 1, PMSFCR_EL1.FE is 1, and there exists a value x
 * such that PMSEVFR_EL1.E[x] is 1 and PMSNEVFR_EL1.E[x] is 1"). PMSEVFR =
 * PMSNEVFR = {3} with only one filter on is no CU case, whatever knob
 * CU_EVOVERLAP says (default 0 here). Case 1xx FnE only: event 3 rejected
 * (nev). Case 2xx FE only: a record without event 3 rejected (ev). */
static int d17_5_2_overlap_needs_fe_and_fne(void)
{
    spec_t s;
    CASE(100);
    TRY(open_ev(&s, "v1p4", NULL, 0, FCR_FNE, 0x08, 0x08));
    EV_CASES(&s, {0x08, WNEV}, {0, 0}, {0x20, 0});
    CASE(200);
    TRY(open_ev(&s, "v1p4", NULL, 0, FCR_FE, 0x08, 0x08));
    EV_CASES(&s, {0, WEV}, {0x08, 0}, {0x28, 0});
    return 0;
}

/* Without FEAT_SPE_FDS, PMSFCR_EL1.FDS is RES0 and SPEFilterByDataSource()
 * does nothing ("if (IsFeatureImplemented(FEAT_SPE_FDS) && ..."): v1, a
 * register file with FDS set (as a caller of spu_collect_record() could
 * pass) and a load with a data source is still collected. */
static int d17_5_4_fds_ignored_without_feature(void)
{
    const spu_config_t *v1 = spu_config_find("v1");
    CHECK(v1 != NULL, "no configuration v1");
    uint64_t regs[SPU_NREGS] = {0};
    regs[SPU_REG_PMSFCR_EL1] = FCR_FDS;
    const spu_record_in_t in = {0, 5, TLD, 1, 3};
    spu_record_out_t out;
    spu_collect_record(v1, regs, &in, &out);
    CHECK_EQ(out.why, 0, "rejecting reasons");
    CHECK_EQ(out.collect, 1, "collected");
    CHECK_EQ(out.pmu[SPU_PMU_FEED_DS], 0, "SAMPLE_FEED_DS on v1");
    return 0;
}

const spec_test_t spec_tests_filter[] = {
    SPEC_TEST(d17_5_2_fe_and),
    SPEC_TEST(d17_5_2_fne_or),
    SPEC_TEST(d17_5_2_fe_and_fne),
    SPEC_TEST(d17_5_2_knob_cu_evoverlap),
    SPEC_TEST(d17_5_2_knob_cu_fe),
    SPEC_TEST(d17_5_2_knob_cu_fne),
    SPEC_TEST(d17_5_2_bits_outside_mask_ignored),
    SPEC_TEST(d17_5_2_overlap_needs_fe_and_fne),
    SPEC_TEST(d17_5_4_fds_ignored_without_feature),
    SPEC_TEST(d17_5_3_minlat_boundary),
    SPEC_TEST(d17_5_3_knob_cu_fl_and_fl0),
    SPEC_TEST(d17_5_4_fds_data_source_index),
    SPEC_TEST(d17_5_4_fds_only_loads),
    SPEC_TEST(d17_5_5_discard_mode),
    SPEC_TEST(d17_5_5_discard_collision_sets_coll),
    SPEC_TEST(d17_5_5_discard_only_fm10_v1p2),
    SPEC_TEST(d17_5_filters_and),
    SPEC_END,
};
