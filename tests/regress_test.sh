#!/usr/bin/env bash
# Regressions past one machine (README "Regressions"): tools/regress.py's
# shards, tools/regress_merge.py and the GNU parallel and Slurm recipes.
#  - a small regression (2 configurations x 4 seeds x 100k cycles) through
#    GNU parallel in 2 shards (tools/regress_parallel.sh): the merged JUnit
#    has every job exactly once, all passed, and the coverage of every job;
#  - shards sharing one coverage directory keep each other's files, and
#    coverage in several directories merges the same;
#  - the merge refuses a missing shard, a duplicated shard, a job twice,
#    a stale shard of another run, malformed JUnit, coverage twice;
#  - a planted failing job (spu-tb --inject through a wrapper --tb) is a
#    failure of the merged JUnit, with its reproduce command, exit non-zero;
#  - bad --shard values are refused naming the option;
#  - as root: make regress-slurm-check's single-node Slurm cluster
#    (tools/slurm/check.sh; else an explicit SKIP line).
# Prints PASS/FAIL lines and ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
B=${BUILD:-build}
case $B in /*) ;; *) B=$PWD/$B ;; esac
TB=$B/spu-tb
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
T_PREFIX=regress/
# shellcheck source=tests/lib.sh
. tests/lib.sh
one() { tail -${2:-2} "$1" | tr '\n' ' '; }
JOBS=(--configs v1,wide --seeds 4 --cycles 100000 --tb "$TB")

if [ ! -x "$TB" ]; then
    bad built "missing $TB (make tb)"
    t_end
    exit 1
fi

# GNU parallel: installed here when root (tools/deps.sh), a failure otherwise.
if tools/deps.sh parallel >"$TMP/deps.txt" 2>&1 && command -v parallel >/dev/null; then
    ok gnu_parallel_installed
else
    bad gnu_parallel_installed "$(one "$TMP/deps.txt")"
fi

# jobs_once FILE: the merged JUnit has each job of JOBS exactly once; prints
# the failed ones as CONFIG.SEED.
jobs_once() {
    $PY - "$1" <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
got = [(tc.get("classname"), tc.get("name")) for tc in root.iter("testcase")]
want = [(f"lockstep.{c}", f"seed{s}") for c in ("v1", "wide") for s in range(1, 5)]
if sorted(got) != sorted(want):
    sys.exit(f"jobs {sorted(got)}, want {want}")
if root.get("tests") != "8":
    sys.exit(f"tests={root.get('tests')}")
print(" ".join(f"{c.split('.')[1]}.{n[4:]}" for tc in root.iter("testcase") if tc.find("failure") is not None
               for c, n in [(tc.get("classname"), tc.get("name"))]))
EOF
}

# 1. Two shards through GNU parallel, merged.
P=$TMP/par
tools/regress_parallel.sh -n 2 -o "$P" -- "${JOBS[@]}" >"$TMP/par.txt" 2>&1
rc=$?
if [ $rc -eq 0 ] && failed=$(jobs_once "$P/regress.xml" 2>"$TMP/e") && [ -z "$failed" ] &&
   grep -q '^8 passed, 0 failed$' "$TMP/par.txt"; then
    ok parallel_2_shards_every_job_once_all_pass
else
    bad parallel_2_shards_every_job_once_all_pass "exit $rc: $(one "$TMP/par.txt") $(cat "$TMP/e" 2>/dev/null)"
fi
# Each shard ran half of the jobs, and both configurations.
if [ "$(grep -c '<testcase' "$P/shard-1.xml" 2>/dev/null)" = 4 ] && [ "$(grep -c '<testcase' "$P/shard-2.xml" 2>/dev/null)" = 4 ] &&
   grep -q 'lockstep.v1' "$P/shard-2.xml" && grep -q 'lockstep.wide' "$P/shard-1.xml" &&
   grep -q 'name="openspu.shard" value="2/2"' "$P/shard-2.xml"; then
    ok shards_are_halves_with_both_configs
else
    bad shards_are_halves_with_both_configs "$(grep -c '<testcase' "$P"/shard-*.xml 2>&1 | tr '\n' ' ')"
fi
# Coverage of every job, merged per configuration.
if [ "$(ls "$P/cov" 2>/dev/null | wc -l)" = 8 ] &&
   $PY -c 'import json,sys; d=json.load(open(sys.argv[1]))["configs"]; sys.exit(not (sorted(d) == ["v1","wide"] and all(d[c]["runs"] == 4 for c in d)))' \
       "$P/coverage.json" 2>"$TMP/e"; then
    ok coverage_merged_4_runs_per_config
else
    bad coverage_merged_4_runs_per_config "$(ls "$P/cov" 2>&1 | tr '\n' ' ') $(cat "$TMP/e")"
fi

# 2. Shards sharing a coverage directory: re-running shard 1 keeps shard 2's
# files and removes a stale file of no job of the list; separate directories
# merge to the same coverage.
S=$TMP/shared
for k in 1 2; do
    $PY tools/regress.py "${JOBS[@]}" --jobs 1 --shard $k/2 --junit "$S/s$k.xml" --cov "$S/cov" --run-id t >"$TMP/s$k.txt" 2>&1 &
done
wait
touch "$S/cov/v1.99.cov"
$PY tools/regress.py "${JOBS[@]}" --jobs 1 --shard 1/2 --junit "$S/s1.xml" --cov "$S/cov" --run-id t >"$TMP/s1.txt" 2>&1
if [ "$(ls "$S/cov" | wc -l)" = 8 ] && [ ! -e "$S/cov/v1.99.cov" ] && [ -e "$S/cov/v1.2.cov" ] && [ -e "$S/cov/wide.4.cov" ] &&
   $PY tools/regress_merge.py --out "$S/m.xml" --cov "$S/cov" --cov-json "$S/one.json" "$S/s1.xml" "$S/s2.xml" >"$TMP/m.txt" 2>&1; then
    ok shared_cov_dir_keeps_other_shards_files
else
    bad shared_cov_dir_keeps_other_shards_files "$(ls "$S/cov" | tr '\n' ' ') $(one "$TMP/m.txt")"
fi
mkdir -p "$S/c1" "$S/c2"
for f in "$S"/cov/*.cov; do
    case $(basename "$f") in v1.1.cov|v1.3.cov|wide.1.cov|wide.3.cov) cp "$f" "$S/c1/" ;; *) cp "$f" "$S/c2/" ;; esac
done
if $PY tools/regress_merge.py --out "$S/m2.xml" --cov "$S/c1" --cov "$S/c2" --cov-json "$S/two.json" "$S/s1.xml" "$S/s2.xml" >"$TMP/m.txt" 2>&1 &&
   cmp -s "$S/one.json" "$S/two.json"; then
    ok cov_in_two_dirs_merges_the_same
else
    bad cov_in_two_dirs_merges_the_same "$(one "$TMP/m.txt")"
fi

# 3. The merge refuses what is not one complete set of shards (exit 2, the
# message names the problem, no merged file left behind).
# refuse NAME WANT ARGS...: regress_merge.py ARGS must exit 2 saying WANT.
refuse() {
    local name=$1 want=$2 rc
    shift 2
    echo stale >"$TMP/r.xml"
    $PY tools/regress_merge.py --out "$TMP/r.xml" "$@" >"$TMP/r.txt" 2>&1
    rc=$?
    if [ $rc -eq 2 ] && grep -qF -- "$want" "$TMP/r.txt" && [ ! -e "$TMP/r.xml" ]; then
        ok "merge_refuses_$name"
    else
        bad "merge_refuses_$name" "exit $rc, want 2 and '$want': $(head -2 "$TMP/r.txt" | tr '\n' ' ')"
    fi
}
refuse missing_shard "missing shard 2/2 of 2" "$P/shard-1.xml"
refuse missing_shard_file "$P/shard-3.xml: no such file" "$P/shard-1.xml" "$P/shard-3.xml"
refuse duplicated_shard "shard 1/2 appears twice" "$P/shard-1.xml" "$P/shard-1.xml" "$P/shard-2.xml"
cp "$P/shard-1.xml" "$TMP/copy.xml"
refuse shard_copy "shard 1/2 appears twice: $P/shard-1.xml and $TMP/copy.xml" "$P/shard-1.xml" "$TMP/copy.xml" "$P/shard-2.xml"
# A job twice (a testcase repeated inside a shard file).
awk '/<testcase/ && !d { print; getline; print; d = 1; print "  <testcase classname=\"lockstep.v1\" name=\"seed1\" time=\"0\">"; print "  </testcase>"; next } { print }' \
    "$P/shard-1.xml" >"$TMP/dupjob.xml"
refuse job_twice "job v1 seed 1 appears twice" "$TMP/dupjob.xml" "$P/shard-2.xml"
# A job missing from its shard file.
awk '/<testcase classname="lockstep.wide" name="seed3"/ { getline; next } { print }' "$P/shard-1.xml" >"$TMP/lost.xml"
refuse job_missing "1 of its 4 jobs missing, e.g. wide seed 3" "$TMP/lost.xml" "$P/shard-2.xml"
# A stale shard of another run (the S run has run id t).
refuse stale_shard_of_another_run "(a stale shard file of an earlier run?)" "$P/shard-1.xml" "$S/s2.xml"
refuse wrong_run_id "not --run-id 'other'" --run-id other "$P/shard-1.xml" "$P/shard-2.xml"
# Different job lists.
$PY tools/regress.py --configs v1,wide --seeds 4 --cycles 200000 --tb "$TB" --jobs 1 --shard 2/2 --junit "$TMP/other.xml" >/dev/null 2>&1
refuse different_job_list "are shards of different job lists" "$S/s1.xml" "$TMP/other.xml"
# Malformed JUnit: cut short; not written by regress.py --shard; not XML.
head -c 400 "$P/shard-2.xml" >"$TMP/cut.xml"
refuse truncated_junit "$TMP/cut.xml:" "$P/shard-1.xml" "$TMP/cut.xml"
if grep -q "malformed JUnit XML" "$TMP/r.txt"; then ok truncated_junit_says_malformed; else bad truncated_junit_says_malformed "$(head -1 "$TMP/r.txt")"; fi
grep -v 'openspu.shard"' "$P/shard-2.xml" >"$TMP/noprop.xml"
refuse junit_without_shard_property "$TMP/noprop.xml: no property openspu.shard" "$P/shard-1.xml" "$TMP/noprop.xml"
printf '<testsuites/>\n' >"$TMP/suites.xml"
refuse junit_other_root "$TMP/suites.xml: root element <testsuites>" "$P/shard-1.xml" "$TMP/suites.xml"
sed 's/name="openspu.cycles" value="100000"/name="openspu.cycles" value="100"/' "$P/shard-2.xml" >"$TMP/edited.xml"
refuse edited_properties "its properties disagree" "$P/shard-1.xml" "$TMP/edited.xml"
# Coverage: a job's file in two directories; a passed job's file missing.
refuse cov_twice "coverage of v1 seed 1 appears twice: $S/c1/v1.1.cov and $S/cov/v1.1.cov" --cov "$S/c1" --cov "$S/cov" "$S/s1.xml" "$S/s2.xml"
refuse cov_missing "no coverage file of 4 passed jobs" --cov "$S/c1" "$S/s1.xml" "$S/s2.xml"

# 4. A planted failing job: v1 seed 3 through a --tb wrapper that adds
# spu-tb --inject; the merged JUnit must fail it with its reproduce command.
tools/planted_tb.sh "$TB" "$TMP" >/dev/null
F=$TMP/planted
tools/regress_parallel.sh -n 2 -o "$F" -- "${JOBS[@]}" --tb "$TMP/tb-planted" >"$TMP/planted.txt" 2>&1
rc=$?
failed=$(jobs_once "$F/regress.xml" 2>"$TMP/e")
if [ $rc -eq 1 ] && [ "$failed" = "v1.3" ] && grep -q '^7 passed, 1 failed$' "$TMP/planted.txt"; then
    ok planted_failure_fails_the_merged_junit
else
    bad planted_failure_fails_the_merged_junit "exit $rc (want 1), failed '$failed' (want v1.3): $(one "$TMP/planted.txt") $(cat "$TMP/e")"
fi
if $PY - "$F/regress.xml" <<'EOF' 2>"$TMP/e"
import sys, xml.etree.ElementTree as ET
tc = [t for t in ET.parse(sys.argv[1]).getroot().iter("testcase") if t.find("failure") is not None][0]
text = tc.find("failure").text
assert "--config v1 --seed 3" in text and "--- reproduce" in text, text[-300:]
assert "--inject 'obs_pmsicr_o@5000'" in text.split("--- reproduce")[1], text[-300:]
EOF
then
    ok planted_failure_keeps_reproduce_command
else
    bad planted_failure_keeps_reproduce_command "$(tail -1 "$TMP/e")"
fi

# 5. Bad --shard values are refused, naming the option (exit 2).
while IFS='|' read -r arg want; do
    $PY tools/regress.py "${JOBS[@]}" --shard="$arg" --junit "$TMP/bad.xml" >"$TMP/b.txt" 2>&1
    rc=$?
    if [ $rc -eq 2 ] && grep -qF -- "$want" "$TMP/b.txt"; then ok "bad_shard '$arg'"; else bad "bad_shard '$arg'" "exit $rc: $(tail -1 "$TMP/b.txt")"; fi
done <<'EOT'
0/2|--shard '0/2': need 1 <= K <= N
3/2|--shard '3/2': need 1 <= K <= N
1/0|--shard '1/0': N must be at least 1
x|--shard 'x': expected K/N
1/2/3|--shard '1/2/3': expected K/N
-1/2|--shard '-1/2': expected K/N
EOT
$PY tools/regress.py --configs v1 --seeds 2 --cycles 1000 --tb "$TB" --shard 3/3 --junit "$TMP/bad.xml" >"$TMP/b.txt" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -qF -- "--shard 3/3: shard 3 of 2 jobs is empty" "$TMP/b.txt"; then ok bad_shard_empty; else bad bad_shard_empty "exit $rc: $(tail -1 "$TMP/b.txt")"; fi

# 6. Slurm, for real, as root: a single-node cluster on this machine.
if [ "$(id -u)" -ne 0 ]; then
    echo "SKIP regress/slurm_single_node_cluster: not root (tools/slurm/check.sh starts munged, slurmctld and slurmd as root)"
elif ! tools/deps.sh slurm >"$TMP/deps.txt" 2>&1; then
    bad slurm_installed "$(one "$TMP/deps.txt")"
else
    BUILD=$B tools/slurm/check.sh >"$TMP/slurm.txt" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && grep -q '^slurm-check: PASS' "$TMP/slurm.txt"; then
        ok "slurm_single_node_cluster ($(grep -o 'PASS in [0-9.]* s' "$TMP/slurm.txt"))"
    else
        bad slurm_single_node_cluster "exit $rc: $(grep -m1 'FAIL\|cannot run' "$TMP/slurm.txt") (whole output: BUILD=$B tools/slurm/check.sh)"
        sed 's/^/    /' "$TMP/slurm.txt" | tail -40
    fi
fi

t_end
