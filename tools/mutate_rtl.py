#!/usr/bin/env python3
"""RTL mutation score (make mutate): how many Yosys mutants of rtl/*.v the
lockstep regression kills.

tools/mutate_rtl_netlist.py puts every mutant of a configuration into one
netlist behind the input mutsel; build/spu-tb-mut is the lockstep checker
linked with those netlists (--mutant K drives mutsel). Each mutant runs a
ladder of lockstep runs, cheapest first, stage by stage over all mutants
still alive: the configuration's hand vectors (tests/vectors/*.spt) and
directed traces (tests/mutate/*.spt), short random seeds, a few generator
knob settings (KNOB_RUNS), buffers that fill under a stalling memory
(BUFFER_RUNS), stray issue and finish events (STRAY_RUNS), longer random
seeds. The first run with a difference kills it
(a run over its time limit, a hang, kills it too, marked timeout). Before
any mutant, mutsel = 0 must pass every run of the ladder: the harness can
pass the unmutated netlist, and its times set each run's limit.

Classes, per mutant:
  killed          an output changed and the checker caught it (the run named)
  timeout         a run hung past its limit (counted as killed)
  not-activated   the mutated site never differed from the original value at
                  a clock edge in any run (the netlist's mut_act_o)
  no-output-change  activated, yet no output differed in any cycle of any run
                  (spu-tb compares every output bit every cycle, so a changed
                  output is always a difference)
Every survivor (the last two) then goes to the formal check
(tools/mutate_rtl_formal.py): proven equivalent, equivalent up to a bound,
or a counterexample (a real gap in the stimulus).

Score = killed / (total - proven equivalent).

usage: mutate_rtl.py [--configs "v1p4 ..."] [--jobs 2] [--max N] [--no-formal]
Writes build/mutate/report.txt and build/mutate/report.json.
"""
import argparse
import collections
import concurrent.futures as cf
import glob
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate_rtl_formal  # noqa: E402
from regress import STRESS  # noqa: E402  (the regression's buffer-stress knobs)

MODES = ("inv", "const0", "const1", "cnot0", "cnot1")


# Generator knob settings that reach corners the default mix seldom does
# (docs/generator.md): resets and enable toggles often; dense events with
# every filter on; reprogramming every few hundred cycles with every filter on.
KNOB_RUNS = [("reset_gap=5000,toggle_gap=3000", 400000),
             ("ev_density=512,p_filter=100,reprog_gap=2000", 400000),
             ("p_filter=100,reprog_gap=300,ev_density=700", 1000000)]
# The Profiling Buffer (docs/buffer.md): buffers that fill and a memory that
# stalls, so the beat queue fills and records wait; and the regression's
# buffer-stress knobs (tools/regress.py, docs/coverage.md) without stalls and
# with a 99 % stall, then with buffers at the full test's edges (p_edge_buf,
# docs/generator.md), short and long (each bit of the full test's compares
# needs its own buffer size): (--mem-stall, generator knobs, cycles).
BUFFER_RUNS = [(99, "p_small_buf=30,int_min=1,int_max=2,pop_density=100", 300000),
               (50, "p_small_buf=50", 400000),
               (0, STRESS, 400000),
               (99, STRESS, 400000),
               (0, STRESS + ",p_edge_buf=60", 400000),
               (99, STRESS + ",p_edge_buf=60", 400000),
               (0, STRESS + ",p_edge_buf=60", 2000000),
               (99, STRESS + ",p_edge_buf=60", 2000000)]
# Issue and finish events no sampled op stands behind (--stray-events: for a
# free slot, an issued one, or none; docs/semantics.md, "Input corner
# cases"), alone and with the buffer-stress knobs and a stalling memory, so
# slots are also held by waiting records: (--stray-events, --mem-stall,
# generator knobs, cycles).
STRAY_RUNS = [(20, 0, "", 400000),
              (5, 50, STRESS, 400000)]


