#!/usr/bin/env bash
# make bench-records: what the sample-record path costs (docs/benchmarks.md).
#  1. csim: records encoded per second, and callgrind instructions per record
#     (a run that keeps its records against the same run in discard mode,
#     where every record is filtered the same way but none is encoded).
#  2. lockstep cycles/s with records on (this tree) and off (the RTL, model
#     and checker before the record path, BENCH_BASE, built in
#     build/bench-base): medians of interleaved runs, and callgrind
#     instructions per checked cycle of both.
#  3. the cells Yosys synthesis gives with and without the record path.
# One core (taskset -c 0). BENCH_RUNS (3) runs of each, BENCH_CYCLES (3M).
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${BENCH_BASE:-314a882}
RUNS=${BENCH_RUNS:-3}
N=${BENCH_CYCLES:-3000000}
B=build/bench-base
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
now() { date +%s.%N; }

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores; one core used"
echo "base (records off): $BASE ($(git log -1 --format=%s "$BASE" | cut -c1-60)...)"

# ---------------------------------------------------------------- 1. csim
PEV='arm_spe_0/ts_enable=1,pa_enable=1/'
echo
echo "1. csim, v1p4, --perf-event '$PEV' --period 256 (profiling on throughout)"
rates=()
for i in $(seq "$RUNS"); do
    t0=$(now)
    $pin build/spu-csim --config v1p4 --seed 1 --ops 20000000 --perf-event "$PEV" --period 256 --quiet --stats 2>"$B.csim.txt" >/dev/null || true
    t1=$(now)
    n=$(sed -nE 's/^records written ([0-9]+) .*/\1/p' "$B.csim.txt")
    rates+=("$(awk -v n="$n" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", n / (b - a) / 1e6 }')")
done
echo "   records written per run: $n; M records/s (whole run, median of $RUNS): $(printf '%s\n' "${rates[@]}" | median)"
if command -v valgrind >/dev/null; then
    ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | sed -nE 's/.*Collected : ([0-9]+).*/\1/p'; }
    on=$(ir build/spu-csim --config v1p4 --seed 1 --ops 2000000 --perf-event "$PEV" --period 256 --quiet)
    off=$(ir build/spu-csim --config v1p4 --seed 1 --ops 2000000 --perf-event "arm_spe_0/ts_enable=1,pa_enable=1,discard=1/" --period 256 --quiet)
    recs=$(build/spu-csim --config v1p4 --seed 1 --ops 2000000 --perf-event "$PEV" --period 256 --quiet --stats 2>&1 | sed -nE 's/^records written ([0-9]+) .*/\1/p')
    echo "   callgrind, 2M ops: $on instructions with $recs records, $off in discard mode (no record encoded)"
    echo "   => $(awk -v a="$on" -v b="$off" -v n="$recs" 'BEGIN { printf "%.0f", (a - b) / n }') instructions per record encoded and written out"
fi

# ------------------------------------------------------------ 2. lockstep
if [ ! -x "$B/build/spu-tb" ]; then
    echo
    echo "building the base ($BASE) in $B ..."
    rm -rf "$B"
    git worktree prune
    git worktree add --detach "$B" "$BASE" >/dev/null
    make -s -C "$B" tb >/dev/null
fi
rate() { sed -nE 's/.* ([0-9.]+) M cycles\/s.*/\1/p' | tail -1; }
echo
echo "2. lockstep, spu-tb --config C --seed 1 --cycles $N (interleaved, median of $RUNS)"
printf "   %-9s %14s %14s %8s\n" config "records off" "records on" "on/off"
for cfg in v1p4 wide; do
    offs=() ons=()
    for i in $(seq "$RUNS"); do
        offs+=("$($pin $B/build/spu-tb --config $cfg --seed 1 --cycles "$N" --quiet --no-progress 2>&1 | rate)")
        ons+=("$($pin build/spu-tb --config $cfg --seed 1 --cycles "$N" --quiet --no-progress 2>&1 | rate)")
    done
    o=$(printf '%s\n' "${offs[@]}" | median) n=$(printf '%s\n' "${ons[@]}" | median)
    printf "   %-9s %14s %14s %8s\n" $cfg "$o" "$n" "$(awk -v a="$n" -v b="$o" 'BEGIN { printf "%.2f", a / b }')"
done
if command -v valgrind >/dev/null; then
    per() { # instructions per checked cycle: 300k-cycle run minus 100k-cycle run
        local bin=$1 a b
        a=$(ir "$bin" --config v1p4 --seed 12 --cycles 300000 --quiet --no-progress)
        b=$(ir "$bin" --config v1p4 --seed 12 --cycles 100000 --quiet --no-progress)
        awk -v a="$a" -v b="$b" 'BEGIN { printf "%.0f", (a - b) / 200000 }'
    }
    po=$(per $B/build/spu-tb) pn=$(per build/spu-tb)
    echo "   callgrind, v1p4 seed 12, (300k - 100k cycles) / 200k: $po instructions per cycle off, $pn on ($(awk -v a="$pn" -v b="$po" 'BEGIN { printf "%+.1f", 100 * (a - b) / b }') %)"
fi
echo "   target (issue 8): records cost at most 25 % of lockstep speed"

# ---------------------------------------------------------------- 3. area
if command -v yosys >/dev/null; then
    cells() { (cd "$1" && yosys -q -p "read_verilog -I$2 rtl/*.v; synth -top spu_top; tee -o /dev/stdout stat" 2>/dev/null |
                   sed -nE 's/^ +Number of cells: +([0-9]+).*/\1/p' | tail -1); }
    echo
    echo "3. Yosys synth (generic cells, the synthesis make lint runs)"
    printf "   %-9s %12s %12s %10s\n" config "records off" "records on" "added"
    for cfg in v1p4 wide-alt; do
        make -s -C "$B" build/gen/$cfg/spu_config.vh >/dev/null 2>&1 || true
        o=$(cells "$B" build/gen/$cfg) n=$(cells . build/gen/$cfg)
        printf "   %-9s %12s %12s %10s\n" $cfg "$o" "$n" "$((n - o))"
    done
fi
