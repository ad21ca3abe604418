#!/usr/bin/env bash
# make bench: lockstep cycles/s and DUT-only cycles/s (the same Verilated
# model and stimulus, no golden model, no compare) per configuration, on one
# core, and where the time goes (perf, when the machine allows it).
set -euo pipefail
cd "$(dirname "$0")/.."
# The configurations, from the one list in the toml.
CONFIGS=${CONFIGS:-$(${PYTHON:-python3} tools/gen_config.py --list "${CFG_SRC:-configs/spu.toml}")}
N=${BENCH_CYCLES:-4000000}
SEED=${BENCH_SEED:-1}
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
rate() { sed -nE 's/.* ([0-9.]+) M cycles\/s.*/\1/p' | tail -1; }
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores; one core used"
echo "command: build/spu-tb --config C --seed $SEED --cycles $N --quiet [--dut-only]"
printf "%-9s %16s %16s %8s\n" config "lockstep Mc/s" "DUT-only Mc/s" ratio
for cfg in $CONFIGS; do
    ls=$($pin build/spu-tb --config $cfg --seed $SEED --cycles "$N" --quiet --no-progress 2>&1 | rate)
    du=$($pin build/spu-tb --config $cfg --seed $SEED --cycles "$N" --quiet --no-progress --dut-only 2>&1 | rate)
    printf "%-9s %16s %16s %8s\n" $cfg "$ls" "$du" "$(awk -v a="$ls" -v b="$du" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')"
done
echo "targets (issue 3): lockstep >= 20 M cycles/s for v1p4; lockstep >= 0.5 x DUT-only"
if command -v perf >/dev/null && perf record -q -o build/bench.perf -- true >/dev/null 2>&1; then
    $pin perf record -q -o build/bench.perf -- build/spu-tb --config v1p4 --seed $SEED --cycles "$N" --quiet --no-progress >/dev/null 2>&1
    echo "where the time goes (v1p4 lockstep, perf samples by part):"
    perf report -i build/bench.perf --no-children --stdio --sort sym 2>/dev/null | awk '
        /^ +[0-9.]+%/ {
            p = $1; sub("%", "", p); s = $NF
            if (s ~ /Vspu|Verilated|verilated/) part = "Verilated DUT (model code and its scheduler)"
            else if (s ~ /^spu_/) part = "golden model"
            else if ($0 ~ /anonymous namespace/) part = "C++ shim (ports in and out)"
            else part = "harness (stimulus, core model, log, compare)"
            sum[part] += p
        }
        END { for (k in sum) printf "  %5.1f %%  %s\n", sum[k], k }' | sort -rn
    perf report -i build/bench.perf --no-children --stdio --sort sym 2>/dev/null | grep -E '^ +[0-9]' | head -8 | sed 's/^/  /'
else
    echo "(perf is not usable here; run 'make deps' as root, or valgrind --tool=callgrind)"
fi
