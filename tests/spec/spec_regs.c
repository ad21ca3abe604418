/*
 * The SPE System registers through the unit's register port (Arm ARM D24.7,
 * D24.7): encodings, RES0 / RAZ-WI bits per configuration, the ID registers
 * field by field, UNDEFINED accesses, reset, and the port timing of
 * docs/semantics.md steps 1 and 7.
 */
#include <string.h>

#include "spec.h"

/* Arm ARM D24.7 "Encodings": packed = op0<<14 | op1<<11 | CRn<<7 | CRm<<3 |
 * op2, from the (op0, op1, CRn, CRm, op2) column; the packed column agrees. */
static int regs_encodings(void)
{
    static const struct { const char *name; unsigned op0, op1, crn, crm, op2; uint16_t packed; } r[] = {
        {"PMSCR_EL1", 3, 0, 9, 9, 0, 0xC4C8},     {"PMSNEVFR_EL1", 3, 0, 9, 9, 1, 0xC4C9},
        {"PMSICR_EL1", 3, 0, 9, 9, 2, 0xC4CA},    {"PMSIRR_EL1", 3, 0, 9, 9, 3, 0xC4CB},
        {"PMSFCR_EL1", 3, 0, 9, 9, 4, 0xC4CC},    {"PMSEVFR_EL1", 3, 0, 9, 9, 5, 0xC4CD},
        {"PMSLATFR_EL1", 3, 0, 9, 9, 6, 0xC4CE},  {"PMSIDR_EL1", 3, 0, 9, 9, 7, 0xC4CF},
        {"PMBLIMITR_EL1", 3, 0, 9, 10, 0, 0xC4D0}, {"PMBPTR_EL1", 3, 0, 9, 10, 1, 0xC4D1},
        {"PMBSR_EL1", 3, 0, 9, 10, 3, 0xC4D3},    {"PMSDSFR_EL1", 3, 0, 9, 10, 4, 0xC4D4},
        {"PMBIDR_EL1", 3, 0, 9, 10, 7, 0xC4D7},
    };
    for (unsigned i = 0; i < sizeof r / sizeof r[0]; i++) {
        CASE((int)i + 1);
        const unsigned p = r[i].op0 << 14 | r[i].op1 << 11 | r[i].crn << 7 | r[i].crm << 3 | r[i].op2;
        CHECK_EQ(p, r[i].packed, "%s packed from its fields", r[i].name);
        const int idx = spu_reg_find(r[i].packed);
        CHECK(idx >= 0 && strcmp(spu_reg_name(idx), r[i].name) == 0, "encoding 0x%04X is %s, not %s",
              r[i].packed, spu_reg_name(idx), r[i].name);
        CHECK_EQ(spu_reg_by_name(r[i].name), idx, "%s by name", r[i].name);
        CHECK_EQ(spu_reg_enc(idx), r[i].packed, "%s encoding", r[i].name);
    }
    return 0;
}

typedef struct { int reg; uint64_t mask; } rmask_t;

/* Write all-ones then zero to each writable register; the read-back must be
 * the implemented bits (RES0 and RAZ/WI read as zero). Returns 1 on failure. */
static int res0_check(const char *cfg, const rmask_t *r, unsigned n)
{
    spec_t s;
    TRY(spec_open(&s, cfg));
    for (unsigned i = 0; i < n; i++) {
        const char *name = spu_reg_name(r[i].reg);
        CASE((int)i + 1);
        CHECK_EQ(spec_wr(&s, r[i].reg, ~0ull), 0, "%s %s write UNDEFINED", cfg, name);
        CHECK_EQ(spec_rd(&s, r[i].reg), r[i].mask, "%s %s after writing all-ones", cfg, name);
        CHECK_EQ(s.o.reg_undef, 0, "%s %s read UNDEFINED", cfg, name);
        spec_wr(&s, r[i].reg, 0);
        CHECK_EQ(spec_rd(&s, r[i].reg), 0, "%s %s after writing zero", cfg, name);
    }
    return 0;
}

