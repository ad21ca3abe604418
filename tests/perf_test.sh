#!/usr/bin/env bash
# The perf suite (docs/perf.md): hand-built SPE record buffers (tests/perf/,
# made by tests/perf/gen_buffers.py from the packet tables) through spu-perf
# and stock perf 6.1. For every buffer: perf decodes it without an error, our
# decoder's lines equal perf report -D's and the committed perf text, and
# perf script prints the values the generator put in. Then the decoder's
# errors, the CLI's and that a wrong expectation is caught. Prints PASS/FAIL
# lines like tests/tb_tests.sh.
#   tests/perf_test.sh [SCRATCH_DIR]
#   tests/perf_test.sh --update    rewrite tests/perf/*.hex and *.perf (review the diff)
set -uo pipefail
cd "$(dirname "$0")/.."
UPDATE=0
if [ "${1:-}" = --update ]; then UPDATE=1; shift; fi
TMP=${1:-$(mktemp -d)}
[ $# -ge 1 ] || trap 'rm -rf "$TMP"' EXIT
SP=${BUILD:-build}/spu-perf
CSIM=${BUILD:-build}/spu-csim
PERF=${PERF:-perf}
PY=${PYTHON:-python3}
C=tests/perf

# shellcheck source=tests/lib.sh
. tests/lib.sh

[ -x "$SP" ] || { bad perf/built "missing $SP (make perf-tools)"; exit 1; }
# No perf, no suite: that is a failure, never a skip (make test installs it).
if ! command -v "$PERF" >/dev/null; then
    bad perf/installed "no '$PERF' on PATH: 'tools/deps.sh perf' (make deps-perf, as root) installs Debian's linux-perf"
    exit 1
fi
pv=$("$PERF" version 2>&1)
# The committed text is perf 6.1's wording; another perf may word packets otherwise.
case $pv in
    "perf version 6.1."*) ok "perf/version ($pv)" ;;
    *) bad perf/version "'$pv': the corpus holds perf 6.1's text (Debian bookworm's linux-perf)"; exit 1 ;;
esac

mkdir -p "$TMP/gen"
$PY $C/gen_buffers.py "$TMP/gen" || { bad perf/generator "gen_buffers.py failed"; exit 1; }
cases=$(cd "$TMP/gen" && ls *.hex | sed 's/\.hex$//')

# hex2bin HEX BIN: a corpus file (hex, '#' comments) to its bytes.
hex2bin() {
    $PY -c 'import sys,re; t=re.sub(r"#.*","",open(sys.argv[1]).read()); open(sys.argv[2],"wb").write(bytes.fromhex("".join(t.split())))' "$1" "$2"
}
# perf_dump BIN CPU: perf report -D's packet lines without its ". " prefix
# (stderr and exit status in $TMP/perf.err, $TMP/perf.rc).
perf_dump() {
    "$SP" --cpu "$2" "$1" | "$PERF" report -D -i - >"$TMP/perf.out" 2>"$TMP/perf.err"
    echo $? >"$TMP/perf.rc"
    sed -n '/\. \.\.\. ARM SPE data: size/,/^$/p' "$TMP/perf.out" | grep '^\.  ' | cut -c4-
}
# same NAME EXPECTED GOT: PASS when the files are equal, else FAIL with the first difference.
same() {
    if diff -u "$2" "$3" >"$TMP/diff"; then ok "$1"; return 0; fi
    bad "$1" "$(sed -n '3,8p' "$TMP/diff" | tr '\n' ' ' | cut -c1-300)"
    return 1
}
# squeeze: perf script's columns, one space apart.
squeeze() { sed -E 's/^ +//; s/ +$//; s/ +/ /g'; }
# The three perf script views of a buffer the fields checks compare.
script_fields() { "$SP" --cpu "$2" "$1" | "$PERF" script --itrace=i1i -F tid,cpu,time,addr,weight,ip,phys_addr -i - 2>"$TMP/script.err" | squeeze; }
script_events() { "$SP" --cpu "$2" "$1" | "$PERF" script -F tid,event -i - 2>/dev/null | squeeze; }
script_op() { "$SP" --cpu "$2" "$1" | "$PERF" script --itrace=i1i -F data_src -i - 2>/dev/null | sed -E 's/.*\|OP ([A-Za-z]+)\|.*/\1/'; }

