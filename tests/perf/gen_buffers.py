#!/usr/bin/env python3
"""Hand-built SPE record buffers for the perf suite (tests/perf_test.sh), made
from the packet tables of docs/perf.md (Arm ARM chapter D18), independent of
the RTL and golden encoders, and what `perf script` must print for each record.

  gen_buffers.py OUTDIR      write NAME.hex (the buffer, one record a line),
                             NAME.fields (per record: tid cpu time addr weight
                             ip phys_addr, in perf script's column order),
                             NAME.events (per sample of the default --itrace:
                             tid event) and NAME.op (per record: the data_src
                             operation, LOAD, STORE or No) for every case,
                             and packets.hex: every packet form, not records.
The committed tests/perf/*.hex must equal this output (the suite checks it).
"""
import os
import random
import sys

MASK56 = (1 << 56) - 1
CPU = {"ldst": 0, "branch": 3, "other": 1, "counters": 0, "padding": 2, "random": 5}


def le(v, n):
    return v.to_bytes(n, "little")


# Packet encoders, one per row of the header table (docs/perf.md).
def context(v):                      # 0110 01ii, ii = 00: CONTEXTIDR_EL1
    return bytes([0x64]) + le(v, 4)


def counter(idx, v):                 # 1001 1iii: 0 total, 1 issue latency
    return bytes([0x98 | idx]) + le(v, 2)


def address(idx, payload):           # 1011 0iii
    return bytes([0xB0 | idx]) + le(payload, 8)


def pc_style(addr, el, ns):          # PC, branch target, previous branch target
    return (addr & MASK56) | (el << 61) | (ns << 63)


def pa_style(addr, ns):              # data physical address
    return (addr & MASK56) | (ns << 63)


def data_source(v):                  # 01ss 0011, ss = 01: 2 bytes
    return bytes([0x53]) + le(v, 2)


def op_type(cls, p):                 # 0100 10cc
    return bytes([0x48 | cls, p])


def events(v, n):                    # 01ss 0010, 1 << ss bytes
    ss = {1: 0, 2: 1, 4: 2, 8: 3}[n]
    return bytes([0x42 | ss << 4]) + le(v, n)


def timestamp(v):                    # 0111 0001
    return bytes([0x71]) + le(v, 8)


END = bytes([0x01])

# Events bits that make perf 6.1 synthesize a sample of its own, in the
# order perf script lists them (found by experiment, docs/perf.md).
EV_SAMPLES = [(3, "l1d-miss"), (2, "l1d-access"), (9, "llc-miss"), (8, "llc-access"),
              (5, "tlb-miss"), (4, "tlb-access"), (7, "branch-miss"), (10, "remote-access")]


def perf_ip(pc):
    """The ip perf script prints for a PC packet (docs/perf.md): addr[55:0],
    with the top byte 0xff for a Non-secure EL1 or EL2 address."""
    if pc is None:
        return 0
    el, ns = pc >> 61 & 3, pc >> 63
    return (pc & MASK56) | (0xFF << 56 if ns and el in (1, 2) else 0)


def perf_va(va):
    """The addr perf script prints for a data VA: the tag dropped, the top
    byte 0xff when bits [55:52] are all ones (a kernel address)."""
    if va is None:
        return 0
    a = va & MASK56
    return a | (0xFF << 56 if a >> 52 == 0xF else 0)


class Rec:
    """One record; None leaves a packet out. Packets in the order of the
    pseudocode's SPEConstructRecord (docs/perf.md)."""

    def __init__(self, ctx, op, ev=0, evsz=1, tot=None, iss=None, pc=None, tgt=None, va=None,
                 pa=None, pbt=None, ds=None, ts=None, pad=0):
        self.__dict__.update(locals())
        del self.__dict__["self"]

    def packets(self):
        out = []
        if self.ctx is not None:
            out.append(context(self.ctx))
        for idx, v in ((0, self.tot), (1, self.iss)):
            if v is not None:
                out.append(counter(idx, v))
        for idx, v in ((0, self.pc), (1, self.tgt), (2, self.va), (3, self.pa), (4, self.pbt)):
            if v is not None:
                out.append(address(idx, v))
        if self.ds is not None:
            out.append(data_source(self.ds))
        out.append(op_type(*self.op))
        out.append(events(self.ev, self.evsz))
        out.append(timestamp(self.ts) if self.ts is not None else END)
        return out

    def is_mem(self):
        return self.op[0] == 1

    def fields(self, cpu):
        """tid cpu time addr weight ip phys_addr as perf script prints them."""
        ts = self.ts or 0
        return "%d [%03d] %d.%06d: %x %d %x %x" % (
            self.tid(), cpu, ts // 10**9, ts % 10**9 // 1000,
            perf_va(self.va), self.tot or 0, perf_ip(self.pc), (self.pa or 0) & MASK56)

    def tid(self):
        """perf's tid is a signed 32-bit pid_t; -1 means none, and perf takes
        the tid of the AUXTRACE record (0 in spu-perf's stream) instead."""
        tid = self.ctx - (1 << 32) if self.ctx >> 31 else self.ctx
        return 0 if tid == -1 else tid

    def event_lines(self):
        names = [n for b, n in EV_SAMPLES if self.ev >> b & 1]
        if self.is_mem():
            names.append("memory")
        return ["%d %s:" % (self.tid(), n) for n in names]

    def op_name(self):
        if not self.is_mem():
            return "No"
        return "STORE" if self.op[1] & 1 else "LOAD"


