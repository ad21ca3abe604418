/*
 * Functional coverage (cov.h): one cycle's sample, each bin hit from the
 * model's state before the cycle, its inputs and outputs and the state
 * after it. The bins are laid out in cov_bins.c.
 */
#include <inttypes.h>
#include <string.h>

#include "cov_priv.h"
#include "spe_pkt.h"

/* ---------------------------------------------------------- sampling */

static void hit(spu_cov_t *c, unsigned i)
{
    cov_bin_t *b = &c->bin[i];
    b->hits++;
    if (b->hits == 1)
        b->at[0] = c->cycle;
    else if (b->hits == 10)
        b->at[1] = c->cycle;
    else if (b->hits == 100)
        b->at[2] = c->cycle;
}

/* The packets of one record, decoded (sim/spe_pkt.c) from the model's bytes. */
static void sample_packets(spu_cov_t *c, const uint64_t *r, const spu_in_t *in, const uint8_t *buf, unsigned len,
                           unsigned p)
{
    size_t off = 0;
    char err[SPE_PKT_ERR_LEN];
    spe_pkt_t k;
    int pad = 0;
    while (off < len && spe_pkt_next(buf, len, off, &k, err)) {
        off += k.size;
        switch (k.kind) {
        case SPE_PKT_PAD: pad = 1; break;
        case SPE_PKT_END: hit(c, c->b_pkt + P_END); break;
        case SPE_PKT_TIMESTAMP: hit(c, c->b_pkt + P_TIMESTAMP); break;
        case SPE_PKT_CONTEXT: hit(c, c->b_pkt + P_CONTEXT); break;
        case SPE_PKT_DATA_SOURCE: hit(c, c->b_pkt + P_DATA_SOURCE); break;
        case SPE_PKT_COUNTER: hit(c, c->b_pkt + (k.index == SPE_CNT_TOTAL ? P_TOTAL : P_ISSUE)); break;
        case SPE_PKT_EVENTS:
            hit(c, c->b_evsz + (unsigned)__builtin_ctz(k.payload_size));
            break;
        case SPE_PKT_ADDRESS: {
            static const unsigned a[5] = {P_PC, P_TARGET, P_DATA_VA, P_DATA_PA, P_PREV_TARGET};
            if (k.index < 5)
                hit(c, c->b_pkt + a[k.index]);
            break;
        }
        case SPE_PKT_OP_TYPE: {
            const unsigned v = (unsigned)k.payload;
            unsigned o;
            if (k.index == SPE_OP_BRANCH)
                o = O_BRANCH + (v & 3u);
            else if (k.index == SPE_OP_OTHER)
                o = (v & 0x89u) == 0x08u ? O_SVE_OTHER : O_OTHER + (v & 1u);
            else if ((v & 0x0Au) == 0x08u)
                o = O_SVE_LD + (v & 1u);
            else if ((v & 0xE2u) == 0x02u)
                o = (v & 4u) ? O_ATOMIC : (v & 8u) ? O_EXCL : O_AR;
            else
                o = ((v & 0xFEu) == 0x04u ? O_LD_SIMDFP : O_LD_GP) + (v & 1u);
            hit(c, c->b_op + o);
            break;
        }
        }
    }
    if (pad)
        hit(c, c->b_pkt + P_PADDING);
    if ((in->fin_addr_valid[p] & SPU_REC_PA) && !(r[SPU_REG_PMSCR_EL1] & SPU_F_PMSCR_EL1_PA_MASK))
        hit(c, c->b_pkt + P_DATA_PA_NOT_COLLECTED);
}

/* The ConstrainUnpredictableBool(Unpredictable_BADPMSFCR) cases a record meets. */
static void sample_cu(spu_cov_t *c, const uint64_t *r)
{
    const spu_config_t *cfg = c->cfg;
    const uint64_t fcr = r[SPU_REG_PMSFCR_EL1], m = cfg->event_mask;
    const uint64_t evfr = r[SPU_REG_PMSEVFR_EL1] & m, nevfr = r[SPU_REG_PMSNEVFR_EL1] & m;
    const int fe = (fcr & SPU_F_PMSFCR_EL1_FE_MASK) != 0;
    const int fne = has(cfg, SPU_FEAT_FNE) && (fcr & SPU_F_PMSFCR_EL1_FnE_MASK);
    if (fe && evfr == 0)
        hit(c, c->b_cu + CU_FE);
    if (fne && nevfr == 0)
        hit(c, c->b_cu + CU_FNE);
    if (fe && fne && (evfr & nevfr) != 0)
        hit(c, c->b_cu + CU_EVOVERLAP);
    if (!has(cfg, SPU_FEAT_EFT) && (fcr & SPU_F_PMSFCR_EL1_FT_MASK) && SPU_GET(fcr, PMSFCR_EL1, TYPE) == 0)
        hit(c, c->b_cu + CU_FT);
    if ((fcr & SPU_F_PMSFCR_EL1_FL_MASK) && spu_minlat(r) == 0)
        hit(c, c->b_cu + CU_FL);
}

