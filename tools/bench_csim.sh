#!/usr/bin/env bash
# make bench-csim: population members per second of csim's generated-stimulus
# mode on one core (taskset -c 0 when available). Each row is one run of
# `build/spu-csim --config C --seed S --ops N --quiet --stats-json F`; "ops/s"
# counts every member offered, "enabled" those counted while profiling was
# enabled.
set -euo pipefail
cd "$(dirname "$0")/.."
# The configurations, from the one list in the toml.
CONFIGS=${CONFIGS:-$(${PYTHON:-python3} tools/gen_config.py --list "${CFG_SRC:-configs/spu.toml}")}
N=${BENCH_OPS:-500000000}
J=$(mktemp)
trap 'rm -f "$J"' EXIT
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores; one core used"
printf "%-9s %5s %12s %12s %8s %10s %14s\n" config seed ops enabled seconds "M ops/s" "M enabled/s"
for cfg in $CONFIGS; do
    for seed in 1 2 3; do
        $pin build/spu-csim --config $cfg --seed $seed --ops "$N" --quiet --stats-json "$J" >/dev/null
        read -r ops en sec < <(${PYTHON:-python3} tests/json_get.py "$J" ops members seconds | paste -sd' ')
        rate=$(awk -v o="$ops" -v t="$sec" 'BEGIN { printf "%.1f", (t > 0) ? o / t / 1e6 : 0 }')
        erate=$(awk -v e="$en" -v t="$sec" 'BEGIN { printf "%.1f", (t > 0) ? e / t / 1e6 : 0 }')
        printf "%-9s %5s %12s %12s %8s %10s %14s\n" $cfg $seed "$ops" "$en" "$sec" "$rate" "$erate"
    done
done
echo "target: >= 100 M members/s (issue 2); skipping ahead is on (csim --no-skip steps every cycle)"
