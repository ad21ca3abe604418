/*
 * The library's own contract (golden/spu_model.h, docs/api.md, docs/ports.md):
 * lookups and names with indices out of range, the -1 returns of init, set
 * knob, register write and skip, the configuration limits of configs/spu.toml
 * [limits], the state after reset, and the input bits of lanes and ports a
 * configuration does not have. These are not Arm ARM rules; the expected
 * values are what the header and docs promise (and, where the unit's
 * behaviour is involved, what D17.3 gives), never the model's output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"
#include "spu_fast.h"

/* docs/api.md: "the name functions return "?" for an index out of range";
 * spu_reg_enc() of an unknown index is 0 (no register has encoding 0: op0 is
 * 3 for every system register here). Every index in range has a real name
 * that looks itself up again. */
static int api_names_and_indices(void)
{
    CASE(1);
    CHECK(strcmp(spu_knob_name(-1), "?") == 0, "spu_knob_name(-1) = %s", spu_knob_name(-1));
    CHECK(strcmp(spu_knob_name(SPU_NKNOBS), "?") == 0, "spu_knob_name(N) = %s", spu_knob_name(SPU_NKNOBS));
    CHECK(strcmp(spu_pmu_name(-1), "?") == 0, "spu_pmu_name(-1) = %s", spu_pmu_name(-1));
    CHECK(strcmp(spu_pmu_name(SPU_NPMU), "?") == 0, "spu_pmu_name(N) = %s", spu_pmu_name(SPU_NPMU));
    CHECK(strcmp(spu_reg_name(-1), "?") == 0, "spu_reg_name(-1) = %s", spu_reg_name(-1));
    CHECK(strcmp(spu_reg_name(SPU_NREGS), "?") == 0, "spu_reg_name(N) = %s", spu_reg_name(SPU_NREGS));
    CHECK_EQ(spu_reg_enc(-1), 0, "spu_reg_enc(-1)");
    CHECK_EQ(spu_reg_enc(SPU_NREGS), 0, "spu_reg_enc(N)");
    CASE(2);
    spu_config_t cfg;
    TRY(spec_cfg(&cfg, "v1p4"));
    for (int i = 0; i < SPU_NKNOBS; i++) {
        CHECK(strcmp(spu_knob_name(i), "?") != 0, "knob %d has no name", i);
        CHECK_EQ(spu_config_set_knob(&cfg, spu_knob_name(i), cfg.knob[i], NULL, 0), 0, "knob %s by its own name",
                 spu_knob_name(i));
    }
    for (int i = 0; i < SPU_NPMU; i++)
        CHECK(strncmp(spu_pmu_name(i), "SAMPLE_", 7) == 0, "event %d is named %s", i, spu_pmu_name(i));
    for (int i = 0; i < SPU_NREGS; i++) {
        CHECK_EQ(spu_reg_by_name(spu_reg_name(i)), i, "register %s by name", spu_reg_name(i));
        CHECK_EQ(spu_reg_find(spu_reg_enc(i)), i, "register %s by encoding", spu_reg_name(i));
        CHECK_EQ(spu_reg_enc(i) >> 14, 3, "op0 of %s", spu_reg_name(i));
    }
    return 0;
}

/* Lookups that find nothing: NULL / -1 / 0, never an element past a table. */
static int api_lookup_misses(void)
{
    spu_config_t cfg;
    TRY(spec_cfg(&cfg, "v1p4"));
    CASE(1);
    CHECK(spu_config_find("no-such-config") == NULL, "an unknown configuration was found");
    CHECK_EQ(spu_reg_by_name("NO_SUCH_EL1"), (uint64_t)-1, "spu_reg_by_name of an unknown name");
    CHECK_EQ(spu_reg_find(0), (uint64_t)-1, "spu_reg_find(0)");
    CHECK_EQ(spu_reg_find(0xFFFF), (uint64_t)-1, "spu_reg_find(0xFFFF)");
    CASE(2);
    CHECK_EQ(spu_pmu_implemented(&cfg, -1), 0, "event -1 implemented");
    CHECK_EQ(spu_pmu_implemented(&cfg, SPU_NPMU), 0, "event N implemented");
    CHECK_EQ(spu_reg_access_ok(&cfg, -1, 0), 0, "register -1 accessible");
    CHECK_EQ(spu_reg_access_ok(&cfg, SPU_NREGS, 0), 0, "register N accessible");
    CASE(3);
    spec_t s;
    TRY(spec_init(&s, &cfg));
    TRY(spec_enable(&s, IRR(1, 0), 0x1234, PMBLIMITR_E));
    CHECK_EQ(spu_model_reg_read(&s.m, -1), 0, "read of register -1");
    CHECK_EQ(spu_model_reg_read(&s.m, SPU_NREGS), 0, "read of register N");
    return 0;
}

