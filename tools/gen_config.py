#!/usr/bin/env python3
"""Expand configs/spu.toml (the one source of the register map, the PMU
events, the limits, the named configurations and the knobs) into the C header/table and one Verilog include
per configuration.

usage: gen_config.py SRC.toml OUTDIR | gen_config.py --list SRC.toml

Writes OUTDIR/spu_config.h, OUTDIR/spu_config.c, OUTDIR/dump_cfg.c, the port
contract (gen_ports.py: OUTDIR/spu_ports.h, OUTDIR/ports.md, the table of
docs/ports.md) and, per configuration C, OUTDIR/C/spu_config.vh,
OUTDIR/C/dump_cfg.v and the port includes OUTDIR/C/spu_top_ports.vh,
spu_apb_ports.vh and spu_top_conn.vh (the same in every configuration). The dump files
print every generated constant, one `NAME VALUE` per line, from the C and the
Verilog side; `make check-gen` diffs the two. `--list` prints the names of the
configurations, one per line, in the toml's order (the Makefile, the test,
regression and bench scripts take the list from it).

Errors name the file and the table/key that is wrong and exit with status 1.
"""
import os
import sys
import tomllib

import gen_ports

FEATURES = ["V1P1", "V1P2", "V1P4", "FNE", "EFT", "FDS", "ERND", "SVE", "LDS", "PBT"]
# Pseudo-features used only as field gates.
GATES = FEATURES + ["COUNT16", "EVMASK", "DSMASK", ""]
CONFIG_KEYS = ["doc", "base", "LANES", "SLOTS", "COUNT_SIZE", "features",
               "EV_IMPDEF_MASK", "DS_MASK", "PMSIDR_INTERVAL", "PMSIDR_MAXSIZE",
               "PMSIDR_ARCHINST", "PMBIDR_ALIGN", "PMBIDR_EA", "PMBIDR_F"]
LIMIT_KEYS = ["MAX_LANES", "MAX_SLOTS", "LFSR_SEED_MIN", "LFSR_SEED_MAX", "MAX_RECORD", "MAX_BUF_BEATS"]
M64 = (1 << 64) - 1
# PMSIDR_EL1 fields (Arm ARM D24.7, PMSIDR_EL1): (name, msb, lsb). The one
# place their positions are written: the value below is composed from them,
# and the C header gets them as SPU_F_PMSIDR_EL1_<name>_* so software-side
# code (stim/perf_event.c) reads the ID register the way a driver does. An ID
# register has no write mask, so they are not in the toml's fields (which
# define what is writable) and not in the Verilog include.
PMSIDR_FIELDS = [("FE", 0, 0), ("FT", 1, 1), ("FL", 2, 2), ("ArchInst", 3, 3), ("LDS", 4, 4),
                 ("ERnd", 5, 5), ("FnE", 6, 6), ("FDS", 7, 7), ("Interval", 11, 8), ("MaxSize", 15, 12),
                 ("CountSize", 19, 16), ("PBT", 24, 24), ("EFT", 26, 26)]
# PMBIDR_EL1 likewise: Align, P (the buffer is owned by a higher EL; 0 here),
# F (faults), EA (external aborts).
PMBIDR_FIELDS = [("Align", 3, 0), ("P", 4, 4), ("F", 5, 5), ("EA", 11, 8)]
ID_FIELDS = [("PMSIDR_EL1", PMSIDR_FIELDS), ("PMBIDR_EL1", PMBIDR_FIELDS)]
# The packets whose contents the builders (golden/spu_record.c, rtl/spu_record.v) know
# ([packets] gives their order, headers and sizes).
PACKET_NAMES = ["CONTEXT", "COUNT_TOT", "COUNT_ISS", "ADDR_PC", "ADDR_TGT", "ADDR_VA", "ADDR_PA",
                "ADDR_PBT", "DS", "OPTYPE", "EVENTS", "TS", "END"]


# The Verilog port includes gen_ports.emit_vh() writes, in its order.
VPORT_FILES = ("spu_top_ports.vh", "spu_apb_ports.vh", "spu_top_conn.vh", "spu_vec_ports.vh",
               "spu_dpi_step.svh")


class GenError(Exception):
    pass


def bits(msb, lsb):
    return ((1 << (msb - lsb + 1)) - 1) << lsb


def event_mask(feat, impdef):
    """SPEFilterByEvents() mask, M.a.a (FEAT_SPE_SME is not implemented)."""
    m = impdef & bits(63, 48)
    if "V1P4" in feat:
        m |= bits(23, 19)
    else:
        m |= impdef & bits(31, 24)
    if "V1P1" in feat and "SVE" in feat:
        m |= bits(18, 17)
    m |= impdef & bits(15, 12)
    if "V1P1" in feat:
        m |= 1 << 11
    m |= bits(10, 8) if "V1P4" in feat else impdef & bits(10, 8)
    m |= 1 << 7
    if "FNE" in feat:
        m |= 1 << 6
    m |= (1 << 5) | (1 << 3) | (1 << 1)
    m |= ((1 << 4) | (1 << 2)) if "V1P4" in feat else impdef & ((1 << 4) | (1 << 2))
    return m