def ldst():
    # General-purpose and SIMD&FP loads and stores, then the extended form
    # (bit 1) with atomic (bit 2), exclusive (bit 3), acquire/release (bit 4).
    pays = [0x00, 0x01, 0x04, 0x05] + [0x02 | x | st for x in (0x00, 0x04, 0x08, 0x10, 0x1C) for st in (0, 1)]
    recs = []
    for i, p in enumerate(pays):
        el, ns = i % 4, (i // 4) % 2
        recs.append(Rec(ctx=100 + i, op=(1, p), ev=[0x02, 0x06, 0x0E, 0x16, 0x3E][i % 5], evsz=1,
                        tot=20 + i, iss=3 + i, pc=pc_style(0x400000 + 4 * i if el == 0 else 0xFFFF800010000000 + 4 * i, el, ns),
                        va=(((0xA0 + i) << 56) | 0x7FFF0000 + 8 * i), pa=pa_style(0x80000000 + 64 * i, i % 2),
                        ds=[0x0000, 0x0001, 0x8000, 0xFFFF, 0x1234][i % 5], ts=1_000_000_000 + 1234567 * i))
    return recs


def branch():
    recs = []
    for i, p in enumerate([0x00, 0x01, 0x02, 0x03]):
        ev = 0x02 | (0x40 if p & 1 and i % 2 else 0) | (0x80 if i >= 2 else 0)
        recs.append(Rec(ctx=200 + i, op=(2, p), ev=ev, evsz=2, tot=5 + i, iss=1 + i,
                        pc=pc_style(0xFFFF800008000000 + 16 * i, 1, 1), tgt=pc_style(0xFFFF800008100000 + 32 * i, 1, 1),
                        pbt=pc_style(0x410000 + 8 * i, 0, 1), ts=2_500_000_000 + 999 * i))
    return recs


def other():
    # Other operations (conditional or not), Events of every payload size,
    # records ended by End instead of a timestamp.
    recs = []
    evs = [(0x02, 1), (0x0802, 2), (0x0000_0102, 4), (0x0004_0002, 4), (0x0000_0000_0000_0402, 8),
           (0xFFFF_0000_0000_0002, 8), (0x0000_0000, 1), (0x0606_0000_0000_0643, 8)]
    for i, (ev, n) in enumerate(evs):
        recs.append(Rec(ctx=300 + i, op=(0, i % 2), ev=ev, evsz=n, tot=2 + i, iss=1,
                        pc=pc_style(0x10000 + 4 * i, 2 if i == 3 else 0, 1), ts=None if i % 3 == 2 else 7_000_000_123 + i))
    return recs


def counters():
    # Latency counters at 0, 1 and saturated at 12 and 16 bits.
    recs = []
    for i, (tot, iss) in enumerate([(0, 0), (1, 1), (0xFFF, 0xFFF), (0xFFFF, 0xFFFF), (0xFFFF, 0x0FFF), (300, 299)]):
        recs.append(Rec(ctx=0xFFFFFFFF - i, op=(1, i % 2), tot=tot, iss=iss, pc=pc_style(0x500000 + 4 * i, 0, 1),
                        va=0x0000FFFFFFFFF000 + i, ts=3_000_000_000 + i))
    return recs


def padding():
    # Zero padding between records (PMBIDR_EL1.Align: records padded to
    # 64 bytes), also before the first record and after the last one.
    recs = []
    for i in range(5):
        r = Rec(ctx=400 + i, op=(1, 0), ev=0x06, tot=10 + i, iss=2, pc=pc_style(0x600000 + 4 * i, 0, 1),
                va=0x1000 * (i + 1), ts=4_000_000_000 + 1000 * i)
        n = sum(map(len, r.packets()))
        r.pad = (-n) % 64
        recs.append(r)
    return recs


def rnd():
    rng = random.Random(8)
    recs = []
    ts = 10_000_000_000
    for i in range(120):
        cls = rng.choice([0, 1, 1, 2])
        p = {0: rng.choice([0x00, 0x01]),
             1: rng.choice([0x00, 0x01, 0x04, 0x05, 0x02, 0x03, 0x06, 0x07, 0x0A, 0x0B, 0x12, 0x13, 0x1E, 0x1F]),
             2: rng.choice([0x00, 0x01, 0x02, 0x03])}[cls]
        evsz = rng.choice([1, 2, 4, 8])
        ev = rng.getrandbits(8 * evsz) & rng.getrandbits(64) | 0x02
        ts += rng.randrange(1, 10**6)
        el = rng.randrange(4)
        pc = rng.getrandbits(56) if rng.random() < 0.2 else (0xFFFF800000000000 if el else 0x400000) + 4 * rng.getrandbits(20)
        r = Rec(ctx=rng.getrandbits(32), op=(cls, p), ev=ev, evsz=evsz,
                tot=rng.choice([None, rng.getrandbits(16), rng.getrandbits(12)]),
                iss=rng.choice([None, rng.getrandbits(12)]), pc=pc_style(pc, el, rng.randrange(2)),
                tgt=pc_style(rng.getrandbits(48), el, 1) if cls == 2 and rng.random() < 0.8 else None,
                pbt=pc_style(rng.getrandbits(48), el, 1) if cls == 2 and rng.random() < 0.5 else None,
                va=rng.getrandbits(64) if cls == 1 else None,
                pa=pa_style(rng.getrandbits(48), rng.randrange(2)) if cls == 1 and rng.random() < 0.7 else None,
                ds=rng.getrandbits(16) if cls == 1 and rng.random() < 0.7 else None,
                ts=ts if rng.random() < 0.9 else None, pad=rng.choice([0, 0, 0, 1, 7, 16, 33]))
        recs.append(r)
    return recs


def every_packet():
    """Not records: every payload of every Operation Type class, every
    Events bit, the top bytes of every Address index, every Counter index,
    both header forms (one byte, extended), Data Source and Events of every
    size, every Context index, then zero padding and End: the whole text of
    the decoder against perf's, packet by packet."""
    out = []
    for cls in range(4):
        out += [bytes([0x48 | cls, p]) for p in range(256)]
    out += [events(1 << b, 8) for b in range(64)]
    # bits [63:60] (NS, EL, NSE/CH) in every combination, then each of [59:56]
    for top in sorted(set(range(0, 256, 16)) | {0x01, 0x02, 0x04, 0x08, 0x0F, 0xFF}):
        out += [address(idx, top << 56 | 0x123456789ABC) for idx in range(8)]
    out += [counter(idx, 0xFFFE) for idx in range(8)]
    for ii in range(4):                  # extended header 0010 00ii: index bits [4:3]
        out += [bytes([0x20 | ii, 0xB0 | idx]) + le(0x8000000000001234, 8) for idx in range(8)]
        out += [bytes([0x20 | ii, 0x98 | idx]) + le(77, 2) for idx in range(8)]
    for n in (1, 2, 4, 8):
        for v in (0, 1, 0x80, 0xFF, 2**63 - 1, 2**63, 2**64 - 1):
            v &= (1 << 8 * n) - 1
            out += [bytes([0x43 | {1: 0, 2: 1, 4: 2, 8: 3}[n] << 4]) + le(v, n), events(v, n)]
    out += [bytes([0x64 | ii]) + le(0xDEADBEEF, 4) for ii in range(4)]
    out += [timestamp(v) for v in (0, 1, 2**63, 2**64 - 1)]
    out += [bytes(37), END, bytes(5)]
    return out


CASES = {"ldst": ldst, "branch": branch, "other": other, "counters": counters, "padding": padding, "random": rnd}


def write(outdir, name, recs):
    cpu = CPU[name]
    with open(os.path.join(outdir, name + ".hex"), "w") as f:
        f.write("# tests/perf/gen_buffers.py %s: %d records, CPU %d; one record a line, "
                "packets separated by a space\n" % (name, len(recs), cpu))
        for r in recs:
            f.write(" ".join(p.hex() for p in r.packets()) + "\n")
            if r.pad:
                f.write("00" * r.pad + "\n")
    with open(os.path.join(outdir, name + ".fields"), "w") as f:
        f.write("".join(r.fields(cpu) + "\n" for r in recs))
    with open(os.path.join(outdir, name + ".events"), "w") as f:
        f.write("".join(line + "\n" for r in recs for line in r.event_lines()))
    with open(os.path.join(outdir, name + ".op"), "w") as f:
        f.write("".join(r.op_name() + "\n" for r in recs))
    with open(os.path.join(outdir, name + ".cpu"), "w") as f:
        f.write("%d\n" % cpu)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen_buffers.py OUTDIR")
    for name, make in CASES.items():
        write(sys.argv[1], name, make())
    with open(os.path.join(sys.argv[1], "packets.hex"), "w") as f:
        f.write("# tests/perf/gen_buffers.py packets: single packets, not records; one a line\n")
        f.write("".join(p.hex() + "\n" for p in every_packet()))


if __name__ == "__main__":
    main()
