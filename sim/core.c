/*
 * The core model: schedules the issue and finish events of sampled ops and
 * checks the unit's outputs against them (see core.h).
 */
#include <stdio.h>
#include <string.h>

#include "core.h"
#include "rng.h"

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
    c->stray_fin = 0;
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

/* The first port from a random one on that mask leaves free, or -1. */
static int free_port(uint64_t *h, unsigned n, uint8_t used)
{
    const unsigned p0 = rng_below(h, n);
    for (unsigned k = 0; k < n; k++) {
        const unsigned p = (p0 + k) % n;
        if (!((used >> p) & 1u))
            return (int)p;
    }
    return -1;
}

/* 1 when a finish port of in names slot s. */
static int fin_named(const spu_in_t *in, unsigned n, unsigned s)
{
    for (unsigned p = 0; p < n; p++)
        if (((in->fin_valid >> p) & 1u) && in->fin_slot[p] == s)
            return 1;
    return 0;
}

/* A stray event names any value of the 2-bit slot field: a slot that is
 * free, one already issued, or none (>= SLOTS). A stray finish never names
 * a slot the core model holds or finishes in this cycle (that would finish
 * its op early or in its place, and the core would lose track of it); a
 * stray issue may (an early or a second issue, or one in the finish's cycle).
 * The finish's payloads stay as the last finish left them: a unit that
 * completes a stray finish shows a record the other side does not. */
unsigned core_stray(spu_core_t *c, uint64_t cycle, unsigned pct, spu_in_t *in)
{
    uint64_t h = cycle ^ 0x5354524159ull; /* not --mem-stall's draw */
    c->stray_fin = 0;
    if (rng_below(&h, 100) >= pct)
        return 0;
    const unsigned n = c->cfg->slots, kind = 1u + rng_below(&h, 3); /* issue, finish, both */
    unsigned drove = 0;
    int p = (kind & 1u) ? free_port(&h, n, in->iss_valid) : -1;
    unsigned s = rng_below(&h, 1u << SPU_W_iss_slot);
    if (p >= 0) {
        in->iss_valid |= (uint8_t)(1u << p);
        in->iss_slot[p] = (uint8_t)s;
        drove |= 1u;
    }
    p = (kind & 2u) ? free_port(&h, n, in->fin_valid) : -1;
    s = rng_below(&h, 1u << SPU_W_fin_slot);
    if (p >= 0 && !(s < n && c->slot[s].live) && !fin_named(in, n, s)) {
        in->fin_valid |= (uint8_t)(1u << p);
        in->fin_slot[p] = (uint8_t)s;
        c->stray_fin = (uint8_t)(1u << p);
        drove |= 2u;
    }
    return drove;
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
    const uint8_t stray = out->rec_valid & c->stray_fin;
    if (stray) {
        const unsigned p = (unsigned)__builtin_ctz(stray);
        snprintf(c->err, sizeof c->err, "cycle %llu: record on port %u for a stray finish of slot %u, "
                 "which was not busy (docs/semantics.md: ignored)", (unsigned long long)t, p, in->fin_slot[p]);
        return -1;
    }
    return 0;
}
