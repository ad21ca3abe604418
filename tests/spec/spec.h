/*
 * openspu spec-rule unit tests: a tiny framework and helpers that drive the
 * golden model (golden/spu_model.h) cycle by cycle, as software and the core
 * would drive the unit's ports.
 *
 * Each test is `static int name(void)`, named after the spec rule it checks
 * (picorv32/riscv-tests style), returning 0 on pass. CHECK()/CHECK_EQ() stop
 * the test with a message naming file:line, the condition and the values.
 * Each file exports a table `spec_tests_<file>[]` ended by {NULL, NULL};
 * spec_main.c runs every table.
 *
 * Expected values in the tests are worked out from the Arm ARM (the register
 * descriptions of PMS*_EL1 and PMB*_EL1, chapter D17, the SAMPLE_* events of
 * D14.3, the M.a.a pseudocode) and docs/semantics.md, never copied from the
 * model's output.
 */
#ifndef SPEC_H
#define SPEC_H

#include <stdint.h>

#include "spu_model.h"

/* ------------------------------------------------------------- framework */

typedef struct spec_test {
    const char *name;
    int (*fn)(void);
} spec_test_t;

#define SPEC_TEST(fn) {#fn, fn}
#define SPEC_END {0, 0}

/* Why the current test failed (printed by spec_main.c) and its sub-case. */
extern char spec_why[512];
extern int spec_case_no;

