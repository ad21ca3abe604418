#!/usr/bin/env bash
# Submit the regression to Slurm: an array job of N shards
# (tools/slurm/regress.sbatch) and a merge that runs after it
# (tools/slurm/merge.sbatch, --dependency=afterany).
#   tools/slurm/submit.sh [-n N] [-o OUTDIR] [-c CPUS] [-s 'SBATCH OPTIONS'] [--] [tools/regress.py options]
# -c CPUS: CPUs per shard (its --jobs). -s: options for both sbatch calls
# (partition, time limit, account: -s '-p batch -t 60'; split at spaces;
# may be repeated). Prints "array JOBID merge JOBID"; the merge job's exit
# status is the regression's (merge.sbatch). OUTDIR (default
# build/slurm-regress, which must be on a file system the nodes share) gets
# shard-K.xml, shard-K.log, cov/, regress.xml, coverage.json, merge.log.
set -euo pipefail
cd "$(dirname "$0")/../.."
N=2
OUT=build/slurm-regress
CPUS=1
sb=()
usage() { echo "usage: tools/slurm/submit.sh [-n N] [-o OUTDIR] [-c CPUS] [-s 'SBATCH OPTIONS'] [--] [regress.py options]" >&2; exit 2; }
while getopts "n:o:c:s:h" opt; do
    case $opt in
        n) N=$OPTARG ;;
        o) OUT=$OPTARG ;;
        c) CPUS=$OPTARG ;;
        s) read -r -a more <<<"$OPTARG"; sb+=("${more[@]}") ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[[ $N =~ ^[1-9][0-9]*$ ]] || { echo "submit: -n '$N': the number of shards, 1 or more" >&2; exit 2; }
[[ $CPUS =~ ^[1-9][0-9]*$ ]] || { echo "submit: -c '$CPUS': CPUs per shard, 1 or more" >&2; exit 2; }
command -v sbatch >/dev/null || { echo "submit: sbatch not found (Slurm's client; tools/deps.sh slurm)" >&2; exit 2; }
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
# Nothing of an earlier run may stand in for a shard of this one.
rm -rf "$OUT"/shard-*.xml "$OUT"/shard-*.log "$OUT"/regress.xml "$OUT"/coverage.json "$OUT"/merge.log "$OUT"/cov
mkdir -p "$OUT/cov"
export OPENSPU_OUT=$OUT OPENSPU_DIR=$PWD
rc=0
array=$(sbatch --parsable "${sb[@]}" --array=1-"$N" --cpus-per-task="$CPUS" --output="$OUT/shard-%a.log" \
    tools/slurm/regress.sbatch "$@") || rc=$?
[ $rc -eq 0 ] || { echo "submit: sbatch of the array job (tools/slurm/regress.sbatch) failed, exit $rc" >&2; exit 1; }
array=${array%%;*}
merge=$(sbatch --parsable "${sb[@]}" --dependency=afterany:"$array" --kill-on-invalid-dep=no --output="$OUT/merge.log" \
    tools/slurm/merge.sbatch "$N" "$array") || rc=$?
[ $rc -eq 0 ] || { echo "submit: sbatch of the merge job (tools/slurm/merge.sbatch) failed, exit $rc; array job $array is queued" >&2; exit 1; }
echo "array $array merge ${merge%%;*}"
