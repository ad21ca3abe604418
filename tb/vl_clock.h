// The clock and reset of a Verilated spu_top, for every C++ harness.
// One eval per clock cycle, where the Verilator allows it: every eval()
// re-runs the input-combinational region (Verilator 5 "ico"), so the usual
// rise-eval/fall-eval costs that region twice. Where
// the Verilator names the clock's edge-detect state (5.006:
// __Vtrigrprev__TOP__clk_i; 5.049: __Vtrigprevexpr___TOP__clk_i__0),
// vl_rise_once() clears it and evaluates once with clk_i = 1: the rising
// edge is seen exactly as after a falling eval. That state is
// Verilator-internal, so the shortcut is only an option: vl_rise_once()
// returns false (and does nothing) for a model with neither member, and the
// caller then toggles the clock for real. Used by the checker's shim
// (tb/dut_shim.cpp) and the bare replay main (bench/vl_replay.cpp);
// spu-tb --full-clock runs the real toggle, the test suite requires
// identical logs both ways (with the default Verilator), and make
// bench-levers compares them for every build lever (another Verilator too).
#ifndef SPU_VL_CLOCK_H
#define SPU_VL_CLOCK_H

#include <type_traits>
#include <utility>

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