/* Writable bits worked out from Arm ARM D24.7 for v1 (no v1p1/v1p2/v1p4,
 * FnE, EFT, FDS, ERnd; 12-bit counters; IMPDEF event mask 0; EL2 present,
 * no FEAT_ECV/SPE_EXC/nVM; 4KB granule; PMBIDR.Align 0):
 * PMSCR: E0SPE 0, E1SPE 1, CX 3, PA 4, TS 5, PCT[6] (bit 7 RES0 without ECV)
 *   = 0x7B; PMSICR: COUNT[31:0] (ECOUNT RES0 without ERnd); PMSIRR: RND 0,
 *   INTERVAL[31:8]; PMSFCR: FE, FT, FL, B, LD, ST = bits 0,1,2,16,17,18;
 * PMSEVFR: always-present bits 1, 3, 5, 7 = 0xAA (others RAZ/WI); PMSLATFR:
 *   MINLAT[11:0] (MINLAT[15:12] RES0 with CountSize 0b0010);
 * PMBLIMITR: E 0, FM[2:1], LIMIT[63:12] (PMFZ needs v1p2, nVM needs SPE_nVM);
 * PMBPTR: all 64 bits (Align 0); PMBSR: MSS[15:0], COLL 16, S 17, EA 18,
 *   DL 19, EC[31:26], MSS2[55:32]. */
static int regs_res0_v1(void)
{
    static const rmask_t r[] = {
        {SPU_REG_PMSCR_EL1, 0x7B},
        {SPU_REG_PMSICR_EL1, 0xFFFFFFFFull},
        {SPU_REG_PMSIRR_EL1, 0xFFFFFF01ull},
        {SPU_REG_PMSFCR_EL1, 0x70007ull},
        {SPU_REG_PMSEVFR_EL1, 0xAA},
        {SPU_REG_PMSLATFR_EL1, 0xFFF},
        {SPU_REG_PMBLIMITR_EL1, 0xFFFFFFFFFFFFF007ull},
        {SPU_REG_PMBPTR_EL1, ~0ull},
        {SPU_REG_PMBSR_EL1, 0x00FFFFFFFC0BFFFFull}, /* EA (18) RES0: PMBIDR.EA = 1 */
    };
    TRY(res0_check("v1", r, sizeof r / sizeof r[0]));
    /* v1-alt is v1 with the IMPLEMENTATION DEFINED events 15:12 ("SPE
     * mask" 0xF000 in the pseudocode's SPEFilterByEvents()): PMSEVFR bits
     * 15:12 are implemented too. */
    rmask_t alt[sizeof r / sizeof r[0]];
    memcpy(alt, r, sizeof r);
    for (unsigned i = 0; i < sizeof r / sizeof r[0]; i++)
        if (alt[i].reg == SPU_REG_PMSEVFR_EL1)
            alt[i].mask = 0xF0AA;
    return res0_check("v1-alt", alt, sizeof r / sizeof r[0]);
}

/* v1p4 (v1p1, v1p2, v1p4, FnE, EFT, FDS, ERnd, SVE; 16-bit counters; IMPDEF
 * event mask 0xF000; DS_MASK all): PMSICR adds ECOUNT[63:56]; PMSFCR adds FnE
 * 3, FDS 4, FP 19, SIMD 20, TYPEm[52:48]; PMSEVFR/PMSNEVFR = the
 * SPEFilterByEvents mask: 1,3,5,7 + 6 (FnE) + 2,4,8,9,10,19..23 (v1p4) + 11
 * (v1p1) + 17,18 (v1p1 and SVE) + 12..15 (IMPDEF) = 0xFEFFFE (0, 16, 24+ are
 * RAZ/WI: no SPE_SME, "never"); PMSLATFR 16 bits; PMBLIMITR adds PMFZ 5
 * (v1p2); PMSDSFR all 64 (every data source supported). */
