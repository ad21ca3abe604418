#!/usr/bin/env python3
"""Lockstep regression: many seeds over every configuration, in parallel
processes, with JUnit XML and a closing "N passed, N failed" line.

  tools/regress.py [--configs v1,v1p4,...] [--seeds N] [--first S]
                   [--cycles C] [--jobs J] [--shard K/N] [--junit FILE]
                   [--cov DIR] [--run-id ID] [--times FILE]
  tools/regress.py --scaling [--repeats R] [--procs 1,2] [job list options]

The job list is every configuration x every seed (configuration-major).
--shard K/N runs only the jobs whose index i in that list satisfies
i % N == K-1 (K is 1-based): each configuration's seeds go to the shards in
turn and the shards differ by one job at most. N machines running shards
1..N of the same command cover the whole regression once (GNU parallel, a
Slurm array: tools/regress_parallel.sh, tools/slurm/; README). tools/regress_merge.py merges the shards' JUnit files
and coverage, and refuses a missing or duplicated shard: every JUnit file
records its shard, its job list and its run id as <properties>.

Each job is `build/spu-tb --config C --seed S --cycles N --quiet`, with the
Profiling Buffer's memory stalling by seed (MEM_STALL: none for half the
seeds, 90 % and 99 % of the cycles for a quarter each), and a quarter of the
seeds (S % 8 of 4 or 7: no stall and 99 %) with the generator knobs of
STRESS, which keep the Profiling Buffer filling, stopping and waiting
(docs/coverage.md); its exit status
decides (0 pass; 1 difference or vacuous run; else error). The failing job's
report and reproduce command are kept in the JUnit XML and printed.
Jobs start longest first (by the times of an earlier run's JUnit file,
--times, default the --junit file being replaced), so the processes finish
together.
With --cov DIR each job also writes its functional coverage to
DIR/CONFIG.SEED.cov (tools/cov_report.py merges them; make cov). Shards may
share DIR: a shard removes only the files of its own jobs and files that no
job of the list writes, never another shard's.

--scaling measures the same job list with each process count of --procs,
interleaved (1,2 then 2,1, ...) --repeats times after one warm-up run, and
prints wall and CPU seconds of each run, the medians and the speed-up
(make bench-regress).
"""
import argparse
import concurrent.futures as cf
import hashlib
import os
import re
import resource
import socket
import statistics
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
import xml.sax.saxutils as sx

HERE = os.path.dirname(os.path.abspath(__file__))

# --mem-stall of seed S: MEM_STALL[S % 4] (docs/buffer.md).
MEM_STALL = (0, 0, 90, 99)
# --gen of seed S: STRESS when S % 8 is in STRESS_SEEDS (docs/coverage.md):
# small buffers reprogrammed often, every member a candidate, INTERVAL 1,
# finishes 1..2 cycles after issue, several selections a cycle and frequent
# enable toggles. A record then often meets a full, stopped or disabled
# buffer, or another record filling it, while waiting or at its finish.
STRESS = ("p_filter=0,pop_density=100,p_small_buf=100,int_min=1,int_max=1,fin_max=2,"
          "p_close=100,toggle_gap=20,reprog_gap=200")
STRESS_SEEDS = (4, 7)
# The JUnit properties a shard file carries (tools/regress_merge.py reads them).
PROP = "openspu."
JOB_RE = re.compile(r"^lockstep\.(.+)$")
SEED_RE = re.compile(r"^seed(\d+)$")


