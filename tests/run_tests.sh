#!/usr/bin/env bash
# Every test suite of openspu, in three tiers (README "Tests"). Prints
# PASS/FAIL/SKIP per test and each suite's seconds, and ends with the one line
# "N passed, N failed[, N skipped]". Exit status 1 if anything failed.
#   tests/run_tests.sh [--tier check|test|full] [SUITE...]
#   tests/run_tests.sh --list [--tier T]       the suites of a tier
# check (make check): the inner loop, from a built tree; test (make test, the
# default): every layer, short forms; full (make test-full, CI): everything.
# A tier runs the suites of the tiers before it too; a suite's form (short or
# long) follows the tier. Named SUITEs run in the given tier's form.
# Configurations: the ones spu-tb was built for ($BUILD/spu-tb.configs, which
# the Makefile writes when it links spu-tb); the toml's others are skipped,
# each said in one SKIP line, not failed. CONFIGS=... narrows it further.
set -uo pipefail
cd "$(dirname "$0")/.."
TIER=test
LIST=0
suites=()
while [ $# -gt 0 ]; do
    case $1 in
        --tier) TIER=${2:-}; shift 2 || { echo "run_tests: --tier needs check, test or full" >&2; exit 2; } ;;
        --tier=*) TIER=${1#--tier=}; shift ;;
        --list) LIST=1; shift ;;
        -*) echo "run_tests: unknown option '$1' (--tier check|test|full, --list, SUITE...)" >&2; exit 2 ;;
        *) suites+=("$1"); shift ;;
    esac
done
# The suites of each tier, in running order.
TIER_check=(gen docs lint spec engine api vectors bad csim diff lockstep records cov report)
TIER_test=(pev asan icarus formal dpi ports perf tb front)
TIER_full=(reorder fpga fusesoc peers regress mutate)
case $TIER in
    check) tier_suites=("${TIER_check[@]}") ;;
    test)  tier_suites=("${TIER_check[@]}" "${TIER_test[@]}") ;;
    full)  tier_suites=("${TIER_check[@]}" "${TIER_test[@]}" "${TIER_full[@]}") ;;
    *) echo "run_tests: --tier '$TIER': want check, test or full" >&2; exit 2 ;;
esac
if [ $LIST -eq 1 ]; then echo "${tier_suites[*]}"; exit 0; fi
for s in "${suites[@]}"; do
    case " ${TIER_check[*]} ${TIER_test[*]} ${TIER_full[*]} " in
        *" $s "*) ;;
        *) echo "run_tests: unknown suite '$s' (${TIER_check[*]} ${TIER_test[*]} ${TIER_full[*]})" >&2; exit 2 ;;
    esac
done
[ ${#suites[@]} -gt 0 ] || suites=("${tier_suites[@]}")
B=${BUILD:-build}
PY=${PYTHON:-python3}
# PyPI's tools (tools/deps.sh puts them in a virtual environment), after the system's.
VENV=${VENV:-build/venv}
[ ! -d "$VENV/bin" ] || PATH=$PATH:$(cd "$VENV/bin" && pwd)
VENV_PY=$PY
[ ! -x "$VENV/bin/python" ] || VENV_PY=$(cd "$VENV/bin" && pwd)/python
CSIM=$B/spu-csim
TB=$B/spu-tb
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=tests/lib.sh
. tests/lib.sh
# The configurations: the toml's (the one list), less those spu-tb was not
# built for; exported, so every script below runs the same ones.
ALL_CONFIGS=$(echo $($PY tools/gen_config.py --list "${CFG_SRC:-configs/spu.toml}"))
BUILT_CONFIGS=$ALL_CONFIGS BUILT_APB=${APB_CONFIGS:-}
if [ -f "$B/spu-tb.configs" ]; then
    BUILT_CONFIGS=$(sed -n 's/^CONFIGS=//p' "$B/spu-tb.configs")
    BUILT_APB=$(sed -n 's/^APB_CONFIGS=//p' "$B/spu-tb.configs")
fi
# among LIST SET: the words of LIST that SET has, in LIST's order ("!" SET:
# those it lacks)
among() {
    local c out="" want=1 set=$2
    [ "$2" != "!" ] || { want=0; set=$3; }
    for c in $1; do
        case " $set " in *" $c "*) [ $want = 1 ] && out="$out $c" ;; *) [ $want = 0 ] && out="$out $c" ;; esac
    done
    echo $out
}
CONFIGS_ASKED=$(echo ${CONFIGS:-$ALL_CONFIGS})
CONFIGS=$(among "$CONFIGS_ASKED" "$BUILT_CONFIGS")
APB_CONFIGS=$(among "$BUILT_APB" "$CONFIGS")
DPI_CONFIGS_ALL=${DPI_CONFIGS:-v1p4 wide wide-alt}
DPI_CONFIGS=$(among "$DPI_CONFIGS_ALL" "$CONFIGS")
DPI_NOT_BUILT=$(among "$DPI_CONFIGS_ALL" ! "$CONFIGS")
export CONFIGS APB_CONFIGS DPI_CONFIGS DPI_NOT_BUILT TIER

# check NAME CMD...: the command must exit 0.
check() {
    local name=$1; shift
    if "$@" >"$TMP/out" 2>&1; then ok "$name"; else bad "$name" "$(tail -3 "$TMP/out" | tr '\n' ' ')"; fi
}

