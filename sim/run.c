/*
 * The cycle loop shared by csim and tb (see run.h).
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "rng.h"
#include "run.h"
#include "spe_pkt.h"
#include "stats.h"

void run_init(spu_run_t *r, const spu_config_t *cfg, spu_src_t src, FILE *log,
              spt_writer_t *emit)
{
    memset(r, 0, sizeof *r);
    r->cfg = cfg;
    r->src = src;
    r->emit = emit;
    core_init(&r->core, cfg);
    spl_init(&r->log, log, cfg);
}

/* The memory's readiness in a cycle with --mem-stall: a fixed function of
 * the cycle number, so a replay, a skip ahead and both front ends agree.
 * (Not inlined: without --mem-stall the compiler would otherwise compute
 * the draw in every cycle and throw it away.) */
static __attribute__((noinline)) uint8_t mem_ready_stalled(const spu_run_t *r, uint64_t cycle)
{
    return rng_below(&cycle, 100) >= r->mem_stall;
}

int run_inputs(spu_run_t *r, spu_cyc_t *cy, spu_in_t *in)
{
    /* Every cycle: clear the inputs up to the record payloads, which are
     * read only with a finish (core_drive() writes them then). */
    memset(in, 0, SPU_IN_CLEAR_BYTES);
    if (!r->src_done && r->src.next(r->src.self, cy)) {
        r->el = cy->el;
        r->allow = cy->allow;
        if (r->emit && spt_write_cycle(r->emit, cy, &r->src)) {
            snprintf(r->err, sizeof r->err, "cycle %" PRIu64 ": the stimulus has no attributes for an op it handed out", r->cycle);
            return -1;
        }
    } else {
        /* Drain: empty cycles, context held, until every op has finished
         * and every record is written (or discarded). */
        r->src_done = 1;
        if (core_idle(&r->core) && !r->mem_busy && !r->rec_qn && !r->hold)
            return 0;
        memset(cy, 0, sizeof *cy);
        cy->el = r->el;
        cy->allow = r->allow;
    }
    cy->cycle = r->cycle;
    in->rst_n = !cy->reset;
    in->pop_valid = cy->pop_mask;
    in->reg_valid = cy->reg_valid;
    in->reg_write = cy->reg_write;
    in->reg_enc = cy->reg_enc;
    in->reg_wdata = cy->reg_wdata;
    in->el = cy->el;
    in->prof_allowed = cy->allow;
    in->ts = cy->cycle; /* the timer: one tick per cycle from the start of the run */
    in->mem_ready = r->mem_stall ? mem_ready_stalled(r, cy->cycle) : 1;
    if (!cy->reset) {
        core_drive(&r->core, cy->cycle, in);
        if (r->stray) {
            const unsigned d = core_stray(&r->core, cy->cycle, r->stray, in);
            r->log.stray_iss += d & 1u;
            r->log.stray_fin += d >> 1;
        }
    }
    return 1;
}

/* The .spl lines of one cycle, in the order docs/formats.md gives: per lane
 * its collision or sample, records in port order, then the register access. */
static void log_cycle(spu_run_t *r, const spu_cyc_t *cy, const spu_in_t *in, const spu_out_t *out)
{
    spl_log_t *log = &r->log;
    const uint64_t t = cy->cycle;
    if (cy->reset) {
        spl_reset(log, t);
        return;
    }
    const uint8_t sel = out->smp_valid | out->col_valid;
    log->multi += (sel & (sel - 1u)) != 0;
    for (unsigned l = 0; sel >> l; l++) {
        if ((out->col_valid >> l) & 1u)
            spl_collision(log, t, cy->op_id[l]);
        if ((out->smp_valid >> l) & 1u)
            spl_sample(log, t, cy->op_id[l], l, out->smp_slot[l]);
    }
    for (unsigned p = 0; out->rec_valid >> p; p++)
        if ((out->rec_valid >> p) & 1u)
            spl_record(log, t, r->core.fin[p].op.id, out->rec_slot[p], out->rec_tot_lat[p],
                       out->rec_iss_lat[p], (out->rec_keep >> p) & 1u, out->rec_why[p]);
    if (in->reg_valid && out->reg_undef)
        spl_undef(log, t, in->reg_write, in->reg_enc);
    else if (in->reg_valid && !in->reg_write)
        spl_read(log, t, in->reg_enc, out->reg_rdata);
    spl_pmu_add(log, out);
}