/* spu_config_set_knob(): "-1 with a message for an unknown knob or a value
 * out of range"; the message names the allowed range (LFSR_SEED:
 * [limits] LFSR_SEED_MIN..MAX, every other knob 0 or 1); a refused value
 * leaves the configuration as it was. */
static int api_set_knob_errors(void)
{
    spu_config_t cfg, before;
    char err[160];
    TRY(spec_cfg(&cfg, "v1"));
    before = cfg;
    CASE(1);
    err[0] = 0;
    CHECK_EQ(spu_config_set_knob(&cfg, "NO_SUCH_KNOB", 0, err, sizeof err), (uint64_t)-1, "unknown knob");
    CHECK(strstr(err, "NO_SUCH_KNOB") != NULL, "message '%s' does not name the knob", err);
    CHECK_EQ(spu_config_set_knob(&cfg, "NO_SUCH_KNOB", 0, NULL, 0), (uint64_t)-1, "unknown knob, err NULL");
    CASE(2);
    err[0] = 0;
    CHECK_EQ(spu_config_set_knob(&cfg, "SLOT_REUSE", 2, err, sizeof err), (uint64_t)-1, "SLOT_REUSE=2");
    CHECK(strstr(err, "0 or 1") != NULL, "message '%s' does not give the range 0 or 1", err);
    CASE(3);
    err[0] = 0;
    CHECK_EQ(spu_config_set_knob(&cfg, "LFSR_SEED", 0, err, sizeof err), (uint64_t)-1, "LFSR_SEED=0");
    CHECK(strstr(err, "0x1..0xFFFFFF") != NULL, "message '%s' does not give the seed range", err);
    CHECK(strstr(err, "0 or 1") == NULL, "message '%s' gives the 0/1 range for the seed", err);
    CHECK_EQ(spu_config_set_knob(&cfg, "LFSR_SEED", SPU_LFSR_SEED_MAX + 1u, NULL, 0), (uint64_t)-1,
             "LFSR_SEED above the limit");
    CHECK(memcmp(cfg.knob, before.knob, sizeof cfg.knob) == 0, "a refused knob changed the configuration");
    CASE(4);
    CHECK_EQ(spu_config_set_knob(&cfg, "LFSR_SEED", SPU_LFSR_SEED_MAX, err, sizeof err), 0, "LFSR_SEED max");
    CHECK_EQ(cfg.knob[SPU_KNOB_LFSR_SEED], SPU_LFSR_SEED_MAX, "LFSR_SEED stored");
    CHECK_EQ(spu_config_set_knob(&cfg, "INFLIGHT", 1, err, sizeof err), 0, "INFLIGHT=1");
    CHECK_EQ(cfg.knob[SPU_KNOB_INFLIGHT], 1, "INFLIGHT stored");
    return 0;
}

/* spu_model_init(): "-1 with a message for a NULL or out-of-range
 * configuration" (err may be NULL); the limits are 1..SPU_MAX_LANES lanes,
 * 1..SPU_MAX_SLOTS slots, CountSize 12 or 16, a nonzero 24-bit seed. */
