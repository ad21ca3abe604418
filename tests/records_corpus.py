#!/usr/bin/env python3
"""Make a corpus trace small (tests/records_test.sh update): keep the
attributes only of the ops that were sampled and recorded, and fold runs of
cycles that hold one plain `op` into `op*N`.

usage: records_corpus.py TRACE.spt RECORDS.txt > SMALL.spt

An op's attributes are read only when it is sampled (docs/formats.md), so
the small trace drives the unit exactly as the full one: the same records,
byte for byte (the test checks it against the committed buffer).
"""
import re
import sys


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    keep = {int(m.group(1)) for m in
            (re.match(r"# record \d+ cycle \d+ op (\d+) ", ln) for ln in open(argv[2])) if m}
    head, cycles, cur, nid = [], {}, 0, 0
    for line in open(argv[1]):
        w = line.split("#", 1)[0].split()
        if not w:
            continue
        if w[0] in ("spu-trace", "cfg"):
            head.append(" ".join(w))
            continue
        if w[0].startswith("@"):
            cur = cur + int(w[0][2:], 0) if w[0].startswith("@+") else int(w[0][1:], 0)
            continue
        if w[0] == "op" or w[0].startswith("op*"):
            n = int(w[0][3:], 0) if w[0].startswith("op*") else 1
            ids = range(nid, nid + n)
            nid += n
            if not any(i in keep for i in ids):
                w = [w[0]] + [kv for kv in w[1:] if kv.startswith("lane=")]
            for i in range(n):
                cycles.setdefault(cur + i, []).append(" ".join(["op"] + w[1:]))
            cur += n - 1
            continue
        cycles.setdefault(cur, []).append(" ".join(w))
    out = head[:]
    cs = sorted(cycles)
    i = 0
    while i < len(cs):
        c = cs[i]
        lines = cycles[c]
        j = i
        if lines == ["op"]:
            while j + 1 < len(cs) and cs[j + 1] == cs[j] + 1 and cycles[cs[j + 1]] == ["op"]:
                j += 1
        out.append("@%d" % c)
        if j > i:
            out.append("op*%d" % (j - i + 1))
        else:
            out.extend(lines)
        i = j + 1
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv)