int run_observe_full(spu_run_t *r, const spu_cyc_t *cy, const spu_in_t *in, const spu_out_t *out)
{
    if (r->stats)
        stats_cycle(r->stats, r->stats_m, &r->core, r->log.pmu[SPU_PMU_POP], cy, out);
    if (r->src.observe)
        r->src.observe(r->src.self, out);
    r->cycle++;
    if (core_observe(&r->core, cy, in, out, &r->src)) {
        snprintf(r->err, sizeof r->err, "%s", r->core.err);
        return -1;
    }
    log_cycle(r, cy, in, out);
    return 0;
}

int run_skip_full(spu_run_t *r, spu_model_t *m, uint64_t *skipped)
{
    *skipped = 0;
    if (r->src_done || r->emit || !r->src.skip || r->stray || !spu_model_settled(m, r->el, r->allow))
        return 0;
    const uint64_t next_ev = core_next_event(&r->core);
    if (next_ev <= r->cycle)
        return 0;
    const uint64_t quiet = spu_model_quiet_pops(m, r->el, r->allow);
    uint64_t pops;
    const uint64_t k = r->src.skip(r->src.self, next_ev - r->cycle, quiet, &pops, NULL);
    if (!k)
        return 0;
    if (spu_model_skip(m, k, pops, r->el, r->allow) != 0) {
        /* The preconditions were checked above: this is a bug. */
        snprintf(r->err, sizeof r->err, "internal error: the model refused to skip %" PRIu64 " cycles at cycle %" PRIu64, k, r->cycle);
        return -1;
    }
    r->cycle += k;
    if (m->prev_en)
        spl_add_pops(&r->log, pops);
    *skipped = k;
    return 0;
}

unsigned run_block(spu_run_t *r, spu_model_t *m, unsigned max, spu_block_t *b)
{
    /* run_skip_full()'s conditions, and the ones that make every input and
     * every step of a cycle but its members' those of the cycle before:
     * no write beat or record still to come (run_observe() does nothing),
     * no interrupt for a closed-loop source to observe, the memory always
     * ready (no --mem-stall draw), no stray events (--stray-events). */
    if (r->src_done || r->emit || !r->src.skip || r->mem_busy || r->hold || r->mem_stall || r->stray ||
        (r->src.observe && (m->reg[SPU_REG_PMBSR_EL1] & SPU_F_PMBSR_EL1_S_MASK)) ||
        !spu_model_settled(m, r->el, r->allow))
        return 0;
    const uint64_t next_ev = core_next_event(&r->core);
    if (next_ev <= r->cycle)
        return 0;
    if (max > SPU_BLOCK_MAX)
        max = SPU_BLOCK_MAX;
    if (next_ev - r->cycle < max)
        max = (unsigned)(next_ev - r->cycle);
    uint64_t pops;
    const unsigned k = (unsigned)r->src.skip(r->src.self, max, spu_model_quiet_pops(m, r->el, r->allow), &pops, b->pop_mask);
    if (!k)
        return 0;
    b->el = r->el;
    b->prof_allowed = r->allow;
    if (spu_model_block(m, b, k) != 0) {
        /* The preconditions were checked above: this is a bug. */
        snprintf(r->err, sizeof r->err, "internal error: the model refused %u plain cycles at cycle %" PRIu64, k, r->cycle);
        return UINT_MAX;
    }
    b->cycle = r->cycle;
    r->cycle += k;
    if (m->prev_en)
        spl_add_pops(&r->log, pops);
    return k;
}