/* One record: each filter passes or rejects, enabled or not (a disabled
 * filter is evaluated as if it were the only one enabled), and the type
 * filter's class of each type bit. */
static void sample_record(spu_cov_t *c, const uint64_t *r, const spu_in_t *in, const spu_out_t *out, unsigned p)
{
    const spu_config_t *cfg = c->cfg;
    const uint64_t fcr = r[SPU_REG_PMSFCR_EL1];
    const uint8_t why = out->rec_why[p];
    const spu_record_in_t ri = {in->fin_events[p], out->rec_tot_lat[p], (uint8_t)(in->fin_type[p] & 0x1Fu),
                                (uint8_t)((in->fin_ds_valid >> p) & 1u), in->fin_ds[p]};
    for (int f = 0; f < F_DISCARD; f++) {
        const int en = (fcr & filt_bit[f]) != 0;
        int rej;
        if (en) {
            rej = (why >> f) & 1u;
        } else {
            uint64_t alone[SPU_NREGS];
            spu_record_out_t ro;
            memcpy(alone, r, sizeof alone);
            alone[SPU_REG_PMSFCR_EL1] = (fcr & ~FILTER_BITS) | (filt_bit[f] & cfg->wmask[SPU_REG_PMSFCR_EL1]);
            spu_collect_record(cfg, alone, &ri, &ro);
            rej = (ro.why >> f) & 1u;
        }
        if ((f == F_NEV && !has(cfg, SPU_FEAT_FNE)) || (f == F_DS && !has(cfg, SPU_FEAT_FDS)))
            continue;
        hit(c, c->b_filt + (unsigned)((f * 2 + en) * 2 + rej));
    }
    const int discard = (why >> SPU_WHY_DISCARD) & 1u;
    if (has(cfg, SPU_FEAT_V1P2))
        hit(c, c->b_filt + (unsigned)((F_DISCARD * 2 + discard) * 2 + discard));
    if (fcr & SPU_F_PMSFCR_EL1_FT_MASK) {
        uint32_t ctrl, mask;
        spu_type_ctrl_mask(cfg, fcr, &ctrl, &mask);
        const int rej = (why >> SPU_WHY_TYPE) & 1u;
        for (unsigned bit = 0; bit < 5; bit++) {
            const unsigned k = ((ctrl >> bit) & 1u) | ((mask >> bit) & 1u) << 1;
            hit(c, c->b_eft + (bit * 4 + k) * 2 + (unsigned)rej);
        }
    }
    sample_cu(c, r);
    const uint32_t cmax = (1u << cfg->count_size) - 1u;
    if (out->rec_tot_lat[p] == cmax)
        hit(c, c->b_lat);
    if (out->rec_iss_lat[p] == cmax)
        hit(c, c->b_lat + 1);
}

/* SPEToCollectSample() replayed member by member from the start-of-cycle
 * state, so that events inside a cycle (a reload, a draw, ECOUNT) are seen.
 * Returns the lanes selected. */
static uint8_t replay_members(spu_cov_t *c, const spu_model_t *b, const spu_in_t *in, int en)
{
    const spu_config_t *cfg = c->cfg;
    const uint64_t irr = b->reg[SPU_REG_PMSIRR_EL1];
    const int rnd = (irr & SPU_F_PMSIRR_EL1_RND_MASK) != 0;
    const int ernd = rnd && has(cfg, SPU_FEAT_ERND);
    const int int0 = SPU_GET(irr, PMSIRR_EL1, INTERVAL) == 0;
    uint64_t icr = b->reg[SPU_REG_PMSICR_EL1];
    uint32_t lfsr = b->lfsr;
    uint8_t sel = 0;
    if (!en)
        return 0;
    if (!b->prev_en && icr == 0) {
        spu_interval_edge_load(cfg, irr, &icr, &lfsr);
        hit(c, c->b_ctr + C_EDGE_LOAD);
        if (int0)
            hit(c, c->b_cu + CU_INTERVAL0);
    }
    for (unsigned l = 0; l < cfg->lanes; l++) {
        if (!((in->pop_valid >> l) & 1u))
            continue;
        const uint64_t c0 = SPU_GET(icr, PMSICR_EL1, COUNT), e0 = SPU_GET(icr, PMSICR_EL1, ECOUNT);
        const int s = spu_to_collect_sample(cfg, irr, &icr, &lfsr);
        if (c0 == 0) {
            hit(c, c->b_ctr + C_RELOAD);
            if (int0)
                hit(c, c->b_cu + CU_INTERVAL0);
        } else if (c0 == 1) {
            if (!ernd) {
                hit(c, c->b_ctr + (rnd ? C_EXPIRE_RND1 : C_EXPIRE_RND0));
            } else if (s) {
                hit(c, c->b_ctr + C_ERND_ZERO_AT_ONCE);
            } else {
                hit(c, c->b_ctr + C_ERND_LOAD);
                c->ecount_load = c->cycle;
            }
        }
        if (ernd && c0 != 1 && e0 != 0) {
            if (!s)
                hit(c, c->b_ctr + C_ERND_COUNTDOWN);
            else if (c->ecount_load == UINT64_MAX)
                hit(c, c->b_ctr + C_ERND_EXPIRE_WRITTEN);
            else
                hit(c, c->b_ctr + (c->ecount_load == c->cycle ? C_ERND_EXPIRE_SAME : C_ERND_EXPIRE_LATER));
        }
        if (s) {
            sel |= (uint8_t)(1u << l);
            hit(c, c->b_ctr + (!rnd ? C_SEL_RND0 : ernd ? C_SEL_ERND : C_SEL_RND1));
        }
    }
    return sel;
}

