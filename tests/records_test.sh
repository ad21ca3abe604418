#!/usr/bin/env bash
# Sample records end to end (docs/records.md): the unit's records decoded by
# stock perf (spu-perf | perf report -D), every field checked against what
# the op carried (tests/records_perf.py); csim and tb write the same records;
# the committed corpus (tests/records/) still comes out byte for byte and
# perf still reads it the same. Prints PASS/FAIL lines.
#   tests/records_test.sh [update]    update: rewrite the corpus (review the diff)
set -uo pipefail
cd "$(dirname "$0")/.."
B=${BUILD:-build}
CSIM=$B/spu-csim TB=$B/spu-tb SP=$B/spu-perf PY=${PYTHON:-python3}
# csim runs every configuration of the toml; spu-tb those it was built for
# (CONFIGS, as tests/run_tests.sh exports it).
ALL_CONFIGS=$(echo $($PY tools/gen_config.py --list "${CFG_SRC:-configs/spu.toml}"))
CONFIGS=${CONFIGS:-$ALL_CONFIGS}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=tests/lib.sh
. tests/lib.sh
command -v perf >/dev/null || { bad records/perf "perf is not installed (make deps installs Debian linux-perf)"; t_end; exit 1; }

# roundtrip NAME CFG MIN CSIM-ARGS...: a csim run's records through perf,
# checked field by field; at least MIN records.
roundtrip() {
    local name=$1 cfg=$2 min=$3
    shift 3
    if ! $CSIM --config "$cfg" "$@" --log "$TMP/r.spl" --rec-bin "$TMP/r.bin" --records "$TMP/r.txt" 2>"$TMP/e"; then
        bad "records/$name" "csim: $(head -1 "$TMP/e")"; return
    fi
    $SP "$TMP/r.bin" | perf report -D -i - >"$TMP/p.txt" 2>"$TMP/p.err"
    if out=$($PY tests/records_perf.py "$cfg" "$TMP/r.spl" "$TMP/r.txt" "$TMP/p.txt" "$min" 2>&1); then
        ok "records/$name (${out#records_perf: })"
        cat "$TMP/p.txt" >>"$TMP/all_perf.txt"
    else
        bad "records/$name" "$out"
    fi
}

PEV='arm_spe_0/ts_enable=1,pa_enable=1,jitter=1/'
for cfg in $ALL_CONFIGS; do
    # programmed as Linux does, profiling on throughout: the 10,000 records
    roundtrip "perf_event/$cfg" "$cfg" 10000 --seed 2 --ops 12000000 --perf-event "$PEV" --period 256
    # the generator's own programming: CX, PA, TS, filters, discard at random
    roundtrip "generated/$cfg" "$cfg" 100 --seed 5 --ops 3000000 --gen int_min=1,int_max=2
done
# Over all of them, every packet kind perf knows by name appeared.
missing=
for k in 'CONTEXT 0x' 'LAT [0-9]* TOT' 'LAT [0-9]* ISSUE' 'PC 0x' 'TGT 0x' 'VA 0x' 'PA 0x' 'ADDR 0x[0-9a-f]* (4)' \
         'DATA-SOURCE' 'LD GP-REG' 'ST SIMD-FP' 'LD AT' 'EXCL' ' AR' 'B COND' 'B IND' 'OTHER INSN-OTHER' \
         'OTHER COND-SELECT' 'EVLEN [0-9]* PRED SG' 'SVE-OTHER EVLEN' 'EV ' 'TS [0-9]' 'END' 'PAD'; do
    grep -q -- "$k" "$TMP/all_perf.txt" 2>/dev/null || missing+=" '$k'"
done
if [ -z "$missing" ]; then ok records/every_kind_seen_by_perf; else bad records/every_kind_seen_by_perf "never decoded:$missing"; fi

# The round trip can fail: a record byte changed in the buffer, and an
# attribute the op carried changed in the header.
$CSIM --config v1p4 --seed 2 --ops 300000 --perf-event "$PEV" --log "$TMP/r.spl" --rec-bin "$TMP/r.bin" --records "$TMP/r.txt" 2>/dev/null
$PY -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[1]^=1; open(sys.argv[1],'wb').write(b)" "$TMP/r.bin"
$SP "$TMP/r.bin" | perf report -D -i - >"$TMP/p.txt" 2>/dev/null
if $PY tests/records_perf.py v1p4 "$TMP/r.spl" "$TMP/r.txt" "$TMP/p.txt" >"$TMP/o" 2>&1; then
    bad records/a_changed_byte_is_caught "$(cat "$TMP/o")"
else
    ok "records/a_changed_byte_is_caught ($(head -c 120 "$TMP/o"))"
fi
$CSIM --config v1p4 --seed 2 --ops 300000 --perf-event "$PEV" --log "$TMP/r.spl" --rec-bin "$TMP/r.bin" --records "$TMP/r.txt" 2>/dev/null
$SP "$TMP/r.bin" | perf report -D -i - >"$TMP/p.txt" 2>/dev/null
sed -i '0,/ pc=0x/s/ pc=0x/ pc=0x1/' "$TMP/r.txt"
if $PY tests/records_perf.py v1p4 "$TMP/r.spl" "$TMP/r.txt" "$TMP/p.txt" >"$TMP/o" 2>&1; then
    bad records/a_changed_attribute_is_caught "$(cat "$TMP/o")"
