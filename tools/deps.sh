#!/usr/bin/env bash
# make deps / deps-synth / deps-perf: install what a target needs and a fresh
# machine lacks (Debian packages, apt-get as root). Only what is missing;
# idempotent. Arguments: the tools wanted (yosys with yosys-abc, perf, zlib, clang, lcov); none =
# yosys, perf and zlib.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
want=("$@")
[ ${#want[@]} -gt 0 ] || want=(yosys perf zlib)
need=()
for t in "${want[@]}"; do
    case $t in
        yosys) { command -v yosys && command -v yosys-abc; } >/dev/null || need+=(yosys) ;;
        perf)  command -v perf >/dev/null || need+=(linux-perf) ;;
        zlib)  [ -f /usr/include/zlib.h ] || need+=(zlib1g-dev) ;;
        lcov)  command -v genhtml >/dev/null || need+=(lcov) ;;
        clang) command -v clang >/dev/null || need+=(clang)
               ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need+=(libclang-rt-14-dev) ;;
        *) echo "deps: unknown tool '$t' (yosys, perf, zlib, clang, lcov)" >&2; exit 2 ;;
    esac
done
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    echo "deps: missing ${need[*]}; run 'make deps' as root (apt-get)" >&2
    exit 1
fi
apt-get update -qq
apt-get install -y -qq "${need[@]}"
