/*
 * Functional coverage bins (cov.h). Each group below names the rule it
 * covers; docs/coverage.md lists the bins with their meaning.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "cov.h"
#include "spe_pkt.h"

/* ------------------------------------------------------------ layout */

enum { F_TYPE, F_EV, F_NEV, F_LAT, F_DS, F_DISCARD, NFILT };
static const char *const filt_name[NFILT] = {"type", "event", "inverse_event", "latency", "data_source", "discard"};

static const char *const type_bit_name[5] = {"B", "LD", "ST", "FP", "SIMD"};
/* EFT class of one type bit, indexed by ctrl | mask << 1 (SPEFilterByType()). */
static const char *const eft_class_name[4] = {"any", "or", "and_clear", "and_set"};

enum { CU_FE, CU_FNE, CU_EVOVERLAP, CU_FT, CU_FL, CU_INTERVAL0, NCU };
static const int cu_knob[NCU] = {SPU_KNOB_CU_FE, SPU_KNOB_CU_FNE, SPU_KNOB_CU_EVOVERLAP,
                                 SPU_KNOB_CU_FT, SPU_KNOB_CU_FL, SPU_KNOB_INTERVAL0};

enum {
    C_EDGE_LOAD, C_RELOAD, C_EXPIRE_RND0, C_EXPIRE_RND1, C_ERND_ZERO_AT_ONCE, C_ERND_LOAD,
    C_ERND_COUNTDOWN, C_ERND_EXPIRE_SAME, C_ERND_EXPIRE_LATER, C_ERND_EXPIRE_WRITTEN,
    C_SEL_RND0, C_SEL_RND1, C_SEL_ERND, NCTR
};
static const char *const ctr_name[NCTR] = {
    "interval.edge_load", "interval.reload", "interval.expire_rnd0", "interval.expire_rnd1",
    "ernd.ecount_zero_at_once", "ernd.ecount_load", "ernd.ecount_countdown",
    "ernd.expire_same_cycle", "ernd.expire_later_cycle", "ernd.expire_written",
    "select.rnd0", "select.rnd1_no_ernd", "select.ernd"};

enum { S_ALLOC, S_FREE, S_REUSE_SAME, S_REUSE_NEXT, NSLOTBIN };
static const char *const slot_bin_name[NSLOTBIN] = {"alloc", "free", "reuse_same_cycle", "reuse_next_cycle"};

enum { FIN_DISABLED, FIN_ISSUE_SAME, NFIN };

/* Sample records (docs/records.md): each packet kind, each Operation Type
 * class and subclass, each Events payload size. */
enum {
    P_CONTEXT, P_TOTAL, P_ISSUE, P_PC, P_TARGET, P_DATA_VA, P_DATA_PA, P_DATA_PA_NOT_COLLECTED,
    P_PREV_TARGET, P_DATA_SOURCE, P_TIMESTAMP, P_END, P_PADDING, NPKT
};
static const char *const pkt_name[NPKT] = {
    "context", "counter.total_latency", "counter.issue_latency", "address.pc", "address.branch_target",
    "address.data_virtual", "address.data_physical", "address.pa_not_collected",
    "address.previous_branch_target", "data_source", "timestamp", "end", "padding"};
enum {
    O_OTHER, O_OTHER_COND, O_LD_GP, O_ST_GP, O_LD_SIMDFP, O_ST_SIMDFP, O_ATOMIC, O_EXCL, O_AR,
    O_BRANCH, O_BRANCH_COND, O_BRANCH_IND, O_BRANCH_COND_IND, O_SVE_LD, O_SVE_ST, O_SVE_OTHER, NOP
};
static const char *const op_name[NOP] = {
    "other", "other.conditional", "load.gp", "store.gp", "load.simd_fp", "store.simd_fp",
    "ldst.atomic", "ldst.exclusive", "ldst.acquire_release", "branch",
    "branch.conditional", "branch.indirect", "branch.cond_indirect", "sve.load", "sve.store", "sve.other"};

/* The Profiling Buffer (docs/buffer.md): what becomes of a record, and the
 * write beats. */
enum {
    B_WRITTEN, B_FULL, B_STOPPED, B_FULL_EARLIER, B_QUEUE_FULL, B_BEAT_WHOLE, B_BEAT_PARTIAL, B_BEAT_STALLED, NBUF
};
static const char *const buf_name[NBUF] = {
    "buffer.record_written", "buffer.full_event", "buffer.dropped.disabled_or_stopped",
    "buffer.dropped.filled_by_earlier_port", "buffer.dropped.queue_full", "buffer.beat.whole",
    "buffer.beat.partial", "buffer.beat.stalled"};