else
    ok "records/a_changed_attribute_is_caught ($(head -c 120 "$TMP/o"))"
fi

# csim and the lockstep checker write the same records (tb's are the model's,
# compared byte for byte with the RTL's in every cycle).
for cfg in $ALL_CONFIGS; do
    built "$cfg" || { skip "records/csim_equals_tb/$cfg" "$cfg is not built in this tree"; continue; }
    # the first of seeds 1..8 whose run keeps 20 records and rejects one (a
    # lockstep run of a trace must select, keep and reject, or it is vacuous)
    seed=1
    while [ $seed -lt 8 ]; do
        $CSIM --config "$cfg" --seed $seed --ops 200000 --gen int_min=1,int_max=2 --quiet --stats-json "$TMP/s.json" &&
            jget "$TMP/s.json" kept rejected | { read -r k; read -r r; [ "$k" -ge 20 ] && [ "$r" -gt 0 ]; } && break
        seed=$((seed + 1))
    done
    $CSIM --config "$cfg" --seed $seed --ops 200000 --gen int_min=1,int_max=2 --quiet --emit-trace "$TMP/t.spt" \
        --rec-bin "$TMP/c.bin" --records "$TMP/c.txt" 2>/dev/null
    if $TB "$TMP/t.spt" --quiet --rec-bin "$TMP/t.bin" --records "$TMP/t.txt" >"$TMP/tb.out" 2>&1 &&
        cmp -s "$TMP/c.bin" "$TMP/t.bin" && cmp -s "$TMP/c.txt" "$TMP/t.txt" &&
        [ "$(grep -c '^# record' "$TMP/c.txt")" -ge 20 ]; then
        ok "records/csim_equals_tb/$cfg (seed $seed, $(grep -c '^# record' "$TMP/c.txt") records)"
    else
        bad "records/csim_equals_tb/$cfg" "seed $seed: $(tail -1 "$TMP/tb.out")"
    fi
done

# The corpus (tests/records/NAME.*): traces (.spt) cut from generated runs
# (the run's csim arguments in .args; tests/records_corpus.py keeps the
# attributes of the recorded ops only), their buffers (.hex) and perf's
# decoded text (.perf). The model must still write the same bytes from the
# trace, perf and our --records must still read them the same, and together
# they hold every packet kind and every Events payload size the
# configurations produce. `update` remakes the traces from the .args runs.
for args in tests/records/*.args; do
    c=${args%.args}
    name=$(basename "$c")
    if [ "${1:-}" = update ]; then
        read -ra a <"$args"
        $CSIM "${a[@]}" --quiet --emit-trace "$TMP/full.spt" --records "$TMP/full.txt" 2>/dev/null
        $PY tests/records_corpus.py "$TMP/full.spt" "$TMP/full.txt" >"$c.spt"
    fi
    $CSIM "$c.spt" --quiet --rec-bin "$TMP/k.bin" --records "$TMP/k.txt" 2>/dev/null
    $SP "$TMP/k.bin" | perf report -D -i - 2>/dev/null | grep '^\.  [0-9a-f]\{8\}:' | cut -c4- >"$TMP/k.perf"
    if [ "${1:-}" = update ]; then
        od -An -tx1 -v "$TMP/k.bin" | tr -d ' \n' | fold -w 64 >"$c.hex"
        echo >>"$c.hex"
        cp "$TMP/k.perf" "$c.perf"
    fi
    if [ "$(od -An -tx1 -v "$TMP/k.bin" | tr -d ' \n')" = "$(tr -d '\n' <"$c.hex")" ] &&
        cmp -s "$TMP/k.perf" "$c.perf" && diff -q <(grep -v '^#' "$TMP/k.txt") "$c.perf" >/dev/null && [ -s "$c.perf" ]; then
        ok "records/corpus/$name ($(grep -c '^# record' "$TMP/k.txt") records, $(wc -c <"$TMP/k.bin") bytes)"
    else
        bad "records/corpus/$name" "the bytes, perf's text or ours differ from $c.*"
    fi
done
missing=
for k in 'CONTEXT 0x' 'LAT [0-9]* TOT' 'LAT [0-9]* ISSUE' 'PC 0x' 'TGT 0x' 'VA 0x' 'PA 0x' 'ADDR 0x[0-9a-f]* (4)' \
         'DATA-SOURCE' 'LD GP-REG' 'ST GP-REG' 'LD SIMD-FP' 'ST SIMD-FP' 'LD AT' 'EXCL' ' AR' 'B COND' 'B IND' \
         'OTHER INSN-OTHER' 'OTHER COND-SELECT' ' EVLEN ' 'SVE-OTHER' 'TS [0-9]' 'END' 'PAD' \
         ':  42 ' ':  52 ' ':  62 ' ':  72 '; do
    grep -q -- "$k" tests/records/*.perf || missing+=" '$k'"
done
if [ -z "$missing" ]; then ok records/corpus_has_every_kind_and_size; else bad records/corpus_has_every_kind_and_size "missing:$missing"; fi
t_end
