// The clock and reset of a Verilated spu_top, for every C++ harness.
// One evaluation per clock cycle, where the Verilator allows it: every eval()
// re-runs the input-combinational region (Verilator 5 "ico"), so the usual
// rise-eval/fall-eval costs that region twice. Two shortcuts, both through
// Verilator-internal names, so both are options that fall back to the next:
//  - vl_rise_direct() (Verilator 5.006): the three regions of one rising
//    edge called directly, in eval()'s order (input-combinational, active,
//    NBA), with the trigger bits eval() would compute set around each. It
//    skips eval()'s scheduler loops, which re-check triggers that cannot
//    fire (about 130 instructions a cycle on v1p4, docs/performance.md).
//    Only where the model has exactly one trigger per region, the clock's
//    (checked at compile time), and the region functions are there (weak
//    references: null in a model of another Verilator).
//  - vl_rise_once(): where the Verilator names the clock's edge-detect
//    state (5.006: __Vtrigrprev__TOP__clk_i; 5.049:
//    __Vtrigprevexpr___TOP__clk_i__0), it clears it and evaluates once with
//    clk_i = 1: the rising edge is seen exactly as after a falling eval.
// A model with neither returns false from both (and nothing was done); the
// caller then toggles the clock for real. Used by the checker's shim
// (tb/dut_shim.cpp) and the bare replay main (bench/vl_replay.cpp);
// spu-tb --full-clock runs the real toggle, the test suite requires
// identical logs both ways (with the default Verilator), and make
// bench-levers compares them for every build lever (another Verilator too).
#ifndef SPU_VL_CLOCK_H
#define SPU_VL_CLOCK_H

#include <type_traits>
#include <utility>

#include "verilated.h"

template <typename T, typename = void> struct vl_prev_5006 : std::false_type {};
template <typename T>
struct vl_prev_5006<T, std::void_t<decltype(std::declval<T &>().__Vtrigrprev__TOP__clk_i)>> : std::true_type {};
template <typename T, typename = void> struct vl_prev_5049 : std::false_type {};
template <typename T>
struct vl_prev_5049<T, std::void_t<decltype(std::declval<T &>().__Vtrigprevexpr___TOP__clk_i__0)>> : std::true_type {};

template <typename R, typename Top> bool vl_rise_once(R *root, Top *top)
{
    if constexpr (vl_prev_5006<R>::value)
        root->__Vtrigrprev__TOP__clk_i = 0;
    else if constexpr (vl_prev_5049<R>::value)
        root->__Vtrigprevexpr___TOP__clk_i__0 = 0;
    else {
        (void)root;
        (void)top;
        return false;
    }
    top->clk_i = 1;
    top->eval();
    return true;
}

// The region functions of Verilator 5.006's model VTOP (the class prefix,
// e.g. Vspu_v1p4), declared weak: null where the model has none (another
// Verilator names them differently). VL_REGIONS(VTOP) is a vl_regions.
template <typename R> struct vl_regions {
    void (*ico)(R *);
    void (*act)(R *);
    void (*nba)(R *);
};
#define VL_PASTE_(a, b) a##b
#define VL_PASTE(a, b) VL_PASTE_(a, b)
#define VL_ROOT_T(top) VL_PASTE(top, ___024root)
#define VL_DECLARE_REGIONS(top)                                                                                    \
    void VL_PASTE(top, ___024root___eval_ico)(VL_ROOT_T(top) *) __attribute__((weak));                            \
    void VL_PASTE(top, ___024root___eval_act)(VL_ROOT_T(top) *) __attribute__((weak));                            \
    void VL_PASTE(top, ___024root___eval_nba)(VL_ROOT_T(top) *) __attribute__((weak));
#define VL_REGIONS(top)                                                                                            \
    (vl_regions<VL_ROOT_T(top)>{VL_PASTE(top, ___024root___eval_ico), VL_PASTE(top, ___024root___eval_act),     \
                                VL_PASTE(top, ___024root___eval_nba)})

// A 5.006 model with one trigger per region: the clock's rising edge.
template <typename R, typename = void> struct vl_direct_ok : std::false_type {};
template <typename R>
struct vl_direct_ok<R, std::void_t<decltype(std::declval<R &>().__Vtrigrprev__TOP__clk_i),
                                   decltype(std::declval<R &>().__VicoTriggered),
                                   decltype(std::declval<R &>().__VactTriggered),
                                   decltype(std::declval<R &>().__VnbaTriggered)>>
    : std::bool_constant<std::is_same_v<decltype(R::__VicoTriggered), VlTriggerVec<1>> &&
                         std::is_same_v<decltype(R::__VactTriggered), VlTriggerVec<1>> &&
                         std::is_same_v<decltype(R::__VnbaTriggered), VlTriggerVec<1>>> {};

// One rising edge of clk_i as eval() runs it, without its scheduler: the
// input-combinational region (its one trigger: the first iteration), the
// clock's edge (active region), the NBA region; every trigger cleared after,
// as eval() leaves them. The model must have had one real eval() (its
// initialisation; the reset sequence gives it). false: not possible here.
template <typename R, typename Top> bool vl_rise_direct(R *root, Top *top, const vl_regions<R> &f)
{
    if constexpr (vl_direct_ok<R>::value) {
        if (!f.ico || !f.act || !f.nba)
            return false;
        top->clk_i = 1;
        root->__VicoTriggered.at(0) = 1;
        f.ico(root);
        root->__VicoTriggered.at(0) = 0;
        root->__Vtrigrprev__TOP__clk_i = 1;
        root->__VactTriggered.at(0) = 1;
        f.act(root);
        root->__VactTriggered.at(0) = 0;
        root->__VnbaTriggered.at(0) = 1;
        f.nba(root);
        root->__VnbaTriggered.at(0) = 0;
        return true;
    } else {
        (void)root;
        (void)top;
        (void)f;
        return false;
    }
}

// The reset sequence of every harness (docs/ports.md): an uninitialised
// reset has no edge, so rst_ni is 1 (evaluated with clk_i 0), then 0 for
// two clocks (tick() gives one), then 1. The other inputs are the caller's.
template <typename Top, typename Tick> void vl_reset_sequence(Top *top, Tick tick)
{
    top->rst_ni = 1;
    top->clk_i = 0;
    top->eval();
    top->rst_ni = 0;
    tick();
    tick();
    top->rst_ni = 1;
    top->eval();
}

#endif