int run_mem_full(spu_run_t *r, const spu_cyc_t *cy, const spu_in_t *in, const spu_out_t *out)
{
    if (!in->rst_n) { /* the write path is cleared: its records are lost */
        r->log.mem_lost += r->exp_n;
        r->exp_n = r->len_n = r->rec_left = 0;
    } else if (r->beat_valid && in->mem_ready) {
        if (r->mem && mem_write(r->mem, r->beat_addr, r->beat_data, r->beat_strb)) {
            snprintf(r->err, sizeof r->err, "cycle %" PRIu64 ": out of memory for the Profiling Buffer's pages", cy->cycle);
            return -1;
        }
        r->log.mem_beats++;
        if (r->check_stream) {
            /* each enabled byte is the next byte of the queued records, at
             * the address after the last one within a record */
            if (!r->beat_strb) {
                snprintf(r->err, sizeof r->err, "cycle %" PRIu64 ": a write beat at 0x%" PRIx64 " with no byte enabled",
                         cy->cycle, r->beat_addr);
                return -1;
            }
            for (unsigned j = 0; j < 8; j++) {
                if (!((r->beat_strb >> j) & 1u))
                    continue;
                const uint64_t a = r->beat_addr + j;
                const uint8_t b = (uint8_t)(r->beat_data >> (8 * j));
                if (!r->rec_left) {
                    if (!r->len_n) {
                        snprintf(r->err, sizeof r->err, "cycle %" PRIu64 ": a write beat at 0x%" PRIx64 " (byte %u) but no record is queued",
                                 cy->cycle, r->beat_addr, j);
                        return -1;
                    }
                    r->rec_left = r->exp_len[r->len_head];
                    r->len_head = (r->len_head + 1u) % sizeof r->exp_len;
                    r->len_n--;
                } else if (a != r->next_addr) {
                    snprintf(r->err, sizeof r->err, "cycle %" PRIu64 ": a record's byte written to 0x%" PRIx64 ", not after the last one (0x%" PRIx64 ")",
                             cy->cycle, a, r->next_addr);
                    return -1;
                }
                const uint8_t want = r->exp[r->exp_head];
                if (b != want) {
                    snprintf(r->err, sizeof r->err, "cycle %" PRIu64 ": byte 0x%02x written to 0x%" PRIx64 ", the record has 0x%02x there",
                             cy->cycle, b, a, want);
                    return -1;
                }
                r->exp_head = (r->exp_head + 1u) % sizeof r->exp;
                r->exp_n--;
                r->rec_left--;
                r->next_addr = a + 1;
            }
        }
    }
    r->beat_valid = out->mem_valid;
    r->beat_addr = out->mem_addr;
    r->beat_data = out->mem_data;
    r->beat_strb = out->mem_strb;
    r->mem_busy = out->mem_valid | (out->rec_wr != 0) | (r->exp_n != 0);
    return 0;
}

/* A record queued for the Profiling Buffer: its bytes are expected on the write port. */
static int expect_record(spu_run_t *r, const spu_cyc_t *cy, const uint8_t *b, unsigned n)
{
    if (r->exp_n + n > sizeof r->exp || r->len_n == sizeof r->exp_len) {
        snprintf(r->err, sizeof r->err, "cycle %" PRIu64 ": more records queued for the Profiling Buffer (%u bytes) than its write path holds",
                 cy->cycle, r->exp_n + n);
        return -1;
    }
    for (unsigned k = 0; k < n; k++)
        r->exp[(r->exp_head + r->exp_n + k) % sizeof r->exp] = b[k];
    r->exp_n += n;
    r->exp_len[(r->len_head + r->len_n) % sizeof r->exp_len] = (uint8_t)n;
    r->len_n++;
    return 0;
}

/* Slot s's record entered the write path in this cycle: its bytes to the
 * expected stream, --rec-bin and --records. */
static int record_written(spu_run_t *r, const spu_cyc_t *cy, const spu_model_t *m, unsigned s)
{
    const uint8_t *b = spu_model_record(m, s);
    const unsigned n = spu_model_record_len(m, s);
    if (r->check_stream && expect_record(r, cy, b, n))
        return -1;
    if (r->rec_f && fwrite(b, 1, n, r->rec_f) != n) {
        snprintf(r->err, sizeof r->err, "cycle %" PRIu64 ": the --rec-bin file could not be written", cy->cycle);
        return -1;
    }
    if (r->rec_txt) {
        char err[SPE_PKT_ERR_LEN];
        /* the header: where the record comes from (its finish: cycle and
         * port) and what the op carried (its keys as a trace spells them,
         * its entry EL) */
        const core_slot_t *f = &r->rec_fin[s];
        fprintf(r->rec_txt, "# record %" PRIu64 " cycle %" PRIu64 " op %" PRIu64 " port %u bytes %u: el=%u",
                r->log.rec_written, r->rec_cycle[s], f->op.id, r->rec_port[s], n, (unsigned)f->el);
        spt_write_op_keys(r->rec_txt, &f->op);
        fputc('\n', r->rec_txt);
        if (spe_pkt_dump_at(r->rec_txt, b, n, r->log.rec_bytes, err)) {
            snprintf(r->err, sizeof r->err, "cycle %" PRIu64 ": record %" PRIu64 " does not decode: %s",
                     cy->cycle, r->log.rec_written, err);
            return -1;
        }
        if (ferror(r->rec_txt)) {
            snprintf(r->err, sizeof r->err, "cycle %" PRIu64 ": the --records file could not be written", cy->cycle);
            return -1;
        }
    }
    if (r->stats)
        stats_packets(r->stats, b, n);
    spl_rec_written(&r->log, n);
    return 0;
}

