/*
 * spu_apb.h: the APB4 wrapper of the unit, cycle by cycle as rtl/spu_apb.v.
 */
#include <string.h>

#include "spu_apb.h"

/* {op0, op1, CRn, CRm, op2} packed as the unit takes it (configs/spu.toml) */
#define ENC(op0, op1, crn, crm, op2) \
    (uint16_t)((op0) << 14 | (op1) << 11 | (crn) << 7 | (crm) << 3 | (op2))

void spu_apb_reset(spu_apb_t *a)
{
    memset(a, 0, sizeof *a);
}

int spu_apb_reg_addr(uint16_t enc)
{
    const unsigned crm = (enc >> 3) & 0xFu, op2 = enc & 7u;
    if ((enc & ~(uint16_t)0x7Fu) != (ENC(3, 0, 9, 0, 0) & ~0x7Fu) || crm < 9 || crm > 10)
        return -1;
    return (int)(((crm - 9u) << 6) | (op2 << 3));
}

/* The first cycle of an access phase (the wrapper answers in the second). */
static int start(const spu_apb_t *a, const spu_apb_in_t *ai)
{
    return ai->psel && ai->penable && !a->pready_q;
}

static int in_regs(const spu_apb_in_t *ai)
{
    return ai->paddr < SPU_APB_REG_END;
}

/* The counter a read at ai->paddr returns, or -1. */
static int pmu_index(const spu_apb_in_t *ai)
{
    const unsigned off = (unsigned)ai->paddr - SPU_APB_PMU_BASE;
    if (ai->paddr < SPU_APB_PMU_BASE || (off & 3u) || off / 4 >= SPU_NPMU)
        return -1;
    return (int)(off / 4);
}

/* A read of a low word or a write of a whole high word goes to the unit. */
static int unit_access(const spu_apb_t *a, const spu_apb_in_t *ai)
{
    const int hi = (ai->paddr >> 2) & 1;
    return start(a, ai) && in_regs(ai) && (ai->pwrite ? hi && ai->pstrb == 0xF : !hi);
}

void spu_apb_drive(const spu_apb_t *a, const spu_apb_in_t *ai, spu_in_t *in)
{
    in->reg_valid = (uint8_t)unit_access(a, ai);
    if (!in->reg_valid)
        return;
    in->reg_write = ai->pwrite;
    in->reg_enc = ENC(3, 0, 9, 9 + ((ai->paddr >> 6) & 1), (ai->paddr >> 3) & 7);
    in->reg_wdata = (uint64_t)ai->pwdata << 32 | a->wlo_q;
}

void spu_apb_clock(spu_apb_t *a, const spu_apb_in_t *ai, const spu_in_t *in, const spu_out_t *out,
                   spu_apb_out_t *ao)
{
    spu_apb_t n = *a;
    if (!in->rst_n) {
        spu_apb_reset(&n);
    } else {
        const int st = start(a, ai), regs = in_regs(ai), ev = pmu_index(ai);
        const int hi = (ai->paddr >> 2) & 1, full = ai->pstrb == 0xF;
        for (unsigned e = 0; e < SPU_NPMU; e++)
            n.cnt[e] = a->cnt[e] + a->pmu_shown[e];
        n.pready_q = (uint8_t)st;
        n.unit_q = (uint8_t)unit_access(a, ai);
        n.half_q = n.unit_q && !ai->pwrite;
        n.prdata_q = 0;
        n.pslverr_q = 0;
        if (a->unit_q && a->half_q) /* the read's high half, shown with its low half */
            n.rhi_q = (uint32_t)(a->rdata_shown >> 32);
        if (st) {
            if (regs && ai->pwrite && !hi && full)
                n.wlo_q = ai->pwdata;
            if (regs && !ai->pwrite && hi)
                n.prdata_q = a->rhi_q;
            else if (ev >= 0 && !ai->pwrite)
                n.prdata_q = a->cnt[ev];
            n.pslverr_q = !(regs && (!ai->pwrite || full)) && !(ev >= 0 && !ai->pwrite);
        }
    }
    memcpy(n.pmu_shown, out->pmu, sizeof n.pmu_shown);
    n.rdata_shown = out->reg_rdata;
    *a = n;
    ao->pready = n.pready_q;
    ao->prdata = n.unit_q ? (n.half_q ? (uint32_t)out->reg_rdata : 0u) : n.prdata_q;
    ao->pslverr = n.unit_q ? out->reg_undef : n.pslverr_q;
}