#define FILTER_BITS (SPU_F_PMSFCR_EL1_FT_MASK | SPU_F_PMSFCR_EL1_FE_MASK | SPU_F_PMSFCR_EL1_FnE_MASK | \
                     SPU_F_PMSFCR_EL1_FL_MASK | SPU_F_PMSFCR_EL1_FDS_MASK)
static const uint64_t filt_bit[NFILT - 1] = {SPU_F_PMSFCR_EL1_FT_MASK, SPU_F_PMSFCR_EL1_FE_MASK,
                                             SPU_F_PMSFCR_EL1_FnE_MASK, SPU_F_PMSFCR_EL1_FL_MASK,
                                             SPU_F_PMSFCR_EL1_FDS_MASK};

static int has(const spu_config_t *cfg, uint32_t feat) { return (cfg->features & feat) != 0; }

/* Most selections one cycle can hold (docs/coverage.md): a COUNT reload is 0
 * or at least 256 members (INTERVAL' << 8) unless RND adds a byte to a zero
 * INTERVAL' without ERnd, so COUNT expires at most once in a cycle of <= 8
 * members; with ERnd that expiry's draw gives one more selection through
 * ECOUNT. */
static unsigned max_selections(const spu_config_t *cfg)
{
    if (cfg->lanes == 1)
        return 1;
    if (has(cfg, SPU_FEAT_ERND))
        return 2;
    return cfg->knob[SPU_KNOB_INTERVAL0] ? 1 : (cfg->lanes + 1) / 2;
}

static unsigned add(spu_cov_t *c, const char *why, const char *fmt, ...)
{
    if (c->nbins == COV_MAX_BINS) { /* a layout bug: cov_write() reports it */
        c->overflow = 1;
        return COV_MAX_BINS - 1;
    }
    cov_bin_t *b = &c->bin[c->nbins];
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(b->name, sizeof b->name, fmt, ap);
    va_end(ap);
    const int w = snprintf(b->unreachable, sizeof b->unreachable, "%s", why ? why : "");
    if (n < 0 || (size_t)n >= sizeof b->name || w < 0 || (size_t)w >= sizeof b->unreachable)
        c->overflow = 1; /* never a silently cut name or reason */
    for (int i = 0; i < COV_MILESTONES; i++)
        b->at[i] = UINT64_MAX;
    return c->nbins++;
}

static void lay_out_filters(spu_cov_t *c)
{
    const spu_config_t *cfg = c->cfg;
    c->b_filt = c->nbins;
    for (int f = 0; f < NFILT; f++)
        for (int en = 0; en < 2; en++)
            for (int rej = 0; rej < 2; rej++) {
                const char *why = NULL;
                if (f == F_NEV && !has(cfg, SPU_FEAT_FNE))
                    why = "FEAT_SPE_FnE not implemented: PMSFCR_EL1.FnE and PMSNEVFR_EL1 are absent";
                else if (f == F_DS && !has(cfg, SPU_FEAT_FDS))
                    why = "FEAT_SPE_FDS not implemented: PMSFCR_EL1.FDS and PMSDSFR_EL1 are absent";
                else if (f == F_DISCARD && !has(cfg, SPU_FEAT_V1P2))
                    why = "discard mode (PMBLIMITR_EL1.FM) needs FEAT_SPEv1p2";
                else if (f == F_DISCARD && en && !rej)
                    why = "discard mode discards every record (D17.5.1)";
                else if (f == F_DISCARD && !en && rej)
                    why = "outside discard mode no record is discarded";
                add(c, why, "filter.%s.%s.%s", filt_name[f], en ? "enabled" : "disabled",
                    rej ? "rejects" : "passes");
            }
    c->b_eft = c->nbins;
    for (int bit = 0; bit < 5; bit++)
        for (int k = 0; k < 4; k++)
            for (int rej = 0; rej < 2; rej++) {
                const char *why = NULL;
                if (!has(cfg, SPU_FEAT_EFT) && bit >= 3 && k != 0)
                    why = "TYPE<4:3> (FP, SIMD) is RES0 without FEAT_SPE_EFT";
                else if (!has(cfg, SPU_FEAT_EFT) && k >= 2)
                    why = "PMSFCR_EL1.TYPEm is RES0 without FEAT_SPE_EFT";
                add(c, why, "type_filter.%s.%s.%s", type_bit_name[bit], eft_class_name[k],
                    rej ? "rejects" : "passes");
            }
    c->b_cu = c->nbins;
    for (int i = 0; i < NCU; i++) {
        const char *why = NULL;
        if ((i == CU_FNE || i == CU_EVOVERLAP) && !has(cfg, SPU_FEAT_FNE))
            why = "FEAT_SPE_FnE not implemented: PMSFCR_EL1.FnE is RES0";
        else if (i == CU_FT && has(cfg, SPU_FEAT_EFT))
            why = "with FEAT_SPE_EFT, FT=1 and TYPE=0 is not CONSTRAINED UNPREDICTABLE: the mask form passes every type";
        add(c, why, "cu.%s=%u", spu_knob_name(cu_knob[i]), cfg->knob[cu_knob[i]]);
    }
}

