/*
 * The cycle loop shared by csim and tb (see run.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "run.h"
#include "spe_pkt.h"

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
        /* Drain: empty cycles, context held, until every op has finished. */
        r->src_done = 1;
        if (core_idle(&r->core))
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
    if (!cy->reset)
        core_drive(&r->core, cy->cycle, in);
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
    if (r->src_done || r->emit || !r->src.skip || !spu_model_settled(m, r->el, r->allow))
        return 0;
    const uint64_t next_ev = core_next_event(&r->core);
    if (next_ev <= r->cycle)
        return 0;
    const uint64_t quiet = spu_model_quiet_pops(m, r->el, r->allow);
    uint64_t pops;
    const uint64_t k = r->src.skip(r->src.self, next_ev - r->cycle, quiet, &pops);
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

int run_records_full(spu_run_t *r, const spu_cyc_t *cy, const spu_out_t *out, const spu_model_t *m)
{
    for (unsigned p = 0; p < SPU_MAX_SLOTS; p++) {
        const unsigned n = out->rec_len[p];
        if (!n)
            continue;
        const uint8_t *b = spu_model_record(m, p);
        if (r->rec_f && fwrite(b, 1, n, r->rec_f) != n) {
            snprintf(r->err, sizeof r->err, "cycle %" PRIu64 ": the --rec-bin file could not be written", cy->cycle);
            return -1;
        }
        if (r->rec_txt) {
            char err[SPE_PKT_ERR_LEN];
            /* the header: where the record comes from and what the op
             * carried (its keys as a trace spells them, its entry EL) */
            const core_slot_t *f = &r->core.fin[p];
            fprintf(r->rec_txt, "# record %" PRIu64 " cycle %" PRIu64 " op %" PRIu64 " port %u bytes %u: el=%u",
                    r->log.rec_written, cy->cycle, f->op.id, p, n, (unsigned)f->el);
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
        spl_rec_written(&r->log, n);
    }
    return 0;
}

void run_finish(spu_run_t *r)
{
    spl_pmu_line(&r->log, r->cycle);
}
