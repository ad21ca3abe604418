#!/usr/bin/env python3
"""The layers point down only: golden <- stim <- sim <- csim, tb, perf, diff (and the spec
tests on golden alone, the engine tests on sim), golden <- golden/dpi <- tests/dpi, and
golden <- vl (the Verilator glue: dut.h, the shim, the clocking) <- tb, bench, tests/quiet.

1. Every #include "..." of a layer's file resolves in the layer itself or a
   layer below it (or the generated build/gen); never above or beside it.
   Headers are named, never reached by a path ("../tb/x.h").
2. No header include cycle.
3. From `nm` of the built objects, C and C++ (the shim, and the replay main
   and the quiet-cycle test where built; a C++ object is read from the first
   Verilated build directory that has it): no file uses a symbol defined
   in a layer above or beside its own, and no two files need each other's
   symbols (the file-level dependency graph has no cycle).

usage: check_layers.py [BUILD]   (objects are read from BUILD/obj)
Prints what it checked; exit 1 naming each violation.
"""
import os
import re
import subprocess
import sys

BELOW = {
    "golden": [],
    "stim": ["golden"],
    "sim": ["stim", "golden"],
    "csim": ["sim", "stim", "golden"],
    "vl": ["golden"],
    "tb": ["vl", "sim", "stim", "golden"],
    "perf": ["sim", "stim", "golden"],
    "diff": ["sim", "stim", "golden"],
    "tests/spec": ["golden"],
    "tests/engine": ["sim", "stim", "golden"],
    "tests/fuzz": ["stim", "golden"],
    "golden/dpi": ["golden"],
    "tests/dpi": ["golden/dpi", "golden"],
    "bench": ["vl", "golden"],
    "tests/quiet": ["tb", "vl", "sim", "stim", "golden"],
}
# The C++ objects, by source: (object in a BUILD/vl/<build>/ directory, the
# first that has it; must it be built). The shim must, the others are read
# where they are.
CXX_OBJS = {"vl/dut_shim.cpp": ("dut_shim.o", True), "bench/vl_replay.cpp": ("vl_replay.o", False),
            "tests/quiet/quiet_test.cpp": ("quiet_test.o", False)}
# Objects whose definitions are another file's: the quiet-cycle test
# includes the shim itself (to reach its sample() and quiet_equal()).
INCLUDES_OTHER = {"tests/quiet/quiet_test.cpp"}
GENERATED = {"spu_config.h", "spu_ports.h"}
SYSTEM = re.compile(r"^(verilated|svdpi\.h$)")  # Verilator's headers (vl/dut_shim.cpp), the simulator's DPI-C header (golden/dpi)


def layer_files(layer):
    return sorted(os.path.join(layer, f) for f in os.listdir(layer)
                  if f.endswith((".c", ".h", ".cpp")))


def includes(path):
    with open(path) as f:
        return re.findall(r'^\s*#\s*include\s+"([^"]+)"', f.read(), re.M)


def find_cycle(graph):
    """One cycle of graph (dict node -> set of nodes) as a list, or None."""
    state = {}
    stack = []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    errors = []
    where = {}  # header name -> path
    for layer in BELOW:
        for p in layer_files(layer):
            if p.endswith(".h"):
                where.setdefault(os.path.basename(p), p)
    hgraph = {}
    nincl = 0
    for layer, below in BELOW.items():
        allowed = [layer] + below
        for p in layer_files(layer):
            for inc in includes(p):
                nincl += 1
                if inc in GENERATED or SYSTEM.match(inc):
                    continue
                if "/" in inc:
                    errors.append(f"{p}: includes \"{inc}\" by path; a layer names headers only, found "
                                  f"through the include paths of itself and the layers below")
                    continue
                hits = [d for d in allowed if os.path.exists(os.path.join(d, inc))]
                if not hits:
                    other = where.get(os.path.basename(inc))
                    errors.append(f"{p}: includes \"{inc}\"" +
                                  (f", which is {other}, in a layer above or beside {layer}" if other
                                   else ", which no layer it may use has"))
                    continue
                hgraph.setdefault(p, set()).add(os.path.join(hits[0], inc))
    cyc = find_cycle(hgraph)
    if cyc:
        errors.append("include cycle: " + " -> ".join(cyc))
    # File-level symbol dependencies from the objects.
    defs, uses = {}, {}
    objs = []
    for layer in BELOW:
        d = os.path.join(build, "obj", layer)
        if not any(p.endswith(".c") for p in layer_files(layer)):
            continue
        if not os.path.isdir(d):
            errors.append(f"{d}: no objects (build first: make check builds them all)")
            continue
        objs += [(os.path.join(layer, f[:-2] + ".c"), os.path.join(d, f)) for f in sorted(os.listdir(d))
                 if f.endswith(".o")]
    vl = os.path.join(build, "vl")
    cfgs = sorted(c for c in os.listdir(vl) if os.path.isdir(os.path.join(vl, c))) if os.path.isdir(vl) else []
    cxx_read = []
    for src, (obj, needed) in CXX_OBJS.items():
        path = next((os.path.join(build, "vl", c, obj) for c in cfgs
                     if os.path.exists(os.path.join(build, "vl", c, obj))), None)
        if path:
            objs.append((src, path))
            cxx_read.append(src)
        elif needed:
            errors.append(f"{build}/vl/<config>/{obj}: not built (make check builds it)")
    for src, path in objs:
        out = subprocess.run(["nm", path], stdout=subprocess.PIPE, text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDRBC" and src not in INCLUDES_OTHER:
                defs.setdefault(parts[2], src)
            elif len(parts) == 2 and parts[0] == "U":
                uses.setdefault(src, set()).add(parts[1])
    nobj = len(objs)
    fgraph = {s: {defs[u] for u in us if u in defs and defs[u] != s} for s, us in uses.items()}
    # A symbol from a layer above or beside is an upward dependency even
    # without an include (a hand-written declaration).
    layer_of = lambda src: next(l for l in sorted(BELOW, key=len, reverse=True) if src.startswith(l + "/"))
    for src, used in sorted(fgraph.items()):
        for dst in sorted(used):
            ls_, ld = layer_of(src), layer_of(dst)
            if ld != ls_ and ld not in BELOW[ls_]:
                errors.append(f"{src} uses a symbol of {dst}, in a layer above or beside {ls_}")
    cyc = find_cycle(fgraph)
    if cyc:
        errors.append("files that need each other's symbols: " + " -> ".join(cyc))
    for e in errors:
        print("layers:", e)
    if not errors:
        print(f"layers: ok ({nincl} includes in {len(BELOW)} layers point down, no include cycle, "
              f"{nobj} objects without a dependency cycle, C++: {', '.join(cxx_read)})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
