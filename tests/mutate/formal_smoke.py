"""The formal check of make mutate on the mutants tests/mutate/formal_expect.txt
pins: each must get its verdict from ABC (not a kept one), and a
counterexample's trace must drive the input named there; and the rules of
the kept verdicts. Usage: formal_smoke.py BUILD EXPECT. Exit 0 when all agree."""
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import mutate_rtl_formal  # noqa: E402


def cache_rules():
    """The kept verdicts (verdict.json): a decided one is kept and taken back
    for the same model, id and script only; an undecided one is not kept.
    Returns what broke, or None."""
    f = mutate_rtl_formal
    with tempfile.TemporaryDirectory() as d:
        m = {"id": 8, "aig_sha": "a" * 64, "formal": "equivalent", "formal_detail": "proven"}
        f.store(m, d)
        same, other_model, other_id = dict(m, formal=None), dict(m, aig_sha="b" * 64), dict(m, id=9)
        if not f.cached(same, d) or same["formal"] != "equivalent" or "kept from" not in same["formal_detail"]:
            return "a kept verdict was not taken back for the same model"
        if f.cached(other_model, d) or f.cached(other_id, d):
            return "a kept verdict was taken for another model or mutant"
        os.remove(os.path.join(d, "verdict.json"))
        f.store(dict(m, formal="unknown"), d)
        if os.path.exists(os.path.join(d, "verdict.json")):
            return "an undecided verdict was kept"
    return None


def main():
    build, expect = sys.argv[1], sys.argv[2]
    broke = cache_rules()
    if broke:
        print("formal smoke: " + broke)
        return 1
    want = [line.split() for line in open(expect) if line.strip() and not line.startswith("#")]
    muts = [{"config": "v1p4", "id": int(i)} for i, _, _ in want]
    t0 = time.monotonic()
    mutate_rtl_formal.CACHE = False  # ABC itself must decide, every time
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
