/*
 * The Profiling Buffer's reservation (Arm ARM D17.7, D17.8; docs/buffer.md):
 * every kept record waits in its slot at its finish, the slot occupied (a
 * selection that finds no free slot collides, D17.3.7), and enters the write
 * path in a later cycle, in finish order, one per cycle while the serial
 * encoder (spu_encode.c) is idle: the reservation is a cycle behind the
 * filter, and no kept record is lost for want of room. A record entering
 * takes its place at PMBPTR_EL1, which advances by the record's length at
 * once (SPEConstructRecord() writing at the pointer); SPEBufferIsFull() after
 * it raises the buffer-full management event.
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

/* The stop ahead of the fill (D17.8; docs/semantics.md, *The buffer-full
 * window*), worked out at the end of a step for the next, as the RTL does:
 * the waiting records enter in finish order, each at the pointer the ones
 * before it left, so one of them fills the buffer exactly when PMBPTR_EL1
 * plus all their lengths does (SPEBufferIsFull() is monotone in the
 * pointer; an end past 2^64 counts as full). The end is taken from the
 * pointer at the start of the step plus the bytes that entered in it, so
 * a pointer that wrapped past 2^64 in this step still ends past it (as the
 * RTL's compare in the step's own coordinates). A record that filled the
 * buffer stops the next step whatever waits; in the two steps after an MSR
 * PMBPTR_EL1 or PMBLIMITR_EL1 the stop holds (docs/impl-defined.md row
 * 46). */
int spu_buffer_stop_next(const spu_model_t *m, uint64_t ptr0, unsigned e, int stop, int full)
{
    if (!m->wq_n)
        return 0;
    if (m->buf_stale || m->buf_stale2)
        return stop;
    if (full)
        return 1;
    const uint64_t at = ptr0 + e;
    uint64_t end = at;
    for (unsigned k = 0; k < m->wq_n; k++)
        end += m->rec_len[m->wq[k]];
    return at < ptr0 || end < at || spu_buffer_is_full(&m->cfg, end, m->reg[SPU_REG_PMBLIMITR_EL1]);
}

void spu_buffer_begin(const spu_model_t *m, spu_bufstep_t *bs)
{
    /* ProfilingBufferEnabled() at the start of the cycle: PMBLIMITR_EL1.E and
     * not stopped (PMBSR_EL1.S). */
    bs->en = (m->reg[SPU_REG_PMBLIMITR_EL1] & SPU_F_PMBLIMITR_EL1_E_MASK) &&
             !(m->reg[SPU_REG_PMBSR_EL1] & SPU_F_PMBSR_EL1_S_MASK);
    /* a record enters only while the encoder is idle at the start of the
     * cycle, and not in the two cycles after a limit write */
    bs->enter = !m->enc.busy && !m->buf_stale && !m->buf_stale2;
    bs->full = 0;
    bs->e = 0;
}

/* The record of slot s enters the write path: its place at PMBPTR_EL1, then
 * SPEBufferIsFull(). Its slot stays occupied while the encoder reads it. */
static void buffer_enter(spu_model_t *m, spu_bufstep_t *bs, unsigned s, spu_out_t *out)
{
    const unsigned len = m->rec_len[s];
    uint64_t *ptr = &m->reg[SPU_REG_PMBPTR_EL1];
    spu_encode_start(m, s, *ptr);
    bs->enter = 0;
    bs->e = (uint8_t)len;
    out->rec_wr |= (uint8_t)(1u << s);
    *ptr += len;
    if (!spu_buffer_is_full(&m->cfg, *ptr, m->reg[SPU_REG_PMBLIMITR_EL1]))
        return;
    /* OtherSPEManagementEvent('000001'): S, EC = 0, BSC = buffer full; DL and
     * COLL kept. S is 0 here (a record enters only then), so the
     * SAMPLE_BUFFER_FULL of every full check is also one per management
     * event (docs/impl-defined.md). Profiling stops: the records waiting
     * behind it are discarded. */
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
        if (bs->en && !bs->enter)
            break; /* this one and the later ones wait on */
        if (bs->en) { /* it enters; its slot is freed when the encoder has read it */
            buffer_enter(m, bs, s, out);
            continue;
        }
        /* D17.4: disabled or stopped, the record is discarded */
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
