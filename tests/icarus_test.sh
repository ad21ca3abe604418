#!/usr/bin/env bash
# The second simulator: the same RTL under Icarus Verilog, driven from vector
# files that spu-csim --vectors writes (the golden model's inputs and
# expected outputs per cycle), every output compared every cycle by
# tb/icarus/spu_vec_tb.v. Verilator and the model agree on these traces in
# the lockstep suite, so a PASS here is agreement of the two simulators.
#   tests/icarus_test.sh [full]
# short (make test): 6 hand vectors and one generated trace per
# configuration; full (make icarus, make test-full): every hand vector and
# three generated traces per configuration. Prints PASS/FAIL lines and "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
B=${BUILD:-build}
CSIM=$B/spu-csim
CONFIGS=${CONFIGS:-$(${PYTHON:-python3} tools/gen_config.py --list "${CFG_SRC:-configs/spu.toml}")}
MODE=${1:-short}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=tests/lib.sh
. tests/lib.sh

# One compiled bench per configuration.
for cfg in $CONFIGS; do
    if ! ${IVERILOG:-iverilog} -g2005 -I"$B/gen/$cfg" -Irtl -s spu_vec_tb -o "$TMP/$cfg.vvp" \
            tb/icarus/spu_vec_tb.v rtl/*.v 2>"$TMP/iv.txt"; then
        bad "icarus/build/$cfg" "$(head -2 "$TMP/iv.txt" | tr '\n' ' ')"
    fi
done

# nonzero_cycles VEC FIELD...: for each field (a name of the header's
# "fields" list, inputs and outputs), the cycles in which it is not 0;
# "missing" for a name the header lacks.
nonzero_cycles() {
    local vec=$1
    shift
    awk -v names="$*" '
        NR == 1 { sub(/.* fields /, ""); n = split($0, f, /[ ,]+/); for (i = 1; i <= n; i++) col[f[i]] = i
                  m = split(names, want, " "); next }
        /^#/ { next }
        { for (j = 1; j <= m; j++) if ((want[j] in col) && $col[want[j]] != "0") c[j]++ }
        END { for (j = 1; j <= m; j++) printf "%s%s", (want[j] in col) ? c[j] + 0 : "missing", j < m ? " " : "\n" }' "$vec"
}

# run NAME CFG CSIM-ARGS...: vectors from csim, replayed under Icarus.
run() {
    local name=$1 cfg=$2
    shift 2
    if ! $CSIM "$@" --quiet --vectors "$TMP/v.vec" 2>"$TMP/e"; then
        bad "icarus/$name" "csim: $(head -1 "$TMP/e")"; return
    fi
    ${VVP:-vvp} -n "$TMP/$cfg.vvp" +vectors="$TMP/v.vec" >"$TMP/o.txt" 2>&1
    # Not vacuous: cycles with a selection (smp_valid_o), with a record
    # (rec_valid_o), with a record's bytes (rec_len_o) and with a write beat
    # (mem_valid_o), each found by its name in the header's field list.
    local sel rec bytes beats
    read -r sel rec bytes beats < <(nonzero_cycles "$TMP/v.vec" smp_valid_o rec_valid_o rec_len_o mem_valid_o)
    if grep -q '^icarus: PASS' "$TMP/o.txt" &&
        { [ "$sel" -gt 0 ] && [ "$rec" -gt 0 ] && [ "$bytes" -gt 0 ] && [ "$beats" -gt 0 ] || [ "${name%%/*}" = vector ]; }; then
        ok "icarus/$name ($(sed -nE 's/^icarus: PASS ([0-9]+) cycles.*/\1/p' "$TMP/o.txt") cycles, $sel with a selection, $rec with a record, $bytes with record bytes, $beats with a write beat)"
    else
        bad "icarus/$name" "$sel selection, $rec record, $bytes record-byte and $beats write-beat cycles; $(grep -m3 '^icarus:' "$TMP/o.txt" | tr '\n' ' ')"
    fi
}

