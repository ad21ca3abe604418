#!/usr/bin/env python3
"""Write the input stage of a Verilated harness: MODULE behind one register on
every input (docs/performance.md, "The input stage").

usage: gen_vl_pipe.py [-I DIR]... RTL.v MODULE OUT.v

OUT.v defines MODULE_vl_pipe: MODULE's parameters and ports, and one more
input, ld_i. On each rising edge of ld_i every input but clk_i is registered;
MODULE sees only the registered values. Raising clk_i and ld_i in the same
evaluation clocks MODULE with the inputs of the last step and loads the
next step's: MODULE's outputs then show a step's results one step later,
and no logic of the Verilated model depends on a top-level input, so
Verilator evaluates the combinational logic once per cycle instead of twice
(its input-combinational region is empty). Raising ld_i, then clk_i, is
MODULE without delay. The harness (vl/dut_shim.cpp, bench/vl_replay.cpp)
chooses; the RTL is untouched. Simulation only: never synthesised, never
linted with the RTL, not counted by code coverage.

The ports and parameters are read from MODULE's ANSI header in RTL.v (one
declaration per line, as rtl/ writes them); an `include line in the port
list (the generated spu_top_ports.vh) is read from the first -I DIR that
has the file; an include after the header is not read. Errors name
RTL.v and exit 1.
"""
import os
import re
import sys


def fail(msg):
    print(f"gen_vl_pipe.py: {msg}", file=sys.stderr)
    sys.exit(1)


def expand(text, path, dirs):
    """text with each `include "F" line of MODULE's header replaced by F's
    lines, from dirs (an include after the header, such as spu_top.v's
    properties under `ifdef FORMAL, is left as it is: only ports are read)."""
    out, state = [], "before"
    for n, line in enumerate(text.split("\n")):
        if state == "before" and re.match(r"\s*module\s", line):
            state = "header"
        elif state == "header" and re.match(r"\s*\);", line):
            state = "after"
        m = re.match(r'\s*`include\s+"([^"]+)"', line)
        if m and m.group(1) != "spu_config.vh" and state != "after":
            found = [os.path.join(d, m.group(1)) for d in dirs if os.path.isfile(os.path.join(d, m.group(1)))]
            if not found:
                fail(f"{path}:{n + 1}: include {m.group(1)} is in no -I directory ({' '.join(dirs) or 'none given'})")
            with open(found[0], encoding="utf-8") as f:  # (its comments dropped: text, not ports)
                line = "\n".join(ln.split("//")[0].rstrip() for ln in f.read().rstrip("\n").split("\n"))
        out.append(line)
    return "\n".join(out)


def header(text, path, module):
    """(parameter lines, [(direction, range, name)]) of MODULE's ANSI header."""
    m = re.search(r"^\s*module\s+" + re.escape(module) + r"\b(.*?)\);", text, re.S | re.M)
    if not m:
        fail(f"{path}: no module {module} with an ANSI header")
    head = m.group(1)
    start = text[:m.start(1)].count("\n") + 1
    params, ports = [], []
    pm = re.match(r"\s*#\s*\((.*)\)\s*\(", head, re.S)
    body = head[pm.end():] if pm else head[head.index("(") + 1:]
    if pm:
        for line in pm.group(1).split("\n"):
            line = line.split("//")[0].strip().rstrip(",")
            if line:
                if not line.startswith("parameter"):
                    fail(f"{path}: module {module}: cannot read parameter line '{line}'")
                params.append(line)
    first = start + head[:len(head) - len(body)].count("\n")
    for n, line in enumerate(body.split("\n")):
        code = line.split("//")[0].strip().rstrip(",")
        if not code:
            continue
        d = re.match(r"(input|output)\s+(?:wire|reg)\s*(\[[^\]]+\])?\s*(\w+)$", code)
        if not d:
            fail(f"{path}:{first + n}: module {module}: cannot read port declaration '{code}'")
        ports.append((d.group(1), d.group(2) or "", d.group(3)))
    pnames = [re.match(r"parameter\s+(?:integer\s+|\[[^\]]+\]\s*)?(\w+)", p).group(1) for p in params]
    for d, r, n in ports:
        for ident in re.findall(r"(?<![`\w])([A-Za-z_]\w*)", r):
            if ident not in pnames:
                fail(f"{path}: module {module}: port {n}'s range {r} uses {ident}, not a parameter of the "
                     "header (a localparam cannot be seen by the wrapper)")
    names = [p[2] for p in ports]
    if "clk_i" not in names:
        fail(f"{path}: module {module} has no clk_i")
    if "ld_i" in names:
        fail(f"{path}: module {module} already has a port ld_i")
    return params, pnames, ports


def main():
    args, dirs = sys.argv[1:], []
    while len(args) > 1 and args[0] == "-I":
        dirs.append(args[1])
        args = args[2:]
    if len(args) != 3:
        fail("usage: gen_vl_pipe.py [-I DIR]... RTL.v MODULE OUT.v")
    path, module, out = args
    try:
        text = expand(open(path, encoding="utf-8").read(), path, dirs)
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    params, pnames, ports = header(text, path, module)
    w = [f"// Generated by tools/gen_vl_pipe.py from {path}: do not edit.",
         f"// {module} behind a register on every input but clk_i, loaded on the",
         "// rising edge of ld_i (docs/performance.md, \"The input stage\").",
         "`default_nettype none",
         "",
         "`include \"spu_config.vh\"",
         "",
         "/* verilator coverage_off */",
         f"module {module}_vl_pipe" + (" #(" if params else " (")]
    if params:
        w.append(",\n".join("  " + p for p in params))
        w.append(") (")
    decl = ["  input  wire ld_i"] + [f"  {d:<6} wire {r + ' ' if r else ''}{n}" for d, r, n in ports]
    w.append(",\n".join(decl))
    w.append(");")
    conns = []
    for d, r, n in ports:
        if d == "input" and n != "clk_i":
            w.append(f"  reg {r + ' ' if r else ''}{n}_q;")
            w.append(f"  always @(posedge ld_i) {n}_q <= {n};")
            conns.append(f"    .{n}({n}_q)")
        else:
            conns.append(f"    .{n}({n})")
    inst = f"  {module}"
    if params:
        inst += " #(\n" + ",\n".join(f"    .{p}({p})" for p in pnames) + "\n  )"
    w.append(inst + " u_dut (")
    w.append(",\n".join(conns))
    w.append("  );")
    w.append("endmodule")
    w.append("/* verilator coverage_on */")
    try:
        with open(out, "w", encoding="utf-8") as f:
            f.write("\n".join(w) + "\n")
    except OSError as e:
        fail(f"{out}: {e.strerror}")


if __name__ == "__main__":
    main()
