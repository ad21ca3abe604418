/*
 * D17.6 sample records: the bytes SPEConstructRecord() writes for a kept
 * sample, every expected byte worked out by hand from the packet formats of
 * Arm ARM D18 (header byte, little-endian payload of 1 << sz bytes) and the
 * pseudocode's packet order: Context, Counters by index, Addresses by
 * index, Data Source, Operation Type, Events, Timestamp or End, Padding.
 */
#include "spec.h"

static int bytes_equal(const uint8_t *got, unsigned n, const uint8_t *want, unsigned m)
{
    CHECK_EQ(n, m, "record length");
    for (unsigned i = 0; i < n; i++)
        CHECK_EQ(got[i], want[i], "record byte %u", i);
    return 0;
}

/* v1p4 (LDS, 4-byte Events, Align 0), PMSCR_EL1 CX|PA|TS: a load at EL1,
 * Non-secure, with every packet it can have. */
static int d17_6_record_load_every_packet(void)
{
    const spu_config_t *c = spu_config_find("v1p4");
    CHECK(c != NULL, "config");
    uint64_t regs[SPU_NREGS] = {0};
    regs[SPU_REG_PMSCR_EL1] = 1u << 3 | 1u << 4 | 1u << 5; /* CX, PA, TS */
    const spu_rec_src_t r = {
        .pc = 0x0000AAAA00001000ull, .va = 0xF000123456789ABCull, .pa = 0x0000001234567ABCull,
        .events = 0x00C00006ull, .ts = 0x1122334455667788ull, .ctx = 0x1234, .tot_lat = 0x105,
        .iss_lat = 3, .ds = 8, .valid = SPU_REC_VA | SPU_REC_PA | SPU_REC_DS, .type = TLD,
        .attr = 1u << SPU_ATTR_NS, .el = 1, .cx = 1};
    static const uint8_t want[] = {
        0x64, 0x34, 0x12, 0x00, 0x00,                               /* Context CONTEXTIDR_EL1 */
        0x98, 0x05, 0x01,                                           /* Counter 0: total 0x105 */
        0x99, 0x03, 0x00,                                           /* Counter 1: issue 3 */
        0xB0, 0x00, 0x10, 0x00, 0x00, 0xAA, 0xAA, 0x00, 0xA0,       /* PC, NS=1 EL=1: 0xA0 */
        0xB2, 0xBC, 0x9A, 0x78, 0x56, 0x34, 0x12, 0x00, 0xF0,       /* data VA with tag 0xF0 */
        0xB3, 0xBC, 0x7A, 0x56, 0x34, 0x12, 0x00, 0x00, 0x80,       /* data PA, NS=1 */
        0x53, 0x08, 0x00,                                           /* Data Source, 2 bytes */
        0x49, 0x00,                                                 /* Load/store: LD GP */
        0x62, 0x06, 0x00, 0xC0, 0x00,                               /* Events, 4 bytes */
        0x71, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,       /* Timestamp */
    };
    uint8_t buf[SPU_MAX_RECORD];
    return bytes_equal(buf, spu_record_build(c, regs, &r, buf), want, sizeof want);
}

/* wide-alt (PBT, 8-byte Events, Align 6 = 64 bytes), PMSCR_EL1 = 0: a
 * conditional indirect branch at EL0, Secure, whose condition failed; PA,
 * Context and Timestamp are not collected, so the record ends with End and
 * is padded to 64 bytes. Its data physical address is not written (PA = 0)
 * although the op has one. */
static int d17_6_record_branch_padded(void)
{
    const spu_config_t *c = spu_config_find("wide-alt");
    CHECK(c != NULL, "config");
    uint64_t regs[SPU_NREGS] = {0};
    const spu_rec_src_t r = {
        .pc = 0x400000, .tgt = 0x400100, .pbt = 0x3FFFFC, .pa = 0x1000,
        .events = 0x8000000000000040ull | 1ull << 16 | 1ull << 40, /* 16, 40: RAZ, not written */
        .tot_lat = 7, .iss_lat = 2, .valid = SPU_REC_TGT | SPU_REC_PBT | SPU_REC_PA, .type = TB,
        .attr = 1u << SPU_ATTR_COND | 1u << SPU_ATTR_IND, .el = 0, .cx = 0};
    uint8_t want[64] = {
        0x98, 0x07, 0x00,                                           /* total 7 */
        0x99, 0x02, 0x00,                                           /* issue 2 */
        0xB0, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00,       /* PC, EL0, NS=0 */
        0xB1, 0x00, 0x01, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00,       /* branch target */
        0xB4, 0xFC, 0xFF, 0x3F, 0x00, 0x00, 0x00, 0x00, 0x00,       /* previous branch target */
        0x4A, 0x03,                                                 /* Branch: COND | IND */
        0x72, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,       /* Events, 8 bytes */
        0x01,                                                       /* End */
    };                                                              /* 45 bytes, then 19 Padding */
    uint8_t buf[SPU_MAX_RECORD];
    return bytes_equal(buf, spu_record_build(c, regs, &r, buf), want, sizeof want);
}