def vectors_of(cfg, where="vectors"):
    """The traces in tests/<where> whose header names configuration cfg."""
    out = []
    for p in sorted(glob.glob(os.path.join(ROOT, "tests", where, "*.spt"))):
        with open(p) as f:
            for line in f:
                m = re.match(r"\s*cfg\s+(\S+)", line)
                if m:
                    if m.group(1) == cfg:
                        out.append(p)
                    break
    return out


def ladder(cfg, a):
    """[(stage, label, args)], cheapest stage first."""
    runs = [("vectors", "vec:" + os.path.basename(p)[:-4], [p, "--expect-vacuous"]) for p in vectors_of(cfg)]
    runs += [("vectors", "dir:" + os.path.basename(p)[:-4], [p, "--expect-vacuous"])
             for p in vectors_of(cfg, "mutate")]
    runs += [("short", "seed%d/%dk" % (s, a.short_cycles // 1000),
              ["--config", cfg, "--seed", str(s), "--cycles", str(a.short_cycles)])
             for s in range(1, a.short_seeds + 1)]
    runs += [("knobs", "seed%d/%dk/%s" % (s, n // 1000, k), ["--config", cfg, "--seed", str(s), "--cycles", str(n),
                                                           "--gen", k])
             for s, (k, n) in enumerate(KNOB_RUNS if a.knobs else [], 51)]
    # (the label names the knobs by a hash: --resim tells runs apart by label)
    runs += [("buffer", "seed%d/%dk/stall%d/%08x" % (s, n // 1000, st, zlib.crc32(k.encode())),
              ["--config", cfg, "--seed", str(s), "--cycles", str(n), "--mem-stall", str(st), "--gen", k])
             for s, (st, k, n) in enumerate(BUFFER_RUNS if a.knobs else [], 61)]
    runs += [("stray", "seed%d/%dk/stray%d/stall%d/%08x" % (s, n // 1000, sp, st, zlib.crc32(k.encode())),
              ["--config", cfg, "--seed", str(s), "--cycles", str(n), "--stray-events", str(sp), "--mem-stall", str(st)]
              + (["--gen", k] if k else []))
             for s, (sp, st, k, n) in enumerate(STRAY_RUNS if a.knobs else [], 71)]
    runs += [("long", "seed%d/%dk" % (s, a.long_cycles // 1000),
              ["--config", cfg, "--seed", str(s), "--cycles", str(a.long_cycles)])
             for s in range(101, 101 + a.long_seeds)]
    return runs


def run_one(tb, args, mutant, timeout, fail_dir):
    """(outcome, activated, seconds): outcome pass, diff, timeout or error:<text>."""
    # --full-clock: Verilator's one-eval-per-cycle shortcut (dut_shim.cpp)
    # holds for rtl/ (make test checks both ways) but not for every Yosys
    # netlist of it: since the record port's builder moved into a clocked
    # block, the unmutated netlist misses a register-port decode with the
    # shortcut and passes with both edges (and under Icarus).
    cmd = [tb] + args + ["--mutant", str(mutant), "--quiet", "--no-progress", "--full-clock", "--fail-dir", fail_dir]
    t0 = time.monotonic()
    try:
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", None, time.monotonic() - t0
    dt = time.monotonic() - t0
    m = re.search(r"^MUTANT \d+ (activated|not-activated)$", r.stderr, re.M)
    act = m.group(1) == "activated" if m else None
    if r.returncode == 0 and act is not None:
        return "pass", act, dt
    if r.returncode == 1 and "FIRST DIFFERENCE" in r.stderr:
        return "diff", act, dt
    return "error:%d %s" % (r.returncode, r.stderr.strip().splitlines()[-1][:200] if r.stderr.strip() else ""), act, dt


class Progress:
    def __init__(self, total):
        self.total, self.decided, self.t0 = total, 0, time.monotonic()
        self.tty = sys.stderr.isatty()
        self.last = 0.0

    def show(self, stage, done, n, killed, force=False):
        now = time.monotonic()
        if not force and now - self.last < (0.5 if self.tty else 15):
            return
        self.last = now
        rate = self.decided / max(now - self.t0, 1e-9) * 60
        line = ("mutate: %-16s %4d/%-4d mutants | decided %d/%d, killed %d | %.0f mutants/min | %.0f s" %
                (stage, done, n, self.decided, self.total, killed, rate, now - self.t0))
        sys.stderr.write(("\r" + line + "   ") if self.tty else line + "\n")
        sys.stderr.flush()


def simulate(cfg, muts, tb, a, prog, fail_dir, skip=()):
    """Fill each mutant's result from the lockstep ladder of cfg (but the
    runs labelled in skip, which they have passed). Returns the ladder."""
    ladder_runs = ladder(cfg, a)
    runs = [r for r in ladder_runs if r[1] not in skip]
    # mutsel = 0: every run must pass, and its time sets the run's limit.
    limits = {}
    for stage, label, args in runs:
        out, act, dt = run_one(tb, args, 0, 600, fail_dir)
        if out != "pass" or act:
            sys.exit("mutate: %s: the unmutated netlist (--mutant 0) does not pass %s: %s%s" %
                     (cfg, label, out, ", and mut_act_o is set" if act else ""))
        limits[label] = max(a.min_timeout, a.timeout_factor * dt)
    alive = list(muts)
    for m in muts:
        m.update(activated=False, runs=0, killed_by=None, sim_class=None)
    # every stage of the ladder, in its order (a list of names here once
    # left the buffer stage out: its runs set limits but killed nothing)
    for stage in dict.fromkeys(r[0] for r in runs):
        srun = [r for r in runs if r[0] == stage]
        if not alive:
            break

        def ladder_of(m):
            for _, label, args in srun:
                out, act, dt = run_one(tb, args, m["id"], limits[label], fail_dir)
                m["runs"] += 1
                m["activated"] = m["activated"] or bool(act) or out in ("diff", "timeout")
                if out == "diff":
                    return "killed", label
                if out == "timeout":
                    return "timeout", label
                if out.startswith("error"):
                    return "error", "%s: %s" % (label, out)
            return None, None

        killed = sum(1 for m in muts if m["sim_class"] in ("killed", "timeout"))
        with cf.ThreadPoolExecutor(a.jobs) as ex:
            futs = {ex.submit(ladder_of, m): m for m in alive}
            for i, f in enumerate(cf.as_completed(futs), 1):
                m = futs[f]
                cls, by = f.result()
                if cls:
                    m["sim_class"], m["killed_by"] = cls, by
                    prog.decided += 1
                    killed += cls != "error"
                prog.show("%s %s" % (cfg, stage), i, len(alive), killed)
        alive = [m for m in alive if not m["sim_class"]]
    for m in alive:
        m["sim_class"] = "no-output-change" if m["activated"] else "not-activated"
        prog.decided += 1
    return ladder_runs


def resimulate(cfg, muts, tb, a, prog, fail_dir, old_labels):
    """--resim: the mutants an earlier ladder killed stay killed (the same
    netlist, and this ladder must hold every run of that one); the others,
    which passed every run of that ladder, run the runs it lacked. Their
    activation is kept: a run they passed may have activated them."""
    runs = ladder(cfg, a)
    missing = [lab for lab in old_labels if lab not in {r[1] for r in runs}]
    if missing:
        sys.exit("mutate: --resim: this ladder of %s lacks runs of the earlier one: %s" % (cfg, " ".join(missing)))
    again = [m for m in muts if m["sim_class"] not in ("killed", "timeout")]
    prog.decided += len(muts) - len(again)
    if not again:
        return runs
    before = {m["id"]: (m["activated"], m["runs"]) for m in again}
    simulate(cfg, again, tb, a, prog, fail_dir, skip=set(old_labels))
    for m in again:
        act, n = before[m["id"]]
        m["runs"] += n
        if act and m["sim_class"] == "not-activated":
            m["sim_class"] = "no-output-change"
        m["activated"] = m["activated"] or act
    return runs


def table(meta, key_fn):
    c = collections.Counter(key_fn(m) for m in meta)
    mods = sorted({k[0] for k in c})
    rows = ["  %-22s %s %6s" % ("module", " ".join("%7s" % x for x in MODES), "total")]
    for mod in mods:
        rows.append("  %-22s %s %6d" % (mod, " ".join("%7d" % c[(mod, x)] for x in MODES),
                                        sum(c[(mod, x)] for x in MODES)))
    rows.append("  %-22s %s %6d" % ("all", " ".join("%7d" % sum(c[(mod, x)] for mod in mods) for x in MODES),
                                    sum(c.values())))
    return rows


def control_bad(control):
    """The formal check is not trusted when it proves a killed mutant (known
    to differ) equivalent for every reachable state, or when it finds a
    counterexample for none of them. A bounded "equivalent for N cycles" is
    no contradiction: the kill may need more cycles than the bound reached
    (a latency counter's bit 12 differs only after 4096 cycles)."""
    return bool(control) and (any(v == "equivalent" for _, _, v in control) or
                              not any(v == "not-equivalent" for _, _, v in control))


def report(cfgs, allm, sim_seconds, a, ladders, control):
    total = len(allm)
    killed = sum(1 for m in allm if m["sim_class"] in ("killed", "timeout"))
    surv = [m for m in allm if m["sim_class"] not in ("killed", "timeout")]
    proven = sum(1 for m in surv if m.get("formal") == "equivalent")
    bounded = sum(1 for m in surv if m.get("formal") == "equivalent-bounded")
    errors = sum(1 for m in allm if m["sim_class"] == "error")
    score = killed / max(total - proven, 1)
    rate = total / max(sim_seconds / 60, 1e-9)
    L = ["RTL mutation score (make mutate; tools/mutate_rtl.py)", ""]
    L.append("configurations: %s; ladder per mutant, cheapest first, stop at the first difference:" % " ".join(cfgs))
    for cfg in cfgs:
        L.append("  %s: %s" % (cfg, ", ".join(lab for _, lab, _ in ladders[cfg])))
    L += ["", "mutants per module and kind (yosys mutate):"] + table(allm, lambda m: (m["module"], m["mode"]))
    L += ["", "killed per module and kind:"] + table(
        [m for m in allm if m["sim_class"] in ("killed", "timeout")], lambda m: (m["module"], m["mode"]))
    cls = collections.Counter(m["sim_class"] for m in allm)
    L += ["", "simulation: %d mutants, killed %d (of which timeout %d), survived %d (not activated %d, "
              "activated but no output changed %d), harness errors %d" %
          (total, killed, cls["timeout"], cls["not-activated"] + cls["no-output-change"], cls["not-activated"],
           cls["no-output-change"], errors),
          "speed: %.1f mutants decided per minute (%d mutants in %.0f s, %d jobs)" % (rate, total, sim_seconds, a.jobs)]
    fc = collections.Counter(m.get("formal") for m in allm
                             if m.get("formal") and m["sim_class"] not in ("killed", "timeout"))
    if fc:
        L.append("formal check of the survivors: " + ", ".join("%s %d" % kv for kv in sorted(fc.items())))
    if control:
        good = sum(1 for _, _, v in control if v == "not-equivalent")
        L.append("formal control: %d of %d killed mutants (%s) shown not equivalent%s%s" % (
            good, len(control), " ".join("%s#%d:%s" % (c, i, v) for c, i, v in control),
            "" if good == len(control) else
            "; the others equivalent only as deep as the bound reached (their kill needs more cycles)",
            " -- THE FORMAL CHECK IS NOT TRUSTWORTHY" if control_bad(control) else ""))
    L += ["", "SCORE %.2f %% = killed %d / (total %d - proven equivalent %d)" % (100 * score, killed, total, proven)]
    if bounded:
        L.append("  (equivalent only up to the bound, not subtracted: %d; without them %.2f %%)" %
                 (bounded, 100 * killed / max(total - proven - bounded, 1)))
    surv = [m for m in allm if m["sim_class"] not in ("killed", "timeout")]
    L += ["", "survivors (%d): id, module, src, kind, class, formal verdict" % len(surv)]
    for m in surv:
        L.append("  %s#%d %s %s %s/%s bit %d: %s; %s" % (m["config"], m["id"], m["module"], m["src"], m["mode"],
                                                     m["port"], m["bit"], m["sim_class"],
                                                     m.get("formal_detail", m.get("formal", "not checked"))))
    L += ["", "every mutant: config#id module instance src kind class killed-by"]
    for m in allm:
        L.append("  %s#%d %s %s %s %s/%s[%d] %s %s" % (m["config"], m["id"], m["module"], m["instance"], m["src"],
                                                     m["mode"], m["port"], m["bit"], m["sim_class"],
                                                     m["killed_by"] or m.get("formal", "-")))
    return "\n".join(L) + "\n", score


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--configs", default="v1p4")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--max", type=int, default=0, help="only the first N mutants of each configuration (a sample)")
    ap.add_argument("--ids", default="", help="only these mutant ids (comma-separated)")
    ap.add_argument("--short-seeds", type=int, default=4)
    ap.add_argument("--short-cycles", type=int, default=200000)
    ap.add_argument("--long-seeds", type=int, default=2)
    ap.add_argument("--long-cycles", type=int, default=2000000)
    ap.add_argument("--timeout-factor", type=float, default=10.0, help="a run's limit: this x the unmutated run's time")
    ap.add_argument("--min-timeout", type=float, default=10.0)
    ap.add_argument("--no-formal", action="store_true")
    ap.add_argument("--quick", action="store_true", help="smoke test: vectors, directed traces and one short seed")
    ap.add_argument("--formal-control", type=int, default=4, metavar="N",
                    help="also check N random killed mutants formally: none may come out proven "
                         "equivalent, and at least one must come out not-equivalent")
    ap.add_argument("--bmc-depth", type=int, default=mutate_rtl_formal.DEPTH)
    ap.add_argument("--out", default=None, help="report stem (default BUILD/mutate/report)")
    ap.add_argument("--resume", metavar="JSON", help="take the simulation verdicts (and the decided formal ones) "
                                                     "from an earlier report.json of the same netlists, and run "
                                                     "the formal check of the rest")
    ap.add_argument("--resim", action="store_true", help="with --resume: keep its kills, run this ladder on "
                                                        "its survivors (a ladder that grew), then the formal check")
    ap.add_argument("--pdr-seconds", type=int, default=mutate_rtl_formal.PDR_SECONDS,
                    help="the formal check's ABC pdr time per mutant")
    ap.add_argument("--prep-seconds", type=int, default=mutate_rtl_formal.PREP_SECONDS,
                    help="the time the ABC call allows, on top of pdr's, for reading the miter and its "
                         "reduction (fold, scorr, dc2): scorr on wide's miter takes minutes on a loaded machine")
    a = ap.parse_args()
    a.knobs = not a.quick
    if a.quick:
        a.short_seeds, a.long_seeds = 1, 0
    cfgs = a.configs.split()
    tb = os.path.join(a.build, "spu-tb-mut")
    stem = a.out or os.path.join(a.build, "mutate", "report")
    allm, ladders, control = [], {}, []
    prog = None
    fail_dir = tempfile.mkdtemp(prefix="spu-mutate-")
    t0 = time.monotonic()
    try:
        per_cfg = {}
        for cfg in cfgs:
            meta = json.load(open(os.path.join(a.build, "mutate", cfg, "mutants.json")))["mutants"]
            if a.ids:
                want = {int(x) for x in a.ids.split(",")}
                meta = [m for m in meta if m["id"] in want]
            if a.max:
                meta = meta[:a.max]
            for m in meta:
                m["config"] = cfg
            per_cfg[cfg] = meta
        prog = Progress(sum(len(v) for v in per_cfg.values()))
        if a.resim and not a.resume:
            sys.exit("mutate: --resim needs --resume JSON (the report whose kills it keeps)")
        if a.resume:
            old = json.load(open(a.resume))
            sim = {(m["config"], m["id"]): m for m in old["mutants"]}
            for cfg in cfgs:
                for m in per_cfg[cfg]:
                    o = sim[(cfg, m["id"])]
                    if (o["cell"], o["mode"], o["bit"]) != (m["cell"], m["mode"], m["bit"]):
                        sys.exit("mutate: --resume %s: mutant %s#%d is not the same mutant" % (a.resume, cfg, m["id"]))
                    m.update({k: o[k] for k in ("activated", "runs", "killed_by", "sim_class")})
                    m.update({k: o[k] for k in ("formal", "formal_detail", "formal_trace") if k in o})
                ladders[cfg] = [(None, lab, None) for lab in old["ladders"][cfg]]
                if a.resim:
                    ladders[cfg] = resimulate(cfg, per_cfg[cfg], tb, a, prog, fail_dir, old["ladders"][cfg])
                allm += per_cfg[cfg]
            sim_seconds = old["sim_seconds"] + (time.monotonic() - t0 if a.resim else 0)
        else:
            for cfg in cfgs:
                ladders[cfg] = simulate(cfg, per_cfg[cfg], tb, a, prog, fail_dir)
                allm += per_cfg[cfg]
            sim_seconds = time.monotonic() - t0
        if not a.resume:
            prog.show("simulation done", 0, 0, sum(1 for m in allm if m["sim_class"] in ("killed", "timeout")), True)
            sys.stderr.write("\n")
        proven_killed = ["%s#%d" % (m["config"], m["id"]) for m in allm
                         if m["sim_class"] in ("killed", "timeout") and m.get("formal") == "equivalent"]
        if proven_killed:
            sys.exit("mutate: THE FORMAL CHECK IS NOT TRUSTWORTHY: proven equivalent, then killed: " +
                     " ".join(proven_killed))
        if not a.no_formal:
            # a decided verdict of --resume's report holds (the same netlist)
            surv = [m for m in allm if m["sim_class"] in ("not-activated", "no-output-change") and
                    m.get("formal") not in ("equivalent", "not-equivalent")]
            mutate_rtl_formal.PDR_SECONDS = a.pdr_seconds
            mutate_rtl_formal.PREP_SECONDS = a.prep_seconds
            mutate_rtl_formal.check_all(surv, a.build, a.jobs, a.bmc_depth)
            # The control: the check must tell killed mutants (known to differ)
            # from the original, or its "equivalent" means nothing.
            killed = [m for m in allm if m["sim_class"] == "killed"]
            ctrl = random.Random(1).sample(killed, min(a.formal_control, len(killed)))
            mutate_rtl_formal.check_all(ctrl, a.build, a.jobs, a.bmc_depth)
            control = [(m["config"], m["id"], m["formal"]) for m in ctrl]
    finally:
        shutil.rmtree(fail_dir, ignore_errors=True)
    text, score = report(cfgs, allm, sim_seconds, a, ladders, control)
    with open(stem + ".txt", "w") as f:
        f.write(text)
    with open(stem + ".json", "w") as f:
        json.dump({"configs": cfgs, "score": score, "formal_control": control, "sim_seconds": sim_seconds,
                   "mutants_per_minute": len(allm) / max(sim_seconds / 60, 1e-9),
                   "ladders": {c: [lab for _, lab, _ in ladders[c]] for c in cfgs}, "mutants": allm}, f, indent=1)
    head = text.split("\nsurvivors")[0]
    print("simulation:" + head.split("\nsimulation:")[1])
    print("mutate: report %s.txt and %s.json" % (stem, stem))
    bad_control = control_bad(control)
    return 0 if not bad_control and not any(m["sim_class"] == "error" for m in allm) else 1


if __name__ == "__main__":
    sys.exit(main())
