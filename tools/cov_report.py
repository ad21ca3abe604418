#!/usr/bin/env python3
"""Merge functional coverage files (spu-tb/spu-csim --cov) per configuration
and report hit counts, unhit bins, unreachable bins with their reasons, and
cycles to closure.

  tools/cov_report.py [--min N] [--json FILE] [--require-closure] DIR|FILE...

A bin is closed when it has at least --min hits (default 100) over all the
runs of its configuration. Cycles to closure: the runs of a configuration
taken one after another in seed order, the cycle by which every reachable bin
had --min hits. Each run records the cycle of a bin's 1st, 10th and 100th
hit, so the figure is an upper bound (exact when the 100th hit falls in one
run). The output ends with one summary line per configuration (closed by
which cycle, or NOT CLOSED) and the errors. Exit status: 0, or 1 when a bin
said to be unreachable was hit (its reason is wrong), when --require-closure
is given and a reachable bin has fewer than --min hits (make cov gives it),
or when a file is malformed (named with its line).
"""
import argparse
import glob
import json
import os
import re
import sys

MILESTONES = (1, 10, 100)


def fail(msg):
    sys.exit(f"cov_report: {msg}")


def parse(path):
    """One .cov file: (config, cycles, what, {bin: (hits, [at1, at10, at100])}, {bin: (hits, reason)})."""
    cfg = cycles = None
    what = ""
    bins, unreach = {}, {}
    with open(path) as f:
        for ln, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("# openspu functional coverage 1:"):
                what = line.split(":", 1)[1].strip()
                continue
            if not line or line.startswith("#"):
                continue
            w = line.split(" ")
            try:
                if w[0] == "config" and len(w) == 2:
                    cfg = w[1]
                elif w[0] == "cycles" and len(w) == 2:
                    cycles = int(w[1])
                elif w[0] == "bin" and len(w) == 6:
                    bins[w[1]] = (int(w[2]), [None if x == "-" else int(x) for x in w[3:6]])
                elif w[0] == "unreachable" and len(w) >= 4:
                    unreach[w[1]] = (int(w[2]), " ".join(w[3:]))
                else:
                    raise ValueError("unknown line")
            except ValueError:
                fail(f"{path}:{ln}:1: malformed line '{line}'")
    if cfg is None or cycles is None:
        fail(f"{path}:1:1: no 'config' or 'cycles' line (not a coverage file?)")
    return cfg, cycles, what, bins, unreach


def seed_key(path):
    m = re.search(r"\.(\d+)\.cov$", path)
    return (int(m.group(1)) if m else 0, path)


def closure_cycle(runs, name, need):
    """Upper bound on the cycles (runs in order) by which `name` had `need` hits."""
    before = 0
    total = 0
    for cycles, bins in runs:
        hits, at = bins.get(name, (0, [None] * 3))
        if total + hits >= need:
            want = need - total
            for m, a in zip(MILESTONES, at):
                if m >= want and a is not None:
                    return before + a + 1
            return before + cycles
        total += hits
        before += cycles
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+", help=".cov files, or directories of them")
    ap.add_argument("--min", type=int, default=100, help="hits that close a bin (default 100)")
    ap.add_argument("--json", help="also write the merged figures as JSON")
    ap.add_argument("--require-closure", action="store_true",
                    help="exit 1 unless every reachable bin has --min hits")
    ap.add_argument("--quiet", action="store_true", help="only the summary line per configuration")
    a = ap.parse_args()
    files = []
    for p in a.paths:
        if os.path.isdir(p):
            files += glob.glob(os.path.join(p, "*.cov"))
        elif os.path.isfile(p):
            files.append(p)
        else:
            fail(f"{p}: no such file or directory")
    if not files:
        fail(f"no .cov files in {' '.join(a.paths)}")
    per = {}
    for path in sorted(files, key=seed_key):
        cfg, cycles, what, bins, unreach = parse(path)
        per.setdefault(cfg, []).append((path, cycles, bins, unreach))
    bad = 0
    report = {}
    summary, errors = [], []  # printed last, after the bins: the verdict is the end of the output
    for cfg in sorted(per):
        runs = per[cfg]
        names = list(runs[0][2].keys())
        unreach = dict(runs[0][3])
        for path, _, bins, un in runs[1:]:
            if list(bins.keys()) != names or set(un) != set(unreach):
                fail(f"{path}: its bins differ from {runs[0][0]} (built from another version?)")
        hits = {n: sum(r[2][n][0] for r in runs) for n in names}
        cycles = sum(r[1] for r in runs)
        contradicted = {n: sum(r[3][n][0] for r in runs) for n in unreach}
        contradicted = {n: h for n, h in contradicted.items() if h}
        under = [n for n in names if hits[n] < a.min]
        unhit = [n for n in names if hits[n] == 0]
        close = None
        if not under:
            close = max(closure_cycle([(r[1], r[2]) for r in runs], n, a.min) for n in names)
        closed = len(names) - len(under)
        line = (f"{cfg}: {len(runs)} runs, {cycles} cycles; {len(names)} reachable bins: {closed} with >= {a.min} hits, "
                f"{len(under) - len(unhit)} with 1..{a.min - 1}, {len(unhit)} unhit; {len(unreach)} unreachable; "
                + (f"closed by cycle {close}" if close is not None else "NOT CLOSED"))
        summary.append(line)
        if not a.quiet:
            print(line)
            for n in names:
                mark = "" if hits[n] >= a.min else ("   <- UNHIT" if hits[n] == 0 else f"   <- under {a.min}")
                print(f"  {hits[n]:>12}  {n}{mark}")
            for n, (_, why) in unreach.items():
                print(f"  {'unreachable':>12}  {n}: {why}")
        for n, h in contradicted.items():
            errors.append(f"ERROR {cfg}: bin {n} is listed as unreachable ({unreach[n][1]}) but was hit {h} times")
            bad = 1
        if a.require_closure and under:
            errors.append(f"ERROR {cfg}: {len(under)} reachable bins with fewer than {a.min} hits: {', '.join(under)}")
            bad = 1
        report[cfg] = {"runs": len(runs), "cycles": cycles, "hits": hits,
                       "unreachable": {n: why for n, (_, why) in unreach.items()},
                       "closed_by_cycle": close, "under_min": under}
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"min": a.min, "configs": report}, f, indent=1, sort_keys=True)
    if not a.quiet:
        print(f"--- summary, one line per configuration (a bin is closed at {a.min} hits"
              + ("; every configuration must close" if a.require_closure else "") + ")")
    print("\n".join(summary + errors))
    return bad


if __name__ == "__main__":
    sys.exit(main())
