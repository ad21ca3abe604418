#!/usr/bin/env python3
"""Expand configs/spu.toml (the one source of the register map, the named
configurations and the knobs) into the C header/table and one Verilog include
per configuration.

usage: gen_config.py SRC.toml OUTDIR | gen_config.py --list SRC.toml

Writes OUTDIR/spu_config.h, OUTDIR/spu_config.c, OUTDIR/dump_cfg.c and, per
configuration C, OUTDIR/C/spu_config.vh and OUTDIR/C/dump_cfg.v. The dump files
print every generated constant, one `NAME VALUE` per line, from the C and the
Verilog side; `make check-gen` diffs the two. `--list` prints the names of the
configurations, one per line, in the toml's order (the Makefile, the test,
regression and bench scripts take the list from it).

Errors name the file and the table/key that is wrong and exit with status 1.
"""
import os
import sys
import tomllib

FEATURES = ["V1P1", "V1P2", "V1P4", "FNE", "EFT", "FDS", "ERND", "SVE"]
# Pseudo-features used only as field gates.
GATES = FEATURES + ["COUNT16", "EVMASK", "DSMASK", ""]
CONFIG_KEYS = ["doc", "base", "LANES", "SLOTS", "COUNT_SIZE", "features",
               "EV_IMPDEF_MASK", "DS_MASK", "PMSIDR_INTERVAL", "PMSIDR_MAXSIZE",
               "PMSIDR_ARCHINST", "PMBIDR_ALIGN", "PMBIDR_EA", "PMBIDR_F"]
# PMU events in .spl summary order: (name, number, feature gate).
PMU = [("POP", 0x4000, ""), ("FEED", 0x4001, ""), ("FILTRATE", 0x4002, ""),
       ("COLLISION", 0x4003, ""), ("FEED_BR", 0x812A, "V1P2"),
       ("FEED_LD", 0x812B, "V1P2"), ("FEED_ST", 0x812C, "V1P2"),
       ("FEED_FP", 0x8348, "EFT"), ("FEED_SIMD", 0x8349, "EFT"),
       ("FEED_OP", 0x812D, "V1P2"), ("FEED_EVENT", 0x812E, "V1P2"),
       ("FEED_LAT", 0x812F, "V1P2"), ("FEED_DS", 0x8122, "FDS")]
M64 = (1 << 64) - 1


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
        for f, need in (("V1P4", "V1P2"), ("V1P2", "V1P1"), ("FDS", "V1P4")):
            if f in feat and need not in feat:
                raise GenError(f"{src}: [configs.{cname}] feature {f} needs {need}")
        if not 1 <= c["LANES"] <= 8:
            raise GenError(f"{src}: [configs.{cname}] LANES={c['LANES']} (1..8)")
        if not 1 <= c["SLOTS"] <= 4:
            raise GenError(f"{src}: [configs.{cname}] SLOTS={c['SLOTS']} (1..4)")
        if c["COUNT_SIZE"] not in (12, 16):
            raise GenError(f"{src}: [configs.{cname}] COUNT_SIZE={c['COUNT_SIZE']} (12 or 16)")
        kv = {k: c.get(k, d) for k, d in knobs.items()}
        if not 0 < kv["LFSR_SEED"] < (1 << 24):
            raise GenError(f"{src}: [configs.{cname}] LFSR_SEED must be nonzero and 24 bits")
        for k, v in kv.items():
            if k != "LFSR_SEED" and v not in (0, 1):
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
        pmsidr = (0b111 | c["PMSIDR_ARCHINST"] << 3 | ("ERND" in feat) << 5 |
                  ("FNE" in feat) << 6 | ("FDS" in feat) << 7 |
                  c["PMSIDR_INTERVAL"] << 8 | c["PMSIDR_MAXSIZE"] << 12 |
                  (2 if c["COUNT_SIZE"] == 12 else 3) << 16 | ("EFT" in feat) << 26)
        pmbidr = c["PMBIDR_ALIGN"] | c["PMBIDR_F"] << 5 | c["PMBIDR_EA"] << 8
        configs.append(dict(name=cname, doc=c.get("doc", ""), lanes=c["LANES"],
                            slots=c["SLOTS"], count_size=c["COUNT_SIZE"],
                            feat=feat, impdef=c["EV_IMPDEF_MASK"], evm=evm, dsm=dsm,
                            wm=wm, present=present, pmsidr=pmsidr, pmbidr=pmbidr,
                            knobs=kv))
    return reglist, knobs, configs


def cid(name):
    return name.upper().replace("-", "_")


def constants(reglist, knobs, cfg):
    """Every generated constant of one configuration, as (NAME, int value, width)."""
    out = [("LANES", cfg["lanes"], 32), ("SLOTS", cfg["slots"], 32),
           ("COUNT_SIZE", cfg["count_size"], 32)]
    out += [(f"FEAT_{f}", int(f in cfg["feat"]), 32) for f in FEATURES]
    out += [("EVENT_MASK", cfg["evm"], 64), ("DS_MASK", cfg["dsm"], 64),
            ("PMSIDR", cfg["pmsidr"], 64), ("PMBIDR", cfg["pmbidr"], 64)]
    out += [(f"KNOB_{k}", v, 32) for k, v in cfg["knobs"].items()]
    for r in reglist:
        out.append((f"ENC_{r['name']}", r["packed"], 16))
        out.append((f"WMASK_{r['name']}", cfg["wm"][r["name"]], 64))
        out.append((f"PRESENT_{r['name']}", int(cfg["present"][r["name"]]), 32))
    return out


