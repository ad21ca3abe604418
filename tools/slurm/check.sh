#!/usr/bin/env bash
# make regress-slurm-check: the Slurm recipe for real, on a single-node
# cluster started on this machine (Debian's slurm-wlm and munge; no systemd:
# munged, slurmctld and slurmd run here as root, with a slurm.conf generated
# for this host's name, CPUs and memory, cons_tres, no accounting, every
# state, spool, log and socket under BUILD/slurm, the sockets under /tmp
# when that path is too long for them). It submits
# tools/slurm/submit.sh's array job (SHARDS shards of a small regression)
# and its merge (afterany), waits for the merge, checks the merged JUnit
# (every job exactly once, all passed); beside it, the same recipe with a
# checker that fails one job (spu-tb --inject) must end in a FAILED merge job
# (exit 1) whose JUnit names that job with its reproduce command. It stops
# the daemons it started on exit, also on failure. A step that fails says which daemon or job, with its
# log's tail. Exit status 0 pass, 1 fail, 2 cannot run here (not root, Slurm
# or MUNGE missing).
#   tools/slurm/check.sh [-n SHARDS] [-- tools/regress.py options]
set -uo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python3}
B=${BUILD:-build}
case $B in /*) ;; *) B=$PWD/$B ;; esac
D=$B/slurm
N=2
while getopts "n:h" opt; do
    case $opt in
        n) N=$OPTARG ;;
        *) echo "usage: tools/slurm/check.sh [-n SHARDS] [-- tools/regress.py options]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
ARGS=("$@")
[ ${#ARGS[@]} -gt 0 ] || ARGS=(--configs v1,wide --seeds 4 --cycles 100000)
ARGS=(--tb "$B/spu-tb" "${ARGS[@]}")   # this build's checker (a --tb in the options given wins)
T0=$(date +%s.%N)
el() { awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $T0 }"; }
say() { echo "slurm-check: [$(el) s] $*"; }
# fail WHAT LOG...: what failed, with the tail of each log named.
fail() {
    echo "slurm-check: FAIL after $(el) s: $1" >&2
    shift
    local f
    for f in "$@"; do
        if [ -s "$f" ]; then echo "--- last lines of $f" >&2; tail -15 "$f" >&2; else echo "--- $f: empty or missing" >&2; fi
    done
    exit 1
}
if [ "$(id -u)" -ne 0 ]; then
    echo "slurm-check: cannot run: needs root (it starts munged, slurmctld and slurmd as root on this machine)" >&2
    exit 2
fi
for t in munged mungekey munge unmunge slurmctld slurmd sbatch squeue scontrol sinfo; do
    command -v $t >/dev/null || { echo "slurm-check: cannot run: $t not found (tools/deps.sh slurm, as root)" >&2; exit 2; }
done
[ -x "$B/spu-tb" ] || { echo "slurm-check: cannot run: $B/spu-tb is not built (make tb)" >&2; exit 2; }

MUNGED_PID= CTLD_PID= SLURMD_PID=
stop() {
    local p name
    for p in SLURMD_PID CTLD_PID MUNGED_PID; do
        name=${!p}
        [ -n "$name" ] || continue
        kill -TERM "$name" 2>/dev/null || continue
        for _ in $(seq 50); do kill -0 "$name" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$name" 2>/dev/null && echo "slurm-check: ${p%_PID} did not stop on SIGTERM; killed" >&2
        wait "$name" 2>/dev/null
    done
    [ -z "$SHORT" ] || rm -rf "$SHORT"
}
SHORT=
trap stop EXIT
trap 'exit 1' INT TERM

rm -rf "$D"
mkdir -p "$D"/{state,log,munge,out}
L=$D/log
# The sockets (munged's, slurmd's per job step in its spool directory) need
# a path shorter than a socket address takes (108 bytes): under $D when it
# is short, else in a directory of its own under /tmp, removed on exit.
R=$D
if [ ${#D} -gt 60 ]; then
    SHORT=$(mktemp -d /tmp/openspu-slurm.XXXXXX) || fail "mktemp for the sockets"
    R=$SHORT
    mkdir -p "$R/munge"
fi
mkdir -p "$R/spool"
chmod 700 "$D/munge" "$R/munge"

# MUNGE: its own key and socket, nothing of /etc/munge or /run/munge.
SOCK=$R/munge/munge.socket
mungekey --create --keyfile="$D/munge/munge.key" >"$L/mungekey.log" 2>&1 || fail "mungekey --create" "$L/mungekey.log"
munged --foreground --force --socket="$SOCK" --key-file="$D/munge/munge.key" --log-file="$L/munged.log" \
    --pid-file="$D/munge/munged.pid" --seed-file="$D/munge/munged.seed" >"$L/munged.out" 2>&1 &
MUNGED_PID=$!
for _ in $(seq 50); do
    munge -n -S "$SOCK" 2>/dev/null | unmunge -S "$SOCK" >/dev/null 2>&1 && break
    kill -0 $MUNGED_PID 2>/dev/null || fail "munged exited (exit status $(wait $MUNGED_PID; echo $?))" "$L/munged.out" "$L/munged.log"
    sleep 0.1
done
munge -n -S "$SOCK" 2>/dev/null | unmunge -S "$SOCK" >/dev/null 2>&1 ||
    fail "munged: a credential does not round-trip through $SOCK within 5 s" "$L/munged.out" "$L/munged.log"
say "munged up (pid $MUNGED_PID)"

# slurm.conf: this host as its only node, as slurmd -C sees it.
HOST=$(hostname -s)
NODE=$(slurmd -C 2>"$L/slurmd-C.log" | head -1)
[[ $NODE == NodeName=* ]] || fail "slurmd -C (this host's CPUs and memory) printed no NodeName line" "$L/slurmd-C.log"
NODE=$(sed "s/^NodeName=[^ ]*/NodeName=$HOST/" <<<"$NODE")
read -r CPORT DPORT < <($PY -c 'import socket
s=[socket.socket() for _ in (0, 1)]
[x.bind(("127.0.0.1", 0)) for x in s]
print(*(x.getsockname()[1] for x in s))')
cat >"$D/slurm.conf" <<EOF
# generated by tools/slurm/check.sh for this machine; removed with $D
ClusterName=openspu-check
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$CPORT
SlurmdPort=$DPORT
AuthType=auth/munge
AuthInfo=socket=$SOCK
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$D/state
SlurmdSpoolDir=$R/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$L/slurmctld.log
SlurmdLogFile=$L/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2,bf_interval=2
MpiDefault=none
MailProg=/bin/true
SwitchType=switch/none
ReturnToService=2
MinJobAge=600
$NODE NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=check Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$D/slurm.conf

slurmctld -D -c -f "$SLURM_CONF" >"$L/slurmctld.out" 2>&1 &
CTLD_PID=$!
for _ in $(seq 100); do
    scontrol ping 2>/dev/null | grep -q 'is UP' && break
    kill -0 $CTLD_PID 2>/dev/null || fail "slurmctld exited (exit status $(wait $CTLD_PID; echo $?))" "$L/slurmctld.out" "$L/slurmctld.log"
    sleep 0.2
done
scontrol ping 2>/dev/null | grep -q 'is UP' || fail "slurmctld: not UP (scontrol ping) within 20 s" "$L/slurmctld.out" "$L/slurmctld.log"
say "slurmctld up (pid $CTLD_PID, port $CPORT)"

slurmd -D -f "$SLURM_CONF" -N "$HOST" >"$L/slurmd.out" 2>&1 &
SLURMD_PID=$!
state=
for _ in $(seq 150); do
    state=$(sinfo -h -n "$HOST" -o %T 2>/dev/null)
    [ "$state" = idle ] && break
    case $state in inval*|drain*) break ;; esac   # slurmctld refused the node: no use waiting
    kill -0 $SLURMD_PID 2>/dev/null || fail "slurmd exited (exit status $(wait $SLURMD_PID; echo $?))" "$L/slurmd.out" "$L/slurmd.log"
    sleep 0.2