def record_layout(packets, feat, evm, align):
    """What a sample record of this configuration can carry (Arm ARM D18,
    the packets of [packets], in SPEConstructRecord()'s order): the Events
    packet's bits (every filter-visible bit plus E[7:0], which are always
    defined; RAZ bits and unimplemented optional events are not output), its
    payload bytes (sized to the highest of those bits), and the largest
    record: every packet the configuration has, the larger of a packet and
    the one written instead of it, padded to 1 << PMBIDR_EL1.Align bytes."""
    rec_ev = evm | 0xFF
    top = rec_ev.bit_length() - 1
    ev_bytes = 1 if top < 8 else 2 if top < 16 else 4 if top < 32 else 8
    size = {}
    for p in packets:
        if p["feature"] in ("", *feat):
            size[p["name"]] = 1 + (ev_bytes if p["bytes"] == "EV_BYTES" else p["bytes"])
    for p in packets:
        if p["instead"] and p["name"] in size:
            size[p["instead"]] = max(size[p["instead"]], size.pop(p["name"]))
    a = 1 << align
    return rec_ev, ev_bytes, (sum(size.values()) + a - 1) // a * a


def parse_packets(src, doc):
    """[packets]: the record's packets in writing order."""
    packets = []
    for name, p in doc.get("packets", {}).items():
        where = f"{src}: [packets] {name}"
        if not isinstance(p, dict) or set(p) - {"hdr", "bytes", "feature", "instead"}:
            raise GenError(f"{where}: keys are hdr, bytes, feature, instead")
        hdr, nb = p.get("hdr"), p.get("bytes")
        if not isinstance(hdr, int) or not 0 <= hdr <= 0xFF:
            raise GenError(f"{where}: hdr must be a header byte")
        if nb != "EV_BYTES" and not (isinstance(nb, int) and 0 <= nb <= 8):
            raise GenError(f"{where}: bytes must be 0..8 or \"EV_BYTES\"")
        if p.get("feature", "") not in ("", *FEATURES):
            raise GenError(f"{where}: feature '{p['feature']}' is not a feature")
        packets.append(dict(name=name, hdr=hdr, bytes=nb, feature=p.get("feature", ""),
                            instead=p.get("instead", "")))
    names = [p["name"] for p in packets]
    for p in packets:
        if p["instead"] and p["instead"] not in names:
            raise GenError(f"{src}: [packets] {p['name']}: instead names no packet")
    for need in PACKET_NAMES:
        if need not in names:
            raise GenError(f"{src}: [packets] has no {need} (the builders write it)")
    for n in names:
        if n not in PACKET_NAMES:
            raise GenError(f"{src}: [packets] {n}: neither builder knows this packet ({', '.join(PACKET_NAMES)})")
    return packets


def resolve_configs(src, doc):
    raw = doc.get("configs", {})
    knobs = doc.get("knobs", {})
    out = {}

    def get(name, seen=()):
        if name in out:
            return out[name]
        if name not in raw:
            raise GenError(f"{src}: [configs.{seen[-1]}] base = \"{name}\": no such configuration")
        if name in seen:
            raise GenError(f"{src}: [configs.{name}]: base chain loops")
        c = dict(raw[name])
        for k in c:
            if k not in CONFIG_KEYS and k not in knobs:
                raise GenError(f"{src}: [configs.{name}] unknown key '{k}'")
        if "base" in c:
            merged = dict(get(c["base"], seen + (name,)))
            merged.update({k: v for k, v in c.items() if k != "base"})
            c = merged
        out[name] = c
        return c

    for n in raw:
        # a build of spu-tb is named by its configuration, and apb-<cfg> and
        # wave-<cfg> name the APB wrapper's and the traced model's (Makefile)
        if n.startswith(("apb-", "wave-")):
            raise GenError(f"{src}: [configs.{n}]: a configuration name may not start with "
                           f"'{n.split('-')[0]}-' (the Makefile names other builds of a configuration so)")
        get(n)
    return out, knobs


