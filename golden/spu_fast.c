/*
 * The golden model's fast entry points (spu_fast.h): a plain cycle counted
 * without the steps that cannot happen in it, and blocks of plain cycles
 * counted at once. Each gives the outputs and state of the reference step
 * (spu_model_step_full(), spu_model.c); tests/spec/spec_skip.c holds them
 * to it side by side. A separate file from the reference, so that a plain
 * cycle does not pay for the full step's registers (no inlining across
 * files, with no compiler hint).
 */
#include <string.h>

#include "spu_fast.h"
#include "spu_internal.h"

/* n plain cycles pass: nothing filled or stopped, and the cycles held
 * after a limit write (docs/buffer.md) run out. */
static inline void pass_plain(spu_model_t *m, uint64_t n)
{
    m->filled = 0;
    m->stopped = 0;
    m->stop_next = 0;
    if (n)
        m->buf_stale2 = n == 1 ? m->buf_stale : 0;
    m->buf_stale = 0;
    m->cycle += n;
}

/* A plain cycle: no reset, register access, issue or finish, no record
 * waiting, no write beat queued, no enable edge, and no member of it selected (at most
 * spu_interval_quiet() members). Of the steps of spu_model_step_full()
 * it then only takes the counting of its members: the counting spu_model_skip() does for many cycles, for one.
 * Returns 0, having changed nothing, for any other cycle. */
static inline int step_plain(spu_model_t *m, const spu_in_t *in, spu_out_t *out)
{
    if (!in->rst_n || in->reg_valid || in->iss_valid || in->fin_valid || m->wq_n || spu_write_busy(m))
        return 0;
    const int en = spu_model_enabled(m, in->el, in->prof_allowed);
    if (en != m->prev_en)
        return 0;
    unsigned n = 0;
    if (en) {
        const spu_config_t *cfg = &m->cfg;
        n = spu_ones8(in->pop_valid & ((1u << cfg->lanes) - 1u));
        if (n && !spu_interval_count(cfg, m->reg[SPU_REG_PMSIRR_EL1], &m->reg[SPU_REG_PMSICR_EL1], n))
            return 0;
    }
    spu_out_clear(out);
    out->pmu[SPU_PMU_POP] = (uint8_t)n;
    spu_step_outputs(m, en, out);
    pass_plain(m, 1);
    return 1;
}

int spu_fast_step(spu_model_t *m, const spu_in_t *in, spu_out_t *out)
{
    if (step_plain(m, in, out))
        return 1;
    spu_model_step_full(m, in, out);
    return 0;
}

int spu_model_settled(const spu_model_t *m, uint8_t el, uint8_t prof_allowed)
{
    return spu_model_enabled(m, el, prof_allowed) == m->prev_en && !m->wq_n && !spu_write_busy(m);
}

uint64_t spu_model_quiet_pops(const spu_model_t *m, uint8_t el, uint8_t prof_allowed)
{
    if (!spu_model_enabled(m, el, prof_allowed))
        return UINT64_MAX;
    return spu_interval_quiet(&m->cfg, m->reg[SPU_REG_PMSIRR_EL1], m->reg[SPU_REG_PMSICR_EL1]);
}

int spu_model_skip(spu_model_t *m, uint64_t ncycles, uint64_t npops, uint8_t el, uint8_t prof_allowed)
{
    if (!spu_model_settled(m, el, prof_allowed) || npops > spu_model_quiet_pops(m, el, prof_allowed))
        return -1;
    if (m->prev_en)
        spu_interval_advance(&m->cfg, m->reg[SPU_REG_PMSIRR_EL1], &m->reg[SPU_REG_PMSICR_EL1], npops);
    pass_plain(m, ncycles);
    return 0;
}

int spu_model_block(spu_model_t *m, spu_block_t *b, unsigned k)
{
    if (k > SPU_BLOCK_MAX || !spu_model_settled(m, b->el, b->prof_allowed))
        return -1;
    uint8_t *npop = b->npop;
    uint64_t *pmsicr = b->pmsicr;
    const spu_config_t *cfg = &m->cfg;
    const uint64_t irr = m->reg[SPU_REG_PMSIRR_EL1];
    uint64_t icr = m->reg[SPU_REG_PMSICR_EL1];
    if (!m->prev_en) { /* disabled: nothing counted (spu_model_skip()) */
        memset(npop, 0, k);
        for (unsigned i = 0; i < k; i++)
            pmsicr[i] = icr;
    } else {
        const uint8_t lanes = (uint8_t)((1u << cfg->lanes) - 1u);
        uint64_t total = 0;
        for (unsigned i = 0; i < k; i++)
            total += npop[i] = (uint8_t)spu_ones8(b->pop_mask[i] & lanes);
        if (total > spu_interval_quiet(cfg, irr, icr))
            return -1;
        spu_interval_advance_each(cfg, irr, &icr, npop, k, pmsicr);
        m->reg[SPU_REG_PMSICR_EL1] = icr;
    }
    pass_plain(m, k);
    return 0;
}
