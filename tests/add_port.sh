#!/usr/bin/env bash
# A port added to configs/spu.toml [ports] and to spu_top.v reaches every
# front end with no other edit (issue 25: the port contract from one
# source). On scratch copies it adds the output
#   dbg_o = {dir = "out", pack = "ports", width = 1, field = "dbg", ...}
# and drives it in spu_top.v with rec_keep_o, which the golden model does
# not know (its dbg stays 0). Built from those copies alone (BUILD, CFG_SRC
# and RTL_SRC point at them; nothing else changes), every front end must
# drive, sample and compare the new port, and find it, and only it,
# different in exactly the cycles with a kept record:
#   - the generated files have it (spu_ports.h, the port and vector
#     includes, the DPI import);
#   - spu-tb (Verilator lockstep): the first difference is dbg_o alone;
#   - spu-csim --vectors writes it and the Icarus bench compares it: its
#     differences are dbg_o's, one per cycle with a kept record;
#   - the SystemVerilog DPI bench (the model through spu_dpi_step): the
#     same count, the first at dbg_o.
#   tests/add_port.sh [SCRATCH_DIR]
# Prints PASS/FAIL lines and ends with "N passed, N failed"; exit 1 on failure.
set -uo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
TMP=${1:-$(mktemp -d)}
[ $# -gt 0 ] || trap 'rm -rf "$TMP"' EXIT
B=$TMP/build
CFG=v1p4
# shellcheck source=tests/lib.sh
. tests/lib.sh
finish() { t_end; exit $?; }

# 1. The scratch toml and RTL: one line more in each.
mkdir -p "$TMP/rtl"
cp rtl/*.v "$TMP/rtl/"
$PYTHON - configs/spu.toml "$TMP/spu.toml" "$TMP/rtl/spu_top.v" <<'EOF'
import sys, tomllib
src, dst, top = sys.argv[1:]
lines = open(src).read().split("\n")
at = next(i for i, l in enumerate(lines) if l.startswith("rec_wr_o "))
lines.insert(at + 1, 'dbg_o = {dir = "out", pack = "ports", width = 1, field = "dbg", '
                     'doc = "test port of tests/add_port.sh: rec_keep_o again"}')
open(dst, "w").write("\n".join(lines))
if "dbg_o" not in tomllib.load(open(dst, "rb"))["ports"]:
    sys.exit("the port was not added")
v = open(top).read()
end = v.rindex("endmodule")
open(top, "w").write(v[:end] + "  assign dbg_o = rec_keep_o;  // tests/add_port.sh\n" + v[end:])
EOF
if [ $? -eq 0 ]; then ok add_port/scratch_copies; else bad add_port/scratch_copies; finish; fi

# 2. Build every front end from them.
MK=(make -s -j"$(nproc 2>/dev/null || echo 2)" BUILD="$B" CFG_SRC="$TMP/spu.toml" CONFIGS=$CFG
    RTL_SRC="$(echo "$TMP"/rtl/*.v)")
if "${MK[@]}" "$B/spu-tb" "$B/spu-csim" "$B/dpi/$CFG/spu_dpi_tb" >"$TMP/build.log" 2>&1; then
    ok add_port/build
else
    bad add_port/build "$(grep -m3 -iE 'error' "$TMP/build.log" | tr '\n' ' ')"; finish
fi
miss=""
grep -q 'uint8_t dbg;' "$B/gen/spu_ports.h" || miss+=" spu_out_t.dbg"
grep -q 'X(dbg_o, dbg, PORTS, 1)' "$B/gen/spu_ports.h" || miss+=" SPU_OUT_PORTS"
grep -q 'X(dbg_o, VEC, OUT)' "$B/gen/spu_ports.h" || miss+=" SPU_DPI_PORTS"
grep -q 'output wire \[SLOTS-1:0\] *dbg_o' "$B/gen/$CFG/spu_top_ports.vh" || miss+=" spu_top_ports.vh"
grep -q '`SPU_VEC_OUT(dbg_o, SLOTS)' "$B/gen/$CFG/spu_vec_ports.vh" || miss+=" spu_vec_ports.vh"
grep -q ' dbg_o' "$B/gen/$CFG/spu_dpi_step.svh" || miss+=" spu_dpi_step.svh"
if [ -z "$miss" ]; then ok add_port/generated; else bad add_port/generated "missing:$miss"; fi

# 3. Lockstep: the first difference is dbg_o and nothing else.
"$B/spu-tb" --config $CFG --seed 12 --cycles 100000 --fail-dir "$TMP/fail" >"$TMP/tb.txt" 2>&1
rc=$?
sigs=$(awk '/^signal +DUT +model/ { on = 1; next } /^---/ { on = 0 } on { print $1 }' "$TMP/tb.txt" | sort -u |
    tr '\n' ' ')
if [ $rc -eq 1 ] && [ "$sigs" = "dbg_o " ]; then
    ok "add_port/lockstep_compares_it ($(grep -m1 'FIRST DIFFERENCE' "$TMP/tb.txt" | tr -d '=' | xargs))"
else
    bad add_port/lockstep_compares_it "exit $rc, signals '$sigs': $(grep -m3 -E 'FIRST|error' "$TMP/tb.txt" | tr '\n' ' ')"
fi

# 4. Vectors and the Icarus bench: one difference per cycle with a kept
#    record, every one at dbg_o.
"$B/spu-csim" --config $CFG --seed 4 --ops 20000 --perf-event 'arm_spe_0/ts_enable=1/' --period 256 --quiet \
    --vectors "$TMP/v.vec" 2>"$TMP/csim.txt"
kept=$($PYTHON - "$TMP/v.vec" <<'EOF'
import sys
lines = open(sys.argv[1]).read().split("\n")
head = lines[0].split()
names = head[head.index("fields") + 1].split(",") + ["|"] + head[head.index("fields") + 3].split(",")
k = names.index("rec_keep_o")
print(sum(1 for l in lines[1:] if l.split() and int(l.split()[k], 16) != 0))
EOF
)
if head -1 "$TMP/v.vec" | grep -q ',dbg_o,' && [ "${kept:-0}" -gt 0 ]; then
    ok "add_port/vectors_write_it ($kept cycles with a kept record)"
else
    bad add_port/vectors_write_it "header: $(head -c 200 "$TMP/v.vec"); kept '$kept'; $(head -2 "$TMP/csim.txt")"
fi
${IVERILOG:-iverilog} -g2005 -I "$B/gen/$CFG" -I "$TMP/rtl" -s spu_vec_tb -o "$TMP/iv.vvp" \
    tb/icarus/spu_vec_tb.v "$TMP"/rtl/*.v >"$TMP/iv.txt" 2>&1 &&
    ${VVP:-vvp} -n "$TMP/iv.vvp" +vectors="$TMP/v.vec" >"$TMP/vvp.txt" 2>&1
others=$(grep -E '^icarus: cycle' "$TMP/vvp.txt" | grep -vc ': dbg_o DUT ')
if grep -q "^icarus: FAIL $kept differences" "$TMP/vvp.txt" && [ "$others" -eq 0 ]; then
    ok "add_port/icarus_compares_it ($kept differences, all dbg_o)"
else
    bad add_port/icarus_compares_it "want $kept at dbg_o: $(grep -m3 -E '^icarus|error' "$TMP/vvp.txt" "$TMP/iv.txt" |
        tr '\n' ' ')"
fi

# 5. The DPI bench: the model through spu_dpi_step, the same count.
("$B/dpi/$CFG/spu_dpi_tb" +vectors="$TMP/v.vec" >"$TMP/dpi.txt" 2>&1) 2>/dev/null  # it fails with $fatal: an abort
if grep -qE "^dpi: FAIL config $CFG: $kept differences? in [0-9]* cycles, the first at cycle [0-9]*: dbg_o$" \
    "$TMP/dpi.txt"; then
    ok "add_port/dpi_compares_it ($kept differences, the first at dbg_o)"
else
    bad add_port/dpi_compares_it "want $kept, the first at dbg_o: $(grep -m2 '^dpi' "$TMP/dpi.txt" | tr '\n' ' ')"
fi
finish