if [ $UPDATE = 1 ]; then
    for c in $cases; do
        cp "$TMP/gen/$c.hex" $C/$c.hex
        hex2bin $C/$c.hex "$TMP/$c.bin"
        cpu=$(cat "$TMP/gen/$c.cpu" 2>/dev/null || echo 0)
        perf_dump "$TMP/$c.bin" "$cpu" >$C/$c.perf
        echo "wrote $C/$c.hex, $C/$c.perf ($(wc -l <$C/$c.perf) lines of $pv)"
    done
    exit 0
fi

ncase=0
for c in $cases; do
    ncase=$((ncase + 1))
    # The committed buffer is the generator's: the tables, not a stale copy.
    same "perf/corpus_current/$c" "$TMP/gen/$c.hex" $C/$c.hex || continue
    [ -f $C/$c.perf ] || { bad "perf/corpus_text/$c" "missing $C/$c.perf (tests/perf_test.sh --update)"; continue; }
    hex2bin $C/$c.hex "$TMP/$c.bin"
    cpu=$(cat "$TMP/gen/$c.cpu" 2>/dev/null || echo 0)
    perf_dump "$TMP/$c.bin" "$cpu" >"$TMP/$c.theirs"
    size=$(stat -c %s "$TMP/$c.bin")
    if [ "$(cat "$TMP/perf.rc")" = 0 ] && ! grep -qiE 'bad packet|error|failed' "$TMP/perf.out" "$TMP/perf.err" &&
        grep -q "ARM SPE data: size $(printf '0x%x' "$size") bytes" "$TMP/perf.out" && [ -s "$TMP/$c.theirs" ]; then
        ok "perf/decodes/$c ($size bytes, $(wc -l <"$TMP/$c.theirs") packet lines)"
    else
        bad "perf/decodes/$c" "exit $(cat "$TMP/perf.rc"): $(grep -iE 'bad packet|error|failed' "$TMP/perf.out" "$TMP/perf.err" | head -2 | tr '\n' ' ')"
    fi
    if "$SP" --dump "$TMP/$c.bin" >"$TMP/$c.ours" 2>"$TMP/err"; then
        same "perf/dump_equals_perf/$c" "$TMP/$c.theirs" "$TMP/$c.ours"
    else
        bad "perf/dump_equals_perf/$c" "spu-perf --dump: $(head -1 "$TMP/err")"
    fi
    same "perf/corpus_text/$c" $C/$c.perf "$TMP/$c.theirs"
    [ -f "$TMP/gen/$c.fields" ] || continue
    script_fields "$TMP/$c.bin" "$cpu" >"$TMP/$c.fields"
    if grep -qiE 'error|failed' "$TMP/script.err"; then bad "perf/script_runs/$c" "$(head -2 "$TMP/script.err" | tr '\n' ' ')"; fi
    same "perf/script_fields/$c" "$TMP/gen/$c.fields" "$TMP/$c.fields"
    script_events "$TMP/$c.bin" "$cpu" >"$TMP/$c.events"
    same "perf/script_events/$c" "$TMP/gen/$c.events" "$TMP/$c.events"
    script_op "$TMP/$c.bin" "$cpu" >"$TMP/$c.op"
    same "perf/script_op/$c" "$TMP/gen/$c.op" "$TMP/$c.op"
done
[ $ncase -ge 7 ] && ok "perf/cases_$ncase" || bad perf/cases "only $ncase buffers"

# The checks can fail: a changed expectation of each kind is caught.
caught() {
    if (same "$@") >/dev/null; then bad "perf/catches/$1" "an altered expectation passed"; else ok "perf/catches/$1"; fi
}
sed '3s/ \([0-9]*\) \([0-9a-f]*\) \([0-9a-f]*\)$/ 9\1 \2 \3/' "$TMP/gen/ldst.fields" >"$TMP/alt.fields"  # weight 22 -> 922
caught weight "$TMP/alt.fields" "$TMP/ldst.fields"
sed '2s/ el1 / el0 /' "$TMP/ldst.ours" >"$TMP/alt.ours" && ! cmp -s "$TMP/alt.ours" "$TMP/ldst.ours" && caught dump_el "$TMP/ldst.theirs" "$TMP/alt.ours"
sed '1d' "$TMP/ldst.events" >"$TMP/alt.events"
caught events "$TMP/alt.events" "$TMP/ldst.events"
# ... and perf itself sees a change: one flipped payload bit (PC's NS) changes its text.
$PY -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); i=b.index(0xb0); b[i+8]^=0x80; open(sys.argv[2],"wb").write(b)' "$TMP/ldst.bin" "$TMP/flip.bin"
perf_dump "$TMP/flip.bin" 0 >"$TMP/flip.theirs"
caught perf_sees_bit_flip $C/ldst.perf "$TMP/flip.theirs"

