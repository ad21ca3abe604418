#!/usr/bin/env bash
# make cov-code: line and toggle coverage of the RTL over the lockstep
# regression (the coverage build of spu-tb, $BUILD = build/cov): the jobs of
# make regress ($REGRESS_ARGS, run by tools/regress.py, shards included) and
# every hand vector. Each run writes its own coverage file; verilator_coverage
# merges them, tools/cov_dat.py splits the merge into line points (statements
# and branch arms) and toggle points and reports both per file, and genhtml
# renders $BUILD/html (lines) and $BUILD/html-toggle. Fails when RTL line
# coverage is below 95 %.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${BUILD:-build/cov}
TB=$B/spu-tb
DAT=$B/dat
rm -rf "$DAT" "$B/html" "$B/html-toggle"
mkdir -p "$DAT"
export SPU_COVERAGE_DIR=$DAT
fail=0
# shellcheck disable=SC2086 # REGRESS_ARGS is a list of options
${PYTHON:-python3} tools/regress.py --tb "$TB" --junit "$B/regress.xml" ${REGRESS_ARGS:-} | grep -v '^PASS ' || fail=1
runs=$(grep -c '<testcase' "$B/regress.xml")
for spt in tests/vectors/*.spt; do
    "$TB" "$spt" --quiet --no-progress --expect-vacuous 2>"$B/e" || { echo "cov: vector failed: $spt"; fail=1; }
    runs=$((runs + 1))
done
n=$(ls "$DAT" | wc -l)
[ "$n" -eq "$runs" ] || { echo "cov: $runs runs but $n coverage files"; fail=1; }
verilator_coverage --write "$B/merged.dat" "$DAT"/*.dat >/dev/null || { echo "cov: verilator_coverage failed"; exit 1; }
${PYTHON:-python3} tools/cov_dat.py "$B/merged.dat" "$B" | tee "$B/report.txt" || exit 1
for k in line toggle; do
    verilator_coverage --write-info "$B/$k.info" "$B/$k.dat" >/dev/null || { echo "cov: write-info $k failed"; fail=1; }
done
genhtml --quiet --output-directory "$B/html" "$B/line.info" >/dev/null 2>&1 || echo "cov: genhtml failed (the info file is still $B/line.info)"
genhtml --quiet --output-directory "$B/html-toggle" "$B/toggle.info" >/dev/null 2>&1 || echo "cov: genhtml failed (the info file is still $B/toggle.info)"
pct=$(sed -n 's/^cov: RTL line coverage .* = \([0-9.]*\) %.*/\1/p' "$B/report.txt")
echo "cov: $runs runs; report $B/html/index.html (lines), $B/html-toggle/index.html (toggles)"
if [ -z "$pct" ] || awk -v p="$pct" 'BEGIN { exit !(p < 95) }'; then
    echo "cov: RTL line coverage ${pct:-unknown} % is below 95 %"
    fail=1
fi
exit $fail
