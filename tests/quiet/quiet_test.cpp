// spu-quiet-test-<cfg> [TRIALS] [SEED]: the check of a quiet cycle in place
// (vl/dut_shim.cpp, quiet_equal(); the common path of spu-tb: step_check_quiet() and step_block())
// against the full one (sample() and cmp_equal(), tb/compare.h), on one
// Verilated build. Each trial makes a model output o (a quiet cycle, half
// of the time with one more bit set anywhere in it); where cmp_quiet() calls
// o quiet, it sets every output port of the Verilated model directly to o's
// value, with one bit of the port's width flipped in up to two ports, and
// requires quiet_equal() to say "equal" exactly when sample() of the ports
// compares equal to o (cmp_equal()). It fails unless each output port
// sample() reads was the one difference of some trial that quiet_equal()
// caught, and some trials were equal: a port left out of quiet_equal(), one
// it compares wrongly, or a byte cmp_quiet() lets through fails it. Prints
// one line; exit 0 pass, 1 the first disagreement (with the ports changed),
// 2 bad arguments. Reproducible: TRIALS (default 200000) and SEED
// (default 1).
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// compare.h is C11: its static assertions under C++'s name.
#define _Static_assert static_assert
#include "dut_shim.cpp" /* the shim itself (vl/), its quiet_equal() and sample() */
#include "compare.h"
#include "rng.h"

namespace {

uint64_t rng_state;
uint64_t rnd() { return rng_next(&rng_state); } // reproducible from the seed

// One output port: its name, width, how to set it to a value and how to
// write the model's o so that sample() of that value gives o (the inverse of
// sample(), field by field).
struct port {
    const char *name;
    unsigned width;
    void (*set)(VTOP *t, uint64_t v);  // ports of 64 bits or less
    uint64_t (*of)(const spu_out_t *o, unsigned lanes, unsigned slots); // o's value of the port
};

template <typename T> void set_any(T &d, uint64_t v) { d = (T)v; }
template <std::size_t N> void set_any(VlWide<N> &d, uint64_t v)
{
    for (std::size_t i = 0; i < N; i++)
        d[i] = i < 2 ? (EData)(v >> (32 * i)) : 0;
}
#define P(p) [](VTOP *t, uint64_t v) { set_any(t->p, v); }

uint64_t packed(const uint8_t *f, unsigned n, unsigned w)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)f[i] << (w * i);
    return v;
}
uint64_t packed16(const uint16_t *f, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)f[i] << (16 * i);
    return v;
}

// The output ports sample() reads, with their widths in this configuration.
constexpr unsigned NP = 21;
void make_ports(port (&ports)[NP], unsigned L, unsigned S)
{
    static_assert(SPU_MAX_SLOTS * 16 <= 64, "rec_*_lat_o of every configuration fit one word here");
    const port all[NP] = {
        {"smp_valid_o", L, P(smp_valid_o), [](const spu_out_t *o, unsigned, unsigned) { return (uint64_t)o->smp_valid; }},
        {"col_valid_o", L, P(col_valid_o), [](const spu_out_t *o, unsigned, unsigned) { return (uint64_t)o->col_valid; }},
        {"smp_slot_o", 2 * L, P(smp_slot_o), [](const spu_out_t *o, unsigned l, unsigned) { return packed(o->smp_slot, l, 2); }},
        {"rec_valid_o", S, P(rec_valid_o), [](const spu_out_t *o, unsigned, unsigned) { return (uint64_t)o->rec_valid; }},
        {"rec_keep_o", S, P(rec_keep_o), [](const spu_out_t *o, unsigned, unsigned) { return (uint64_t)o->rec_keep; }},
        {"rec_slot_o", 2 * S, P(rec_slot_o), [](const spu_out_t *o, unsigned, unsigned s) { return packed(o->rec_slot, s, 2); }},
        {"rec_why_o", 6 * S, P(rec_why_o), [](const spu_out_t *o, unsigned, unsigned s) { return packed(o->rec_why, s, 6); }},
        {"rec_tot_lat_o", 16 * S, P(rec_tot_lat_o), [](const spu_out_t *o, unsigned, unsigned s) { return packed16(o->rec_tot_lat, s); }},
        {"rec_iss_lat_o", 16 * S, P(rec_iss_lat_o), [](const spu_out_t *o, unsigned, unsigned s) { return packed16(o->rec_iss_lat, s); }},
        {"rec_len_o", 8 * S, P(rec_len_o), [](const spu_out_t *o, unsigned, unsigned s) { return packed(o->rec_len, s, 8); }},
        {"rec_wr_o", S, P(rec_wr_o), [](const spu_out_t *o, unsigned, unsigned) { return (uint64_t)o->rec_wr; }},
        {"mem_valid_o", 1, P(mem_valid_o), [](const spu_out_t *o, unsigned, unsigned) { return (uint64_t)o->mem_valid; }},
        {"pmu_o", SPU_NPMU * SPU_PMU_W, P(pmu_o), [](const spu_out_t *o, unsigned, unsigned) { return packed(o->pmu, SPU_NPMU, SPU_PMU_W); }},
        {"reg_rdata_o", 64, P(reg_rdata_o), [](const spu_out_t *o, unsigned, unsigned) { return o->reg_rdata; }},
        {"reg_undef_o", 1, P(reg_undef_o), [](const spu_out_t *o, unsigned, unsigned) { return (uint64_t)o->reg_undef; }},
        {"obs_pmsicr_o", 64, P(obs_pmsicr_o), [](const spu_out_t *o, unsigned, unsigned) { return o->obs_pmsicr; }},
        {"obs_enabled_o", 1, P(obs_enabled_o), [](const spu_out_t *o, unsigned, unsigned) { return (uint64_t)o->obs_enabled; }},
        {"pmbirq_o", 1, P(pmbirq_o), [](const spu_out_t *o, unsigned, unsigned) { return (uint64_t)o->pmbirq; }},
        {"mem_addr_o", 64, P(mem_addr_o), [](const spu_out_t *o, unsigned, unsigned) { return o->mem_addr; }},
        {"mem_data_o", 64, P(mem_data_o), [](const spu_out_t *o, unsigned, unsigned) { return o->mem_data; }},
        {"mem_strb_o", 8, P(mem_strb_o), [](const spu_out_t *o, unsigned, unsigned) { return (uint64_t)o->mem_strb; }},
    };
    for (unsigned k = 0; k < NP; k++)
        ports[k] = all[k];
}

