#!/usr/bin/env python3
"""The perf round trip of one run (tests/records_test.sh): every record the
unit wrote, as stock perf decodes it, against what the stimulus and the log
say it must hold.

usage: records_perf.py CONFIG LOG.spl OURS.txt PERF.txt [MIN_RECORDS]

LOG is the run's .spl log (kept records: cycle, op, latencies), OURS its
--records text, whose header line per record names the op with its
attributes as the stimulus gave them (trace keys) and its entry EL, PERF
the output of `spu-perf BIN | perf report -D -i -`.
Checks, record by record:
  * perf decoded the whole buffer with no error, and its packet lines are
    exactly ours (--records);
  * the records are kept records of the log, in order (the Profiling
    Buffer may drop some: docs/buffer.md);
  * each field perf prints equals what the op carried: PC address, EL (the
    context at the op's entry cycle) and NS; Operation Type; the Events bits
    perf names (the op's ev within the configuration's record mask);
    total and issue latency (the log); branch target, data VA, data PA and
    previous branch target (present only when the op has them); CONTEXT
    (the op's ctx); TS (the finish cycle, the timer the harness drives).
Prints a one-line summary; exit 1 with the first mismatches otherwise.
The configuration's masks come from configs/spu.toml through
tools/gen_config.py (no second copy).
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))
import gen_config  # noqa: E402

EV_NAMES = {0: "EXCEPTION-GEN", 1: "RETIRED", 2: "L1D-ACCESS", 3: "L1D-REFILL", 4: "TLB-ACCESS",
            5: "TLB-REFILL", 6: "NOT-TAKEN", 7: "MISPRED", 8: "LLC-ACCESS", 9: "LLC-REFILL",
            10: "REMOTE-ACCESS", 11: "ALIGNMENT", 17: "SVE-PARTIAL-PRED", 18: "SVE-EMPTY-PRED"}
TYPES = {"B": 0, "LD": 1, "ST": 2, "FP": 3, "SIMD": 4}
ADDR56 = (1 << 56) - 1


def num(s):
    return int(s, 0)


def parse_headers(path):
    """[(cycle, op id, attrs)] from the --records header lines."""
    out = []
    for line in open(path):
        m = re.match(r"# record \d+ cycle (\d+) op (\d+) port \d+ bytes \d+: el=(\d)(.*)$", line)
        if m:
            a = dict(kv.split("=", 1) for kv in m.group(4).split())
            a["_el"] = int(m.group(3))
            out.append((int(m.group(1)), int(m.group(2)), a))
    return out


def parse_log(path):
    """[(cycle, op, tot, iss)] of the kept records, in log order."""
    out = []
    for line in open(path):
        m = re.match(r"(\d+) record op=(\d+) slot=\d+ tot=(\d+) iss=(\d+) keep=1 ", line)
        if m:
            out.append(tuple(int(x) for x in m.groups()))
    return out


def packet_lines(text):
    return [ln.rstrip("\n") for ln in text if re.match(r"[0-9a-f]{8}:  ", ln)]


def records(lines):
    """Split packet texts (after the bytes) into records at END/TS."""
    recs, cur = [], []
    for ln in lines:
        t = ln[10 + 48:].strip()
        if t == "PAD":
            continue
        cur.append(t)
        if t == "END" or t.startswith("TS "):
            recs.append(cur)
            cur = []
    return recs, cur


def expect(cfgd, op, lat):
    """The packet texts (bar Context, PA and TS, which depend on PMSCR) the
    op's record must show, and the optional ones' values."""
    t = 0
    for n in op.get("type", "-").split("+"):
        if n != "-":
            t |= 1 << TYPES[n]
    ev = num(op.get("ev", "0"))
    ns = int(op.get("ns", "1"))
    el = op["_el"]
    cond = int(op.get("cond", "1" if ev >> 6 & 1 else "0"))
    ind, excl, ar = (int(op.get(k, "0")) for k in ("ind", "excl", "ar"))
    want = {}
    want["TOT"] = "LAT %d TOT" % lat[2]
    want["ISSUE"] = "LAT %d ISSUE" % lat[3]
    want["PC"] = "PC 0x%x el%d ns=%d" % (num(op.get("pc", "0")) & ADDR56, el, ns)
    if "tgt" in op:
        want["TGT"] = "TGT 0x%x el%d ns=%d" % (num(op["tgt"]) & ADDR56, el, ns)
    if "va" in op:
        want["VA"] = "VA 0x%x" % num(op["va"])
    if "pbt" in op and "PBT" in cfgd["feat"]:
        want["ADDR4"] = "ADDR 0x%x (4)" % ((num(op["pbt"]) & ADDR56) | ns << 63 | el << 61)
    if "ds" in op and op["ds"] != "-" and "LDS" in cfgd["feat"] and "LD" in op.get("type", "-").split("+"):
        d = num(op["ds"])
        want["DS"] = "DATA-SOURCE %d" % d
    ld, st = t >> 1 & 1, t >> 2 & 1
    sve = int(op.get("sve", "0")) and "SVE" in cfgd["feat"]
    pred, sg = int(op.get("pred", "0")), int(op.get("sg", "0"))
    evl = int(op.get("evl", "32"))
    if t & 1:
        want["OP"] = "B" + (" COND" if cond else "") + (" IND" if ind else "")
    elif ld or st:
        s = "ST" if st and not ld else "LD"
        if (ld and st) or excl or ar:
            s += (" AT" if ld and st else "") + (" EXCL" if excl else "") + (" AR" if ar else "")
        elif sve:
            s += " EVLEN %d" % evl + (" PRED" if pred else "") + (" SG" if sg else "")
        elif t & 0x18:
            s += " SIMD-FP"
        else:
            s += " GP-REG"
        want["OP"] = s
    elif sve:
        want["OP"] = "SVE-OTHER EVLEN %d" % evl + (" FP" if t >> 3 & 1 else "") + (" PRED" if pred else "")
    else:
        want["OP"] = "OTHER " + ("COND-SELECT" if cond else "INSN-OTHER")
    bits = ev & cfgd["rec_ev"]
    names = [EV_NAMES[b] for b in sorted(EV_NAMES) if bits >> b & 1]
    want["EV"] = " ".join(["EV"] + names)
    return want


def kind(t):
    for k, p in (("TOT", "LAT ") , ("PC", "PC "), ("TGT", "TGT "), ("VA", "VA "), ("PA", "PA "),
                 ("ADDR4", "ADDR "), ("DS", "DATA-SOURCE "), ("EV", "EV"), ("CTX", "CONTEXT "),
                 ("TS", "TS "), ("END", "END")):
        if t.startswith(p):
            if k == "TOT":
                return "TOT" if t.endswith(" TOT") else "ISSUE"
            return k
    return "OP"


def main(argv):
    if len(argv) not in (5, 6):
        sys.exit(__doc__)
    cfgname, log, ours, perf = argv[1:5]
    need = int(argv[5]) if len(argv) == 6 else 1
    g = gen_config.build(os.path.join(os.path.dirname(__file__), "..", "configs", "spu.toml"))
    cfgd = next(c for c in g["configs"] if c["name"] == cfgname)
    ptext = open(perf).read().splitlines()
    errs = [ln for ln in ptext if re.search(r"bad packet|error|failed", ln, re.I)]
    if errs:
        sys.exit("records_perf: perf reported: " + errs[0])
    theirs = [ln[3:] for ln in ptext if re.match(r"\.  [0-9a-f]{8}:  ", ln)]
    mine = packet_lines(open(ours))
    if theirs != mine:
        for i, (a, b) in enumerate(zip(theirs, mine)):
            if a != b:
                sys.exit("records_perf: packet line %d: perf '%s', ours '%s'" % (i, a, b))
        sys.exit("records_perf: perf printed %d packet lines, ours %d" % (len(theirs), len(mine)))
    headers = parse_headers(ours)
    recs, rest = records(theirs)
    kept = parse_log(log)
    if rest:
        sys.exit("records_perf: the buffer ends inside a record: %s" % rest)
    # Every record in the buffer is one the log keeps; a kept record is not
    # in the buffer when the Profiling Buffer dropped it (full, stopped, a
    # full write queue: the --stats lines count them by rule).
    if len(recs) != len(headers) or len(recs) > len(kept):
        sys.exit("records_perf: perf shows %d records, the log keeps %d, --records has %d"
                 % (len(recs), len(kept), len(headers)))
    kept_at = {(k[0], k[1]): k for k in kept}
    bad, counts = [], {}
    for i, (rec, hdr) in enumerate(zip(recs, headers)):
        lat = kept_at.get((hdr[0], hdr[1]))
        if lat is None:
            bad.append("record %d: --records says cycle %d op %d, which the log does not keep"
                       % (i, hdr[0], hdr[1]))
            continue
        op = hdr[2]
        want = expect(cfgd, op, lat)
        got = {}
        for t in rec:
            got[kind(t)] = t
        for k, v in want.items():
            if got.get(k) != v:
                bad.append("record %d (op %d): %s is %r, want %r" % (i, lat[1], k, got.get(k), v))
        for k in ("TGT", "VA", "ADDR4", "DS"):
            if k in got and k not in want:
                bad.append("record %d (op %d): unexpected %r" % (i, lat[1], got[k]))
        if "CTX" in got and got["CTX"] != "CONTEXT 0x%x el1" % num(op.get("ctx", "0")):
            bad.append("record %d (op %d): %r, want ctx %s" % (i, lat[1], got["CTX"], op.get("ctx", "0")))
        if "PA" in got and not ("pa" in op and got["PA"].startswith("PA 0x%x ns=%d " % (
                num(op["pa"]) & ADDR56, int(op.get("ns", "1"))))):
            bad.append("record %d (op %d): %r, want pa %s" % (i, lat[1], got["PA"], op.get("pa")))
        if "TS" in got and got["TS"] != "TS %d" % lat[0]:
            bad.append("record %d (op %d): %r, want TS %d (the finish cycle)" % (i, lat[1], got["TS"], lat[0]))
        for k in got:
            counts[k] = counts.get(k, 0) + 1
        if len(bad) > 10:
            break
    if bad:
        sys.exit("records_perf: " + "\n  ".join(bad[:10]))
    if len(recs) < need:
        sys.exit("records_perf: only %d records (want at least %d)" % (len(recs), need))
    print("records_perf: %s: %d records, every packet line equal to perf's, every field as the op and log say; "
          "packets seen: %s" % (cfgname, len(recs), " ".join("%s=%d" % kv for kv in sorted(counts.items()))))


if __name__ == "__main__":
    main(sys.argv)
