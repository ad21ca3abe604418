#!/usr/bin/env python3
"""The APB wrapper's register addresses that docs/integration.md lists are the
ones the encodings of configs/spu.toml give: offset = (CRm - 9) * 64 + op2 * 8
(rtl/spu_apb.v, golden/spu_apb.c). Usage: apb_map_check.py SPU.TOML DOC.md"""
import re
import sys
import tomllib


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], "rb") as f:
        regs = tomllib.load(f)["registers"]
    want = {n: ((r["enc"][3] - 9) << 6) | (r["enc"][4] << 3) for n, r in regs.items()}
    with open(sys.argv[2]) as f:
        have = {n: int(a, 16) for n, a in re.findall(r"(PM[A-Z]+_EL1) (0x[0-9A-F]{3})", f.read())}
    bad = sorted(set(want) | set(have))
    bad = [n for n in bad if want.get(n) != have.get(n)]
    for n in bad:
        print(f"{sys.argv[2]}: {n}: listed at {have.get(n)}, the encoding gives {want.get(n)}")
    if bad:
        sys.exit(1)
    print(f"apb map: the {len(want)} register addresses of {sys.argv[2]} match {sys.argv[1]}")


if __name__ == "__main__":
    main()
