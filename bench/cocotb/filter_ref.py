"""A Python reference of the record filter's decision, for the cocotb row of
make bench-peers (docs/performance.md): SPECollectRecord() of the Arm ARM
(D17.5, the M.a.a pseudocode's SPEFilterByEvents, SPEFilterByType,
SPEFilterByLatency and SPEFilterByDataSource), giving the rejecting reasons
spu_top shows on rec_why_o: bit 0 type, 1 events, 2 inverted events,
3 latency, 4 data source (bit 5, discard mode, is not the filter's and is
not modelled here).

Everything configuration-specific (register encodings, write masks, field
positions, features, the event mask, the CONSTRAINED UNPREDICTABLE knobs)
comes from configs/spu.toml through tools/gen_config.py, as the C model's
and the RTL's generated includes do.
"""
import os
import sys

# the repository (bench/cocotb/run.py says where: a planted copy of this file lives elsewhere)
ROOT = os.environ.get("SPU_ROOT") or os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import gen_config  # noqa: E402

# rec_why_o bits (docs/ports.md)
WHY_TYPE, WHY_EV, WHY_NEV, WHY_LAT, WHY_DS = 1, 2, 4, 8, 16
# fin_type_i bits {SIMD, FP, ST, LD, B}
T_B, T_LD = 1, 2
FILTER_REGS = ("PMSFCR_EL1", "PMSEVFR_EL1", "PMSNEVFR_EL1", "PMSLATFR_EL1", "PMSDSFR_EL1")


def constants(config, toml=os.path.join(ROOT, "configs", "spu.toml")):
    """The generated constants of one configuration, as a dict (SPU_ prefix dropped)."""
    g = gen_config.build(toml)
    for c in g["configs"]:
        if c["name"] == config:
            return {name: value for name, value, *_ in gen_config.constants(g, c)}
    raise SystemExit(f"filter_ref: no configuration '{config}' in {toml}")


class FilterRef:
    """The filter registers as the register port writes them, and the
    decision for one finished operation."""

    def __init__(self, config):
        self.k = constants(config)
        self.regs = dict.fromkeys(FILTER_REGS, 0)
        # encoding -> (name, write mask) of the filter registers this configuration has
        self.by_enc = {self.k[f"ENC_{r}"]: (r, self.k[f"WMASK_{r}"])
                       for r in FILTER_REGS if self.k[f"PRESENT_{r}"]}

    def field(self, reg, name):
        k = self.k
        return (self.regs[reg] & k[f"F_{reg}_{name}_MASK"]) >> k[f"F_{reg}_{name}_LSB"]

    def reset(self):
        self.regs = dict.fromkeys(FILTER_REGS, 0)

    def write(self, enc, value):
        """An MSR on the register port (takes effect from the next cycle:
        call it after the cycle's decisions)."""
        hit = self.by_enc.get(enc)
        if hit:
            self.regs[hit[0]] = value & hit[1]

    def why(self, ftype, events, ds_valid, ds, total_latency):
        k = self.k
        fcr = self.regs["PMSFCR_EL1"]
        on = lambda f: (fcr & k[f"F_PMSFCR_EL1_{f}_MASK"]) != 0  # noqa: E731
        why = 0
        # SPEFilterByEvents
        mask = k["EVENT_MASK"]
        e = events & mask
        evfr = self.regs["PMSEVFR_EL1"] & mask
        rej_ev = rej_nev = 0
        if on("FE"):
            rej_ev = ((~e & evfr) != 0) if evfr else k["KNOB_CU_FE"] != 0
        if k["FEAT_FNE"]:
            nevfr = self.regs["PMSNEVFR_EL1"] & mask
            if on("FnE"):
                rej_nev = ((e & nevfr) != 0) if nevfr else k["KNOB_CU_FNE"] != 0
            if on("FE") and on("FnE") and (evfr & nevfr):
                rej_ev = rej_nev = k["KNOB_CU_EVOVERLAP"] != 0
        why |= WHY_EV * rej_ev | WHY_NEV * rej_nev
        # SPEFilterByType: flags {SIMD,FP,ST,LD,B}; TYPE, with EFT also TYPEX and TYPEm
        ctrl = self.field("PMSFCR_EL1", "TYPE")
        tmask = 0
        if k["FEAT_EFT"]:
            ctrl |= self.field("PMSFCR_EL1", "TYPEX") << (k["F_PMSFCR_EL1_TYPE_MSB"] - k["F_PMSFCR_EL1_TYPE_LSB"] + 1)
            tmask = self.field("PMSFCR_EL1", "TYPEm")
        c_or, c_and = ctrl & ~tmask, ctrl & tmask
        is_op = (c_or == 0 or (ftype & c_or) != 0) and (ftype & tmask) == c_and
        if on("FT") and ((not is_op) if (k["FEAT_EFT"] or ctrl) else k["KNOB_CU_FT"] != 0):
            why |= WHY_TYPE
        # SPEFilterByLatency: total latency >= MINLAT (MINLAT_HI above it)
        minlat = self.field("PMSLATFR_EL1", "MINLAT") | self.field("PMSLATFR_EL1", "MINLAT_HI") << (
            k["F_PMSLATFR_EL1_MINLAT_HI_LSB"] - k["F_PMSLATFR_EL1_MINLAT_LSB"])
        if on("FL") and ((total_latency < minlat) if minlat else k["KNOB_CU_FL"] != 0):
            why |= WHY_LAT
        # SPEFilterByDataSource: loads (LD without B) with a data source
        if k["FEAT_FDS"] and ds_valid and (ftype & T_LD) and not (ftype & T_B) and on("FDS"):
            if not (self.regs["PMSDSFR_EL1"] >> (ds & 0x3F)) & 1:
                why |= WHY_DS
        return why
