/*
 * The unit, one clock cycle at a time: SPEStartSample() per population member
 * (in lane order), SPECompleteSample() per finish event, the enable edge, the
 * register port and the sample slots, in the order of docs/semantics.md.
 */
#include <stdio.h>
#include <string.h>

#include "spu_internal.h"

int spu_model_init(spu_model_t *m, const spu_config_t *cfg, char *err, size_t errlen)
{
    if (!m || !cfg) {
        if (err && errlen)
            snprintf(err, errlen, "%s", !m ? "no model storage given"
                                           : "no configuration given (spu_config_find() returns NULL for an unknown name)");
        return -1;
    }

    if (cfg->lanes < 1 || cfg->lanes > SPU_MAX_LANES || cfg->slots < 1 ||
        cfg->slots > SPU_MAX_SLOTS || (cfg->count_size != 12 && cfg->count_size != 16)) {
        if (err)
            snprintf(err, errlen, "configuration '%s' out of range (lanes %u, slots %u, count size %u)",
                     cfg->name, cfg->lanes, cfg->slots, cfg->count_size);
        return -1;
    }
    char why[128];
    if (spu_config_knobs_ok(cfg, why, sizeof why)) {
        if (err)
            snprintf(err, errlen, "configuration '%s': %s", cfg->name, why);
        return -1;
    }
    memset(m, 0, sizeof *m);
    m->cfg = *cfg;
    spu_model_reset(m);
    return 0;
}

/* Every register reads 0 after reset (impl-defined.md: UNKNOWN reset values
 * are zero), so PMBLIMITR_EL1.E = 0 and profiling is off. */
void spu_model_reset(spu_model_t *m)
{
    memset(m->reg, 0, sizeof m->reg);
    memset(m->slot, 0, sizeof m->slot);
    m->wq_n = 0;
    m->enc.busy = 0;
    m->bq_head = m->bq_n = m->port_valid = 0;
    m->lfsr = m->cfg.knob[SPU_KNOB_LFSR_SEED];
    m->prev_en = 0;
    m->filled = 0;
    m->stopped = 0;
    m->stop_next = 0;
    m->buf_stale = 1;
    m->buf_stale2 = 1;
    m->cycle = 0;
}

/* StatisticalProfilingEnabled() for this unit: the owning EL is EL1, so EL2
 * and EL3 are never enabled; prof_allowed stands for the security state and
 * the EL2/EL3 controls; ProfilingBufferEnabled() is PMBLIMITR.E && !PMBSR.S. */
int spu_model_enabled(const spu_model_t *m, uint8_t el, uint8_t prof_allowed)
{
    const uint64_t *r = m->reg;
    int spe_bit = 0;
    if (el == 0)
        spe_bit = (r[SPU_REG_PMSCR_EL1] & SPU_F_PMSCR_EL1_E0SPE_MASK) != 0;
    else if (el == 1)
        spe_bit = (r[SPU_REG_PMSCR_EL1] & SPU_F_PMSCR_EL1_E1SPE_MASK) != 0;
    return prof_allowed && (r[SPU_REG_PMBLIMITR_EL1] & SPU_F_PMBLIMITR_EL1_E_MASK) &&
           !(r[SPU_REG_PMBSR_EL1] & SPU_F_PMBSR_EL1_S_MASK) && spe_bit;
}

static uint32_t saturate(const spu_model_t *m, uint64_t v)
{
    const uint32_t cmax = (1u << m->cfg.count_size) - 1u;
    return v > cmax ? cmax : (uint32_t)v;
}

/* Step 1: the register port's read half (value at the start of the cycle). */
static void reg_port_read(const spu_model_t *m, const spu_in_t *in, spu_out_t *out)
{
    if (!in->reg_valid)
        return;
    const int idx = spu_reg_find(in->reg_enc);
    if (!spu_reg_access_ok(&m->cfg, idx, in->reg_write))
        out->reg_undef = 1;
    else if (!in->reg_write)
        out->reg_rdata = spu_model_reg_read(m, idx);
}

