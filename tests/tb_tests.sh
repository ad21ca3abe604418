#!/usr/bin/env bash
# Lockstep checker suite (called by tests/run_tests.sh with a scratch dir).
# Prints PASS/FAIL lines; the caller counts them.
set -uo pipefail
cd "$(dirname "$0")/.."
# The configurations, from the one list in the toml.
CONFIGS=${CONFIGS:-$(${PYTHON:-python3} tools/gen_config.py --list "${CFG_SRC:-configs/spu.toml}")}
TMP=${1:-$(mktemp -d)}
TB=${BUILD:-build}/spu-tb
CSIM=${BUILD:-build}/spu-csim
CYCLES=${TB_CYCLES:-2000000}

# shellcheck source=tests/lib.sh
. tests/lib.sh

# 1. Random lockstep, every configuration, >= 2M cycles, two generator
#    profiles (seed picks the profile) and an extra one with collision pressure.
for cfg in $CONFIGS; do
    for seed in 1 2; do
        # (and never run again: with blocks of plain cycles, a false difference would)
        if $TB --config $cfg --seed $seed --cycles $((CYCLES / 2)) --quiet --no-progress 2>"$TMP/e" \
           && ! grep -q 'run again' "$TMP/e"; then
            ok "tb/lockstep/$cfg/seed$seed"
        else
            bad "tb/lockstep/$cfg/seed$seed" "$(grep -E 'DIFFERENCE|VACUOUS|error|run again' "$TMP/e" | head -2 | tr '\n' ' ')"
        fi
    done
    if $TB --config $cfg --seed 3 --cycles 300000 --quiet --no-progress \
           --gen int_min=1,int_max=2,p_long=30,ev_density=300,reset_gap=40000 2>"$TMP/e" && ! grep -q 'run again' "$TMP/e"; then
        ok "tb/lockstep_pressure_and_resets/$cfg"
    else
        bad "tb/lockstep_pressure_and_resets/$cfg" "$(grep -E 'DIFFERENCE|VACUOUS|error|run again' "$TMP/e" | head -2 | tr '\n' ' ')"
    fi
done

# 1b. Several selections in one cycle (LANES > 1), serially in lane order:
#     the run must compare clean and must actually contain such cycles.
for cfg in wide wide-alt; do
    built $cfg || { skip "tb/several_selections_one_cycle/$cfg" "$cfg is not built in this tree"; continue; }
    $TB --config $cfg --seed 5 --cycles 400000 --quiet --no-progress --gen reprog_gap=100,p_close=100 \
        --stats-json "$TMP/j.json" 2>"$TMP/e"
    rc=$?
    n=$(jget "$TMP/j.json" multi_selection_cycles)
    if [ $rc -eq 0 ] && [ "${n:-0}" -gt 0 ]; then ok "tb/several_selections_one_cycle/$cfg ($n cycles)"; else bad "tb/several_selections_one_cycle/$cfg" "exit $rc, ${n:-0} cycles"; fi
done

# 1c. The Profiling Buffer (docs/buffer.md) under a memory that stalls: every
#     configuration compares clean with buffers that fill (p_small_buf) and
#     a beat queue that stays full (--mem-stall 99), and the run shows both
#     (buffer-full events, and the back-pressure: records that waited for
#     the encoder where there are several slots; with one slot, which the
#     record being encoded holds, selections that collided) and no kept
#     record lost (records.lost: built, neither written, discarded for a
#     disabled or stopped buffer, reset nor still waiting); the final
#     memories of DUT and model are compared at the end.
for cfg in $CONFIGS; do
    $TB --config $cfg --seed 1 --cycles 300000 --quiet --no-progress --stats-json "$TMP/j.json" --mem-stall 99 \
        --gen p_small_buf=30,int_min=1,int_max=2,pop_density=100 2>"$TMP/e"
    rc=$?
    full=$(jget "$TMP/j.json" buffer.full_events)
    waited=$(jget "$TMP/j.json" records.waited)
    coll=$(jget "$TMP/j.json" collisions)
    lost=$(jget "$TMP/j.json" records.lost)
    slots=$(sed -nE "s/.*SPU_SLOTS 32'h([0-9a-f]+).*/\1/p" "${BUILD:-build}/gen/$cfg/spu_config.vh")
    if [ "${slots:-1}" = 1 ]; then back=${coll:-0}; what="selections collided"; else back=${waited:-0}; what="records waited for the encoder"; fi
    if [ $rc -eq 0 ] && [ "${full:-0}" -gt 0 ] && [ "$back" -gt 0 ] && [ "$lost" = 0 ]; then
        ok "tb/buffer_full_and_backpressure/$cfg ($full buffer-full events, $back $what, 0 lost)"
    else
        bad "tb/buffer_full_and_backpressure/$cfg" "exit $rc, ${full:-0} buffer-full events, ${waited:-0} waited, ${coll:-0} collisions, ${lost:-none} lost: $(grep -E 'DIFFERENCE|error' "$TMP/e" | head -1)"
    fi
