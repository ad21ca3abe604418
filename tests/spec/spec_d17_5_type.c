/*
 * D17.5 / D17.5.1 filtering by operation type: SPEFilterByType() of M.a.a
 * (the M.a.a pseudocode (Arm ARM J1.1)), PMSFCR_EL1.{FT, TYPE, TYPEm} (Arm ARM D24.7), and
 * Example D17-1. Records are made through the model's ports (spec_expect).
 */
#include "spec.h"

/* Profiling enabled (INTERVAL 1, RND 0) and the filter registers written. */
static int open_filter(spec_t *s, const char *cfg, uint64_t fcr, uint64_t evfr, uint64_t minlat)
{
    TRY(spec_open(s, cfg));
    TRY(spec_enable(s, IRR(1, 0), 0, PMBLIMITR_E));
    CHECK(!spec_wr(s, SPU_REG_PMSFCR_EL1, fcr), "PMSFCR write UNDEFINED");
    CHECK(!spec_wr(s, SPU_REG_PMSEVFR_EL1, evfr), "PMSEVFR write UNDEFINED");
    CHECK(!spec_wr(s, SPU_REG_PMSLATFR_EL1, minlat), "PMSLATFR write UNDEFINED");
    return 0;
}

/* A list of (type, expected why) records under one PMSFCR value. */
typedef struct { uint8_t type; uint8_t why; } tcase_t;

static int type_cases(const char *cfg, uint64_t fcr, const tcase_t *c, unsigned n)
{
    spec_t s;
    TRY(open_filter(&s, cfg, fcr, 0, 0));
    for (unsigned i = 0; i < n; i++) {
        spec_case_no = spec_case_no / 100 * 100 + (int)i + 1;
        TRY(spec_expect(&s, 4, c[i].type, 0, 0, 0, c[i].why));
    }
    return 0;
}
#define TYPE_CASES(cfg, fcr, ...)                                                  \
    do {                                                                           \
        static const tcase_t tc_[] = {__VA_ARGS__};                                \
        TRY(type_cases(cfg, fcr, tc_, sizeof tc_ / sizeof tc_[0]));                \
    } while (0)

/* Example D17-1: "If PMSFCR_EL1.FE is 1, PMSFCR_EL1.FnE is 0, PMSFCR_EL1.FT
 * is 1, and PMSFCR_EL1.FL is 1, then only sampled operations that meet all
 * of the following criteria are recorded: ... one of the selected operation
 * types. ... all of the events in the filter set. ... total latency is equal
 * to or greater than the minimum latency." TYPE = LD, PMSEVFR = {3, 5},
 * MINLAT = 20. Each criterion alone rejects; D17.5 "a packet is discarded if
 * it is discarded by any of the enabled filters". */
static int d17_5_example_d17_1(void)
{
    static const char *const cfgs[] = {"v1", "v1p4"};
    for (unsigned c = 0; c < 2; c++) {
        spec_t s;
        spec_case_no = (int)c * 100;
        TRY(open_filter(&s, cfgs[c], FCR_FE | FCR_FT | FCR_FL | FCR_TYPE(TLD), 0x28, 20));
        CASE((int)c * 100 + 1);
        TRY(spec_expect(&s, 20, TLD, 0x28, 0, 0, 0));
        CASE((int)c * 100 + 2);
        TRY(spec_expect(&s, 20, TST, 0x28, 0, 0, WTYPE));
        CASE((int)c * 100 + 3);
        TRY(spec_expect(&s, 20, TLD, 0x08, 0, 0, WEV));
        CASE((int)c * 100 + 4);
        TRY(spec_expect(&s, 19, TLD, 0x28, 0, 0, WLAT));
        CASE((int)c * 100 + 5);
        TRY(spec_expect(&s, 19, TB, 0x20, 0, 0, WTYPE | WEV | WLAT));
        CASE((int)c * 100 + 6);
        TRY(spec_expect(&s, 300, TLD, 0xAA, 0, 0, 0));
    }
    return 0;
}

/* D17.5.1, without FEAT_SPE_EFT: "the sampled operation is discarded if ...
 * IsZero(flags AND ctrl). That is, only operations that match any of the
 * types selected ... are selected". v1, ctrl = {ST, LD}: branch and
 * other rejected; load, store, atomic (LD+ST) and GCS return (B+LD) kept.
 * Case 2xx: ctrl = {B}. */