n=0
for spt in tests/vectors/*.spt; do
    [ "$MODE" = full ] || [ $n -lt 6 ] || break
    cfg=$(spt_cfg "$spt")
    run "vector/$(basename "${spt%.spt}")" "$cfg" "$spt"
    n=$((n + 1))
done
# Generated traces. A short csim run may leave profiling off at first, or
# keep or write no record, so each run takes the first seeds of 1..30 whose
# csim run samples, keeps, rejects and writes records (run() still checks,
# from the vectors): one per configuration (short) or three, the third with
# the memory stalling the write port in 90 % of the cycles (full).
GEN_ARGS="--gen int_min=1,int_max=3,reset_gap=20000"
# lively CFG STALL: the next seed after $seed whose run is not vacuous, in
# $seed (31: none).
lively() {
    seed=$((seed + 1))
    while [ $seed -le 30 ]; do
        $CSIM --config "$1" --seed $seed --ops 20000 $GEN_ARGS --mem-stall "$2" --quiet --stats-json "$TMP/s.json" &&
            jget "$TMP/s.json" samples kept rejected records.written |
            { read -r s; read -r k; read -r r; read -r w; [ "$s" -gt 0 ] && [ "$k" -gt 0 ] && [ "$r" -gt 0 ] && [ "$w" -gt 0 ]; } &&
            return
        seed=$((seed + 1))
    done
}
for cfg in $CONFIGS; do
    seed=0
    for stall in $([ "$MODE" = full ] && echo 0 0 90 || echo 90); do
        lively "$cfg" $stall
        if [ $seed -gt 30 ]; then
            bad "icarus/generated/$cfg" "no seed of 1..30 samples, keeps, rejects and writes records with --mem-stall $stall"
            break
        fi
        run "generated/$cfg/seed$seed" "$cfg" --config "$cfg" --seed $seed --ops 20000 $GEN_ARGS --mem-stall $stall
    done
done

# planted NAME PORT --cycle N | --first-nonzero GATE: the vectors with bit 0
# of field PORT flipped in one cycle (tests/vec_edit.py, by the header's
# field names) must fail with exactly one difference, at PORT.
planted() {
    if ! ${PYTHON:-python3} tests/vec_edit.py "$TMP/v.vec" "$TMP/bad.vec" "$2" "$3" "$4" 2>"$TMP/o.txt"; then
        bad "icarus/$1" "$(cat "$TMP/o.txt")"
        return
    fi
    ${VVP:-vvp} -n "$TMP/v1p4.vvp" +vectors="$TMP/bad.vec" >"$TMP/o.txt" 2>&1
    if grep -q '^icarus: FAIL 1 differences' "$TMP/o.txt" && grep -q "$2" "$TMP/o.txt"; then
        ok "icarus/$1"
    else
        bad "icarus/$1" "$(grep -m2 '^icarus:' "$TMP/o.txt" | tr '\n' ' ')"
    fi
}
# The bench can fail: one expected output changed in one cycle is reported.
$CSIM --config v1p4 --seed 4 --ops 20000 --quiet --vectors "$TMP/v.vec" 2>/dev/null
planted a_changed_expectation_is_caught obs_enabled_o --cycle 498
# ... and so is one record length changed (the first cycle with a record:
# bit 0 of port 0's rec_len_o), in a run programmed as Linux does, so that
# it has records whatever the generator. (A record's bytes are not a port:
# the write beats below carry them.)
$CSIM --config v1p4 --seed 4 --ops 20000 --perf-event 'arm_spe_0/ts_enable=1/' --period 256 --quiet \
    --vectors "$TMP/v.vec" 2>/dev/null
planted a_changed_record_length_is_caught rec_len_o --first-nonzero rec_len_o
# ... and so is one byte of a write beat of the Profiling Buffer (the first
# beat of the same run: the low digit of mem_data_o).
planted a_changed_write_beat_is_caught mem_data_o --first-nonzero mem_valid_o
t_end
