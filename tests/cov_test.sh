#!/usr/bin/env bash
# Functional coverage (sim/cov_bins.c, sim/cov_sample.c, docs/coverage.md), the short form of make cov:
#  - hand vectors hit the bins their comments work out by hand, with those counts;
#  - csim and tb report the same bins for the same stimulus (hand vectors and
#    a generated trace per configuration);
#  - a short generated run per configuration hits bins and no bin listed as
#    unreachable (tools/cov_report.py fails a contradicted reason);
#  - the report catches a contradicted reason, a malformed file and an unclosed
#    bin, so it can fail.
# Prints PASS/FAIL lines.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${BUILD:-build}
CSIM=$B/spu-csim
TB=$B/spu-tb
CONFIGS=${CONFIGS:-$(${PYTHON:-python3} tools/gen_config.py --list "${CFG_SRC:-configs/spu.toml}")}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=tests/lib.sh
. tests/lib.sh
hits() { awk -v n="$2" '$1 == "bin" && $2 == n { print $3; f = 1 } END { if (!f) print "absent" }' "$1"; }
# The bins without the header line (which names the command).
body() { grep -v '^# openspu functional coverage' "$1"; }

# expect FILE NAME=COUNT...: exact hit counts.
expect() {
    local f=$1 name=$2 kv got bad_one=""
    shift 2
    for kv in "$@"; do
        # NAME=COUNT: the count after the last '=' (names may hold one)
        got=$(hits "$f" "${kv%=*}")
        [ "$got" = "${kv##*=}" ] || bad_one+=" ${kv%=*}: ${got} (want ${kv##*=})"
    done
    if [ -z "$bad_one" ]; then ok "cov/$name"; else bad "cov/$name" "$bad_one"; fi
}

# Hand vectors: the counts follow from each vector's worked-out comments.
v=tests/vectors
$CSIM $v/wide_two_selections_one_cycle.spt --quiet --cov "$TMP/two.cov" 2>/dev/null
# draws #1..#820 nonzero (ECOUNT loaded), #821 zero (selects at once); lane 0
# by the ECOUNT=1 software wrote; lanes 0 and 1 in one cycle; lane 2 reloads.
expect "$TMP/two.cov" hand/two_selections ernd.ecount_load=820 ernd.ecount_zero_at_once=1 ernd.expire_written=1 \
    select.2_in_one_cycle=1 select.1_in_one_cycle=0 select.lane0=1 select.lane1=1 interval.reload=1 \
    slot0.alloc=1 slot1.alloc=1 collision.lane0=0 enable.rise.pmsicr_nonzero=1 interval.edge_load=0
$CSIM $v/slot_reuse_next_cycle.spt --quiet --cov "$TMP/reuse.cov" 2>/dev/null
# members 256, 513, 770, 1027, 1028 expire COUNT (513 collides in slot 0's
# finish cycle, where the kept record holds the slot: not while freeing it;
# 1027 in the cycle the encoder reads the last packet of slot 0's record,
# which frees it: while freeing it); 257, 514, 771 reload (1028 finds the
# PMSICR_EL1 = 1 software wrote); 1028 takes slot 0 the cycle after it is
# freed.
# Its three kept records each enter the write path the cycle after their
# finish (a record being encoded keeps its slot, yet it was written).
expect "$TMP/reuse.cov" hand/slot_reuse interval.expire_rnd0=5 interval.reload=3 interval.edge_load=1 \
    select.1_in_one_cycle=5 collision.lane0=2 collision.while_freeing.SLOT_REUSE=0=1 slot0.alloc=3 \
    slot0.free=3 slot0.reuse_next_cycle=1 enable.rise.pmsicr_zero=1 buffer.record_written=3 \
    buffer.wait.waited=0 buffer.wait.then_discarded=0
