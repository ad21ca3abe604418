/*
 * .spt replay: a parsed trace as a stimulus source (stim.h), every cycle from
 * 0 to the last line, empty cycles in between.
 */
#include <string.h>

#include "spt_priv.h"


static int src_next(void *self, spu_cyc_t *c)
{
    spt_trace_t *t = self;
    if (t->done || t->cur > t->last_cycle) {
        t->done = 1;
        return 0;
    }
    memset(c, 0, sizeof *c);
    c->cycle = t->cur;
    if (t->pos < t->nitems && t->items[t->pos].cycle == t->cur) {
        const spt_item_t *it = &t->items[t->pos++];
        c->reset = (it->flags & IT_RESET) != 0;
        c->pop_mask = it->pop_mask;
        uint64_t id = it->first_op;
        for (unsigned l = 0; l < SPU_MAX_LANES; l++)
            if (it->pop_mask >> l & 1)
                c->op_id[l] = id++;
        if (it->flags & IT_REG) {
            c->reg_valid = 1;
            c->reg_write = (it->flags & IT_WRITE) != 0;
            c->reg_enc = it->enc;
            c->reg_wdata = it->wdata;
        }
        t->el = it->el;
        t->allow = it->allow;
    }
    c->el = t->el;
    c->allow = t->allow;
    t->cur++;
    return 1;
}

static void src_op(void *self, uint64_t id, spu_op_t *op)
{
    const spt_trace_t *t = self;
    if (id < t->nops) {
        *op = t->ops[id];
    } else {
        memset(op, 0, sizeof *op);
        op->id = id;
        op->iss = op->fin = 1;
    }
}

static unsigned popcount8(unsigned x)
{
    unsigned n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

static uint64_t src_skip(void *self, uint64_t max_cycles, uint64_t max_pops, uint64_t *pops)
{
    spt_trace_t *t = self;
    uint64_t n = 0, np = 0;
    while (n < max_cycles && !t->done && t->cur <= t->last_cycle) {
        if (t->pos < t->nitems && t->items[t->pos].cycle == t->cur) {
            const spt_item_t *it = &t->items[t->pos];
            if ((it->flags & (IT_RESET | IT_REG)) || it->el != t->el || it->allow != t->allow)
                break;
            unsigned k = popcount8(it->pop_mask);
            if (k > max_pops - np)
                break;
            np += k;
            t->pos++;
            t->cur++;
            n++;
        } else {
            uint64_t end = t->pos < t->nitems ? t->items[t->pos].cycle : t->last_cycle + 1;
            uint64_t run = end - t->cur;
            if (run > max_cycles - n)
                run = max_cycles - n;
            t->cur += run;
            n += run;
        }
    }
    *pops = np;
    return n;
}

spu_src_t spt_source(spt_trace_t *t)
{
    spu_src_t s;
    t->pos = 0;
    t->cur = 0;
    t->el = 0;
    t->allow = 0;
    t->done = 0;
    s.self = t;
    s.next = src_next;
    s.op = src_op;
    s.skip = src_skip;
    return s;
}