done

# 1d. Buffers at the full test's edges (p_edge_buf, docs/generator.md): the
#     generator places them (PMBPTR_EL1 in the top page of the address space
#     with LIMIT 0 or 1 (top), in that page with one bit clear (near_top);
#     LIMIT 2 pages above the pointer's (pages2), 2^k + j pages above it
#     with k >= 12 (pow2)), and every configuration compares clean on them,
#     buffers filling.
$CSIM --config v1p4 --seed 1 --ops 200000 --quiet --gen p_edge_buf=100,reprog_gap=300 --emit-trace "$TMP/edge.spt" 2>/dev/null
kinds=$(${PYTHON:-python3} - "$TMP/edge.spt" <<'PY'
import re, sys
ptr, kinds, top = None, set(), (1 << 52) - 1
for line in open(sys.argv[1]):
    m = re.match(r"w (PMBPTR|PMBLIMITR)_EL1 (0x[0-9a-f]+)$", line.strip())
    if m and m.group(1) == "PMBPTR":
        ptr = int(m.group(2), 16) >> 12
    elif m and ptr is not None and int(m.group(2), 16) & 1:
        lim = int(m.group(2), 16) >> 12
        gap = (lim - ptr) % (1 << 52)
        if ptr == top and lim in (0, 1):
            kinds.add("top")
        if bin(ptr).count("1") == 51:
            kinds.add("near_top")
        if gap == 2:
            kinds.add("pages2")
        if gap >= 1 << 12 and (gap & (gap - 1)) < 4:
            kinds.add("pow2")
print(" ".join(sorted(kinds)))
PY
)
case " $kinds " in
    *" near_top pages2 pow2 top "*) ok "tb/edge_buffers_placed ($kinds)" ;;
    *) bad tb/edge_buffers_placed "buffers seen: ${kinds:-none}" ;;
esac
for cfg in $CONFIGS; do
    $TB --config $cfg --seed 2 --cycles 150000 --quiet --no-progress --stats-json "$TMP/j.json" --mem-stall 50 \
        --gen p_small_buf=100,p_edge_buf=100,int_min=1,int_max=1,pop_density=100,p_filter=0,reprog_gap=300 2>"$TMP/e"
    rc=$?
    full=$(jget "$TMP/j.json" buffer.full_events)
    lost=$(jget "$TMP/j.json" records.lost)
    if [ $rc -eq 0 ] && [ "${full:-0}" -gt 0 ] && [ "$lost" = 0 ]; then
        ok "tb/edge_buffers_compare/$cfg ($full buffer-full events)"
    else
        bad "tb/edge_buffers_compare/$cfg" "exit $rc, ${full:-0} buffer-full events, ${lost:-none} lost: $(grep -E 'DIFFERENCE|error' "$TMP/e" | head -1)"
    fi
done

# 1e. Stray issue and finish events (--stray-events, docs/semantics.md "Input
#     corner cases": for a free slot, an issued one, or none): every
#     configuration compares clean with them, slots also held by waiting
#     records (a stalling memory, small buffers), the run carried both kinds,
#     and no kept record was lost; csim, which then takes no skip ahead,
#     logs what spu-tb logs.
for cfg in $CONFIGS; do
    $TB --config $cfg --seed 3 --cycles 200000 --quiet --no-progress --stats-json "$TMP/j.json" --stray-events 20 \
        --mem-stall 50 --gen p_small_buf=30 2>"$TMP/e"
    rc=$?
    si=$(jget "$TMP/j.json" stray.issues)
    sf=$(jget "$TMP/j.json" stray.finishes)
    kept=$(jget "$TMP/j.json" kept)
    lost=$(jget "$TMP/j.json" records.lost)
    if [ $rc -eq 0 ] && [ "${si:-0}" -gt 0 ] && [ "${sf:-0}" -gt 0 ] && [ "${kept:-0}" -gt 0 ] && [ "$lost" = 0 ]; then
        ok "tb/stray_events_compare/$cfg ($si stray issues, $sf stray finishes, $kept records kept)"
    else
        bad "tb/stray_events_compare/$cfg" "exit $rc, stray ${si:-none}/${sf:-none}, kept ${kept:-none}, lost ${lost:-none}: $(grep -E 'DIFFERENCE|contradict|error' "$TMP/e" | head -1)"
    fi
done
if ! built wide; then
    skip tb/stray_events_log_is_csims "wide is not built in this tree"
