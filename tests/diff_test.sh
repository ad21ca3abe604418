#!/usr/bin/env bash
# spu-diff (docs/diff.md), a user's .spl log against the golden model:
#  - the model's own log (spu-csim) and the hand-derived golden logs diff clean;
#  - the example bench (tests/diff/spl_log.v beside tb/icarus/spu_vec_tb.v,
#    Icarus Verilog) logs our RTL with no delay and agrees; with its records
#    delayed by 3 cycles it disagrees with "record cycle outside tolerance"
#    unless --record-latency allows the delay;
#  - the bench's pmu line is compared; a PMU-only bug planted in a copy of the
#    RTL (the latency filter's >= as >, with the filter off) is caught by it;
#  - planted wrong decisions in a copy of the model's log are caught with the
#    op id (or cycle) and the reason;
#  - bad input (a malformed line, a bad option) exits 2 with FILE:LINE:COL or
#    the option named.
# Runs v1p4, wide and wide-alt (8 lanes, 3 slots, a slot reused in its finish
# cycle). Prints PASS/FAIL lines; exit status 1 when one failed.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${BUILD:-build}
G=${GEN:-$B/gen}      # the generated includes (the sanitizer build shares the main one)
CSIM=$B/spu-csim
DIFF=$B/spu-diff
# shellcheck source=tests/lib.sh
. tests/lib.sh

# mktrace CFG LANES CYCLES: a directed trace that keeps every lane busy and
# selects often (PMSICR_EL1 = 1..7 every 23 cycles, so that any lane may be
# selected, besides the interval of 256), so that it has samples, collisions, kept and rejected records (the
# latency filter at 24) in few cycles; reads of PMSICR_EL1 and PMBPTR_EL1,
# writes to PMSIDR_EL1 (UNDEFINED), and a reset halfway, after which the
# unit is programmed again.
mktrace() {
    awk -v cfg="$1" -v lanes="$2" -v n="$3" 'BEGIN {
        split("PMSIRR_EL1 PMSCR_EL1 PMBLIMITR_EL1 PMSFCR_EL1 PMSLATFR_EL1", reg, " ")
        split("0x100 0x3 0x100001 0x4 0x18", val, " ")
        split("LD ST B -", type, " ")
        print "spu-trace 2"; print "cfg " cfg; print "@0"; print "ctx el=1 allow=1"
        p = 1; x = 7
        for (c = 1; c < n; c++) {
            print "@" c
            if (c == int(n / 2)) { print "reset"; p = 1; continue }
            if (p <= 5) { print "w " reg[p] " " val[p]; p++ }
            else if (c % 23 == 0) print "w PMSICR_EL1 " 1 + int(c / 23) % 7
            else if (c % 97 == 0) print "r PMSICR_EL1"
            else if (c % 251 == 0) print "r PMBPTR_EL1"
            else if (c % 1009 == 0) print "w PMSIDR_EL1 0x0"
            for (l = 0; l < lanes; l++) {
                x = (x * 75 + 74) % 65537
                fin = 2 + x % 70
                print "op type=" type[1 + x % 4] " iss=" 1 + int(x / 70) % fin " fin=" fin
            }
        }
    }'
}

# run_diff NAME WANT-EXIT ARGS...: spu-diff's exit status must be WANT-EXIT;
# its stdout and stderr are left in $TMP/out. 0 when it was.
run_diff() {
    local name=$1 want=$2 rc
    shift 2
    "$DIFF" "$@" >"$TMP/out" 2>&1
    rc=$?
    [ $rc -eq "$want" ] && return 0
    bad "$name" "exit $rc, want $want: $(head -4 "$TMP/out" | tr '\n' ' ')"
    return 1
}

# first_is NAME WHAT REASON: the report's first disagreement names WHAT
# ("op N" or "cycle N") and REASON, and it is the only disagreement.
first_is() {
    local name=$1 what=$2 reason=$3 first
    first=$(grep -m1 '^=== FIRST DISAGREEMENT' "$TMP/out")
    if grep -q "^spu-diff: DISAGREE: .*: 1 disagreement$" "$TMP/out" && [[ "$first" == *"$what "* || "$first" == *"$what,"* ]] &&
        [[ "$first" == *": $reason" ]] && grep -qE "^  $reason +" "$TMP/out"; then
        ok "$name"
    else
        bad "$name" "want $what: $reason; got: $(head -1 "$TMP/out") $first"
    fi
}