def emit_c(reglist, knobs, configs, src):
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
    h.append("/* SAMPLE_* PMU events in .spl order: X(name, number, feature or 0) */")
    h.append("#define SPU_PMU_LIST(X) \\")
    for n, num, g in PMU:
        gate = f"SPU_FEAT_{g}" if g else "0"
        h.append(f"    X({n}, 0x{num:04X}u, {gate}) \\")
    h.append("")
    h.append("enum spu_pmu {")
    for n, _, _ in PMU:
        h.append(f"    SPU_PMU_{n},")
    h.append("    SPU_NPMU\n};\n")
    h.append("#define SPU_MAX_LANES 8\n#define SPU_MAX_SLOTS 4\n")
    h.append("""/* One configuration: sizes, features, derived masks and knob values. */
typedef struct spu_config {
    const char *name;
    const char *doc;
    uint32_t lanes;             /* population members per cycle, 1..8 */
    uint32_t slots;             /* sampled operations in flight, 1..4 */
    uint32_t count_size;        /* latency counter width, 12 or 16 */
    uint32_t features;          /* SPU_FEAT_* */
    uint64_t ev_impdef_mask;    /* IMPLEMENTATION DEFINED "SPE mask" */
    uint64_t event_mask;        /* SPEFilterByEvents() mask */
    uint64_t ds_mask;           /* PMSDSFR_EL1 bits implemented */
    uint64_t pmsidr;            /* PMSIDR_EL1 value */
    uint64_t pmbidr;            /* PMBIDR_EL1 value */
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
         "int main(int argc, char **argv)", "{",
         "    for (unsigned i = 0; i < spu_nconfigs; i++) {",
         "        const spu_config_t *c = &spu_configs[i];",
         "        if (argc > 1 && strcmp(argv[1], c->name) != 0) continue;",
         '        printf("LANES %llu\\n", (unsigned long long)c->lanes);',
         '        printf("SLOTS %llu\\n", (unsigned long long)c->slots);',
         '        printf("COUNT_SIZE %llu\\n", (unsigned long long)c->count_size);']
    for f in FEATURES:
        d.append(f'        printf("FEAT_{f} %llu\\n", (unsigned long long)!!(c->features & SPU_FEAT_{f}));')
    for n, fld in (("EVENT_MASK", "event_mask"), ("DS_MASK", "ds_mask"),
                   ("PMSIDR", "pmsidr"), ("PMBIDR", "pmbidr")):
        d.append(f'        printf("{n} %llu\\n", (unsigned long long)c->{fld});')
    for k in knobs:
        d.append(f'        printf("KNOB_{k} %llu\\n", (unsigned long long)c->knob[SPU_KNOB_{k}]);')
    d.append("#define DUMP_REG(n, enc, ro) \\")
    d.append('        printf("ENC_" #n " %llu\\n", (unsigned long long)(enc)); \\')
    d.append('        printf("WMASK_" #n " %llu\\n", (unsigned long long)c->wmask[SPU_REG_##n]); \\')
    d.append('        printf("PRESENT_" #n " %llu\\n", (unsigned long long)c->present[SPU_REG_##n]);')
    d.append("        SPU_REG_LIST(DUMP_REG)")
    d.append("    }")
    d.append("    return 0;")
    d.append("}")
    return "\n".join(h) + "\n", "\n".join(c) + "\n", "\n".join(d) + "\n"


def emit_v(reglist, knobs, cfg, src):
    v = [f"// Generated by tools/gen_config.py from {src} for configuration '{cfg['name']}'. Do not edit.",
         "`ifndef SPU_CONFIG_VH", "`define SPU_CONFIG_VH",
         f"`define SPU_CFG_NAME \"{cfg['name']}\""]
    consts = constants(reglist, knobs, cfg)
    for n, val, w in consts:
        v.append(f"`define SPU_{n} {w}'h{val:X}")
    for r in reglist:
        for fname, msb, lsb, _ in r["fields"]:
            v.append(f"`define SPU_F_{r['name']}_{fname}_LSB {lsb}")
            v.append(f"`define SPU_F_{r['name']}_{fname}_MSB {msb}")
    v.append("`endif")
    d = [f"// Generated: prints every constant as the Verilog side sees it (make check-gen).",
         "`include \"spu_config.vh\"", "module dump_cfg;", "  initial begin"]
    for n, _, _ in consts:
        d.append(f"    $display(\"{n} %0d\", `SPU_{n});")
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
        reglist, knobs, configs = build(src)
    except (GenError, OSError) as e:
        print(f"gen_config: error: {e}", file=sys.stderr)
        return 1
    if argv[1] == "--list":
        print("\n".join(cfg["name"] for cfg in configs))
        return 0
    h, c, d = emit_c(reglist, knobs, configs, src)
    write(os.path.join(outdir, "spu_config.h"), h)
    write(os.path.join(outdir, "spu_config.c"), c)
    write(os.path.join(outdir, "dump_cfg.c"), d)
    for cfg in configs:
        vh, dv = emit_v(reglist, knobs, cfg, src)
        write(os.path.join(outdir, cfg["name"], "spu_config.vh"), vh)
        write(os.path.join(outdir, cfg["name"], "dump_cfg.v"), dv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