else
$CSIM --config wide --seed 4 --ops 100000 --stray-events 30 --emit-trace "$TMP/stray.spt" >"$TMP/stray_csim.spl"
$TB "$TMP/stray.spt" --no-progress --stray-events 30 >"$TMP/stray_tb.spl" 2>"$TMP/e"
if [ -s "$TMP/stray_tb.spl" ] && cmp -s "$TMP/stray_tb.spl" "$TMP/stray_csim.spl"; then
    ok "tb/stray_events_log_is_csims ($(grep -c record "$TMP/stray_tb.spl") record lines)"
else
    bad tb/stray_events_log_is_csims "$(diff "$TMP/stray_tb.spl" "$TMP/stray_csim.spl" | head -3 | tr '\n' ' ')"
fi
fi

# 2. Mid-run resets really happen in that profile, and the log is csim's.
if ! built wide; then
    skip tb/mid_run_reset_and_same_log_as_csim "wide is not built in this tree"
else
$TB --config wide --seed 3 --cycles 300000 --no-progress --gen int_min=1,int_max=2,p_long=30,ev_density=300,reset_gap=40000 \
    >"$TMP/tb.spl" 2>/dev/null
$CSIM --config wide --seed 3 --ops 200000 --emit-trace "$TMP/r.spt" --gen reset_gap=30000 >"$TMP/csim.spl"
$TB "$TMP/r.spt" --no-progress >"$TMP/tb2.spl" 2>"$TMP/e"
if [ "$(grep -c ' reset$' "$TMP/tb.spl")" -ge 2 ] && cmp -s "$TMP/csim.spl" "$TMP/tb2.spl"; then
    ok "tb/mid_run_reset_and_same_log_as_csim"
else
    bad "tb/mid_run_reset_and_same_log_as_csim" "resets $(grep -c ' reset$' "$TMP/tb.spl"), $(diff "$TMP/csim.spl" "$TMP/tb2.spl" | head -2 | tr '\n' ' ')"
fi
fi

# 2b. One eval per cycle (the shim's shortcuts through Verilator-internal
#     names) and a real clock on both edges (--full-clock) log the same,
#     and each really ran its way (--stats-json counts the DUT's evals per cycle),
#     both with spu_top behind the input stage, its outputs a step late.
for cfg in $CONFIGS; do
    $TB --config $cfg --seed 6 --cycles 300000 --no-progress --stats-json "$TMP/j1.json" --gen int_min=1,int_max=3 >"$TMP/once.spl" 2>"$TMP/e1"; r1=$?
    $TB --config $cfg --seed 6 --cycles 300000 --no-progress --stats-json "$TMP/j2.json" --gen int_min=1,int_max=3 --full-clock >"$TMP/full.spl" 2>"$TMP/e2"; r2=$?
    e1="$(printf '%.2f' "$(jget "$TMP/j1.json" evals_per_cycle)") $(jget "$TMP/j1.json" input_stage)"
    e2="$(printf '%.2f' "$(jget "$TMP/j2.json" evals_per_cycle)") $(jget "$TMP/j2.json" input_stage)"
    if [ $r1 -eq 0 ] && [ $r2 -eq 0 ] && cmp -s "$TMP/once.spl" "$TMP/full.spl" && [ "$(grep -c ' record ' "$TMP/once.spl")" -gt 10 ] \
       && [ "$e1" = "1.00 1" ] && [ "$e2" = "2.00 1" ]; then
        ok "tb/one_eval_equals_full_clock/$cfg"
    else
        bad "tb/one_eval_equals_full_clock/$cfg" "exit $r1/$r2, evals per cycle and input stage '$e1'/'$e2' (want 1.00 1/2.00 1) $(diff "$TMP/once.spl" "$TMP/full.spl" | head -2 | tr '\n' ' ')"
    fi
    # ... and so does the loop without blocks of plain cycles (--no-skip,
    # lockstep_fast.c), where the run with them took most cycles in blocks and
    # never ran again (a false difference in a block would)
    $TB --config $cfg --seed 6 --cycles 300000 --no-progress --stats-json "$TMP/j3.json" --gen int_min=1,int_max=3 --no-skip >"$TMP/noskip.spl" 2>"$TMP/e3"; r3=$?
    all=$(jget "$TMP/j1.json" cycles)
    b1=$(jget "$TMP/j1.json" checked_in_blocks)
    b3=$(jget "$TMP/j3.json" checked_in_blocks)
    if [ $r1 -eq 0 ] && [ $r3 -eq 0 ] && cmp -s "$TMP/once.spl" "$TMP/noskip.spl" && [ -n "$all" ] && [ -n "$b1" ] \
       && [ $((b1 * 2)) -ge "$all" ] && [ "$b3" = 0 ] && [ "$(jget "$TMP/j1.json" rerun)" = 0 ]; then
        ok "tb/blocks_equal_no_skip/$cfg ($b1 of $all cycles in blocks)"
    else
        bad "tb/blocks_equal_no_skip/$cfg" "exit $r1/$r3, ${b1:-no}/${b3:-no} of ${all:-no} cycles in blocks (want half / 0) $(grep 'run again' "$TMP/e1") $(diff "$TMP/once.spl" "$TMP/noskip.spl" | head -2 | tr '\n' ' ')"
    fi
    # The differential test of the seam: the default fast loop and the
    # reference loop (--reference, tb/lockstep.c) give identical logs,
    # record bytes, record text and reports (but for the speed figure).
    for mode in fast reference; do
        $TB --config $cfg --seed 6 --cycles 300000 --no-progress --gen int_min=1,int_max=3 --mem-stall 20 \
            --rec-bin "$TMP/$mode.bin" --records "$TMP/$mode.txt" --log "$TMP/$mode.spl" \
            $([ $mode = reference ] && echo --reference) 2>&1 | sed -E 's/[0-9.]+ M cycles\/s//' >"$TMP/$mode.e"
    done
    if cmp -s "$TMP/fast.spl" "$TMP/reference.spl" && cmp -s "$TMP/fast.bin" "$TMP/reference.bin" \
       && cmp -s "$TMP/fast.txt" "$TMP/reference.txt" && cmp -s "$TMP/fast.e" "$TMP/reference.e" \
       && [ -s "$TMP/fast.bin" ] && grep -q '^PASS' "$TMP/fast.e"; then
        ok "tb/fast_equals_reference/$cfg ($(stat -c %s "$TMP/fast.bin") record bytes)"
    else
        bad "tb/fast_equals_reference/$cfg" "$(for f in spl bin txt e; do cmp "$TMP/fast.$f" "$TMP/reference.$f" 2>&1 | head -1; done | tr '\n' ' ')"
    fi