// The model's outputs o: a quiet cycle, half of the time with one more bit
// set anywhere in it (quiet only if it is in a free field).
void model_outputs(spu_out_t *o, unsigned L)
{
    std::memset(o, 0, sizeof *o);
    o->pmu[SPU_PMU_POP] = (uint8_t)(rnd() % (L + 1));
    o->obs_pmsicr = rnd() & 1 ? rnd() : rnd() & 0xFFFFFF;
    o->reg_rdata = rnd() % 4 ? 0 : rnd();
    o->reg_undef = rnd() % 8 == 0;
    o->obs_enabled = rnd() % 4 != 0;
    o->pmbirq = rnd() % 8 == 0;
    if (rnd() % 2 == 0) {
        uint8_t *bytes = reinterpret_cast<uint8_t *>(o);
        bytes[rnd() % sizeof *o] ^= (uint8_t)(1u << (rnd() % 8));
    }
}

struct tally {
    unsigned long caught[NP], agree, equal;
};

// Trial n: the DUT's ports set to o's values with up to two of them changed,
// quiet_equal() against sample() + cmp_equal(). 0, or 1 on a disagreement
// (its FAIL line printed).
int trial(VTOP *top, const port (&ports)[NP], unsigned L, unsigned S, unsigned long n, tally *t)
{
    spu_out_t o;
    model_outputs(&o, L);
    spu_quiet_t q;
    cmp_quiet(&o, &q);
    if (!q.quiet)
        return 0; // quiet_equal() is never asked about it
    int changed[2] = {-1, -1};
    const auto put = [&](unsigned k, uint64_t v) {
        ports[k].set(top, ports[k].width < 64 ? v & ((1ull << ports[k].width) - 1) : v);
    };
    for (unsigned k = 0; k < NP; k++)
        put(k, ports[k].of(&o, L, S));
    const unsigned nchange = (unsigned)(rnd() % 3);
    for (unsigned i = 0; i < nchange; i++) {
        const unsigned k = (unsigned)(rnd() % NP);
        put(k, ports[k].of(&o, L, S) ^ (1ull << (rnd() % ports[k].width)));
        changed[i] = (int)k;
    }
    spu_out_t dout;
    sample(top, &dout, L, S);
    const bool full = cmp_equal(&dout, &o) != 0, fast = quiet_equal(top, &q);
    if (full != fast) {
        std::printf("FAIL quiet/%s: trial %lu: quiet_equal() says %s, sample() and cmp_equal() %s (ports changed: %s %s)\n",
                    CFG_NAME, n, fast ? "equal" : "different", full ? "equal" : "different",
                    changed[0] >= 0 ? ports[changed[0]].name : "none", changed[1] >= 0 ? ports[changed[1]].name : "");
        return 1;
    }
    t->agree++;
    t->equal += full;
    if (!full && changed[0] >= 0 && changed[1] < 0)
        t->caught[changed[0]]++;
    return 0;
}

// Not vacuous: every port read was the one difference of a trial caught,
// and some trials were equal. 0, or 1 (its FAIL line printed).
int vacuous(const port (&ports)[NP], const tally *t)
{
    for (unsigned k = 0; k < NP; k++) {
        // the write beat's address, data and strobes are not outputs without mem_valid_o
        const bool unread = !std::strcmp(ports[k].name, "mem_addr_o") || !std::strcmp(ports[k].name, "mem_data_o") ||
                            !std::strcmp(ports[k].name, "mem_strb_o");
        if (!unread && !t->caught[k]) {
            std::printf("FAIL quiet/%s: no trial changed only %s and was caught (vacuous; more trials?)\n", CFG_NAME,
                        ports[k].name);
            return 1;
        }
    }
    if (!t->equal) {
        std::printf("FAIL quiet/%s: no trial was equal (vacuous)\n", CFG_NAME);
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    const unsigned long trials = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 200000;
    rng_state = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
    if (argc > 3 || trials == 0) {
        std::fprintf(stderr, "usage: %s [TRIALS >= 1] [SEED]\n", argv[0]);
        return 2;
    }
    const spu_config_t *c = cfg();
    if (!c) {
        std::fprintf(stderr, "%s: no configuration %s\n", argv[0], CFG_NAME);
        return 2;
    }
    port ports[NP];
    make_ports(ports, c->lanes, c->slots);
    tally t{};
    VerilatedContext ctx;
    VTOP top{&ctx, "spu_top"};
    for (unsigned long n = 0; n < trials; n++)
        if (trial(&top, ports, c->lanes, c->slots, n, &t))
            return 1;
    if (vacuous(ports, &t))
        return 1;
    std::printf("PASS quiet/%s: quiet_equal() agrees with sample() + cmp_equal() on %lu quiet cycles (%lu equal; "
                "each of the %u read ports caught alone)\n", CFG_NAME, t.agree, t.equal, NP - 3);
    return 0;
}