def build(src):
    with open(src, "rb") as f:
        try:
            doc = tomllib.load(f)
        except tomllib.TOMLDecodeError as e:
            raise GenError(f"{src}: {e}")
    regs = doc.get("registers", {})
    cfgs, knobs = resolve_configs(src, doc)
    reglist = []
    for name, r in regs.items():
        enc = r.get("enc")
        if not (isinstance(enc, list) and len(enc) == 5):
            raise GenError(f"{src}: [registers.{name}] enc must be [op0, op1, CRn, CRm, op2]")
        op0, op1, crn, crm, op2 = enc
        if not (0 <= op0 < 4 and 0 <= op1 < 8 and 0 <= crn < 16 and 0 <= crm < 16 and 0 <= op2 < 8):
            raise GenError(f"{src}: [registers.{name}] enc {enc} out of range")
        packed = op0 << 14 | op1 << 11 | crn << 7 | crm << 3 | op2
        # rtl/spu_apb.v maps S3_0_C9_C<9|10>_<op2> to APB addresses; a
        # register outside that form would be out of the APB wrapper's reach.
        if (op0, op1, crn) != (3, 0, 9) or crm not in (9, 10):
            raise GenError(f"{src}: [registers.{name}] enc {enc}: spu_apb's memory map holds only "
                           f"S3_0_C9_C9_x and S3_0_C9_C10_x (rtl/spu_apb.v, docs/integration.md)")
        if r.get("access") not in ("rw", "ro"):
            raise GenError(f"{src}: [registers.{name}] access must be rw or ro")
        if r.get("present", "") not in GATES:
            raise GenError(f"{src}: [registers.{name}] present '{r.get('present')}' is not a feature")
        for fl in r.get("fields", []):
            if len(fl) != 4 or not (0 <= fl[2] <= fl[1] <= 63) or fl[3] not in GATES:
                raise GenError(f"{src}: [registers.{name}] bad field {fl}")
        reglist.append(dict(name=name, packed=packed, ro=r["access"] == "ro",
                            present=r.get("present", ""), fields=r.get("fields", [])))
    encs = [r["packed"] for r in reglist]
    if len(set(encs)) != len(encs):
        raise GenError(f"{src}: two registers share an encoding")

    limits = doc.get("limits", {})
    for k in LIMIT_KEYS:
        if not isinstance(limits.get(k), int) or limits[k] < 1:
            raise GenError(f"{src}: [limits] {k} must be a positive integer")
    for k in limits:
        if k not in LIMIT_KEYS:
            raise GenError(f"{src}: [limits] unknown key '{k}'")
    if limits["LFSR_SEED_MIN"] > limits["LFSR_SEED_MAX"]:
        raise GenError(f"{src}: [limits] LFSR_SEED_MIN > LFSR_SEED_MAX")
    # What the fixed-width ports and C types can carry (docs/ports.md): slot
    # numbers are 2 bits, lane and port masks 8 bits, the LFSR 24 bits. A
    # larger limit would be accepted here and silently truncated downstream.
    for k, most, why in (("MAX_SLOTS", 4, "slot numbers are 2 bits wide on every port"),
                         ("MAX_LANES", 8, "lane masks are 8 bits (spu_in_t.pop_valid, spu_out_t.smp_valid)"),
                         ("LFSR_SEED_MAX", 0xFFFFFF, "the LFSR of SPEGetRandomInterval() is 24 bits"),
                         ("MAX_RECORD", 255, "record lengths are 8 bits (spu_out_t.rec_len, rec_len_o)"),
                         ("MAX_BUF_BEATS", 255, "the beat queue's count is 8 bits (spu_model_t)")):
        if limits[k] > most:
            raise GenError(f"{src}: [limits] {k} = {limits[k]} is more than {most}: {why}")

    packets = parse_packets(src, doc)
    pmu = []
    for name, e in doc.get("pmu", {}).items():
        num, feat = e.get("number"), e.get("feature")
        if not isinstance(num, int) or not 0 <= num <= 0xFFFF:
            raise GenError(f"{src}: [pmu.{name}] number must be a 16-bit event number")
        if feat != "" and feat not in FEATURES:
            raise GenError(f"{src}: [pmu.{name}] feature '{feat}' is not a feature")
        pmu.append((name, num, feat))
    if not pmu:
        raise GenError(f"{src}: no [pmu.*] events")

    configs = []
    for cname, c in cfgs.items():
        for k in ("LANES", "SLOTS", "COUNT_SIZE", "features", "EV_IMPDEF_MASK", "DS_MASK"):
            if k not in c:
                raise GenError(f"{src}: [configs.{cname}] missing {k}")
        feat = set(c["features"])
        for f in feat:
            if f not in FEATURES:
                raise GenError(f"{src}: [configs.{cname}] unknown feature '{f}'")
        # Dependencies the register text states: each SPE version includes the
        # one before, and PMSIDR_EL1.FDS is RES0 without FEAT_SPEv1p4.
        for f, need in (("V1P4", "V1P2"), ("V1P2", "V1P1"), ("FDS", "V1P4"), ("LDS", "V1P1"), ("SVE", "V1P1")):
            if f in feat and need not in feat:
                raise GenError(f"{src}: [configs.{cname}] feature {f} needs {need}")
        if not 1 <= c["LANES"] <= limits["MAX_LANES"]:
            raise GenError(f"{src}: [configs.{cname}] LANES={c['LANES']} (1..{limits['MAX_LANES']})")
        if not 1 <= c["SLOTS"] <= limits["MAX_SLOTS"]:
            raise GenError(f"{src}: [configs.{cname}] SLOTS={c['SLOTS']} (1..{limits['MAX_SLOTS']})")
        if c["COUNT_SIZE"] not in (12, 16):
            raise GenError(f"{src}: [configs.{cname}] COUNT_SIZE={c['COUNT_SIZE']} (12 or 16)")
        kv = {k: c.get(k, d) for k, d in knobs.items()}
        if not limits["LFSR_SEED_MIN"] <= kv["LFSR_SEED"] <= limits["LFSR_SEED_MAX"]:
            raise GenError(f"{src}: [configs.{cname}] LFSR_SEED=0x{kv['LFSR_SEED']:X} "
                           f"(0x{limits['LFSR_SEED_MIN']:X}..0x{limits['LFSR_SEED_MAX']:X})")
        if not 1 <= kv["BUF_BEATS"] <= limits["MAX_BUF_BEATS"]:
            raise GenError(f"{src}: [configs.{cname}] BUF_BEATS={kv['BUF_BEATS']} (1..{limits['MAX_BUF_BEATS']})")
        for k, v in kv.items():
            if k not in ("LFSR_SEED", "BUF_BEATS") and v not in (0, 1):
                raise GenError(f"{src}: [configs.{cname}] knob {k}={v} (0 or 1)")
        evm = event_mask(feat, c["EV_IMPDEF_MASK"])
        dsm = c["DS_MASK"] & M64 if "FDS" in feat else 0
        gate_on = {f: f in feat for f in FEATURES}
        gate_on.update({"": True, "COUNT16": c["COUNT_SIZE"] == 16, "EVMASK": True, "DSMASK": True})
        wm, present = {}, {}
        for r in reglist:
            present[r["name"]] = gate_on[r["present"]]
            m = 0
            if not r["ro"] and present[r["name"]]:
                for fname, msb, lsb, gate in r["fields"]:
                    if gate_on[gate]:
                        fm = bits(msb, lsb)
                        if gate == "EVMASK":
                            fm &= evm
                        if gate == "DSMASK":
                            fm &= dsm
                        m |= fm
            wm[r["name"]] = m
        if not 0 <= c["PMBIDR_ALIGN"] <= 11:
            raise GenError(f"{src}: [configs.{cname}] PMBIDR_ALIGN={c['PMBIDR_ALIGN']} (0..11)")
        rec_ev, ev_bytes, rec_max = record_layout(packets, feat, evm, c["PMBIDR_ALIGN"])
        if not 6 <= c["PMSIDR_MAXSIZE"] <= 11:
            raise GenError(f"{src}: [configs.{cname}] PMSIDR_MAXSIZE={c['PMSIDR_MAXSIZE']} "
                           "(6..11: 0b0100 and 0b0101 are not permitted for an implementation)")
        if rec_max > 1 << c["PMSIDR_MAXSIZE"]:
            raise GenError(f"{src}: [configs.{cname}] a record can take {rec_max} bytes, more than "
                           f"PMSIDR_MAXSIZE={c['PMSIDR_MAXSIZE']} ({1 << c['PMSIDR_MAXSIZE']} bytes) allows")
        if rec_max > limits["MAX_RECORD"]:
            raise GenError(f"{src}: [configs.{cname}] a record can take {rec_max} bytes, more than "
                           f"[limits] MAX_RECORD = {limits['MAX_RECORD']}")
        idv = {"FE": 1, "FT": 1, "FL": 1, "ArchInst": c["PMSIDR_ARCHINST"], "LDS": int("LDS" in feat),
               "ERnd": int("ERND" in feat), "PBT": int("PBT" in feat),
               "FnE": int("FNE" in feat), "FDS": int("FDS" in feat), "Interval": c["PMSIDR_INTERVAL"],
               "MaxSize": c["PMSIDR_MAXSIZE"], "CountSize": 2 if c["COUNT_SIZE"] == 12 else 3,
               "EFT": int("EFT" in feat)}
        pmsidr = 0
        for fname, msb, lsb in PMSIDR_FIELDS:
            if idv[fname] >> (msb - lsb + 1):
                raise GenError(f"{src}: [configs.{cname}] PMSIDR_EL1.{fname}={idv[fname]} does not fit bits {msb}:{lsb}")
            pmsidr |= idv[fname] << lsb
        bv = {"Align": c["PMBIDR_ALIGN"], "P": 0, "F": c["PMBIDR_F"], "EA": c["PMBIDR_EA"]}
        pmbidr = 0
        for fname, msb, lsb in PMBIDR_FIELDS:
            if bv[fname] >> (msb - lsb + 1):
                raise GenError(f"{src}: [configs.{cname}] PMBIDR_EL1.{fname}={bv[fname]} does not fit bits {msb}:{lsb}")
            pmbidr |= bv[fname] << lsb
        configs.append(dict(name=cname, doc=c.get("doc", ""), lanes=c["LANES"],
                            slots=c["SLOTS"], count_size=c["COUNT_SIZE"],
                            feat=feat, impdef=c["EV_IMPDEF_MASK"], evm=evm, dsm=dsm,
                            wm=wm, present=present, pmsidr=pmsidr, pmbidr=pmbidr,
                            rec_ev=rec_ev, ev_bytes=ev_bytes, rec_max=rec_max,
                            knobs=kv, pmu_impl=[f == "" or f in feat for _, _, f in pmu]))
    try:
        ports = gen_ports.parse(doc, src, pmu_width(limits))
    except gen_ports.PortError as e:
        raise GenError(str(e))
    return dict(regs=reglist, knobs=knobs, configs=configs, limits=limits, pmu=pmu, ports=ports,
                packets=packets)