def config_list(toml):
    """The configurations, from the one list (tools/gen_config.py --list)."""
    p = subprocess.run([sys.executable, os.path.join(HERE, "gen_config.py"), "--list", toml],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0 or not p.stdout.split():
        sys.exit(f"regress: cannot list the configurations of {toml}: {p.stderr.strip()}")
    return p.stdout.split()


def parse_shard(s):
    """'K/N' -> (K, N), 1 <= K <= N; the messages name the option."""
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", s)
    if not m:
        raise argparse.ArgumentTypeError(f"--shard '{s}': expected K/N with whole numbers, e.g. 2/8")
    k, n = int(m.group(1)), int(m.group(2))
    if n < 1:
        raise argparse.ArgumentTypeError(f"--shard '{s}': N must be at least 1")
    if not 1 <= k <= n:
        raise argparse.ArgumentTypeError(f"--shard '{s}': need 1 <= K <= N (K is 1-based)")
    return k, n


def job_list(configs, first, seeds):
    """The whole job list, configuration-major: (config, seed). --shard's
    i % N then spreads each configuration's seeds over the shards in turn,
    and the shards' sizes differ by one job at most."""
    return [(c, s) for c in configs for s in range(first, first + seeds)]


def shard_jobs(jobs, k, n):
    return [j for i, j in enumerate(jobs) if i % n == k - 1]


def job_list_id(configs, first, seeds, cycles):
    """What makes two shard files parts of one regression (not the binary's
    path, which differs between machines)."""
    text = f"configs={','.join(configs)} first={first} seeds={seeds} cycles={cycles} mem_stall={MEM_STALL}" \
        + f" stress={STRESS}@{STRESS_SEEDS}"
    return text, hashlib.sha256(text.encode()).hexdigest()[:16]


def read_times(path):
    """{(config, seed): seconds} from an earlier run's JUnit file, {} if none
    or unreadable (the times only order the jobs)."""
    times = {}
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return times
    for tc in root.iter("testcase"):
        m, s = JOB_RE.match(tc.get("classname", "")), SEED_RE.match(tc.get("name", ""))
        try:
            if m and s:
                times[(m.group(1), int(s.group(1)))] = float(tc.get("time", "0"))
        except ValueError:
            pass
    return times


def longest_first(jobs, times):
    """Jobs ordered by estimated time, longest first (LPT): the job's own
    earlier time, else its configuration's mean, else the overall mean.
    Stable, so with no history the list order stays."""
    if not times:
        return list(jobs)
    per = {}
    for (c, _), t in times.items():
        per.setdefault(c, []).append(t)
    mean_all = statistics.mean(times.values())
    def est(j):
        if j in times:
            return times[j]
        return statistics.mean(per[j[0]]) if j[0] in per else mean_all
    return sorted(jobs, key=est, reverse=True)


def run_job(tb, cfg, seed, cycles, cov_dir):
    cmd = [tb, "--config", cfg, "--seed", str(seed), "--cycles", str(cycles), "--quiet", "--no-progress"]
    if MEM_STALL[seed % 4]:
        cmd += ["--mem-stall", str(MEM_STALL[seed % 4])]
    if seed % 8 in STRESS_SEEDS:
        cmd += ["--gen", STRESS]
    if cov_dir:
        cmd += ["--cov", os.path.join(cov_dir, f"{cfg}.{seed}.cov")]
    t0 = time.time()
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace")
        rc, err = p.returncode, p.stderr
    except OSError as e:
        rc, err = 127, f"regress: cannot run {tb}: {e}\n"
    return cfg, seed, rc, err, time.time() - t0, " ".join(cmd)


def write_junit(path, results, props):
    npass = sum(1 for r in results if r[2] == 0)
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        f.write(f'<testsuite name="openspu-regress" tests="{len(results)}" failures="{len(results) - npass}" '
                f'time="{sum(r[4] for r in results):.2f}">\n')
        f.write("  <properties>\n")
        for name, value in props:
            f.write(f'    <property name="{PROP}{name}" value={sx.quoteattr(str(value))}/>\n')
        f.write("  </properties>\n")
        for cfg, seed, rc, err, dt, cmd in results:
            f.write(f'  <testcase classname="lockstep.{sx.escape(cfg)}" name="seed{seed}" time="{dt:.2f}">\n')
            if rc != 0:
                f.write(f'    <failure message="exit {rc}">{sx.escape(cmd)}\n{sx.escape(err)}</failure>\n')
            f.write("  </testcase>\n")
        f.write("</testsuite>\n")
    os.replace(tmp, path)  # a reader never sees half a file


def busy_seconds():
    """CPU seconds the whole machine has been busy (Linux /proc/stat), or None."""
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return (sum(v) - v[3] - (v[4] if len(v) > 4 else 0)) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def cpu_busy(seconds=1.0):
    """Cores kept busy over the next `seconds`, or None."""
    b0 = busy_seconds()
    time.sleep(seconds)
    b1 = busy_seconds()
    return None if b0 is None or b1 is None else (b1 - b0) / seconds


def scaling(a, argv):
    """--scaling: the same job list at each process count, interleaved."""
    procs = a.procs
    out = os.path.join(os.path.dirname(a.junit) or ".", "scaling")
    os.makedirs(out, exist_ok=True)
    # The run's own options, less the ones this mode sets per run.
    base, skip = [], {"--scaling": 0, "--repeats": 1, "--procs": 1, "--jobs": 1, "--junit": 1, "--times": 1}
    i = 0
    while i < len(argv):
        name = argv[i].split("=", 1)[0]
        if name in skip:
            i += 1 + (skip[name] if "=" not in argv[i] else 0)
            continue
        base.append(argv[i])
        i += 1
    warm = os.path.join(out, "warm.xml")

    def run(p, junit, times):
        cmd = [sys.executable, os.path.abspath(__file__)] + base + ["--jobs", str(p), "--junit", junit]
        if times:
            cmd += ["--times", times]
        log = junit[:-4] + ".log"
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        b0 = busy_seconds()
        t0 = time.monotonic()
        with open(log, "w") as f:
            rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT).returncode
        wall = time.monotonic() - t0
        b1 = busy_seconds()
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        # What the rest of the machine used meanwhile: a run that shared the
        # cores with something else is marked, its figure is not clean.
        others = None if b0 is None or b1 is None else max(0.0, (b1 - b0) - cpu)
        if rc != 0:
            with open(log) as f:
                tail = f.read().strip().splitlines()[-5:]
            sys.exit(f"regress --scaling: the run with {p} processes failed (exit {rc}, {log}):\n  " + "\n  ".join(tail))
        return wall, cpu, others

    def other_note(others, wall):
        if others is None:
            return ""
        return f"  others {others:6.2f} CPU s" + ("  <- DISTURBED (not clean)" if others > 0.03 * wall * (os.cpu_count() or 1) else "")

    k, n = a.shard
    njobs = len(shard_jobs(job_list(a.configs_resolved, a.first, a.seeds), k, n))
    print(f"scaling: {njobs} jobs x {a.cycles} cycles, processes {','.join(map(str, procs))}, "
          f"{a.repeats} interleaved repeats after a warm-up (logs in {out}/), {os.cpu_count()} cores", flush=True)
    busy = cpu_busy()
    if busy is not None and busy > 0.1:
        print(f"  note: other processes kept {busy:.2f} cores busy in the second before the start: "
              f"the figures are not clean", flush=True)
    w, c, o = run(max(procs), warm, None)
    print(f"  warm-up     {max(procs)} processes  wall {w:7.2f} s  CPU {c:7.2f} s{other_note(o, w)} (gives the job times "
          f"for longest-first)", flush=True)
    disturbed = 0
    walls = {p: [] for p in procs}
    cpus = {p: [] for p in procs}
    for r in range(a.repeats):
        for p in (procs if r % 2 == 0 else procs[::-1]):
            w, c, o = run(p, os.path.join(out, f"p{p}-r{r + 1}.xml"), warm)
            walls[p].append(w)
            cpus[p].append(c)
            note = other_note(o, w)
            disturbed += "DISTURBED" in note
            print(f"  repeat {r + 1:<2} {p:3d} processes  wall {w:7.2f} s  CPU {c:7.2f} s{note}", flush=True)
    ref = statistics.median(walls[procs[0]])
    print(f"{'jobs':>5} {'procs':>5} {'wall s (each repeat)':>32} {'median':>8} {'speed-up':>8} {'CPU s median':>12}")
    for p in procs:
        med = statistics.median(walls[p])
        each = " ".join(f"{x:.2f}" for x in walls[p])
        print(f"{njobs:>5} {p:>5} {each:>32} {med:>8.2f} {ref / med:>7.2f}x {statistics.median(cpus[p]):>12.2f}")
    if disturbed:
        print(f"note: {disturbed} of {a.repeats * len(procs)} runs shared the cores with other processes; "
              f"measure again on a quiet machine")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--configs", default=None,
                    help="comma-separated configurations (default: every one in the toml)")
    ap.add_argument("--toml", default=os.path.join(HERE, "..", "configs", "spu.toml"),
                    help="configuration source the list comes from (default configs/spu.toml)")
    ap.add_argument("--seeds", type=int, default=8, help="seeds per configuration (default 8)")
    ap.add_argument("--first", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("--cycles", type=int, default=2000000, help="cycles per job (default 2000000)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2,
                    help="parallel processes (default: the number of cores)")
    ap.add_argument("--shard", type=parse_shard, default=(1, 1),
                    help="K/N: run only the K-th of N equal parts of the job list")
    ap.add_argument("--junit", default="build/regress.xml", help="JUnit XML output (default build/regress.xml)")
    ap.add_argument("--tb", default="build/spu-tb", help="the checker binary (default build/spu-tb)")
    ap.add_argument("--cov", default=None, metavar="DIR",
                    help="write each job's functional coverage to DIR/CONFIG.SEED.cov")
    ap.add_argument("--run-id", default="",
                    help="a name of this regression recorded in the JUnit file; the merge requires one "
                         "run id over all shards (so a stale shard file of another run is refused)")
    ap.add_argument("--times", default=None, metavar="FILE",
                    help="an earlier run's JUnit file whose job times order the jobs longest first "
                         "(default: the --junit file, if there is one)")
    ap.add_argument("--scaling", action="store_true",
                    help="benchmark: the same job list at each process count of --procs (make bench-regress)")
    ap.add_argument("--procs", default="1,2", help="--scaling: process counts, comma-separated (default 1,2)")
    ap.add_argument("--repeats", type=int, default=3, help="--scaling: interleaved repeats (default 3)")
    a = ap.parse_args()
    known = config_list(a.toml)
    configs = [c for c in (a.configs or ",".join(known)).split(",") if c]
    if not configs:
        ap.error(f"--configs '{a.configs}': no configuration named (known: {', '.join(known)})")
    for c in configs:
        if c not in known:
            ap.error(f"--configs: unknown configuration '{c}' (known: {', '.join(known)})")
        if configs.count(c) > 1:
            ap.error(f"--configs: configuration '{c}' given twice (every job would run twice)")
    a.configs_resolved = configs
    if a.seeds < 1 or a.cycles < 1 or a.jobs < 1:
        ap.error("--seeds, --cycles and --jobs must be positive")
    if a.first < 0:
        ap.error(f"--first {a.first}: seeds are 0 or more")
    if not os.path.isfile(a.tb) or not os.access(a.tb, os.X_OK):
        ap.error(f"--tb {a.tb}: no such executable (build it with make tb)")
    if a.scaling:
        try:
            a.procs = [int(x) for x in a.procs.split(",")]
        except ValueError:
            ap.error(f"--procs '{a.procs}': expected process counts like 1,2")
        if not a.procs or min(a.procs) < 1 or len(set(a.procs)) != len(a.procs):
            ap.error(f"--procs '{a.procs}': positive, distinct process counts")
        if a.repeats < 1:
            ap.error(f"--repeats {a.repeats}: at least 1")
        return scaling(a, sys.argv[1:])
    k, n = a.shard
    every = job_list(configs, a.first, a.seeds)
    jobs = shard_jobs(every, k, n)
    if not jobs:
        ap.error(f"--shard {k}/{n}: shard {k} of {len(every)} jobs is empty; nothing would be checked "
                 f"(use at most {len(every)} shards or more --seeds)")
    if a.times and not os.path.isfile(a.times):
        ap.error(f"--times {a.times}: no such file")
    times = read_times(a.times or a.junit)
    # The JUnit file goes first: a run that dies leaves no file of an earlier
    # run behind for the merge to take as this shard's.
    junit_dir = os.path.dirname(a.junit) or "."
    try:
        os.makedirs(junit_dir, exist_ok=True)
        if os.path.lexists(a.junit):
            os.remove(a.junit)
        probe = f"{a.junit}.tmp{os.getpid()}"  # writable before an hour of jobs, not after
        open(probe, "w").close()
        os.remove(probe)
    except OSError as e:
        ap.error(f"--junit {a.junit}: {e.strerror}")
    if a.cov:
        try:
            os.makedirs(a.cov, exist_ok=True)
            # A stale file must not count again, but another shard's file (a
            # job of this list that is not ours) stays: shards share DIR.
            mine = {f"{c}.{s}.cov" for c, s in jobs}
            listed = {f"{c}.{s}.cov" for c, s in every}
            for old in os.listdir(a.cov):
                if old.endswith(".cov") and (old in mine or old not in listed):
                    os.remove(os.path.join(a.cov, old))
        except OSError as e:
            ap.error(f"--cov {a.cov}: {e.strerror}")
    ordered = longest_first(jobs, times)
    listing, digest = job_list_id(configs, a.first, a.seeds, a.cycles)
    print(f"regress: {len(jobs)} jobs (shard {k}/{n} of {len(every)}), {a.cycles} cycles each, {a.jobs} processes"
          + (", longest first" if times else ""), flush=True)
    results = []
    t0 = time.time()
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = [ex.submit(run_job, a.tb, c, s, a.cycles, a.cov) for c, s in ordered]
        for f in cf.as_completed(futs):
            cfg, seed, rc, err, dt, cmd = f.result()
            results.append((cfg, seed, rc, err, dt, cmd))
            status = "PASS" if rc == 0 else "FAIL"
            print(f"{status} {cfg} seed {seed} ({dt:.1f} s)", flush=True)
            if rc != 0:
                print("\n".join("    " + l for l in err.strip().splitlines()[-40:]), flush=True)
    wall = time.time() - t0
    results.sort(key=lambda r: (r[0], r[1]))
    npass = sum(1 for r in results if r[2] == 0)
    nfail = len(results) - npass
    props = [("shard", f"{k}/{n}"), ("jobs", len(jobs)), ("jobs.total", len(every)),
             ("joblist", listing), ("joblist.id", digest), ("configs", ",".join(configs)),
             ("first", a.first), ("seeds", a.seeds), ("cycles", a.cycles), ("run_id", a.run_id),
             ("host", socket.gethostname()), ("tb", os.path.abspath(a.tb)),
             ("processes", a.jobs), ("wall_seconds", f"{wall:.2f}")]
    try:
        write_junit(a.junit, results, props)
    except OSError as e:
        sys.exit(f"regress: --junit {a.junit}: {e.strerror}")
    print(f"junit: {a.junit} (shard {k}/{n}, {wall:.1f} s wall)")
    print(f"{npass} passed, {nfail} failed")
    return 0 if nfail == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
