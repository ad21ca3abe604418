/*
 * The sample interval counter: SPEToCollectSample(), SPEResetSampleCounter()
 * and SPEGetRandomInterval() of the M.a.a pseudocode, D17.3. PMSICR_EL1 = {ECOUNT,
 * RES0, COUNT}; every field position comes from the generated SPU_F_* macros.
 */
#include "spu_internal.h"

#define ICR_COUNT SPU_F_PMSICR_EL1_COUNT_MASK
#define ICR_ECOUNT SPU_F_PMSICR_EL1_ECOUNT_MASK
#define ICR_ECOUNT_LSB SPU_F_PMSICR_EL1_ECOUNT_LSB
#define IRR_RND SPU_F_PMSIRR_EL1_RND_MASK

/* SPEGetRandomInterval(): the 24-bit LFSR of the 2023-03 ASL, one step per
 * draw (docs/semantics.md; knob LFSR_SEED gives the reset state). Per bit,
 * new<j> = L<9+j> ^ L<14+j> ^ L<15+j> ^ L<16+j>; L = L<15:0> : new. */
uint8_t spu_lfsr_draw(uint32_t *lfsr)
{
    uint32_t l = *lfsr;
    uint32_t nb = ((l >> 9) ^ (l >> 14) ^ (l >> 15) ^ (l >> 16)) & 0xFFu;
    l = ((l << 8) | nb) & 0xFFFFFFu;
    *lfsr = l;
    return (uint8_t)(l >> 16);
}

/* PMSIRR_EL1.INTERVAL as the counter uses it: the UNKNOWN interval of
 * INTERVAL == 0 is knob INTERVAL0 (impl-defined.md). */
static uint32_t interval_of(const spu_config_t *cfg, uint64_t pmsirr)
{
    uint32_t interval = (uint32_t)SPU_GET(pmsirr, PMSIRR_EL1, INTERVAL);
    if (interval == 0 && cfg->knob[SPU_KNOB_INTERVAL0])
        interval = 1;
    return interval;
}

/* SPEResetSampleCounter(): COUNT<31:8> = INTERVAL; COUNT<7:0> = random byte
 * when RND == 1 without FEAT_SPE_ERnd, else zero. ECOUNT is untouched. */
static void reset_sample_counter(const spu_config_t *cfg, uint64_t pmsirr,
                                 uint64_t *pmsicr, uint32_t *lfsr)
{
    /* INTERVAL is "Bits [31:8] of the PMSICR_EL1 interval counter reload
     * value": COUNT<31:8>, at the same bits as in PMSIRR_EL1. */
    uint32_t count = interval_of(cfg, pmsirr) << SPU_F_PMSIRR_EL1_INTERVAL_LSB;
    if ((pmsirr & IRR_RND) && !(cfg->features & SPU_FEAT_ERND))
        count |= spu_lfsr_draw(lfsr);
    *pmsicr = (*pmsicr & ~ICR_COUNT) | count;
}

/* The enable-edge load of D17.3.3, also SPEResetSampleCounter(). */
void spu_interval_edge_load(const spu_config_t *cfg, uint64_t pmsirr,
                            uint64_t *pmsicr, uint32_t *lfsr)
{
    reset_sample_counter(cfg, pmsirr, pmsicr, lfsr);
}

static uint32_t ecount_of(uint64_t icr) { return (uint32_t)SPU_GET(icr, PMSICR_EL1, ECOUNT); }

static uint64_t with_ecount(uint64_t icr, uint32_t e)
{
    return (icr & ~ICR_ECOUNT) | (((uint64_t)e << ICR_ECOUNT_LSB) & ICR_ECOUNT);
}

/* COUNT has just been decremented to zero: select, or with ERnd load ECOUNT
 * with a random byte and select iff it is zero (M.a.a). */