/* Step 4: SPECompleteSample() for each finish port; a kept record waits for
 * the Profiling Buffer from the next cycle on, or is discarded when the
 * buffer is disabled or stopped at the start of the cycle (buf_on = 0).
 * Returns the slots freed: those finished without a waiting record. */
static uint8_t complete_samples(spu_model_t *m, const spu_in_t *in, int en, int buf_on, spu_out_t *out)
{
    const spu_config_t *cfg = &m->cfg;
    const int discard = (cfg->features & SPU_FEAT_V1P2) &&
                        ((m->reg[SPU_REG_PMBLIMITR_EL1] & SPU_F_PMBLIMITR_EL1_FM_MASK) >>
                         SPU_F_PMBLIMITR_EL1_FM_LSB) == 2u;
    uint8_t freed = 0;
    for (unsigned p = 0; p < cfg->slots; p++) {
        const unsigned s = in->fin_slot[p];
        if (!((in->fin_valid >> p) & 1u) || s >= cfg->slots || !m->slot[s].busy)
            continue;
        spu_slot_t *sl = &m->slot[s];
        sl->busy = 0;
        freed |= (uint8_t)(1u << s);
        const uint32_t tot = saturate(m, m->cycle - sl->entry);
        spu_record_in_t ri = {in->fin_events[p], tot, in->fin_type[p] & 0x1Fu,
                              (uint8_t)((in->fin_ds_valid >> p) & 1u), in->fin_ds[p]};
        spu_record_out_t ro;
        spu_collect_record(cfg, m->reg, &ri, &ro);
        out->pmu[SPU_PMU_FEED]++;
        for (int i = 0; i < SPU_NPMU; i++)
            out->pmu[i] += ro.pmu[i];
        /* Knob INFLIGHT = 1: profiling was disabled while the sample was in
         * flight, so its record is dropped (D17.4); the events above count it
         * all the same (D14.3: samples "not written to the Profiling Buffer
         * are counted"). */
        if (cfg->knob[SPU_KNOB_INFLIGHT] && !en)
            continue;
        const uint8_t why = (uint8_t)(ro.why | discard << SPU_WHY_DISCARD);
        out->rec_valid |= (uint8_t)(1u << p);
        out->rec_keep |= (uint8_t)((why == 0) << p);
        out->rec_slot[p] = (uint8_t)s;
        out->rec_why[p] = why;
        out->rec_tot_lat[p] = (uint16_t)tot;
        out->rec_iss_lat[p] = (uint16_t)(sl->issued ? sl->iss_lat : tot);
        if (why == 0) { /* SPEConstructRecord() */
            const uint8_t av = in->fin_addr_valid[p];
            const spu_rec_src_t rs = {
                .pc = in->fin_pc[p], .tgt = in->fin_tgt[p], .va = in->fin_va[p],
                .pa = in->fin_pa[p], .pbt = in->fin_pbt[p], .events = ri.events, .ts = in->ts,
                .ctx = in->fin_ctx[p], .tot_lat = out->rec_tot_lat[p], .iss_lat = out->rec_iss_lat[p],
                .ds = ri.ds, .valid = (uint8_t)((av & ((1u << SPU_REC_ADDR_BITS) - 1u)) | (ri.ds_valid ? SPU_REC_DS : 0)),
                .type = ri.type, .attr = in->fin_attr[p], .el = sl->el, .cx = sl->cx};
            /* the record is slot s's, whichever port finished it */
            m->rec_len[s] = out->rec_len[p] = (uint8_t)spu_record_build(cfg, m->reg, &rs, m->rec[s]);
            m->rec_pk[s] = spu_record_packets(cfg, m->reg, &rs);
            if (buf_on) { /* else D17.4: the buffer is disabled or stopped, discarded */
                spu_buffer_hold(m, s);
                freed &= (uint8_t)~(1u << s);
            }
        }
    }
    return freed;
}

/* Step 4 with the Profiling Buffer: the write port and the encoder; the
 * waiting records enter the write path, one while the encoder is idle, in
 * finish order; then this cycle's kept records join them, in port order
 * (docs/buffer.md). Returns the slots freed; bs: whether a record filled
 * the buffer, and the bytes that entered. */