# Our decoder's errors: a clear message naming the byte offset, exit 1, never a crash.
derr() {   # NAME HEX MESSAGE
    printf '%s' "$2" | $PY -c 'import sys; sys.stdout.buffer.write(bytes.fromhex(sys.stdin.read()))' >"$TMP/e.bin"
    "$SP" --dump "$TMP/e.bin" >"$TMP/e.out" 2>"$TMP/e.err"
    local rc=$?
    if [ $rc = 1 ] && grep -qF -- "$3" "$TMP/e.err"; then ok "perf/decode_error/$1"; else bad "perf/decode_error/$1" "exit $rc: $(head -1 "$TMP/e.err")"; fi
}
derr unknown_header "6401000000 0200" "e.bin: offset 0x5: unknown packet header 0x02"
derr unknown_op_header "4c00" "offset 0x0: unknown packet header 0x4c"
derr truncated_timestamp "4900 42 02 71 0102030405" "offset 0x4: packet header 0x71 needs 9 bytes, the buffer ends after 6"
derr truncated_address "00 00 b0 01" "offset 0x2: packet header 0xb0 needs 9 bytes, the buffer ends after 2"
derr truncated_counter "98 01" "offset 0x0: packet header 0x98 needs 3 bytes, the buffer ends after 2"
derr truncated_extended "4900 20" "offset 0x2: extended header 0x20 cut short"
derr extended_unknown "20c0 0000" "offset 0x0: unknown packet header 0x20 0xc0 after an extended header"
# The lines before the bad packet are printed.
if [ "$(wc -l <"$TMP/e.out")" = 0 ]; then
    derr lines_before "4900 ff" "offset 0x2: unknown packet header 0xff"
    if grep -q 'LD GP-REG' "$TMP/e.out"; then ok perf/decode_error/lines_before_kept; else bad perf/decode_error/lines_before_kept "$(cat "$TMP/e.out")"; fi
fi
# Every truncation of a real buffer: a cut at a packet boundary (the spaces
# of the corpus file, not our decoder, say where they are) decodes, any
# other cut is an error naming an offset, never a crash.
bounds=" $($PY -c '
import sys, re
n = 0
for tok in re.sub(r"#.*", "", open(sys.argv[1]).read()).split():
    n += len(tok) // 2
    print(n)' $C/ldst.hex | tr '\n' ' ')"
worst=""; nb=0; ne=0
for cut in $(seq 1 120); do
    head -c $cut "$TMP/ldst.bin" >"$TMP/cut.bin"
    "$SP" --dump "$TMP/cut.bin" >/dev/null 2>"$TMP/cut.err"; rc=$?
    case $bounds in
        *" $cut "*) nb=$((nb + 1)); [ $rc = 0 ] || worst="cut $cut at a packet boundary: exit $rc $(head -1 "$TMP/cut.err")" ;;
        *) ne=$((ne + 1)); { [ $rc = 1 ] && grep -q ': offset 0x' "$TMP/cut.err"; } || worst="cut $cut: exit $rc $(head -1 "$TMP/cut.err")" ;;
    esac
done
if [ -z "$worst" ] && [ $nb -gt 10 ]; then ok "perf/decode_error/every_cut ($nb cuts at boundaries decode, $ne inside packets are errors)"; else bad perf/decode_error/every_cut "${worst:-only $nb boundaries}"; fi

# The decoder under AddressSanitizer and UBSan (make asan-build): every
# packet form, the random records and every cut of a buffer.
ASP=${BUILD:-build}/asan/spu-perf
if [ -x "$ASP" ]; then
    worst=""
    for f in "$TMP/packets.bin" "$TMP/random.bin" "$TMP"/cut.bin "$TMP/e.bin"; do
        "$ASP" --dump "$f" >/dev/null 2>"$TMP/asan.err"; rc=$?
        if [ $rc -gt 1 ] || grep -qE 'Sanitizer|runtime error' "$TMP/asan.err"; then worst="$(basename "$f"): exit $rc $(grep -m1 -E 'Sanitizer|runtime error' "$TMP/asan.err")"; fi
    done
    for cut in 1 2 5 9 17 33 64; do
        head -c $cut "$TMP/random.bin" >"$TMP/acut.bin"
        "$ASP" --dump "$TMP/acut.bin" >/dev/null 2>"$TMP/asan.err"
        [ $? -gt 1 ] && worst="cut $cut: $(grep -m1 -E 'Sanitizer|runtime error' "$TMP/asan.err")"
    done
    "$ASP" "$TMP/ldst.bin" 2>"$TMP/asan.err" | cmp -s - <("$SP" "$TMP/ldst.bin") || worst="the asan build's stream differs"
    if [ -z "$worst" ]; then ok perf/asan_clean; else bad perf/asan_clean "$worst"; fi