# plant NAME CFG AWK WHAT REASON [SPU-DIFF OPTIONS]: the model's log of CFG
# changed by AWK must fail with that one disagreement.
plant() {
    local name=diff/planted/$2/$1 cfg=$2 prog=$3 what=$4 reason=$5
    shift 5
    awk "$prog" "$TMP/$cfg.spl" >"$TMP/planted.spl"
    if cmp -s "$TMP/$cfg.spl" "$TMP/planted.spl"; then bad "$name" "the edit did not apply"; return; fi
    run_diff "$name" 1 "$TMP/$cfg.spt" "$TMP/planted.spl" "$@" && first_is "$name" "$what" "$reason"
}

# field LINE KEY: the value of KEY= in a log line.
field() { sed -nE "s/.* $2=([^ ]+).*/\1/p" <<<"$1"; }

[ -x "$DIFF" ] || { bad diff/built "missing $DIFF (make diff)"; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The hand-derived golden logs of tests/vectors are the model's logs.
n=0
for spt in tests/vectors/*.spt; do
    if run_diff "diff/golden_vector/$(basename "${spt%.spt}")" 0 "$spt" "${spt%.spt}.spl"; then n=$((n + 1)); fi
done
[ $n -ge 10 ] && ok "diff/golden_vectors_agree ($n)" || bad diff/golden_vectors_agree "only $n"

for cfg in v1p4 wide wide-alt; do
    lanes=$(sed -nE "s/.*SPU_LANES 32'h([0-9a-f]+).*/\1/p" "$G/$cfg/spu_config.vh")
    mktrace "$cfg" "$((16#${lanes:-1}))" 6000 >"$TMP/$cfg.spt"
    $CSIM "$TMP/$cfg.spt" >"$TMP/$cfg.spl" 2>"$TMP/err" || bad "diff/csim/$cfg" "$(head -2 "$TMP/err")"
    # not vacuous: samples into more than one slot where there are several,
    # collisions where the slots fill, kept and rejected records, reads, undefs
    s=$(grep -c ' sample ' "$TMP/$cfg.spl"); c=$(grep -c ' collision ' "$TMP/$cfg.spl")
    k=$(grep -c ' keep=1 ' "$TMP/$cfg.spl"); r=$(grep -c ' keep=0 ' "$TMP/$cfg.spl")
    rd=$(grep -c ' read ' "$TMP/$cfg.spl"); u=$(grep -c ' undef ' "$TMP/$cfg.spl")
    if [ "$s" -gt 50 ] && [ "$k" -gt 10 ] && [ "$r" -gt 10 ] && [ "$rd" -gt 10 ] && [ "$u" -gt 0 ] &&
        { [ "$cfg" = wide-alt ] || [ "$c" -gt 10 ]; }; then
        ok "diff/trace_not_vacuous/$cfg ($s samples, $c collisions, $k kept, $r rejected, $rd reads, $u undef)"
    else
        bad "diff/trace_not_vacuous/$cfg" "$s samples, $c collisions, $k kept, $r rejected, $rd reads, $u undef"
    fi
    # The model's own log agrees with the model, and says what it compared.
    if run_diff "diff/self/$cfg" 0 "$TMP/$cfg.spt" "$TMP/$cfg.spl"; then
        if grep -qE "^spu-diff: AGREE: .*: $((s + c)) sample/collision, $((k + r)) record, $((rd + u)) read/undef lines?, [0-9]+ pmu" "$TMP/out"; then
            ok "diff/self/$cfg"
        else
            bad "diff/self/$cfg" "$(head -1 "$TMP/out")"
        fi
    fi

    # The example bench: our RTL under Icarus, logged by tests/diff/spl_log.v.
    $CSIM "$TMP/$cfg.spt" --quiet --vectors "$TMP/$cfg.vec" 2>"$TMP/err" || bad "diff/vectors/$cfg" "$(head -1 "$TMP/err")"
    for delay in 0 3; do
        if ! ${IVERILOG:-iverilog} -g2005 -I"$G/$cfg" -Irtl -s spu_vec_tb -s spu_spl_log -P spu_spl_log.DELAY=$delay \
                -o "$TMP/b.vvp" tb/icarus/spu_vec_tb.v tests/diff/spl_log.v rtl/*.v 2>"$TMP/iv.txt"; then
            bad "diff/bench/$cfg/delay$delay" "iverilog: $(head -2 "$TMP/iv.txt" | tr '\n' ' ')"
            continue
        fi
        ${VVP:-vvp} -n "$TMP/b.vvp" +vectors="$TMP/$cfg.vec" +spl="$TMP/bench$delay.spl" >"$TMP/vvp.txt" 2>&1
        if ! grep -q '^icarus: PASS' "$TMP/vvp.txt" || grep -q '^spl_log: FAIL' "$TMP/vvp.txt"; then
            bad "diff/bench/$cfg/delay$delay" "$(grep -m2 -E '^(icarus|spl_log):' "$TMP/vvp.txt" | tr '\n' ' ')"
        fi
    done
    # ... and it compared the bench's pmu line, every event the configuration implements
    npmu=$(sed -nE 's/.* pmu (.*)/\1/p' "$TMP/$cfg.spl" | wc -w)
    if run_diff "diff/bench_delay0_agrees/$cfg" 0 "$TMP/$cfg.spt" "$TMP/bench0.spl"; then
        if [ "$npmu" -gt 3 ] && grep -qE "^spu-diff: AGREE: .*, $npmu pmu totals$" "$TMP/out"; then
            ok "diff/bench_delay0_agrees/$cfg ($npmu pmu totals)"
        else
            bad "diff/bench_delay0_agrees/$cfg" "want $npmu pmu totals: $(head -1 "$TMP/out")"
        fi
    fi
    # Delayed records: exact timing fails at the first record.
    rec=$(grep -m1 ' record ' "$TMP/$cfg.spl")
    if run_diff "diff/bench_delay3_exact_fails/$cfg" 1 "$TMP/$cfg.spt" "$TMP/bench3.spl"; then
        nrec=$(grep -c ' record ' "$TMP/$cfg.spl")
        if grep -q "^=== FIRST DISAGREEMENT at cycle ${rec%% *}, op $(field "$rec" op) (record): record cycle outside tolerance$" "$TMP/out" &&
            grep -qE "^  record cycle: theirs - model = \+3, allowed \+0\.\.\+0" "$TMP/out" &&
            grep -qE "^  record cycle outside tolerance +0 +$nrec +0 +0$" "$TMP/out" &&
            grep -qx "hint: all $nrec record cycle mismatches are 3 cycles late (theirs - model = +3 for every record pair): --record-latency 3 would accept them" "$TMP/out" &&
            [ "$(grep -cE '^  (reason|record cycle outside tolerance) ' "$TMP/out")" -eq 2 ]; then
            ok "diff/bench_delay3_exact_fails/$cfg ($nrec records, first op $(field "$rec" op))"
        else
            bad "diff/bench_delay3_exact_fails/$cfg" "$(grep -m1 '^===' "$TMP/out"); $(grep -A3 '^--- summary' "$TMP/out" | tr '\n' ' ')"
        fi
    fi
    for tol in 3 0:5 3:3; do
        if run_diff "diff/bench_delay3_tolerance/$cfg/$tol" 0 "$TMP/$cfg.spt" "$TMP/bench3.spl" --record-latency $tol; then
            ok "diff/bench_delay3_tolerance/$cfg/$tol"
        fi
    done
    if run_diff "diff/bench_delay3_tolerance_too_small/$cfg" 1 "$TMP/$cfg.spt" "$TMP/bench3.spl" --record-latency 0:2; then
        ok "diff/bench_delay3_tolerance_too_small/$cfg"
    fi
done

# A PMU-only bug in a copy of the RTL: the latency filter's >= as >, with
# the filter off (PMSFCR_EL1.FL = 0) and MINLAT 24, changes SAMPLE_FEED_LAT
# and nothing a record line shows. The bench's pmu line catches it.
mkdir -p "$TMP/rtl"
cp rtl/*.v "$TMP/rtl/"
sed -i 's/is_lat  = (tot_lat_i >= minlat);/is_lat  = (tot_lat_i > minlat);/' "$TMP/rtl/spu_filter.v"
sed 's/^w PMSFCR_EL1 0x4$/w PMSFCR_EL1 0x0/' "$TMP/v1p4.spt" >"$TMP/nofl.spt"
$CSIM "$TMP/nofl.spt" --quiet --vectors "$TMP/nofl.vec" 2>"$TMP/err" || bad diff/pmu_only_bug/vectors "$(head -1 "$TMP/err")"
at24=$($CSIM "$TMP/nofl.spt" | grep -c ' record .* tot=24 ')
if cmp -s rtl/spu_filter.v "$TMP/rtl/spu_filter.v" || cmp -s "$TMP/v1p4.spt" "$TMP/nofl.spt" || [ "$at24" -eq 0 ]; then
    bad diff/pmu_only_bug "the edits did not apply, or no record has tot=24 ($at24)"
elif ! ${IVERILOG:-iverilog} -g2005 -I"$G/v1p4" -I"$TMP/rtl" -s spu_vec_tb -s spu_spl_log -o "$TMP/m.vvp" \
        tb/icarus/spu_vec_tb.v tests/diff/spl_log.v "$TMP"/rtl/*.v 2>"$TMP/iv.txt"; then
    bad diff/pmu_only_bug "iverilog: $(head -2 "$TMP/iv.txt" | tr '\n' ' ')"
else
    ${VVP:-vvp} -n "$TMP/m.vvp" +vectors="$TMP/nofl.vec" +spl="$TMP/mutant.spl" >"$TMP/vvp.txt" 2>&1
    # the vector bench sees the bug on pmu_o only
    if ! grep -q '^icarus: FAIL' "$TMP/vvp.txt" || [ -n "$(grep '^icarus: cycle' "$TMP/vvp.txt" | grep -v ' pmu_o ')" ]; then
        bad diff/pmu_only_bug "the mutant passes the vector bench, or fails it on more than pmu_o: $(head -3 "$TMP/vvp.txt" | tr '\n' ' ')"
    elif run_diff diff/pmu_only_bug 1 "$TMP/nofl.spt" "$TMP/mutant.spl"; then
        if grep -q '^=== FIRST DISAGREEMENT at cycle [0-9]* (pmu): different PMU total$' "$TMP/out" &&
            grep -qE '^  model  SAMPLE_FEED_LAT=[0-9]+ on the pmu line$' "$TMP/out" &&
            grep -qE '^spu-diff: DISAGREE: .*: 1 disagreement$' "$TMP/out"; then
            ok "diff/pmu_only_bug ($at24 records at MINLAT)"
        else
            bad diff/pmu_only_bug "$(grep -m2 -E '^(spu-diff|===)' "$TMP/out" | tr '\n' ' ')"
        fi
    fi
fi

# Planted wrong decisions, in copies of the model's own log.
for cfg in v1p4 wide; do
    L=$TMP/$cfg.spl
    rec=$(grep ' record ' "$L" | sed -n 20p); op=$(field "$rec" op)
    plant keep_flipped $cfg "/ record op=$op /"' { sub(/keep=[01]/, /keep=1/ ? "keep=0" : "keep=1") } { print }' \
        "op $op" "different keep/why"
    plant why_changed $cfg "/ record op=$op /"' { sub(/why=[^ ]*/, /why=lat/ ? "why=-" : "why=lat") } { print }' \
        "op $op" "different keep/why"
    plant tot_changed $cfg "/ record op=$op /"' { sub(/tot=/, "tot=1") } { print }' "op $op" "different tot/iss latency"
    plant record_dropped $cfg "!/ record op=$op /" "op $op" "missing in theirs"
    smp=$(grep ' sample ' "$L" | sed -n 30p); sop=$(field "$smp" op)
    plant sample_dropped $cfg "!/ sample op=$sop /" "op $sop" "missing in theirs"
    plant sample_duplicated $cfg "{ print } / sample op=$sop /" "op $sop" "duplicate in theirs"
    plant sample_as_collision $cfg "/ sample op=$sop /"' { $0 = $1 " collision op='"$sop"'" } { print }' \
        "op $sop" "sample vs collision"
    plant sample_one_cycle_late $cfg "/ sample op=$sop /"' { $1 = $1 + 1 } { print }' "op $sop" "sample cycle outside tolerance"
    # ... which --sample-latency allows
    awk "/ sample op=$sop /"' { $1 = $1 + 1 } { print }' "$L" >"$TMP/late.spl"
    run_diff diff/planted/$cfg/sample_latency_allows 0 "$TMP/$cfg.spt" "$TMP/late.spl" --sample-latency 0:1 &&
        ok diff/planted/$cfg/sample_latency_allows
    # an op the model did not select, sampled in theirs
    x=$((sop + 1))
    while grep -qE " (sample|collision) op=$x( |$)" "$L"; do x=$((x + 1)); done
    plant extra_sample $cfg "{ print } / sample op=$sop /"' { print $1 " sample op='"$x"' lane=0 slot=0" }' \
        "op $x" "extra in theirs"
    plant op_not_in_trace $cfg '{ print } / sample op='"$sop"' / { print $1 " sample op=99999999 lane=0 slot=0" }' \
        "op 99999999" "extra in theirs"
    grep -q 'op 99999999 is not in the trace: it has ' "$TMP/out" && ok diff/planted/$cfg/op_not_in_trace_said ||
        bad diff/planted/$cfg/op_not_in_trace_said "$(grep -m1 'not in the trace' "$TMP/out")"
    rd=$(grep ' read ' "$L" | sed -n 10p)
    plant read_value_changed $cfg "\$0 == \"$rd\""' { $NF = ($NF == "0x0000000000000001") ? "0x0000000000000002" : "0x0000000000000001" } { print }' \
        "cycle ${rd%% *}" "different read value"
    plant read_dropped $cfg "\$0 != \"$rd\"" "cycle ${rd%% *}" "missing in theirs"
    awk "\$0 != \"$rd\"" "$L" >"$TMP/noread.spl"
    run_diff diff/planted/$cfg/ignore_reads 0 "$TMP/$cfg.spt" "$TMP/noread.spl" --ignore-reads && ok diff/planted/$cfg/ignore_reads
    plant pmu_total_changed $cfg '/ pmu / { sub(/SAMPLE_FEED=/, "SAMPLE_FEED=1") } { print }' "cycle" "different PMU total"
    # resets and a missing pmu line are not compared
    awk '/ pmu / { next } { print } NR == 3 { print $1 " reset" }' "$L" >"$TMP/noreset.spl"
    run_diff diff/planted/$cfg/resets_and_no_pmu_not_compared 0 "$TMP/$cfg.spt" "$TMP/noreset.spl" &&
        ok diff/planted/$cfg/resets_and_no_pmu_not_compared