static int regs_res0_v1p4(void)
{
    static const rmask_t r[] = {
        {SPU_REG_PMSCR_EL1, 0x7B},
        {SPU_REG_PMSNEVFR_EL1, 0xFEFFFE},
        {SPU_REG_PMSICR_EL1, 0xFF000000FFFFFFFFull},
        {SPU_REG_PMSIRR_EL1, 0xFFFFFF01ull},
        {SPU_REG_PMSFCR_EL1, 0x001F0000001F001Full},
        {SPU_REG_PMSEVFR_EL1, 0xFEFFFE},
        {SPU_REG_PMSLATFR_EL1, 0xFFFF},
        {SPU_REG_PMBLIMITR_EL1, 0xFFFFFFFFFFFFF027ull},
        {SPU_REG_PMBPTR_EL1, ~0ull},
        {SPU_REG_PMBSR_EL1, 0x00FFFFFFFC0BFFFFull}, /* EA (18) RES0: PMBIDR.EA = 1 */
        {SPU_REG_PMSDSFR_EL1, ~0ull},
    };
    TRY(res0_check("v1p4", r, sizeof r / sizeof r[0]));
    TRY(res0_check("wide", r, sizeof r / sizeof r[0]));
    /* wide-alt supports data sources 0x00FF00FF00FF00FF only: the other
     * PMSDSFR_EL1 bits are "Reserved, RAZ/WI". */
    static const rmask_t d[] = {{SPU_REG_PMSDSFR_EL1, 0x00FF00FF00FF00FFull}};
    return res0_check("wide-alt", d, 1);
}

/* PMSIDR_EL1 field by field (Arm ARM D24.7): FE/FT/FL "Reads as 0b1";
 * ArchInst 0 (micro-op sampling), Interval 0 and MaxSize are the
 * configuration's: 0b0110 (64 bytes) for v1, whose largest record is 60
 * bytes, 0b0111 (128 bytes) for v1p4, whose largest is 66; ERnd/FnE/FDS/EFT
 * and LDS (Data Source packets, v1p4) = the features;
 * CountSize 0b0010 (12-bit) or 0b0011 (16-bit); Format 0; PBT, CRR, FPF,
 * ALTCLK, SME 0; [63:33] RES0. */
static int pmsidr_check(const char *cfg, unsigned feat, uint64_t whole)
{
    spec_t s;
    TRY(spec_open(&s, cfg));
    const uint64_t v = spec_rd(&s, SPU_REG_PMSIDR_EL1);
    CHECK_EQ(s.o.reg_undef, 0, "PMSIDR_EL1 read UNDEFINED");
    static const struct { const char *f; unsigned msb, lsb; int kind; } f[] = {
        {"FE", 0, 0, 1}, {"FT", 1, 1, 1}, {"FL", 2, 2, 1}, {"ArchInst", 3, 3, 0}, {"LDS", 4, 4, 2},
        {"ERnd", 5, 5, 2}, {"FnE", 6, 6, 2}, {"FDS", 7, 7, 2}, {"Interval", 11, 8, 0},
        {"MaxSize", 15, 12, 4}, {"CountSize", 19, 16, 3}, {"Format", 23, 20, 0}, {"PBT", 24, 24, 0},
        {"CRR", 25, 25, 0}, {"EFT", 26, 26, 2}, {"FPF", 27, 27, 0}, {"ALTCLK", 31, 28, 0},
        {"SME", 32, 32, 0}, {"RES0", 63, 33, 0},
    };
    for (unsigned i = 0; i < sizeof f / sizeof f[0]; i++) {
        uint64_t want = f[i].kind == 1 ? 1 : 0;
        if (f[i].kind == 4)
            want = feat ? 7 : 6;
        if (f[i].kind == 2)
            want = feat != 0;
        if (f[i].kind == 3)
            want = feat ? 3 : 2;
        CASE((int)i + 1);
        CHECK_EQ(spec_field(v, f[i].msb, f[i].lsb), want, "%s PMSIDR_EL1.%s", cfg, f[i].f);
    }
    CASE(0);
    CHECK_EQ(v, whole, "%s PMSIDR_EL1", cfg);
    return 0;
}

