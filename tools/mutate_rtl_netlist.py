#!/usr/bin/env python3
"""The mutant netlist of one configuration for make mutate (tools/mutate_rtl.py).

Yosys reads rtl/*.v with the configuration's include, `prep -flatten -top
spu_top`, and `mutate -list` picks mutations over the flattened netlist (its
even sampling over source lines, wires and cells). Every (module, kind) pair
with fewer than MIN_PER_PAIR mutants is topped up from a second, larger list,
so every module and every kind Yosys has (inv, const0, const1, cnot0, cnot1)
is represented. All mutants are applied into one netlist with
`mutate -ctrl mutsel W k`: mutant k is live when the new input mutsel == k,
and mutsel == 0 is the unmutated design.

Activation. `mutate -ctrl` puts a one-bit $mux at the site: A the original
value, B the mutated one, S (mutsel == k). This script adds, for every such
mux, (A ^ B) & S, ORs them, and keeps the OR in a sticky flip-flop (init 0,
no reset) whose output is the new port mut_act_o: 1 once the live mutant's
site had a value different from the original's at some clock edge. The flop
samples the value the design's own flops sample, so "not activated" means no
flop and no output could ever have seen the mutation in that run.

usage: mutate_rtl_netlist.py --config CFG --gen build/gen --out build/mutate/CFG
           [--count N] [--seed S]
writes OUT/spu_top_mut.v (module spu_top, inputs + mutsel, outputs +
mut_act_o), OUT/spu_top_mut.il (the same, RTLIL, for the formal check) and
OUT/mutants.json (one entry per mutant: id, module, instance, mode, cell,
port, bit, src) and OUT/mutants.h (SPU_MUTANTS, for vl/dut_shim.cpp).
"""
import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIN_PER_PAIR = 3  # mutants at least per (module, kind), where the design has that many