done
# A keep/why disagreement is explained filter by filter: the model's
# decision, what their why= says, and the fields each filter reads.
L=$TMP/v1p4.spl
rec=$(grep -E ' record .* keep=0 why=lat$' "$L" | sed -n 5p); op=$(field "$rec" op)
awk "/ record op=$op /"' { sub(/keep=0/, "keep=1"); sub(/why=lat/, "why=-") } { print }' "$L" >"$TMP/explain.spl"
if [ -n "$rec" ] && run_diff diff/explain/lat 1 "$TMP/v1p4.spt" "$TMP/explain.spl"; then
    miss=""
    for want in "^--- each filter's decision \(D17\.5\): the model's, and what their why= says$" \
        "^  op $op \(as the trace gives it\): type=" \
        "^  lat +PMSFCR_EL1\.FL=1 +reject +pass +total latency $(field "$rec" tot); PMSLATFR_EL1\.MINLAT=24  <- differs$" \
        '^  type +PMSFCR_EL1\.FT=0 +pass +pass +op type [A-Z+-]+; PMSFCR_EL1\.TYPE=0b000 \{ST,LD,B\}' \
        '^  ev +PMSFCR_EL1\.FE=0 +pass +pass +op events 0x[0-9a-f]+; PMSEVFR_EL1=0x0$' \
        '^  discard +PMBLIMITR_EL1\.FM=0 +pass +pass ' '^  keep +0 +1  <- differs$'; do
        grep -qE -- "$want" "$TMP/out" || miss+=" [$want]"
    done
    [ "$(grep -c '<- differs' "$TMP/out")" -eq 2 ] || miss+=" [two rows differ]"
    [ -z "$miss" ] && ok "diff/explain/lat (op $op)" || bad diff/explain/lat "missing:$miss"
