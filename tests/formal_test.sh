#!/usr/bin/env bash
# The formal suite of the test tiers (tests/run_tests.sh formal): short forms
# of make formal, and proof that the properties can fail.
#   tests/formal_test.sh TMPDIR bmc      (make test) a bounded check from
#                                        reset of every group on v1p4, and
#                                        two planted bugs
#   tests/formal_test.sh TMPDIR every    (make test-full) k-induction of every
#                                        group and the cover task on v1p4 and
#                                        wide-alt, a bounded check of every
#                                        group on every other configuration,
#                                        and two planted bugs
#   tests/formal_test.sh TMPDIR full     ... and every planted bug below
# Prints PASS/FAIL per task: PASS formal/<cfg>/<task> when a proof closes;
# PASS formal/mutant/<group>/<n> when the planted bug makes that group fail.
set -uo pipefail
cd "$(dirname "$0")/.."
TMP=${1:?usage: tests/formal_test.sh TMPDIR bmc|every|full}
MODE=${2:?usage: tests/formal_test.sh TMPDIR bmc|every|full}
case $MODE in bmc|every|full) ;; *) echo "formal_test: mode '$MODE': want bmc, every or full" >&2; exit 2 ;; esac
B=${BUILD:-build}
PY=${PYTHON:-python3}
rc=0

# The real RTL: every group proved by k-induction and every cover reached, on
# the default configuration and the widest one (8 lanes, 3 slots, every knob
# flipped).
if [ "$MODE" = bmc ]; then
    $PY tools/formal.py --build "$B" --out "$B/formal-test" --configs v1p4 \
        --modes bmc --pass-lines --jobs 2 || rc=1
else
    $PY tools/formal.py --build "$B" --out "$B/formal-test" --configs v1p4,wide-alt \
        --modes prove,cover --pass-lines --jobs 2 || rc=1
    others=$($PY tools/gen_config.py --list "${CFG_SRC:-configs/spu.toml}" | grep -vxE 'v1p4|wide-alt' | paste -sd,)
    $PY tools/formal.py --build "$B" --out "$B/formal-test-bmc" --configs "$others" \
        --modes bmc --pass-lines --jobs 2 || rc=1
fi

# Planted bugs: one line of a copy of rtl/ changed, the group that guards it
# must fail (a proof that passes whatever the RTL does proves nothing).
# group~config~file~sed expression~the bug
MUTANTS=$(cat <<'EOT'
sel~v1p4~spu_interval.v~s/\.valid_i    (pop_valid_i \& {LANES{en_i}})/.valid_i    (pop_valid_i)/~members counted while profiling is disabled
lanes~wide~spu_lanes.v~s/count_i - {28'd0, i} :/count_i - {27'd0, i, 1'b0} :/~the parallel lanes count each member twice
discard~v1p4~spu_complete.v~s/rec_o \& collect \& {SLOTS{.discard}}/rec_o \& collect/~discard mode keeps records
inflight~wide-alt~spu_slots.v~s/^\( *\)busy_q\[s\] \&\& !named\[s\];/\1!named[s];/~a finish of a free slot completes it
slot~wide-alt~spu_slots.v~s/avail = avail \& .take;/avail = avail;/~two lanes can take the same slot
filter~v1p4~spu_filter.v~s/collect_o    = (why_o == 5'd0);/collect_o    = (why_o[4:1] == 4'd0);/~the type filter is ignored
coll~v1p4~spu_regs.v~s/else if (coll_set_i)$/else/;s/bsr_d\[COLL\] = 1'b1;/bsr_d[COLL] = coll_set_i;/~COLL cleared by the next cycle without a collision
icr~v1p4~spu_to_collect_sample.v~s/count_m1  = count - 32'd1;/count_m1  = count - 32'd2;/~COUNT decrements by two
lfsr~v1p4~spu_lfsr_step.v~s/wire \[7:0\] new_byte = state_i\[16:9\] ^ state_i\[21:14\] ^/wire [7:0] new_byte = state_i[23:16] ^ state_i[21:14] ^ state_i[21:14] ^/~an LFSR step that can reach zero
undef~v1p4~spu_regs.v~s/if (!pres || (reg_write_i \&\& ro)) begin/if (!pres) begin/~an MSR to an ID register is not UNDEFINED
slot~v1p4~spu_slots.v~s/(busy_q | wait_i) | ((SLOT_REUSE/(busy_q) | ((SLOT_REUSE/~a slot whose record waits is given to a selection
buffer~wide~spu_buffer.v~s/wait_d              = wait_d | c1;/wait_d              = wait_d;/~a record with no queue entry is lost, not kept waiting
full~v1p4~spu_buffer.v~s/(b\[11:0\] > LOW_MAX)/(b[11:0] >= LOW_MAX)/~the full test one byte early at LIMIT - 1 << MaxSize
full~v1~spu_limit_gap.v~s/lim_gap_q - 53'd1;/lim_gap_q;/~the limit gap not moved when the pointer crosses 4 KiB
full~v1p4~spu_buffer.v~s/{4'd0, c_new} > room/{4'd0, c_new} >= room/~the stop ahead of a fill one byte early
full~wide~spu_buffer.v~s/wb_q - {4'd0, wr_len_o}/wb_q/~the waiting bytes not lowered when a record enters
EOT
)
n=0
while IFS='~' read -r group cfg file expr what; do
    [ -n "$group" ] || continue
    n=$((n + 1))
    [ "$MODE" = full ] || [ $n -le 2 ] || continue
    name=formal/mutant/$group/$n
    d="$TMP/formal-mutant-$n"
    rm -rf "$d" && mkdir -p "$d" && cp -r rtl "$d/rtl"
    sed -i "$expr" "$d/rtl/$file"
    if cmp -s "rtl/$file" "$d/rtl/$file"; then
        echo "FAIL $name: the edit of $file did not apply"; rc=1; continue
    fi
    # A bounded check from reset must find a counterexample (--expect fail:
    # exit 0 only when the task ended FAIL, not UNKNOWN or ERROR).
    if $PY tools/formal.py --build "$B" --out "$d/work" --rtl "$d/rtl" --configs "$cfg" \
            --groups "$group" --modes bmc --expect fail >"$d/log" 2>&1; then
        echo "PASS $name ($what: $(grep -o 'failed [A-Za-z_ ()]*' "$d/log" | head -1))"
    else
        echo "FAIL $name: $what, yet the $group proof on $cfg passed: $(tail -3 "$d/log" | tr '\n' ' ')"
        rc=1
    fi
done <<<"$MUTANTS"
exit $rc