static uint8_t records_step(spu_model_t *m, const spu_in_t *in, int en, spu_out_t *out, spu_bufstep_t *bs)
{
    spu_buffer_begin(m, bs);
    const int buf_on = bs->en;
    const int room = m->bq_n < m->cfg.knob[SPU_KNOB_BUF_BEATS];
    spu_port_step(m, in);
    uint8_t freed = spu_encode_step(m, room);
    if (m->wq_n)
        freed |= spu_buffer_waiting(m, bs, out);
    if (in->fin_valid)
        freed |= complete_samples(m, in, en, buf_on, out);
    return freed;
}

/* Step 5: issue events stop the issue-latency counter of their slot. */
static void issue_samples(spu_model_t *m, const spu_in_t *in)
{
    for (unsigned p = 0; p < m->cfg.slots; p++) {
        const unsigned s = in->iss_slot[p];
        if (!((in->iss_valid >> p) & 1u) || s >= m->cfg.slots)
            continue;
        spu_slot_t *sl = &m->slot[s];
        if (sl->busy && !sl->issued) {
            sl->issued = 1;
            sl->iss_lat = saturate(m, m->cycle - sl->entry);
        }
    }
}

/* Step 6: SPEStartSample() for each member, lanes in order. Returns 1 when a
 * collision set PMBSR.COLL. */
static int start_samples(spu_model_t *m, const spu_in_t *in, uint8_t avail,
                         uint64_t *icr, uint32_t *lfsr, spu_out_t *out)
{
    const spu_config_t *cfg = &m->cfg;
    /* SPESampleAddContext(): CONTEXTIDR_EL1 is collected when PMSCR_EL1.CX
     * is 1 and the PE is at EL1 or EL0 (no EL2: CollectContextIDR1()). */
    const uint8_t cx = (m->reg[SPU_REG_PMSCR_EL1] & SPU_F_PMSCR_EL1_CX_MASK) && in->el <= 1;
    int coll = 0;
    for (unsigned l = 0; l < cfg->lanes; l++) {
        if (!((in->pop_valid >> l) & 1u))
            continue;
        out->pmu[SPU_PMU_POP]++;
        if (!spu_to_collect_sample(cfg, m->reg[SPU_REG_PMSIRR_EL1], icr, lfsr))
            continue;
        if (avail == 0) { /* SPESampleCollision() */
            out->col_valid |= (uint8_t)(1u << l);
            out->pmu[SPU_PMU_COLLISION]++;
            coll = 1;
            continue;
        }
        const unsigned s = spu_lowest8(avail);
        avail &= (uint8_t)~(1u << s);
        m->slot[s] = (spu_slot_t){.busy = 1, .issued = 0, .el = in->el, .cx = cx, .iss_lat = 0,
                                  .entry = m->cycle};
        out->smp_valid |= (uint8_t)(1u << l);
        out->smp_slot[l] = (uint8_t)s;
    }
    return coll;
}

/* Steps 3 and 6: the enable edge and the members, unless a waiting record
 * fills the buffer (en_pop = 0: none is counted or selected and PMSICR_EL1
 * is not loaded, docs/semantics.md). freed: slots freed in step 4. */
static void population_step(spu_model_t *m, const spu_in_t *in, int en_pop, uint8_t freed,
                            spu_out_t *out)
{
    const spu_config_t *cfg = &m->cfg;
    uint64_t icr = m->reg[SPU_REG_PMSICR_EL1];
    uint32_t lfsr = m->lfsr;
    if (en_pop && !m->prev_en && icr == 0)
        spu_interval_edge_load(cfg, m->reg[SPU_REG_PMSIRR_EL1], &icr, &lfsr);
    int coll = 0;
    if (en_pop && in->pop_valid) {
        /* SLOT_REUSE: a slot freed this cycle serves this cycle's selections
         * only with knob value 1 (freed slots were busy or waiting at the
         * cycle start). A waiting slot is occupied. */
        uint8_t busy = 0;
        for (unsigned s = 0; s < cfg->slots; s++)
            busy |= (uint8_t)((m->slot[s].busy | m->slot[s].waiting) << s);
        if (!cfg->knob[SPU_KNOB_SLOT_REUSE])
            busy |= freed;
        const uint8_t avail = (uint8_t)(((1u << cfg->slots) - 1u) & ~busy);
        coll = start_samples(m, in, avail, &icr, &lfsr, out);
    }
    m->reg[SPU_REG_PMSICR_EL1] = icr;
    m->lfsr = lfsr;
    if (coll)
        m->reg[SPU_REG_PMBSR_EL1] |= SPU_F_PMBSR_EL1_COLL_MASK;
}