fi
rec=$(grep -E ' record .* keep=1 why=-$' "$L" | sed -n 5p); op=$(field "$rec" op)
awk "/ record op=$op /"' { sub(/keep=1/, "keep=0"); sub(/why=-/, "why=ev") } { print }' "$L" >"$TMP/explain.spl"
if [ -n "$rec" ] && run_diff diff/explain/filter_off 1 "$TMP/v1p4.spt" "$TMP/explain.spl"; then
    grep -qE '^  ev +PMSFCR_EL1\.FE=0 +pass +reject +op events .*; theirs rejects with the filter off  <- differs$' "$TMP/out" &&
        grep -qE '^  keep +1 +0  <- differs$' "$TMP/out" && ok "diff/explain/filter_off (op $op)" ||
        bad diff/explain/filter_off "$(grep -E '^  (ev|keep) ' "$TMP/out" | tr '\n' ' ')"
fi

# slots and lanes: wide has 2 slots and 4 lanes
smp=$(grep -E ' sample .* lane=[1-3] slot=1' "$TMP/wide.spl" | sed -n 5p); sop=$(field "$smp" op)
plant slot_changed wide "/ sample op=$sop /"' { sub(/slot=1/, "slot=0") } { print }' "op $sop" "different slot"
plant lane_changed wide "/ sample op=$sop /"' { sub(/lane=[1-3]/, "lane=0") } { print }' "op $sop" "different lane"