static void lay_out_interval(spu_cov_t *c)
{
    const spu_config_t *cfg = c->cfg;
    const int ernd = has(cfg, SPU_FEAT_ERND);
    c->b_ctr = c->nbins;
    for (int i = 0; i < NCTR; i++) {
        const char *why = NULL;
        if ((i == C_EXPIRE_RND1 || i == C_SEL_RND1) && ernd)
            why = "with FEAT_SPE_ERnd, RND=1 selects through ECOUNT (the M.a.a SPEToCollectSample())";
        else if (((i >= C_ERND_ZERO_AT_ONCE && i <= C_ERND_EXPIRE_WRITTEN) || i == C_SEL_ERND) && !ernd)
            why = "FEAT_SPE_ERnd not implemented: no ECOUNT";
        else if (i == C_ERND_EXPIRE_SAME && cfg->lanes == 1)
            why = "one member a cycle: ECOUNT loaded by a draw (>= 1) expires in a later cycle";
        add(c, why, "%s", ctr_name[i]);
    }
    c->b_sel = c->nbins;
    for (unsigned l = 0; l < cfg->lanes; l++)
        add(c, NULL, "select.lane%u", l);
    c->b_selk = c->nbins;
    const unsigned maxk = max_selections(cfg);
    for (unsigned k = 1; k <= cfg->lanes; k++)
        add(c, k > maxk ? (has(cfg, SPU_FEAT_ERND)
                               ? "at most 2: COUNT reloads to 0 or >= 256 members, so it expires at most once a cycle, and its ECOUNT draw adds one (proved: SelectionsPerCycleMax_A, make formal)"
                               : "at most one COUNT expiry a cycle: a reload is 0 or >= 256 members (proved: SelectionsPerCycleMax_A, make formal)")
                        : NULL,
            "select.%u_in_one_cycle", k);
    c->b_col = c->nbins;
    for (unsigned l = 0; l < cfg->lanes; l++)
        add(c, NULL, "collision.lane%u", l);
    add(c, cfg->knob[SPU_KNOB_SLOT_REUSE] && maxk == 1
               ? "SLOT_REUSE=1 and one selection a cycle: a slot freed in the cycle serves it"
               : NULL,
        "collision.while_freeing.SLOT_REUSE=%u", cfg->knob[SPU_KNOB_SLOT_REUSE]);
    c->b_edge = c->nbins;
    add(c, NULL, "enable.rise.pmsicr_zero");
    add(c, NULL, "enable.rise.pmsicr_nonzero");
    add(c, NULL, "enable.fall.pmsicr_zero");
    add(c, NULL, "enable.fall.pmsicr_nonzero");
}

static void lay_out_slots(spu_cov_t *c)
{
    const spu_config_t *cfg = c->cfg;
    c->b_slot = c->nbins;
    for (unsigned s = 0; s < cfg->slots; s++)
        for (int k = 0; k < NSLOTBIN; k++)
            add(c, k == S_REUSE_SAME && !cfg->knob[SPU_KNOB_SLOT_REUSE]
                       ? "knob SLOT_REUSE=0: a slot freed in a cycle serves selections from the next cycle on"
                       : NULL,
                "slot%u.%s", s, slot_bin_name[k]);
    c->b_busy = c->nbins;
    for (unsigned k = 0; k <= cfg->slots; k++)
        add(c, NULL, "slots_busy.%u", k);
    c->b_lat = c->nbins;
    add(c, NULL, "latency.total_saturated.%ubit", cfg->count_size);
    add(c, NULL, "latency.issue_saturated.%ubit", cfg->count_size);
    c->b_fin = c->nbins;
    add(c, NULL, "finish.while_disabled.INFLIGHT=%u", cfg->knob[SPU_KNOB_INFLIGHT]);
    add(c, NULL, "finish.issue_same_cycle");
    c->b_reset = c->nbins;
    add(c, NULL, "reset.samples_in_flight");
    add(c, NULL, "reset.idle");
}