static int regs_pmsidr_fields(void)
{
    TRY(pmsidr_check("v1", 0, 0x26007));       /* 1,1,1 + MaxSize 6 + CountSize 2 */
    return pmsidr_check("v1p4", 1, 0x40370F7); /* + LDS, ERnd, FnE, FDS, EFT, MaxSize 7, CountSize 3 */
}

/* PMBIDR_EL1 (Arm ARM D24.7): Align[3:0] 0 (byte), P[4] 0 (programming
 * allowed at EL1, the owning EL), F[5] 1 ("From Armv8.8, the value 0 is not
 * permitted"), AddrMode[7:6] 0 (no SPE_nVM), EA[11:8] 0b0001 (configured: the
 * PE ignores External aborts), MaxBuffSize[47:32] "Reads as 0x0000". */
static int regs_pmbidr_fields(void)
{
    static const char *const cfgs[] = {"v1", "v1p4"};
    for (unsigned c = 0; c < 2; c++) {
        spec_t s;
        CASE((int)c + 1);
        TRY(spec_open(&s, cfgs[c]));
        const uint64_t v = spec_rd(&s, SPU_REG_PMBIDR_EL1);
        CHECK_EQ(spec_field(v, 3, 0), 0, "Align");
        CHECK_EQ(spec_field(v, 4, 4), 0, "P");
        CHECK_EQ(spec_field(v, 5, 5), 1, "F");
        CHECK_EQ(spec_field(v, 7, 6), 0, "AddrMode");
        CHECK_EQ(spec_field(v, 11, 8), 1, "EA");
        CHECK_EQ(spec_field(v, 47, 32), 0, "MaxBuffSize");
        CHECK_EQ(v, 0x120, "PMBIDR_EL1");
    }
    return 0;
}

/* Snapshot of every register as read through the port. */
static void snapshot(spec_t *s, uint64_t *v)
{
    for (int i = 0; i < SPU_NREGS; i++)
        v[i] = spu_reg_access_ok(&s->cfg, i, 0) ? spec_rd(s, i) : 0;
}

/* Arm ARM D24.7: PMSIDR_EL1 / PMBIDR_EL1 are RO, "— (MRS only)"; semantics.md
 * step 1: "writes to PMSIDR_EL1/PMBIDR_EL1 give reg_undef = 1, reg_rdata = 0,
 * and change nothing". Also unknown encodings (gaps 0xC4D2, 0xC4D5, 0xC4D6,
 * PMSCR_EL2 0xE4C8, PMSCR_EL12 0xECC8, PMBSR_EL12 0xECD3, 0, 0xFFFF: not
 * registers of this EL1 unit) are UNDEFINED for reads and writes. */
static int regs_undefined_accesses(void)
{
    static const uint16_t unknown[] = {0xC4D2, 0xC4D5, 0xC4D6, 0xE4C8, 0xECC8, 0xECD3, 0x0000, 0xFFFF};
    static const char *const cfgs[] = {"v1", "v1p4"};
    for (unsigned c = 0; c < 2; c++) {
        spec_t s;
        uint64_t before[SPU_NREGS], after[SPU_NREGS];
        TRY(spec_open(&s, cfgs[c]));
        spec_wr(&s, SPU_REG_PMSIRR_EL1, IRR(3, 1));
        spec_wr(&s, SPU_REG_PMBPTR_EL1, 0x1234000);
        snapshot(&s, before);
        CASE((int)c * 100 + 1);
        CHECK_EQ(spec_wr(&s, SPU_REG_PMSIDR_EL1, 0), 1, "PMSIDR_EL1 write");
        CHECK_EQ(s.o.reg_rdata, 0, "rdata of an UNDEFINED write");
        CHECK_EQ(spec_wr(&s, SPU_REG_PMBIDR_EL1, ~0ull), 1, "PMBIDR_EL1 write");
        for (unsigned i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
            CASE((int)(c * 100 + 10 + i));
            CHECK_EQ(spec_wr_enc(&s, unknown[i], ~0ull), 1, "write of encoding 0x%04X", unknown[i]);
            CHECK_EQ(spec_rd_enc(&s, unknown[i]), 0, "read data of encoding 0x%04X", unknown[i]);
            CHECK_EQ(s.o.reg_undef, 1, "read of encoding 0x%04X", unknown[i]);
        }
        snapshot(&s, after);
        for (int i = 0; i < SPU_NREGS; i++)
            CHECK_EQ(after[i], before[i], "%s changed by an UNDEFINED access", spu_reg_name(i));
    }
    return 0;
}