# The report around the first disagreement: the model's state and the
# stimulus before it, the next disagreements and the counts per reason.
awk '/ record / && ++n % 10 == 5 { sub(/keep=[01]/, /keep=1/ ? "keep=0" : "keep=1") } { print }' "$TMP/v1p4.spl" >"$TMP/many.spl"
if run_diff diff/report 1 "$TMP/v1p4.spt" "$TMP/many.spl" --list 3; then
    miss=""
    for want in '^=== FIRST DISAGREEMENT at cycle [0-9]+, op [0-9]+ \(record\): different keep/why$' \
        '^  model  [0-9]+ record op=' '^  theirs [0-9]+ record op=.*\(.*many.spl:[0-9]+\)$' '^  model  selected it: [0-9]+ sample op=' \
        '^--- model state at the start of cycle [0-9]+' '^  context el=1 allow=1, profiling enabled, LFSR 0x' \
        'PMSICR_EL1 +0x[0-9a-f]{16}' 'PMSIRR_EL1 +0x0000000000000100' 'PMSFCR_EL1 +0x0000000000000004' 'PMBPTR_EL1 +0x' \
        '^  slot 0: op [0-9]+, entered cycle [0-9]+ at EL1, ' '^--- the last 8 population members before cycle' \
        '^ +[0-9]+ +0 +[0-9]+  (sample s0|collision|-) +type=' '^--- register accesses, resets and context changes before cycle' \
        '^ +[0-9]+  w PMSICR_EL1 0x[1-7]$' '^--- the next 3 of [0-9]+ more disagreements \(--list N lists more; --show N reports #N in full\)$' \
        '^  #2 +cycle [0-9]+ +op [0-9]+ +record: different keep/why' \
        '^--- summary: [0-9]+ disagreements' '^  different keep/why +0 +[0-9]+ +0 +0$'; do
        grep -qE -- "$want" "$TMP/out" || miss+=" [$want]"
    done
    [ -z "$miss" ] && ok diff/report || bad diff/report "missing:$miss"