int run_records_full(spu_run_t *r, const spu_cyc_t *cy, const spu_out_t *out, const spu_model_t *m)
{
    /* A write that filled the buffer set PMBSR_EL1.S (PMBIRQ) in this cycle;
     * S was 0 at its start, or nothing would have been written, and an MSR
     * PMBSR_EL1 of the same cycle would have set it instead. */
    const int msr_bsr = cy->reg_valid && cy->reg_write && cy->reg_enc == spu_reg_enc(SPU_REG_PMBSR_EL1);
    r->log.buf_full += out->rec_wr && out->pmbirq && !msr_bsr;
    if (cy->reset) { /* waiting records are lost with the slots */
        r->log.rec_reset += r->rec_qn;
        r->log.rec_pending = 0;
        r->rec_waited = r->rec_qn = 0;
    }
    for (unsigned p = 0; p < SPU_MAX_SLOTS; p++) { /* built: each is its slot's */
        if (!out->rec_len[p])
            continue;
        const unsigned s = out->rec_slot[p];
        r->log.rec_built++;
        r->log.rec_pending++;
        r->rec_q[r->rec_qn++] = (uint8_t)s;
        r->rec_port[s] = (uint8_t)p;
        r->rec_cycle[s] = cy->cycle;
        r->rec_fin[s] = r->core.fin[p];
    }
    unsigned k = 0; /* in finish order: entered, discarded, or waiting on */
    for (unsigned i = 0; i < r->rec_qn; i++) {
        const unsigned s = r->rec_q[i];
        const uint8_t bit = (uint8_t)(1u << s);
        if (out->rec_wr & bit) {
            if (record_written(r, cy, m, s))
                return -1;
        } else if (m->slot[s].waiting) { /* no entry yet (docs/buffer.md) */
            /* every record waits in its finish cycle; one still waiting
             * after it waited for the write path */
            if (cy->cycle > r->rec_cycle[s]) {
                r->log.rec_waited += !(r->rec_waited & bit);
                r->rec_waited |= bit;
            }
            r->rec_q[k++] = (uint8_t)s;
            continue;
        } else {
            r->log.rec_stopped++; /* D17.4: disabled or stopped, discarded */
        }
        r->log.rec_pending--;
        r->rec_waited &= (uint8_t)~bit;
    }
    r->rec_qn = (uint8_t)k;
    return 0;
}

void run_finish(spu_run_t *r)
{
    spl_pmu_line(&r->log, r->cycle);
}

int run_check_end(spu_run_t *r)
{
    if (r->check_stream && (r->exp_n || r->rec_left)) {
        snprintf(r->err, sizeof r->err, "the run ended with %u bytes of queued records not written to the Profiling Buffer",
                 r->exp_n);
        return -1;
    }
    return 0;
}

int run_write_mem(spu_run_t *r, FILE *f)
{
    const int rc = mem_dump(r->mem, f);
    if (rc == -2)
        snprintf(r->err, sizeof r->err, "--mem-bin: the written memory spans 0x%" PRIx64 "..0x%" PRIx64
                 ", more than %llu MiB (a buffer moved by software?)", r->mem->lo, r->mem->hi, MEM_DUMP_MAX >> 20);
    else if (rc)
        snprintf(r->err, sizeof r->err, "the --mem-bin file could not be written");
    return rc ? -1 : 0;
}
