#!/usr/bin/env bash
# make fuzz: run each libFuzzer target (tests/fuzz/fuzz_T.c, built as
# $FUZZ_BUILD/fuzz-T) for $FUZZ_SECONDS seconds, or $FUZZ_RUNS executions
# when that is set, from its seed corpus, and
# report executions, the rate and coverage. Any crash, leak, timeout or
# sanitizer report fails the run; the input that caused it is named and
# belongs in tests/fuzz/corpus/T/, where make test replays it from then on.
#   FUZZ_BUILD=build/fuzz FUZZ_SECONDS=60 tools/fuzz.sh spt gen regs
# Input sizes: a trace up to 8 KiB; a --gen string up to 512 bytes; up to 85
# cycles (1 KiB) of register-port records per input.
set -uo pipefail
cd "$(dirname "$0")/.."
FB=${FUZZ_BUILD:-build/fuzz}
S=${FUZZ_SECONDS:-60}
RUNS=${FUZZ_RUNS:-}
limit=(-max_total_time="$S")
[ -n "$RUNS" ] && limit=(-runs="$RUNS")
fail=0
printf "%-6s %8s %14s %12s %8s %s\n" target seconds executions "exec/s" cov result
for t in "$@"; do
    bin=$FB/fuzz-$t
    [ -x "$bin" ] || { echo "fuzz: missing $bin"; fail=1; continue; }
    corpus=$FB/corpus/$t
    mkdir -p "$corpus" "$FB/artifacts"
    cp -n tests/fuzz/corpus/"$t"/* "$corpus"/ 2>/dev/null
    if [ "$t" = spt ]; then # the parser's seeds: every committed trace, good and bad
        for f in tests/vectors/*.spt tests/bad/*.spt; do cp -n "$f" "$corpus/$(basename "$f")"; done
    fi
    rm -f "$FB/artifacts/$t"-*
    case $t in gen) len=512 ;; regs) len=1024 ;; *) len=8192 ;; esac
    t0=$(date +%s)
    "$bin" "${limit[@]}" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 -max_len=$len \
        -artifact_prefix="$FB/artifacts/$t-" "$corpus" >"$FB/$t.log" 2>&1
    rc=$?
    secs=$(( $(date +%s) - t0 ))
    execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$FB/$t.log" | tail -1)
    rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+).*/\1/p' "$FB/$t.log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+' "$FB/$t.log" | tail -1 | cut -d' ' -f2)
    arts=$(ls "$FB/artifacts/$t"-* 2>/dev/null)
    if [ $rc -eq 0 ] && [ -z "$arts" ] && [ -n "$execs" ]; then
        res=ok
    else
        res="FAILED (exit $rc)"
        fail=1
    fi
    printf "%-6s %8s %14s %12s %8s %s\n" "$t" "$secs" "${execs:-?}" "${rate:-?}" "${cov:-?}" "$res"
    for a in $arts; do
        echo "  input: $a  (copy it into tests/fuzz/corpus/$t/ to keep it as a regression test)"
        grep -m3 -E 'ERROR|runtime error|SUMMARY' "$FB/$t.log" | sed 's/^/    /'
    done
done
exit $fail