fi

grep -q '^hint:' "$TMP/out" && bad diff/report/no_hint "a hint for flipped keep flags: $(grep -m1 '^hint:' "$TMP/out")" ||
    ok diff/report/no_hint

# Hints over all the disagreements: record cycles late by 0..2 or 2 cycles
# early, and the option the hint names then accepts them; op ids shifted.
hint_is() {
    local name=diff/hint/$1 spl=$2 want=$3 opt=$4
    shift 4
    run_diff "$name" 1 "$TMP/v1p4.spt" "$spl" || return
    if [ "$(grep -c '^hint:' "$TMP/out")" -ne 1 ] || ! grep -qxF -- "$want" "$TMP/out"; then
        bad "$name" "want '$want', got: $(grep '^hint:' "$TMP/out" | tr '\n' ' ')"
    elif [ -z "$opt" ] || run_diff "$name/accepted" 0 "$TMP/v1p4.spt" "$spl" $opt; then
        ok "$name"
    fi
}
nrec=$(grep -c ' record ' "$TMP/v1p4.spl")
awk '/ record / { $1 = $1 + n++ % 3 } { print }' "$TMP/v1p4.spl" >"$TMP/spread.spl"
hint_is record_latency_range "$TMP/spread.spl" \
    "hint: theirs - model ranges over +0..+2 cycles for the $nrec record pairs: --record-latency 0:2 would accept the cycle of every one" \
    "--record-latency 0:2"
awk '/ record / { $1 = $1 - 2 } { print }' "$TMP/v1p4.spl" >"$TMP/early.spl"
hint_is record_early "$TMP/early.spl" \
    "hint: all $nrec record cycle mismatches are 2 cycles early (theirs - model = -2 for every record pair): --record-latency -2 would accept them" \
    "--record-latency -2"
nlines=$(grep -cE ' (sample|collision|record) ' "$TMP/v1p4.spl")
for k in 1 -3; do
    awk -v k=$k '{ for (i = 1; i <= NF; i++) if ($i ~ /^op=/) $i = "op=" substr($i, 4) + k } { print }' "$TMP/v1p4.spl" >"$TMP/shift.spl"
    hint_is "op_shift$k" "$TMP/shift.spl" \
        "hint: their op ids look shifted by $(printf %+d $k): $nlines of their $nlines sample, collision and record lines agree with the model's line for op id $( [ $k -gt 0 ] && echo - || echo +) ${k#-} (0 as the ids stand); see \"Op ids\" in docs/diff.md for how ids are counted" ""
done

# --show N: the Nth disagreement of the list (#N) in full, with the model's
# state at its cycle; --show=N alike; N beyond the count is an error.
"$DIFF" "$TMP/v1p4.spt" "$TMP/many.spl" --list 3 >"$TMP/first.txt" 2>&1
third=$(grep -m1 -E '^  #3 ' "$TMP/first.txt"); tc=$(awk '{print $3}' <<<"$third"); top=$(awk '{print $5}' <<<"$third")
total=$(sed -nE 's/^spu-diff: DISAGREE: .*: ([0-9]+) disagreements$/\1/p' "$TMP/first.txt")
if run_diff diff/show 1 "$TMP/v1p4.spt" "$TMP/many.spl" --show 3; then
    if [ -n "$tc" ] && grep -qx "=== DISAGREEMENT #3 of $total (--show 3) at cycle $tc, op $top (record): different keep/why" "$TMP/out" &&
        grep -q "^  model  $tc record op=$top " "$TMP/out" && grep -q "^--- model state at the start of cycle $tc " "$TMP/out" &&
        grep -qE '^  #4 +cycle ' "$TMP/out" && ! grep -qE '^  #[23] ' "$TMP/out"; then
        ok "diff/show (#3: cycle $tc, op $top)"
    else
        bad diff/show "want #3 at cycle $tc, op $top: $(grep -m1 '^===' "$TMP/out")"
    fi
    cp "$TMP/out" "$TMP/show3.txt"
    "$DIFF" "$TMP/v1p4.spt" "$TMP/many.spl" --show=3 >"$TMP/out" 2>&1
    cmp -s "$TMP/out" "$TMP/show3.txt" && ok diff/show_equals || bad diff/show_equals "--show=3 differs from --show 3"