done
[ "$state" = idle ] || fail "slurmd: node $HOST is '${state:-unknown}', not idle, $(el) s after the start ($(scontrol show node "$HOST" 2>&1 | grep -o 'Reason=.*'))" \
    "$L/slurmd.out" "$L/slurmd.log" "$L/slurmctld.log"
say "slurmd up (pid $SLURMD_PID), node $HOST idle: $(sinfo -h -o '%c CPUs, %m MB')"

# The planted run: the same recipe with a checker that reports a difference
# in one job (v1 seed 3, spu-tb --inject); its merge must fail and name it.
PLANTED=$(tools/planted_tb.sh "$B/spu-tb" "$D") || fail "tools/planted_tb.sh"
ids=$(tools/slurm/submit.sh -n "$N" -o "$D/out" -s "-p check" -- "${ARGS[@]}" 2>"$L/submit.err") ||
    fail "tools/slurm/submit.sh (sbatch)" "$L/submit.err" "$L/slurmctld.log"
read -r _ ARRAY _ MERGE <<<"$ids"
say "submitted: array job $ARRAY (shards 1-$N), merge job $MERGE (afterany:$ARRAY)"
ids=$(tools/slurm/submit.sh -n 2 -o "$D/out-planted" -- --configs v1,wide --seeds 4 --cycles 100000 \
    --tb "$PLANTED" 2>"$L/submit.err") || fail "tools/slurm/submit.sh (sbatch), planted run" "$L/submit.err" "$L/slurmctld.log"
read -r _ PARRAY _ PMERGE <<<"$ids"
say "submitted the planted run: array job $PARRAY (shards 1-2), merge job $PMERGE (afterany:$PARRAY)"

