#!/usr/bin/env python3
"""make bench-peers: the lockstep checker against its peers on one generated
stimulus (docs/performance.md).

  tools/bench_peers.py [--configs v1p4,wide] [--seed S] [--ops N]
                       [--slow-cycles K] [--runs R] [--repeat P]
                       [--no-callgrind] [--doc FILE] [--smoke]

Per configuration, spu-csim writes one trace (--emit-trace) and the same
run's per-cycle vectors (--vectors). Every row runs that stimulus:

  lockstep   spu-tb TRACE                     model and DUT, every output compared
  dut-only   spu-tb TRACE --dut-only          the same harness, no model, no compare
  bare       spu-vl-replay-C VECTORS          a bare Verilator main replaying the vectors
                                              (the same Verilated library; the floor)
  icarus     vvp spu_vec_tb +vectors=PREFIX   Icarus Verilog replaying the vectors
  cocotb     bench/cocotb/run.py              cocotb on Icarus, a Python filter reference
  csim       spu-csim TRACE                   the golden model alone

Icarus and cocotb run the first K cycles of the vectors (--slow-cycles),
the others all of them. Rows run interleaved, R times each; the table
gives medians of cycles per second (each program's own timing of its run
loop; wall time of the process for Icarus), the ratio to the lockstep row,
and callgrind instructions per cycle of the run loop (--toggle-collect,
so start-up is not counted) for the rows callgrind applies to.

Every row must agree on the selections and records: samples, collisions,
records kept and rejected, against the model's outputs in the vectors
(over the prefix for Icarus and cocotb). A disagreement, a failed row or
a missing tool is an error (exit 1). --smoke (make test) runs a short
stimulus once, without callgrind and without writing the document, and
prints PASS/FAIL lines; it measures nothing.
"""
import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
BEGIN, END = "<!-- bench-peers:begin -->", "<!-- bench-peers:end -->"
ROWS = ("lockstep", "dut-only", "bare", "icarus", "cocotb", "csim")
# the run loop of each row callgrind counts (--toggle-collect)
CALLGRIND = {"lockstep": "lockstep_run", "dut-only": "lockstep_run", "bare": "*replay_pass*", "csim": "run_all"}
COUNT_RE = re.compile(r"(\d+) samples, (\d+) collisions, records kept (\d+) rejected (\d+)")


class BenchError(Exception):
    pass


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    return p.returncode, p.stdout


def pin():
    """Every row on one core."""
    if not shutil.which("taskset"):
        return []
    return ["taskset", "-c", "0"]


def vector_counts(path, limit=None):
    """(cycles, samples, collisions, kept, rejected) of the model's outputs
    in a vector file, over its first `limit` cycles."""
    n = [0, 0, 0, 0, 0]
    with open(path) as f:
        head = f.readline().split()
        if "fields" not in head:
            raise BenchError(f"{path}:1:1: the header names no fields (not spu-csim --vectors of this tree?)")
        i = head.index("fields")
        names = head[i + 1].split(",") + ["|"] + head[i + 3].split(",")  # inputs | outputs
        try:
            O_SMP, O_COL, O_RV, O_KEEP = (names.index(p) for p in ("smp_valid_o", "col_valid_o", "rec_valid_o", "rec_keep_o"))
        except ValueError as e:
            raise BenchError(f"{path}:1:1: {e} among the header's fields")
        for line in f:
            if limit is not None and n[0] >= limit:
                break
            w = line.split()
            rv, keep = int(w[O_RV], 16), int(w[O_KEEP], 16)
            n[0] += 1
            n[1] += bin(int(w[O_SMP], 16)).count("1")
            n[2] += bin(int(w[O_COL], 16)).count("1")
            n[3] += bin(rv & keep).count("1")
            n[4] += bin(rv & ~keep).count("1")
    return tuple(n)


def write_prefix(src, dst, k):
    with open(src) as f, open(dst, "w") as g:
        g.write(f.readline())
        for i, line in enumerate(f):
            if i >= k:
                break
            g.write(line)


