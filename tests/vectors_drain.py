#!/usr/bin/env python3
"""The cycle of each hand vector's closing pmu line, worked out here from the
Profiling Buffer's rules (docs/buffer.md) instead of taken from the model.

  tests/vectors_drain.py tests/vectors/*.spt

The vectors' comments derive every line but the drain: after the stimulus
and the last finish, the run goes on until the write path is empty. Every
kept record of a vector is written (PMBPTR_EL1 = 0, a 1 MiB buffer, a
memory that is always ready). A record enters the write path in the cycle
after its finish at the earliest (it waits in its slot in its finish cycle),
not in the two cycles after one with a PMBLIMITR_EL1 write (they reserve
nothing), and not before the encoder is idle; the encoder then takes a
packet per cycle (sizes from the packet table of configs/spu.toml) into its
window from the record's offset in its 8 bytes, and every 8 bytes, or the
record's last, are a beat into the beat queue (BUF_BEATS); a beat goes on to
the port in a later cycle in which the port is empty or its beat is taken,
and is taken in the cycle after. The run ends in the cycle after the last
beat is taken. So the pmu line's cycle is max(last line + 1, last finish +
1, last beat + 1). A record of a vector is Counters, PC, Operation Type,
Events (1 + EV_BYTES bytes) and End, and a load's Data Source with
FEAT_SPE_LDS (the vectors set no address, no PMSCR_EL1.CX/PA/TS, and their
configurations have Align 0); this script checks those assumptions rather
than trusting them. Prints one PASS/FAIL line per vector.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))
import gen_config  # noqa: E402

CX_PA_TS = (1 << 3) | (1 << 4) | (1 << 5)


class Port:
    """The beat queue (BUF_BEATS beats) and the write port's register, with a
    memory that takes every beat shown: a beat the encoder writes in cycle c
    goes on to the port in the first cycle after c in which the port is
    empty or its beat is taken, and is taken in the cycle after that."""

    def __init__(self, depth):
        self.depth, self.queue, self.shown, self.cycle = depth, [], None, 0

    def step(self):
        """One cycle of the port. Returns (room at its start, the cycle a
        beat was taken or None)."""
        room, taken = len(self.queue) < self.depth, None
        if self.shown is not None:
            taken, self.shown = self.cycle, None
        if self.queue:
            self.queue.pop(0)
            self.shown = self.cycle
        return room, taken


def encode(port, enter, off, sizes, last):
    """The serial encoder (docs/buffer.md) writes a record that entered in
    cycle enter at offset off in its 8 bytes, a packet per cycle from the
    next (sizes in writing order; the vectors' records have no padding).
    Returns the first cycle it is idle in, and the cycle the last beat so far
    was taken."""
    while port.cycle < enter:                        # the port drains meanwhile
        port.cycle += 1
        _, t = port.step()
        last = t if t is not None else last
    o, left, pending = off, list(sizes), True
    while pending:
        port.cycle += 1
        room, t = port.step()
        last = t if t is not None else last
        if not pending or not room:
            continue
        if o < 8 and left:
            o += left.pop(0)
        if o >= 8 or (not left and o):
            port.queue.append(port.cycle)
            o = o - 8 if o >= 8 else 0
        if not left and not o:
            pending, free = False, port.cycle + 1
    return free, last


def check(spt, cfgs, packets):
    spl = spt[:-4] + ".spl"
    name = "vectors/drain/" + os.path.basename(spt[:-4])
    if not os.path.exists(spl):
        return None
    ops, cfg, cur, pmscr, limitr = [], None, 0, [], []
    hold = set()                                     # the two cycles after a PMBLIMITR_EL1 write
    for raw in open(spt):
        line = raw.split("#", 1)[0].strip()
        if line.startswith("cfg "):
            cfg = cfgs[line.split()[1]]
        elif line.startswith("@"):
            cur = int(line[1:])
        elif line.startswith("w PMSCR_EL1 "):
            pmscr.append((cur, int(line.split()[2], 0)))
        elif line.startswith("w PMBPTR_EL1"):
            return name, "writes PMBPTR_EL1: this script assumes PMBPTR_EL1 = 0"
        elif line.startswith("w PMBLIMITR_EL1 "):
            limitr.append((cur, int(line.split()[2], 0)))
            hold.update((cur + 1, cur + 2))
        elif re.match(r"op(\*\d+)?( |$)", line):
            head, *keys = line.split()
            n = int(head[3:]) if head.startswith("op*") else 1
            kv = dict(k.split("=", 1) for k in keys)
            if set(kv) - {"type", "ds", "ev", "iss", "fin"}:
                return name, "an op key this script does not size: %s" % sorted(set(kv) - {"type", "ds", "ev", "iss", "fin"})
            ops += [kv] * n
    if cfg is None:
        return name, "no cfg line"
    if cfg["pmbidr"] & 0xF:
        return name, "a configuration with Align > 0"
    lines, pmu = [], None
    for raw in open(spl):
        f = raw.split()
        if f[1] == "pmu":
            pmu = int(f[0])
        else:
            lines.append((int(f[0]), raw))
    kept = [(int(m.group(1)), int(m.group(2))) for _, ln in lines
            for m in [re.match(r"(\d+) record op=(\d+) .* keep=1 ", ln)] if m]
    sel = {int(m.group(2)): int(m.group(1)) for _, ln in lines
           for m in [re.match(r"(\d+) sample op=(\d+) ", ln)] if m}

    def at(writes, cycle):
        """The register's value in cycle (a write takes effect in the next one)."""
        v = 0
        for c, x in writes:
            if c < cycle:
                v = x
        return v

    for fin, op in kept:
        if (at(pmscr, sel.get(op, fin)) | at(pmscr, fin)) & CX_PA_TS:
            return name, "PMSCR_EL1.CX, PA or TS set for the record of op %d: this script does not size them" % op
        if at(limitr, fin) & ~0xFFF != 0x100000:
            return name, "the record of op %d is not in a 1 MiB buffer from 0" % op
    addr, free, port = 0, 0, Port(cfg["knobs"]["BUF_BEATS"])
    last = 0                                         # the cycle the last beat is taken
    for fin, op in kept:
        kv = ops[op]
        ld = "LD" in kv.get("type", "").split("+")
        has = {"COUNT_TOT", "COUNT_ISS", "ADDR_PC", "OPTYPE", "EVENTS", "END"}
        if "LDS" in cfg["feat"] and ld and "ds" in kv:
            has.add("DS")
        sizes = [1 + (cfg["ev_bytes"] if p["bytes"] == "EV_BYTES" else p["bytes"])
                 for p in packets if p["name"] in has]
        enter = max(fin + 1, free)
        while enter in hold:
            enter += 1
        free, last = encode(port, enter, addr % 8, sizes, last)
        addr += sum(sizes)
    while port.queue or port.shown is not None:      # the last beats leave
        port.cycle += 1
        _, t = port.step()
        last = t if t is not None else last
    done = last
    want = max([c + 1 for c, _ in lines] + [done + 1 if kept else 0])
    if pmu != want:
        return name, "pmu line at cycle %s, the drain gives %d (%d records, %d bytes, last beat %d)" % (
            pmu, want, len(kept), addr, done)
    return name, None


def main(argv):
    g = gen_config.build(os.path.join(os.path.dirname(__file__), "..", "configs", "spu.toml"))
    cfgs = {c["name"]: c for c in g["configs"]}
    bad = 0
    for spt in argv[1:]:
        r = check(spt, cfgs, g["packets"])
        if r is None:
            continue
        name, why = r
        print(("FAIL %s: %s" % (name, why)) if why else "PASS %s" % name)
        bad += why is not None
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
