#!/usr/bin/env python3
"""Plant one difference in a spu-csim --vectors file, finding fields by the
names its header gives (docs/formats.md), never by position.

usage: vec_edit.py IN OUT PORT (--cycle N | --first-nonzero GATE)

Flips bit 0 of field PORT (an input or an output port's name) in cycle N
(0 = the first line after the header), or in the first cycle whose field
GATE is nonzero. Exits 1, naming the file, when a port is not in the header
or no cycle matches.
"""
import sys


def fail(msg):
    print(f"vec_edit: {msg}", file=sys.stderr)
    sys.exit(1)


def main(argv):
    if len(argv) != 6 or argv[4] not in ("--cycle", "--first-nonzero"):
        fail(__doc__.strip().splitlines()[3])
    src, dst, port, mode, arg = argv[1:]
    with open(src) as f:
        lines = f.read().split("\n")
    head = lines[0].split()
    if "fields" not in head:
        fail(f"{src}:1: no 'fields' in the header")
    ins, outs = head[head.index("fields") + 1], head[head.index("fields") + 3]
    names = ins.split(",") + ["|"] + outs.split(",")
    for n in (port, arg if mode == "--first-nonzero" else port):
        if n not in names:
            fail(f"{src}:1: no field {n} in the header")
    col, gate = names.index(port), names.index(arg) if mode == "--first-nonzero" else None
    for i, line in enumerate(lines[1:], 1):
        w = line.split()
        if len(w) != len(names):
            continue
        if (gate is None and i - 1 == int(arg)) or (gate is not None and int(w[gate], 16) != 0):
            w[col] = w[col][:-1] + format(int(w[col][-1], 16) ^ 1, "x")
            lines[i] = " ".join(w)
            with open(dst, "w") as f:
                f.write("\n".join(lines))
            return 0
    fail(f"{src}: no cycle {'with ' + arg + ' nonzero' if gate is not None else arg}")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