done

# 2c. The progress line reaches 100 % and the last one stays.
$TB --config v1p4 --seed 4 --cycles 200000 --quiet --progress 2>"$TMP/pr"
if tr '\r' '\n' <"$TMP/pr" | grep -q '^cycle 200000 of 200000 (100%)'; then ok tb/progress_reaches_100; else bad tb/progress_reaches_100 "$(tr '\r' '\n' <"$TMP/pr" | tail -3 | tr '\n' ' ')"; fi

# 2d. A quiet cycle of the model: the middle of the first gap of 1000
#     cycles after cycle 150000 in which the log has nothing (no selection,
#     collision, record, access or reset, and so no write beat).
$TB --config v1p4 --seed 5 --cycles 300000 --no-progress --log "$TMP/tf1.spl" 2>/dev/null
qc=$(awk '$1 > 150000 { if (p && $1 - p > 1000) { print p + 500; exit } p = $1 }' "$TMP/tf1.spl")
# 2e. The checker checks the outputs of a plain cycle of the model in place
#     (lockstep.c: step_check_quiet(), and step_block() in a block of plain
#     cycles), each output changed being one that path compares: it must
#     catch each of those differences at its cycle, with blocks (the run with
#     them stops there, and its run again without reports it) and without
#     (--no-skip), and a passing run must have checked most cycles that way
#     (--stats-json: checked_in_place). SAMPLE_POP and PMSICR_EL1 vary in a block, so their flip
#     is made inside one: step_block() must catch it there.
# The three loops must report it alike (the fast one with blocks from the
# reference loop run again, into its own files: the user's are not cut).
report() { sed -E '/the run did not pass|^DUT clocking/d; s#[^ ]*/[^ ]*\.spt#SPT#g; s/ --(no-skip|reference)//' "$1"; }
for sig in obs_pmsicr_o reg_rdata_o "pmu_o[SAMPLE_POP]" obs_enabled_o; do
    $TB --config v1p4 --seed 5 --cycles 300000 --no-progress --fail-dir "$TMP/tq1fail" --log "$TMP/tq1.spl" \
        --inject "$sig@$qc" 2>"$TMP/tq1e"; r=$?
    $TB --config v1p4 --seed 5 --cycles 300000 --quiet --no-progress --fail-dir "$TMP/tq1fail" --no-skip \
        --inject "$sig@$qc" 2>"$TMP/tq1n"; rn=$?
    $TB --config v1p4 --seed 5 --cycles 300000 --quiet --no-progress --fail-dir "$TMP/tq1fail" --reference \
        --inject "$sig@$qc" 2>"$TMP/tq1r"; rr=$?
    again=$(sed -n 's/.*the report below is from the reference loop run again, its files in \([^ ]*\)$/\1/p' "$TMP/tq1e")
    if [ $r -eq 1 ] && [ $rn -eq 1 ] && [ $rr -eq 1 ] && grep -q "FIRST DIFFERENCE at cycle $qc ===" "$TMP/tq1e" \
       && grep -q "the run did not pass (a difference at cycle $qc; .* in blocks of plain cycles)" "$TMP/tq1e" \
       && ! grep -q 'run again' "$TMP/tq1n" && [ -n "$again" ] && [ -s "$again/run.spl" ] \
       && [ "$(tail -1 "$TMP/tq1.spl" | cut -d' ' -f1)" -le "$qc" ] \
       && cmp -s <(report "$TMP/tq1e") <(report "$TMP/tq1r") && cmp -s <(report "$TMP/tq1n") <(report "$TMP/tq1r"); then
        ok "tb/quiet_cycle_difference_caught/$sig"
    else
        bad "tb/quiet_cycle_difference_caught/$sig" "exit $r/$rn/$rr at cycle $qc, run again in '$again': $(diff <(report "$TMP/tq1e") <(report "$TMP/tq1r") | head -3 | tr '\n' ' ') $(diff <(report "$TMP/tq1n") <(report "$TMP/tq1r") | head -3 | tr '\n' ' ')"
    fi