def yosys(script, log):
    r = subprocess.run([os.environ.get("YOSYS", "yosys"), "-q", "-l", log, "-p", script],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode:
        sys.exit("yosys failed (see %s):\n%s" % (log, r.stdout[-2000:]))


def read_cmd(gen, cfg):
    rtl = " ".join(sorted(glob.glob(os.path.join(ROOT, "rtl", "*.v"))))
    return "read_verilog -I%s %s" % (os.path.join(gen, cfg), rtl)


def instance_modules(hier_json):
    """{flattened cell-name prefix: module} for every instance below spu_top."""
    mods = json.load(open(hier_json))["modules"]
    out = {"": "spu_top"}

    def walk(mod, prefix):
        for name, cell in mods[mod]["cells"].items():
            if cell["type"] in mods:
                p = prefix + ("\\" if not name.startswith("$") else "") + name + "."
                out["$flatten" + p] = base_name(cell["type"])
                walk(cell["type"], p)
    walk("spu_top", "")
    return out


def base_name(mod):
    """spu_filter for $paramod$<hash>\\spu_filter or $paramod\\spu_filter\\P=V."""
    return mod.split("\\")[1] if mod.startswith("$paramod") else mod


LIST_RE = re.compile(r"-(\w+) (\S+)")


def parse_list(path):
    out = []
    for line in open(path):
        if not line.startswith("mutate "):
            continue
        m = {"src": []}
        for k, v in LIST_RE.findall(line[len("mutate "):]):
            if k == "src":
                m["src"].append(v)
            elif k != "ctrl":
                m[k] = v
        out.append(m)
    return out


def locate(m, prefixes):
    """(module, instance path) of a mutation's cell."""
    cell = m["cell"]
    best = ""
    for p in prefixes:
        if p and cell.startswith(p) and len(p) > len(best):
            best = p
    inst = best[len("$flatten"):].rstrip(".").replace("\\", "") if best else ""
    return prefixes[best], inst or "spu_top"


def key(m):
    return tuple(m.get(k, "") for k in ("mode", "cell", "port", "portbit", "ctrlbit"))


def choose(base, pool, prefixes):
    """base, topped up from pool so every (module, mode) has MIN_PER_PAIR."""
    chosen = list(base)
    seen = {key(m) for m in chosen}
    count = collections.Counter(locate(m, prefixes)[0] + "/" + m["mode"] for m in chosen)
    for m in pool:
        pair = locate(m, prefixes)[0] + "/" + m["mode"]
        if count[pair] < MIN_PER_PAIR and key(m) not in seen:
            chosen.append(m)
            seen.add(key(m))
            count[pair] += 1
    return chosen


def mutate_cmd(m, k, width):
    args = ["mutate", "-ctrl", "mutsel", str(width), str(k), "-mode", m["mode"], "-module", "spu_top",
            "-cell", m["cell"], "-port", m["port"], "-portbit", m["portbit"]]
    if "ctrlbit" in m:
        args += ["-ctrlbit", m["ctrlbit"]]
    return " ".join(args)  # as mutate -list writes them


CELL_RE = re.compile(r"^  cell (\S+) (\S+)$")
CONN_RE = re.compile(r"^    connect \\(\w+) (.+)$")


def add_activation(il_in, il_out, n):
    """Append the activation logic (module docstring) to the RTLIL of spu_top."""
    lines = open(il_in).read().split("\n")
    cells, cur = {}, None
    for ln in lines:
        c = CELL_RE.match(ln)
        if c:
            cur = cells.setdefault(c.group(2), {"type": c.group(1), "conn": {}, "param": {}})
            continue
        if cur is not None:
            k = CONN_RE.match(ln)
            if k:
                cur["conn"][k.group(1)] = k.group(2)
            elif ln.startswith("    parameter "):
                p = ln.split()
                cur["param"][p[1]] = p[2]
            elif ln == "  end":
                cur = None
    sel = {}  # S wire -> mutant id
    for name, c in cells.items():
        if "mutate_ctrl$" in name or ("mutate_ctrl" in name and "mux" not in name):
            if c["type"] == "$eq" and c["conn"].get("A") == "\\mutsel":
                sel[c["conn"]["Y"]] = int(c["conn"]["B"].split("'")[1], 2)
    muxes = {}
    for name, c in cells.items():
        if "mutate_ctrl_mux" in name:
            if c["param"].get("\\WIDTH") != "1":
                sys.exit("mutate_rtl_netlist: %s is not one bit wide" % name)
            muxes[sel[c["conn"]["S"]]] = c["conn"]
    if sorted(muxes) != list(range(1, n + 1)):
        sys.exit("mutate_rtl_netlist: found %d mutant sites, expected %d" % (len(muxes), n))
    ports = [int(x) for x in re.findall(r"^  wire .*(?:input|output) (\d+) ", "\n".join(lines), re.M)]
    add = ["  attribute \\init 1'0", "  wire output %d \\mut_act_o" % (max(ports) + 1),
           "  wire width %d $mutact$vec" % n, "  wire $mutact$any", "  wire $mutact$d"]
    for k in range(1, n + 1):
        c = muxes[k]
        add += ["  wire $mutact$x%d" % k,
                "  cell $xor $mutact$xor%d" % k, "    parameter \\A_SIGNED 0", "    parameter \\B_SIGNED 0",
                "    parameter \\A_WIDTH 1", "    parameter \\B_WIDTH 1", "    parameter \\Y_WIDTH 1",
                "    connect \\A %s" % c["A"], "    connect \\B %s" % c["B"], "    connect \\Y $mutact$x%d" % k,
                "  end",
                "  cell $and $mutact$and%d" % k, "    parameter \\A_SIGNED 0", "    parameter \\B_SIGNED 0",
                "    parameter \\A_WIDTH 1", "    parameter \\B_WIDTH 1", "    parameter \\Y_WIDTH 1",
                "    connect \\A $mutact$x%d" % k, "    connect \\B %s" % c["S"],
                "    connect \\Y $mutact$vec [%d]" % (k - 1), "  end"]
    add += ["  cell $reduce_or $mutact$or", "    parameter \\A_SIGNED 0", "    parameter \\A_WIDTH %d" % n,
            "    parameter \\Y_WIDTH 1", "    connect \\A $mutact$vec", "    connect \\Y $mutact$any", "  end",
            "  cell $or $mutact$sticky", "    parameter \\A_SIGNED 0", "    parameter \\B_SIGNED 0",
            "    parameter \\A_WIDTH 1", "    parameter \\B_WIDTH 1", "    parameter \\Y_WIDTH 1",
            "    connect \\A $mutact$any", "    connect \\B \\mut_act_o", "    connect \\Y $mutact$d", "  end",
            "  cell $dff $mutact$q", "    parameter \\CLK_POLARITY 1'1", "    parameter \\WIDTH 1",
            "    connect \\CLK \\clk_i", "    connect \\D $mutact$d", "    connect \\Q \\mut_act_o", "  end"]
    # spu_top is the only module: its final "end" closes it.
    last = max(i for i, ln in enumerate(lines) if ln == "end")
    lines[last:last] = add
    open(il_out, "w").write("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", required=True)
    ap.add_argument("--gen", default=os.path.join(ROOT, "build", "gen"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=360, help="mutants from the even sampling (default 360)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    out = os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)
    rd = read_cmd(os.path.abspath(a.gen), a.config)
    j = lambda f: os.path.join(out, f)
    yosys("%s; hierarchy -top spu_top; proc; write_json %s" % (rd, j("hier.json")), j("hier.log"))
    prefixes = instance_modules(j("hier.json"))
    yosys("%s; prep -flatten -top spu_top; write_rtlil %s; mutate -list %d -seed %d -o %s; "
          "mutate -list %d -seed %d -o %s" % (rd, j("orig.il"), a.count, a.seed, j("list_base.ys"),
                                             10 * a.count, a.seed + 1, j("list_pool.ys")), j("list.log"))
    muts = choose(parse_list(j("list_base.ys")), parse_list(j("list_pool.ys")), prefixes)
    width = max(1, (len(muts)).bit_length())
    with open(j("apply.ys"), "w") as f:
        for k, m in enumerate(muts, 1):
            f.write(mutate_cmd(m, k, width) + "\n")
    yosys("read_rtlil %s; script %s; write_rtlil %s" % (j("orig.il"), j("apply.ys"), j("muxed.il")), j("apply.log"))
    add_activation(j("muxed.il"), j("spu_top_mut.il"), len(muts))
    # splitnets -driver: a bus whose bits come from different cells becomes
    # one net per driver, so Verilator sees no false combinational loop
    # through it (50 UNOPTFLAT loops otherwise, each settled by iteration).
    yosys("read_rtlil %s; check -assert; splitnets -driver; write_verilog -noattr %s" %
          (j("spu_top_mut.il"), j("spu_top_mut.v")), j("write.log"))
    meta = []
    for k, m in enumerate(muts, 1):
        mod, inst = locate(m, prefixes)
        own = [s for s in m["src"] if os.path.basename(s.split(":")[0]) == mod + ".v"] or m["src"][-1:]
        src = ",".join(sorted({os.path.relpath(s.split(":")[0], ROOT) + ":" + s.split(":")[1] for s in own}))
        meta.append({"id": k, "module": mod, "instance": inst, "mode": m["mode"], "cell": m["cell"],
                     "port": m["port"], "bit": int(m["portbit"]),
                     "ctrlbit": int(m["ctrlbit"]) if "ctrlbit" in m else None, "src": src})
    with open(j("mutants.h"), "w") as f:
        f.write("/* generated by tools/mutate_rtl_netlist.py: mutsel 1..N selects a mutant */\n"
                "#define SPU_MUTANTS %d\n" % len(meta))
    json.dump({"config": a.config, "mutsel_width": width, "mutants": meta}, open(j("mutants.json"), "w"), indent=1)
    pairs = collections.Counter((m["module"], m["mode"]) for m in meta)
    print("mutate: %s: %d mutants, mutsel %d bits, %d (module, kind) pairs -> %s" %
          (a.config, len(meta), width, len(pairs), j("spu_top_mut.v")))


if __name__ == "__main__":
    main()
