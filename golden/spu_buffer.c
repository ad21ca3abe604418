/*
 * The Profiling Buffer (Arm ARM D17.7, D17.8; docs/buffer.md): each record
 * the unit writes takes its place at PMBPTR_EL1, which advances by the
 * record's length at once (SPEConstructRecord() writing at the pointer);
 * SPEBufferIsFull() after each record raises the buffer-full management
 * event. The bytes go to memory through a write queue of BUF_QUEUE records
 * and a port of 8-byte beats with byte enables that the memory may stall
 * (mem_ready). Every kept record waits in its slot at its finish, the slot
 * occupied (a selection that finds no free slot collides, D17.3.7), and
 * takes an entry in a later cycle, in finish order: the reservation is a
 * cycle behind the filter, and no kept record is lost for queue space.
 */
#include <string.h>

#include "spu_internal.h"

int spu_buffer_is_full(const spu_config_t *cfg, uint64_t ptr, uint64_t limitr)
{
    /* UInt(PMBPTR) > UInt(LIMIT:Zeros(12)) - (1 << MaxSize), in integers:
     * the subtraction may go below zero, so it is not done in 64 bits. */
    const uint64_t limit = limitr & SPU_F_PMBLIMITR_EL1_LIMIT_MASK;
    const uint64_t max = 1ull << SPU_GET(cfg->pmsidr, PMSIDR_EL1, MaxSize);
    return ptr > limit || limit - ptr < max;
}

int spu_buffer_beat(uint64_t addr, unsigned len, const uint8_t *rec, unsigned beat,
                    uint64_t *baddr, uint64_t *bdata, uint8_t *bstrb)
{
    const unsigned o = (unsigned)(addr & 7u);
    uint64_t d = 0;
    uint8_t st = 0;
    for (unsigned j = 0; j < 8; j++) {
        const unsigned at = 8 * beat + j; /* byte of the record at lane j, plus o */
        if (at >= o && at - o < len) {
            d |= (uint64_t)rec[at - o] << (8 * j);
            st |= (uint8_t)(1u << j);
        }
    }
    *baddr = (addr & ~7ull) + 8ull * beat;
    *bdata = d;
    *bstrb = st;
    return 8 * (beat + 1) >= o + len;
}

void spu_buffer_accept(spu_model_t *m, const spu_in_t *in)
{
    spu_bufq_t *h = &m->bq[m->bq_head];
    if (m->bq_count && h->filled && in->mem_ready) {
        /* the last beat: the one that reaches the record's end */
        if (8u * (m->bq_beat + 1u) >= (unsigned)(h->addr & 7u) + h->len) {
            m->bq_head = (uint8_t)((m->bq_head + 1u) % m->cfg.knob[SPU_KNOB_BUF_QUEUE]);
            m->bq_count--;
            m->bq_beat = 0;
        } else {
            m->bq_beat++;
        }
    }
    /* records queued in the last cycle have their bytes now */
    for (unsigned i = 0, q = m->cfg.knob[SPU_KNOB_BUF_QUEUE]; i < m->bq_count; i++)
        m->bq[(m->bq_head + i) % q].filled = 1;
}

void spu_buffer_begin(const spu_model_t *m, spu_bufstep_t *bs)
{
    /* ProfilingBufferEnabled() at the start of the cycle: PMBLIMITR_EL1.E and
     * not stopped (PMBSR_EL1.S). */
    bs->en = (m->reg[SPU_REG_PMBLIMITR_EL1] & SPU_F_PMBLIMITR_EL1_E_MASK) &&
             !(m->reg[SPU_REG_PMBSR_EL1] & SPU_F_PMBSR_EL1_S_MASK);
    bs->free = (uint8_t)(m->cfg.knob[SPU_KNOB_BUF_QUEUE] - m->bq_count);
    bs->full = 0;
}

/* The record of slot s takes a queue entry and its place at PMBPTR_EL1,
 * then SPEBufferIsFull(). */
static void buffer_enter(spu_model_t *m, spu_bufstep_t *bs, unsigned s, spu_out_t *out)
{
    const unsigned len = m->rec_len[s];
    uint64_t *ptr = &m->reg[SPU_REG_PMBPTR_EL1];
    const unsigned q = m->cfg.knob[SPU_KNOB_BUF_QUEUE];
    spu_bufq_t *e = &m->bq[(m->bq_head + m->bq_count) % q];
    e->addr = *ptr;
    e->len = (uint8_t)len;
    e->filled = 0;
    memcpy(e->data, m->rec[s], len);
    m->bq_count++;
    bs->free--;
    out->rec_wr |= (uint8_t)(1u << s);
    *ptr += len;
    if (!spu_buffer_is_full(&m->cfg, *ptr, m->reg[SPU_REG_PMBLIMITR_EL1]))
        return;
    /* OtherSPEManagementEvent('000001'): S, EC = 0, BSC = buffer full; DL and
     * COLL kept. S is 0 here (a record enters only then), so the
     * SAMPLE_BUFFER_FULL of every full check is also one per management
     * event (docs/impl-defined.md). Profiling stops: later records of this
     * cycle are discarded. */
    uint64_t *bsr = &m->reg[SPU_REG_PMBSR_EL1];
    *bsr = (*bsr & (SPU_F_PMBSR_EL1_DL_MASK | SPU_F_PMBSR_EL1_COLL_MASK)) | SPU_F_PMBSR_EL1_S_MASK |
           SPU_PUT(PMBSR_EL1, MSS, 1);
    if (spu_pmu_implemented(&m->cfg, SPU_PMU_BUFFER_FULL))
        out->pmu[SPU_PMU_BUFFER_FULL]++;
    bs->en = 0;
    bs->full = 1;
}

uint8_t spu_buffer_waiting(spu_model_t *m, spu_bufstep_t *bs, spu_out_t *out)
{
    unsigned k = 0;
    uint8_t freed = 0;
    for (; k < m->wq_n; k++) {
        const unsigned s = m->wq[k];
        if (bs->en && !bs->free)
            break; /* this one and the later ones wait on */
        if (bs->en) /* else D17.4: disabled or stopped, the record is discarded */
            buffer_enter(m, bs, s, out);
        m->slot[s].waiting = 0;
        freed |= (uint8_t)(1u << s);
    }
    memmove(m->wq, m->wq + k, m->wq_n - k);
    m->wq_n = (uint8_t)(m->wq_n - k);
    return freed;
}

void spu_buffer_hold(spu_model_t *m, unsigned s)
{
    m->wq[m->wq_n++] = (uint8_t)s;
    m->slot[s].waiting = 1;
}

void spu_buffer_show(const spu_model_t *m, spu_out_t *out)
{
    const spu_bufq_t *h = &m->bq[m->bq_head];
    if (!m->bq_count || !h->filled)
        return;
    out->mem_valid = 1;
    (void)spu_buffer_beat(h->addr, h->len, h->data, m->bq_beat, &out->mem_addr, &out->mem_data, &out->mem_strb);
}
