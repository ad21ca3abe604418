// The one C++ file: wraps a Verilated spu_top behind the C API of dut.h.
// Compiled once per configuration with -DVTOP=Vspu_<cfg> -DVTOP_HDR="..."
// -DCFG_NAME="<cfg>" -DCFG_ID=<cfg identifier>; for a mutant netlist of
// make mutate also with -DSPU_MUTANTS=<number of mutants> (its extra ports
// mutsel and mut_act_o, tools/mutate_rtl_netlist.py); for a build of the
// APB wrapper spu_apb with -DSPU_APB (its APB ports instead of the register
// port's inputs); for a model Verilated with tracing also with -DSPU_TRACE
// (waves: trace_open and trace_close, which are null without it).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <memory>

#include "verilated.h"
#ifdef SPU_TRACE
#include "verilated_fst_c.h"
#endif
#include VTOP_HDR
#include VROOT_HDR

#include "dut.h"
#include "vl_clock.h"

#ifndef RTL_DIGEST
#define RTL_DIGEST "unknown"
#endif
#define STR2(x) #x
#define STR(x) STR2(x)

VL_DECLARE_REGIONS(VTOP)

struct spu_dut {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<VTOP> top;
#ifdef SPU_TRACE
    VerilatedFstC *fst = nullptr;  // open: a wave is being written (both clock edges, for real)
#else
    static constexpr const void *fst = nullptr;  // a model without tracing writes no wave
#endif
    uint64_t time = 0;
    const spu_config_t *cfg = nullptr;
    bool full_clock = false;     // an eval on each clock edge (no shortcut)
    bool piped = false;          // input stage: clk_i and ld_i in one step (outputs one step late)
    vl_clocking<VL_ROOT_T(VTOP)> clocking{};  // how its clocks are raised, chosen once (vl/vl_clock.h)
    uint64_t evals = 0;          // evaluations in step(), to show which way ran
};

