/*
 * Questions about a loaded trace that a caller asks before replaying it
 * (spt.h): the longest finish latency of its ops, and its first register
 * write or reset.
 */
#include "spt_priv.h"

uint32_t spt_max_fin(const spt_trace_t *t)
{
    uint32_t m = 0;
    for (size_t i = 0; i < t->nrec; i++)
        if (t->ops[i].fin > m)
            m = t->ops[i].fin;
    return m;
}

int spt_first_write(const spt_trace_t *t, uint64_t *cycle, int *reset, uint16_t *enc)
{
    for (size_t i = 0; i < t->nitems; i++) {
        const spt_item_t *it = &t->items[i];
        if ((it->flags & IT_RESET) || ((it->flags & IT_REG) && (it->flags & IT_WRITE))) {
            *cycle = it->cycle;
            *reset = (it->flags & IT_RESET) != 0;
            *enc = it->enc;
            return 1;
        }
    }
    return 0;
}
