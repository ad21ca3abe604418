#!/usr/bin/env bash
# make cov-code: line coverage of the RTL over a lockstep regression of every
# configuration (the coverage build of spu-tb, $BUILD = build/cov): seeds 1-4
# of 2M cycles, the collision/reset pressure profile and every hand vector;
# each run writes its own coverage file, verilator_coverage merges them into
# lcov info ($BUILD/rtl.info) and genhtml renders $BUILD/html/index.html.
# Prints line coverage per RTL file and in all, and the lines never run.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${BUILD:-build/cov}
TB=$B/spu-tb
CONFIGS=${CONFIGS:-$(${PYTHON:-python3} tools/gen_config.py --list "${CFG_SRC:-configs/spu.toml}")}
DAT=$B/dat
rm -rf "$DAT" "$B/html"
mkdir -p "$DAT"
export SPU_COVERAGE_DIR=$DAT
fail=0
runs=0
for cfg in $CONFIGS; do
    for seed in 1 2 3 4; do
        "$TB" --config "$cfg" --seed $seed --cycles 2000000 --quiet --no-progress 2>"$B/e" || { echo "cov: run failed: $cfg seed $seed: $(tail -1 "$B/e")"; fail=1; }
        runs=$((runs + 1))
    done
    "$TB" --config "$cfg" --seed 3 --cycles 2000000 --quiet --no-progress \
        --gen int_min=1,int_max=2,p_long=30,ev_density=300,reset_gap=40000 2>"$B/e" || { echo "cov: pressure run failed: $cfg"; fail=1; }
    runs=$((runs + 1))
    printf '\rcov: %s done (%d runs)   ' "$cfg" $runs >&2
done
for spt in tests/vectors/*.spt; do
    "$TB" "$spt" --quiet --no-progress --expect-vacuous 2>"$B/e" || { echo "cov: vector failed: $spt"; fail=1; }
    runs=$((runs + 1))
done
echo >&2
n=$(ls "$DAT" | wc -l)
[ "$n" -eq "$runs" ] || { echo "cov: $runs runs but $n coverage files"; fail=1; }
verilator_coverage --write-info "$B/rtl.info" "$DAT"/*.dat >/dev/null || { echo "cov: verilator_coverage failed"; exit 1; }
genhtml --quiet --output-directory "$B/html" "$B/rtl.info" >/dev/null 2>&1 || echo "cov: genhtml failed (the info file is still $B/rtl.info)"
# Per file, from the info file: lines found (LF) and hit (LH).
awk -F: '
    /^SF:/ { f = $2; sub(/.*\//, "", f) }
    /^DA:/ { split($2, a, ","); key = f ":" a[1]; if (!(key in seen)) { seen[key] = 1; found[f]++ } if (a[2] > 0 && !(key in hit)) { hit[key] = 1; got[f]++ } }
    END {
        for (f in found) { printf "  %-28s %5d / %5d lines  %6.2f %%\n", f, got[f], found[f], 100 * got[f] / found[f]; tf += found[f]; tg += got[f] }
        printf "cov: RTL line coverage %d / %d = %.2f %% over %s runs\n", tg, tf, 100 * tg / tf, RUNS
    }' RUNS="$runs" "$B/rtl.info" | sort
echo "cov: lines never run (file:line):"
awk -F: '/^SF:/ { f = $2; sub(/.*\//, "", f) } /^DA:/ { split($2, a, ","); c[f ":" a[1]] += a[2] } END { for (k in c) if (c[k] == 0) print "  " k }' "$B/rtl.info" | sort -t: -k1,1 -k2,2n | head -60
echo "cov: report $B/html/index.html, info $B/rtl.info"
exit $fail
