#!/usr/bin/env bash
# check-gen: (1) the generated files are exactly what the generator makes now
# from configs/spu.toml (nothing stale, nothing hand-edited); (2) for every
# configuration, the C header and the Verilog include give every constant the
# same value (a C program and an Icarus program print them; the dumps must match).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
$PYTHON tools/gen_config.py configs/spu.toml "$tmp/gen"
if ! diff -r "$tmp/gen" "${BUILD:-build}/gen" >"$tmp/diff.txt"; then
    echo "check-gen: ${BUILD:-build}/gen differs from a fresh expansion of configs/spu.toml:"
    head -20 "$tmp/diff.txt"
    fail=1
fi
# rtl/include/spu_config.vh is the default configuration's include,
# committed so the RTL lints and elaborates with no build step
# (`verilator --lint-only -Wall -Irtl/include rtl/*.v`); it must be exactly
# what the generator makes for v1p4.
# So are the port includes (configs/spu.toml [ports]) beside it, and the
# port table of docs/ports.md.
DEFAULT_VH=${DEFAULT_VH:-rtl/include}
for f in $(cd "$tmp/gen/v1p4" && ls | grep -v '^dump_cfg'); do
    if ! cmp -s "$tmp/gen/v1p4/$f" "$DEFAULT_VH/$f"; then
        echo "check-gen: $DEFAULT_VH/$f differs from the expansion of configs/spu.toml for v1p4 (make rtl-default-vh):"
        diff "$tmp/gen/v1p4/$f" "$DEFAULT_VH/$f" | head -6
        fail=1
    fi
done
$PYTHON tools/gen_docs_table.py --check "${DOCS_PORTS:-docs/ports.md}" "$tmp/gen/ports.md" || fail=1
${CC:-gcc} -std=c11 -Wall -Werror -I"$tmp/gen" "$tmp/gen/dump_cfg.c" "$tmp/gen/spu_config.c" -o "$tmp/dump_c"
n=0
for d in "$tmp"/gen/*/; do
    cfg=$(basename "$d")
    "$tmp/dump_c" "$cfg" >"$tmp/c_$cfg.txt"
    ${IVERILOG:-iverilog} -g2005 -I"$d" -o "$tmp/dump_$cfg.vvp" "$d/dump_cfg.v"
    ${VVP:-vvp} -n "$tmp/dump_$cfg.vvp" | grep -v -E '^(VCD|.*\$finish)' >"$tmp/v_$cfg.txt"
    if [ ! -s "$tmp/c_$cfg.txt" ] || ! diff "$tmp/c_$cfg.txt" "$tmp/v_$cfg.txt" >"$tmp/d_$cfg.txt"; then
        echo "check-gen: C and Verilog disagree for configuration $cfg:"
        head -20 "$tmp/d_$cfg.txt"
        fail=1
    fi
    n=$((n + $(wc -l <"$tmp/c_$cfg.txt")))
done
[ "$n" -gt 0 ] || { echo "check-gen: compared nothing"; exit 1; }
[ $fail -eq 0 ] && echo "check-gen: ok ($n constants agree across C and Verilog)"
exit $fail
