/*
 * SPEConstructRecord(): the bytes of one sample record (Arm ARM D17.6, the
 * packet formats of D18), in the order of the packet table ([packets] of
 * configs/spu.toml, the pseudocode's order): Context, the Counter packets by
 * index, the Address packets by index, Data Source, Operation Type, Events,
 * then Timestamp when collected, else End; then zero padding to
 * 1 << PMBIDR_EL1.Align bytes. docs/records.md lists every packet, its
 * header byte and when it is written.
 */
#include <string.h>

#include "spu_model.h"

#define ADDR_MASK 0x00FFFFFFFFFFFFFFull /* address bits [55:0] */

/* The packet table ([packets] of configs/spu.toml): header bytes (D18.2;
 * Operation Type's class and the Events size field are ORed in), payload
 * bytes, features. */
#define PKT_HDR(n, hdr, b, f, i) [SPU_PKT_##n] = hdr,
#define PKT_BYTES(n, hdr, b, f, i) [SPU_PKT_##n] = b,
#define PKT_FEAT(n, hdr, b, f, i) [SPU_PKT_##n] = f,
static const uint8_t pkt_hdr[SPU_NPKT] = {SPU_PKT_LIST(PKT_HDR)};
static const uint8_t pkt_bytes[SPU_NPKT] = {SPU_PKT_LIST(PKT_BYTES)};
static const uint32_t pkt_feat[SPU_NPKT] = {SPU_PKT_LIST(PKT_FEAT)};

unsigned spu_packet_payload(const spu_config_t *cfg, unsigned pkt)
{
    return pkt_bytes[pkt] == SPU_PKT_EV_BYTES ? cfg->ev_bytes : pkt_bytes[pkt];
}

uint8_t spu_optype(const spu_config_t *cfg, uint8_t type, uint16_t attr, uint8_t *payload)
{
    const int sve = (cfg->features & SPU_FEAT_SVE) && ((attr >> SPU_ATTR_SVE) & 1);
    const unsigned evl_pred = ((attr >> SPU_ATTR_EVL) & 7u) << 4 | ((attr >> SPU_ATTR_PRED) & 1u) << 2;
    const int fp = (type >> SPU_T_FP) & 1;
    const int b = type & (1u << SPU_T_B), ld = type & (1u << SPU_T_LD), st = type & (1u << SPU_T_ST);
    const int cond = (attr >> SPU_ATTR_COND) & 1, ind = (attr >> SPU_ATTR_IND) & 1;
    const int excl = (attr >> SPU_ATTR_EXCL) & 1, ar = (attr >> SPU_ATTR_AR) & 1;
    if (b) { /* class 2, Branch: bit 0 conditional, bit 1 indirect */
        *payload = (uint8_t)(cond | ind << 1);
        return 2;
    }
    if (ld || st) { /* class 1, Load/store; bit 0 is 1 for a store */
        const int store = st && !ld; /* LD+ST is LoadAtomic: a load */
        if ((ld && st) || excl || ar) /* extended: bit 1, AT, exclusive, acquire/release */
            *payload = (uint8_t)(store | 0x02 | (ld && st) << 2 | excl << 3 | ar << 4);
        else if (sve) /* SVE: SG [7], EVL [6:4], 1 [3], PRED [2] */
            *payload = (uint8_t)(store | 0x08 | evl_pred | ((attr >> SPU_ATTR_SG) & 1u) << 7);
        else if (type & (1u << SPU_T_FP | 1u << SPU_T_SIMD))
            *payload = (uint8_t)(store | 0x04); /* SIMD&FP registers */
        else
            *payload = (uint8_t)store;          /* general-purpose registers */
        return 1;
    }
    /* class 0, Other: SVE: EVL [6:4], 1 [3], PRED [2], FP [1]; else bit 0
     * conditional (FP/SIMD bits need FEAT_SPE_FPF) */
    *payload = (uint8_t)(sve ? 0x08u | evl_pred | (unsigned)fp << 1 : (unsigned)cond);
    return 0;
}

