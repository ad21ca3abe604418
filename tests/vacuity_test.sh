#!/usr/bin/env bash
# Vacuity: short random lockstep runs are not vacuous (docs/generator.md,
# "Short runs"), and a vacuous run's message names the condition that was not
# met and what the run did see. Prints PASS/FAIL lines like tests/tb_tests.sh.
#   tests/vacuity_test.sh [SCRATCH_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
TMP=${1:-$(mktemp -d)}
[ $# -ge 1 ] || trap 'rm -rf "$TMP"' EXIT
TB=${BUILD:-build}/spu-tb
# The configurations, from the one list in the toml.
CONFIGS=${CONFIGS:-$(${PYTHON:-python3} tools/gen_config.py --list "${CFG_SRC:-configs/spu.toml}")}

# shellcheck source=tests/lib.sh
. tests/lib.sh

[ -x "$TB" ] || { bad vacuity/built "missing $TB"; exit 1; }

# 1. Short random runs: every configuration, seeds 1..8, 100000 and 20000 cycles.
for cycles in 100000 20000; do
    fails=()
    runs=0
    for seed in 1 2 3 4 5 6 7 8; do
        for cfg in $CONFIGS; do
            runs=$((runs + 1))
            if ! "$TB" --config $cfg --seed $seed --cycles $cycles --quiet --no-progress 2>"$TMP/e"; then
                fails+=("$cfg/seed$seed: $(grep -E 'VACUOUS|DIFFERENCE|error' "$TMP/e" | head -1 | cut -c1-100)")
            fi
        done
    done
    if [ ${#fails[@]} -eq 0 ]; then ok "vacuity/short_runs_pass/$cycles"; else bad "vacuity/short_runs_pass/$cycles" "${#fails[@]} of $runs: ${fails[0]}"; fi
done

# expect NAME TRACE PATTERN...: the trace fails as VACUOUS (exit 1) with a
# message matching every PATTERN, and passes with --expect-vacuous.
expect() {
    local name=$1 spt=$2 rc msg p
    shift 2
    "$TB" "$spt" --quiet --no-progress 2>"$TMP/e"
    rc=$?
    msg=$(grep '^VACUOUS: ' "$TMP/e")
    for p in "$@"; do
        if ! grep -qE -- "$p" <<<"$msg"; then bad "$name" "exit $rc, no '$p' in: ${msg:-$(head -2 "$TMP/e")}"; return; fi
    done
    if [ $rc -ne 1 ]; then bad "$name" "exit $rc, want 1"; return; fi
    if ! "$TB" "$spt" --quiet --no-progress --expect-vacuous 2>/dev/null; then bad "$name" "fails with --expect-vacuous"; return; fi
    ok "$name"
}

# The start of a trace that enables profiling at EL1 with INTERVAL = $1 (RND 0)
# and PMSFCR_EL1 = $2, PMSLATFR_EL1 = $3, then $4 members, one per cycle.
program() {
    printf 'spu-trace 1\ncfg v1p4\n'
    printf '@0\nw PMBLIMITR_EL1 0x100001\n@1\nw PMSFCR_EL1 %s\n@2\nw PMSLATFR_EL1 %s\n' "$2" "$3"
    printf '@3\nw PMSIRR_EL1 0x%x\n@4\nctx el=1 allow=1\nw PMSCR_EL1 0x3\n' $(($1 << 8))
    local c
    for ((c = 10; c < 10 + $4; c++)); do printf '@%d\nop type=LD fin=%d\n' $c $((c % 7 + 1)); done
}

# 2. Nothing at all: no member while profiling is enabled.
printf 'spu-trace 1\ncfg v1p4\n@100\nr PMSICR_EL1\n' >"$TMP/empty.spt"
expect vacuity/message_nothing_seen "$TMP/empty.spt" 'no sample was selected' 'nothing at all was seen' 'SAMPLE_POP 0'

# 3. Members, but an interval far longer than the trace: the estimate scales
#    the members seen to the interval (1000 x 256 members, one per cycle).
program 1000 0x0 0x0 300 >"$TMP/long_interval.spt"
expect vacuity/message_interval_estimate "$TMP/long_interval.spt" 'no sample was selected' \
    '300 members counted while enabled' 'INTERVAL 1000 x 256' 'so 2[0-9]{5} cycles or more'

# 4. Samples whose records the latency filter rejects, every one (MINLAT 0xfff).
program 1 0x4 0xfff 1200 >"$TMP/all_rejected.spt"
expect vacuity/message_none_kept "$TMP/all_rejected.spt" 'no record was kept' 'records were rejected \(why: lat [0-9]+\)' \
    'seeing one kept likely takes [0-9]+ cycles or more'

# 5. No filter: every record is kept.
program 1 0x0 0x0 1200 >"$TMP/all_kept.spt"
expect vacuity/message_none_rejected "$TMP/all_kept.spt" 'no record was rejected' 'records were kept' \
    'seeing one rejected likely takes [0-9]+ cycles or more'
t_end