done
$TB --config v1p4 --seed 5 --cycles 300000 --quiet --no-progress --stats-json "$TMP/tqs.json" 2>"$TMP/tqs"; r=$?
all=$(jget "$TMP/tqs.json" cycles)
inplace=$(jget "$TMP/tqs.json" checked_in_place)
if [ $r -eq 0 ] && [ -n "$all" ] && [ -n "$inplace" ] && [ $((inplace * 10)) -ge $((all * 9)) ]; then
    ok "tb/quiet_cycles_checked_in_place"
else
    bad "tb/quiet_cycles_checked_in_place" "exit $r: ${inplace:-no} of ${all:-no} cycles in place (want 90 %)"
fi
# Blocks of plain cycles: on with the log on a pipe too (a failing run is
# run again into files of its own, never the user's), off saying why.
$TB --config v1p4 --seed 5 --cycles 100000 --no-progress --stats-json "$TMP/bp.json" 2>"$TMP/bp" | cat >/dev/null; rp=$?
$TB --config v1p4 --seed 5 --cycles 100000 --no-progress --stats-json "$TMP/br.json" --reference >/dev/null 2>"$TMP/br"; rr=$?
bp=$(jget "$TMP/bp.json" checked_in_blocks)
if [ $rp -eq 0 ] && [ $rr -eq 0 ] && [ "${bp:-0}" -gt 50000 ] && [ "$(jget "$TMP/br.json" checked_in_blocks)" = 0 ] \
   && [ "$(jget "$TMP/br.json" blocks_off)" = "--reference" ] && [ "$(jget "$TMP/br.json" checked_in_place)" = 0 ]; then
    ok tb/blocks_off_says_why
else
    bad tb/blocks_off_says_why "exit $rp/$rr, ${bp:-no} cycles in blocks on a pipe; --reference: $(jget "$TMP/br.json" checked_in_blocks blocks_off checked_in_place 2>&1 | tr '\n' ' ')"
fi