static void lay_out_records(spu_cov_t *c)
{
    const spu_config_t *cfg = c->cfg;
    c->b_pkt = c->nbins;
    for (int k = 0; k < NPKT; k++) {
        const char *why = NULL;
        if (k == P_PREV_TARGET && !has(cfg, SPU_FEAT_PBT))
            why = "FEAT_SPE_PBT not implemented: no previous branch target packet";
        else if (k == P_DATA_SOURCE && !has(cfg, SPU_FEAT_LDS))
            why = "FEAT_SPE_LDS not implemented: no Data Source packet";
        else if (k == P_PADDING && (cfg->pmbidr & 0xFu) == 0)
            why = "PMBIDR_EL1.Align = 0 (byte): records are not padded";
        add(c, why, "record.%s", pkt_name[k]);
    }
    c->b_op = c->nbins;
    for (int k = 0; k < NOP; k++)
        add(c, k >= O_SVE_LD && !has(cfg, SPU_FEAT_SVE) ? "FEAT_SVE not implemented: no SVE Operation Type formats" : NULL,
            "record.optype.%s", op_name[k]);
    c->b_evsz = c->nbins;
    for (unsigned n = 1; n <= 8; n *= 2)
        add(c, n == cfg->ev_bytes ? NULL : "the Events payload size is the configuration's (its highest implemented event bit)",
            "record.events.%ubytes", n);
}

static void lay_out_buffer(spu_cov_t *c)
{
    const spu_config_t *cfg = c->cfg;
    c->b_buf = c->nbins;
    for (int k = 0; k < NBUF; k++)
        add(c, k == B_STOPPED && cfg->knob[SPU_KNOB_INFLIGHT]
                   ? "INFLIGHT=1: a sample that finishes while the buffer is disabled or stopped has no record"
               : k == B_FULL_EARLIER && cfg->slots == 1 ? "one finish port: no earlier record in the cycle"
                                                         : NULL,
            "%s", buf_name[k]);
}

static void lay_out_regs(spu_cov_t *c)
{
    const spu_config_t *cfg = c->cfg;
    c->b_reg = c->nbins;
    for (int i = 0; i < SPU_NREGS; i++) {
        const char *n = spu_reg_name(i);
        if (!cfg->present[i]) {
            add(c, NULL, "reg.%s.read_undefined", n);
            add(c, NULL, "reg.%s.write_undefined", n);
            add(c, "absent in this configuration", "reg.%s.write_res0", n);
        } else if (!spu_reg_access_ok(cfg, i, 1)) {
            add(c, NULL, "reg.%s.read", n);
            add(c, NULL, "reg.%s.write_undefined", n);
            add(c, "read-only: every MSR is UNDEFINED", "reg.%s.write_res0", n);
        } else {
            add(c, NULL, "reg.%s.read", n);
            add(c, NULL, "reg.%s.write", n);
            add(c, cfg->wmask[i] == UINT64_MAX ? "no RES0 or RAZ/WI bit" : NULL, "reg.%s.write_res0", n);
        }
    }
    c->b_regx = c->nbins;
    add(c, NULL, "reg.unknown_encoding.read");
    add(c, NULL, "reg.unknown_encoding.write");
    c->b_pmu = c->nbins;
    for (int i = 0; i < SPU_NPMU; i++)
        add(c, spu_pmu_implemented(cfg, i) ? NULL : "event not implemented in this configuration", "pmu.%s",
            spu_pmu_name(i));
}

void cov_init(spu_cov_t *c, const spu_config_t *cfg)
{
    memset(c, 0, sizeof *c);
    c->cfg = cfg;
    c->ecount_load = UINT64_MAX;
    lay_out_filters(c);
    lay_out_interval(c);
    lay_out_slots(c);
    lay_out_records(c);
    lay_out_buffer(c);
    lay_out_regs(c);
}

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