fi
while IFS='|' read -r args want; do
    # shellcheck disable=SC2086
    run_diff "diff/bad_cli/show/'${args//$TMP/TMP}'" 2 "$TMP/v1p4.spt" $args || continue
    if grep -qF -- "$want" "$TMP/out"; then ok "diff/bad_cli/show/'${args//$TMP/TMP}'"; else bad "diff/bad_cli/show/'${args//$TMP/TMP}'" "$(head -1 "$TMP/out")"; fi
done <<EOT
$TMP/many.spl --show $((total + 1))|error: --show '$((total + 1))': there are only $total disagreements (--show takes 1..$total)
$TMP/many.spl --show=0|error: --show '0': expected a number of 1..1000000
$TMP/many.spl --show x|error: --show 'x': expected a number of 1..1000000
$TMP/many.spl --show|error: --show needs a value
$TMP/many.spl --show 1 --show 2|error: --show given twice
$TMP/v1p4.spl --show 1|error: --show '1': there is no disagreement (the logs agree)
EOT

# Bad input in their log: exit 2, FILE:LINE:COL and the message.
while IFS='|' read -r line want; do
    printf '%b\n' "$line" >"$TMP/their.spl"
    name="diff/bad/'$line'"
    run_diff "$name" 2 "$TMP/v1p4.spt" "$TMP/their.spl" || continue
    if grep -qF -- "$TMP/their.spl:$want" "$TMP/out"; then ok "$name"; else bad "$name" "want :$want; got $(head -1 "$TMP/out")"; fi
done <<'EOT'
10 bogus op=1|1:4: error: unknown line kind 'bogus' (expected sample, collision, record, read, undef, reset or pmu)
10 sample op=1 lane=0|1:22: error: a sample line needs slot= (it has op= lane= slot=)
10 sample op=1 lane=0 slot=x|1:23: error: slot 'x' is not a number (decimal or 0x hex)
10 sample op=-1 lane=0 slot=0|1:11: error: op '-1' is not a number (decimal or 0x hex)
10 sample op=1 lane=1 slot=0|1:16: error: lane 1 out of range 0..0 (configuration v1p4 has 1 lane)
10 sample op=1 lane=0 slot=0 slot=0|1:30: error: slot= given twice
10 sample op=1 lane=0 slot=0 foo=1|1:30: error: unknown key 'foo' in a sample line (it has op= lane= slot=)
10 collision op=1 junk|1:19: error: expected key=value, got 'junk' (a collision line has op=)
x sample op=1 lane=0 slot=0|1:1: error: cycle 'x' is not a number (decimal or 0x hex)
10|1:3: error: a line needs a kind after its cycle (sample, collision, record, read, undef, reset or pmu)
10 record op=1 slot=0 tot=1 iss=1 keep=2 why=-|1:35: error: keep 2 out of range 0..1
10 record op=1 slot=0 tot=1 iss=1 keep=0 why=lat,foo|1:42: error: why: unknown reason 'foo' (known: discard, ds, ev, lat, nev, type; - for none)
10 record op=1 slot=0 tot=1 iss=1 keep=0 why=lat,lat|1:42: error: why: reason 'lat' given twice
10 record op=1 slot=0 tot=1 iss=1 keep=0 why=|1:42: error: why= needs - or the rejecting reasons
10 record op=1 slot=0 tot=1 iss=1 keep=0|1:41: error: a record line needs why= (it has op= slot= tot= iss= keep= why=)
10 read PMSICR_EL1|1:19: error: a read line needs the value read after the register
10 read PMSFOO_EL1 0x1|1:9: error: unknown register 'PMSFOO_EL1'
10 read PMSICR_EL1 0x1 0x2|1:24: error: unexpected '0x2' after the value read
10 undef x PMSICR_EL1|1:10: error: expected w or r, got 'x'
10 reset now|1:10: error: unexpected 'now' after reset
10 pmu SAMPLE_POP=1 SAMPLE_BOGUS=2|1:21: error: unknown PMU event 'SAMPLE_BOGUS'
10 pmu SAMPLE_POP=1\n11 reset|2:1: error: a line after the pmu line (line 1), which closes a log
# a comment\n\n10 reset\n10 sample op=1 lane=0 slot=0 # comment\n10 sample\top=1 lane=0 slot=9|5:23: error: slot 9 out of range 0..0 (configuration v1p4 has 1 slot)
EOT