/* Step 7: a direct write wins over the unit's own update this cycle. After
 * an MSR PMBPTR_EL1 or PMBLIMITR_EL1 the next two cycles reserve no place
 * and hold the stop ahead of a fill: the unit recomputes its limit
 * (docs/buffer.md). */
static void reg_port_write(spu_model_t *m, const spu_in_t *in)
{
    m->buf_stale2 = m->buf_stale;
    m->buf_stale = 0;
    if (!in->reg_valid || !in->reg_write)
        return;
    const int idx = spu_reg_find(in->reg_enc);
    if (spu_model_reg_write(m, idx, in->reg_wdata) == 0)
        m->buf_stale = idx == SPU_REG_PMBPTR_EL1 || idx == SPU_REG_PMBLIMITR_EL1;
}

/* Each step of docs/semantics.md in turn, every cycle (spu_fast.h). */
void spu_model_step_full(spu_model_t *m, const spu_in_t *in, spu_out_t *out)
{
    spu_out_clear(out);
    if (!in->rst_n) {
        spu_model_reset(m);
        return;
    }
    reg_port_read(m, in, out);
    const int en = spu_model_enabled(m, in->el, in->prof_allowed);
    /* Most cycles have no event: test the strobes before walking ports. */
    const int stop = m->stop_next;
    const uint64_t ptr0 = m->reg[SPU_REG_PMBPTR_EL1];
    spu_bufstep_t bs = {.full = 0, .e = 0};
    const uint8_t freed = (in->fin_valid | m->wq_n | spu_write_busy(m)) ? records_step(m, in, en, out, &bs) : 0;
    if (in->iss_valid)
        issue_samples(m, in);
    m->filled = bs.full;
    m->stopped = (uint8_t)stop;
    population_step(m, in, en && !stop, freed, out);
    reg_port_write(m, in);
    m->stop_next = (uint8_t)spu_buffer_stop_next(m, ptr0, bs.e, stop, bs.full);

    m->prev_en = (uint8_t)en;
    spu_step_outputs(m, en, out);
    spu_port_show(m, out);
    m->cycle++;
}

static int fits(uint64_t v, unsigned w)
{
    return w >= 64 || (v >> w) == 0;
}

/* Each input with a spu_in_t member (spu_ports.h), element by element where
 * its gate holds; the lane and port masks are not checked (bits of lanes
 * and ports the configuration lacks are ignored, as the narrower ports of
 * spu_top drop them). */
#define BAD_ONE(port, mb, w)                                        \
    if (SPU_GATE_##mb(in, 0) && !fits((uint64_t)in->mb, (w)))       \
        return #port;
#define BAD_PORT(port, mb, w)                                       \
    for (unsigned i = 0; i < m->cfg.slots; i++)                     \
        if (SPU_GATE_##mb(in, i) && !fits((uint64_t)in->mb[i], (w))) \
            return #port;
#define BAD_LANE(port, mb, w)                                       \
    for (unsigned i = 0; i < m->cfg.lanes; i++)                     \
        if (SPU_GATE_##mb(in, i) && !fits((uint64_t)in->mb[i], (w))) \
            return #port;
#define BAD_LANES(port, mb, w)
#define BAD_PORTS(port, mb, w)
#define BAD(port, mb, PACK, w) BAD_##PACK(port, mb, w)

const char *spu_model_bad_input(const spu_model_t *m, const spu_in_t *in)
{
    SPU_IN_ALL(BAD)
    return NULL;
}

int spu_model_step(spu_model_t *m, const spu_in_t *in, spu_out_t *out)
{
    if (spu_model_bad_input(m, in)) {
        spu_out_clear(out);
        return SPU_EINPUT;
    }
    spu_model_step_full(m, in, out);
    return 0;
}