void spec_fail(const char *file, int line, const char *cond, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void spec_fail_eq(const char *file, int line, const char *got, const char *want,
                  uint64_t g, uint64_t w, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

/* Numbered sub-case: failures print "case N". */
#define CASE(n) (spec_case_no = (n))

/* CHECK(cond, fmt, ...): fail the test unless cond holds. */
#define CHECK(cond, ...)                                                 \
    do {                                                                 \
        if (!(cond)) {                                                   \
            spec_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);           \
            return 1;                                                    \
        }                                                                \
    } while (0)

/* CHECK_EQ(got, want, fmt, ...): compare as uint64_t, print both in hex and
 * decimal. */
#define CHECK_EQ(got, want, ...)                                         \
    do {                                                                 \
        const uint64_t spec_g_ = (uint64_t)(got);                        \
        const uint64_t spec_w_ = (uint64_t)(want);                       \
        if (spec_g_ != spec_w_) {                                        \
            spec_fail_eq(__FILE__, __LINE__, #got, #want, spec_g_,       \
                         spec_w_, __VA_ARGS__);                          \
            return 1;                                                    \
        }                                                                \
    } while (0)

/* A helper that returns nonzero after setting spec_why: pass it on. */
#define TRY(expr)                                                        \
    do {                                                                 \
        if ((expr) != 0) {                                               \
            if (spec_why[0] == 0)                                        \
                spec_fail(__FILE__, __LINE__, #expr, "helper failed");   \
            return 1;                                                    \
        }                                                                \
    } while (0)

/* ---------------------------------------------------- model test bench */

typedef struct spec {
    spu_config_t cfg;             /* the configuration the model was built from */
    spu_model_t m;
    spu_in_t in;                  /* inputs of the next cycle (cleared after each) */
    spu_out_t o;                  /* outputs of the last cycle */
    uint8_t el;                   /* context of every cycle */
    uint8_t allow;
    uint8_t mem_stall;            /* 1: the memory takes no write beat (mem_ready = 0) */
    uint64_t t;                   /* cycles stepped since spec_init */
    uint64_t members;             /* population members fed by spec_feed() */
    uint64_t pmu[SPU_NPMU];       /* running totals of the PMU outputs */
    uint64_t nsmp, ncol;          /* running totals of smp_valid / col_valid bits */
} spec_t;

/* Type bits of fin_type ({SIMD,FP,ST,LD,B}). */
#define TB (1u << SPU_T_B)
#define TLD (1u << SPU_T_LD)
#define TST (1u << SPU_T_ST)
#define TFP (1u << SPU_T_FP)
#define TSIMD (1u << SPU_T_SIMD)
/* rec_why bits. */
#define WTYPE (1u << SPU_WHY_TYPE)
#define WEV (1u << SPU_WHY_EV)
#define WNEV (1u << SPU_WHY_NEV)
#define WLAT (1u << SPU_WHY_LAT)
#define WDS (1u << SPU_WHY_DS)
#define WDISC (1u << SPU_WHY_DISCARD)

/* Register values used often (Arm ARM D24.7). */
#define PMSCR_E0E1 0x3u               /* E0SPE | E1SPE */
/* E = 1 with LIMIT = 0x100: a 1 MiB buffer from PMBPTR_EL1 = 0, which no test fills */
#define PMBLIMITR_E 0x100001u
#define PMBSR_COLL (1ull << 16)
#define PMBSR_S (1ull << 17)
#define IRR(interval, rnd) (((uint64_t)(interval) << 8) | (uint64_t)(rnd))
#define ICR(ecount, count) (((uint64_t)(ecount) << 56) | (uint64_t)(count))
/* PMSFCR_EL1 fields. */
#define FCR_FE (1ull << 0)
#define FCR_FT (1ull << 1)
#define FCR_FL (1ull << 2)
#define FCR_FNE (1ull << 3)
#define FCR_FDS (1ull << 4)
#define FCR_TYPE(t) ((uint64_t)(t) << 16)   /* t in {SIMD,FP,ST,LD,B} order */
#define FCR_TYPEM(t) ((uint64_t)(t) << 48)

/* Copy named config into cfg (-1 and spec_why set when unknown). */
int spec_cfg(spu_config_t *cfg, const char *name);
/* Set a knob in cfg (-1 and spec_why set on error). */
int spec_knob(spu_config_t *cfg, const char *name, uint32_t value);
/* Build the model from cfg; el = 1, prof_allowed = 1. */
int spec_init(spec_t *s, const spu_config_t *cfg);
/* spec_init from a named configuration. */
int spec_open(spec_t *s, const char *name);

/* One clock with s->in (rst_n = 1, el/prof_allowed from s); s->in is then
 * cleared, outputs in s->o, totals updated. */
void spec_cycle(spec_t *s);
/* One clock with rst_n = 0 (other inputs from s->in, which a reset cycle
 * must ignore); s->in is then cleared. */
void spec_reset(spec_t *s);
/* n cycles with no input. */
void spec_idle(spec_t *s, uint64_t n);
/* One cycle writing reg (MSR). Returns reg_undef. */
int spec_wr(spec_t *s, int reg, uint64_t value);
int spec_wr_enc(spec_t *s, uint16_t enc, uint64_t value);
/* One cycle reading reg (MRS); returns reg_rdata (reg_undef in s->o). */
uint64_t spec_rd(spec_t *s, int reg);
uint64_t spec_rd_enc(spec_t *s, uint16_t enc);
/* One cycle with population members in the lanes of mask. */
void spec_pop(spec_t *s, uint8_t mask);
/* One cycle with a finish event on port 0 for slot. */
void spec_fin(spec_t *s, unsigned slot, uint8_t type, uint64_t events,
              int ds_valid, uint16_t ds);

/* Software's enable sequence: PMSIRR, PMSICR, PMSCR = E0SPE|E1SPE, then
 * PMBLIMITR = limitr (E must be set), then one idle cycle: the enable edge.
 * Returns 0 when obs_enabled is 1 in the edge cycle. s->members = 0. */
int spec_enable(spec_t *s, uint64_t pmsirr, uint64_t pmsicr, uint64_t limitr);
/* Force one selection: write PMSICR = 1, then one member in lane 0 (RND must
 * be 0 or ERnd absent with COUNT=1 -> 0 selecting). Returns the slot, -1 when
 * the member was not selected (spec_why set). */
int spec_take(spec_t *s);
/* Idle cycles until no kept record waits or is being encoded (at most 256;
 * none while the memory stalls). */
void spec_drain(spec_t *s);
/* A kept plain load finishes in slot (port 0) in a cycle with one member,
 * which PMSICR_EL1 = 2 makes counted, not selected (COUNT 2 -> 1). Returns
 * 0, or 1 with spec_why set. */
int spec_fin_counted(spec_t *s, unsigned slot);
/* spec_take(), then a finish exactly lat cycles after the selection
 * (tot = lat), with this type/events/data source. Returns 0, -1 on failure.
 * The record is in s->o (port 0). */
int spec_record(spec_t *s, uint32_t lat, uint8_t type, uint64_t events,
                int ds_valid, uint16_t ds);

/* spec_record(), then check the record of port 0: rec_why == why and
 * rec_keep == (why == 0). Returns 0, or 1 with spec_why set. */
int spec_expect(spec_t *s, uint32_t lat, uint8_t type, uint64_t events,
                int ds_valid, uint16_t ds, uint8_t why);
/* One cycle with an issue event on port 0 for slot. */
void spec_iss(spec_t *s, unsigned slot);

/* Feed n members, per_cycle lanes (0..per_cycle-1) per cycle. Each selection
 * (smp_valid or col_valid) records the member's index (s->members, 1-based,
 * counted across calls) in pos[] (when pos != NULL and room in cap). With
 * autofin, every sampled slot is finished in the next cycle (type 0, no
 * events). Stops early once `stop` selections were seen (0: never). Pending
 * finishes are flushed at the end. Returns the number of selections. */
uint32_t spec_feed(spec_t *s, uint64_t n, unsigned per_cycle, uint64_t *pos,
                   uint32_t cap, int autofin, uint32_t stop);

/* A random stream for the tests' stimulus (xorshift32; *x nonzero),
 * reproducible from its seed. */
static inline uint32_t spec_rng(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

/* 64 bits of it: the high word drawn first. */
static inline uint64_t spec_rng64(uint32_t *x)
{
    const uint64_t hi = spec_rng(x);
    return hi << 32 | spec_rng(x);
}

/* Bits msb..lsb of v. */
static inline uint64_t spec_field(uint64_t v, unsigned msb, unsigned lsb)
{
    const unsigned w = msb - lsb + 1u;
    return w >= 64u ? v >> lsb : (v >> lsb) & ((1ull << w) - 1u);
}

/* ---------------------------------------------------------- test tables */

extern const spec_test_t spec_tests_interval[];
extern const spec_test_t spec_tests_ernd[];
extern const spec_test_t spec_tests_enable[];
extern const spec_test_t spec_tests_coll[];
extern const spec_test_t spec_tests_type[];
extern const spec_test_t spec_tests_filter[];
extern const spec_test_t spec_tests_latency[];
extern const spec_test_t spec_tests_pmu[];
extern const spec_test_t spec_tests_buffer[];
extern const spec_test_t spec_tests_wait[];
extern const spec_test_t spec_tests_regs[];
extern const spec_test_t spec_tests_regs_port[];
extern const spec_test_t spec_tests_knobs[];
extern const spec_test_t spec_tests_skip[];
extern const spec_test_t spec_tests_api[];
extern const spec_test_t spec_tests_record[];

#endif