# ... and a PMU event the configuration lacks (v1 has no FEAT_SPE_FDS).
printf '10 pmu SAMPLE_POP=1 SAMPLE_FEED_DS=1\n' >"$TMP/their.spl"
run_diff diff/bad/pmu_event_not_in_v1 2 tests/vectors/d17_3_7_collision.spt "$TMP/their.spl" &&
    { grep -qF "$TMP/their.spl:1:21: error: configuration v1 does not implement SAMPLE_FEED_DS" "$TMP/out" &&
        ok diff/bad/pmu_event_not_in_v1 || bad diff/bad/pmu_event_not_in_v1 "$(head -1 "$TMP/out")"; }

# Bad command lines: exit 2, the option (or file) named.
T=$TMP/v1p4.spt
while IFS='|' read -r args want; do
    # shellcheck disable=SC2086
    run_diff "diff/bad_cli/'${args//$TMP/TMP}'" 2 $args || continue
    if grep -qF -- "$want" "$TMP/out"; then ok "diff/bad_cli/'${args//$TMP/TMP}'"; else bad "diff/bad_cli/'${args//$TMP/TMP}'" "$(head -1 "$TMP/out")"; fi
done <<EOT
$T|THEIR.spl is missing
|both are missing
$T $TMP/v1p4.spl $TMP/v1p4.spl|a third file
$T $TMP/v1p4.spl --record-latency 5:2|--record-latency '5:2': MIN 5 is above MAX 2
$T $TMP/v1p4.spl --record-latency x|--record-latency 'x': expected N or MIN:MAX
$T $TMP/v1p4.spl --sample-latency 1:|--sample-latency '1:': expected N or MIN:MAX
$T $TMP/v1p4.spl --record-latency 1 --record-latency 2|--record-latency given twice
$T $TMP/v1p4.spl --record-latency|--record-latency needs a value
$T $TMP/v1p4.spl --list -1|--list '-1'
$T $TMP/v1p4.spl --seed 3|--seed: spu-diff replays the stimulus of TRACE.spt
$T $TMP/v1p4.spl --vectors $TMP/v|--vectors: spu-diff writes its report only
$T $TMP/v1p4.spl --bogus|unknown option '--bogus'
$T $TMP/v1p4.spl --config nosuch|unknown configuration 'nosuch'
$T $TMP/v1p4.spl --config wide|trace written for configuration v1p4, running wide
$T $TMP/v1p4.spl --knob NOSUCH=1|--knob
$T $TMP/nosuch.spl|cannot open the log '$TMP/nosuch.spl'
$T $TMP|cannot read the log '$TMP'
$TMP/nosuch.spt $TMP/v1p4.spl|cannot open the trace
EOT
# --name=value is --name value, for spu-diff's own options and the engine's
# it passes on.
"$DIFF" "$T" "$TMP/v1p4.spl" --record-latency 0:3 --config v1p4 --list 2 >"$TMP/a" 2>&1; r1=$?
"$DIFF" "$T" "$TMP/v1p4.spl" --record-latency=0:3 --config=v1p4 --list=2 >"$TMP/b" 2>&1; r2=$?
if [ $r1 -eq 0 ] && [ $r2 -eq 0 ] && cmp -s "$TMP/a" "$TMP/b"; then ok diff/cli/name_equals_value
else bad diff/cli/name_equals_value "exit $r1 and $r2: $(head -1 "$TMP/b")"; fi
"$DIFF" "$T" "$TMP/v1p4.spl" --ignore-reads=1 >/dev/null 2>"$TMP/e"; r1=$?
if [ $r1 -eq 2 ] && grep -q 'ignore-reads takes no value' "$TMP/e"; then ok diff/cli/flag_takes_no_value
else bad diff/cli/flag_takes_no_value "exit $r1: $(head -1 "$TMP/e")"; fi
"$DIFF" --help >"$TMP/out" 2>&1 && grep -q -- '--record-latency N|MIN:MAX' "$TMP/out" && grep -q '^exit status: 0 the logs agree, 1' "$TMP/out" &&
    ok diff/help || bad diff/help "$(head -2 "$TMP/out")"
t_end