uint32_t spu_record_packets(const spu_config_t *cfg, const uint64_t *regs, const spu_rec_src_t *r)
{
    const uint64_t pmscr = regs[SPU_REG_PMSCR_EL1];
    const int ts = (pmscr & SPU_F_PMSCR_EL1_TS_MASK) != 0;
    uint32_t p = 1u << SPU_PKT_COUNT_TOT | 1u << SPU_PKT_COUNT_ISS | 1u << SPU_PKT_ADDR_PC |
                 1u << SPU_PKT_OPTYPE | 1u << SPU_PKT_EVENTS | (uint32_t)ts << SPU_PKT_TS |
                 (uint32_t)!ts << SPU_PKT_END | (uint32_t)(r->cx != 0) << SPU_PKT_CONTEXT;
    if (r->valid & SPU_REC_TGT)
        p |= 1u << SPU_PKT_ADDR_TGT;
    if (r->valid & SPU_REC_VA)
        p |= 1u << SPU_PKT_ADDR_VA;
    if ((r->valid & SPU_REC_PA) && (pmscr & SPU_F_PMSCR_EL1_PA_MASK))
        p |= 1u << SPU_PKT_ADDR_PA;
    if (r->valid & SPU_REC_PBT)
        p |= 1u << SPU_PKT_ADDR_PBT;
    /* the data source of a load (D17.6.4): ops with the LD flag */
    if ((r->valid & SPU_REC_DS) && (r->type & (1u << SPU_T_LD)))
        p |= 1u << SPU_PKT_DS;
    for (unsigned i = 0; i < SPU_NPKT; i++)
        if (pkt_feat[i] && !(cfg->features & pkt_feat[i]))
            p &= ~(1u << i);
    return p;
}

/* Each packet's header byte and payload (the low payload bytes are
 * written, little-endian). */
static void packet_values(const spu_config_t *cfg, const spu_rec_src_t *r, uint8_t *hdr, uint64_t *v)
{
    const uint64_t ns = (r->attr >> SPU_ATTR_NS) & 1u;
    const uint64_t ctx_bits = ns << 63 | (uint64_t)(r->el & 3u) << 61;
    memcpy(hdr, pkt_hdr, SPU_NPKT);
    v[SPU_PKT_CONTEXT] = r->ctx;
    v[SPU_PKT_COUNT_TOT] = r->tot_lat;
    v[SPU_PKT_COUNT_ISS] = r->iss_lat;
    v[SPU_PKT_ADDR_PC] = (r->pc & ADDR_MASK) | ctx_bits;
    v[SPU_PKT_ADDR_TGT] = (r->tgt & ADDR_MASK) | ctx_bits;
    v[SPU_PKT_ADDR_VA] = r->va;
    v[SPU_PKT_ADDR_PA] = (r->pa & ADDR_MASK) | ns << 63;
    v[SPU_PKT_ADDR_PBT] = (r->pbt & ADDR_MASK) | ctx_bits;
    v[SPU_PKT_DS] = r->ds;
    uint8_t op;
    hdr[SPU_PKT_OPTYPE] |= spu_optype(cfg, r->type, r->attr, &op);
    v[SPU_PKT_OPTYPE] = op;
    const unsigned sz = cfg->ev_bytes == 1 ? 0u : cfg->ev_bytes == 2 ? 1u : cfg->ev_bytes == 4 ? 2u : 3u;
    hdr[SPU_PKT_EVENTS] |= (uint8_t)(sz << 4);
    v[SPU_PKT_EVENTS] = r->events & cfg->rec_ev_mask;
    v[SPU_PKT_TS] = r->ts;
    v[SPU_PKT_END] = 0;
}

unsigned spu_record_build(const spu_config_t *cfg, const uint64_t *regs, const spu_rec_src_t *r,
                          uint8_t *buf)
{
    const uint32_t present = spu_record_packets(cfg, regs, r);
    uint8_t hdr[SPU_NPKT];
    uint64_t v[SPU_NPKT];
    packet_values(cfg, r, hdr, v);
    unsigned n = 0;
    for (unsigned i = 0; i < SPU_NPKT; i++) {
        if (!((present >> i) & 1u))
            continue;
        buf[n++] = hdr[i];
        for (unsigned k = 0, nb = spu_packet_payload(cfg, i); k < nb; k++)
            buf[n++] = (uint8_t)(v[i] >> (8 * k));
    }
    const unsigned align = 1u << SPU_GET(cfg->pmbidr, PMBIDR_EL1, Align);
    while (n % align)
        buf[n++] = 0; /* Padding packets */
    return n;
}
