#!/usr/bin/env bash
# make lint: the RTL with verilator -Wall for every configuration (waivers, if
# any, only in rtl/*.vlt with a reason), Icarus and the C with -Werror.
set -euo pipefail
cd "$(dirname "$0")/.."
VERILATOR=${VERILATOR:-verilator}
fail=0
shopt -s nullglob
vlt=(rtl/*.vlt)
for d in build/gen/*/; do
    cfg=$(basename "$d")
    if out=$($VERILATOR --lint-only -Wall "${vlt[@]}" -I"$d" -Irtl rtl/*.v --top-module spu_top 2>&1) && [ -z "$out" ]; then
        echo "lint: verilator -Wall $cfg clean"
    else
        echo "lint: verilator -Wall $cfg:"; echo "$out" | head -20; fail=1
    fi
    if ! out=$(iverilog -g2005 -Wall -I"$d" -Irtl -s spu_top -o /dev/null rtl/*.v 2>&1) || [ -n "$out" ]; then
        echo "lint: iverilog $cfg:"; echo "$out" | head -20
        [ -n "$(echo "$out" | grep -v 'warning: @\* is sensitive to all' || true)" ] && fail=1
    else
        echo "lint: iverilog -g2005 $cfg clean"
    fi
done
# The C is compiled with -Werror by every build; this builds it all.
make -s csim build/spu-spec-tests >/dev/null && echo "lint: C (-Wall -Wextra -Wpedantic -Werror) clean"
exit $fail