else
    bad perf/asan_clean "missing $ASP (make asan-build)"
fi

# The command line: usage errors and unreadable files exit 2 with a message.
cli() {   # NAME WANT ARGS...
    local name=$1 want=$2; shift 2
    "$SP" "$@" >"$TMP/c.out" 2>"$TMP/c.err" </dev/null
    local rc=$?
    if [ $rc = 2 ] && grep -qF -- "$want" "$TMP/c.err"; then ok "perf/cli/$name"; else bad "perf/cli/$name" "exit $rc: $(head -1 "$TMP/c.err")"; fi
}
cli no_file "missing the buffer file"
cli missing_file "$TMP/nosuch.bin: cannot open: No such file or directory" "$TMP/nosuch.bin"
cli directory "$TMP: read error" "$TMP"
cli unknown_option "unknown option '--nope'" --nope "$TMP/ldst.bin"
cli two_files "one buffer file only" "$TMP/ldst.bin" "$TMP/ldst.bin"
cli cpu_negative "--cpu takes a number 0..2147483647, not '-1'" --cpu -1 "$TMP/ldst.bin"
cli cpu_junk "--cpu takes a number 0..2147483647, not '3x'" --cpu 3x "$TMP/ldst.bin"
cli cpu_missing "--cpu needs a CPU number" --cpu
cli cpu_hex "--cpu takes a number 0..2147483647, not '0x3'" --cpu 0x3 "$TMP/ldst.bin"
cli cpu_twice "--cpu given twice" --cpu 1 --cpu 2 "$TMP/ldst.bin"
cli cpu_with_dump "--cpu is for the perf.data stream" --dump --cpu 1 "$TMP/ldst.bin"
if cmp -s <("$SP" --cpu 3 "$TMP/ldst.bin") <("$SP" --cpu=3 "$TMP/ldst.bin") && ! cmp -s <("$SP" --cpu=3 "$TMP/ldst.bin") <("$SP" "$TMP/ldst.bin")
then ok perf/cli/cpu_equals; else bad perf/cli/cpu_equals "--cpu=3 is not --cpu 3"; fi
# A file that is not a buffer of records is refused (exit 2), named as
# what it is; the packets of one that is not are said with their offset.
"$CSIM" --ops 20000 --seed 4 --perf-event 'arm_spe_0/ts_enable=1/' --period 256 --quiet \
    --records "$TMP/in.txt" --emit-trace "$TMP/in.spt" --rec-bin "$TMP/in.bin" 2>/dev/null
"$SP" "$TMP/in.bin" >"$TMP/in.data"
: >"$TMP/in.empty"
printf '\x00\x00\xff\xfe' >"$TMP/in.junk"
printf '\x49\x00\x00\x00' >"$TMP/in.noend"
cli input_records_text "in.txt: the --records text" "$TMP/in.txt"
cli input_trace "in.spt: a .spt stimulus trace" "$TMP/in.spt"
cli input_elf "spu-perf: an ELF file (a program)" "$SP"
cli input_perf_data "in.data: already a perf.data file" "$TMP/in.data"
cli input_empty "in.empty: the file is empty" "$TMP/in.empty"
cli input_dev_null "/dev/null: the file is empty" /dev/null
cli input_text "a text file, not a buffer of SPE records" README.md
cli input_junk "in.junk: not a buffer of SPE records: offset 0x2: unknown packet header 0xff, after 0 whole records" "$TMP/in.junk"
cli input_no_record "in.noend: no whole record in 4 bytes" "$TMP/in.noend"
cli input_dump_text "in.txt: the --records text" --dump "$TMP/in.txt"
if "$SP" --help | grep -q '^usage: spu-perf'; then ok perf/cli/help; else bad perf/cli/help; fi
t_end
