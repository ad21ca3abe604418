#!/usr/bin/env bash
# make test, suite fpga: the FPGA flow (tools/fpga.py, docs/fpga.md) runs from
# a clean checkout and its check can fail.
#   - the check against the committed baseline (docs/fpga.json) catches an
#     Fmax more than 10 % lower, an area more than 10 % larger, and a design
#     that no longer fits, and lets 9 % pass;
#   - the table of docs/fpga.md is the one docs/fpga.json gives;
#   - the real flow (Yosys + nextpnr, seed 1) for v1 on ECP5-25F and on the
#     iCE40 HX8K gives the baseline's figures within the check's 10 % (and
#     fits where the baseline fits: the check fails a run that no longer does).
# Prints PASS/FAIL lines. Usage: tests/fpga_test.sh TMPDIR
set -uo pipefail
cd "$(dirname "$0")/.."
T=${1:?usage: $0 TMPDIR}
B=${BUILD:-build}
PY=${PYTHON:-python3}
BASE=docs/fpga.json

T_PREFIX=fpga/
# shellcheck source=tests/lib.sh
. tests/lib.sh

# edit NAME PYEXPR: a copy of the baseline with the first placed run changed
# by PYEXPR (r is that run); prints the copy's path.
edit() {
    "$PY" - "$BASE" "$T/$1.json" "$2" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
r = next(x for x in doc["results"] if x.get("fmax_mhz"))
exec(sys.argv[3])
json.dump(doc, open(sys.argv[2], "w"))
print(r["config"], r["device"])
EOF
}

# expect NAME WANT(pass|fail) PYEXPR [TEXT]: check the edited copy against the baseline.
expect() {
    local name=$1 want=$2 expr=$3 text=${4:-} which rc
    which=$(edit "$name" "$expr") || { bad "$name" "could not edit $BASE"; return; }
    "$PY" tools/fpga.py check --baseline "$BASE" --results "$T/$name.json" >"$T/$name.out" 2>&1
    rc=$?
    if [ "$want" = pass ] && [ $rc -eq 0 ]; then ok "$name"
    elif [ "$want" = fail ] && [ $rc -ne 0 ] && grep -q "^FAIL $which: .*$text" "$T/$name.out"; then ok "$name"
    else bad "$name" "want $want (exit $rc): $(head -2 "$T/$name.out" | tr '\n' ' ')"; fi
}

[ -f "$BASE" ] || { bad baseline "no $BASE"; exit 1; }
expect check_passes_on_baseline pass 'pass'
expect check_lets_9_percent_pass pass 'r["fmax_mhz"] *= 0.91; r["unit_lut"] = int(r["unit_lut"] * 1.09)'
expect check_catches_fmax_drop fail 'r["fmax_mhz"] *= 0.89' 'Fmax'
expect check_catches_lut_growth fail 'r["unit_lut"] = int(r["unit_lut"] * 1.11) + 1' 'unit_lut'
expect check_catches_ff_growth fail 'r["unit_ff"] = int(r["unit_ff"] * 1.11) + 1' 'unit_ff'
expect check_catches_no_longer_fits fail 'r["fmax_mhz"] = None; r["error"] = "does not fit"' 'no Fmax'
# A run of some configurations checks those (the others are not regressions),
# still fails on a change in them, and a run the baseline lacks fails.
expect check_subset_passes pass 'doc["results"] = [r]'
expect check_subset_catches_fmax_drop fail 'r["fmax_mhz"] *= 0.89; doc["results"] = [r]' 'Fmax'
expect check_catches_run_without_baseline fail 'r["config"] = r["config"] + "-new"' 'no baseline for it'
if grep -q '^fpga: check: PASS, the 1 run of .* (of the baseline' "$T/check_subset_passes.out"; then ok check_subset_says_what_it_checked
else bad check_subset_says_what_it_checked "$(tail -1 "$T/check_subset_passes.out")"; fi
# make fpga-check reruns nothing: with no results it says to run make fpga.
make -s fpga-check BUILD="$T/no-build" >"$T/mk.out" 2>&1
if [ $? -ne 0 ] && grep -q 'no-build/fpga/results.json: .*(run make fpga first)' "$T/mk.out" && ! grep -qi 'yosys' "$T/mk.out"
then ok fpga_check_reruns_nothing; else bad fpga_check_reruns_nothing "$(tail -2 "$T/mk.out" | tr '\n' ' ')"; fi

if "$PY" tools/fpga.py doc-check --json "$BASE" --md docs/fpga.md >"$T/doc.out" 2>&1; then
    ok doc_table_is_the_json
else
    bad doc_table_is_the_json "$(head -2 "$T/doc.out" | tr '\n' ' ')"
fi

# The real flow on the smallest configuration, checked against the baseline
# (its two runs; the tools and the seed are fixed, so it normally matches
# exactly).
out=$B/fpga-test
rm -rf "$out"
if "$PY" tools/fpga.py run --configs v1 --devices "ecp5-25f-6 ice40-hx8k" --out "$out" --jobs 2 >"$T/run.out" 2>&1; then
    if ! grep -q '"fmax_mhz": [1-9]' "$out/results.json"; then
        bad flow_v1 "no Fmax in $out/results.json"
    elif grep -qE '^<!--|`\?`' "$T/run.out"; then
        bad flow_v1 "the terminal output has the document's markers or an unknown tool version: $(grep -m1 -E '^<!--|`\?`' "$T/run.out")"
    elif "$PY" tools/fpga.py check --baseline "$BASE" --results "$out/results.json" >"$T/chk.out" 2>&1; then
        ok flow_v1_ecp5_and_ice40_within_baseline
    else
        bad flow_v1_ecp5_and_ice40_within_baseline "$(grep FAIL "$T/chk.out" | head -2 | tr '\n' ' ')"
    fi
else
    bad flow_v1 "$(tail -2 "$T/run.out" | tr '\n' ' ')"
fi
t_end
