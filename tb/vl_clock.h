// One eval per clock cycle of a Verilated model, where the Verilator allows
// it. Every eval() re-runs the input-combinational region (Verilator 5
// "ico"), so the usual rise-eval/fall-eval costs that region twice. Where
// this Verilator names the clock's edge-detect state
// __Vtrigrprev__TOP__clk_i (5.006 does), vl_rise_once() clears it and
// evaluates once with clk_i = 1: the rising edge is seen exactly as after a
// falling eval. That variable is Verilator-internal, so the shortcut is only
// an option: it returns false (and does nothing) for a model without that
// member, and the caller then toggles the clock for real. Used by the
// checker's shim (tb/dut_shim.cpp) and the bare replay main
// (bench/vl_replay.cpp); spu-tb --full-clock runs the real toggle and the
// test suite requires identical logs both ways.
#ifndef SPU_VL_CLOCK_H
#define SPU_VL_CLOCK_H

#include <type_traits>
#include <utility>

template <typename T, typename = void> struct vl_has_trig_prev : std::false_type {};
template <typename T>
struct vl_has_trig_prev<T, std::void_t<decltype(std::declval<T &>().__Vtrigrprev__TOP__clk_i)>> : std::true_type {};

template <typename R, typename Top> bool vl_rise_once(R *root, Top *top)
{
    if constexpr (vl_has_trig_prev<R>::value) {
        root->__Vtrigrprev__TOP__clk_i = 0;
        top->clk_i = 1;
        top->eval();
        return true;
    } else {
        (void)root;
        (void)top;
        return false;
    }
}

#endif