/* Arm ARM D24.7: PMSNEVFR_EL1 "Present only when FEAT_SPE_FnE is implemented",
 * PMSDSFR_EL1 "Present only when FEAT_SPE_FDS"; "Every register is UNDEFINED
 * if its feature is not implemented". v1: both UNDEFINED for MRS and MSR;
 * v1p4: both accessible. */
static int regs_fne_fds_absent_in_v1(void)
{
    static const int r[2] = {SPU_REG_PMSNEVFR_EL1, SPU_REG_PMSDSFR_EL1};
    for (unsigned c = 0; c < 2; c++) {
        spec_t s;
        TRY(spec_open(&s, c ? "v1p4" : "v1"));
        for (unsigned i = 0; i < 2; i++) {
            CASE((int)(c * 10 + i + 1));
            CHECK_EQ(spec_wr(&s, r[i], 0xF0), c ? 0 : 1, "%s write", spu_reg_name(r[i]));
            CHECK_EQ(spec_rd(&s, r[i]), c ? 0xF0 : 0, "%s read data", spu_reg_name(r[i]));
            CHECK_EQ(s.o.reg_undef, c ? 0 : 1, "%s read", spu_reg_name(r[i]));
            CHECK_EQ(spu_reg_access_ok(&s.cfg, r[i], 0), c, "spu_reg_access_ok");
        }
    }
    return 0;
}

/* semantics.md step 1: a read returns "the register's value at the start of
 * cycle t". PMSICR = 0x500, read in the same cycle as a member: 0x500 is read,
 * 0x4FF is left. Case 2: PMBSR read in the collision cycle has no COLL yet. */
static int regs_read_start_of_cycle(void)
{
    spec_t s;
    TRY(spec_open(&s, "v1"));
    TRY(spec_enable(&s, IRR(1, 0), 0x500, PMBLIMITR_E));
    CASE(1);
    s.in.pop_valid = 1;
    CHECK_EQ(spec_rd(&s, SPU_REG_PMSICR_EL1), 0x500, "read in the counting cycle");
    CHECK_EQ(s.o.obs_pmsicr, 0x4FF, "PMSICR after the cycle");
    CHECK_EQ(spec_rd(&s, SPU_REG_PMSICR_EL1), 0x4FF, "read in the next cycle");
    CASE(2);
    TRY(spec_take(&s) != 0);
    spec_wr(&s, SPU_REG_PMSICR_EL1, 1);
    s.in.pop_valid = 1;
    CHECK_EQ(spec_rd(&s, SPU_REG_PMBSR_EL1), 0, "PMBSR read in the collision cycle");
    CHECK_EQ(s.o.col_valid, 1, "collision");
    CHECK_EQ(spec_rd(&s, SPU_REG_PMBSR_EL1), PMBSR_COLL, "PMBSR read after the collision");
    return 0;
}

const spec_test_t spec_tests_regs[] = {
    SPEC_TEST(regs_encodings),
    SPEC_TEST(regs_res0_v1),
    SPEC_TEST(regs_res0_v1p4),
    SPEC_TEST(regs_pmsidr_fields),
    SPEC_TEST(regs_pmbidr_fields),
    SPEC_TEST(regs_undefined_accesses),
    SPEC_TEST(regs_fne_fds_absent_in_v1),
    SPEC_TEST(regs_read_start_of_cycle),
    SPEC_END,
};
