"""The cocotb row of make bench-peers (docs/performance.md): spu_top under
Icarus Verilog, driven by cocotb from the same per-cycle input vectors the
other rows replay (spu-csim --vectors; the ports are the ones its header
names), with a Python reference of the filter decision (filter_ref.py)
checked on every record.

Environment: SPU_VECTORS (the vector file), SPU_CONFIG (its configuration),
SPU_RESULT (where the result line goes), SPU_REF_DIR (optional: where
filter_ref.py is taken from). The line is
  COCOTB config C: N cycles, S samples, C collisions, records kept K rejected J, R records checked
    (reasons type T ev E nev V lat L ds D), X M cycles/s
and the test fails on the first record whose rejecting reasons differ from
the reference's, naming the cycle and port.
"""
import os
import sys
import time

import cocotb
from cocotb.triggers import Timer

if os.environ.get("SPU_REF_DIR"):  # run.py --ref-dir: another filter_ref.py (make test plants a wrong one)
    sys.path.insert(0, os.environ["SPU_REF_DIR"])
from filter_ref import FilterRef  # noqa: E402

def read_vectors(path, config):
    """(the input ports the header names, one row of their values per cycle);
    the expected outputs after "|" are not used: the reference below is the check."""
    rows = []
    with open(path) as f:
        head = f.readline().split()
        if head[:5] != ["#", "spu-vectors", "2", "config", config] or "fields" not in head:
            raise ValueError(f"{path}:1:1: want '# spu-vectors 2 config {config} ... fields ...', got {' '.join(head[:5])!r}")
        inputs = head[head.index("fields") + 1].split(",")
        for ln, line in enumerate(f, 2):
            w = line.split()
            if len(w) <= len(inputs) or w[len(inputs)] != "|":
                raise ValueError(f"{path}:{ln}:1: want {len(inputs)} input fields and '|'")
            row = []
            for k, x in enumerate(w[:len(inputs)]):
                try:
                    row.append(int(x, 16))
                except ValueError:
                    col = len(" ".join(w[:k])) + 1 + (k > 0) if line.startswith(w[0]) else 1
                    raise ValueError(f"{path}:{ln}:{col}: '{x}' is not hexadecimal ({inputs[k]})") from None
            rows.append(row)
    if not rows:
        raise ValueError(f"{path}: no cycles")
    return inputs, rows


def field(v, p, w):
    return (v >> (w * p)) & ((1 << w) - 1)


@cocotb.test()
async def replay(dut):
    config = os.environ["SPU_CONFIG"]
    inputs, rows = read_vectors(os.environ["SPU_VECTORS"], config)
    I = {n: i for i, n in enumerate(inputs)}
    ref = FilterRef(config)
    slots = ref.k["SLOTS"]
    ports = [getattr(dut, n) for n in inputs]
    smp, col, rv, keep = dut.smp_valid_o, dut.col_valid_o, dut.rec_valid_o, dut.rec_keep_o
    why_o, lat_o = dut.rec_why_o, dut.rec_tot_lat_o
    clk = dut.clk_i

    async def cycle():
        # The inputs written before settle for half a period, then the
        # rising edge; the outputs are registered, so they are the results
        # of these inputs from the edge on, and the falling edge changes
        # nothing. Writes and an edge in one time step would race.
        await Timer(5, unit="ns")
        clk.value = 1
        await Timer(5, unit="ns")
        clk.value = 0

    # Reset as the Verilator harness does it: 1, then 0 for two clocks, then 1.
    for p in ports:
        p.value = 0
    clk.value = 0
    dut.rst_ni.value = 1
    await Timer(5, unit="ns")
    dut.rst_ni.value = 0
    await cycle()
    await cycle()
    dut.rst_ni.value = 1

    n = dict(samples=0, collisions=0, kept=0, rejected=0, checked=0)
    reasons = dict.fromkeys(("type", "ev", "nev", "lat", "ds"), 0)  # records the reference rejects for each
    prev = [None] * len(inputs)
    t0 = time.perf_counter()
    for t, row in enumerate(rows):
        for i, v in enumerate(row):  # only what changed: a port keeps its value
            if v != prev[i]:
                ports[i].value = v
        prev = row
        # the decision of each finish of this cycle, from the registers at its start
        pending = {}
        fv = row[I["fin_valid_i"]]
        for p in range(slots):
            if (fv >> p) & 1:
                pending[p] = (field(row[I["fin_type_i"]], p, 5), field(row[I["fin_events_i"]], p, 64),
                              (row[I["fin_ds_valid_i"]] >> p) & 1, field(row[I["fin_ds_i"]], p, 16))
        await cycle()
        # the outputs of this cycle's inputs
        s, c, r, k = int(smp.value), int(col.value), int(rv.value), int(keep.value)
        n["samples"] += bin(s).count("1")
        n["collisions"] += bin(c).count("1")
        n["kept"] += bin(r & k).count("1")
        n["rejected"] += bin(r & ~k).count("1")
        if r:
            whys, lats = int(why_o.value), int(lat_o.value)
            for p in range(slots):
                if not (r >> p) & 1:
                    continue
                assert p in pending, f"cycle {t}: a record on port {p} without a finish there"
                want = ref.why(*pending[p], field(lats, p, 16))
                got = field(whys, p, 6) & 0x1F
                assert got == want, (f"cycle {t} port {p}: rec_why_o filter bits {got:#04x}, the Python "
                                     f"reference says {want:#04x} (registers {ref.regs})")
                n["checked"] += 1
                for i, r_name in enumerate(reasons):
                    reasons[r_name] += (want >> i) & 1
        # this cycle's register write, seen from the next cycle on
        if not row[I["rst_ni"]]:
            ref.reset()
        elif row[I["reg_valid_i"]] and row[I["reg_write_i"]]:
            ref.write(row[I["reg_enc_i"]], row[I["reg_wdata_i"]])
    dt = time.perf_counter() - t0
    line = (f"COCOTB config {config}: {len(rows)} cycles, {n['samples']} samples, {n['collisions']} collisions, "
            f"records kept {n['kept']} rejected {n['rejected']}, {n['checked']} records checked (reasons "
            + " ".join(f"{k} {v}" for k, v in reasons.items()) + "), "
            f"{len(rows) / dt / 1e6:.4f} M cycles/s")
    dut._log.info(line)
    with open(os.environ["SPU_RESULT"], "w") as f:
        f.write(line + "\n")