# script NAME MIN [PREFIX] -- CMD...: run a test script that prints
# PASS/FAIL/SKIP lines, count them (PREFIX/ before each name when given),
# and fail NAME when fewer than MIN passed (a test skipped, and said so,
# counts: a tree built for fewer configurations skips some) or the script
# failed without saying which test. MIN =N: exactly N must pass or skip.
script() {
    local name=$1 min=$2 prefix=$3 out p f s rc
    shift 4
    out="$TMP/$name.txt"
    "$@" >"$out" 2>&1
    rc=$?
    grep -E '^(PASS|FAIL|SKIP) ' "$out" | sed -E "s#^(PASS|FAIL|SKIP) #\1 ${prefix:+$prefix/}#"
    p=$(grep -c '^PASS ' "$out"); f=$(grep -c '^FAIL ' "$out"); s=$(grep -c '^SKIP ' "$out")
    t_pass=$((t_pass + p)); t_fail=$((t_fail + f)); t_skip=$((t_skip + s))
    [ "$f" -eq 0 ] || t_failed+=("$name ($f)")
    local short=0
    case $min in
        =*) [ $((p + s)) -eq "${min#=}" ] || short=1 ;;
        *)  [ $((p + s)) -ge "$min" ] || short=1 ;;
    esac
    if [ $short -eq 1 ] || { [ $rc -ne 0 ] && [ "$f" -eq 0 ]; }; then
        bad "$name/suite" "$p passed (want ${min/=/exactly }), exit $rc: $(tail -2 "$out" | tr '\n' ' ')"
    fi
}

