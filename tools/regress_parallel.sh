#!/usr/bin/env bash
# The regression as N shards run by GNU parallel, then merged:
#   tools/regress_parallel.sh [-n SHARDS] [-o OUTDIR] [-S HOSTS] [--] [tools/regress.py options]
# Shard K runs `tools/regress.py --shard K/N --junit OUTDIR/shard-K.xml
# --cov OUTDIR/cov --run-id ID OPTIONS` (its output in OUTDIR/shard-K.log);
# then tools/regress_merge.py writes OUTDIR/regress.xml and merges the
# coverage of every job (OUTDIR/coverage.json), refusing a missing or
# duplicated shard. Local by default, each shard with nproc/N processes
# (unless OPTIONS give --jobs); with -S host1,host2 (GNU parallel's
# --sshlogin) the shards run on those hosts, in this same directory, which
# must be on a file system they share (each host has the checkout built with
# make tb; OPTIONS should then give --jobs). Exit status: the merge's (0 all
# passed, 1 a job failed, 2 refused: a shard missing or bad input).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
N=2
OUT=build/regress-parallel
HOSTS=
usage() { echo "usage: tools/regress_parallel.sh [-n SHARDS] [-o OUTDIR] [-S HOSTS] [--] [tools/regress.py options]" >&2; exit 2; }
while getopts "n:o:S:h" opt; do
    case $opt in
        n) N=$OPTARG ;;
        o) OUT=$OPTARG ;;
        S) HOSTS=$OPTARG ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
if ! [[ $N =~ ^[1-9][0-9]*$ ]]; then
    echo "regress_parallel: -n '$N': the number of shards, a whole number of 1 or more" >&2
    exit 2
fi
if ! command -v parallel >/dev/null; then
    echo "regress_parallel: GNU parallel is not installed (tools/deps.sh parallel, as root)" >&2
    exit 2
fi
for a in "$@"; do
    case $a in
        --shard|--shard=*|--junit|--junit=*|--cov|--cov=*|--run-id|--run-id=*)
            echo "regress_parallel: option $a is set per shard by this script (OUTDIR is -o $OUT)" >&2; exit 2 ;;
    esac
done
# Here, the shards share this machine's cores; on ssh hosts (-S) each host
# runs one shard at a time with regress.py's default --jobs, its own cores.
jobs=()
if [ -z "$HOSTS" ] && [[ " $* " != *" --jobs "* && " $* " != *" --jobs="* ]]; then
    jobs=(--jobs $(( $(nproc) / N > 0 ? $(nproc) / N : 1 )))
fi
RUN=parallel-$(date +%Y%m%dT%H%M%S)-$$
mkdir -p "$OUT"
# Nothing of an earlier run may stand in for a shard of this one.
rm -rf "$OUT"/shard-*.xml "$OUT"/shard-*.log "$OUT"/regress.xml "$OUT"/coverage.json "$OUT"/cov
mkdir -p "$OUT/cov"
args=$(printf '%q ' "$@" "${jobs[@]}")
q=$(printf '%q' "$OUT")
cmd="$PY tools/regress.py $args --shard {}/$N --junit $q/shard-{}.xml --cov $q/cov --run-id $RUN >$q/shard-{}.log 2>&1"
popt=(--will-cite --halt never --joblog "$OUT/joblog")
if [ -n "$HOSTS" ]; then popt+=(-j 1 -S "$HOSTS" --workdir "$PWD"); else popt+=(-j "$N"); fi
echo "regress_parallel: run $RUN, $N shards through GNU parallel${HOSTS:+ on $HOSTS}; logs in $OUT/shard-K.log"
t0=$(date +%s.%N)
prc=0
parallel "${popt[@]}" "$cmd" ::: $(seq 1 "$N") || prc=$?
for k in $(seq 1 "$N"); do
    tail -1 "$OUT/shard-$k.log" 2>/dev/null | sed "s/^/  shard $k\/$N: /" || echo "  shard $k/$N: no log"
done
echo "regress_parallel: shards done in $(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $t0 }") s (GNU parallel exit $prc)"
# Every shard's file by name, so a missing one is refused, never skipped.
shards=()
for k in $(seq 1 "$N"); do shards+=("$OUT/shard-$k.xml"); done
mrc=0
$PY tools/regress_merge.py --out "$OUT/regress.xml" --run-id "$RUN" --cov "$OUT/cov" --cov-json "$OUT/coverage.json" \
    "${shards[@]}" || mrc=$?
if [ $mrc -eq 0 ] && [ $prc -ne 0 ]; then
    echo "regress_parallel: the merge passed but GNU parallel reported $prc failed shard(s) ($OUT/joblog)" >&2
    mrc=1
fi
exit $mrc