static int d17_5_1_v1_type_or(void)
{
    CASE(100);
    TYPE_CASES("v1", FCR_FT | FCR_TYPE(TLD | TST), {TB, WTYPE}, {TLD, 0}, {TST, 0},
               {TLD | TST, 0}, {0, WTYPE}, {TB | TLD, 0});
    CASE(200);
    TYPE_CASES("v1", FCR_FT | FCR_TYPE(TB), {TB, 0}, {TLD, WTYPE}, {TST, WTYPE}, {TB | TST, 0});
    return 0;
}

/* D17.5.1 with EFT, mask bits 0: "the SPU applies a Boolean-OR filter based
 * on each of the operation type filter controls where the corresponding
 * operation type filter mask bit is 0 ... operations that match any of these
 * bits are selected". ctrl = {FP, B}, TYPEm = 0. */
static int d17_5_1_eft_or_mask(void)
{
    CASE(100);
    TYPE_CASES("v1p4", FCR_FT | FCR_TYPE(TFP | TB), {TFP, 0}, {TB, 0}, {TLD, WTYPE},
               {TLD | TFP, 0}, {TSIMD, WTYPE}, {0, WTYPE}, {TST | TSIMD, WTYPE});
    return 0;
}

/* D17.5.1 with EFT: "discarded if (flags AND mask) != (ctrl AND mask) ...
 * only operations that exactly match all of these bits are selected".
 * Case 1xx: LD = 1, LDm = 1, SIMDm = 1 (SIMD = 0): loads that are not SIMD.
 * Case 2xx: Arm ARM D24.7 "STm is 1 [and ST = 0]: record only operations that
 * are not store operations". Case 3xx: all mask bits 1: "no operations are
 * discarded by this part [OR]", flags must equal TYPE exactly. */
static int d17_5_1_eft_and_mask(void)
{
    CASE(100);
    TYPE_CASES("v1p4", FCR_FT | FCR_TYPE(TLD) | FCR_TYPEM(TLD | TSIMD), {TLD, 0},
               {TLD | TSIMD, WTYPE}, {TST, WTYPE}, {TLD | TST, 0}, {TLD | TFP, 0}, {0, WTYPE});
    CASE(200);
    TYPE_CASES("v1p4", FCR_FT | FCR_TYPEM(TST), {TST, WTYPE}, {TLD, 0}, {0, 0},
               {TLD | TST, WTYPE}, {TB, 0});
    CASE(300);
    TYPE_CASES("v1p4", FCR_FT | FCR_TYPE(TLD) | FCR_TYPEM(0x1F), {TLD, 0}, {TLD | TST, WTYPE},
               {0, WTYPE}, {TLD | TFP, WTYPE});
    return 0;
}

/* D17.5.1 with EFT, both parts at once: ctrl = {ST, B, FP}, mask = {FP}:
 * ctrl_or = {ST, B} (any of), ctrl_and = {FP} (must be FP). */
static int d17_5_1_eft_mixed(void)
{
    CASE(100);
    TYPE_CASES("v1p4", FCR_FT | FCR_TYPE(TST | TB | TFP) | FCR_TYPEM(TFP), {TFP | TST, 0},
               {TFP | TLD, WTYPE}, {TST, WTYPE}, {TFP | TB, 0}, {TFP, WTYPE}, {TST | TB, WTYPE});
    return 0;
}

/* D17.5.1 FP and SIMD types (EFT): "A scalar load of a single SIMD&FP
 * register has both the FP and LD bits set." ctrl = {SIMD}: SIMD ops kept;
 * ctrl = {FP, SIMD}: either. */
static int d17_5_1_fp_simd(void)
{
    CASE(100);
    TYPE_CASES("v1p4", FCR_FT | FCR_TYPE(TSIMD), {TSIMD, 0}, {TSIMD | TLD, 0}, {TFP, WTYPE},
               {TLD, WTYPE});
    CASE(200);
    TYPE_CASES("v1p4", FCR_FT | FCR_TYPE(TFP | TSIMD), {TFP, 0}, {TSIMD, 0}, {TFP | TLD, 0},
               {TLD, WTYPE}, {TB, WTYPE});
    return 0;
}

