#!/usr/bin/env bash
# make deps: install what some targets need and a fresh machine lacks.
# Only as root, and only what is missing; idempotent.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
need=()
command -v perf >/dev/null || need+=(linux-perf)
command -v yosys >/dev/null || need+=(yosys)
[ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
    echo "deps: missing ${need[*]}; run 'make deps' as root (apt-get)" >&2
    exit 1
fi
apt-get update -qq
apt-get install -y -qq "${need[@]}"
