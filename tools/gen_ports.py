"""The port contract of spu_top, from configs/spu.toml [ports] (imported by
gen_config.py, which writes what this module returns).

parse() checks the table; emit_h() writes spu_ports.h (the members of
spu_in_t and spu_out_t, X-macros over the ports, the gates), emit_vh() the
Verilog port lists and connections, emit_md() the table of docs/ports.md.
"""
import re

PACKS = ("one", "lanes", "ports", "lane", "port", "pmu")
KEYS = ("dir", "pack", "width", "field", "gate", "stale", "group", "reg", "quiet", "doc")
IDENT = re.compile(r"[a-z][a-z0-9_]*$")
GATE = re.compile(r"([a-z][a-z0-9_]*)(?:\[(\d+)\])?$")


class PortError(Exception):
    pass


def ctype(bits):
    for n in (8, 16, 32, 64):
        if bits <= n:
            return f"uint{n}_t"
    raise PortError(f"{bits} bits do not fit a C integer")


def _check(src, name, p, pmu_w):
    where = f"{src}: [ports] {name}"
    for k in p:
        if k not in KEYS:
            raise PortError(f"{where}: unknown key '{k}' (one of {', '.join(KEYS)})")
    if p.get("dir") not in ("in", "out"):
        raise PortError(f"{where}: dir must be \"in\" or \"out\"")
    if not IDENT.match(name) or not re.search(r"_n?i$" if p["dir"] == "in" else r"_o$", name):
        raise PortError(f"{where}: an {p['dir']}put's name ends in {'_i' if p['dir'] == 'in' else '_o'}")
    if p.get("pack") not in PACKS:
        raise PortError(f"{where}: pack must be one of {', '.join(PACKS)}")
    w = pmu_w if p.get("width") == "PMU_W" else p.get("width")
    if not isinstance(w, int) or not 1 <= w <= 64:
        raise PortError(f"{where}: width must be 1..64 or PMU_W")
    if p["pack"] in ("lanes", "ports") and w != 1:
        raise PortError(f"{where}: a {p['pack']} mask has width 1 (one bit per element)")
    field = p.get("field")
    if not isinstance(field, str) or (field and not IDENT.match(field)):
        raise PortError(f"{where}: field must be a C identifier or \"\"")
    if not field and name != "clk_i":
        raise PortError(f"{where}: only clk_i has no field")
    if p["dir"] == "out" and p.get("stale"):
        raise PortError(f"{where}: stale is for inputs")
    if p["dir"] == "in" and ("quiet" in p or "reg" in p):
        raise PortError(f"{where}: quiet and reg are for outputs")
    if p.get("quiet", "zero") not in ("zero", "carried"):
        raise PortError(f"{where}: quiet must be \"zero\" or \"carried\"")
    if p.get("quiet") == "carried" and p["pack"] not in ("one", "pmu"):
        raise PortError(f"{where}: only a single value or pmu_o can be carried by spu_quiet_t")
    if p.get("group", "") not in ("", "reg") or (p.get("group") and p["dir"] != "in"):
        raise PortError(f"{where}: group must be \"reg\" (an input of the register port)")
    if not isinstance(p.get("doc"), str) or not p["doc"]:
        raise PortError(f"{where}: doc must say what the port carries")
    return dict(name=name, dir=p["dir"], pack=p["pack"], width=w, field=field,
                gate=list(p.get("gate", [])), stale=bool(p.get("stale")), group=p.get("group", ""),
                quiet=p.get("quiet", "zero"), reg=bool(p.get("reg")), doc=p["doc"])


def _check_gates(src, ports):
    seen = {}
    for p in ports:
        for g in p["gate"]:
            m = GATE.match(g) if isinstance(g, str) else None
            ref = seen.get((p["dir"], m.group(1))) if m else None
            if not ref:
                raise PortError(f"{src}: [ports] {p['name']}: gate '{g}' is not a member of a "
                                f"{p['dir']}put listed before it")
            if m.group(2) is not None and int(m.group(2)) >= ref["width"]:
                raise PortError(f"{src}: [ports] {p['name']}: gate '{g}': {ref['name']} has "
                                f"{ref['width']} bits")
            per = p["pack"].rstrip("s")
            if ref["pack"] in ("lane", "port", "lanes", "ports") and ref["pack"].rstrip("s") != per:
                raise PortError(f"{src}: [ports] {p['name']}: gate '{g}' is per {ref['pack'].rstrip('s')}, "
                                f"the port is not")
            if p["dir"] == "out" and (ref["gate"] or ref["quiet"] != "zero"):
                raise PortError(f"{src}: [ports] {p['name']}: gate '{g}': an output's gate is an "
                                "output zero in a quiet cycle, with no gate of its own")
        if p["field"]:
            seen[(p["dir"], p["field"])] = p


