#!/usr/bin/env python3
"""Lockstep regression: many seeds over every configuration, in parallel
processes, with JUnit XML and a closing "N passed, N failed" line.

  tools/regress.py [--configs v1,v1p4,...] [--seeds N] [--first S]
                   [--cycles C] [--jobs J] [--shard K/N] [--junit FILE]
                   [--cov DIR]

--shard K/N runs only the jobs whose index i satisfies i % N == K-1 (K is
1-based), so N machines running shards 1..N of the same command cover the
whole regression once (GNU parallel over ssh, a Slurm array: see README).
Each job is `build/spu-tb --config C --seed S --cycles N --quiet`, with the
Profiling Buffer's memory stalling by seed (MEM_STALL: none for half the
seeds, 90 % and 99 % of the cycles for a quarter each); its exit status decides (0 pass; 1 difference or vacuous run; else error). The failing
job's report and reproduce command are kept in the JUnit XML and printed.
With --cov DIR each job also writes its functional coverage to
DIR/CONFIG.SEED.cov (tools/cov_report.py merges them; make cov).
"""
import argparse
import concurrent.futures as cf
import os
import subprocess
import sys
import time
import xml.sax.saxutils as sx

HERE = os.path.dirname(os.path.abspath(__file__))


def config_list(toml):
    """The configurations, from the one list (tools/gen_config.py --list)."""
    p = subprocess.run([sys.executable, os.path.join(HERE, "gen_config.py"), "--list", toml],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0 or not p.stdout.split():
        sys.exit(f"regress: cannot list the configurations of {toml}: {p.stderr.strip()}")
    return p.stdout.split()


def parse_shard(s):
    try:
        k, n = (int(x) for x in s.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--shard '{s}': expected K/N, e.g. 2/8")
    if not 1 <= k <= n:
        raise argparse.ArgumentTypeError(f"--shard '{s}': need 1 <= K <= N")
    return k, n


# --mem-stall of seed S: MEM_STALL[S % 4] (docs/buffer.md).
MEM_STALL = (0, 0, 90, 99)


def run_job(tb, cfg, seed, cycles, cov_dir):
    cmd = [tb, "--config", cfg, "--seed", str(seed), "--cycles", str(cycles), "--quiet", "--no-progress"]
    if MEM_STALL[seed % 4]:
        cmd += ["--mem-stall", str(MEM_STALL[seed % 4])]
    if cov_dir:
        cmd += ["--cov", os.path.join(cov_dir, f"{cfg}.{seed}.cov")]
    t0 = time.time()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return cfg, seed, p.returncode, p.stderr, time.time() - t0, " ".join(cmd)


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
    a = ap.parse_args()
    known = config_list(a.toml)
    configs = [c for c in (a.configs or ",".join(known)).split(",") if c]
    for c in configs:
        if c not in known:
            ap.error(f"--configs: unknown configuration '{c}' (known: {', '.join(known)})")
    if a.seeds < 1 or a.cycles < 1 or a.jobs < 1:
        ap.error("--seeds, --cycles and --jobs must be positive")
    if not os.access(a.tb, os.X_OK):
        ap.error(f"{a.tb} is not built (make tb)")
    k, n = a.shard
    jobs = [(c, s) for s in range(a.first, a.first + a.seeds) for c in configs]
    jobs = [j for i, j in enumerate(jobs) if i % n == k - 1]
    if not jobs:
        sys.exit(f"regress: shard {k}/{n} of {len(configs) * a.seeds} jobs is empty; nothing would be checked "
                 f"(use fewer shards or more --seeds)")
    if a.cov:
        os.makedirs(a.cov, exist_ok=True)
        for old in os.listdir(a.cov):  # a stale shard must not count again
            if old.endswith(".cov"):
                os.remove(os.path.join(a.cov, old))
    print(f"regress: {len(jobs)} jobs (shard {k}/{n}), {a.cycles} cycles each, {a.jobs} processes", flush=True)
    results = []
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = [ex.submit(run_job, a.tb, c, s, a.cycles, a.cov) for c, s in jobs]
        for f in cf.as_completed(futs):
            cfg, seed, rc, err, dt, cmd = f.result()
            results.append((cfg, seed, rc, err, dt, cmd))
            status = "PASS" if rc == 0 else "FAIL"
            print(f"{status} {cfg} seed {seed} ({dt:.1f} s)", flush=True)
            if rc != 0:
                print("\n".join("    " + l for l in err.strip().splitlines()[-40:]), flush=True)
    results.sort(key=lambda r: (r[0], r[1]))
    npass = sum(1 for r in results if r[2] == 0)
    nfail = len(results) - npass
    os.makedirs(os.path.dirname(a.junit) or ".", exist_ok=True)
    with open(a.junit, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        f.write(f'<testsuite name="openspu-regress" tests="{len(results)}" failures="{nfail}" '
                f'time="{sum(r[4] for r in results):.2f}">\n')
        for cfg, seed, rc, err, dt, cmd in results:
            f.write(f'  <testcase classname="lockstep.{sx.escape(cfg)}" name="seed{seed}" time="{dt:.2f}">\n')
            if rc != 0:
                f.write(f'    <failure message="exit {rc}">{sx.escape(cmd)}\n{sx.escape(err)}</failure>\n')
            f.write("  </testcase>\n")
        f.write("</testsuite>\n")
    print(f"junit: {a.junit}")
    print(f"{npass} passed, {nfail} failed")
    return 0 if nfail == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
