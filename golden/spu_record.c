/*
 * SPEConstructRecord(): the bytes of one sample record (Arm ARM D17.6, the
 * packet formats of D18), in the pseudocode's order: Context, the Counter
 * packets by index, the Address packets by index, Data Source, Operation
 * Type, Events, then Timestamp when collected, else End; then zero padding
 * to 1 << PMBIDR_EL1.Align bytes. docs/records.md lists every packet, its
 * header byte and when it is written.
 */
#include <string.h>

#include "spu_model.h"

/* Header bytes (D18.2): the low bits carry the index or class, bits [5:4]
 * the payload size 1 << sz. */
enum {
    HDR_END = 0x01, HDR_TS = 0x71, HDR_EVENTS = 0x42, HDR_DS = 0x53,
    HDR_CONTEXT = 0x64, HDR_OPTYPE = 0x48, HDR_ADDR = 0xB0, HDR_COUNTER = 0x98
};

#define ADDR_MASK 0x00FFFFFFFFFFFFFFull /* address bits [55:0] */

static unsigned put(uint8_t *b, unsigned n, uint8_t hdr, uint64_t v, unsigned bytes)
{
    b[n++] = hdr;
    for (unsigned i = 0; i < bytes; i++)
        b[n++] = (uint8_t)(v >> (8 * i));
    return n;
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

unsigned spu_record_build(const spu_config_t *cfg, const uint64_t *regs, const spu_rec_src_t *r,
                          uint8_t *buf)
{
    const uint64_t pmscr = regs[SPU_REG_PMSCR_EL1];
    const uint64_t ns = (r->attr >> SPU_ATTR_NS) & 1u;
    const uint64_t ctx_bits = ns << 63 | (uint64_t)(r->el & 3u) << 61;
    unsigned n = 0;
    if (r->cx)
        n = put(buf, n, HDR_CONTEXT, r->ctx, 4);
    n = put(buf, n, HDR_COUNTER | 0, r->tot_lat, 2);
    n = put(buf, n, HDR_COUNTER | 1, r->iss_lat, 2);
    n = put(buf, n, HDR_ADDR | 0, (r->pc & ADDR_MASK) | ctx_bits, 8);
    if (r->valid & SPU_REC_TGT)
        n = put(buf, n, HDR_ADDR | 1, (r->tgt & ADDR_MASK) | ctx_bits, 8);
    if (r->valid & SPU_REC_VA)
        n = put(buf, n, HDR_ADDR | 2, r->va, 8);
    if ((r->valid & SPU_REC_PA) && (pmscr & SPU_F_PMSCR_EL1_PA_MASK))
        n = put(buf, n, HDR_ADDR | 3, (r->pa & ADDR_MASK) | ns << 63, 8);
    if ((r->valid & SPU_REC_PBT) && (cfg->features & SPU_FEAT_PBT))
        n = put(buf, n, HDR_ADDR | 4, (r->pbt & ADDR_MASK) | ctx_bits, 8);
    /* the data source of a load (D17.6.4): ops with the LD flag */
    if ((r->valid & SPU_REC_DS) && (cfg->features & SPU_FEAT_LDS) && (r->type & (1u << SPU_T_LD)))
        n = put(buf, n, HDR_DS, r->ds, 2);
    uint8_t op;
    const uint8_t cls = spu_optype(cfg, r->type, r->attr, &op);
    n = put(buf, n, (uint8_t)(HDR_OPTYPE | cls), op, 1);
    const unsigned sz = cfg->ev_bytes == 1 ? 0u : cfg->ev_bytes == 2 ? 1u : cfg->ev_bytes == 4 ? 2u : 3u;
    n = put(buf, n, (uint8_t)(HDR_EVENTS | sz << 4), r->events & cfg->rec_ev_mask, cfg->ev_bytes);
    if (pmscr & SPU_F_PMSCR_EL1_TS_MASK)
        n = put(buf, n, HDR_TS, r->ts, 8);
    else
        n = put(buf, n, HDR_END, 0, 0);
    const unsigned align = 1u << SPU_GET(cfg->pmbidr, PMBIDR_EL1, Align);
    while (n % align)
        buf[n++] = 0; /* Padding packets */
    return n;
}