static int api_init_errors(void)
{
    spu_config_t base, c;
    spu_model_t m;
    char err[200];
    TRY(spec_cfg(&base, "wide"));
    CASE(1);
    err[0] = 0;
    CHECK_EQ(spu_model_init(NULL, &base, err, sizeof err), (uint64_t)-1, "no model storage");
    CHECK(err[0] != 0, "no message for NULL model storage");
    err[0] = 0;
    CHECK_EQ(spu_model_init(&m, NULL, err, sizeof err), (uint64_t)-1, "no configuration");
    CHECK(err[0] != 0, "no message for a NULL configuration");
    CHECK_EQ(spu_model_init(NULL, &base, NULL, sizeof err), (uint64_t)-1, "NULL storage, err NULL");
    CHECK_EQ(spu_model_init(&m, NULL, NULL, 0), (uint64_t)-1, "NULL configuration, err NULL");
    CASE(2);
    static const struct { unsigned lanes, slots, count; uint32_t seed; int ok; } lim[] = {
        {0, 2, 16, 1, 0}, {SPU_MAX_LANES + 1, 2, 16, 1, 0}, {4, 0, 16, 1, 0}, {4, SPU_MAX_SLOTS + 1, 16, 1, 0},
        {4, 2, 14, 1, 0}, {4, 2, 16, 0, 0}, {4, 2, 16, SPU_LFSR_SEED_MAX + 1u, 0},
        {1, 1, 12, 1, 1}, {SPU_MAX_LANES, SPU_MAX_SLOTS, 16, SPU_LFSR_SEED_MAX, 1},
    };
    for (unsigned i = 0; i < sizeof lim / sizeof lim[0]; i++) {
        spec_case_no = 200 + (int)i;
        c = base;
        c.lanes = lim[i].lanes;
        c.slots = lim[i].slots;
        c.count_size = lim[i].count;
        c.knob[SPU_KNOB_LFSR_SEED] = lim[i].seed;
        err[0] = 0;
        const int r = spu_model_init(&m, &c, err, sizeof err);
        CHECK_EQ(r, lim[i].ok ? 0 : (uint64_t)-1, "init with lanes %u slots %u count %u seed 0x%X (%s)",
                 lim[i].lanes, lim[i].slots, lim[i].count, lim[i].seed, err);
        CHECK(lim[i].ok || err[0] != 0, "no message for an out-of-range configuration");
        CHECK_EQ(spu_model_init(&m, &c, NULL, 0), lim[i].ok ? 0 : (uint64_t)-1, "the same with err NULL");
    }
    /* every other knob in its range too: a beat queue of 0 or more than
     * SPU_MAX_BUF_BEATS, a choice of two given 2 */
    static const struct { int knob; uint32_t v; } bad_knob[] = {
        {SPU_KNOB_BUF_BEATS, 0}, {SPU_KNOB_BUF_BEATS, SPU_MAX_BUF_BEATS + 1u}, {SPU_KNOB_SLOT_REUSE, 2},
    };
    for (unsigned i = 0; i < sizeof bad_knob / sizeof bad_knob[0]; i++) {
        spec_case_no = 300 + (int)i;
        c = base;
        c.knob[bad_knob[i].knob] = bad_knob[i].v;
        err[0] = 0;
        CHECK_EQ(spu_model_init(&m, &c, err, sizeof err), (uint64_t)-1, "knob %s = %u", spu_knob_name(bad_knob[i].knob), bad_knob[i].v);
        CHECK(strstr(err, spu_knob_name(bad_knob[i].knob)) != NULL, "message '%s' does not name the knob", err);
    }
    return 0;
}

/* The largest configuration the limits allow works: SPU_MAX_SLOTS slots are
 * taken lowest first (docs/semantics.md step 6), one more selection collides
 * (D17.3.7), and all of them finish on their own ports in one cycle. The
 * selections are forced one per cycle by writing PMSICR_EL1 = 1 (COUNT 1 -> 0
 * selects, RND = 0). */