class Peers:
    def __init__(self, a, cfg):
        self.a, self.cfg = a, cfg
        # the smoke form (make test) has its own directory, so a bench run beside it is not disturbed
        self.dir = os.path.join(a.build, "peers-smoke" if a.smoke else "peers", cfg)
        os.makedirs(self.dir, exist_ok=True)
        b = a.build
        self.trace = os.path.join(self.dir, "trace.spt")
        self.vec = os.path.join(self.dir, "vectors.vec")
        self.prefix = os.path.join(self.dir, "prefix.vec")
        self.vvp = os.path.join(self.dir, "icarus.vvp")
        self.bins = {"tb": os.path.join(b, "spu-tb"), "csim": os.path.join(b, "spu-csim"),
                     "bare": os.path.join(b, f"spu-vl-replay-{cfg}")}
        for what, path in self.bins.items():
            if not os.access(path, os.X_OK):
                raise BenchError(f"{path} is not built (make bench-peers builds it)")

    def prepare(self):
        a = self.a
        rc, out = run([self.bins["csim"], "--config", self.cfg, "--seed", str(a.seed), "--ops", str(a.ops),
                       "--quiet", "--emit-trace", self.trace, "--vectors", self.vec]
                      + (["--gen", a.gen] if a.gen else []))
        if rc:
            raise BenchError(f"{self.cfg}: spu-csim could not write the stimulus: {out.strip()}")
        self.full = vector_counts(self.vec)
        self.cycles = self.full[0]
        self.k = min(a.slow_cycles, self.cycles)
        write_prefix(self.vec, self.prefix, self.k)
        self.part = vector_counts(self.prefix)
        rc, out = run([os.environ.get("IVERILOG", "iverilog"), "-g2005", f"-I{a.build}/gen/{self.cfg}", "-Irtl",
                       "-s", "spu_vec_tb", "-o", self.vvp, "tb/icarus/spu_vec_tb.v"]
                      + sorted(os.path.join("rtl", f) for f in os.listdir(os.path.join(ROOT, "rtl")) if f.endswith(".v")),
                      cwd=ROOT)
        if rc:
            raise BenchError(f"{self.cfg}: iverilog: {out.strip()}")

    def commands(self, row):
        b, a = self.bins, self.a
        return {
            "lockstep": [b["tb"], self.trace, "--quiet", "--no-progress"],
            "dut-only": [b["tb"], self.trace, "--quiet", "--no-progress", "--dut-only"],
            "bare": [b["bare"], "--repeat", str(a.repeat), self.vec],
            "icarus": [os.environ.get("VVP", "vvp"), "-n", self.vvp, f"+vectors={self.prefix}"],
            "cocotb": [sys.executable, os.path.join(ROOT, "bench", "cocotb", "run.py"), "--config", self.cfg,
                       "--vectors", self.prefix, "--gen", os.path.join(a.build, "gen"),
                       "--out", os.path.join(self.dir, "cocotb")],
            "csim": [b["csim"], self.trace, "--quiet", "--stats"],
        }[row]

    def measure(self, row):
        """One run: (M cycles/s, (cycles, samples, collisions, kept, rejected))."""
        cmd = self.commands(row)
        t0 = time.perf_counter()
        rc, out = run(pin() + cmd, cwd=ROOT)
        wall = time.perf_counter() - t0
        if rc:
            raise BenchError(f"{self.cfg} {row}: exit {rc}: {' '.join(cmd)}\n{out.strip()[-2000:]}")
        if row == "icarus":
            m = re.search(r"icarus: PASS (\d+) cycles", out)
            if not m:
                raise BenchError(f"{self.cfg} icarus: no PASS line: {out.strip()[-500:]}")
            # the bench compares every output every cycle: a PASS means the model's counts
            return int(m.group(1)) / wall / 1e6, self.part
        if row == "csim":
            m = re.search(r"cycles (\d+)  ops (\d+) .* ([0-9.]+) M ops/s", out)
            s = re.search(r"samples (\d+)  collisions (\d+)  records kept (\d+)  rejected (\d+)", out)
            if not m or not s:
                raise BenchError(f"{self.cfg} csim: no statistics: {out.strip()[-500:]}")
            cycles, ops, mops = int(m.group(1)), int(m.group(2)), float(m.group(3))
            rate = cycles * mops / ops if ops else 0.0
            return rate, (cycles,) + tuple(int(x) for x in s.groups())
        m = re.search(r"(?:PASS|DUT-ONLY|REPLAY|COCOTB) config \S+: (\d+) cycles.*?" + COUNT_RE.pattern
                      + r".*?([0-9.]+) M cycles/s", out)
        if not m:
            raise BenchError(f"{self.cfg} {row}: no result line: {out.strip()[-800:]}")
        g = m.groups()
        cnt = (int(g[0]),) + tuple(int(x) for x in g[1:5])
        if row == "cocotb":  # the Python reference decided every record
            c = re.search(r"(\d+) records checked", out)
            why = re.search(r"\(reasons [^)]*\)", out)
            self.reasons = "; " + why.group(0)[1:-1] if why else ""
            if not c or int(c.group(1)) != cnt[3] + cnt[4]:
                raise BenchError(f"{self.cfg} cocotb: {c.group(1) if c else 'no'} records checked against the "
                                 f"Python reference, of {cnt[3] + cnt[4]}")
        return float(g[5]), cnt

    def callgrind(self, row):
        """Instructions per cycle of the run loop alone, or None."""
        fn = CALLGRIND.get(row)
        if not fn:
            return None
        cmd = self.commands(row)
        if row == "bare":
            cmd = [cmd[0], self.vec]  # one pass
        out_file = os.path.join(self.dir, f"callgrind.{row}.out")
        rc, out = run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}",
                       f"--toggle-collect={fn}"] + cmd, cwd=ROOT)
        m = re.search(r"Collected : (\d+)", out)
        if rc or not m:
            raise BenchError(f"{self.cfg} {row} under callgrind: exit {rc}: {out.strip()[-800:]}")
        return int(m.group(1)) / self.cycles