static int count_reached_zero(int ernd, uint64_t *pmsicr, uint32_t *lfsr)
{
    if (!ernd)
        return 1;
    uint32_t e = spu_lfsr_draw(lfsr);
    *pmsicr = with_ecount(*pmsicr, e);
    return e == 0;
}

/* SPEToCollectSample() for one member of the population; 1 = select it.
 * Where COUNT reloads relative to the random tail (D17.3.1 step 4) is not a
 * free choice here: PMSIDR_EL1.ERnd reports it. With FEAT_SPE_ERnd the new
 * interval starts when INTERVAL expires (COUNT reloads on the next member
 * while ECOUNT counts the tail, the M.a.a text); without it the random number
 * is added at the start of the interval (SPEResetSampleCounter()). */
int spu_to_collect_sample(const spu_config_t *cfg, uint64_t pmsirr,
                          uint64_t *pmsicr, uint32_t *lfsr)
{
    const int ernd = (pmsirr & IRR_RND) && (cfg->features & SPU_FEAT_ERND);
    uint32_t count = (uint32_t)(*pmsicr & ICR_COUNT);

    if (count == 0) {
        reset_sample_counter(cfg, pmsirr, pmsicr, lfsr);
    } else {
        count--;
        *pmsicr = (*pmsicr & ~ICR_COUNT) | count;
        if (count == 0)
            return count_reached_zero(ernd, pmsicr, lfsr);
    }
    /* M.a.a: the ECOUNT test is at function level, so it also runs on the
     * call that reloads COUNT (D17.3.4.3: the secondary counter "decrements
     * by 1 for each member of the sample population"). */
    if (ernd && ecount_of(*pmsicr) != 0) {
        uint32_t e = ecount_of(*pmsicr) - 1;
        *pmsicr = with_ecount(*pmsicr, e);
        if (e == 0)
            return 1;
    }
    return 0;
}

/* Members that can be counted from this PMSICR with no selection, no draw and
 * no reload: COUNT (and ECOUNT while it runs) stay nonzero. */
uint64_t spu_interval_quiet(const spu_config_t *cfg, uint64_t pmsirr, uint64_t pmsicr)
{
    const int ernd = (pmsirr & IRR_RND) && (cfg->features & SPU_FEAT_ERND);
    uint64_t count = pmsicr & ICR_COUNT;
    uint64_t e = ecount_of(pmsicr);
    if (ernd && e != 0) {
        if (count == 0)
            return 0;                     /* next member reloads */
        return (count < e ? count : e) - 1;
    }
    return count == 0 ? 0 : count - 1;
}

/* Count n quiet members (n <= spu_interval_quiet()). */
void spu_interval_advance(const spu_config_t *cfg, uint64_t pmsirr, uint64_t *pmsicr, uint64_t n)
{
    const int ernd = (pmsirr & IRR_RND) && (cfg->features & SPU_FEAT_ERND);
    uint64_t count = *pmsicr & ICR_COUNT;
    uint32_t e = ecount_of(*pmsicr);
    if (n == 0)
        return;
    if (ernd && e != 0)
        *pmsicr = with_ecount(*pmsicr, e - (uint32_t)n);
    *pmsicr = (*pmsicr & ~ICR_COUNT) | (count - n);
}

void spu_interval_advance_each(const spu_config_t *cfg, uint64_t pmsirr, uint64_t *pmsicr, const uint8_t *n,
                               unsigned k, uint64_t *after)
{
    uint64_t icr = *pmsicr;
    for (unsigned i = 0; i < k; i++) {
        spu_interval_advance(cfg, pmsirr, &icr, n[i]);
        after[i] = icr;
    }
    *pmsicr = icr;
}

int spu_interval_count(const spu_config_t *cfg, uint64_t pmsirr, uint64_t *pmsicr, unsigned n)
{
    if (n > spu_interval_quiet(cfg, pmsirr, *pmsicr))
        return 0;
    spu_interval_advance(cfg, pmsirr, pmsicr, n);
    return 1;
}