static int api_max_slots_config(void)
{
    spu_config_t c;
    spec_t s;
    TRY(spec_cfg(&c, "wide"));
    c.slots = SPU_MAX_SLOTS;
    c.lanes = SPU_MAX_LANES;
    TRY(spec_init(&s, &c));
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    for (unsigned k = 0; k <= SPU_MAX_SLOTS; k++) {
        CASE((int)k + 1);
        spec_wr(&s, SPU_REG_PMSICR_EL1, 1);
        spec_pop(&s, 1);
        if (k < SPU_MAX_SLOTS) {
            CHECK_EQ(s.o.smp_valid, 1, "selection %u", k);
            CHECK_EQ(s.o.smp_slot[0], k, "slot of selection %u", k);
        } else {
            CHECK_EQ(s.o.col_valid, 1, "selection with every slot busy collides");
        }
    }
    CASE(10);
    for (unsigned p = 0; p < SPU_MAX_SLOTS; p++) {
        s.in.fin_valid |= (uint8_t)(1u << p);
        s.in.fin_slot[p] = (uint8_t)(SPU_MAX_SLOTS - 1u - p);
    }
    spec_cycle(&s);
    CHECK_EQ(s.o.rec_valid, (1u << SPU_MAX_SLOTS) - 1u, "a record on every port");
    for (unsigned p = 0; p < SPU_MAX_SLOTS; p++)
        CHECK_EQ(s.o.rec_slot[p], SPU_MAX_SLOTS - 1u - p, "slot of the record on port %u", p);
    CHECK_EQ(s.o.pmu[SPU_PMU_FEED], SPU_MAX_SLOTS, "SAMPLE_FEED in the finish cycle");
    return 0;
}

/* spu_model.h: "the caller owns the storage" - the model stays inside
 * sizeof(spu_model_t) bytes, here exactly that much heap, with the largest
 * unit the limits allow (SPU_MAX_SLOTS slots: its slot array is full). A
 * forced selection (PMSICR_EL1 = 1, RND = 0) takes slot 0, the next one
 * slot 1. */
static int api_model_in_its_own_storage(void)
{
    spu_config_t c;
    TRY(spec_cfg(&c, "wide"));
    c.slots = SPU_MAX_SLOTS;
    spu_model_t *m = malloc(sizeof *m);
    CHECK(m != NULL, "no memory");
    int bad = spu_model_init(m, &c, NULL, 0) != 0;
    bad |= spu_model_reg_write(m, SPU_REG_PMSIRR_EL1, IRR(1, 0)) != 0;
    bad |= spu_model_reg_write(m, SPU_REG_PMSCR_EL1, PMSCR_E0E1) != 0;
    bad |= spu_model_reg_write(m, SPU_REG_PMBLIMITR_EL1, PMBLIMITR_E) != 0;
    spu_in_t in;
    spu_out_t out;
    uint8_t slot[2] = {0xFF, 0xFF};
    for (unsigned k = 0; k < 2 && !bad; k++) {
        bad |= spu_model_reg_write(m, SPU_REG_PMSICR_EL1, 1) != 0;
        memset(&in, 0, sizeof in);
        in.rst_n = 1;
        in.el = 1;
        in.prof_allowed = 1;
        in.pop_valid = 1;
        spu_model_step(m, &in, &out);
        slot[k] = out.smp_valid ? out.smp_slot[0] : 0xFF;
    }
    free(m);
    CHECK(!bad, "init or a register write failed");
    CHECK_EQ(slot[0], 0, "slot of the first selection");
    CHECK_EQ(slot[1], 1, "slot of the second selection");
    return 0;
}

/* spu_model_reg_write(): "-1 when UNDEFINED" (the ID registers have no MSR
 * form, an absent register has no encoding), else 0 with the write mask
 * applied (PMSCR_EL1 bit 2 is RES0). */
