"""The formal check of make mutate on the mutants tests/mutate/formal_expect.txt
pins: each must get its verdict, and a counterexample's trace must drive the
input named there. Usage: formal_smoke.py BUILD EXPECT. Exit 0 when all agree."""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import mutate_rtl_formal  # noqa: E402


def main():
    build, expect = sys.argv[1], sys.argv[2]
    want = [line.split() for line in open(expect) if line.strip() and not line.startswith("#")]
    muts = [{"config": "v1p4", "id": int(i)} for i, _, _ in want]
    t0 = time.monotonic()
    mutate_rtl_formal.check_all(muts, build, 2, mutate_rtl_formal.DEPTH)
    bad = []
    for m, (_, verdict, port) in zip(muts, want):
        got = m.get("formal")
        print("v1p4#%d: %s (%s)" % (m["id"], got, m.get("formal_detail", "")))
        if got != verdict:
            bad.append("#%d is %s, not %s" % (m["id"], got, verdict))
        elif port != "-":
            trace = os.path.join(build, "mutate", "v1p4", "formal", str(m["id"]), "trace.txt")
            if not os.path.exists(trace) or port + "=" not in open(trace).read():
                bad.append("#%d: no trace driving %s (%s)" % (m["id"], port, trace))
    if bad:
        print("formal smoke: " + "; ".join(bad))
        return 1
    print("%d of %d verdicts as pinned (%.0f s)" % (len(muts), len(muts), time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