/* v1 (no LDS: no Data Source packet; Events 1 byte, bits 7:0 only; no PBT:
 * the previous branch target is not written). */
static int d17_6_record_v1_sizes(void)
{
    const spu_config_t *c = spu_config_find("v1");
    CHECK(c != NULL, "config");
    uint64_t regs[SPU_NREGS] = {0};
    const spu_rec_src_t r = {.pc = 0xFFFFFFFFFFFFFFull, .pbt = 4, .events = 0xFFFF, .tot_lat = 0xFFF,
                             .iss_lat = 0xFFF, .ds = 3, .valid = SPU_REC_DS | SPU_REC_PBT,
                             .type = TST | TFP, .attr = 1u << SPU_ATTR_NS, .el = 1};
    static const uint8_t want[] = {
        0x98, 0xFF, 0x0F, 0x99, 0xFF, 0x0F,
        0xB0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xA0,       /* [55:0] all ones */
        0x49, 0x05,                                                 /* ST, SIMD&FP registers */
        0x42, 0xFF,                                                 /* Events, 1 byte */
        0x01,
    };
    uint8_t buf[SPU_MAX_RECORD];
    return bytes_equal(buf, spu_record_build(c, regs, &r, buf), want, sizeof want);
}

/* The Operation Type packet (D18 class and payload) for each kind of op. */
static int d17_6_record_optype_classes(void)
{
    const spu_config_t *c = spu_config_find("v1p4"), *v1 = spu_config_find("v1");
    CHECK(c != NULL && v1 != NULL, "configs");
    static const struct { uint8_t type; uint16_t attr; uint8_t cls, payload; } t[] = {
        {0, 0, 0, 0x00},                                  /* Other */
        {0, 1u << SPU_ATTR_COND, 0, 0x01},                /* Other, conditional */
        {TFP | TSIMD, 0, 0, 0x00},                        /* FP/SIMD bits need FEAT_SPE_FPF */
        {TLD, 0, 1, 0x00},                                /* LD GP */
        {TST, 0, 1, 0x01},                                /* ST GP */
        {TLD | TSIMD, 0, 1, 0x04},                        /* LD SIMD&FP */
        {TST | TFP, 0, 1, 0x05},                          /* ST SIMD&FP */
        {TLD | TST, 0, 1, 0x06},                          /* LoadAtomic: extended, AT, a load */
        {TLD, 1u << SPU_ATTR_EXCL, 1, 0x0A},              /* LD exclusive */
        {TST, 1u << SPU_ATTR_AR, 1, 0x13},                /* ST release */
        {TLD | TST, 1u << SPU_ATTR_EXCL | 1u << SPU_ATTR_AR, 1, 0x1E},
        {TB, 0, 2, 0x00},                                 /* unconditional direct branch */
        {TB, 1u << SPU_ATTR_COND, 2, 0x01},
        {TB, 1u << SPU_ATTR_IND, 2, 0x02},
        {TB | TLD, 1u << SPU_ATTR_COND | 1u << SPU_ATTR_IND, 2, 0x03}, /* B wins over LD */
        /* SVE (FEAT_SVE): load/store SG [7] EVL [6:4] 1 [3] PRED [2] ST [0];
         * other EVL [6:4] 1 [3] PRED [2] FP [1] */
        {TLD | TSIMD, 1u << SPU_ATTR_SVE | 3u << SPU_ATTR_EVL, 1, 0x38},         /* 256-bit */
        {TST, 1u << SPU_ATTR_SVE | 1u << SPU_ATTR_PRED | 1u << SPU_ATTR_SG | 6u << SPU_ATTR_EVL, 1, 0xED},
        {TSIMD | TFP, 1u << SPU_ATTR_SVE | 1u << SPU_ATTR_PRED, 0, 0x0E},         /* 32-bit, FP, PRED */
        {0, 1u << SPU_ATTR_SVE | 7u << SPU_ATTR_EVL | 1u << SPU_ATTR_COND, 0, 0x78}, /* no COND in SVE */
        {TB, 1u << SPU_ATTR_SVE, 2, 0x00},                                         /* a branch is a branch */
        {TLD | TST, 1u << SPU_ATTR_SVE, 1, 0x06},                                 /* atomics stay extended */
    };
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++) {
        CASE((int)i + 1);
        uint8_t p = 0xEE;
        CHECK_EQ(spu_optype(c, t[i].type, t[i].attr, &p), t[i].cls, "class");
        CHECK_EQ(p, t[i].payload, "payload");
        /* without FEAT_SVE (v1) the SVE bit changes nothing */
        uint8_t q = 0xEE, r = 0xEE;
        CHECK_EQ(spu_optype(v1, t[i].type, t[i].attr, &q), spu_optype(v1, t[i].type,
                 (uint16_t)(t[i].attr & ~(1u << SPU_ATTR_SVE)), &r), "v1 class");
        CHECK_EQ(q, r, "v1 payload ignores SVE");
    }
    return 0;
}