static int api_reg_write_returns(void)
{
    spec_t s;
    TRY(spec_open(&s, "v1"));
    CASE(1);
    CHECK_EQ(spu_model_reg_write(&s.m, SPU_REG_PMSIDR_EL1, 0x1), (uint64_t)-1, "write of PMSIDR_EL1");
    CHECK_EQ(spu_model_reg_write(&s.m, SPU_REG_PMBIDR_EL1, 0x1), (uint64_t)-1, "write of PMBIDR_EL1");
    CHECK_EQ(spu_model_reg_write(&s.m, SPU_REG_PMSNEVFR_EL1, 0x8), (uint64_t)-1, "write of PMSNEVFR_EL1 on v1");
    CHECK_EQ(spu_model_reg_write(&s.m, -1, 0x1), (uint64_t)-1, "write of register -1");
    CHECK_EQ(s.m.reg[SPU_REG_PMSIDR_EL1], 0, "PMSIDR_EL1 storage after a refused write");
    CASE(2);
    CHECK_EQ(spu_model_reg_write(&s.m, SPU_REG_PMSCR_EL1, 0x7), 0, "write of PMSCR_EL1");
    CHECK_EQ(spu_model_reg_read(&s.m, SPU_REG_PMSCR_EL1), 0x3, "PMSCR_EL1 after writing 0x7");
    return 0;
}

/* The state after reset (spu_model.h: cycle = "cycles since the last reset";
 * every register 0, so profiling is off and the previous cycle counts as
 * disabled): the model is settled for a disabled context, spu_model_skip()
 * accepts a disabled stretch and counts nothing in it (D17.3.5), both after
 * init and after a reset taken while profiling was enabled. */
static int api_state_after_reset(void)
{
    spec_t s;
    TRY(spec_open(&s, "v1p4"));
    CASE(1);
    CHECK_EQ(s.m.cycle, 0, "cycle after init");
    CHECK_EQ(spu_model_settled(&s.m, s.el, s.allow), 1, "settled after init");
    CHECK_EQ(spu_model_quiet_pops(&s.m, s.el, s.allow), UINT64_MAX, "quiet members while disabled");
    CHECK_EQ(spu_model_skip(&s.m, 10, 5, s.el, s.allow), 0, "skip a disabled stretch after init");
    CHECK_EQ(s.m.cycle, 10, "cycle after skipping 10 cycles");
    CHECK_EQ(s.m.reg[SPU_REG_PMSICR_EL1], 0, "PMSICR_EL1 after disabled members");
    CASE(2);
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    spec_pop(&s, 1);
    CHECK(s.m.cycle > 10, "cycle does not count steps (%llu)", (unsigned long long)s.m.cycle);
    spec_reset(&s);
    CHECK_EQ(s.m.cycle, 0, "cycle after a reset");
    CHECK_EQ(spu_model_settled(&s.m, s.el, s.allow), 1, "settled after a reset taken while enabled");
    CHECK_EQ(spu_model_skip(&s.m, 3, 2, s.el, s.allow), 0, "skip a disabled stretch after the reset");
    CHECK_EQ(s.m.reg[SPU_REG_PMSICR_EL1], 0, "PMSICR_EL1 after disabled members");
    spec_cycle(&s);
    CHECK_EQ(s.o.obs_enabled, 0, "enabled after reset");
    CHECK_EQ(s.m.cycle, 4, "cycle after a skip of 3 and one step");
    return 0;
}

/* docs/ports.md: pop_valid_i has LANES bits, iss_valid_i and fin_valid_i
 * SLOTS bits; the wider C fields carry bits of lanes and ports v1 (1 lane,
 * 1 slot) does not have, and the unit has no input there: they change
 * nothing. Slot 0 is busy and port 1 names it. */