def planted(p):
    """The cocotb row's check can fail: the same run with a copy of the
    Python reference that flips the type reason of every decision must fail
    at the first record. Returns the number of failures (0 or 1)."""
    name = f"peers/{p.cfg}/cocotb_reference_can_fail"
    src = os.path.join(ROOT, "bench", "cocotb", "filter_ref.py")
    mdir = os.path.join(p.dir, "planted")
    os.makedirs(mdir, exist_ok=True)
    with open(src) as f:
        text = f.read()
    bad = text.replace("        return why\n", "        return why ^ WHY_TYPE  # planted\n")
    if bad == text:
        print(f"FAIL {name}: the planted change did not apply to {src}")
        return 1
    with open(os.path.join(mdir, "filter_ref.py"), "w") as f:
        f.write(bad)
    cmd = p.commands("cocotb")
    cmd[cmd.index("--out") + 1] = os.path.join(mdir, "out")
    rc, out = run(cmd + ["--ref-dir", mdir], cwd=ROOT)
    if rc == 1 and "the Python reference says" in out:
        print(f"PASS {name}")
        return 0
    print(f"FAIL {name}: exit {rc}, the planted reference was not caught: {out.strip()[-300:]}")
    return 1


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores"


def versions():
    def first(cmd):
        try:
            out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
            return out.splitlines()[0].replace("()", "").strip()
        except (OSError, IndexError):
            return f"{cmd[0]} ?"
    try:
        import cocotb
        coco = cocotb.__version__
    except ImportError:
        coco = "?"
    return [first([os.environ.get("VERILATOR", "verilator"), "--version"]), first(["iverilog", "-V"]), first([os.environ.get("CXX", "g++"), "--version"]),
            f"Python {platform.python_version()}", f"cocotb {coco}", first(["valgrind", "--version"])]


def commit():
    rc, out = run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT)
    if rc:
        return "?"
    dirty = run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT)[1].strip()
    return out.strip() + (" with local changes" if dirty else "")


