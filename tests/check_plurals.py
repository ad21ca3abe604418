#!/usr/bin/env python3
"""A count written before a plural noun must not say "1 records".

Finds, in the C and C++ sources of the tools, a printf-style count
directly followed by a plural noun ("%u records", "%" PRIu64 " cycles")
where the noun's ending does not come from the count (plural_s() of
stim/plural.h: "%u record%s"). A count that is never 1 is listed in
NEVER_ONE with the reason. Label-style output ("samples %u  records %u",
the count after its name) is not a count before a noun and is not matched.

usage: check_plurals.py [FILE...]   (default: the tools' sources)
Prints each finding as FILE:LINE: TEXT; exit 1 when there is one.
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOUNS = ("samples|collisions|records|cycles|differences|disagreements|lines|beats|ops|members|selections|"
         "bytes|totals|accesses|transfers|reads|writes|runs|units|bins|seeds|events|packets|fields|lanes|"
         "slots|errors|entries")
# a conversion, at most one word between it and the noun, the noun; not
# followed by another conversion (then the noun is the next count's label)
COUNT = re.compile(r'%(?:" PRI[ux]64 "|l?l?[udx]|z[ux])(?: [a-zA-Z/*_-]+)? (' + NOUNS + r')\b(?!\s*%)(?!\s*"\s*PRI)')
# (file, the text the finding starts with): why that count is never 1
NEVER_ONE = {
    ("csim/vectors.c", "%u fields"): "a label: the field names follow",
    ("diff/spl_read.c", "%zu lines"): "a capacity that only doubles from 64",
    ("sim/cov_bins.c", "%d coverage bins"): "the constant COV_MAX_BINS",
    ("sim/run.c", '%" PRIu64 " cycles'): "an internal error: a skip is of 2 or more cycles",
    ("sim/run.c", "%u plain cycles"): "an internal error: a block is of 2 or more cycles",
    ("sim/run.c", "%u bytes"): "bytes of whole records, 16 or more",
    ("sim/spe_pkt.c", "%zu bytes"): "a packet that does not fit has 2 or more bytes",
    ("sim/vacuity.c", '%" PRIu64 " members'): "INTERVAL x 256 members, 256 or more",
    ("stim/spt_op.c", "%d lanes"): "the constant SPU_MAX_LANES",
    ("tb/lockstep_apb.c", "%d register accesses"): "the constant APB_QUEUE",
}


def sources():
    dirs = ("golden", "stim", "sim", "csim", "tb", "diff", "perf", "vl")
    return sorted(f for d in dirs for ext in ("c", "cpp") for f in glob.glob(os.path.join(ROOT, d, f"*.{ext}")))


def findings(path):
    rel = os.path.relpath(path, ROOT)
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            for m in COUNT.finditer(line):
                if (rel, m.group(0)) not in NEVER_ONE:
                    yield f"{rel}:{n}: {m.group(0)}"


def main(argv):
    found = [x for p in (argv or sources()) for x in findings(p)]
    for x in found:
        print(f"{x}  (a count before a plural noun: write the ending with plural_s(), stim/plural.h)")
    if not found:
        print(f"check_plurals: {len(argv or sources())} files, every count before a plural noun has its ending "
              f"({len(NEVER_ONE)} never 1, each with its reason)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