/* Through the model: a record exists exactly for a kept sample (not for a
 * filtered one, not in discard mode), rec_len gives its size, and the
 * Context packet follows PMSCR_EL1.CX at the selection, not at the finish. */
static int d17_6_record_only_kept(void)
{
    spec_t s;
    TRY(spec_open(&s, "v1p4"));
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    CASE(1);
    TRY(spec_record(&s, 4, TLD, 0, 0, 0));
    CHECK_EQ(s.o.rec_keep, 1, "kept");
    /* tot, iss, PC, Operation Type, Events (4 bytes), End */
    CHECK_EQ(s.o.rec_len[0], 3 + 3 + 9 + 2 + 5 + 1, "length");
    CHECK_EQ(spu_model_record(&s.m, 0)[0], 0x98, "first packet");
    CASE(2); /* a filtered record has no bytes */
    spec_wr(&s, SPU_REG_PMSFCR_EL1, FCR_FT | FCR_TYPE(TB));
    TRY(spec_record(&s, 4, TLD, 0, 0, 0));
    CHECK_EQ(s.o.rec_keep, 0, "filtered");
    CHECK_EQ(s.o.rec_len[0], 0, "no record bytes");
    CASE(3); /* discard mode: no bytes */
    spec_wr(&s, SPU_REG_PMSFCR_EL1, 0);
    spec_wr(&s, SPU_REG_PMBLIMITR_EL1, PMBLIMITR_E | 2u << 1);
    TRY(spec_record(&s, 4, TLD, 0, 0, 0));
    CHECK_EQ(s.o.rec_why[0], WDISC, "discarded");
    CHECK_EQ(s.o.rec_len[0], 0, "no record bytes");
    CASE(4); /* CX set after the selection: no Context packet */
    spec_wr(&s, SPU_REG_PMBLIMITR_EL1, PMBLIMITR_E);
    const int slot = spec_take(&s);
    CHECK(slot >= 0, "no sample");
    spec_wr(&s, SPU_REG_PMSCR_EL1, PMSCR_E0E1 | 1u << 3);
    spec_fin(&s, (unsigned)slot, TLD, 0, 0, 0);
    CHECK_EQ(s.o.rec_keep, 1, "kept");
    CHECK_EQ(spu_model_record(&s.m, 0)[0], 0x98, "no Context packet");
    CASE(5); /* CX set at the selection (EL1): Context packet first */
    TRY(spec_record(&s, 4, TLD, 0, 0, 0));
    CHECK_EQ(s.o.rec_len[0], 5 + 3 + 3 + 9 + 2 + 5 + 1, "length with Context");
    CHECK_EQ(spu_model_record(&s.m, 0)[0], 0x64, "Context packet");
    return 0;
}

const spec_test_t spec_tests_record[] = {
    SPEC_TEST(d17_6_record_load_every_packet),
    SPEC_TEST(d17_6_record_branch_padded),
    SPEC_TEST(d17_6_record_v1_sizes),
    SPEC_TEST(d17_6_record_optype_classes),
    SPEC_TEST(d17_6_record_only_kept),
    SPEC_END,
};
