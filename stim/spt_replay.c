/*
 * .spt replay: a cursor over a parsed (read-only) trace as a stimulus source
 * (stim.h), every cycle from 0 to the last line, empty cycles in between.
 */
#include <string.h>

#include "spt_priv.h"

static int src_next(void *self, spu_cyc_t *c)
{
    spt_cursor_t *k = self;
    const spt_trace_t *t = k->t;
    if (k->done || k->cur > t->last_cycle) {
        k->done = 1;
        return 0;
    }
    memset(c, 0, sizeof *c);
    c->cycle = k->cur;
    if (k->pos < t->nitems && t->items[k->pos].rep && t->items[k->pos].cycle <= k->cur) {
        /* a cycle in the middle of an op*N: one member, nothing else */
        const spt_item_t *it = &t->items[k->pos];
        const uint64_t off = k->cur - it->cycle;
        if (off + 1 == it->rep)
            k->pos++;
        for (unsigned l = 0; l < SPU_MAX_LANES; l++)
            if (it->pop_mask >> l & 1)
                c->op_id[l] = it->first_op + off;
        c->pop_mask = it->pop_mask;
        if (it->first_op + off + 1 > k->handed)
            k->handed = it->first_op + off + 1;
        k->el = it->el;
        k->allow = it->allow;
    } else if (k->pos < t->nitems && t->items[k->pos].cycle == k->cur) {
        const spt_item_t *it = &t->items[k->pos++];
        c->reset = (it->flags & IT_RESET) != 0;
        c->pop_mask = it->pop_mask;
        uint64_t id = it->first_op;
        for (unsigned l = 0; l < SPU_MAX_LANES; l++)
            if (it->pop_mask >> l & 1)
                c->op_id[l] = id++;
        if (id > k->handed)
            k->handed = id;
        if (it->flags & IT_REG) {
            c->reg_valid = 1;
            c->reg_write = (it->flags & IT_WRITE) != 0;
            c->reg_enc = it->enc;
            c->reg_wdata = it->wdata;
        }
        k->el = it->el;
        k->allow = it->allow;
    }
    c->el = k->el;
    c->allow = k->allow;
    k->cur++;
    return 1;
}

static int src_op(void *self, uint64_t id, spu_op_t *op)
{
    const spt_cursor_t *k = self;
    if (id >= k->handed || id >= k->t->nops)
        return -1; /* never handed out: the caller's bug, not an op to invent */
    *op = k->t->ops[spt_rec_of(k->t, id)];
    op->id = id;
    return 0;
}

static unsigned popcount8(unsigned x)
{
    unsigned n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* skip() of the source; inlined into src_skip() twice, with and without
 * pop_mask, so that csim's skips (no pop_mask) do not test it per item. */
static inline __attribute__((always_inline)) uint64_t skip_items(spt_cursor_t *k, uint64_t max_cycles,
                                                                 uint64_t max_pops, uint64_t *pops, uint8_t *pop_mask)
{
    const spt_trace_t *t = k->t;
    uint64_t n = 0, np = 0;
    while (n < max_cycles && !k->done && k->cur <= t->last_cycle) {
        if (k->pos < t->nitems && t->items[k->pos].rep && t->items[k->pos].cycle <= k->cur) {
            /* part of an op*N run: one member per cycle */
            const spt_item_t *it = &t->items[k->pos];
            if (it->el != k->el || it->allow != k->allow)
                break;
            const uint64_t off = k->cur - it->cycle;
            uint64_t m = it->rep - off;
            if (m > max_cycles - n)
                m = max_cycles - n;
            if (m > max_pops - np)
                m = max_pops - np;
            if (m == 0)
                break;
            np += m;
            if (pop_mask)
                memset(pop_mask + n, it->pop_mask, m);
            if (it->first_op + off + m > k->handed)
                k->handed = it->first_op + off + m;
            if (off + m == it->rep)
                k->pos++;
            k->cur += m;
            n += m;
        } else if (k->pos < t->nitems && t->items[k->pos].cycle == k->cur) {
            const spt_item_t *it = &t->items[k->pos];
            if ((it->flags & (IT_RESET | IT_REG)) || it->el != k->el || it->allow != k->allow)
                break;
            unsigned m = popcount8(it->pop_mask);
            if (m > max_pops - np)
                break;
            np += m;
            if (pop_mask)
                pop_mask[n] = it->pop_mask;
            if (m && it->first_op + m > k->handed)
                k->handed = it->first_op + m;
            k->pos++;
            k->cur++;
            n++;
        } else {
            uint64_t end = k->pos < t->nitems ? t->items[k->pos].cycle : t->last_cycle + 1;
            uint64_t run = end - k->cur;
            if (run > max_cycles - n)
                run = max_cycles - n;
            if (pop_mask)
                memset(pop_mask + n, 0, run);
            k->cur += run;
            n += run;
        }
    }
    *pops = np;
    return n;
}

static uint64_t src_skip(void *self, uint64_t max_cycles, uint64_t max_pops, uint64_t *pops, uint8_t *pop_mask)
{
    return pop_mask ? skip_items(self, max_cycles, max_pops, pops, pop_mask)
                    : skip_items(self, max_cycles, max_pops, pops, NULL);
}

spu_src_t spt_source(spt_cursor_t *k, const spt_trace_t *t)
{
    memset(k, 0, sizeof *k);
    k->t = t;
    spu_src_t s;
    s.self = k;
    s.next = src_next;
    s.op = src_op;
    s.skip = src_skip;
    s.observe = NULL; /* open loop */
    return s;
}
