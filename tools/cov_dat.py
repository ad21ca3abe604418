#!/usr/bin/env python3
"""Split a merged Verilator coverage file into line and toggle coverage and
report both per RTL file.

  tools/cov_dat.py MERGED.dat OUTDIR

Writes OUTDIR/line.dat (v_line and v_branch points: the statements and branch
arms of --coverage-line) and OUTDIR/toggle.dat (v_toggle points of
--coverage-toggle: each bit of each signal seen going 0->1 and 1->0), which
verilator_coverage --write-info turns into lcov files, and prints per file the
points hit, then the line points never hit and the signals with a bit that
never toggled. Exit 1 when the file is malformed (named with its line).
"""
import collections
import os
import re
import sys

POINT = re.compile(r"^C '(.*)' (\d+)$")


def fields(key):
    """Verilator's point key: \\001name\\002value pairs."""
    out = {}
    for part in key.split("\x01"):
        if "\x02" in part:
            k, v = part.split("\x02", 1)
            out[k] = v
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    kinds = {"line": [], "toggle": []}
    header = []
    with open(path, encoding="latin-1") as f:
        for ln, text in enumerate(f, 1):
            text = text.rstrip("\n")
            if text.startswith("#"):
                header.append(text)
                continue
            m = POINT.match(text)
            if not m:
                sys.exit(f"cov_dat: {path}:{ln}:1: not a coverage point")
            fl = fields(m.group(1))
            page = fl.get("page", "")
            kind = "toggle" if page.startswith("v_toggle") else "line" if page.startswith(("v_line", "v_branch")) else None
            if kind is None:
                continue
            kinds[kind].append((fl, int(m.group(2)), text))
    for kind, pts in kinds.items():
        with open(os.path.join(outdir, f"{kind}.dat"), "w", encoding="latin-1") as f:
            f.write("\n".join(header + [p[2] for p in pts]) + "\n")
    for kind, pts in kinds.items():
        per = collections.defaultdict(lambda: [0, 0])
        for fl, n, _ in pts:
            name = os.path.basename(fl.get("f", "?"))
            per[name][0] += 1
            per[name][1] += n > 0
        tot = sum(v[0] for v in per.values())
        hit = sum(v[1] for v in per.values())
        for name in sorted(per):
            t, h = per[name]
            print(f"  {kind:6} {name:28} {h:5} / {t:5}  {100.0 * h / t:6.2f} %")
        if tot:
            print(f"cov: RTL {kind} coverage {hit} / {tot} = {100.0 * hit / tot:.2f} % of points")
    # What was never hit: line points by file:line, toggles by signal.
    unhit = sorted({(os.path.basename(fl.get("f", "?")), int(fl.get("l", 0))) for fl, n, _ in kinds["line"] if n == 0})
    print("cov: line points never hit (file:line):" + ("" if unhit else " none"))
    for name, line in unhit:
        print(f"  {name}:{line}")
    sig = collections.defaultdict(lambda: [0, 0])
    for fl, n, _ in kinds["toggle"]:
        # o is the signal with its bit, e.g. lat_q[17]; h the instance
        base = re.sub(r"\[\d+\]$", "", fl.get("o", "?"))
        key = f"{fl.get('h', '?')}.{base}"
        sig[key][0] += 1
        sig[key][1] += n > 0
    never = [(k, t - h, t) for k, (t, h) in sorted(sig.items()) if h < t]
    print(f"cov: signals with bits that never toggled: {len(never)} of {len(sig)}")
    for k, miss, t in never[:80]:
        print(f"  {k}: {miss} of {t} bits")
    if len(never) > 80:
        print(f"  ... {len(never) - 80} more (all in {outdir}/toggle.dat)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