static void sample_buffer(spu_cov_t *c, const spu_model_t *b, const spu_in_t *in, const spu_out_t *out,
                          const spu_model_t *a)
{
    for (unsigned p = 0; p < c->cfg->slots; p++) {
        if (!out->rec_len[p])
            continue;
        const int en_at_start = (b->reg[SPU_REG_PMBLIMITR_EL1] & SPU_F_PMBLIMITR_EL1_E_MASK) &&
                                !(b->reg[SPU_REG_PMBSR_EL1] & SPU_F_PMBSR_EL1_S_MASK);
        const unsigned k = (out->rec_wr >> p) & 1u     ? B_WRITTEN
                           : (out->rec_qfull >> p) & 1u ? B_QUEUE_FULL
                           : en_at_start                ? B_FULL_EARLIER
                                                        : B_STOPPED;
        hit(c, c->b_buf + k);
    }
    /* a write filled the buffer: S set by the unit, not by an MSR */
    const int msr_bsr = in->reg_valid && in->reg_write && in->reg_enc == spu_reg_enc(SPU_REG_PMBSR_EL1);
    if (out->rec_wr && !msr_bsr && !(b->reg[SPU_REG_PMBSR_EL1] & SPU_F_PMBSR_EL1_S_MASK) &&
        (a->reg[SPU_REG_PMBSR_EL1] & SPU_F_PMBSR_EL1_S_MASK))
        hit(c, c->b_buf + B_FULL);
    if (c->beat_shown && !in->mem_ready)
        hit(c, c->b_buf + B_BEAT_STALLED);
    if (out->mem_valid)
        hit(c, c->b_buf + (out->mem_strb == 0xFFu ? B_BEAT_WHOLE : B_BEAT_PARTIAL));
    c->beat_shown = out->mem_valid;
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
        c->ecount_load = UINT64_MAX;
        c->cycle++;
        return;
    }
    const int en = out->obs_enabled;
    hit(c, c->b_busy + (unsigned)__builtin_popcount(busy));
    if (en != b->prev_en)
        hit(c, c->b_edge + (en ? 0u : 2u) + (b->reg[SPU_REG_PMSICR_EL1] != 0));

    /* Finishes: the slots they free (the lower port wins a doubly named slot). */
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
    for (unsigned p = 0; p < cfg->slots; p++) {
        if ((out->rec_valid >> p) & 1u)
            sample_record(c, b->reg, in, out, p);
        if (out->rec_len[p])
            sample_packets(c, b->reg, in, spu_model_record(a, p), out->rec_len[p], p);
    }

    /* Selections, and the slots and collisions they lead to. */
    const uint8_t sel = replay_members(c, b, in, en);
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

/* ------------------------------------------------------------ output */

int cov_write(const spu_cov_t *c, const char *path, const char *what)
{
    if (c->overflow) {
        fprintf(stderr, "internal error: more than %d coverage bins, or a bin name or reason longer than sim/cov.h allows\n",
                COV_MAX_BINS);
        return -1;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "error: cannot write coverage file '%s': %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f, "# openspu functional coverage 1: %s\n", what);
    fprintf(f, "# bin NAME HITS CYCLE-OF-HIT-1 HIT-10 HIT-100 (- = not reached) | unreachable NAME HITS REASON\n");
    fprintf(f, "config %s\ncycles %" PRIu64 "\n", c->cfg->name, c->cycle);
    for (unsigned i = 0; i < c->nbins; i++) {
        const cov_bin_t *b = &c->bin[i];
        if (b->unreachable[0]) {
            /* hits > 0 here would prove the reason wrong: the report fails it */
            fprintf(f, "unreachable %s %" PRIu64 " %s\n", b->name, b->hits, b->unreachable);
            continue;
        }
        fprintf(f, "bin %s %" PRIu64, b->name, b->hits);
        for (int k = 0; k < COV_MILESTONES; k++) {
            if (b->at[k] == UINT64_MAX)
                fprintf(f, " -");
            else
                fprintf(f, " %" PRIu64, b->at[k]);
        }
        fputc('\n', f);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "error: coverage file '%s' could not be written completely\n", path);
        return -1;
    }
    return 0;
}

void cov_describe(char *buf, size_t len, int argc, char **argv)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < argc && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "", argv[i]);
}

int cov_finish(const spu_cov_t *c, const char *path, const char *what)
{
    if (c->bad) {
        fprintf(stderr, "internal error: the coverage replay of SPEToCollectSample() disagrees with the "
                        "outputs at cycle %" PRIu64 "; no coverage written\n", c->bad_cycle);
        return -1;
    }
    return cov_write(c, path, what);
}