def fmt_rate(x):
    return f"{x:.4f}" if x < 0.1 else f"{x:.2f}" if x < 1000 else f"{x:.0f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--configs", default="v1p4,wide", help="comma-separated configurations (default v1p4,wide)")
    ap.add_argument("--seed", type=int, default=12, help="generator seed (default 12)")
    ap.add_argument("--ops", type=int, default=None, help="population members of the trace (default 500000; --smoke 20000)")
    ap.add_argument("--gen", default=None, metavar="NAME=V[,..]",
                    help="generator knobs of the trace (spu-csim --gen)")
    ap.add_argument("--slow-cycles", type=int, default=60000,
                    help="cycles Icarus and cocotb run, a prefix of the vectors (default 60000)")
    ap.add_argument("--runs", type=int, default=3, help="interleaved runs of each row; medians (default 3)")
    ap.add_argument("--repeat", type=int, default=4, help="passes of the bare main over the vectors (default 4)")
    ap.add_argument("--no-callgrind", action="store_true", help="skip the instruction counts")
    ap.add_argument("--doc", default=None, help=f"rewrite the table between {BEGIN} and {END} in this file")
    ap.add_argument("--smoke", action="store_true",
                    help="make test: a short stimulus, one run, no callgrind, no document; PASS/FAIL lines")
    a = ap.parse_args()
    if a.ops is None:
        a.ops = 20000 if a.smoke else 500000
    for opt in ("ops", "slow_cycles", "runs", "repeat"):
        if getattr(a, opt) < 1:
            ap.error(f"--{opt.replace('_', '-')} {getattr(a, opt)}: must be at least 1")
    if a.smoke:
        a.slow_cycles, a.runs, a.repeat, a.no_callgrind, a.doc = 20000, 1, 2, True, None
    if not a.no_callgrind and not shutil.which("valgrind"):
        ap.error("valgrind is not installed (or pass --no-callgrind)")
    configs = [c for c in a.configs.split(",") if c]
    if not configs:
        ap.error(f"--configs '{a.configs}': no configuration")
    rc, known = run([sys.executable, os.path.join(HERE, "gen_config.py"), "--list", os.path.join(ROOT, "configs", "spu.toml")])
    for c in configs:
        if c not in known.split():
            ap.error(f"--configs: unknown configuration '{c}' (known: {known.strip()})")
    if a.doc and not os.path.isfile(a.doc):
        ap.error(f"--doc {a.doc}: no such file")
    os.chdir(ROOT)
    failures = 0
    results = {}
    for cfg in configs:
        try:
            p = Peers(a, cfg)
            print(f"bench-peers: {cfg}: stimulus (seed {a.seed}, {a.ops} members) ...", flush=True)
            p.prepare()
            print(f"bench-peers: {cfg}: {p.cycles} cycles ({p.k} for Icarus and cocotb); "
                  f"the model: {p.full[1]} samples, {p.full[2]} collisions, records kept {p.full[3]} rejected {p.full[4]}",
                  flush=True)
            rates = {r: [] for r in ROWS}
            counts = {}
            for i in range(a.runs):
                for r in ROWS:
                    rate, cnt = p.measure(r)
                    rates[r].append(rate)
                    counts[r] = cnt
                print(f"bench-peers: {cfg}: run {i + 1}/{a.runs}: "
                      + "  ".join(f"{r} {fmt_rate(rates[r][-1])}" for r in ROWS) + " M cycles/s", flush=True)
            # agreement: the full-length rows with the whole vectors, the slow ones with the prefix
            for r in ROWS:
                want = p.part if r in ("icarus", "cocotb") else p.full
                name = f"peers/{cfg}/{r}"
                if counts[r] == want and want[1] + want[2] > 0 and want[3] + want[4] > 0:
                    if a.smoke:
                        print(f"PASS {name} ({want[0]} cycles, {want[1]} samples, {want[2]} collisions, "
                              f"records kept {want[3]} rejected {want[4]}{p.reasons if r == 'cocotb' else ''})")
                else:
                    failures += 1
                    print(f"FAIL {name}: cycles, samples, collisions, kept, rejected {counts[r]}; "
                          f"the model's {want}" + ("" if want[3] + want[4] else " (vacuous: no record)"))
            if a.smoke:
                failures += planted(p)
            ipc = {}
            if not a.no_callgrind:
                for r in ROWS:
                    if r in CALLGRIND:
                        print(f"bench-peers: {cfg}: callgrind {r} ...", flush=True)
                    ipc[r] = p.callgrind(r)
            results[cfg] = (p, {r: statistics.median(v) for r, v in rates.items()}, ipc)
        except BenchError as e:
            failures += 1
            print(f"FAIL peers/{cfg}: {e}")
    if results:
        table = render(a, results)
        print(table)
        if a.doc and failures:
            print(f"bench-peers: {a.doc} left as it was: the table above has failures")
        elif a.doc:
            with open(a.doc) as f:
                text = f.read()
            if BEGIN not in text or END not in text:
                sys.exit(f"bench-peers: {a.doc} has no {BEGIN} ... {END} markers")
            head, rest = text.split(BEGIN, 1)
            text = head + BEGIN + "\n" + table + "\n" + END + rest.split(END, 1)[1]
            with open(a.doc, "w") as f:
                f.write(text)
            print(f"bench-peers: wrote the table into {a.doc}")
    print(f"bench-peers: {'FAIL' if failures else 'done'} ({failures} failures)")
    return 1 if failures else 0


