#!/usr/bin/env python3
"""Merge the shards of one regression (tools/regress.py --shard K/N --junit
FILE) into one JUnit file, and their functional coverage into one report.

  tools/regress_merge.py --out MERGED.xml [--run-id ID]
                         [--cov DIR]... [--cov-json FILE] SHARD.xml...

Each shard file records its shard K/N, its job list (configurations, first
seed, seeds, cycles) and its run id as JUnit <properties>. The merge refuses
(exit 2, writes nothing and removes an old --out file) unless the files are
the shards 1..N of one job list and one run, each exactly once, and every
job of the list appears exactly once, in the shard it belongs to. A file that
is not such a shard file (malformed XML, missing properties) is named with
what is wrong.

--cov DIR (one or several directories; shards may have shared one) takes
CONFIG.SEED.cov of every job: each must be there exactly once (a job whose
run failed may lack one), and no other .cov file; then tools/cov_report.py
merges exactly those files (--cov-json FILE: its JSON; --cov-min N: its
--min; --cov-require-closure).

Prints the failed jobs with their reproduce commands and ends with
"N passed, N failed". Exit status: 0 every job passed (and the coverage
report passed); 1 merged, but a job failed (or the coverage report failed);
2 refused: bad input or an incomplete set of shards.
"""
import argparse
import os
import socket
import subprocess
import sys
import xml.etree.ElementTree as ET
import xml.sax.saxutils as sx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import regress  # noqa: E402  (the job list and its partition: one definition)

NEED = ("shard", "joblist.id", "configs", "first", "seeds", "cycles", "jobs.total", "run_id")


class Refuse(Exception):
    pass


def load(path):
    """One shard file -> dict: file, k, n, props, cases [(cfg, seed, time, failure or None)]."""
    try:
        root = ET.parse(path).getroot()
    except FileNotFoundError:
        raise Refuse(f"{path}: no such file (a shard that never ran, or did not finish?)")
    except IsADirectoryError:
        raise Refuse(f"{path}: is a directory, not a shard's JUnit file")
    except OSError as e:
        raise Refuse(f"{path}: cannot read: {e.strerror}")
    except ET.ParseError as e:
        line, col = e.position
        raise Refuse(f"{path}:{line}:{col + 1}: malformed JUnit XML ({str(e).split(':')[0]}); "
                     f"a shard cut short, or not a JUnit file?")
    if root.tag != "testsuite":
        raise Refuse(f"{path}: root element <{root.tag}>, expected the <testsuite> tools/regress.py writes")
    props = {}
    for p in root.findall("properties/property"):
        name = p.get("name", "")
        if name.startswith(regress.PROP):
            props[name[len(regress.PROP):]] = p.get("value", "")
    missing = [n for n in NEED if n not in props]
    if missing:
        raise Refuse(f"{path}: no property {', '.join(regress.PROP + n for n in missing)}: not a shard file of "
                     f"tools/regress.py --shard K/N --junit FILE (or written by an older regress.py)")
    try:
        k, n = regress.parse_shard(props["shard"])
    except Exception:  # argparse.ArgumentTypeError
        raise Refuse(f"{path}: property {regress.PROP}shard '{props['shard']}' is not K/N with 1 <= K <= N")
    try:
        first, seeds, cycles, total = (int(props[x]) for x in ("first", "seeds", "cycles", "jobs.total"))
    except ValueError:
        raise Refuse(f"{path}: properties {regress.PROP}first/seeds/cycles/jobs.total are not numbers")
    configs = [c for c in props["configs"].split(",") if c]
    every = regress.job_list(configs, first, seeds)
    if regress.job_list_id(configs, first, seeds, cycles)[1] != props["joblist.id"] or len(every) != total:
        raise Refuse(f"{path}: its properties disagree with each other ({regress.PROP}joblist.id "
                     f"{props['joblist.id']} is not the job list they describe): edited by hand?")
    cases = []
    for i, tc in enumerate(root.findall("testcase"), 1):
        cls, name = tc.get("classname", ""), tc.get("name", "")
        m, s = regress.JOB_RE.match(cls), regress.SEED_RE.match(name)
        if not m or not s:
            raise Refuse(f"{path}: testcase {i} (classname '{cls}', name '{name}') is not a job "
                         f"'lockstep.CONFIG' / 'seedN'")
        bad = tc.find("failure")
        if bad is None:
            bad = tc.find("error")
        if bad is None and tc.find("skipped") is not None:
            bad = tc.find("skipped")
        try:
            t = float(tc.get("time", "0"))
        except ValueError:
            raise Refuse(f"{path}: testcase {i} ({cls} {name}): time '{tc.get('time')}' is not a number")
        fail = None if bad is None else (bad.get("message", bad.tag), bad.text or "")
        cases.append((m.group(1), int(s.group(1)), t, fail))
    return {"file": path, "k": k, "n": n, "props": props, "every": every, "cases": cases}