# wait_job ID LOG...: until the job has ended (120 s at most); its state in $js.
wait_job() {
    local id=$1
    shift
    js=
    for _ in $(seq 600); do
        js=$(scontrol show job -o "$id" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2)
        case $js in
            COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED) return ;;
        esac
        kill -0 $CTLD_PID 2>/dev/null || fail "slurmctld died while the jobs ran" "$L/slurmctld.out" "$L/slurmctld.log"
        kill -0 $SLURMD_PID 2>/dev/null || fail "slurmd died while the jobs ran" "$L/slurmd.out" "$L/slurmd.log"
        sleep 0.2
    done
    fail "job $id is ${js:-unknown} 120 s after submission ($(scontrol show job -o "$id" 2>&1 | grep -o 'Reason=[^ ]*'))" \
        "$@" "$L/slurmctld.log" "$L/slurmd.log"
}
logs=("$D/out/merge.log")
for k in $(seq 1 "$N"); do logs+=("$D/out/shard-$k.log"); done
wait_job "$MERGE" "${logs[@]}"
[ "$js" = COMPLETED ] ||
    fail "merge job $MERGE is $js ($(scontrol show job -o "$MERGE" | grep -o 'ExitCode=[0-9:]*'))" "${logs[@]}"
say "merge job $MERGE COMPLETED"
# The merged file, checked here on its own: every job exactly once, all passed.
$PY - "$D/out/regress.xml" "$N" "${ARGS[@]}" >"$L/check.out" 2>&1 <<'EOF' || fail "the merged JUnit" "$L/check.out" "${logs[@]}"
import sys, xml.etree.ElementTree as ET
sys.path.insert(0, "tools")
import regress
import argparse
path, n, args = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
root = ET.parse(path).getroot()
props = {p.get("name"): p.get("value") for p in root.iter("property")}
# The job list the merged file says it is, and what the options asked for
# (those given; regress.py's defaults for the rest are the merged file's).
ap = argparse.ArgumentParser(add_help=False)
for o in ("--configs", "--first", "--seeds"):
    ap.add_argument(o)
opt, _ = ap.parse_known_args(args)
configs = props["openspu.configs"].split(",")
first, seeds = int(props["openspu.first"]), int(props["openspu.seeds"])
asked = {"configs": opt.configs, "first": opt.first, "seeds": opt.seeds}
have = {"configs": ",".join(configs), "first": str(first), "seeds": str(seeds)}
assert all(v is None or v == have[k] for k, v in asked.items()), f"merged job list {have}, asked for {asked}"
want = regress.job_list(configs, first, seeds)
got = [(tc.get("classname").split(".", 1)[1], int(tc.get("name")[4:])) for tc in root.iter("testcase")]
failed = [j for j, tc in zip(got, root.iter("testcase")) if tc.find("failure") is not None]
assert sorted(got) == sorted(want) and len(set(got)) == len(got), f"jobs {sorted(got)} != {sorted(want)}"
assert not failed, f"failed: {failed}"
assert props.get("openspu.merged_from") == f"{n} shards", props
print(f"{len(got)} jobs, each once, all passed, from {props['openspu.merged_from']} on "
      + ", ".join(sorted({v for k, v in props.items() if k.endswith('.host') and k.startswith('openspu.shard')})))
EOF
say "merged JUnit $D/out/regress.xml: $(cat "$L/check.out")"
plogs=("$D/out-planted/merge.log" "$D/out-planted/shard-1.log" "$D/out-planted/shard-2.log")
wait_job "$PMERGE" "${plogs[@]}"
ec=$(scontrol show job -o "$PMERGE" | grep -o 'ExitCode=[0-9:]*')
[ "$js" = FAILED ] && [ "$ec" = ExitCode=1:0 ] ||
    fail "planted run: merge job $PMERGE is $js $ec, want FAILED with exit 1" "${plogs[@]}"
$PY - "$D/out-planted/regress.xml" >"$L/check-planted.out" 2>&1 <<'EOF' || fail "the planted run's merged JUnit" "$L/check-planted.out" "${plogs[@]}"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = list(root.iter("testcase"))
failed = [(tc.get("classname"), tc.get("name"), tc.find("failure").text) for tc in cases if tc.find("failure") is not None]
assert len(cases) == 8, f"{len(cases)} jobs, want 8"
assert [f[:2] for f in failed] == [("lockstep.v1", "seed3")], f"failed: {[f[:2] for f in failed]}"
assert "--- reproduce" in failed[0][2] and "--inject 'obs_pmsicr_o@5000'" in failed[0][2], failed[0][2][-400:]
print("8 jobs, v1 seed 3 failed with its reproduce command")
EOF
say "planted run: merge job $PMERGE FAILED (exit 1) as it must; merged JUnit: $(cat "$L/check-planted.out")"
echo "slurm-check: PASS in $(el) s (daemons stopped on exit)"
