#!/usr/bin/env bash
# make bench-csim: population members per second of csim's generated-stimulus
# mode on one core (taskset -c 0 when available). Each row is one run of
# `build/spu-csim --config C --seed S --ops N --quiet --stats`; "ops/s" counts
# every member offered, "enabled" those counted while profiling was enabled.
set -euo pipefail
cd "$(dirname "$0")/.."
# The configurations, from the one list in the toml.
CONFIGS=${CONFIGS:-$(${PYTHON:-python3} tools/gen_config.py --list "${CFG_SRC:-configs/spu.toml}")}
N=${BENCH_OPS:-500000000}
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores; one core used"
printf "%-9s %5s %12s %12s %8s %10s %14s\n" config seed ops enabled seconds "M ops/s" "M enabled/s"
for cfg in $CONFIGS; do
    for seed in 1 2 3; do
        out=$($pin build/spu-csim --config $cfg --seed $seed --ops "$N" --quiet --stats 2>&1 >/dev/null | grep -E '^cycles [0-9]')
        ops=$(sed -E 's/.* ops ([0-9]+) .*/\1/' <<<"$out")
        en=$(sed -E 's/.* members ([0-9]+) .*/\1/' <<<"$out")
        sec=$(sed -E 's/.* ([0-9.]+) s .*/\1/' <<<"$out")
        rate=$(sed -E 's/.* ([0-9.]+) M ops\/s.*/\1/' <<<"$out")
        erate=$(awk -v e="$en" -v t="$sec" 'BEGIN { printf "%.1f", (t > 0) ? e / t / 1e6 : 0 }')
        printf "%-9s %5s %12s %12s %8s %10s %14s\n" $cfg $seed "$ops" "$en" "$sec" "$rate" "$erate"
    done
done
echo "target: >= 100 M members/s (issue 2); skipping ahead is on (csim --no-skip steps every cycle)"