# A packet's bytes as the generated tables give them: the payload size, or
# PKT_EV_BYTES for the configuration's Events payload.
PKT_EV_BYTES = 15


def pkt_bytes(p):
    return PKT_EV_BYTES if p["bytes"] == "EV_BYTES" else p["bytes"]


def cid(name):
    return name.upper().replace("-", "_")


def pmu_width(limits):
    """Bits of one per-cycle PMU count: 0..max(MAX_LANES, MAX_SLOTS)."""
    return max(limits["MAX_LANES"], limits["MAX_SLOTS"]).bit_length()


def constants(g, cfg):
    """Every generated constant of one configuration, as (NAME, value, Verilog
    width or None for a plain decimal define, C expression printing it in
    dump_cfg.c, Verilog expression printing it in dump_cfg.v or None for the
    define itself). Entries named PACKED_* define nothing: they read a slice of
    a packed Verilog vector, so check-gen proves the packing order."""
    reglist, knobs, limits, pmu = g["regs"], g["knobs"], g["limits"], g["pmu"]
    out = [("LANES", cfg["lanes"], 32, "c->lanes", None),
           ("SLOTS", cfg["slots"], 32, "c->slots", None),
           ("COUNT_SIZE", cfg["count_size"], 32, "c->count_size", None)]
    out += [(f"FEAT_{f}", int(f in cfg["feat"]), 32, f"!!(c->features & SPU_FEAT_{f})", None)
            for f in FEATURES]
    out += [("EVENT_MASK", cfg["evm"], 64, "c->event_mask", None),
            ("DS_MASK", cfg["dsm"], 64, "c->ds_mask", None),
            ("PMSIDR", cfg["pmsidr"], 64, "c->pmsidr", None),
            ("PMBIDR", cfg["pmbidr"], 64, "c->pmbidr", None),
            ("REC_EV_MASK", cfg["rec_ev"], 64, "c->rec_ev_mask", None),
            ("EV_BYTES", cfg["ev_bytes"], 32, "c->ev_bytes", None),
            ("REC_MAX", cfg["rec_max"], 32, "c->rec_max", None)]
    out += [(f"KNOB_{k}", v, 32, f"c->knob[SPU_KNOB_{k}]", None) for k, v in cfg["knobs"].items()]
    out += [(k, v, None, f"SPU_{k}", None)
            for k, v in limits.items()]
    out.append(("NREGS", len(reglist), None, "SPU_NREGS", None))
    for i, r in enumerate(reglist):
        n = r["name"]
        out.append((f"REG_{n}", i, None, f"SPU_REG_{n}", None))
        out.append((f"ENC_{n}", r["packed"], 16, f"enc_of[SPU_REG_{n}]", None))
        out.append((f"WMASK_{n}", cfg["wm"][n], 64, f"c->wmask[SPU_REG_{n}]", None))
        out.append((f"PRESENT_{n}", int(cfg["present"][n]), 32, f"c->present[SPU_REG_{n}]", None))
        out.append((f"PACKED_ENC_{n}", r["packed"], None, f"enc_of[SPU_REG_{n}]",
                    f"ENC_ALL[16*`SPU_REG_{n} +: 16]"))
        out.append((f"PACKED_WMASK_{n}", cfg["wm"][n], None, f"c->wmask[SPU_REG_{n}]",
                    f"WMASK_ALL[64*`SPU_REG_{n} +: 64]"))
        out.append((f"PACKED_PRESENT_{n}", int(cfg["present"][n]), None, f"c->present[SPU_REG_{n}]",
                    f"PRESENT_ALL[`SPU_REG_{n}]"))
        out.append((f"PACKED_RO_{n}", int(r["ro"]), None, f"ro_of[SPU_REG_{n}]",
                    f"RO_ALL[`SPU_REG_{n}]"))
        for fname, msb, lsb, _ in r["fields"]:
            f = f"F_{n}_{fname}"
            out.append((f"{f}_LSB", lsb, None, f"SPU_{f}_LSB", None))
            out.append((f"{f}_MSB", msb, None, f"SPU_{f}_MSB", None))
            out.append((f"{f}_MASK", bits(msb, lsb), 64, f"SPU_{f}_MASK", None))
    out.append(("NPKT", len(g["packets"]), None, "SPU_NPKT", None))
    out.append(("PKT_EV_BYTES", PKT_EV_BYTES, None, "SPU_PKT_EV_BYTES", None))
    for i, p in enumerate(g["packets"]):
        n = p["name"]
        out.append((f"PKT_{n}", i, None, f"SPU_PKT_{n}", None))
        out.append((f"PACKED_PKT_HDR_{n}", p["hdr"], None, f"pkt_hdr[SPU_PKT_{n}]",
                    f"PKT_HDR_ALL[8*`SPU_PKT_{n} +: 8]"))
        out.append((f"PACKED_PKT_BYTES_{n}", pkt_bytes(p), None, f"pkt_bytes[SPU_PKT_{n}]",
                    f"PKT_BYTES_ALL[4*`SPU_PKT_{n} +: 4]"))
    out.append(("NPMU", len(pmu), None, "SPU_NPMU", None))
    out.append(("PMU_W", pmu_width(limits), None, "SPU_PMU_W", None))
    for i, (n, _, _) in enumerate(pmu):
        out.append((f"PMU_{n}", i, None, f"SPU_PMU_{n}", None))
        out.append((f"PACKED_PMU_IMPL_{n}", int(cfg["pmu_impl"][i]), None,
                    f"(gate_of[SPU_PMU_{n}] == 0 || (c->features & gate_of[SPU_PMU_{n}]) != 0)",
                    f"PMU_IMPL[`SPU_PMU_{n}]"))
    return out