# The record whose finish cycle writes PMBLIMITR_EL1 waits a cycle more,
# then enters: waited, not discarded.
$CSIM $v/d17_8_limit_write_holds_reservation.spt --quiet --cov "$TMP/hold.cov" 2>/dev/null
expect "$TMP/hold.cov" hand/limit_write_hold buffer.record_written=0 buffer.wait.waited=1 \
    buffer.wait.then_discarded=0 buffer.dropped.disabled_or_stopped=0
$CSIM $v/d17_3_7_collision.spt --quiet --cov "$TMP/coll.cov" 2>/dev/null
if [ "$(hits "$TMP/coll.cov" collision.lane0)" != 0 ] && [ "$(hits "$TMP/coll.cov" collision.lane0)" = \
     "$(awk '/ collision /' "$v/d17_3_7_collision.spl" | wc -l)" ]; then
    ok cov/hand/collisions_match_log
else
    bad cov/hand/collisions_match_log "$(hits "$TMP/coll.cov" collision.lane0)"
fi

# csim and tb: the same bins from the same stimulus.
same() {
    local name=$1 c
    shift
    c=$(spt_cfg "$1")
    if ! built "$c"; then skip "cov/csim_equals_tb/$name" "$c is not built in this tree"; return; fi
    if ! $CSIM "$@" --quiet --cov "$TMP/c.cov" 2>"$TMP/e"; then bad "cov/same/$name" "csim: $(head -1 "$TMP/e")"; return; fi
    $TB "$@" --quiet --no-progress --cov "$TMP/t.cov" >/dev/null 2>"$TMP/e"
    if [ ! -s "$TMP/t.cov" ]; then bad "cov/same/$name" "tb wrote no coverage: $(tail -1 "$TMP/e")"; return; fi
    if diff <(body "$TMP/c.cov") <(body "$TMP/t.cov") >"$TMP/d"; then
        ok "cov/csim_equals_tb/$name"
    else
        bad "cov/csim_equals_tb/$name" "$(head -3 "$TMP/d" | tr '\n' ' ')"
    fi
    rm -f "$TMP/c.cov" "$TMP/t.cov"
}
for t in wide_two_selections_one_cycle slot_reuse_next_cycle d17_5_1_eft_and_mask d17_3_4_3_ernd d17_5_5_discard; do
    same "$t" $v/$t.spt
done
for cfg in $CONFIGS; do
    $CSIM --config $cfg --seed 21 --ops 300000 --quiet --emit-trace "$TMP/g.spt" 2>/dev/null
    same "gen/$cfg" "$TMP/g.spt"
done

# A short generated run per configuration: bins hit, no reason contradicted.
mkdir -p "$TMP/short"
for cfg in $CONFIGS; do
    $TB --config $cfg --seed 4 --cycles 1000000 --quiet --no-progress --cov "$TMP/short/$cfg.4.cov" >/dev/null 2>&1
done
if ${PYTHON:-python3} tools/cov_report.py --quiet "$TMP/short" >"$TMP/r" 2>&1 &&
   [ "$(grep -c 'reachable bins' "$TMP/r")" -eq "$(echo $CONFIGS | wc -w)" ] &&
   ! grep -qE ' 0 with >= 100 hits' "$TMP/r"; then
    ok cov/short_run_report
else
    bad cov/short_run_report "$(tail -3 "$TMP/r" | tr '\n' ' ')"
fi

# The report can fail: a reason contradicted by a hit, a malformed line, an
# unclosed bin under --require-closure.
cp "$TMP/short/v1p4.4.cov" "$TMP/x.4.cov"
sed -i -E '0,/^unreachable ([^ ]+) 0 /s//unreachable \1 3 /' "$TMP/x.4.cov"
if ! ${PYTHON:-python3} tools/cov_report.py --quiet "$TMP/x.4.cov" >"$TMP/r" 2>&1 && grep -q 'is listed as unreachable' "$TMP/r"; then
    ok cov/report_fails_contradiction