static int api_absent_lanes_and_ports(void)
{
    spec_t s;
    TRY(spec_open(&s, "v1"));
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    CASE(1);
    spec_wr(&s, SPU_REG_PMSICR_EL1, 5);
    spec_pop(&s, 0xFE);
    CHECK_EQ(s.o.pmu[SPU_PMU_POP], 0, "SAMPLE_POP for lanes v1 does not have");
    CHECK_EQ(s.o.obs_pmsicr, 5, "PMSICR_EL1 counted members of absent lanes");
    CASE(2);
    const int slot = spec_take(&s);
    CHECK_EQ(slot, 0, "slot of the forced selection");
    s.in.iss_valid = 0x2;
    s.in.iss_slot[1] = 0;
    spec_cycle(&s);
    s.in.fin_valid = 0x2;
    s.in.fin_slot[1] = 0;
    spec_cycle(&s);
    CHECK_EQ(s.o.rec_valid, 0, "record from finish port 1 of a 1-slot unit");
    CHECK_EQ(s.o.pmu[SPU_PMU_FEED], 0, "SAMPLE_FEED from finish port 1");
    CASE(3);
    spec_fin(&s, 0, 0, 0, 0, 0);
    CHECK_EQ(s.o.rec_valid, 1, "the sample is still in flight");
    CHECK_EQ(s.o.rec_tot_lat[0], 3, "total latency");
    CHECK_EQ(s.o.rec_iss_lat[0], 3, "issue latency (the issue on port 1 is no issue)");
    return 0;
}

/* spu_model.h: spu_model_step() returns 0, or SPU_EINPUT with every output
 * zero and the model unchanged when an input does not fit its port: el_i
 * has 2 bits, fin_type_i 5 per port (checked only with its finish),
 * reg_wdata_i 64 (it always fits); spu_model_bad_input() names the port. */
static int api_step_refuses_what_no_port_carries(void)
{
    spec_t s;
    TRY(spec_open(&s, "wide"));
    TRY(spec_enable(&s, IRR(1, 0), 0, PMBLIMITR_E));
    const spu_model_t before = s.m;
    spu_in_t in;
    spu_out_t out;
    memset(&in, 0, sizeof in);
    in.rst_n = 1;
    in.el = 4;
    in.prof_allowed = 1;
    CASE(1);
    CHECK_EQ(spu_model_step(&s.m, &in, &out), SPU_EINPUT, "el 4");
    CHECK(strcmp(spu_model_bad_input(&s.m, &in), "el_i") == 0, "named %s", spu_model_bad_input(&s.m, &in));
    CHECK(memcmp(&before, &s.m, sizeof before) == 0, "the model changed");
    CHECK_EQ(out.obs_enabled | out.obs_pmsicr, 0, "outputs of a refused cycle");
    CASE(2);
    in.el = 1;
    in.fin_type[1] = 0x20; /* no finish on port 1: not read */
    CHECK(spu_model_bad_input(&s.m, &in) == NULL, "an unread payload was checked");
    in.fin_valid = 0x2;
    CHECK(strcmp(spu_model_bad_input(&s.m, &in) ? spu_model_bad_input(&s.m, &in) : "", "fin_type_i") == 0,
          "fin_type 0x20 with its finish not named");
    CHECK_EQ(spu_model_step(&s.m, &in, &out), SPU_EINPUT, "fin_type 0x20 with its finish");
    CASE(3);
    memset(&in, 0, sizeof in);
    in.rst_n = 1;
    in.el = 1;
    in.prof_allowed = 1;
    in.pop_valid = 0xF0; /* lanes wide does not have: ignored, not refused */
    in.reg_valid = 1;
    in.reg_write = 1;
    in.reg_enc = spu_reg_enc(SPU_REG_PMSICR_EL1);
    in.reg_wdata = UINT64_MAX;
    CHECK_EQ(spu_model_step(&s.m, &in, &out), 0, "a cycle that fits");
    CHECK_EQ(s.m.cycle, before.cycle + 1, "the cycle was taken");
    return 0;
}

const spec_test_t spec_tests_api[] = {
    SPEC_TEST(api_names_and_indices),
    SPEC_TEST(api_lookup_misses),
    SPEC_TEST(api_set_knob_errors),
    SPEC_TEST(api_init_errors),
    SPEC_TEST(api_max_slots_config),
    SPEC_TEST(api_model_in_its_own_storage),
    SPEC_TEST(api_reg_write_returns),
    SPEC_TEST(api_state_after_reset),
    SPEC_TEST(api_absent_lanes_and_ports),
    SPEC_TEST(api_step_refuses_what_no_port_carries),
    SPEC_END,
};