suite_gen() {
    # make help lists every variable a user sets, with its meaning and value;
    # a configuration variable naming no configuration stops make at once,
    # naming the variable and the toml's; the targets narrow to CONFIGS.
    make help >"$TMP/help" 2>&1
    local v missing=""
    for v in $(sed -nE 's/^([A-Z_]+) *\?=.*/\1/p' Makefile) CONFIGS FORMAL_ARGS FPGA_ARGS PEERS_ARGS; do
        grep -qE "^  $v +[^ []" "$TMP/help" || missing+=" $v"
    done
    if [ -z "$missing" ]; then ok gen/make_help_lists_variables; else bad gen/make_help_lists_variables "not listed:$missing"; fi
    for v in CONFIGS MUT_CONFIGS DPI_CONFIGS RUN_CONFIG; do
        make "$v=v1p4 nope" help >/dev/null 2>"$TMP/err"
        if [ $? -eq 2 ] && grep -qF "$v=v1p4 nope: unknown configuration 'nope' (the toml's: $ALL_CONFIGS)" "$TMP/err"
        then ok "gen/make_checks/$v"; else bad "gen/make_checks/$v" "$(tail -1 "$TMP/err")"; fi
    done
    make -n CONFIGS=wide regress formal fpga 2>/dev/null | grep -E 'tools/(regress|formal|fpga)\.py' >"$TMP/cmds"
    if [ "$(grep -cE -- '--configs "?wide"?( |$)' "$TMP/cmds")" -eq 3 ]; then ok gen/make_targets_honour_configs
    else bad gen/make_targets_honour_configs "$(tr '\n' ' ' <"$TMP/cmds")"; fi
    check gen/check_gen tests/check_gen.sh
    # "1 record", never "1 records": a count before a plural noun takes its
    # ending from plural_s(); the check must catch a planted "%u records".
    check gen/plurals $PY tests/check_plurals.py
    printf 'printf("%%u records\\n", n);\n' >"$TMP/plural_bad.c"
    if $PY tests/check_plurals.py "$TMP/plural_bad.c" >"$TMP/out" 2>&1; then bad gen/plurals_check_catches "passed: $(cat "$TMP/out")"
    else ok gen/plurals_check_catches; fi
    # check-gen must be able to fail: a hand-edited generated file is caught.
    # The edit is made in a copy, never in the real build directory.
    mkdir -p "$TMP/drift"
    cp -r $B/gen "$TMP/drift/gen"
    sed -i 's/SPU_LANES 32.h1/SPU_LANES 32'"'"'h2/' "$TMP/drift/gen/v1p4/spu_config.vh"
    if cmp -s $B/gen/v1p4/spu_config.vh "$TMP/drift/gen/v1p4/spu_config.vh"; then
        bad gen/check_gen_catches_drift "the edit did not apply"
    elif BUILD="$TMP/drift" tests/check_gen.sh >"$TMP/out" 2>&1; then
        bad gen/check_gen_catches_drift "edit not caught"
    else
        ok gen/check_gen_catches_drift
    fi
    # ... and so is a stale or hand-edited committed copy (on copies): the
    # default include, a port include and the port table of docs/ports.md.
    local f what
    for f in spu_config.vh spu_top_ports.vh ports.md; do
        rm -rf "$TMP/drift/inc" && cp -r rtl/include "$TMP/drift/inc" && cp docs/ports.md "$TMP/drift/inc/ports.md"
        case $f in
        spu_config.vh) what='s/SPU_SLOTS 32.h1/SPU_SLOTS 32'"'"'h2/' ;;
        spu_top_ports.vh) what='s/ pop_valid_i,/ pop_valid_x,/' ;;
        ports.md) what='s/| `fin_pc_i` | in | SLOTS·56 /| `fin_pc_i` | in | SLOTS·57 /' ;;
        esac
        sed -i "$what" "$TMP/drift/inc/$f"
        if cmp -s "$TMP/drift/inc/$f" "$([ $f = ports.md ] && echo docs/ports.md || echo rtl/include/$f)"; then
            bad "gen/check_gen_catches_stale_copy/$f" "the edit did not apply"
        elif DEFAULT_VH="$TMP/drift/inc" DOCS_PORTS="$TMP/drift/inc/ports.md" tests/check_gen.sh >"$TMP/out" 2>&1; then
            bad "gen/check_gen_catches_stale_copy/$f" "edit not caught"
        else
            ok "gen/check_gen_catches_stale_copy/$f"
        fi
    done
    # A register outside the APB wrapper's memory map (S3_0_C9_C<9|10>_x)
    # is refused by the generator, naming it.
    sed 's/^enc = \[3, 0, 9, 10, 7\]/enc = [3, 0, 9, 11, 7]/' "${CFG_SRC:-configs/spu.toml}" >"$TMP/apb.toml"
    if cmp -s "$TMP/apb.toml" "${CFG_SRC:-configs/spu.toml}"; then
        bad gen/apb_map_refuses_unreachable_register "the edit did not apply"
    elif ${PYTHON:-python3} tools/gen_config.py "$TMP/apb.toml" "$TMP/apbgen" >"$TMP/out" 2>&1 ||
         ! grep -q "enc \[3, 0, 9, 11, 7\]: spu_apb's memory map" "$TMP/out"; then
        bad gen/apb_map_refuses_unreachable_register "$(head -1 "$TMP/out")"
    else
        ok gen/apb_map_refuses_unreachable_register
    fi
    # The packet table: a payload size out of range and a packet neither
    # builder knows are refused, naming the entry.
    sed 's/^DS        = {hdr = 0x53, bytes = 2,/DS        = {hdr = 0x53, bytes = 9,/' "${CFG_SRC:-configs/spu.toml}" >"$TMP/pkt.toml"
    { cat "${CFG_SRC:-configs/spu.toml}"; printf '\n[packets.EXTRA]\nhdr = 0x20\nbytes = 1\n'; } >"$TMP/pkt2.toml"
    if cmp -s "$TMP/pkt.toml" "${CFG_SRC:-configs/spu.toml}"; then
        bad gen/packet_table_refuses_bad_entries "the edit did not apply"
    elif ${PYTHON:-python3} tools/gen_config.py "$TMP/pkt.toml" "$TMP/pktgen" >"$TMP/out" 2>&1 ||
         ! grep -q "\[packets\] DS: bytes must be 0..8" "$TMP/out"; then
        bad gen/packet_table_refuses_bad_entries "$(head -1 "$TMP/out")"
    elif ${PYTHON:-python3} tools/gen_config.py "$TMP/pkt2.toml" "$TMP/pktgen" >"$TMP/out" 2>&1 ||
         ! grep -q "\[packets\] EXTRA: neither builder knows this packet" "$TMP/out"; then
        bad gen/packet_table_refuses_bad_entries "$(head -1 "$TMP/out")"
    else
        ok gen/packet_table_refuses_bad_entries
    fi
    # A configuration may not take the name of another build of one
    # (apb-<cfg>, wave-<cfg>: the Makefile would give it that build).
    { cat "${CFG_SRC:-configs/spu.toml}"; printf '\n[configs.wave-v1]\nbase = "v1"\n'; } >"$TMP/wave.toml"
    if ${PYTHON:-python3} tools/gen_config.py "$TMP/wave.toml" "$TMP/wavegen" >"$TMP/out" 2>&1 ||
       ! grep -q "\[configs.wave-v1\]: a configuration name may not start with 'wave-'" "$TMP/out"; then
        bad gen/config_name_of_another_build_refused "$(head -1 "$TMP/out")"
    else
        ok gen/config_name_of_another_build_refused
    fi
    # The APB wrapper's register addresses in docs/integration.md are the
    # ones the toml's encodings give.
    check gen/apb_map_doc_matches_toml tools/apb_map_check.py "${CFG_SRC:-configs/spu.toml}" docs/integration.md
    # The input stage (tools/gen_vl_pipe.py): one register per input of
    # spu_top but clk_i, each loaded on ld_i (the ports from the generated
    # include); a module whose port ranges use a localparam is refused,
    # naming the port; so is a missing module or include.
    local inc="${BUILD:-build}/gen/v1p4"
    ${PYTHON:-python3} tools/gen_vl_pipe.py -I "$inc" rtl/spu_top.v spu_top "$TMP/pipe.v" >"$TMP/out" 2>&1
    local nin nreg
    nin=$(grep -cE '^\s*input\s' "$inc/spu_top_ports.vh")
    nreg=$(grep -cE '^  always @\(posedge ld_i\) [a-z_]+_q <= [a-z_]+;$' "$TMP/pipe.v")
    if [ "$nin" -gt 20 ] && [ "$nreg" -eq $((nin - 1)) ] && grep -q '^  spu_top #($' "$TMP/pipe.v"; then
        ok "gen/vl_pipe_registers_every_input ($nreg)"
    else
        bad gen/vl_pipe_registers_every_input "$nreg registers for $nin inputs: $(head -2 "$TMP/out")"
    fi
    printf 'module lp (\n  input wire clk_i,\n  input wire [L-1:0] a_i\n);\n  localparam integer L = 2;\nendmodule\n' >"$TMP/lp.v"
    if ! ${PYTHON:-python3} tools/gen_vl_pipe.py "$TMP/lp.v" lp "$TMP/lp_pipe.v" >"$TMP/out" 2>&1 &&
       grep -q "port a_i's range \[L-1:0\] uses L" "$TMP/out" &&
       ! ${PYTHON:-python3} tools/gen_vl_pipe.py rtl/spu_top.v spu_top "$TMP/x.v" 2>"$TMP/out2" &&
       grep -q "rtl/spu_top.v:[0-9]*: include spu_top_ports.vh is in no -I directory" "$TMP/out2" &&
       ! ${PYTHON:-python3} tools/gen_vl_pipe.py -I "$inc" rtl/spu_top.v nosuch "$TMP/x.v" 2>/dev/null; then
        ok gen/vl_pipe_refuses_what_it_cannot_wrap
    else
        bad gen/vl_pipe_refuses_what_it_cannot_wrap "$(head -2 "$TMP/out")"
    fi
    # The layers: no upward include, no include cycle, no two files that need
    # each other's symbols.
    check gen/layers tests/check_layers.py $B
    # The docs name only options and functions that exist, and their PMU
    # event lists are the toml's; a made-up option and function, and an
    # event added to a copy of the toml, are each caught.
    check gen/docs_name_what_exists $PY tests/check_docs.py $B "${CFG_SRC:-configs/spu.toml}"
    printf 'run `spu-tb --no-such-option` and `no_such_function()`\n' >"$TMP/made_up.md"
    { cat "${CFG_SRC:-configs/spu.toml}"; printf '\n[pmu.NEW_EVENT]\nnumber = 0x8999\nfeature = ""\n'; } >"$TMP/pmu.toml"
    $PY tests/check_docs.py $B "${CFG_SRC:-configs/spu.toml}" "$TMP/made_up.md" >"$TMP/out" 2>&1
    local r1=$?
    $PY tests/check_docs.py $B "$TMP/pmu.toml" >"$TMP/out2" 2>&1
    local r2=$?
    if [ $r1 -eq 1 ] && grep -q 'option --no-such-option' "$TMP/out" && grep -q 'function no_such_function()' "$TMP/out" &&
       [ $r2 -eq 1 ] && grep -q "docs/ports.md: pmu_o lists" "$TMP/out2" && grep -q "docs/formats.md: the pmu line lists" "$TMP/out2"; then
        ok gen/docs_check_catches_made_up_names_and_events
    else
        bad gen/docs_check_catches_made_up_names_and_events "exit $r1/$r2: $(head -2 "$TMP/out" "$TMP/out2" | tr '\n' ' ')"
    fi
}