def check(shards, run_id):
    """The completeness checks; returns the merged cases {job: (time, fail, file)}."""
    first = shards[0]
    for s in shards[1:]:
        if s["props"]["joblist.id"] != first["props"]["joblist.id"]:
            raise Refuse(f"{s['file']} and {first['file']} are shards of different job lists:\n"
                         f"  {s['props'].get('joblist', s['props']['joblist.id'])}\n"
                         f"  {first['props'].get('joblist', first['props']['joblist.id'])}")
        if s["n"] != first["n"]:
            raise Refuse(f"{s['file']} is shard {s['k']}/{s['n']} but {first['file']} is shard "
                         f"{first['k']}/{first['n']}: one regression has one shard count N")
    ids = {s["props"]["run_id"] for s in shards}
    if run_id is not None and ids != {run_id}:
        other = [s for s in shards if s["props"]["run_id"] != run_id][0]
        raise Refuse(f"{other['file']}: written by run '{other['props']['run_id']}', not --run-id '{run_id}' "
                     f"(a stale file of an earlier run?)")
    if len(ids) > 1:
        a, b = shards[0], [s for s in shards if s["props"]["run_id"] != shards[0]["props"]["run_id"]][0]
        raise Refuse(f"{b['file']} was written by run '{b['props']['run_id']}' but {a['file']} by run "
                     f"'{a['props']['run_id']}' (a stale shard file of an earlier run?)")
    n = first["n"]
    seen = {}
    for s in shards:
        if s["k"] in seen:
            raise Refuse(f"shard {s['k']}/{n} appears twice: {seen[s['k']]['file']} and {s['file']}")
        seen[s["k"]] = s
    missing = [k for k in range(1, n + 1) if k not in seen]
    if missing:
        raise Refuse(f"missing shard{'s' if len(missing) > 1 else ''} "
                     f"{', '.join(f'{k}/{n}' for k in missing)} of {n} (given: "
                     f"{', '.join(str(s['k']) + '/' + str(n) + ' ' + s['file'] for s in sorted(shards, key=lambda x: x['k']))}); "
                     f"{'their' if len(missing) > 1 else 'its'} jobs would go unchecked")
    merged = {}
    for s in shards:
        want = set(regress.shard_jobs(s["every"], s["k"], n))
        for cfg, seed, t, fail in s["cases"]:
            job = (cfg, seed)
            if job in merged:
                raise Refuse(f"job {cfg} seed {seed} appears twice: in {merged[job][2]} and {s['file']}")
            if job not in want:
                raise Refuse(f"{s['file']} (shard {s['k']}/{n}): job {cfg} seed {seed} is not one of this "
                             f"shard's jobs")
            merged[job] = (t, fail, s["file"])
        lost = sorted(want - {(c, sd) for c, sd, _, _ in s["cases"]})
        if lost:
            raise Refuse(f"{s['file']} (shard {s['k']}/{n}): {len(lost)} of its {len(want)} jobs missing, e.g. "
                         + ", ".join(f"{c} seed {sd}" for c, sd in lost[:5]))
    if len(merged) != len(first["every"]):
        raise Refuse(f"{len(merged)} jobs merged, the job list has {len(first['every'])}")
    return merged


def cov_files(dirs, every, merged):
    """Exactly one CONFIG.SEED.cov per job over the directories."""
    want = {f"{c}.{s}.cov": (c, s) for c, s in every}
    found = {}
    real = [os.path.realpath(d) for d in dirs]
    for i, d in enumerate(dirs):
        if real[i] in real[:i]:
            raise Refuse(f"--cov {d}: the same directory given twice")
        if not os.path.isdir(d):
            raise Refuse(f"--cov {d}: no such directory")
        for name in sorted(os.listdir(d)):
            if not name.endswith(".cov"):
                continue
            path = os.path.join(d, name)
            if name not in want:
                raise Refuse(f"{path}: not the coverage of a job of this job list (a stale file, or another "
                             f"regression's?)")
            if name in found:
                raise Refuse(f"coverage of {want[name][0]} seed {want[name][1]} appears twice: {found[name]} "
                             f"and {path}")
            found[name] = path
    lost = [n for n in want if n not in found and merged[want[n]][1] is None]
    if lost:
        raise Refuse(f"--cov {' '.join(dirs)}: no coverage file of {len(lost)} passed job"
                     f"{'s' if len(lost) > 1 else ''}, e.g. {', '.join(lost[:5])}")
    return [found[n] for n in want if n in found]


