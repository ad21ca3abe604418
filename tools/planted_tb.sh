#!/usr/bin/env bash
# tools/planted_tb.sh TB DIR: write DIR/tb-planted, a checker for
# tools/regress.py --tb that reports a difference in exactly one job,
# v1 seed 3 (spu-tb --inject obs_pmsicr_o@5000, its failure files under
# DIR/fail), and runs TB unchanged for every other job. Prints its path.
# The regress suite (tests/regress_test.sh) and make regress-slurm-check
# (tools/slurm/check.sh) plant their failing job with it.
set -euo pipefail
TB=${1:?usage: tools/planted_tb.sh TB DIR}
DIR=${2:?usage: tools/planted_tb.sh TB DIR}
[ -x "$TB" ] || { echo "planted_tb: $TB is not an executable checker (make tb)" >&2; exit 2; }
mkdir -p "$DIR"
cat >"$DIR/tb-planted" <<PLANTED
#!/bin/sh
case " \$* " in
    *" --config v1 --seed 3 "*) exec "$TB" "\$@" --inject obs_pmsicr_o@5000 --fail-dir "$DIR/fail" ;;
esac
exec "$TB" "\$@"
PLANTED
chmod +x "$DIR/tb-planted"
echo "$DIR/tb-planted"
