#!/usr/bin/env python3
"""Build and run the cocotb row of make bench-peers: spu_top of one
configuration under Icarus Verilog, test_spu_replay.py driving it from a
vector file (spu-csim --vectors) with the Python filter reference.

  bench/cocotb/run.py --config C --vectors FILE --gen DIR --out DIR

Prints the test's result line (COCOTB config ...) and exits 0 when the test
passed, 1 when it failed (the reason is in OUT/log.txt, its last lines are
printed), 2 on bad input.
"""
import argparse
import glob
import os
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", required=True)
    ap.add_argument("--vectors", required=True)
    ap.add_argument("--gen", default=os.path.join(ROOT, "build", "gen"), help="generated includes (build/gen)")
    ap.add_argument("--out", required=True, help="build and result directory")
    ap.add_argument("--ref-dir", default=None,
                    help="take filter_ref.py from this directory (make test plants a wrong one there)")
    a = ap.parse_args()
    inc = os.path.join(a.gen, a.config)
    if not os.path.isfile(os.path.join(inc, "spu_config.vh")):
        ap.error(f"--gen {a.gen}: no {a.config}/spu_config.vh (make gen)")
    if a.ref_dir and not os.path.isfile(os.path.join(a.ref_dir, "filter_ref.py")):
        ap.error(f"--ref-dir {a.ref_dir}: no filter_ref.py there")
    if not os.path.isfile(a.vectors):
        ap.error(f"--vectors {a.vectors}: no such file")
    with open(a.vectors, errors="replace") as f:
        head = f.readline().split()
    if head[:5] != ["#", "spu-vectors", "2", "config", a.config]:
        print(f"{a.vectors}:1:1: want '# spu-vectors 2 config {a.config} ...' (spu-csim --vectors of --config "
              f"{a.config}), got {' '.join(head[:5])!r}", file=sys.stderr)
        return 2
    try:
        from cocotb_tools.runner import get_runner
    except ImportError:
        sys.exit("bench/cocotb/run.py: cocotb is not installed (make deps-peers installs it)")
    os.makedirs(a.out, exist_ok=True)
    result = os.path.join(os.path.abspath(a.out), "result.txt")
    if os.path.exists(result):
        os.remove(result)
    runner = get_runner("icarus")
    log = os.path.join(a.out, "log.txt")
    runner.build(sources=sorted(glob.glob(os.path.join(ROOT, "rtl", "*.v"))),
                 includes=[inc, os.path.join(ROOT, "rtl")], hdl_toplevel="spu_top",
                 build_dir=os.path.join(a.out, "sim_build"), timescale=("1ns", "1ps"), log_file=log)
    xml = runner.test(test_module="test_spu_replay", hdl_toplevel="spu_top", test_dir=HERE,
                      build_dir=os.path.join(a.out, "sim_build"), log_file=log,
                      results_xml=os.path.join(os.path.abspath(a.out), "results.xml"),
                      extra_env={"SPU_CONFIG": a.config, "SPU_VECTORS": os.path.abspath(a.vectors),
                                 "SPU_RESULT": result, "SPU_ROOT": ROOT,
                                 "SPU_REF_DIR": os.path.abspath(a.ref_dir) if a.ref_dir else "", "PYTHONPATH": HERE})
    failed = [tc for tc in ET.parse(xml).iter("testcase") if tc.find("failure") is not None or tc.find("error") is not None]
    if failed or not os.path.exists(result):
        with open(log, errors="replace") as f:
            tail = f.read().splitlines()[-25:]
        print("\n".join(tail))
        print(f"FAIL cocotb {a.config}: the test failed (log {log})")
        return 1
    with open(result) as f:
        print(f.read().strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
