#!/usr/bin/env bash
# make test, suite fusesoc: openspu.core under FuseSoC (PyPI fusesoc, with
# edalize): the core lists every RTL file, and its lint, sim and synth
# targets run; the sim target compares (a changed expectation fails it).
# Prints PASS/FAIL lines. Usage: tests/fusesoc_test.sh TMPDIR
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
T=${1:?usage: $0 TMPDIR}
B=${BUILD:-build}
VLNV=openspu:spe:spu_top
T_PREFIX=fusesoc/
# shellcheck source=tests/lib.sh
. tests/lib.sh

# Every rtl/*.v is in the core's rtl fileset, and nothing else is.
want=$(cd rtl && ls *.v | sort)
have=$(sed -n '/^  rtl:/,/file_type/p' openspu.core | sed -nE 's#^ +- rtl/([A-Za-z0-9_]+\.v)$#\1#p' | sort)
if [ "$want" = "$have" ]; then ok core_lists_every_rtl_file
else bad core_lists_every_rtl_file "rtl/: $(echo $want); openspu.core: $(echo $have)"; fi

# fusesoc_run NAME TARGET [ARGS]: run a target of the core under $CORES
# (default: this tree) in its own work directory.
fusesoc_run() {
    local name=$1 target=$2
    shift 2
    mkdir -p "$T/fs-$name"
    (cd "$T/fs-$name" && fusesoc --cores-root "${CORES:-$ROOT}" run --target "$target" "$VLNV" "$@") \
        >"$T/fs-$name.log" 2>&1
}

# lint passes here, and fails on a copy of the core whose RTL has a -Wall
# warning planted (a truncating assignment), so the target really lints.
mkdir -p "$T/planted/tb"
cp -r openspu.core rtl "$T/planted/" && cp -r tb/icarus "$T/planted/tb/"
sed -i "s/^endmodule/  wire [1:0] planted_unused = 3'd5;\nendmodule/" "$T/planted/rtl/spu_lfsr_step.v"
if ! fusesoc_run lint lint; then
    bad lint_verilator_wall "$(grep -m2 -iE 'error|%Warning' "$T/fs-lint.log" | tr '\n' ' ')"
elif CORES="$T/planted" fusesoc_run lintbad lint || ! grep -q 'planted_unused' "$T/fs-lintbad.log"; then
    bad lint_verilator_wall "a planted width warning was not reported"
else
    ok lint_verilator_wall
fi

# sim: the Icarus bench against vectors of a programmed run (records and
# write beats included).
$B/spu-csim --config v1p4 --seed 4 --ops 20000 --perf-event 'arm_spe_0/ts_enable=1/' \
    --period 256 --quiet --vectors "$T/v.vec" 2>"$T/csim.err" ||
    bad sim "spu-csim: $(head -1 "$T/csim.err")"
if fusesoc_run sim sim --vectors="$T/v.vec" && grep -q '^icarus: PASS' "$T/fs-sim.log"; then
    ok "sim_icarus ($(sed -nE 's/^icarus: PASS ([0-9]+) cycles.*/\1/p' "$T/fs-sim.log") cycles)"
else
    bad sim_icarus "$(grep -m2 -E '^icarus:|ERROR' "$T/fs-sim.log" | tr '\n' ' ')"
fi
# ... and it compares: one expected output (obs_enabled_o) changed fails it.
awk 'NR == 500 { $(NF-2) = ($(NF-2) == "0") ? "1" : "0" } { print }' "$T/v.vec" >"$T/bad.vec"
if fusesoc_run simbad sim --vectors="$T/bad.vec"; grep -q '^icarus: FAIL 1 differences' "$T/fs-simbad.log"; then
    ok sim_catches_a_changed_expectation
else
    bad sim_catches_a_changed_expectation "$(grep -m2 '^icarus:' "$T/fs-simbad.log" | tr '\n' ' ')"
fi

# synth: Yosys for iCE40 writes a netlist with the unit's LUTs.
if fusesoc_run synth synth; then
    net=$(ls "$T"/fs-synth/build/*/synth-yosys/*.json 2>/dev/null | head -1)
    luts=$(grep -c '"type": "SB_LUT4"' "$net" 2>/dev/null)
    if [ "${luts:-0}" -gt 1000 ]; then ok "synth_yosys_ice40 ($luts SB_LUT4)"
    else bad synth_yosys_ice40 "netlist '$net' has ${luts:-0} SB_LUT4"; fi
else
    bad synth_yosys_ice40 "$(grep -m2 -iE 'error' "$T/fs-synth.log" | tr '\n' ' ')"
fi
t_end