else
    bad cov/report_fails_contradiction "$(tail -2 "$TMP/r" | tr '\n' ' ')"
fi
printf 'config v1\ncycles 10\nbin foo x - - -\n' >"$TMP/m.cov"
if ! ${PYTHON:-python3} tools/cov_report.py "$TMP/m.cov" >"$TMP/r" 2>&1 && grep -q "m.cov:3:1: malformed line" "$TMP/r"; then
    ok cov/report_names_bad_line
else
    bad cov/report_names_bad_line "$(tail -2 "$TMP/r" | tr '\n' ' ')"
fi
ucfg=v1
built v1 || ucfg=${CONFIGS%% *}
if ! ${PYTHON:-python3} tools/cov_report.py --quiet --require-closure "$TMP/short/$ucfg.4.cov" >"$TMP/r" 2>&1 && grep -q 'fewer than 100 hits' "$TMP/r"; then
    ok cov/report_fails_unclosed
else
    bad cov/report_fails_unclosed "$(tail -2 "$TMP/r" | tr '\n' ' ')"
fi
# The verdict ends the output: after every bin, one summary line per
# configuration, then the errors; make cov's --require-closure fails an
# unclosed run, and without it (COV_OPEN=1) the same report passes.
n=$(echo $CONFIGS | wc -w)
${PYTHON:-python3} tools/cov_report.py --require-closure "$TMP/short" >"$TMP/r" 2>&1; rc=$?
${PYTHON:-python3} tools/cov_report.py "$TMP/short" >/dev/null 2>&1; rc_open=$?
s=$(grep -n '^--- summary' "$TMP/r" | cut -d: -f1)
if [ $rc -eq 1 ] && [ $rc_open -eq 0 ] && [ -n "$s" ] &&
   [ "$(tail -n +$((s + 1)) "$TMP/r" | grep -cE '^[a-z0-9-]+: [0-9]+ runs, .*(closed by cycle [0-9]+|NOT CLOSED)$')" -eq "$n" ] &&
   tail -n +$((s + 1)) "$TMP/r" | tail -1 | grep -q '^ERROR .*fewer than 100 hits' &&
   ! tail -n +$((s + 1)) "$TMP/r" | grep -q '^  '; then
    ok cov/report_ends_with_verdict
else
    bad cov/report_ends_with_verdict "exit $rc and $rc_open; $(tail -2 "$TMP/r" | tr '\n' ' ')"
fi

# Without the hammer bursts the wide configuration loses its two-selection cycles.
if ! built wide; then
    skip cov/hammer_makes_two_selections "wide is not built in this tree"
else
$TB --config wide --seed 4 --cycles 1000000 --quiet --no-progress --gen p_close=0 --cov "$TMP/nohammer.cov" >/dev/null 2>&1
if [ "$(hits "$TMP/short/wide.4.cov" select.2_in_one_cycle)" -gt 0 ] && [ "$(hits "$TMP/nohammer.cov" select.2_in_one_cycle)" = 0 ]; then
    ok cov/hammer_makes_two_selections
else
    bad cov/hammer_makes_two_selections "with $(hits "$TMP/short/wide.4.cov" select.2_in_one_cycle), without $(hits "$TMP/nohammer.cov" select.2_in_one_cycle)"
fi
fi
# Options: --cov with --dut-only, or onto the trace, is refused.
if ! $TB --config v1p4 --cycles 1000 --dut-only --cov "$TMP/d.cov" >/dev/null 2>"$TMP/e" && grep -q -- '--cov' "$TMP/e" &&
   ! $CSIM $v/reg_read_timing.spt --cov $v/reg_read_timing.spt >/dev/null 2>"$TMP/e2" && grep -q -- '--cov' "$TMP/e2"; then
    ok cov/bad_options
else
    bad cov/bad_options "$(cat "$TMP/e" "$TMP/e2" | head -2 | tr '\n' ' ')"
fi
t_end