WHAT = {
    "lockstep": "`spu-tb TRACE`: model and DUT, every output compared every cycle",
    "dut-only": "`spu-tb TRACE --dut-only`: the same harness and DUT, no model, no compare",
    "bare": "`spu-vl-replay-C VECTORS`: a bare Verilator main replaying the input vectors (the floor)",
    "icarus": "`vvp spu_vec_tb +vectors=`: Icarus Verilog replaying the vectors, every output compared",
    "cocotb": "`bench/cocotb/run.py`: cocotb on Icarus, a Python reference of the filter decision",
    "csim": "`spu-csim TRACE`: the golden model alone (skips ahead where nothing can happen)",
}


def render(a, results):
    v = versions()
    lines = [f"Measured {time.strftime('%Y-%m-%d')} at commit {commit()} by `make bench-peers` "
             f"(`tools/bench_peers.py --configs {a.configs} --seed {a.seed} --ops {a.ops}{' --gen ' + a.gen if a.gen else ''} --slow-cycles {a.slow_cycles} "
             f"--runs {a.runs} --repeat {a.repeat}`).",
             f"Machine: {machine()}; " + ("every row pinned to one core (`taskset -c 0`)." if pin()
                                          else "rows not pinned to a core (no taskset)."),
             "Tools: " + "; ".join(v) + ".", ""]
    for cfg, (p, med, ipc) in results.items():
        lines += [f"**{cfg}**: {p.cycles} cycles of one generated trace (seed {a.seed}); Icarus and cocotb its first "
                  f"{p.k}. The model's run: {p.full[1]} samples, {p.full[2]} collisions, records kept {p.full[3]}, "
                  f"rejected {p.full[4]}; every row below showed the same (over its cycles).", "",
                  "| row | what | M cycles/s (median of %d) | vs lockstep | instructions per cycle |" % a.runs,
                  "|---|---|---|---|---|"]
        for r in ROWS:
            ratio = med[r] / med["lockstep"] if med["lockstep"] else 0
            rt = f"{ratio:.2f}x" if ratio >= 0.01 else f"1/{1 / ratio:,.0f}" if ratio else "-"
            ic = f"{ipc[r]:,.0f}" if ipc.get(r) is not None else "-"
            lines.append(f"| {r} | {WHAT[r]} | {fmt_rate(med[r])} | {rt} | {ic} |")
        lines.append("")
    lines.append("Instructions per cycle: callgrind, the run loop alone (`--toggle-collect` of `lockstep_run`, "
                 "`replay_pass`, `run_all`) over the whole trace, divided by its cycles; csim's are per cycle of "
                 "the trace although it skips most of them.")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