def emit_c(g, src):
    reglist, knobs, configs, limits, pmu = g["regs"], g["knobs"], g["configs"], g["limits"], g["pmu"]
    h = [f"/* Generated by tools/gen_config.py from {src}. Do not edit. */",
         "#ifndef SPU_CONFIG_H", "#define SPU_CONFIG_H", "#include <stdint.h>", ""]
    h.append("/* Register map: X(name, packed encoding, read-only) */")
    h.append("#define SPU_REG_LIST(X) \\")
    for r in reglist:
        h.append(f"    X({r['name']}, 0x{r['packed']:04X}u, {int(r['ro'])}) \\")
    h.append("")
    h.append("enum spu_reg {")
    for r in reglist:
        h.append(f"    SPU_REG_{r['name']},")
    h.append("    SPU_NREGS\n};\n")
    h.append("/* Fields: SPU_F_<REG>_<FIELD>_{LSB,MSB,MASK} (mask before feature gating) */")
    for r in reglist:
        for fname, msb, lsb, _ in r["fields"]:
            p = f"SPU_F_{r['name']}_{fname}"
            h.append(f"#define {p}_LSB {lsb}")
            h.append(f"#define {p}_MSB {msb}")
            h.append(f"#define {p}_MASK 0x{bits(msb, lsb):016X}ull")
    h.append("/* The same fields as a list: X(reg, field, msb, lsb); a field is in a")
    h.append(" * configuration when its mask meets the register's write mask (wmask) */")
    h.append("#define SPU_FIELD_LIST(X) \\")
    for r in reglist:
        for fname, msb, lsb, _ in r["fields"]:
            h.append(f"    X({r['name']}, {fname}, {msb}, {lsb}) \\")
    h.append("")
    for reg, fields in ID_FIELDS:
        h.append(f"/* {reg} fields (read-only ID register) */")
        for fname, msb, lsb in fields:
            p = f"SPU_F_{reg}_{fname}"
            h.append(f"#define {p}_LSB {lsb}")
            h.append(f"#define {p}_MSB {msb}")
            h.append(f"#define {p}_MASK 0x{bits(msb, lsb):016X}ull")
    h.append("/* Field value: SPU_GET(PMSIRR_EL1 value, PMSIRR_EL1, INTERVAL) */")
    h.append("#define SPU_GET(v, reg, field) (((uint64_t)(v) & SPU_F_##reg##_##field##_MASK) >> SPU_F_##reg##_##field##_LSB)")
    h.append("/* Field placed in its register: SPU_PUT(PMSIRR_EL1, INTERVAL, 0x100); bits beyond the field are dropped */")
    h.append("#define SPU_PUT(reg, field, x) (((uint64_t)(x) << SPU_F_##reg##_##field##_LSB) & SPU_F_##reg##_##field##_MASK)")
    h.append("")
    h.append("/* Features (bit positions in spu_config_t.features) */")
    for i, f in enumerate(FEATURES):
        h.append(f"#define SPU_FEAT_{f} (1u << {i})")
    h.append("")
    h.append("/* Knobs: X(name, default) */")
    h.append("#define SPU_KNOB_LIST(X) \\")
    for k, v in knobs.items():
        h.append(f"    X({k}, {v}u) \\")
    h.append("")
    h.append("enum spu_knob {")
    for k in knobs:
        h.append(f"    SPU_KNOB_{k},")
    h.append("    SPU_NKNOBS\n};\n")
    h.append("/* Record packets in writing order ([packets]): X(name, header byte, payload")
    h.append(" * bytes or SPU_PKT_EV_BYTES, feature or 0, index of the packet it replaces or")
    h.append(" * SPU_NPKT) */")
    h.append(f"#define SPU_PKT_EV_BYTES {PKT_EV_BYTES}u")
    h.append("#define SPU_PKT_LIST(X) \\")
    for p in g["packets"]:
        gate = f"SPU_FEAT_{p['feature']}" if p["feature"] else "0"
        inst = f"SPU_PKT_{p['instead']}" if p["instead"] else "SPU_NPKT"
        h.append(f"    X({p['name']}, 0x{p['hdr']:02X}u, {pkt_bytes(p)}u, {gate}, {inst}) \\")
    h.append("")
    h.append("enum spu_pkt {")
    for p in g["packets"]:
        h.append(f"    SPU_PKT_{p['name']},")
    h.append("    SPU_NPKT\n};\n")
    h.append("/* SAMPLE_* PMU events in .spl order: X(name, number, feature or 0) */")
    h.append("#define SPU_PMU_LIST(X) \\")
    for n, num, gate in pmu:
        gate = f"SPU_FEAT_{gate}" if gate else "0"
        h.append(f"    X({n}, 0x{num:04X}u, {gate}) \\")
    h.append("")
    h.append("enum spu_pmu {")
    for n, _, _ in pmu:
        h.append(f"    SPU_PMU_{n},")
    h.append("    SPU_NPMU\n};\n")
    h.append("/* Bits of one per-cycle PMU count (0..max(MAX_LANES, MAX_SLOTS)) */")
    h.append(f"#define SPU_PMU_W {pmu_width(limits)}\n")
    h.append("/* Limits of every configuration */")
    for k, v in limits.items():
        h.append(f"#define SPU_{k} 0x{v:X}u" if k.startswith("LFSR") else f"#define SPU_{k} {v}")
    h.append("")
    h.append("""/* One configuration: sizes, features, derived masks and knob values. */
typedef struct spu_config {
    const char *name;
    const char *doc;
    uint32_t lanes;             /* population members per cycle, 1..SPU_MAX_LANES */
    uint32_t slots;             /* sampled operations in flight, 1..SPU_MAX_SLOTS */
    uint32_t count_size;        /* latency counter width, 12 or 16 */
    uint32_t features;          /* SPU_FEAT_* */
    uint64_t ev_impdef_mask;    /* IMPLEMENTATION DEFINED "SPE mask" */
    uint64_t event_mask;        /* SPEFilterByEvents() mask */
    uint64_t ds_mask;           /* PMSDSFR_EL1 bits implemented */
    uint64_t pmsidr;            /* PMSIDR_EL1 value */
    uint64_t pmbidr;            /* PMBIDR_EL1 value */
    uint64_t rec_ev_mask;       /* Events packet bits a record carries */
    uint32_t ev_bytes;          /* Events packet payload bytes (1, 2, 4, 8) */
    uint32_t rec_max;           /* largest record in bytes, padding included */
    uint64_t wmask[SPU_NREGS];  /* writable bits; the rest is RES0/RAZ-WI */
    uint8_t present[SPU_NREGS]; /* encoding implemented in this configuration */
    uint32_t knob[SPU_NKNOBS];  /* impl-defined.md */
} spu_config_t;

extern const spu_config_t spu_configs[];
extern const unsigned spu_nconfigs;
""")
    h.append("#endif")

    c = [f"/* Generated by tools/gen_config.py from {src}. Do not edit. */",
         '#include "spu_config.h"', "", "const spu_config_t spu_configs[] = {"]
    for cfg in configs:
        feats = " | ".join(f"SPU_FEAT_{f}" for f in FEATURES if f in cfg["feat"]) or "0"
        c.append("    {")
        c.append(f"        .name = \"{cfg['name']}\",")
        c.append(f"        .doc = \"{cfg['doc']}\",")
        c.append(f"        .lanes = {cfg['lanes']}, .slots = {cfg['slots']}, .count_size = {cfg['count_size']},")
        c.append(f"        .features = {feats},")
        c.append(f"        .ev_impdef_mask = 0x{cfg['impdef']:016X}ull,")
        c.append(f"        .event_mask = 0x{cfg['evm']:016X}ull,")
        c.append(f"        .ds_mask = 0x{cfg['dsm']:016X}ull,")
        c.append(f"        .pmsidr = 0x{cfg['pmsidr']:016X}ull,")
        c.append(f"        .pmbidr = 0x{cfg['pmbidr']:016X}ull,")
        c.append(f"        .rec_ev_mask = 0x{cfg['rec_ev']:016X}ull, .ev_bytes = {cfg['ev_bytes']}, .rec_max = {cfg['rec_max']},")
        c.append("        .wmask = {" + ", ".join(
            f"[SPU_REG_{r['name']}] = 0x{cfg['wm'][r['name']]:016X}ull" for r in reglist) + "},")
        c.append("        .present = {" + ", ".join(
            f"[SPU_REG_{r['name']}] = {int(cfg['present'][r['name']])}" for r in reglist) + "},")
        c.append("        .knob = {" + ", ".join(
            f"[SPU_KNOB_{k}] = 0x{v:X}u" for k, v in cfg["knobs"].items()) + "},")
        c.append("    },")
    c.append("};")
    c.append(f"const unsigned spu_nconfigs = {len(configs)};")

    d = [f"/* Generated: prints every constant as the C side sees it (make check-gen). */",
         "#include <stdio.h>", "#include <string.h>", '#include "spu_config.h"', "",
         "#define ENC_ROW(n, enc, ro) [SPU_REG_##n] = enc,",
         "#define RO_ROW(n, enc, ro) [SPU_REG_##n] = ro,",
         "#define GATE_ROW(n, num, gate) [SPU_PMU_##n] = gate,",
         "static const unsigned long long enc_of[SPU_NREGS] = {SPU_REG_LIST(ENC_ROW)};",
         "static const unsigned long long ro_of[SPU_NREGS] = {SPU_REG_LIST(RO_ROW)};",
         "static const unsigned gate_of[SPU_NPMU] = {SPU_PMU_LIST(GATE_ROW)};",
         "#define HDR_ROW(n, hdr, b, f, i) [SPU_PKT_##n] = hdr,",
         "#define BYTES_ROW(n, hdr, b, f, i) [SPU_PKT_##n] = b,",
         "static const unsigned pkt_hdr[SPU_NPKT] = {SPU_PKT_LIST(HDR_ROW)};",
         "static const unsigned pkt_bytes[SPU_NPKT] = {SPU_PKT_LIST(BYTES_ROW)};", "",
         "int main(int argc, char **argv)", "{",
         "    for (unsigned i = 0; i < spu_nconfigs; i++) {",
         "        const spu_config_t *c = &spu_configs[i];",
         "        if (argc > 1 && strcmp(argv[1], c->name) != 0) continue;"]
    for n, _, _, cexpr, _ in constants(g, configs[0]):
        d.append(f'        printf("{n} %llu\\n", (unsigned long long)({cexpr}));')
    d.append("    }")
    d.append("    return 0;")
    d.append("}")
    return "\n".join(h) + "\n", "\n".join(c) + "\n", "\n".join(d) + "\n"


