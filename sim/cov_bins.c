/*
 * Functional coverage (cov.h): the bins of a configuration, laid out by
 * group (each names the rule it covers; docs/coverage.md lists the bins
 * with their meaning), and the .cov file they are written to. Sampling is
 * cov_sample.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "cov_priv.h"
#include "spt.h"

static const char *const filt_name[NFILT] = {"type", "event", "inverse_event", "latency", "data_source", "discard"};
/* EFT class of one type bit, indexed by ctrl | mask << 1 (SPEFilterByType()). */
static const char *const eft_class_name[4] = {"any", "or", "and_clear", "and_set"};
static const char *const ctr_name[NCTR] = {
    "interval.edge_load", "interval.reload", "interval.expire_rnd0", "interval.expire_rnd1",
    "ernd.ecount_zero_at_once", "ernd.ecount_load", "ernd.ecount_countdown",
    "ernd.expire_same_cycle", "ernd.expire_later_cycle", "ernd.expire_written",
    "select.rnd0", "select.rnd1_no_ernd", "select.ernd"};
static const char *const slot_bin_name[NSLOTBIN] = {"alloc", "free", "reuse_same_cycle", "reuse_next_cycle"};
static const char *const pkt_name[NPKT] = {
    "context", "counter.total_latency", "counter.issue_latency", "address.pc", "address.branch_target",
    "address.data_virtual", "address.data_physical", "address.pa_not_collected",
    "address.previous_branch_target", "data_source", "timestamp", "end", "padding"};
static const char *const op_name[NOP] = {
    "other", "other.conditional", "load.gp", "store.gp", "load.simd_fp", "store.simd_fp",
    "ldst.atomic", "ldst.exclusive", "ldst.acquire_release", "branch",
    "branch.conditional", "branch.indirect", "branch.cond_indirect", "sve.load", "sve.store", "sve.other"};
static const char *const buf_name[NBUF] = {
    "buffer.record_written", "buffer.full_event", "buffer.dropped.disabled_or_stopped",
    "buffer.dropped.filled_by_earlier_port", "buffer.wait.waited", "buffer.wait.then_discarded",
    "buffer.wait.collision", "buffer.wait.two_at_once", "buffer.wait.fill_stops_members",
    "buffer.beat.whole",
    "buffer.beat.partial", "buffer.beat.stalled"};

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
                add(c, why, "type_filter.%s.%s.%s", spt_type_names[bit], eft_class_name[k],
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
        add(c, k == B_FULL_EARLIER && cfg->slots == 1 ? "one finish port: no earlier record in the cycle"
               : k == B_WAIT_TWO && cfg->slots == 1     ? "one slot: at most one record waits"
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

/* ------------------------------------------------------------ output */

int cov_write(const spu_cov_t *c, const char *path, const char *what)
{
    if (c->overflow) {
        fprintf(stderr, "internal error: more than %d coverage bins, or a bin name or reason longer than sim/cov.h allows\n",
                COV_MAX_BINS);
        return -1;
    }
    FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
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
    if ((f == stdout ? fflush(f) != 0 || ferror(f) : fclose(f) != 0)) {
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