def write(path, shards, merged, every):
    first = shards[0]["props"]
    nfail = sum(1 for t, fail, _ in merged.values() if fail)
    props = [("shard", "1/1"), ("jobs", len(merged)), ("jobs.total", len(every)),
             ("joblist", first.get("joblist", "")), ("joblist.id", first["joblist.id"]),
             ("configs", first["configs"]), ("first", first["first"]), ("seeds", first["seeds"]),
             ("cycles", first["cycles"]), ("run_id", first["run_id"]),
             ("merged_from", f"{len(shards)} shards"), ("host", socket.gethostname())]
    for s in sorted(shards, key=lambda x: x["k"]):
        props += [(f"shard{s['k']}.file", s["file"]), (f"shard{s['k']}.host", s["props"].get("host", "")),
                  (f"shard{s['k']}.wall_seconds", s["props"].get("wall_seconds", ""))]
    order = {c: i for i, c in enumerate(first["configs"].split(","))}
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        f.write(f'<testsuite name="openspu-regress" tests="{len(merged)}" failures="{nfail}" '
                f'time="{sum(t for t, _, _ in merged.values()):.2f}">\n  <properties>\n')
        for name, value in props:
            f.write(f'    <property name="{regress.PROP}{name}" value={sx.quoteattr(str(value))}/>\n')
        f.write("  </properties>\n")
        for (cfg, seed) in sorted(merged, key=lambda j: (order.get(j[0], 0), j[0], j[1])):
            t, fail, _ = merged[(cfg, seed)]
            f.write(f'  <testcase classname="lockstep.{sx.escape(cfg)}" name="seed{seed}" time="{t:.2f}">\n')
            if fail:
                f.write(f'    <failure message={sx.quoteattr(fail[0])}>{sx.escape(fail[1])}</failure>\n')
            f.write("  </testcase>\n")
        f.write("</testsuite>\n")
    os.replace(tmp, path)
    return nfail


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("shards", nargs="*", metavar="SHARD.xml", help="the JUnit file of every shard")
    ap.add_argument("--out", required=True, help="the merged JUnit file to write")
    ap.add_argument("--run-id", default=None, help="require this run id in every shard file")
    ap.add_argument("--cov", action="append", default=[], metavar="DIR",
                    help="a directory of the shards' CONFIG.SEED.cov files (repeat for several)")
    ap.add_argument("--cov-json", default=None, metavar="FILE", help="tools/cov_report.py --json FILE")
    ap.add_argument("--cov-min", type=int, default=None, metavar="N", help="tools/cov_report.py --min N")
    ap.add_argument("--cov-require-closure", action="store_true", help="tools/cov_report.py --require-closure")
    a = ap.parse_args()
    out = os.path.abspath(a.out)
    for p in a.shards:
        if os.path.abspath(p) == out:
            print(f"regress_merge: {p} is both a shard file and --out", file=sys.stderr)
            return 2
    try:
        if not a.shards:
            raise Refuse("no shard file given (SHARD.xml..., the --junit files of regress.py --shard K/N)")
        if (a.cov_json or a.cov_min is not None or a.cov_require_closure) and not a.cov:
            raise Refuse("--cov-json, --cov-min and --cov-require-closure need --cov DIR")
        shards = [load(p) for p in a.shards]
        merged = check(shards, a.run_id)
        every = shards[0]["every"]
        covs = cov_files(a.cov, every, merged) if a.cov else []
    except Refuse as e:
        msg = str(e)
        if os.path.lexists(a.out):
            os.remove(a.out)
            msg += f"\n(removed the old {a.out}, so nothing reads it as this regression's result)"
        print(f"regress_merge: {msg}", file=sys.stderr)
        print("regress_merge: REFUSED: no merged JUnit written", file=sys.stderr)
        return 2
    os.makedirs(os.path.dirname(out), exist_ok=True)
    nfail = write(a.out, shards, merged, every)
    n = shards[0]["n"]
    print(f"merged {n} shard{'s' if n > 1 else ''} of run '{shards[0]['props']['run_id']}': "
          f"{len(merged)} jobs, each exactly once -> {a.out}")
    for (cfg, seed), (t, fail, path) in sorted(merged.items()):
        if fail:
            text = fail[1].strip().splitlines()
            print(f"FAIL {cfg} seed {seed} ({fail[0]}; {path}): {text[0] if text else ''}")
            if "--- reproduce" in text:
                i = text.index("--- reproduce")
                for line in text[i + 1:i + 3]:
                    print(f"    {line.strip()}")
    rc = 1 if nfail else 0
    if a.cov:
        cmd = [sys.executable, os.path.join(HERE, "cov_report.py"), "--quiet"]
        if a.cov_json:
            cmd += ["--json", a.cov_json]
        if a.cov_min is not None:
            cmd += ["--min", str(a.cov_min)]
        if a.cov_require_closure:
            cmd += ["--require-closure"]
        print(f"coverage: {len(covs)} files from {' '.join(a.cov)}", flush=True)
        if not covs:
            print("coverage: none to report (every job failed without one)")
            rc = 1
        elif subprocess.run(cmd + covs).returncode != 0:
            print("coverage: tools/cov_report.py failed")
            rc = 1
    print(f"{len(merged) - nfail} passed, {nfail} failed")
    return rc


if __name__ == "__main__":
    sys.exit(main())