def parse(doc, src, pmu_w):
    """The ports of [ports], in order, checked; PortError names the key."""
    table = doc.get("ports")
    if not isinstance(table, dict) or not table:
        raise PortError(f"{src}: no [ports] table")
    ports = [_check(src, n, p if isinstance(p, dict) else {}, pmu_w) for n, p in table.items()]
    fields = [(p["dir"], p["field"]) for p in ports if p["field"]]
    if len(set(fields)) != len(fields):
        raise PortError(f"{src}: [ports]: two ports of one direction share a field")
    for need in ("clk_i", "rst_ni"):
        if need not in table:
            raise PortError(f"{src}: [ports] has no {need}")
    ins = [p for p in ports if p["dir"] == "in" and p["field"]]
    first = next((i for i, p in enumerate(ins) if p["stale"]), len(ins))
    if not all(p["stale"] for p in ins[first:]):
        raise PortError(f"{src}: [ports] {ins[first]['name']}: the stale inputs come last")
    if first == len(ins):
        raise PortError(f"{src}: [ports]: no stale input (spu_in_t's tail)")
    for p in ports:
        if p["dir"] == "out" and p["gate"] and p["pack"] != "one":
            raise PortError(f"{src}: [ports] {p['name']}: only a single output may have a gate")
    _check_gates(src, ports)
    return ports


def _member(p):
    """The C member of a port: its declaration (without the comment)."""
    n = {"lane": "[SPU_MAX_LANES]", "port": "[SPU_MAX_SLOTS]", "pmu": "[SPU_NPMU]"}.get(p["pack"], "")
    t = "uint8_t" if p["pack"] in ("lanes", "ports") else ctype(p["width"])
    return f"{t} {p['field']}{n};"


def _gate(p, by_field):
    """C expression: element i of struct pointer s is read (the port's gates)."""
    terms = []
    for g in p["gate"]:
        f, b = GATE.match(g).groups()
        ref = by_field[(p["dir"], f)]
        if ref["pack"] in ("lanes", "ports"):
            terms.append(f"(((s)->{f} >> (i)) & 1u)")
        elif b is None:
            terms.append(f"((s)->{f} != 0)")
        else:
            elem = f"(s)->{f}[i]" if ref["pack"] in ("lane", "port") else f"(s)->{f}"
            terms.append(f"(({elem} >> {b}) & 1u)")
    return " && ".join(terms) if terms else "1"


def _xlist(name, ports, comment):
    lines = [f"/* {comment} */", f"#define {name}(X) \\"]
    lines += [f"    X({p['name']}, {p['field']}, {p['pack'].upper()}, {p['width']}) \\" for p in ports]
    return lines + [""]


def _members(name, ports):
    lines = [f"#define {name} \\"]
    for p in ports:
        doc = p["doc"].replace("*/", "* /")
        lines.append(f"    {_member(p):<36} /* {p['name']}: {doc} */ \\")
    return lines + [""]