static void sample_reg(spu_cov_t *c, const spu_in_t *in)
{
    const spu_config_t *cfg = c->cfg;
    const int idx = spu_reg_find(in->reg_enc);
    if (idx < 0) {
        hit(c, c->b_regx + (in->reg_write ? 1u : 0u));
        return;
    }
    const unsigned b = c->b_reg + 3u * (unsigned)idx;
    hit(c, b + (in->reg_write ? 1u : 0u));
    if (in->reg_write && cfg->present[idx] && spu_reg_access_ok(cfg, idx, 1)) {
        if (in->reg_wdata & ~cfg->wmask[idx])
            hit(c, b + 2);
        if (idx == SPU_REG_PMSICR_EL1)
            c->ecount_load = UINT64_MAX; /* ECOUNT now comes from software */
    }
}

/* What becomes of the records that waited at the start of the cycle (b):
 * every kept record waits in its finish cycle and meets the reservation
 * from the next one on (docs/buffer.md). One that does not enter then has
 * waited (wait_failed) until it enters or is discarded. A record that
 * entered keeps its slot while the encoder reads it, so entering is told
 * by rec_wr_o, not by the slot. */
static void sample_reserve(spu_cov_t *c, const spu_model_t *b, const spu_out_t *out, const spu_model_t *a)
{
    const int en_at_start = (b->reg[SPU_REG_PMBLIMITR_EL1] & SPU_F_PMBLIMITR_EL1_E_MASK) &&
                            !(b->reg[SPU_REG_PMBSR_EL1] & SPU_F_PMBSR_EL1_S_MASK);
    for (unsigned k = 0; k < b->wq_n; k++) {
        const unsigned s = b->wq[k];
        const uint8_t bit = (uint8_t)(1u << s);
        const int failed = (c->wait_failed & bit) != 0;
        if (!(out->rec_wr & bit) && a->slot[s].waiting) { /* no entry: waits on */
            c->wait_failed |= bit;
            continue;
        }
        c->wait_failed &= (uint8_t)~bit;
        if (out->rec_wr & bit)
            hit(c, c->b_buf + (failed ? B_WAITED : B_WRITTEN));
        else
            hit(c, c->b_buf + (failed ? B_WAITED_DISCARDED : en_at_start ? B_FULL_EARLIER : B_STOPPED));
    }
}

static void sample_buffer(spu_cov_t *c, const spu_model_t *b, const spu_in_t *in, const spu_out_t *out,
                          const spu_model_t *a)
{
    if (b->wq_n)
        sample_reserve(c, b, out, a);
    for (unsigned p = 0; p < c->cfg->slots; p++) /* discarded at its finish (D17.4) */
        if (out->rec_len[p] && !a->slot[out->rec_slot[p]].waiting)
            hit(c, c->b_buf + B_STOPPED);
    if (c->wait_failed && out->col_valid)
        hit(c, c->b_buf + B_WAIT_COLLISION);
    if (__builtin_popcount(c->wait_failed) >= 2)
        hit(c, c->b_buf + B_WAIT_TWO);
    /* a write filled the buffer (the model's step says so; S may also be
     * written by an MSR in the same cycle) */
    if (a->filled)
        hit(c, c->b_buf + B_FULL);
    /* members stopped by a waiting record that fills the buffer later */
    if (a->stopped && !a->filled && out->obs_enabled && (in->pop_valid & ((1u << c->cfg->lanes) - 1u)))
        hit(c, c->b_buf + B_STOP_AHEAD);
    if (c->beat_shown && !in->mem_ready)
        hit(c, c->b_buf + B_BEAT_STALLED);
    if (out->mem_valid)
        hit(c, c->b_buf + (out->mem_strb == 0xFFu ? B_BEAT_WHOLE : B_BEAT_PARTIAL));
    c->beat_shown = out->mem_valid;
}

