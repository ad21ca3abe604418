#!/usr/bin/env bash
# The golden model inside other testbenches (docs/integration.md): the DPI-C
# layer's own contract, its header against the package's imports, spu_top
# and the model through DPI-C side by side under Verilator on every
# configuration of DPI_CONFIGS (make dpi builds them), planted differences
# the bench must name, bad input, and make install into a scratch PREFIX used
# from outside the tree (a C program linked shared and static with only
# pkg-config, the SV bench built against the installed package and library).
# docs/integration.md's commands themselves run in the docs suite.
#   tests/dpi_test.sh [TMPDIR]       prints PASS/FAIL lines and "N passed, N failed"
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
B=${BUILD:-build}
CSIM=$B/spu-csim
DOC=docs/integration.md
TMP=$(mktemp -d "${1:-${TMPDIR:-/tmp}}/dpi.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
ulimit -c 0 # a failing bench stops with $fatal, which Verilator ends with abort()
CONFIGS=${CONFIGS:-$(${PYTHON:-python3} tools/gen_config.py --list "${CFG_SRC:-configs/spu.toml}")}
# The Makefile exports DPI_CONFIGS; run alone, the benches that are built.
DPI_CONFIGS=${DPI_CONFIGS:-$(for c in $CONFIGS; do [ -x "$B/dpi/$c/spu_dpi_tb" ] && echo "$c"; done)}
# shellcheck source=tests/lib.sh
. tests/lib.sh
bench() { echo "$B/dpi/$1/spu_dpi_tb"; }
# quiet CMD...: CMD in a subshell that reports its abort() (a bench's $fatal)
# to the redirected stderr, not to ours.
quiet() { ("$@"; r=$?; exit $r); }

# The C contract of golden/dpi (tests/dpi/spu_dpi_c_test.c).
if [ -x $B/spu-dpi-tests ]; then
    $B/spu-dpi-tests >"$TMP/c.txt" 2>&1
    rc=$?
    cat "$TMP/c.txt"
    t_pass=$((t_pass + $(grep -c '^PASS ' "$TMP/c.txt"))); t_fail=$((t_fail + $(grep -c '^FAIL ' "$TMP/c.txt")))
    [ $rc -eq 0 ] || bad dpi/c "exit $rc"
else
    bad dpi/c "missing $B/spu-dpi-tests (make dpi)"
fi

missing=""
for cfg in v1p4 $DPI_CONFIGS; do [ -x "$(bench $cfg)" ] || missing+=" $cfg"; done
if [ -n "$missing" ]; then
    bad dpi/benches_built "missing$missing under $B/dpi (make dpi)"
    t_end; exit 1
fi
# At least one configuration with several lanes and ports besides v1p4.
if grep -qE '^`define SPU_SLOTS 32.h[2-9]' $(for c in $DPI_CONFIGS; do echo "$B/gen/$c/spu_config.vh"; done); then
    ok "dpi/configurations ($DPI_CONFIGS)"
elif ! built wide && ! built wide-alt; then
    skip dpi/configurations "no configuration with several slots is built in this tree ($CONFIGS)"
else
    bad dpi/configurations "DPI_CONFIGS '$DPI_CONFIGS' has no configuration with several slots"
fi

# golden/dpi/spu_dpi.h declares what spu_dpi_pkg.sv imports: both in one C++
# unit, where extern "C" functions cannot be overloaded; a changed argument
# type is caught.
agree() {
    printf '#include "Vspu_dpi_tb__Dpi.h"\n#include "spu_dpi.h"\n' >"$TMP/agree.cpp"
    ${CXX:-g++} -fsyntax-only -Wall -Werror -I"$(${VERILATOR:-verilator} --getenv VERILATOR_ROOT)/include/vltstd" \
        -I"$B/dpi/v1p4" -I"$1" -Igolden/dpi -I"$B/gen" "$TMP/agree.cpp" >"$TMP/agree.txt" 2>&1
}
if agree golden/dpi; then ok dpi/header_declares_the_package_imports; else bad dpi/header_declares_the_package_imports "$(head -3 "$TMP/agree.txt" | tr '\n' ' ')"; fi
mkdir -p "$TMP/hdr"
# (the port list is generated: spu_ports.h's SPU_DPI_PORTS)
sed 's/X(rst_ni, BIT, IN)/X(rst_ni, VEC, IN)/' "$B/gen/spu_ports.h" >"$TMP/hdr/spu_ports.h"
if cmp -s "$B/gen/spu_ports.h" "$TMP/hdr/spu_ports.h"; then bad dpi/header_mismatch_is_caught "the edit did not apply"
elif agree "$TMP/hdr"; then bad dpi/header_mismatch_is_caught "a changed rst_ni type compiled"
else ok dpi/header_mismatch_is_caught; fi

# run NAME BENCH VECTORS ARGS...: the bench must PASS with samples, kept and
# rejected records and write beats; its PASS line goes to $TMP/pass.txt.
run() {
    local name=$1 tb=$2 vec=$3
    shift 3
    quiet "$tb" +vectors="$vec" "$@" >"$TMP/o.txt" 2>&1
    local rc=$? line
    line=$(grep -m1 '^dpi: PASS' "$TMP/o.txt")
    echo "$line" >"$TMP/pass.txt"
    if [ $rc -eq 0 ] && grep -qE 'cycles compared, 0 differences, samples [1-9][0-9]*, records kept [1-9][0-9]* rejected [1-9][0-9]*, write beats [1-9]' <<<"$line"; then
        ok "dpi/$name (${line#dpi: PASS })"
    else
        bad "dpi/$name" "exit $rc: $(grep -m3 '^dpi:\|Error' "$TMP/o.txt" | tr '\n' ' ')"
    fi
}

# Every configuration: a run programmed as Linux programs the unit (records
# kept and rejected by the load filter, timestamps) with a memory stalling
# half the cycles.
for cfg in $DPI_CONFIGS; do
    if $CSIM --config "$cfg" --seed 4 --ops 20000 --perf-event 'arm_spe_0/load_filter=1,ts_enable=1/' --period 128 \
        --mem-stall 50 --quiet --vectors "$TMP/$cfg.vec" 2>"$TMP/e"; then
        run "lockstep/$cfg" "$(bench "$cfg")" "$TMP/$cfg.vec"
    else
        bad "dpi/lockstep/$cfg" "csim: $(head -1 "$TMP/e")"
    fi
done

# The vectors of the planted and install tests below: docs/integration.md's
# first run (the docs suite runs that page's commands and checks its PASS
# line; here the tree bench's line is what the installed bench must print).
V=$TMP/doc.vec
if $CSIM --config v1p4 --seed 4 --perf-event 'arm_spe_0/load_filter=1,ts_enable=1/' --period 256 --ops 20000 \
    --mem-stall 50 --quiet --vectors "$V" 2>"$TMP/e"; then
    run tree_bench "$(bench v1p4)" "$V"
else
    bad dpi/tree_bench "csim: $(head -1 "$TMP/e")"
fi
tree_line=$(cat "$TMP/pass.txt")

# planted NAME CFG VECTORS PORT AT: +inject must give exactly one difference,
# at PORT, and a failing exit.
planted() {
    quiet "$(bench "$2")" +vectors="$3" +inject="$4" +inject_at="$5" >"$TMP/o.txt" 2>&1
    local rc=$?
    if [ $rc -ne 0 ] && grep -qE "^dpi: FAIL config $2: 1 difference in [0-9]+ cycles, the first at cycle [0-9]+: $4\$" "$TMP/o.txt" &&
        grep -q "$4 DUT .* (planted by +inject)" "$TMP/o.txt"; then
        ok "dpi/$1"
    else
        bad "dpi/$1" "exit $rc: $(grep -m3 '^dpi:' "$TMP/o.txt" | tr '\n' ' ')"
    fi
}
planted a_changed_record_length_is_caught v1p4 "$V" rec_len_o 0
planted a_changed_counter_is_caught v1p4 "$V" obs_pmsicr_o 500
planted a_changed_write_beat_is_caught v1p4 "$V" mem_data_o 0
for cfg in ${DPI_NOT_BUILT:-}; do skip "dpi/lockstep/$cfg" "$cfg is not built in this tree"; done
[ -n "$(echo $DPI_CONFIGS | tr ' ' '\n' | grep -v '^v1p4$')" ] ||
    skip dpi/a_changed_pmu_count_is_caught "it needs a configuration besides v1p4; this tree has $DPI_CONFIGS"
for cfg in $DPI_CONFIGS; do
    [ "$cfg" = v1p4 ] || { planted "a_changed_pmu_count_is_caught/$cfg" "$cfg" "$TMP/$cfg.vec" pmu_o 100; break; }
done

# refused NAME WANT CMD...: a failing exit and a message containing WANT.
refused() {
    local name=$1 want=$2
    shift 2
    quiet "$@" >"$TMP/o.txt" 2>&1
    local rc=$?
    if [ $rc -ne 0 ] && grep -qF -- "$want" "$TMP/o.txt"; then ok "dpi/$name"; else bad "dpi/$name" "exit $rc: $(grep -m2 'dpi' "$TMP/o.txt" | tr '\n' ' ')"; fi
}
T=$(bench v1p4)
refused bad/unknown_config "+config=nosuch: spu_dpi_new: unknown configuration 'nosuch'" "$T" +vectors="$V" +config=nosuch
refused bad/other_configs_widths "configuration 'wide' has LANES 4" "$T" +vectors="$V" +config=wide
refused bad/unknown_inject_port "+inject=nosuch_o: spu_top has no output of that name" "$T" +vectors="$V" +inject=nosuch_o +inject_at=1
refused bad/inject_never_reached "no cycle from 99999999 on compares mem_data_o" "$T" +vectors="$V" +inject=mem_data_o +inject_at=99999999
refused bad/no_vectors "no +vectors=FILE" "$T"
refused bad/missing_vectors "+vectors=$TMP/none.vec: cannot open" "$T" +vectors="$TMP/none.vec"
for cfg in $DPI_CONFIGS; do
    [ "$cfg" = v1p4 ] || { refused "bad/vectors_of_$cfg" "this bench was compiled for 1, 1" "$T" +vectors="$TMP/$cfg.vec"; break; }
done
# a run that never enables profiling is vacuous, not a PASS
$CSIM --config v1p4 --seed 1 --ops 200 --quiet --vectors "$TMP/idle.vec" 2>/dev/null
refused bad/vacuous_run_fails "vacuous" "$T" +vectors="$TMP/idle.vec"

# make install into a scratch PREFIX, used from outside the tree.
P=$TMP/prefix
if ! make -s BUILD="$B" install PREFIX="$P" >"$TMP/inst.txt" 2>&1; then
    bad dpi/install "$(tail -3 "$TMP/inst.txt" | tr '\n' ' ')"
    t_end; exit 1
fi
lost=""
for f in lib/libspugolden.a lib/libspugolden.so lib/libspudpi.a lib/libspudpi.so lib/pkgconfig/openspu.pc \
    lib/pkgconfig/openspu-dpi.pc include/openspu/spu_model.h include/openspu/spu_config.h include/openspu/spu_ports.h \
    include/openspu/spu_dpi.h share/openspu/sv/spu_dpi_pkg.sv share/openspu/sv/spu_scoreboard.sv \
    bin/spu-csim bin/spu-diff bin/spu-perf share/openspu/examples/spu_dpi_tb.sv share/openspu/rtl/spu_top.v \
    share/doc/openspu/README.md share/doc/openspu/docs/integration.md \
    $(for c in $CONFIGS; do for f in spu_config.vh spu_top_ports.vh spu_vec_ports.vh spu_dpi_step.svh; do
        echo share/openspu/config/$c/$f; done; done); do
    [ -f "$P/$f" ] || lost+=" $f"
done
if [ -z "$lost" ]; then ok dpi/install/files; else bad dpi/install/files "missing:$lost"; fi
export PKG_CONFIG_PATH=$P/lib/pkgconfig
flags=$(echo $(pkg-config --cflags --libs openspu-dpi 2>&1))
if [ "$flags" = "-I$P/include/openspu -L$P/lib -lspudpi -lspugolden" ]; then ok "dpi/install/pkg_config ($flags)"
else bad dpi/install/pkg_config "pkg-config --cflags --libs openspu-dpi: $flags"; fi

# The page's C program and its two cc lines, in a directory outside the tree.
H2='## Installing: '
mkdir -p "$TMP/ext"
awk -v h="$H2" 'index($0, h) == 1 { on = 1 } on && /^```c( |$)/ { inb = 1; next } inb && /^```$/ { exit } inb' "$DOC" >"$TMP/ext/list_configs.c"
grep -E '^cc .*list_configs\.c' "$DOC" >"$TMP/ext/build.sh"
if [ "$(grep -c 'int main' "$TMP/ext/list_configs.c")" -ne 1 ] || [ "$(wc -l <"$TMP/ext/build.sh")" -ne 2 ]; then
    bad dpi/install/doc_program "no C program or not two cc lines in $DOC"
elif ! (cd "$TMP/ext" && bash -e build.sh) >"$TMP/cc.txt" 2>&1; then
    bad dpi/install/doc_program_builds "$(head -3 "$TMP/cc.txt" | tr '\n' ' ')"
else
    want=$(${PYTHON:-python3} tools/gen_config.py --list "${CFG_SRC:-configs/spu.toml}")  # the library holds every one
    for exe in list_configs list_configs_static; do
        got=$(cd / && "$TMP/ext/$exe" 2>&1 | awk '{ print $1 }')
        needed=$(readelf -d "$TMP/ext/$exe" | grep -c 'NEEDED.*libspugolden')
        if [ "$exe" = list_configs ]; then
            linked=$(ldd "$TMP/ext/$exe" | awk '/libspugolden/ { print $3 }')
            [ "$needed" -eq 1 ] && [ "$linked" = "$P/lib/libspugolden.so" ]; how=$?
            what="shared: $linked"
        else
            [ "$needed" -eq 0 ] && ! readelf -d "$TMP/ext/$exe" 2>/dev/null | grep -q NEEDED; how=$?
            what="static: no NEEDED"
        fi
        if [ "$got" = "$want" ] && [ $how -eq 0 ]; then
            ok "dpi/install/c_program/$exe ($what; $(echo $got))"
        else
            bad "dpi/install/c_program/$exe" "configurations '$(echo $got)', want '$(echo $want)'; NEEDED libspugolden $needed ($what)"
        fi
    done
fi

# The scoreboard bench from the installed copy alone (the page's recipe,
# which the docs suite runs as written): the installed example bench,
# scoreboard, package, RTL, include and shared library, in a directory
# outside the tree; Verilator must read nothing of the tree.
mkdir -p "$TMP/sv"
sv=$(pkg-config --variable=svdir openspu-dpi)
if ! (cd "$TMP/sv" && ${VERILATOR:-verilator} --binary -I"$(pkg-config --variable=configdir openspu-dpi)/v1p4" \
        "$sv/spu_dpi_pkg.sv" "$sv/spu_scoreboard.sv" "$(pkg-config --variable=examplesdir openspu-dpi)/spu_dpi_tb.sv" \
        "$(pkg-config --variable=rtldir openspu-dpi)"/*.v --top-module spu_dpi_tb \
        -LDFLAGS "$(pkg-config --libs openspu-dpi) -Wl,-rpath,$(pkg-config --variable=libdir openspu-dpi)") >"$TMP/sv.txt" 2>&1; then
    bad dpi/install/sv_bench_builds "$(grep -m3 -iE 'error' "$TMP/sv.txt" | tr '\n' ' ')"
else
    exe=$TMP/sv/obj_dir/Vspu_dpi_tb
    libs=$(ldd "$exe" | awk '/libspu/ { printf "%s ", $3 }')
    # what Verilator read (its dependency file): the installed copy, nothing of the tree
    deps=$(cat "$TMP/sv/obj_dir/"*__ver.d 2>/dev/null)
    if [ "$libs" = "$P/lib/libspudpi.so $P/lib/libspugolden.so " ] && grep -qF "$P/share/openspu/sv/spu_scoreboard.sv" <<<"$deps" &&
        grep -qF "$P/share/openspu/config/v1p4/spu_config.vh" <<<"$deps" && ! grep -qF "$ROOT/" <<<"$deps"; then
        ok "dpi/install/sv_bench_uses_the_installed_copy ($libs)"
    else
        bad dpi/install/sv_bench_uses_the_installed_copy "libraries '$libs'; read from the tree: $(tr ' ' '\n' <<<"$deps" | grep -F "$ROOT/" | head -2 | tr '\n' ' ')"
    fi
    run install/sv_bench_passes "$exe" "$V"
    if [ "$(cat "$TMP/pass.txt")" = "$tree_line" ]; then ok dpi/install/sv_bench_equals_the_tree_bench
    else bad dpi/install/sv_bench_equals_the_tree_bench "'$(cat "$TMP/pass.txt")' vs '$tree_line'"; fi
fi
for t in spu-csim spu-diff spu-perf; do
    if "$P/bin/$t" --help 2>&1 | grep -q -- '--'; then ok "dpi/install/tool/$t"; else bad "dpi/install/tool/$t" "$P/bin/$t --help"; fi
done

# make uninstall removes exactly what make install put (its list), leaves
# what else is under PREFIX, and says when nothing is installed; PREFIX must
# be absolute (the pkg-config files' prefix= is written from it).
echo other >"$P/lib/other.so"
if make -s BUILD="$B" uninstall PREFIX="$P" >"$TMP/un.txt" 2>&1 &&
    [ "$(cd "$P" && find . -type f)" = "./lib/other.so" ] && [ ! -e "$P/share/openspu" ] && [ ! -e "$P/include/openspu" ]; then
    ok dpi/uninstall/removes_what_install_put
else
    bad dpi/uninstall/removes_what_install_put "$(tail -1 "$TMP/un.txt"); left: $(cd "$P" && find . -type f | head -3 | tr '\n' ' ')"
fi
make -s BUILD="$B" uninstall PREFIX="$P" >"$TMP/un.txt" 2>&1; rc=$?
if [ $rc -eq 2 ] && grep -q 'nothing of openspu is installed under PREFIX' "$TMP/un.txt"; then ok dpi/uninstall/nothing_installed
else bad dpi/uninstall/nothing_installed "exit $rc: $(head -1 "$TMP/un.txt")"; fi
for p in relative/prefix ""; do
    make -s BUILD="$B" install PREFIX="$p" >"$TMP/rel.txt" 2>&1; rc=$?
    if [ $rc -eq 2 ] && grep -qF "PREFIX='$p' must be an absolute path" "$TMP/rel.txt" && { [ -z "$p" ] || [ ! -e "$p" ]; }; then ok "dpi/install/prefix_must_be_absolute/'$p'"
    else bad "dpi/install/prefix_must_be_absolute/'$p'" "exit $rc: $(head -1 "$TMP/rel.txt")"; fi
done

t_end