/* D17.5.1 without EFT: "flags is a three bit value {ST, LD, B}" and
 * "Filtering by SIMD&FP types is not supported": PMSFCR.{FP,SIMD,TYPEm} are
 * RES0 (Arm ARM D24.7: EFT "0 PMSFCR_EL1.{SIMDm, FPm, STm, Bm, LDm, SIMD, FP}
 * are RES0"), and the FP/SIMD bits of an operation do not match anything.
 * v1 with TYPE = {LD} (+ FP, SIMD, TYPEm written, ignored). */
static int d17_5_1_v1_no_fp_simd(void)
{
    spec_t s;
    const uint64_t fcr = FCR_FT | FCR_TYPE(TLD | TFP | TSIMD) | FCR_TYPEM(0x1F);
    TRY(open_filter(&s, "v1", fcr, 0, 0));
    CHECK_EQ(spec_rd(&s, SPU_REG_PMSFCR_EL1), FCR_FT | FCR_TYPE(TLD), "PMSFCR read back in v1");
    static const tcase_t c[] = {{TFP, WTYPE}, {TSIMD, WTYPE}, {TFP | TLD, 0}, {TSIMD | TST, WTYPE}};
    for (unsigned i = 0; i < 4; i++) {
        CASE((int)i + 1);
        TRY(spec_expect(&s, 4, c[i].type, 0, 0, 0, c[i].why));
    }
    /* Case 10: "ctrl<2:0> = PMSFCR_EL1.TYPE<2:0>" only, even if a register
     * file held TYPE<3> (unreachable through the port): ctrl = {LD}, so an
     * FP-only op is rejected by SPECollectRecord(). */
    CASE(10);
    uint64_t regs[SPU_NREGS] = {0};
    regs[SPU_REG_PMSFCR_EL1] = FCR_FT | FCR_TYPE(TLD | TFP);
    spu_record_in_t in = {.total_latency = 4, .type = TFP};
    spu_record_out_t o;
    spu_collect_record(&s.cfg, regs, &in, &o);
    CHECK(!o.collect && o.why == WTYPE, "v1 FP-only op with TYPE<3> in the register file (why 0x%X)", o.why);
    return 0;
}

/* D17.5.1 / SPEFilterByType(): a GCS procedure return is a branch that reads
 * the GCS: flags B and LD ("is_load = ... || (is_gcs_ldst &&
 * procedure_return)"); BL with GCS writes it: B and ST. Case 1xx (v1p4, OR):
 * TYPE = LD keeps B+LD; TYPE = ST rejects it. Case 2xx: AND with TYPE = B,
 * TYPEm = {B, LD}: B+LD has LD set where ctrl_and wants 0: rejected; plain
 * B kept. Case 3xx: v1, TYPE = ST keeps B+ST. */
static int d17_5_1_gcs_branch_load(void)
{
    CASE(100);
    TYPE_CASES("v1p4", FCR_FT | FCR_TYPE(TLD), {TB | TLD, 0}, {TB, WTYPE});
    CASE(150);
    TYPE_CASES("v1p4", FCR_FT | FCR_TYPE(TST), {TB | TLD, WTYPE}, {TB | TST, 0});
    CASE(200);
    TYPE_CASES("v1p4", FCR_FT | FCR_TYPE(TB) | FCR_TYPEM(TB | TLD), {TB | TLD, WTYPE}, {TB, 0});
    CASE(300);
    TYPE_CASES("v1", FCR_FT | FCR_TYPE(TST), {TB | TST, 0}, {TB | TLD, WTYPE});
    return 0;
}

/* D17.5.1: "An Atomic operation that returns a value to the PE has both the LD
 * and ST bits set." Arm ARM D24.7: "store operations includes ... all atomic
 * operations"; "load operations includes ... atomic operations that return a
 * value". Case 1xx v1: TYPE = LD or TYPE = ST each keeps it. Case 2xx v1p4
 * AND: TYPE = LD, TYPEm = {LD, ST} rejects it (ST must be 0); TYPE = {LD,
 * ST}, TYPEm = {LD, ST} keeps only it. */
static int d17_5_1_atomic_ld_st(void)
{
    CASE(100);
    TYPE_CASES("v1", FCR_FT | FCR_TYPE(TLD), {TLD | TST, 0});
    CASE(110);
    TYPE_CASES("v1", FCR_FT | FCR_TYPE(TST), {TLD | TST, 0});
    CASE(120);
    TYPE_CASES("v1", FCR_FT | FCR_TYPE(TB), {TLD | TST, WTYPE});
    CASE(200);
    TYPE_CASES("v1p4", FCR_FT | FCR_TYPE(TLD) | FCR_TYPEM(TLD | TST), {TLD | TST, WTYPE}, {TLD, 0});
    CASE(210);
    TYPE_CASES("v1p4", FCR_FT | FCR_TYPE(TLD | TST) | FCR_TYPEM(TLD | TST), {TLD | TST, 0},
               {TLD, WTYPE}, {TST, WTYPE});
    return 0;
}