/* The slots free for selection from this cycle on: those finished (b to
 * a) whose records do not wait, and those whose waiting records entered
 * the write queue or were discarded (docs/buffer.md). */
static uint8_t slots_released(const spu_cov_t *c, const spu_model_t *b, const spu_model_t *a, uint8_t finished)
{
    uint8_t waits = 0, waited = 0;
    for (unsigned s = 0; s < c->cfg->slots; s++) {
        waits |= (uint8_t)(a->slot[s].waiting << s);
        waited |= (uint8_t)(b->slot[s].waiting << s);
    }
    return (uint8_t)((finished | waited) & ~waits);
}

void cov_sample(spu_cov_t *c, const spu_model_t *b, const spu_in_t *in, const spu_out_t *out,
                const spu_model_t *a)
{
    const spu_config_t *cfg = c->cfg;
    uint8_t busy = 0;
    for (unsigned s = 0; s < cfg->slots; s++)
        busy |= (uint8_t)(b->slot[s].busy << s);
    if (!in->rst_n) {
        hit(c, c->b_reset + (busy ? 0u : 1u));
        c->freed_last = 0;
        c->beat_shown = 0;
        c->wait_failed = 0;
        c->ecount_load = UINT64_MAX;
        c->cycle++;
        return;
    }
    const int en = out->obs_enabled;
    hit(c, c->b_busy + (unsigned)__builtin_popcount(busy));
    if (en != b->prev_en)
        hit(c, c->b_edge + (en ? 0u : 2u) + (b->reg[SPU_REG_PMSICR_EL1] != 0));

    /* Finishes: the slots they free (the lower port wins a doubly named
     * slot), then those whose records wait, or waited (slots_released()). */
    uint8_t freed = 0;
    for (unsigned p = 0; p < cfg->slots; p++) {
        const unsigned s = in->fin_slot[p];
        if (!((in->fin_valid >> p) & 1u) || s >= cfg->slots || !(((busy & ~freed) >> s) & 1u))
            continue;
        freed |= (uint8_t)(1u << s);
        hit(c, c->b_slot + s * NSLOTBIN + S_FREE);
        if (!en)
            hit(c, c->b_fin + FIN_DISABLED);
        for (unsigned q = 0; q < cfg->slots; q++)
            if (((in->iss_valid >> q) & 1u) && in->iss_slot[q] == s && !b->slot[s].issued)
                hit(c, c->b_fin + FIN_ISSUE_SAME);
    }
    freed = slots_released(c, b, a, freed);
    for (unsigned p = 0; p < cfg->slots; p++) {
        if ((out->rec_valid >> p) & 1u)
            sample_record(c, b->reg, in, out, p);
        if (out->rec_len[p])
            sample_packets(c, b->reg, in, spu_model_record(a, out->rec_slot[p]), out->rec_len[p], p);
    }

    /* Selections, and the slots and collisions they lead to. */
    /* a waiting record that fills the buffer stops the members */
    const uint8_t sel = replay_members(c, b, in, en && !a->stopped);
    if (sel != (out->smp_valid | out->col_valid) && !c->bad) {
        c->bad = 1;
        c->bad_cycle = c->cycle;
    }
    if (sel)
        hit(c, c->b_selk + (unsigned)__builtin_popcount(sel) - 1u);
    for (unsigned l = 0; l < cfg->lanes; l++) {
        if ((out->smp_valid >> l) & 1u) {
            const unsigned s = out->smp_slot[l];
            hit(c, c->b_sel + l);
            hit(c, c->b_slot + s * NSLOTBIN + S_ALLOC);
            if ((freed >> s) & 1u)
                hit(c, c->b_slot + s * NSLOTBIN + S_REUSE_SAME);
            else if ((c->freed_last >> s) & 1u)
                hit(c, c->b_slot + s * NSLOTBIN + S_REUSE_NEXT);
        }
        if ((out->col_valid >> l) & 1u) {
            hit(c, c->b_sel + l);
            hit(c, c->b_col + l);
            if (freed)
                hit(c, c->b_col + cfg->lanes);
        }
    }
    sample_buffer(c, b, in, out, a);
    if (in->reg_valid)
        sample_reg(c, in);
    for (int i = 0; i < SPU_NPMU; i++)
        if (out->pmu[i])
            hit(c, c->b_pmu + (unsigned)i);
    c->freed_last = freed;
    c->cycle++;
}

