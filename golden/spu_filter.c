/*
 * The record filter: SPECollectRecord() and the four filter functions of the
 * M.a.a pseudocode, D17.5, with the SAMPLE_FEED_* and
 * SAMPLE_FILTRATE events of D14.3 as side outputs. A pure function of the
 * register file and the finished operation.
 */
#include <string.h>

#include "spu_model.h"

/* ConstrainUnpredictableBool(Unpredictable_BADPMSFCR) at one site: the knob. */
static int badpmsfcr(const spu_config_t *cfg, int knob)
{
    return cfg->knob[knob] != 0;
}

/* SPEFilterByEvents(): sets why bits ev/nev, raises SAMPLE_FEED_EVENT. */
static void filter_by_events(const spu_config_t *cfg, const uint64_t *r, uint64_t events,
                             spu_record_out_t *o)
{
    const uint64_t mask = cfg->event_mask;
    const uint64_t fcr = r[SPU_REG_PMSFCR_EL1];
    const int fne_impl = (cfg->features & SPU_FEAT_FNE) != 0;
    const uint64_t e = events & mask;
    const uint64_t evfr = r[SPU_REG_PMSEVFR_EL1] & mask;
    int rej_ev = 0, rej_nev = 0, is_nevt = 1;
    const int is_evt = (~e & evfr) == 0;

    if (fcr & SPU_F_PMSFCR_EL1_FE_MASK)
        rej_ev = evfr != 0 ? !is_evt : badpmsfcr(cfg, SPU_KNOB_CU_FE);
    if (fne_impl) {
        const uint64_t nevfr = r[SPU_REG_PMSNEVFR_EL1] & mask;
        is_nevt = (e & nevfr) == 0;
        if (fcr & SPU_F_PMSFCR_EL1_FnE_MASK)
            rej_nev = nevfr != 0 ? !is_nevt : badpmsfcr(cfg, SPU_KNOB_CU_FNE);
    }
    if (is_evt && is_nevt)
        o->pmu[SPU_PMU_FEED_EVENT] = 1;
    /* FE and FnE both set with a bit in both registers: both filters take the
     * CONSTRAINED UNPREDICTABLE value. */
    if (fne_impl && (fcr & SPU_F_PMSFCR_EL1_FE_MASK) && (fcr & SPU_F_PMSFCR_EL1_FnE_MASK) &&
        (r[SPU_REG_PMSEVFR_EL1] & r[SPU_REG_PMSNEVFR_EL1] & mask) != 0) {
        rej_ev = rej_nev = badpmsfcr(cfg, SPU_KNOB_CU_EVOVERLAP);
    }
    o->why |= (uint8_t)(rej_ev << SPU_WHY_EV | rej_nev << SPU_WHY_NEV);
}

/* The type filter's ctrl and mask, bit i for flag i ({SIMD,FP,ST,LD,B}).
 * TYPE is {ST, LD, B}; with EFT, TYPE<4:3> = {SIMD, FP} (field TYPEX) and the
 * mask is TYPEm; without FEAT_SPE_EFT, ctrl is TYPE<2:0> and mask is zero. */
void spu_type_ctrl_mask(const spu_config_t *cfg, uint64_t fcr, uint32_t *ctrl, uint32_t *mask)
{
    const unsigned tw = SPU_F_PMSFCR_EL1_TYPE_MSB - SPU_F_PMSFCR_EL1_TYPE_LSB + 1;
    *ctrl = (uint32_t)SPU_GET(fcr, PMSFCR_EL1, TYPE);
    *mask = 0;
    if (cfg->features & SPU_FEAT_EFT) {
        *ctrl |= (uint32_t)SPU_GET(fcr, PMSFCR_EL1, TYPEX) << tw;
        *mask = (uint32_t)SPU_GET(fcr, PMSFCR_EL1, TYPEm);
    }
}

/* SPEFilterByType(): flags are the op's {SIMD,FP,ST,LD,B}; FEED_BR..SIMD and
 * FEED_OP. */