/* Arm ARM D24.7 PMSFCR_EL1.TYPE: "This field is ignored by the PE and no
 * records are removed by this filter when ... PMSFCR_EL1.FT is 0", and each
 * TYPEm bit "is ignored by the PE when PMSFCR_EL1.FT is 0". */
static int d17_5_1_ft0_ignores_type(void)
{
    CASE(100);
    TYPE_CASES("v1", FCR_TYPE(TB), {TLD, 0}, {0, 0});
    CASE(200);
    TYPE_CASES("v1p4", FCR_TYPE(TSIMD) | FCR_TYPEM(TSIMD), {TLD, 0}, {TB, 0});
    return 0;
}

/* the M.a.a pseudocode (Arm ARM J1.1) SPEFilterByType notes: "With EFT, ctrl == 0 && mask == 0
 * rejects nothing and is not CONSTRAINED UNPREDICTABLE" - whatever CU_FT. */
static int d17_5_1_eft_all_zero_not_cu(void)
{
    for (uint32_t k = 0; k < 2; k++) {
        spu_config_t cfg;
        spec_t s;
        CASE((int)k * 100);
        TRY(spec_cfg(&cfg, "v1p4"));
        TRY(spec_knob(&cfg, "CU_FT", k));
        TRY(spec_init(&s, &cfg));
        TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
        spec_wr(&s, SPU_REG_PMSFCR_EL1, FCR_FT);
        static const uint8_t types[] = {0, TB, TLD, TST | TSIMD};
        for (unsigned i = 0; i < 4; i++) {
            CASE((int)(k * 100 + i + 1));
            TRY(spec_expect(&s, 4, types[i], 0, 0, 0, 0));
        }
    }
    return 0;
}

/* Arm ARM D24.7 CU, FT: "If FEAT_SPE_EFT is not implemented, this field is 1,
 * and the PMSFCR_EL1.{ST, LD, B} bits are all zero, then it is CONSTRAINED
 * UNPREDICTABLE whether no samples are recorded or the PE behaves as if
 * PMSFCR_EL1.FT is 0." Knob CU_FT: 1 = no samples, 0 = as if FT = 0. Case
 * 3xx: the named config v1-alt has CU_FT = 1. */
static int d17_5_1_knob_cu_ft(void)
{
    for (uint32_t k = 0; k < 3; k++) {
        spu_config_t cfg;
        spec_t s;
        TRY(spec_cfg(&cfg, k == 2 ? "v1-alt" : "v1"));
        if (k < 2)
            TRY(spec_knob(&cfg, "CU_FT", k));
        TRY(spec_init(&s, &cfg));
        TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
        spec_wr(&s, SPU_REG_PMSFCR_EL1, FCR_FT);
        static const uint8_t types[] = {0, TB, TLD | TST};
        for (unsigned i = 0; i < 3; i++) {
            CASE((int)((k + 1) * 100 + i + 1));
            TRY(spec_expect(&s, 4, types[i], 0, 0, 0, k ? WTYPE : 0));
        }
    }
    return 0;
}

const spec_test_t spec_tests_type[] = {
    SPEC_TEST(d17_5_example_d17_1),
    SPEC_TEST(d17_5_1_v1_type_or),
    SPEC_TEST(d17_5_1_eft_or_mask),
    SPEC_TEST(d17_5_1_eft_and_mask),
    SPEC_TEST(d17_5_1_eft_mixed),
    SPEC_TEST(d17_5_1_fp_simd),
    SPEC_TEST(d17_5_1_v1_no_fp_simd),
    SPEC_TEST(d17_5_1_gcs_branch_load),
    SPEC_TEST(d17_5_1_atomic_ld_st),
    SPEC_TEST(d17_5_1_ft0_ignores_type),
    SPEC_TEST(d17_5_1_eft_all_zero_not_cu),
    SPEC_TEST(d17_5_1_knob_cu_ft),
    SPEC_END,
};