# 3. X initialisation: several +verilator+seed values, identical logs (the
#    last configuration of the toml built: wide-alt, the widest).
xcfg=${CONFIGS##* }
for init in 1 77 4242; do
    $TB --config $xcfg --seed 9 --cycles 200000 --init-seed $init --no-progress >"$TMP/x$init.spl" 2>"$TMP/e"
done
if cmp -s "$TMP/x1.spl" "$TMP/x77.spl" && cmp -s "$TMP/x1.spl" "$TMP/x4242.spl" && grep -q ' sample ' "$TMP/x1.spl"; then
    ok "tb/x_init_seeds_identical_logs/$xcfg"
else
    bad "tb/x_init_seeds_identical_logs/$xcfg"
fi

# 4. Self-test: a planted difference is caught at the right cycle and signal.
#    The cycle is the first record of the run, taken from csim's log of the
#    same stimulus.
$CSIM --config v1p4 --seed 4 --ops 400000 --emit-trace "$TMP/p.spt" >"$TMP/p.spl"
rc_cycle=$(awk '$2 == "record" {print $1; exit}' "$TMP/p.spl")
for sig in "rec_tot_lat_o[port 0]" obs_pmsicr_o "pmu_o[SAMPLE_POP]" reg_rdata_o; do
    c=$rc_cycle
    [ "$sig" = "rec_tot_lat_o[port 0]" ] || c=$((rc_cycle + 17))
    $TB "$TMP/p.spt" --quiet --no-progress --fail-dir "$TMP/fail" --inject "$sig@$c" 2>"$TMP/e"
    rc=$?
    if [ $rc -eq 1 ] && grep -q "FIRST DIFFERENCE at cycle $c ===" "$TMP/e" && grep -qF "$sig " "$TMP/e" \
       && [ "$(grep -cE '^(rec|obs|pmu|reg|smp|col)[a-z_]*(\[| )' "$TMP/e")" -eq 1 ]; then
        ok "tb/selftest_catches/$sig"
    else
        bad "tb/selftest_catches/$sig" "exit $rc: $(grep -A2 DIFFERENCE "$TMP/e" | tr '\n' ' ')"
    fi
done

# 5. The failure report: saved stimulus reproduces; every part is present.
saved=$(grep -oE '[^ ]*/fail/[^ ]+\.spt' "$TMP/e" | head -1)
if [ -n "$saved" ] && [ -s "$saved" ] && grep -q 'last 32 cycles' "$TMP/e" && grep -q 'model registers' "$TMP/e" \
   && grep -q -- '--init-seed' "$TMP/e" && grep -qE '^binary .*spu-tb \(Vspu_v1p4 ' "$TMP/e"; then
    $TB "$saved" --quiet --no-progress --fail-dir "$TMP/fail" --inject "reg_rdata_o@$((rc_cycle + 17))" 2>"$TMP/e2"
    if grep -q "FIRST DIFFERENCE at cycle $((rc_cycle + 17))" "$TMP/e2"; then ok tb/report_and_saved_stimulus; else bad tb/report_and_saved_stimulus "saved trace does not reproduce"; fi
else
    bad tb/report_and_saved_stimulus "report incomplete"
fi

# 6. --wave writes an FST of a window; --shrink reduces the failing trace.
$TB "$TMP/p.spt" --quiet --no-progress --fail-dir "$TMP/fail" --inject "obs_pmsicr_o@$rc_cycle" --wave 2>"$TMP/e"
fst=$(grep -oE '[^ ]*/fail/[^ ]+\.fst' "$TMP/e" | head -1)
# (the whole run on the model with tracing, which no other run uses)
if [ -n "$fst" ] && [ -s "$fst" ] && grep -q 'difference reproduced' "$TMP/e" \
   && grep -qE '^binary .*spu-tb \(Vspu_wave_v1p4 ' "$TMP/e"; then
    ok tb/wave_window
else
    bad tb/wave_window "$(grep -E 'wave|^binary' "$TMP/e")"
fi
$TB "$TMP/p.spt" --quiet --no-progress --fail-dir "$TMP/fail" --inject "obs_pmsicr_o@$rc_cycle" --shrink 2>"$TMP/e"
min=$(grep -oE '[^ ]*/fail/[^ ]+-min\.spt' "$TMP/e" | head -1)
orig=$(grep -oE '[^ ]*/fail/[^ ]+\.spt' "$TMP/e" | head -1)
if [ -n "$min" ] && [ "$(wc -l <"$min")" -lt "$(wc -l <"$orig")" ] \
   && ! $TB "$min" --quiet --no-progress --fail-dir "$TMP/fail" --expect-vacuous --inject "obs_pmsicr_o@$rc_cycle" 2>/dev/null; then
    ok "tb/shrink_reduces ($(wc -l <"$orig") -> $(wc -l <"$min") lines)"
else
    bad tb/shrink_reduces "$(grep shrink "$TMP/e")"
fi

# 7. Not vacuous: a trace that selects nothing fails unless it says so.
printf 'spu-trace 1\ncfg v1p4\n@100\nr PMSICR_EL1\n' >"$TMP/empty.spt"
$TB "$TMP/empty.spt" --quiet --no-progress 2>"$TMP/e"; rc=$?
if [ $rc -eq 1 ] && grep -q VACUOUS "$TMP/e"; then ok tb/vacuous_run_fails; else bad tb/vacuous_run_fails "exit $rc"; fi
if $TB "$TMP/empty.spt" --quiet --no-progress --expect-vacuous 2>/dev/null; then ok tb/expect_vacuous; else bad tb/expect_vacuous; fi

# 7b. The APB wrapper spu_apb (--apb, docs/integration.md) in lockstep on the
#     configurations built with it (APB_CONFIGS): the stimulus's register
#     accesses over APB, PRDATA/PREADY/PSLVERR compared every cycle besides
#     the unit's outputs; the run must carry accesses, counter reads and
#     refused partial-strobe writes, and a flipped APB output is caught in
#     its cycle.
[ -n "${APB_CONFIGS-v1p4 wide}" ] || skip tb/apb "no configuration of this tree has a build of spu_apb"
for cfg in ${APB_CONFIGS-v1p4 wide}; do
    $TB --config $cfg --seed 4 --cycles $((CYCLES / 2)) --quiet --no-progress --apb --stats-json "$TMP/j.json" 2>"$TMP/e"
    rc=$?
    acc=$(jget "$TMP/j.json" apb.accesses)
    pmr=$(jget "$TMP/j.json" apb.pmu_reads)
    bst=$(jget "$TMP/j.json" apb.partial_strobe_writes)
    if [ $rc -eq 0 ] && [ "${acc:-0}" -gt 0 ] && [ "${pmr:-0}" -gt 0 ] && [ "${bst:-0}" -gt 0 ]; then
        ok "tb/apb/lockstep/$cfg ($acc accesses, $pmr counter reads, $bst partial-strobe writes)"
    else
        bad "tb/apb/lockstep/$cfg" "exit $rc: $(grep -E 'DIFFERENCE|VACUOUS|error|APB' "$TMP/e" | head -2 | tr '\n' ' ')"
    fi
    for sig in prdata_o pready_o pslverr_o; do
        $TB --config $cfg --seed 4 --cycles 200000 --quiet --no-progress --apb --fail-dir "$TMP/fail" \
            --inject "$sig@3000" 2>"$TMP/e"
        rc=$?
        if [ $rc -eq 1 ] && grep -q 'FIRST DIFFERENCE at cycle 3000 ' "$TMP/e" && grep -qE "^$sig " "$TMP/e"; then
            ok "tb/apb/inject_caught/$cfg/$sig"
        else
            bad "tb/apb/inject_caught/$cfg/$sig" "exit $rc: $(grep -E 'DIFFERENCE|^[a-z_]+_o |error' "$TMP/e" | head -3 | tr '\n' ' ')"
        fi
    done
done
# ... and the DUT-only bench runs it too.
if ! [[ " ${APB_CONFIGS-v1p4 wide} " == *" v1p4 "* ]]; then
    skip tb/apb/dut_only "v1p4's spu_apb is not built in this tree"
elif $TB --config v1p4 --seed 4 --cycles 200000 --quiet --no-progress --apb --dut-only 2>"$TMP/e"; then
    ok tb/apb/dut_only
else
    bad tb/apb/dut_only "$(head -2 "$TMP/e" | tr '\n' ' ')"
fi

# Counts of one are singular in the closing line (a collision trace: one
# sample, one collision, in its configuration when built).
if built v1; then
    $TB tests/vectors/d17_3_7_collision.spt --quiet --no-progress --expect-vacuous 2>"$TMP/e"
    if grep -q '^PASS config v1: 603 cycles compared, 0 differences, 1 sample, 1 collision, records kept 1 rejected 0, 0 cycles with several' "$TMP/e"
    then ok tb/plurals; else bad tb/plurals "$(tail -1 "$TMP/e")"; fi
else
    skip tb/plurals "v1 is not built in this tree"
fi

# SIGINT stops a run where it is: the partial summary, --stats-json says
# "interrupted", exit 130 (the fast and the reference loop).
for loop in fast reference; do
    $TB --cycles 100000000000 --quiet --no-progress --stats-json "$TMP/int.json" \
        $([ $loop = reference ] && echo --reference) 2>"$TMP/e" & pid=$!
    # SIGINT once the run has begun (its first line is printed just before)
    for _ in $(seq 100); do grep -q '^spu-tb: config' "$TMP/e" && break; sleep 0.1; done
    sleep 0.2; kill -INT $pid; wait $pid; rc=$?
    if [ $rc -eq 130 ] && grep -q '^INTERRUPTED config v1p4: stopped by SIGINT after [0-9]* cycles compared, 0 differences' "$TMP/e" &&
       [ "$(jget "$TMP/int.json" result)" = interrupted ]; then ok "tb/sigint_stops_with_summary/$loop"
    else bad "tb/sigint_stops_with_summary/$loop" "exit $rc: $(tail -1 "$TMP/e")"; fi
done

# 8. Bad input to tb: clear error naming the option, exit 2.
printf 'spu-trace 1\ncfg v1p4\n@10\nop\n' >"$TMP/t.spt"
while IFS='|' read -r args want; do
    # shellcheck disable=SC2086
    $TB $args >/dev/null 2>"$TMP/e"; rc=$?
    name="tb/bad_input '${args//$TMP/TMP}'"
    if [ $rc -eq 2 ] && grep -qF -- "$want" "$TMP/e"; then ok "$name"; else bad "$name" "exit $rc: $(head -1 "$TMP/e")"; fi
done <<EOT
tests/bad/fin_lt_iss.spt|fin_lt_iss.spt:
--knob CU_FE=1 --cycles 10|--knob
--config nosuch --cycles 10|unknown configuration 'nosuch'
--inject nosuch@5 --cycles 10|unknown output 'nosuch'
--emit-trace x.spt --cycles 10|--emit-trace
--cycles 0|--cycles 0
--cycles 18446744073709551615|1..10^11 cycles
$TMP/t.spt --seed 3|--seed
$TMP/t.spt --cycles 100|--cycles
$TMP/t.spt --gen int_min=1|--gen
--config v1 --config v1p4|--config given twice
--dut-only --wave|--wave
--dut-only --shrink|--shrink
--quiet --log $TMP/x.spl|--log
$TMP|is a directory
/dev/null|is not a regular file
$TMP/missing.spt|cannot open the trace
$TMP/t.spt --log $TMP/t.spt|refusing to overwrite
$TMP/t.spt --inject obs_pmsicr_o@500|never fired
--seed 1 --seed 2|--seed given twice
--cycles 10 --log $TMP/a.spl --log $TMP/b.spl|--log given twice
--init-seed 0|--init-seed 0
--init-seed 2147483648|--init-seed 2147483648
--expect-vacuous --cycles 1000|--expect-vacuous
--dut-only --stats --cycles 10|--stats
--threads 2 --cycles 10|unknown option '--threads' (removed: the checker runs in one thread
--dut-only --stats-json /dev/null --cycles 10|--stats-json: --dut-only runs no model
--ops 10|it is spu-csim's
--config v1 --apb --cycles 10|no Verilated build of spu_apb for configuration 'v1'
--apb --perf-event arm_spe_0// --cycles 10|--perf-event
--cycles 10 --inject pslverr_o@5|add --apb
EOT
if built v1; then
    $TB --config v1 --cycles 10 --inject 'pmu_o[SAMPLE_FEED_DS]@5' >/dev/null 2>"$TMP/e"; rc=$?
    if [ $rc -eq 2 ] && grep -qF "has no output 'pmu_o[SAMPLE_FEED_DS]'" "$TMP/e"; then ok tb/inject_event_the_config_lacks
    else bad tb/inject_event_the_config_lacks "exit $rc: $(head -1 "$TMP/e")"; fi
else
    skip tb/inject_event_the_config_lacks "v1 is not built in this tree"
fi
$TB --config v1p4 --cycles 10 --inject 'rec_tot_lat_o[port 1]@5' >/dev/null 2>"$TMP/e"; rc=$?
if [ $rc -eq 2 ] && grep -qF "has no output 'rec_tot_lat_o[port 1]'" "$TMP/e"; then ok tb/inject_port_the_config_lacks; else bad tb/inject_port_the_config_lacks "exit $rc: $(head -1 "$TMP/e")"; fi
if grep -q '^op$' "$TMP/t.spt"; then ok tb/log_never_overwrites_the_trace; else bad tb/log_never_overwrites_the_trace; fi

# 9. An injected difference says so, and its reproduce commands inject too.
$TB "$TMP/p.spt" --quiet --no-progress --fail-dir "$TMP/fail" --inject "pmu_o[SAMPLE_FEED]@$((rc_cycle + 5))" 2>"$TMP/e"; rc=$?
if [ $rc -eq 1 ] && grep -q '^INJECTED by --inject' "$TMP/e" \
   && [ "$(sed -n '/^--- reproduce/,$p' "$TMP/e" | grep -cF -- "--inject 'pmu_o[SAMPLE_FEED]@$((rc_cycle + 5))'")" -ge 2 ]; then
    ok tb/inject_reported_and_reproduced
else
    bad tb/inject_reported_and_reproduced "exit $rc: $(sed -n '/^--- reproduce/,$p' "$TMP/e" | head -3 | tr '\n' ' ')"
fi

# 10. Failures are saved beside the binary (BUILD/fail), from any directory,
#     and a saved trace that fails again keeps its name (no doubled prefix).
abs_tb=$(cd "$(dirname "$TB")" && pwd)/$(basename "$TB")
(cd "$TMP" && "$abs_tb" "$TMP/p.spt" --quiet --no-progress --inject "obs_pmsicr_o@$rc_cycle" 2>"$TMP/e")
saved=$(grep -oE '[^ ]*/fail/[^ ]+\.spt' "$TMP/e" | head -1)
case "$saved" in
    "$(dirname "$abs_tb")/fail/"*) ok tb/fail_dir_beside_binary ;;
    *) bad tb/fail_dir_beside_binary "saved as '$saved'" ;;
esac
if [ -n "$saved" ] && [ -f "$saved" ]; then # keep the real fail directory for real failures
    cp "$saved" "$TMP/beside.spt" && rm -f "$saved"
    saved=$TMP/beside.spt
fi
if [ -n "$saved" ] && [ ! -e "$TMP/build/fail" ]; then
    "$TB" "$saved" --quiet --no-progress --fail-dir "$TMP/fail" --inject "obs_pmsicr_o@$rc_cycle" 2>"$TMP/e"
    again=$(basename "$(grep -oE '[^ ]*/fail/[^ ]+\.spt' "$TMP/e" | head -1)")
    case "$again" in
        v1p4-v1p4-*|"") bad tb/fail_name_not_doubled "$again" ;;
        *) ok "tb/fail_name_not_doubled ($again)" ;;
    esac
else
    bad tb/fail_name_not_doubled "no saved trace, or it went to the current directory"
fi
t_end