def emit_h(ports, src):
    """spu_ports.h: the C side of the port contract."""
    by_field = {(p["dir"], p["field"]): p for p in ports if p["field"]}
    ins = [p for p in ports if p["dir"] == "in" and p["field"]]
    outs = [p for p in ports if p["dir"] == "out" and p["field"]]
    h = [f"/* Generated by tools/gen_config.py from {src} [ports]. Do not edit. */",
         "#ifndef SPU_PORTS_H", "#define SPU_PORTS_H", "",
         "/* The members of spu_in_t and spu_out_t (golden/spu_model.h), one per",
         " * port of spu_top, in port order; lane/port arrays hold element i of the",
         " * packed port. */"]
    h += _members("SPU_IN_MEMBERS", ins)
    h += _members("SPU_OUT_MEMBERS", outs)
    carried = [p for p in outs if p["quiet"] == "carried"]
    h += ["/* spu_quiet_t's members (vl/dut.h): the outputs a quiet cycle carries */",
          "#define SPU_QUIET_MEMBERS \\"]
    h += [f"    uint8_t pop; /* {p['name']}: SAMPLE_POP's count */ \\" if p["pack"] == "pmu"
          else f"    {_member(p):<36} /* {p['name']} */ \\" for p in carried]
    h.append("")
    h.append("/* X(port, member, PACK, element width): PACK is ONE, LANES, PORTS, LANE,")
    h.append(" * PORT or PMU (configs/spu.toml [ports]). */")
    h += _xlist("SPU_IN_PORTS", [p for p in ins if not p["group"]],
                "Inputs with a member but the register port's")
    h += _xlist("SPU_REG_PORTS", [p for p in ins if p["group"] == "reg"],
                "The register port's inputs (spu_apb drives them from APB)")
    h += _xlist("SPU_OUT_PORTS", outs, "Outputs with a member")
    h += _xlist("SPU_OUT_QUIET_ZERO", [p for p in outs if p["quiet"] == "zero" and not p["gate"]],
                "Outputs zero in a quiet cycle (but the gated ones)")
    h += _xlist("SPU_OUT_GATED", [p for p in outs if p["gate"]],
                "Outputs with a gate: read (and compared) only while it holds, zero in a quiet cycle")
    h += _xlist("SPU_OUT_CARRIED", [p for p in carried if p["pack"] == "one"],
                "Single outputs spu_quiet_t carries (and pmu_o's SAMPLE_POP)")
    h += _xlist("SPU_IN_ALL", ins, "Every input with a member, in port order (the vector files' order)")
    h += ["/* Every output in port order (the vector files' order) */",
          "#define SPU_OUT_ALL(X) \\"]
    h += [f"    X({p['name']}, {p['field']}, {p['pack'].upper()}, {p['width']}) \\"
          for p in ports if p["dir"] == "out"]
    h.append("")
    h += ["/* spu_dpi_step's ports (golden/dpi/spu_dpi.h), in the vector order:",
          " * X(port, BIT or VEC, IN or OUT); a BIT port is an svBit, a VEC port an",
          " * svBitVecVal array */",
          "#define SPU_DPI_PORTS(X) \\"]
    vec = [p for p in ports if p["dir"] == "in" and p["field"]] + [p for p in ports if p["dir"] == "out"]
    h += [f"    X({p['name']}, {'BIT' if vrange(p) == '' else 'VEC'}, {p['dir'].upper()}) \\" for p in vec]
    h.append("")
    h.append("/* SPU_W_<member>: bits of one element */")
    h += [f"#define SPU_W_{p['field']} {p['width']}" for p in ins + outs]
    h.append("")
    h.append("/* SPU_GATE_<member>(s, i): element i of the member of struct *s is read */")
    for p in ins + outs:
        h.append(f"#define SPU_GATE_{p['field']}(s, i) ({_gate(p, by_field)})")
    live = sorted({GATE.match(p["gate"][0]).group(1) for p in ins if p["pack"] == "port" and p["gate"]})
    ungated = any(p["pack"] == "port" and not p["gate"] for p in ins)
    h += ["", "/* Nonzero when some port's inputs are read this cycle */",
          "#define SPU_IN_PORTS_LIVE(s) (" + ("1" if ungated or not live else
                                              " | ".join(f"(s)->{f}" for f in live)) + ")"]
    first = next(p for p in ins if p["stale"])
    h += ["/* The first stale payload: spu_in_t's tail starts here */",
          f"#define SPU_IN_FIRST_STALE {first['field']}",
          f"#define SPU_NPORTS {len(ports)}", "", "#endif"]
    return "\n".join(h) + "\n"


def vrange(p):
    """The Verilog range of a port, in spu_top's parameters."""
    w = "`SPU_PMU_W" if p["pack"] == "pmu" else str(p["width"])
    n = {"one": w, "lanes": "LANES", "ports": "SLOTS", "lane": f"LANES*{w}", "port": f"SLOTS*{w}",
         "pmu": f"`SPU_NPMU*{w}"}[p["pack"]]
    if n.isdigit():
        return "" if n == "1" else f"[{int(n) - 1}:0]"
    return f"[{n}-1:0]"


def where(p):
    """Where element i sits in the packed port, for the docs."""
    w = "`SPU_PMU_W" if p["pack"] == "pmu" else p["width"]
    return {"lanes": "bit l for lane l", "ports": "bit p for port p",
            "lane": f"lane l at [{w}l +: {w}]", "port": f"port p at [{w}p +: {w}]",
            "pmu": "SAMPLE_<NAME> at [`SPU_PMU_W*`SPU_PMU_<NAME> +: `SPU_PMU_W]"}.get(p["pack"], "")


def _decls(ports, regs):
    lines = []
    for k, p in enumerate(ports):
        comma = "," if k + 1 < len(ports) else " "
        kind = "reg " if regs and p.get("reg") else "wire"
        d = f"  {p['dir'] + 'put':<6} {kind} {vrange(p):<22} {p['name']}{comma}"
        lines.append(f"{d:<56} // {p['doc']}")
    return lines