def emit_v(g, cfg, src):
    reglist, pmu = g["regs"], g["pmu"]
    v = [f"// Generated by tools/gen_config.py from {src} for configuration '{cfg['name']}'. Do not edit.",
         "`ifndef SPU_CONFIG_VH", "`define SPU_CONFIG_VH",
         f"`define SPU_CFG_NAME \"{cfg['name']}\""]
    consts = constants(g, cfg)
    for n, val, w, _, vexpr in consts:
        if vexpr is not None:
            continue
        v.append(f"`define SPU_{n} {w}'h{val:X}" if w else f"`define SPU_{n} {val}")
    # Packed per-register and per-event vectors, index i at bits [i*W +: W]
    # (SPU_REG_<NAME>, SPU_PMU_<NAME>): the RTL selects by name, never by
    # position.
    n = len(reglist)
    v.append("`define SPU_REG_ENC_ALL {" + ", ".join(
        f"16'h{r['packed']:04X}" for r in reversed(reglist)) + "}")
    v.append("`define SPU_REG_WMASK_ALL {" + ", ".join(
        f"64'h{cfg['wm'][r['name']]:016X}" for r in reversed(reglist)) + "}")
    v.append(f"`define SPU_REG_PRESENT_ALL {n}'b" + "".join(
        str(int(cfg["present"][r["name"]])) for r in reversed(reglist)))
    v.append(f"`define SPU_REG_RO_ALL {n}'b" + "".join(str(int(r["ro"])) for r in reversed(reglist)))
    v.append(f"`define SPU_PMU_IMPL {len(pmu)}'b" + "".join(
        str(int(x)) for x in reversed(cfg["pmu_impl"])))
    # The events' names (SAMPLE_<NAME> less its prefix), NUL-padded on the
    # left to SPU_PMU_NAME_LEN characters, event i at bits
    # [8*SPU_PMU_NAME_LEN*i +: 8*SPU_PMU_NAME_LEN]: $fwrite's %0s leaves the
    # NULs out (tests/diff/spl_log.v writes the .spl pmu line with them).
    nlen = max(len(e[0]) for e in pmu)
    v.append(f"`define SPU_PMU_NAME_LEN {nlen}")
    v.append("`define SPU_PMU_NAME_ALL {" + ", ".join(
        f"{8 * nlen}'h{e[0].encode().hex().upper().rjust(2 * nlen, '0')}" for e in reversed(pmu)) + "}")
    # The record's packets ([packets]), packet i at [8i +: 8] and [4i +: 4]
    pk = g["packets"]
    v.append("`define SPU_PKT_HDR_ALL {" + ", ".join(f"8'h{p['hdr']:02X}" for p in reversed(pk)) + "}")
    v.append("`define SPU_PKT_BYTES_ALL {" + ", ".join(f"4'd{pkt_bytes(p)}" for p in reversed(pk)) + "}")
    for reg, fields in ID_FIELDS:
        for fname, msb, lsb in fields:
            v.append(f"`define SPU_F_{reg}_{fname}_LSB {lsb}")
            v.append(f"`define SPU_F_{reg}_{fname}_MSB {msb}")
    v.append("`endif")
    d = [f"// Generated: prints every constant as the Verilog side sees it (make check-gen).",
         "`include \"spu_config.vh\"", "module dump_cfg;",
         "  localparam [`SPU_NREGS*16-1:0] ENC_ALL     = `SPU_REG_ENC_ALL;",
         "  localparam [`SPU_NREGS*64-1:0] WMASK_ALL   = `SPU_REG_WMASK_ALL;",
         "  localparam [`SPU_NREGS-1:0]    PRESENT_ALL = `SPU_REG_PRESENT_ALL;",
         "  localparam [`SPU_NREGS-1:0]    RO_ALL      = `SPU_REG_RO_ALL;",
         "  localparam [`SPU_NPMU-1:0]     PMU_IMPL    = `SPU_PMU_IMPL;",
         "  localparam [`SPU_NPKT*8-1:0]   PKT_HDR_ALL   = `SPU_PKT_HDR_ALL;",
         "  localparam [`SPU_NPKT*4-1:0]   PKT_BYTES_ALL = `SPU_PKT_BYTES_ALL;",
         "  initial begin"]
    for n, _, _, _, vexpr in consts:
        d.append(f"    $display(\"{n} %0d\", {vexpr or '`SPU_' + n});")
    d += ["    $finish;", "  end", "endmodule"]
    return "\n".join(v) + "\n", "\n".join(d) + "\n"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    old = None
    if os.path.exists(path):
        with open(path) as f:
            old = f.read()
    if old != text:  # keep timestamps of unchanged files: no needless rebuilds
        with open(path, "w") as f:
            f.write(text)


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[4], file=sys.stderr)
        return 2
    src, outdir = argv[1], argv[2]
    if src == "--list":
        src = outdir
    try:
        g = build(src)
    except (GenError, OSError) as e:
        print(f"gen_config: error: {e}", file=sys.stderr)
        return 1
    if argv[1] == "--list":
        print("\n".join(cfg["name"] for cfg in g["configs"]))
        return 0
    h, c, d = emit_c(g, src)
    write(os.path.join(outdir, "spu_config.h"), h)
    write(os.path.join(outdir, "spu_config.c"), c)
    write(os.path.join(outdir, "dump_cfg.c"), d)
    write(os.path.join(outdir, "spu_ports.h"), gen_ports.emit_h(g["ports"], src))
    write(os.path.join(outdir, "ports.md"), gen_ports.emit_md(g["ports"]))
    vports = zip(VPORT_FILES, gen_ports.emit_vh(g["ports"], src))
    for cfg in g["configs"]:
        vh, dv = emit_v(g, cfg, src)
        write(os.path.join(outdir, cfg["name"], "spu_config.vh"), vh)
        write(os.path.join(outdir, cfg["name"], "dump_cfg.v"), dv)
    for name, text in vports:
        # the same in every configuration's directory, found on its include
        # path like spu_config.vh
        for cfg in g["configs"]:
            write(os.path.join(outdir, cfg["name"], name), text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