suite_spec() {
    # Exactly the spec tests there are (a SPEC_TEST() entry of tests/spec/*.c
    # each): one that stops running, or runs twice, is a failure.
    local n
    n=$(cat tests/spec/*.c | grep -c 'SPEC_TEST(')
    script spec "=$n" spec -- $B/spu-spec-tests
    # ... and built with clang (make clang-build): the reference is plain C11.
    if [ -x $B/clang/spu-spec-tests ]; then
        script spec-clang "=$n" spec/clang -- $B/clang/spu-spec-tests
    elif [ "$TIER" = full ]; then
        bad spec/clang/built "missing $B/clang/spu-spec-tests (make clang-build)"
    else
        skip spec/clang "no $B/clang/spu-spec-tests: make clang-build, which make test runs when Debian's clang is installed"
    fi
}

# A golden vector: the hand-derived .spl must match what each tool logs.
vector() {
    local tool=$1 spt=$2 exp=${2%.spt}.spl name
    shift 2
    name=vectors/$(basename "$tool")/$(basename "${spt%.spt}")
    if [ ! -f "$exp" ]; then bad "$name" "missing $exp"; return; fi
    local c
    c=$(spt_cfg "$spt")
    if [ "$tool" = "$TB" ] && ! built "$c"; then skip "$name" "$c is not built in this tree"; return; fi
    if ! "$tool" "$spt" "$@" >"$TMP/got.spl" 2>"$TMP/err"; then bad "$name" "exit $? $(head -2 "$TMP/err")"; return; fi
    if diff -u "$exp" "$TMP/got.spl" >"$TMP/diff"; then ok "$name"; else bad "$name" "$(head -8 "$TMP/diff" | tr '\n' ' ')"; fi
}

suite_vectors() {
    local n=0
    for spt in tests/vectors/*.spt; do
        [ -e "$spt" ] || continue
        n=$((n + 1))
        vector $CSIM "$spt"
        [ -x $TB ] && vector "$TB" "$spt" --expect-vacuous --no-progress
    done
    [ $n -ge 10 ] && ok "vectors/count_$n" || bad vectors/count "only $n golden vectors"
    # the closing pmu line's cycle after the Profiling Buffer's drain, worked
    # out without the model
    ${PYTHON:-python3} tests/vectors_drain.py tests/vectors/*.spt
}

# Bad input: non-zero exit (2) and the expected file:line:col message.
suite_bad() {
    for spt in tests/bad/*.spt; do
        local name=bad/$(basename "${spt%.spt}") exp rc
        exp=$(head -1 "${spt%.spt}.err")
        $CSIM --config v1p4 "$spt" >/dev/null 2>"$TMP/err"
        rc=$?
        if [ $rc -eq 2 ] && grep -qF -- "$exp" "$TMP/err"; then ok "$name"; else bad "$name" "exit $rc, want 2 and: $exp; got: $(head -1 "$TMP/err")"; fi
    done
    # Bad command lines name the option and exit 2.
    printf 'spu-trace 1\ncfg v1p4\n@10\nop\n' >"$TMP/t.spt"
    local args want name
    while IFS='|' read -r args want; do
        # shellcheck disable=SC2086
        $CSIM $args >/dev/null 2>"$TMP/err"
        local rc=$?
        name="bad/cli '${args//$TMP/TMP}'"
        if [ $rc -eq 2 ] && grep -qF -- "$want" "$TMP/err"; then ok "$name"; else bad "$name" "exit $rc: $(head -1 "$TMP/err")"; fi
    done <<EOT
--config nosuch|unknown configuration 'nosuch'
--knob NOSUCH=1|--knob
--knob CU_FE=2|--knob
--knob LFSR_SEED=0|--knob
--gen nosuch=1|--gen
--gen int_min=9,int_max=2|--gen
--seed x|--seed
--ops|--ops needs a value
--ops 0|--ops 0
--ops 1000000000001|1..10^12 members
--knob NOSUCH=1|(the knobs: LFSR_SEED INTERVAL0
--bogus|unknown option '--bogus'
tests/vectors/does_not_exist.spt|cannot open the trace
$TMP/t.spt --seed 2|--seed
$TMP/t.spt --ops 100|--ops
$TMP/t.spt --gen int_min=1|--gen
--config v1 --config v1|--config given twice
--quiet --log $TMP/x.spl|--log
$TMP|is a directory
/dev/null|is not a regular file
$TMP/t.spt --log $TMP/t.spt|refusing to overwrite
$TMP/t.spt --emit-trace $TMP/t.spt|refusing to overwrite
--ops 10 --log $TMP/same --emit-trace $TMP/same|--emit-trace
--ops 10 --log $TMP/new.spl --emit-trace $TMP/../$(basename $TMP)/new.spl|refusing to overwrite
--ops 10 --log $TMP/same2 --stats-json $TMP/same2|--stats-json
--ops 10 --stats-json $TMP/nosuchdir/x.json|cannot write --stats-json
--stats-json|--stats-json needs a value
--seed 1 --seed 2|--seed given twice
--seed -1|a number of 0 or more
--seed 18446744073709551616|out of range
--cycles 10|it is spu-tb's; spu-csim runs --ops
--period 5|--period: it is the sample period of --perf-event
--perf-event arm_spe_0/bogus/|--perf-event: unknown term 'bogus'
--config v1 --perf-event arm_spe_0/discard/|--perf-event: discard=0x1: EOPNOTSUPP
EOT
    # SIGINT stops a run where it is: the partial summary, exit 130.
    $CSIM --ops 1000000000000 --quiet --progress --stats-json "$TMP/int.json" 2>"$TMP/err" & local pid=$!
    # SIGINT once the run has begun (its first progress line)
    for _ in $(seq 100); do grep -q 'op [0-9]' "$TMP/err" && break; sleep 0.1; done
    kill -INT $pid; wait $pid; local rc=$?
    if [ $rc -eq 130 ] && grep -q '^INTERRUPTED config v1p4: stopped by SIGINT at cycle [0-9]* after [0-9]* ops' "$TMP/err" &&
       [ "$(jget "$TMP/int.json" result)" = interrupted ]; then ok bad/csim_sigint_stops_with_summary
    else bad bad/csim_sigint_stops_with_summary "exit $rc: $(tail -1 "$TMP/err")"; fi
    # A generated run that selects nothing fails with spu-tb's words (and
    # passes with --expect-vacuous); a trace's run and one with records of
    # one outcome get a note and exit 0.
    $CSIM --config wide --seed 1 --ops 100000 --quiet --stats-json "$TMP/v.json" 2>"$TMP/err"; local r1=$?
    $CSIM --config wide --seed 1 --ops 100000 --quiet --expect-vacuous 2>"$TMP/err2"; local r2=$?
    $CSIM tests/vectors/d17_3_5_hold_while_disabled.spt --quiet 2>"$TMP/err3"; local r3=$?
    if [ $r1 -eq 1 ] && grep -q '^VACUOUS: no sample was selected in [0-9]* cycles: ' "$TMP/err" &&
       [ "$(jget "$TMP/v.json" result)" = vacuous ] && [ $r2 -eq 0 ] && [ ! -s "$TMP/err2" ] &&
       [ $r3 -eq 0 ] && grep -q '^note: vacuous: no record was rejected in 318 cycles' "$TMP/err3"; then
        ok bad/csim_vacuous_run_reported
    else
        bad bad/csim_vacuous_run_reported "exit $r1, $r2, $r3: $(head -1 "$TMP/err") $(head -1 "$TMP/err3")"
    fi
    # csim's help claims only the exit statuses csim returns.
    if $CSIM --help | grep -q '^exit status' && ! $CSIM --help | grep -qiE 'difference'; then
        ok bad/csim_help_exit_statuses
    else
        bad bad/csim_help_exit_statuses "$($CSIM --help | grep -A1 '^exit')"
    fi
    # Each tool names the other's options as the other's: every option one
    # --help has and the other's lacks is refused with exit 2, naming it.
    local opt
    for opt in $(comm -23 <($TB --help | grep -o -- '--[a-z-]*' | sort -u) <($CSIM --help | grep -o -- '--[a-z-]*' | sort -u)); do
        $CSIM "$opt" >/dev/null 2>"$TMP/err"
        if [ $? -eq 2 ] && grep -qF -- "unknown option '$opt' (it is spu-tb's" "$TMP/err"; then ok "bad/tb_option_in_csim/$opt"
        else bad "bad/tb_option_in_csim/$opt" "$(head -1 "$TMP/err")"; fi
    done
    for opt in $(comm -13 <($TB --help | grep -o -- '--[a-z-]*' | sort -u) <($CSIM --help | grep -o -- '--[a-z-]*' | sort -u)); do
        $TB "$opt" x >/dev/null 2>"$TMP/err"
        if [ $? -eq 2 ] && grep -qE -- "^error: ($opt: |unknown option '$opt' \(it is spu-csim's)" "$TMP/err"; then ok "bad/csim_option_in_tb/$opt"
        else bad "bad/csim_option_in_tb/$opt" "$(head -1 "$TMP/err")"; fi
    done
    # --name=value is --name value, for every option with a value: the same
    # exit status and messages for a path in no directory, which each option
    # refuses (spu-tb's --fail-dir takes it: the 1-cycle run is vacuous); a
    # flag given a value is refused.
    local tool len e1 e2 r1 r2 run
    for tool in csim tb; do
        [ $tool = csim ] && { T=$CSIM; len="--ops 1"; } || { T=$TB; len="--cycles 1"; }
        for opt in $($T --help | sed -nE 's/^  (--[a-z-]+) [A-Z].*/\1/p'); do
            # shellcheck disable=SC2086
            e1=$($T $len "$opt" "$TMP/nodir/x" 2>&1 >/dev/null); r1=$?
            # shellcheck disable=SC2086
            e2=$($T $len "$opt=$TMP/nodir/x" 2>&1 >/dev/null); r2=$?
            e1=$(sed -E 's/[0-9.]+ M cycles\/s//' <<<"$e1"); e2=$(sed -E 's/[0-9.]+ M cycles\/s//' <<<"$e2")
            if [ $r1 -ne 0 ] && [ $r1 -eq $r2 ] && [ "$e1" = "$e2" ]; then ok "bad/opt_equals_value/$tool/$opt"
            else bad "bad/opt_equals_value/$tool/$opt" "exit $r1 '$e1' against exit $r2 '$e2'"; fi
        done
        # "-" is stdout for every output option: the same bytes as a file
        # (less the lines that carry the command line or the seconds), and
        # stdout is given to one output only. The run writes records to a
        # buffer that stays put (--mem-bin refuses a moved one).
        run="$len$([ $tool = csim ] && echo 0000 || echo 00000) --seed 4 --perf-event arm_spe_0/ts_enable=1/ --period 256"
        for opt in $($T --help | sed -nE 's/^  (--[a-z-]+) FILE .*/\1/p'); do
            local q="--quiet" strip='/"seconds"|<td>seconds<|^# openspu functional coverage|M cycles\/s/d'
            [ "$opt" = --log ] && q=""
            # shellcheck disable=SC2086
            $T $run $q "$opt" - >"$TMP/dash.out" 2>"$TMP/e"; r1=$?
            # shellcheck disable=SC2086
            $T $run $q "$opt" "$TMP/dash.file" >/dev/null 2>>"$TMP/e"; r2=$?
            if [ $r1 -eq $r2 ] && [ -s "$TMP/dash.file" ] && cmp -s <(sed -E "$strip" "$TMP/dash.out") <(sed -E "$strip" "$TMP/dash.file")
            then ok "bad/dash_is_stdout/$tool/$opt"; else bad "bad/dash_is_stdout/$tool/$opt" "exit $r1 and $r2: $(head -1 "$TMP/e")"; fi
            rm -f "$TMP/dash.file"
        done
        e1=$($T --quiet --records - --stats-json - 2>&1); r1=$?
        if [ $r1 -eq 2 ] && [ "$e1" = "error: --stats-json -: stdout already carries --records; give one of them a file" ]
        then ok "bad/one_output_on_stdout/$tool"; else bad "bad/one_output_on_stdout/$tool" "exit $r1: $e1"; fi
        e1=$($T --quiet=1 2>&1); r1=$?
        if [ $r1 -eq 2 ] && [ "$e1" = "error: --quiet=1: --quiet takes no value" ]; then ok "bad/flag_takes_no_value/$tool"
        else bad "bad/flag_takes_no_value/$tool" "exit $r1: $e1"; fi
    done
}

suite_engine() {
    script engine 8 "" -- $B/spu-engine-tests tests/vectors/d17_5_5_discard.spt
}

# Shrinking a planted one-character RTL bug, short runs not vacuous, and the
# .spt version 2 forms against an independent expansion.
suite_front() {
    script shrink 1 "" -- tests/shrink_test.sh "$TMP"
    script vacuity 1 "" -- tests/vacuity_test.sh "$TMP"
    script spt2 1 "" -- tests/spt2_test.sh "$TMP"
}

# A port added to the toml and spu_top.v reaches every front end with no
# other edit (the port contract is generated; tests/add_port.sh).
suite_ports() {
    mkdir -p "$TMP/ports"
    script ports =7 "" -- tests/add_port.sh "$TMP/ports"
}

# The register order of the toml must not matter (C and RTL alike).
suite_reorder() {
    mkdir -p "$TMP/reorder"
    script reorder 10 "" -- tests/reorder_regs.sh "$TMP/reorder"
}

# The short form of make test-asan: spec, engine, vectors and bad input with
# the sanitizer build (make asan-build), every sanitizer report a failure.
suite_asan() {
    if [ "$TIER" = full ]; then
        script asan 50 "" -- tests/asan_test.sh spec engine vectors bad csim diff tb
    else
        script asan 50 "" -- tests/asan_test.sh
    fi
}

# make icarus: the RTL under Icarus Verilog against the model's vectors;
# the short form in make test, the full one (make icarus's) in test-full.
# The docs' command blocks (tests/doc_commands.py): each block says what it
# is and names the target that builds what it runs; planted drifts are
# caught; from the test tier on (its binaries built), every sh block of
# README.md and docs/*.md runs too.
suite_docs() {
    if [ "$TIER" != check ]; then
        script docs 40 "" -- tests/doc_commands_test.sh full
    else
        script docs 10 "" -- tests/doc_commands_test.sh short
    fi
}

suite_icarus() {
    if [ "$TIER" = full ]; then
        script icarus 20 "" -- tests/icarus_test.sh full
    else
        script icarus 10 "" -- tests/icarus_test.sh short
    fi
}

# The smoke form of make bench-peers (docs/performance.md): every peer row
# (lockstep, --dut-only, the bare Verilator main, Icarus, cocotb with the
# Python filter reference, csim) builds, runs one short trace and shows the
# model's samples, collisions and records; a planted wrong Python reference
# fails. The cocotb lines say which rejecting reasons the reference decided
# (on v1p4 and wide: type, events, latency, data source). Measures nothing.
suite_peers() {
    script peers =14 "" -- "$VENV_PY" tools/bench_peers.py --build "$B" --smoke
}

# The short form of make cov: functional coverage bins (tests/cov_test.sh).
suite_cov() {
    script cov 15 "" -- tests/cov_test.sh
}

# The short form of make formal: every property group proved by k-induction
# and every cover reached on v1p4 and wide-alt, and planted one-line RTL bugs
# that must fail.
suite_formal() {
    if [ "$TIER" = full ]; then
        script formal 59 "" -- tests/formal_test.sh "$TMP" every
    else
        script formal 12 "" -- tests/formal_test.sh "$TMP" bmc
    fi
}

# The golden model inside other testbenches (docs/integration.md): the DPI-C
# library, spu_top and the model side by side in a SystemVerilog bench, its
# planted differences, make install used from outside the tree.
suite_dpi() {
    script dpi 35 "" -- tests/dpi_test.sh "$TMP"
}

# SPE records through spu-perf and stock perf 6.1 (docs/perf.md): our
# decoder's lines equal perf report -D's, perf script prints the values put
# in, bad input is an error naming its offset. No perf is a failure.
suite_perf() {
    mkdir -p "$TMP/perf"
    script perf 70 "" -- tests/perf_test.sh "$TMP/perf"
}

suite_api() {
    script api 3 "" -- tests/api_example.sh
}

# spu-diff (docs/diff.md): a log against the model, the example Icarus bench
# with and without its record delay, planted wrong decisions, bad input.
suite_diff() {
    script diff 60 "" -- tests/diff_test.sh
}

# A short lockstep run of every configuration built: the RTL and the model
# agree, and the run is not vacuous (spu-tb fails a run that samples,
# collides or records nothing), with and without a stalling write port.
suite_lockstep() {
    [ -x $TB ] || { bad lockstep/built "missing $TB (make tb)"; return; }
    local cfg
    for cfg in $CONFIGS; do
        check "lockstep/$cfg" $TB --config "$cfg" --seed 1 --cycles 2000000 --quiet --no-progress
        check "lockstep/$cfg/mem_stall" $TB --config "$cfg" --seed 2 --cycles 500000 --quiet --no-progress --mem-stall 60
    done
}

suite_csim() {
    local cfg seed
    for cfg in $CONFIGS; do
        for seed in 1 2 3 4; do
            # Skipping ahead must not change a single log line.
            $CSIM --config $cfg --seed $seed --ops 400000 >"$TMP/a.spl"
            $CSIM --config $cfg --seed $seed --ops 400000 --no-skip >"$TMP/b.spl"
            if cmp -s "$TMP/a.spl" "$TMP/b.spl" && [ "$(wc -l <"$TMP/a.spl")" -gt 10 ]; then
                ok "csim/skip_equals_step/$cfg/$seed"
            else
                bad "csim/skip_equals_step/$cfg/$seed" "$(diff "$TMP/a.spl" "$TMP/b.spl" | head -3 | tr '\n' ' ')"
            fi
        done
        # A generated run saved as a trace replays to the same log.
        $CSIM --config $cfg --seed 11 --ops 100000 --emit-trace "$TMP/t.spt" >"$TMP/a.spl"
        $CSIM "$TMP/t.spt" >"$TMP/b.spl"
        if cmp -s "$TMP/a.spl" "$TMP/b.spl" && grep -q ' sample ' "$TMP/a.spl"; then ok "csim/emit_trace_replays/$cfg"; else bad "csim/emit_trace_replays/$cfg"; fi
        # Not vacuous: samples, records kept and rejected, collisions, reads.
        $CSIM --config $cfg --seed 5 --ops 3000000 --quiet --stats-json "$TMP/st.json" --gen int_min=1,int_max=2,p_long=30,ev_density=300 2>"$TMP/st"
        if jget "$TMP/st.json" samples collisions kept rejected | { while read -r n; do [ "$n" -gt 0 ] || exit 1; done; }; then
            ok "csim/stats_not_vacuous/$cfg"
        else
            bad "csim/stats_not_vacuous/$cfg" "samples, collisions, kept, rejected: $(jget "$TMP/st.json" samples collisions kept rejected 2>&1 | tr '\n' ' ') $(head -2 "$TMP/st")"
        fi
    done
    # The progress line reaches 100 % and the last one stays.
    $CSIM --seed 2 --ops 300000 --quiet --progress 2>"$TMP/pr"
    if tr '\r' '\n' <"$TMP/pr" | grep -v '^ *$' | tail -1 | grep -q '^op 300000 of 300000 (100%)'; then
        ok csim/progress_reaches_100
    else
        bad csim/progress_reaches_100 "$(tr '\r' '\n' <"$TMP/pr" | tail -2 | tr '\n' ' ')"
    fi
    # Same seed, same log; different seed, different log.
    $CSIM --seed 3 --ops 200000 >"$TMP/a.spl"; $CSIM --seed 3 --ops 200000 >"$TMP/b.spl"; $CSIM --seed 4 --ops 200000 >"$TMP/c.spl"
    if cmp -s "$TMP/a.spl" "$TMP/b.spl" && ! cmp -s "$TMP/a.spl" "$TMP/c.spl"; then ok csim/seed_reproducible; else bad csim/seed_reproducible; fi
    # --stats answers what the filters do, against a hand-worked trace.
    mkdir -p "$TMP/stats"
    script csim-stats =20 csim -- tests/stats_test.sh "$TMP/stats"
}

# --perf-event: the driver's register sequences per configuration, its
# rejections, parse errors, the stop sequence, lockstep (tests/perf_event_test.sh).
# --report: the HTML page of spu-csim and spu-tb, its structure and figures
# in every tier; in tier full also rendered by headless Chromium and its
# screenshot checked (a SKIP, with the reason, when chromium is missing).
suite_report() {
    mkdir -p "$TMP/report"
    script report 24 "" -- tests/report_test.sh "$TMP/report"
}

suite_records() {
    script records 24 "" -- tests/records_test.sh
}

suite_pev() {
    mkdir -p "$TMP/pev"
    script pev 80 "" -- tests/perf_event_test.sh "$TMP/pev"
}

# The FPGA flow: its check against the baseline can fail, docs/fpga.md's table
# is docs/fpga.json's, and v1 on ECP5-25F is placed and routed for real.
suite_fpga() {
    script fpga 8 "" -- tests/fpga_test.sh "$TMP"
}

# openspu.core under FuseSoC: every RTL file listed, lint/sim/synth targets
# run, and the sim target compares.
suite_fusesoc() {
    script fusesoc 5 "" -- tests/fusesoc_test.sh "$TMP"
}

# Verilator -Wall and Icarus on both tops of every configuration, the C
# with -Werror; tier full adds synthesis with Debian's and PyPI's Yosys.
suite_lint() {
    local synth=none
    [ "$TIER" = full ] && synth=both
    BUILD=$B LINT_SYNTH=$synth tools/lint.sh >"$TMP/lint.txt" 2>&1
    local rc=$?
    grep -E '^lint: .* clean$' "$TMP/lint.txt" | sed 's/^lint: /PASS lint\//'
    t_pass=$((t_pass + $(grep -cE '^lint: .* clean$' "$TMP/lint.txt")))
    if [ $rc -ne 0 ]; then bad lint "$(grep -A3 ':$' "$TMP/lint.txt" | head -8 | tr '\n' ' ')"; fi
}

suite_tb() {
    [ -x $TB ] || { bad tb/built "missing $TB"; return; }
    script tb 1 "" -- tests/tb_tests.sh "$TMP"
    # The check of a quiet cycle in place (spu-tb's common path) agrees
    # with the full one on every output port (tests/quiet).
    if [ "${TB_CXX_TESTS:-1}" = 0 ]; then
        skip tb/quiet_and_public_eval "TB_CXX_TESTS=0: this build has no spu-quiet-test or spu-tb-public-eval"
        return
    fi
    local c
    for c in $CONFIGS; do
        if [ -x $B/spu-quiet-test-$c ]; then script "quiet-$c" 1 tb -- $B/spu-quiet-test-$c
        else bad "tb/quiet/$c" "missing $B/spu-quiet-test-$c"; fi
    done
    tb_public_eval
}

# The clocking shortcuts of vl/vl_clock.h run only on a tested Verilator;
# the public path (eval() on both edges, forced at compile time in
# spu-tb-public-eval) gives the same log, and --stats says which ran.
tb_public_eval() {
    local pe=$B/spu-tb-public-eval c r1 r2 e1 e2
    [ -x "$pe" ] || { bad tb/public_eval/built "missing $pe (make $pe)"; return; }
    for c in $CONFIGS; do
        $TB --config $c --seed 7 --cycles 300000 --no-progress --stats-json "$TMP/j1.json" --gen int_min=1,int_max=3 >"$TMP/fast.spl" 2>"$TMP/e1"; r1=$?
        $pe --config $c --seed 7 --cycles 300000 --no-progress --stats-json "$TMP/j2.json" --gen int_min=1,int_max=3 >"$TMP/pub.spl" 2>"$TMP/e2"; r2=$?
        e1="$(printf '%.2f' "$(jget "$TMP/j1.json" evals_per_cycle)") $(jget "$TMP/j1.json" clocking)"
        e2="$(printf '%.2f' "$(jget "$TMP/j2.json" evals_per_cycle)") $(jget "$TMP/j2.json" clocking)"
        if [ $r1 -eq 0 ] && [ $r2 -eq 0 ] && cmp -s "$TMP/fast.spl" "$TMP/pub.spl" && [ "$(grep -c ' record ' "$TMP/fast.spl")" -gt 10 ] &&
           [[ $e1 == "1.00 one evaluation per raise"*"on vl/vl_clock.h's tested list)" ]] &&
           [[ $e2 == "2.00 eval() on both edges (built with -DSPU_VL_PUBLIC_EVAL)" ]]; then
            ok "tb/public_eval_equals_shortcut/$c"
        else
            bad "tb/public_eval_equals_shortcut/$c" "exit $r1/$r2, '$e1' / '$e2': $(diff "$TMP/fast.spl" "$TMP/pub.spl" | head -2 | tr '\n' ' ')"
        fi
    done
}

# make mutate's harness (build/spu-tb-mut, the v1p4 mutant netlist) on its
# first mutants with a short ladder: the unmutated netlist (mutsel = 0) must
# pass every run and never be activated (tools/mutate_rtl.py exits 2
# otherwise), and each mutant must end exactly as tests/mutate/
# smoke_expect.txt says (killed, or no output change): the harness can both
# pass and kill. The full score is make mutate (docs/verification.md).
suite_mutate() {
    local tbm=$B/spu-tb-mut
    [ -x $tbm ] || { bad mutate/built "missing $tbm (make $tbm)"; return; }
    local t c
    for t in tests/mutate/*.spt; do
        c=$(sed -n 's/^cfg //p' "$t" | head -1)
        built "$c" || { skip "mutate/directed_trace_passes_rtl/$(basename "$t" .spt)" "$c is not built in this tree"; continue; }
        check "mutate/directed_trace_passes_rtl/$(basename "$t" .spt)" $TB "$t" --expect-vacuous --quiet --no-progress
    done
    $TB --config v1p4 --cycles 10 --quiet --no-progress --mutant 1 >/dev/null 2>"$TMP/e"; local rc=$?
    if [ $rc -eq 2 ] && grep -q 'not a mutant build' "$TMP/e"; then ok mutate/tb_refuses_mutant
    else bad mutate/tb_refuses_mutant "exit $rc: $(tail -1 "$TMP/e")"; fi
    if ${PYTHON:-python3} tools/mutate_rtl.py --build "$B" --configs v1p4 --quick --max 6 --no-formal \
        --out "$TMP/mut" >"$TMP/mut.txt" 2>&1; then
        ${PYTHON:-python3} -c 'import json,sys; d=json.load(open(sys.argv[1]))
for m in d["mutants"]: print(m["id"], m["module"], m["mode"], m["src"], m["sim_class"])' "$TMP/mut.json" >"$TMP/mut.got"
        if grep -v '^#' tests/mutate/smoke_expect.txt | diff - "$TMP/mut.got" >"$TMP/mut.diff"; then
            ok mutate/kills_as_expected "$(grep -c ' killed$' "$TMP/mut.got") of $(wc -l <"$TMP/mut.got") killed, the rest not activated by the smoke run or no output change"
        else
            bad mutate/kills_as_expected "the first mutants are not as tests/mutate/smoke_expect.txt says (if the RTL changed, review these and put them there): $(tr '\n' ' ' <"$TMP/mut.diff")"
        fi
    else
        bad mutate/ladder "$(tail -3 "$TMP/mut.txt" | tr '\n' ' ')"
    fi
    # the formal check of survivors: one mutant proven equivalent, one shown
    # not equivalent by a counterexample trace (tests/mutate/formal_expect.txt)
    if ${PYTHON:-python3} tests/mutate/formal_smoke.py "$B" tests/mutate/formal_expect.txt >"$TMP/mutf.txt" 2>&1; then
        ok mutate/formal_verdicts "$(tail -1 "$TMP/mutf.txt")"
    else
        bad mutate/formal_verdicts "$(tail -3 "$TMP/mutf.txt" | tr '\n' ' ')"
    fi
}

# Regressions past one machine: shards, their merge, GNU parallel, Slurm (tests/regress_test.sh).
suite_regress() { script regress 25 "" -- tests/regress_test.sh; }

# Each configuration of the toml not in this tree's spu-tb is said once.
for c in $CONFIGS_ASKED; do
    built "$c" || skip "configs/$c" "spu-tb in $B was not built for it (built: ${BUILT_CONFIGS:-none}; make tb builds every configuration)"
done
[ -n "$CONFIGS" ] || bad configs "no configuration left to test (asked: $CONFIGS_ASKED; built: ${BUILT_CONFIGS:-none})"
echo "tier $TIER: ${suites[*]} on ${CONFIGS:-no configuration}"
times=()
for s in "${suites[@]}"; do
    echo "== $s"
    t0=$(date +%s%N)
    p0=$t_pass f0=$t_fail
    "suite_$s"
    ms=$((($(date +%s%N) - t0) / 1000000))
    times+=("$(printf '%-9s %4d.%d s  %4d passed  %d failed' "$s" $((ms / 1000)) $((ms % 1000 / 100)) $((t_pass - p0)) $((t_fail - f0)))")
    printf -- '-- %s: %d.%d s\n' "$s" $((ms / 1000)) $((ms % 1000 / 100))
done
echo "== seconds per suite (tier $TIER)"
printf '%s\n' "${times[@]}"
[ $t_fail -eq 0 ] || echo "failed: ${t_failed[*]}"
t_end