static void filter_by_type(const spu_config_t *cfg, const uint64_t *r, uint8_t flags,
                           spu_record_out_t *o)
{
    const uint64_t fcr = r[SPU_REG_PMSFCR_EL1];
    const int eft = (cfg->features & SPU_FEAT_EFT) != 0;
    uint32_t ctrl, mask;
    spu_type_ctrl_mask(cfg, fcr, &ctrl, &mask);
    const uint32_t ctrl_or = ctrl & ~mask;
    const uint32_t ctrl_and = ctrl & mask;
    const int is_op = (ctrl_or == 0 || (flags & ctrl_or) != 0) && ((flags & mask) == ctrl_and);

    o->pmu[SPU_PMU_FEED_BR] = (flags >> SPU_T_B) & 1u;
    o->pmu[SPU_PMU_FEED_LD] = (flags >> SPU_T_LD) & 1u;
    o->pmu[SPU_PMU_FEED_ST] = (flags >> SPU_T_ST) & 1u;
    o->pmu[SPU_PMU_FEED_FP] = (flags >> SPU_T_FP) & 1u;
    o->pmu[SPU_PMU_FEED_SIMD] = (flags >> SPU_T_SIMD) & 1u;

    int rej = 0;
    if (fcr & SPU_F_PMSFCR_EL1_FT_MASK)
        rej = (eft || ctrl != 0) ? !is_op : badpmsfcr(cfg, SPU_KNOB_CU_FT);
    if (is_op && (ctrl != 0 || mask != 0))
        o->pmu[SPU_PMU_FEED_OP] = 1;
    o->why |= (uint8_t)(rej << SPU_WHY_TYPE);
}

/* PMSLATFR_EL1.MINLAT; MINLAT<15:12> (field MINLAT_HI) is RES0 with 12-bit
 * counters (write mask). */
uint32_t spu_minlat(const uint64_t *regs)
{
    return (uint32_t)(SPU_GET(regs[SPU_REG_PMSLATFR_EL1], PMSLATFR_EL1, MINLAT) |
                      SPU_GET(regs[SPU_REG_PMSLATFR_EL1], PMSLATFR_EL1, MINLAT_HI)
                          << (SPU_F_PMSLATFR_EL1_MINLAT_HI_LSB - SPU_F_PMSLATFR_EL1_MINLAT_LSB));
}

/* SPEFilterByLatency(): M.a.a keeps total latency >= MINLAT. */
static void filter_by_latency(const spu_config_t *cfg, const uint64_t *r, uint32_t tot,
                              spu_record_out_t *o)
{
    const uint32_t minlat = spu_minlat(r);
    const int is_lat = tot >= minlat;
    int rej = 0;
    if (is_lat)
        o->pmu[SPU_PMU_FEED_LAT] = 1;
    if (r[SPU_REG_PMSFCR_EL1] & SPU_F_PMSFCR_EL1_FL_MASK)
        rej = minlat != 0 ? !is_lat : badpmsfcr(cfg, SPU_KNOB_CU_FL);
    o->why |= (uint8_t)(rej << SPU_WHY_LAT);
}

/* SPEFilterByDataSource(): loads (Load, LoadAtomic: LD without B) that have a
 * data source; PMSDSFR_EL1<ds<5:0>>. */
static void filter_by_data_source(const spu_config_t *cfg, const uint64_t *r,
                                  const spu_record_in_t *in, spu_record_out_t *o)
{
    const int is_load = ((in->type >> SPU_T_LD) & 1u) && !((in->type >> SPU_T_B) & 1u);
    if (!(cfg->features & SPU_FEAT_FDS) || !in->ds_valid || !is_load)
        return;
    const int is_ds = (int)((r[SPU_REG_PMSDSFR_EL1] >> (in->ds & 0x3Fu)) & 1u);
    if (is_ds)
        o->pmu[SPU_PMU_FEED_DS] = 1;
    if (r[SPU_REG_PMSFCR_EL1] & SPU_F_PMSFCR_EL1_FDS_MASK)
        o->why |= (uint8_t)(!is_ds << SPU_WHY_DS);
}

/* SPECollectRecord(): every filter is evaluated (so every SAMPLE_FEED_* event
 * is raised whatever FE/FnE/FT/FL/FDS say); the result is the AND. Events a
 * configuration does not implement are cleared at the end. */
void spu_collect_record(const spu_config_t *cfg, const uint64_t *regs,
                        const spu_record_in_t *in, spu_record_out_t *out)
{
    static const spu_record_out_t zero;
    *out = zero;
    filter_by_events(cfg, regs, in->events, out);
    filter_by_type(cfg, regs, in->type, out);
    filter_by_latency(cfg, regs, in->total_latency, out);
    filter_by_data_source(cfg, regs, in, out);
    out->collect = out->why == 0;
    if (out->collect)
        out->pmu[SPU_PMU_FILTRATE] = 1;
    for (int i = 0; i < SPU_NPMU; i++)
        if (!spu_pmu_implemented(cfg, i))
            out->pmu[i] = 0;
}
