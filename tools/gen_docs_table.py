#!/usr/bin/env python3
"""Put a generated table into a doc, between its markers.

usage: gen_docs_table.py [--check] DOC.md TABLE.md

DOC.md holds the lines
    <!-- generated: TABLE.md ... -->
    <!-- end generated -->
(TABLE.md's base name in the first); everything between them is replaced by
TABLE.md's text (make rtl-default-vh). With --check nothing is written: exit
1 and say so when the doc's copy differs (make check-gen).
"""
import os
import sys


def main(argv):
    check = argv[1:2] == ["--check"]
    args = argv[2:] if check else argv[1:]
    if len(args) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    doc, table = args
    try:
        lines = open(doc, encoding="utf-8").read().split("\n")
        text = open(table, encoding="utf-8").read()
    except OSError as e:
        print(f"gen_docs_table: {e.filename}: {e.strerror}", file=sys.stderr)
        return 1
    tag = f"<!-- generated: {os.path.basename(table)}"
    starts = [i for i, ln in enumerate(lines) if ln.startswith(tag)]
    ends = [i for i, ln in enumerate(lines) if ln.startswith("<!-- end generated")]
    if len(starts) != 1 or not any(e > starts[0] for e in ends):
        print(f"gen_docs_table: {doc}: no '{tag} ... -->' line followed by '<!-- end generated -->'",
              file=sys.stderr)
        return 1
    a = starts[0]
    b = next(e for e in ends if e > a)
    new = lines[:a + 1] + text.rstrip("\n").split("\n") + lines[b:]
    if new == lines:
        return 0
    if check:
        print(f"gen_docs_table: {doc}:{a + 2}: the table differs from {table} (make rtl-default-vh)")
        return 1
    with open(doc, "w", encoding="utf-8") as f:
        f.write("\n".join(new))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
