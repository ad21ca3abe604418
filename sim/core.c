/*
 * The core model: schedules the issue and finish events of sampled ops and
 * checks the unit's outputs against them (see core.h).
 */
#include <stdio.h>
#include <string.h>

#include "core.h"

void core_init(spu_core_t *c, const spu_config_t *cfg)
{
    memset(c, 0, sizeof *c);
    c->cfg = cfg;
    c->next_event = UINT64_MAX;
}

void core_reset(spu_core_t *c)
{
    memset(c->slot, 0, sizeof c->slot);
    c->next_event = UINT64_MAX;
}

int core_idle(const spu_core_t *c)
{
    for (unsigned s = 0; s < c->cfg->slots; s++)
        if (c->slot[s].live)
            return 0;
    return 1;
}

uint64_t core_next_event(const spu_core_t *c)
{
    uint64_t next = UINT64_MAX;
    for (unsigned s = 0; s < c->cfg->slots; s++) {
        const core_slot_t *sl = &c->slot[s];
        if (!sl->live)
            continue;
        const uint64_t t = sl->entry + (sl->issued ? sl->op.fin : sl->op.iss);
        if (t < next)
            next = t;
    }
    return next;
}

void core_drive(spu_core_t *c, uint64_t cycle, spu_in_t *in)
{
    if (cycle < c->next_event) /* nothing due: the common case */
        return;
    /* Event k of the cycle goes to port (k + cycle) % SLOTS: every port sees
     * every slot, and the mapping follows from the trace alone. */
    const unsigned n = c->cfg->slots;
    const unsigned rot = (unsigned)(cycle % n);
    unsigned ki = 0, kf = 0;
    for (unsigned s = 0; s < n; s++) {
        core_slot_t *sl = &c->slot[s];
        if (!sl->live)
            continue;
        if (!sl->issued && sl->entry + sl->op.iss == cycle) {
            const unsigned p = (ki++ + rot) % n;
            in->iss_valid |= (uint8_t)(1u << p);
            in->iss_slot[p] = (uint8_t)s;
            sl->issued = 1;
        }
        if (sl->entry + sl->op.fin == cycle) {
            const unsigned p = (kf++ + rot) % n;
            in->fin_valid |= (uint8_t)(1u << p);
            in->fin_slot[p] = (uint8_t)s;
            in->fin_type[p] = sl->op.type;
            in->fin_events[p] = sl->op.ev;
            in->fin_ds_valid |= (uint8_t)(sl->op.ds_valid << p);
            in->fin_ds[p] = sl->op.ds;
            in->fin_attr[p] = sl->op.attr;
            in->fin_addr_valid[p] = sl->op.addr_valid;
            in->fin_ctx[p] = sl->op.ctx;
            in->fin_pc[p] = sl->op.pc;
            in->fin_tgt[p] = sl->op.tgt;
            in->fin_va[p] = sl->op.va;
            in->fin_pa[p] = sl->op.pa;
            in->fin_pbt[p] = sl->op.pbt;
            c->fin[p] = *sl;
            sl->live = 0; /* the unit frees the slot this cycle */
        }
    }
    c->next_event = core_next_event(c);
}

int core_observe(spu_core_t *c, const spu_cyc_t *cy, const spu_in_t *in, const spu_out_t *out,
                 const spu_src_t *src)
{
    const uint64_t t = cy->cycle;
    if (cy->reset) {
        core_reset(c);
        return 0;
    }
    for (unsigned l = 0; out->smp_valid >> l; l++) {
        if (!((out->smp_valid >> l) & 1u))
            continue;
        const unsigned s = out->smp_slot[l];
        if (!((cy->pop_mask >> l) & 1u) || s >= c->cfg->slots || c->slot[s].live) {
            snprintf(c->err, sizeof c->err,
                     "cycle %llu: lane %u selected into slot %u, which the core model %s",
                     (unsigned long long)t, l, s,
                     !((cy->pop_mask >> l) & 1u) ? "gave no member in that lane"
                     : s >= c->cfg->slots        ? "does not have"
                                                 : "still holds");
            return -1;
        }
        core_slot_t *sl = &c->slot[s];
        if (src->op(src->self, cy->op_id[l], &sl->op)) {
            snprintf(c->err, sizeof c->err, "cycle %llu: lane %u selected op %llu, which the stimulus never handed out",
                     (unsigned long long)t, l, (unsigned long long)cy->op_id[l]);
            return -1;
        }
        sl->live = 1;
        sl->issued = 0;
        sl->entry = t;
        sl->el = cy->el;
        if (t + sl->op.iss < c->next_event)
            c->next_event = t + sl->op.iss;
    }
    const uint8_t orphan = out->rec_valid & (uint8_t)~in->fin_valid;
    if (orphan) {
        snprintf(c->err, sizeof c->err, "cycle %llu: record on port %u with no finish event",
                 (unsigned long long)t, (unsigned)__builtin_ctz(orphan));
        return -1;
    }
    return 0;
}