def emit_vh(ports, src):
    """(spu_top_ports.vh, spu_apb_ports.vh, spu_top_conn.vh): the port list of
    spu_top, the ports spu_apb passes through (all but the register port's
    inputs), and their connections to its spu_top."""
    head = [f"// Generated by tools/gen_config.py from {src} [ports]. Do not edit.",
            "// Ranges use LANES and SLOTS of the including module."]
    thru = [p for p in ports if p["group"] != "reg"]
    top = head + ["// The port list of spu_top (docs/ports.md)."] + _decls(ports, True)
    apb = head + ["// The ports of spu_top that spu_apb passes through: all but the",
                  "// register port's inputs."] + _decls(thru, False)
    conn = [head[0], "// spu_apb's connections of the ports it passes through (each"
            " with a comma: the register port's inputs follow)."]
    conn += [f"    .{p['name']:<17}({p['name']})," for p in thru]
    return ("\n".join(top) + "\n", "\n".join(apb) + "\n", "\n".join(conn) + "\n", _vec_list(ports, src),
            _dpi_import(ports, src))


def _dpi_import(ports, src):
    """spu_dpi_step.svh: spu_dpi_pkg's import of spu_dpi_step (its ports in
    the vector order, widths in the package's LANES, SLOTS, REC_MAX)."""
    vec = [p for p in ports if p["dir"] == "in" and p["field"]] + [p for p in ports if p["dir"] == "out"]
    v = [f"// Generated by tools/gen_config.py from {src} [ports]. Do not edit.",
         "// spu_dpi_step: one clock of the model, spu_top's ports in the vector",
         "// order (docs/formats.md): the inputs, then the outputs after the clock.",
         "  import \"DPI-C\" function void spu_dpi_step(",
         "    input  chandle                          h,"]
    for k, p in enumerate(vec):
        d = "input " if p["dir"] == "in" else "output"
        r = vrange(p)
        v.append(f"    {d} bit {r:<32} {p['name']}{',' if k + 1 < len(vec) else ');'}")
    return "\n".join(v) + "\n"


def _vec_list(ports, src):
    """spu_vec_ports.vh: the ports of a vector file's line as macro calls the
    including bench defines (the same file included once per use)."""
    by_field = {(p["dir"], p["field"]): p["name"] for p in ports if p["field"]}
    v = [f"// Generated by tools/gen_config.py from {src} [ports]. Do not edit.",
         "// The fields of a spu-csim --vectors line, in order (docs/formats.md):",
         "//   `SPU_VEC_IN(port, bits)  an input with a member",
         "//   `SPU_VEC_SEP             the '|' between inputs and expected outputs",
         "//   `SPU_VEC_OUT(port, bits) an expected output, compared every cycle",
         "//   `SPU_VEC_OUT_GATED(port, bits, gate)  compared while output gate is nonzero",
         "// Define the four, then include this file; no include guard."]
    for p in ports:
        if p["dir"] == "in" and p["field"]:
            v.append(f"`SPU_VEC_IN({p['name']}, {vbits(p)})")
    v.append("`SPU_VEC_SEP")
    for p in ports:
        if p["dir"] == "out" and p["gate"]:
            gate = by_field[("out", GATE.match(p["gate"][0]).group(1))]
            v.append(f"`SPU_VEC_OUT_GATED({p['name']}, {vbits(p)}, {gate})")
        elif p["dir"] == "out":
            v.append(f"`SPU_VEC_OUT({p['name']}, {vbits(p)})")
    return "\n".join(v) + "\n"


def vbits(p):
    """A port's width in bits, as a Verilog expression."""
    r = vrange(p)
    return r[1:-5] if r.endswith("-1:0]") else (str(int(r[1:r.index(":")]) + 1) if r else "1")


def emit_md(ports):
    """The port table of docs/ports.md (between its generated markers)."""
    t = ["| port | dir | width | element | C member | gate | meaning |", "|---|---|---|---|---|---|---|"]
    for p in ports:
        r = vrange(p)
        width = (r[1:-5] if r.endswith("-1:0]") else str(p["width"])).replace("*", "·").replace("`", "") \
            if r else "1"
        member = f"`{p['field']}`" if p["field"] else ""
        elem = f"`{where(p).replace('`', '')}`" if where(p) else ""
        gate = ", ".join(f"`{g}`" for g in p["gate"])
        t.append(f"| `{p['name']}` | {p['dir']} | {width} | {elem} | {member} | {gate} | "
                 f"{p['doc']} |")
    return "\n".join(t) + "\n"