namespace {

// Port widths follow the parameters, so Verilator picks CData..QData or VlWide.
template <typename T> void put(T &d, unsigned lsb, unsigned w, uint64_t v)
{
    const T m = (T)(((w >= 64) ? ~0ull : ((1ull << w) - 1)) << lsb);
    d = (T)((d & ~m) | (((T)v << lsb) & m));
}
template <std::size_t N> void put(VlWide<N> &d, unsigned lsb, unsigned w, uint64_t v)
{
    // Wide ports carry whole 64- or 16-bit fields at 64/16-aligned offsets,
    // so a field spans at most two 32-bit words (a word at a time, not a bit).
    while (w) {
        const unsigned word = lsb / 32, off = lsb % 32;
        const unsigned n = w < 32 - off ? w : 32 - off;
        const EData m = (EData)((n >= 32 ? 0xFFFFFFFFull : ((1ull << n) - 1)) << off);
        d[word] = (d[word] & ~m) | ((EData)(v << off) & m);
        v >>= n;
        lsb += n;
        w -= n;
    }
}
template <typename T> uint64_t get(const T &d, unsigned lsb, unsigned w)
{
    return ((uint64_t)d >> lsb) & ((w >= 64) ? ~0ull : ((1ull << w) - 1));
}
// The bits of a port ORed together (nonzero when any bit is set).
template <typename T> uint64_t bits(const T &d) { return (uint64_t)d; }
template <std::size_t N> uint64_t bits(const VlWide<N> &d)
{
    EData a = 0;
    for (std::size_t i = 0; i < N; i++)
        a |= d[i];
    return a;
}

// Every port is driven and sampled through the X-macros of spu_ports.h
// (configs/spu.toml [ports]), dispatched on its packing. An input with a
// gate is written only while its gate holds; otherwise it keeps the last
// payload, as a core's buses do. The model ignores it, so a DUT that looked
// at a payload without its valid bit would show a difference.
#define DRIVE_ONE(port, m, w) \
    if (SPU_GATE_##m(in, 0))   \
        t->port = in->m;
#define DRIVE_LANES(port, m, w) t->port = in->m & lanes_mask;
#define DRIVE_PORTS(port, m, w) t->port = in->m & ports_mask;
#define DRIVE_LANE(port, m, w)                 \
    for (unsigned l = 0; l < lanes; l++)       \
        if (SPU_GATE_##m(in, l))               \
            put(t->port, (w) * l, (w), in->m[l]);
#define DRIVE_PORT(port, m, w) \
    if (SPU_GATE_##m(in, p))   \
        put(t->port, (w) * p, (w), in->m[p]);
#define DRIVE_SCALAR(port, m, PACK, w) DRIVE_S_##PACK(port, m, w)
#define DRIVE_S_ONE DRIVE_ONE
#define DRIVE_S_LANES DRIVE_LANES
#define DRIVE_S_PORTS DRIVE_PORTS
#define DRIVE_S_LANE DRIVE_LANE
#define DRIVE_S_PORT(port, m, w)
#define DRIVE_S_PMU(port, m, w)
#define DRIVE_PER_PORT(port, m, PACK, w) DRIVE_P_##PACK(port, m, w)
#define DRIVE_P_ONE(port, m, w)
#define DRIVE_P_LANES(port, m, w)
#define DRIVE_P_PORTS(port, m, w)
#define DRIVE_P_LANE(port, m, w)
#define DRIVE_P_PORT DRIVE_PORT
#define DRIVE_P_PMU(port, m, w)

// The inputs but the per-port ones (drive() adds those).
void drive_common(VTOP *t, const spu_in_t *in, unsigned lanes, unsigned slots)
{
    const unsigned lanes_mask = (1u << lanes) - 1, ports_mask = (1u << slots) - 1;
    (void)lanes_mask;
    (void)ports_mask;
    SPU_IN_PORTS(DRIVE_SCALAR)
#ifdef SPU_APB
    t->psel_i = 0; /* step_apb() drives the bus; step() leaves it idle */
#else
    SPU_REG_PORTS(DRIVE_SCALAR)
#endif
}

void drive(VTOP *t, const spu_in_t *in, unsigned lanes, unsigned slots)
{
    drive_common(t, in, lanes, slots);
    for (unsigned p = 0; SPU_IN_PORTS_LIVE(in) && p < slots; p++) {
        SPU_IN_PORTS(DRIVE_PER_PORT)
    }
}

// The bits of the ports of each packing ORed together: nonzero when some
// element is set.
#define SAMPLE_ONE(port, m, w) \
    if (SPU_GATE_##m(o, 0))    \
        o->m = t->port;
#define SAMPLE_LANE(port, m, w)                       \
    for (unsigned l = 0; bits(t->port) && l < lanes; l++) \
        o->m[l] = get(t->port, (w) * l, (w));
#define SAMPLE_PORT(port, m, w) o->m[p] = get(t->port, (w) * p, (w));
#define SAMPLE_SCALAR(port, m, PACK, w) SAMPLE_S_##PACK(port, m, w)
#define SAMPLE_S_ONE SAMPLE_ONE
#define SAMPLE_S_LANES SAMPLE_ONE
#define SAMPLE_S_PORTS SAMPLE_ONE
#define SAMPLE_S_LANE SAMPLE_LANE
#define SAMPLE_S_PORT(port, m, w)
#define SAMPLE_S_PMU(port, m, w) sample_pmu((uint64_t)t->port, o->m);
#define SAMPLE_PER_PORT(port, m, PACK, w) SAMPLE_P_##PACK(port, m, w)
#define SAMPLE_P_ONE(port, m, w)
#define SAMPLE_P_LANES(port, m, w)
#define SAMPLE_P_PORTS(port, m, w)
#define SAMPLE_P_LANE(port, m, w)
#define SAMPLE_P_PORT SAMPLE_PORT
#define SAMPLE_P_PMU(port, m, w)
#define PORT_BITS(port, m, PACK, w) PORT_BITS_##PACK(port)
#define PORT_BITS_ONE(port)
#define PORT_BITS_LANES(port)
#define PORT_BITS_PORTS(port)
#define PORT_BITS_LANE(port)
#define PORT_BITS_PORT(port) | bits(t->port)
#define PORT_BITS_PMU(port)

// pmu_o packs SAMPLE_<NAME> at [SPU_PMU_W * SPU_PMU_<NAME> +: SPU_PMU_W],
// the configs/spu.toml order of out.pmu[]. Most cycles count at most
// SAMPLE_POP: one field to unpack instead of every one.
inline void sample_pmu(uint64_t pmu, uint8_t *out)
{
    static_assert(SPU_PMU_W * SPU_NPMU <= 64, "pmu_o is read as one 64-bit word");
    constexpr uint64_t field = (1ull << SPU_PMU_W) - 1;
    if (!(pmu & ~(field << (SPU_PMU_W * SPU_PMU_POP))))
        out[SPU_PMU_POP] = (uint8_t)(pmu >> (SPU_PMU_W * SPU_PMU_POP));
    else
        for (unsigned i = 0; i < SPU_NPMU; i++)
            out[i] = (uint8_t)((pmu >> (SPU_PMU_W * i)) & field);
}

// Always inlined: step() runs it every cycle, and a second caller (outputs())
// would otherwise keep it out of line, a call more each cycle.
[[gnu::always_inline]] inline void sample(const VTOP *t, spu_out_t *o, unsigned lanes, unsigned slots)
{
    // Cleared in two parts: a 64-byte and a short memset become a few
    // vector stores, one of 96 bytes a `rep stos` (slow to start, every cycle).
    static_assert(sizeof(spu_out_t) > 64 && sizeof(spu_out_t) <= 128, "clear spu_out_t in two parts");
    std::memset(o, 0, 64);
    std::memset(reinterpret_cast<char *>(o) + 64, 0, sizeof *o - 64);
    SPU_OUT_PORTS(SAMPLE_SCALAR)
    // Most cycles have no record: every field of every port is zero then,
    // and one OR of the ports shows it (any bit set: the fields are read).
    const uint64_t port_bits = 0 SPU_OUT_PORTS(PORT_BITS);
    for (unsigned p = 0; port_bits && p < slots; p++) {
        SPU_OUT_PORTS(SAMPLE_PER_PORT)
    }
}

const spu_config_t *cfg() { return spu_config_find(CFG_NAME); }

spu_dut_t *create(uint64_t init_seed, int full_clock, int piped)
{
    const spu_config_t *c = cfg();
    if (!c)
        return nullptr;
    auto *d = new spu_dut;
    d->cfg = c;
    d->full_clock = full_clock != 0;
    d->piped = vl_has_ld<VTOP> && piped;
    d->ctx.reset(new VerilatedContext);
    // X initialisation: random values, seeded (Verilator needs seed >= 1).
    // The coverage build (make cov-code) starts from zeros instead, and
    // drives both clock edges: random initial values would all change at
    // the first reset and count every register bit as toggled, and the
    // one-eval shortcuts leave the clocks and their edge state as a real
    // clock would not. The regular build checks with random X values and
    // the shortcut.
    char seed[48];
    std::snprintf(seed, sizeof seed, "+verilator+seed+%llu", (unsigned long long)(init_seed ? init_seed : 1));
#if VM_COVERAGE
    const char *argv[] = {"spu-tb", "+verilator+rand+reset+0", seed};
    d->full_clock = true;
#else
    const char *argv[] = {"spu-tb", "+verilator+rand+reset+2", seed};
#endif
    d->ctx->commandArgs(3, argv);
#ifdef SPU_TRACE
    d->ctx->traceEverOn(true);
#endif
    d->top.reset(new VTOP{d->ctx.get(), "spu_top"});
    d->clocking = vl_pick(d->top->rootp, d->top.get(), VL_REGIONS(VTOP), d->full_clock);
    return d;
}

#if VM_COVERAGE
// make cov-code: each run writes its coverage to a new file in
// $SPU_COVERAGE_DIR (never overwriting one of another run).
void write_coverage(spu_dut_t *d)
{
    const char *dir = std::getenv("SPU_COVERAGE_DIR");
    if (!dir)
        return;
    char path[4096];
    for (unsigned n = 0; n < 100000; n++) {
        std::snprintf(path, sizeof path, "%s/%s-%ld-%u.dat", dir, CFG_NAME, (long)getpid(), n);
        const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd >= 0) {
            close(fd);
            d->ctx->coveragep()->write(path);
            return;
        }
    }
    std::fprintf(stderr, "warning: no coverage file could be created in %s\n", dir);
}
#endif

void destroy(spu_dut_t *d)
{
#if VM_COVERAGE
    write_coverage(d);
#endif
#ifdef SPU_TRACE
    if (d->fst) {
        d->fst->close();
        delete d->fst;
    }
#endif
    d->top->final();
    delete d;
}

// Raise the clocks: one evaluation where the Verilator allows it
// (vl/vl_clock.h), both edges for real while tracing or with full_clock.
void edge(spu_dut_t *d, unsigned clocks)
{
    VTOP *t = d->top.get();
    if (!d->fst && vl_rise(t->rootp, t, clocks, d->clocking)) {
        d->evals++;
        return;
    }
    d->evals += vl_toggle(t, clocks, [d] {
#ifdef SPU_TRACE
        if (d->fst)
            d->fst->dump(d->time);
#endif
        d->time += 5;
    });
}

// One step: behind the input stage, piped, clk_i and ld_i at once;
// unpiped, ld_i and then clk_i. Without it, clk_i.
void tick(spu_dut_t *d)
{
    if (vl_has_ld<VTOP> && !d->piped) {
        edge(d, VL_LD);
        edge(d, VL_CLK);
    } else {
        edge(d, vl_clocks<VTOP>);
    }
}

uint64_t evals(const spu_dut_t *d) { return d->evals; }

const char *clocking_says(const spu_dut_t *d) { return vl_way_says(d->clocking); }

#ifdef SPU_MUTANTS
int set_mutant(spu_dut_t *d, unsigned k)
{
    if (k > SPU_MUTANTS)
        return -1;
    d->top->mutsel = k;
    return 0;
}

int mutant_activated(const spu_dut_t *d) { return d->top->mut_act_o != 0; }
#define MUTANT_FNS set_mutant, mutant_activated
#else
#define MUTANT_FNS nullptr, nullptr
#endif

void reset(spu_dut_t *d)
{
    spu_in_t in;
    std::memset(&in, 0, sizeof in);
    in.rst_n = 1;
    drive(d->top.get(), &in, d->cfg->lanes, d->cfg->slots);
    vl_reset_sequence(d->top.get(), [d] { tick(d); });
}

void step(spu_dut_t *d, const spu_in_t *in, spu_out_t *out)
{
    const spu_config_t *c = d->cfg;
    drive(d->top.get(), in, c->lanes, c->slots);
    tick(d);
    sample(d->top.get(), out, c->lanes, c->slots);
}

// What sample() would unpack, checked in place against a quiet cycle:
// every port sample() reads is zero, except those q gives (the gated
// outputs, SPU_OUT_GATED, are not read: their gates are zero). Always
// inlined into its two callers, each run every cycle (a call costs 14
// instructions a cycle on v1p4).
[[gnu::always_inline]] inline bool quiet_equal(const VTOP *t, const spu_quiet_t *q)
{
#define QUIET_ZERO(port, m, PACK, w) | bits(t->port)
#define QUIET_SAME(port, m, PACK, w) | ((uint64_t)t->port ^ (uint64_t)q->m)
    const uint64_t pmu = (uint64_t)q->pop << (SPU_PMU_W * SPU_PMU_POP);
    const uint64_t differ = ((uint64_t)t->pmu_o ^ pmu) SPU_OUT_QUIET_ZERO(QUIET_ZERO) SPU_OUT_CARRIED(QUIET_SAME);
#undef QUIET_ZERO
#undef QUIET_SAME
    return differ == 0;
}

unsigned step_block(spu_dut_t *d, const spu_block_t *b, unsigned k, const spu_quiet_t *q)
{
    VTOP *t = d->top.get();
    const unsigned lanes = (1u << d->cfg->lanes) - 1;
    if (!k)
        return 0;
    spu_in_t in;
    std::memset(&in, 0, sizeof in);
    in.rst_n = 1;
    in.pop_valid = b->pop_mask[0];
    in.ts = b->cycle;
    in.el = b->el;
    in.prof_allowed = b->prof_allowed;
    in.mem_ready = 1;
    drive_common(t, &in, d->cfg->lanes, d->cfg->slots); /* every input; the later steps change two */
    spu_quiet_t e = *q;
    for (unsigned i = 0;;) {
        tick(d);
        if (!quiet_equal(t, &e))
            return i;
        if (++i == k)
            return k;
        t->pop_valid_i = b->pop_mask[i] & lanes;
        t->ts_i = b->cycle + i;
        e.pop = b->npop[i - 1];
        e.obs_pmsicr = b->pmsicr[i - 1];
    }
}

int step_check_quiet(spu_dut_t *d, const spu_in_t *in, const spu_quiet_t *q)
{
    const spu_config_t *c = d->cfg;
    drive(d->top.get(), in, c->lanes, c->slots);
    tick(d);
    return quiet_equal(d->top.get(), q);
}

void outputs(const spu_dut_t *d, spu_out_t *out)
{
    sample(d->top.get(), out, d->cfg->lanes, d->cfg->slots);
}

#ifdef SPU_APB
// The APB inputs after the unit's (drive() leaves the bus idle).
void step_apb(spu_dut_t *d, const spu_in_t *in, const spu_apb_in_t *ai, spu_out_t *out, spu_apb_out_t *ao)
{
    const spu_config_t *c = d->cfg;
    VTOP *t = d->top.get();
    drive(t, in, c->lanes, c->slots);
    t->psel_i = ai->psel;
    t->penable_i = ai->penable;
    t->pwrite_i = ai->pwrite;
    t->paddr_i = ai->paddr;
    t->pwdata_i = ai->pwdata;
    t->pstrb_i = ai->pstrb;
    t->pprot_i = ai->pprot;
    tick(d);
    sample(t, out, c->lanes, c->slots);
    ao->prdata = t->prdata_o;
    ao->pready = t->pready_o;
    ao->pslverr = t->pslverr_o;
}
#define APB_FNS 1, step_apb
#else
#define APB_FNS 0, nullptr
#endif

#ifdef SPU_TRACE
int trace_open(spu_dut_t *d, const char *path)
{
    if (d->fst)
        return 0;
    d->fst = new VerilatedFstC;
    d->top->trace(d->fst, 99);
    d->fst->open(path);
    return d->fst->isOpen() ? 0 : -1;
}

void trace_close(spu_dut_t *d)
{
    if (!d->fst)
        return;
    d->fst->close();
    delete d->fst;
    d->fst = nullptr;
}
#define TRACE_FNS trace_open, trace_close
#else
#define TRACE_FNS nullptr, nullptr
#endif

} // namespace

#define VTBL2(id) spu_dut_vtbl_##id
#define VTBL(id) VTBL2(id)
extern "C" const spu_dut_vtbl_t VTBL(CFG_ID) = {
    CFG_NAME, STR(VTOP) " built " __DATE__ " " __TIME__ " rtl " RTL_DIGEST,
    create, destroy, reset, step, step_check_quiet, step_block, outputs, TRACE_FNS, evals, clocking_says, MUTANT_FNS, APB_FNS, vl_has_ld<VTOP>,
};
