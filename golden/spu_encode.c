/*
 * The serial record encoder and the write port (docs/buffer.md). The record
 * that entered the write path is written a packet per cycle, in the order of
 * the packet table, into a window of bytes; every 8 bytes of the window
 * (from PMBPTR_EL1's offset in its 8 bytes) are a write beat, which goes into
 * the beat queue of BUF_BEATS beats; the last beat of the record goes in
 * when its last byte (padding included) is in the window. While the queue is
 * full the encoder waits. The record's slot is freed in the cycle its last
 * packet is read. The write port shows the queue's beats through its output
 * registers: a beat written in step c is shown in the outputs of step c+1
 * at the earliest (the RTL's registers after the edge that ends that
 * cycle), one beat per cycle while the memory takes them.
 */
#include <string.h>

#include "spu_internal.h"

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

void spu_encode_start(spu_model_t *m, unsigned s, uint64_t ptr)
{
    spu_enc_t *e = &m->enc;
    e->busy = 1;
    e->slot = (uint8_t)s;
    e->left = m->rec_pk[s];
    e->o = (uint8_t)(ptr & 7u);
    e->tail = e->len = m->rec_len[s];
    e->k = 0;
    e->addr = ptr;
    memcpy(e->rec, m->rec[s], e->len);
}

void spu_port_step(spu_model_t *m, const spu_in_t *in)
{
    const int take = m->port_valid && in->mem_ready;
    if (m->bq_n && (!m->port_valid || take)) {
        m->port = m->bq[m->bq_head];
        m->bq_head = (uint8_t)((m->bq_head + 1u) % m->cfg.knob[SPU_KNOB_BUF_BEATS]);
        m->bq_n--;
        m->port_valid = 1;
    } else if (take) {
        m->port_valid = 0;
    }
}

/* The window takes the next packet, or the padding up to its 8 bytes;
 * returns the slot freed when that was the record's last packet. */
static uint8_t encode_take(spu_model_t *m)
{
    spu_enc_t *e = &m->enc;
    unsigned size;
    uint8_t freed = 0;
    if (e->left) {
        unsigned i = 0;
        while (!((e->left >> i) & 1u))
            i++;
        e->left &= e->left - 1u;
        size = 1u + spu_packet_payload(&m->cfg, i);
        if (!e->left) {
            m->slot[e->slot].waiting = 0;
            freed = (uint8_t)(1u << e->slot);
        }
    } else {
        size = e->tail < 8u - e->o ? e->tail : 8u - e->o;
    }
    e->tail = (uint8_t)(e->tail - size);
    e->o = (uint8_t)(e->o + size);
    return freed;
}

uint8_t spu_encode_step(spu_model_t *m, int room)
{
    spu_enc_t *e = &m->enc;
    if (!e->busy || !room)
        return 0;
    const uint8_t freed = e->o < 8 ? encode_take(m) : 0;
    if (e->o >= 8 || (!e->left && !e->tail && e->o)) {
        const unsigned q = m->cfg.knob[SPU_KNOB_BUF_BEATS];
        spu_beat_t *b = &m->bq[(m->bq_head + m->bq_n) % q];
        (void)spu_buffer_beat(e->addr, e->len, e->rec, e->k++, &b->addr, &b->data, &b->strb);
        m->bq_n++;
        e->o = (uint8_t)(e->o >= 8 ? e->o - 8 : 0);
    }
    if (!e->left && !e->tail && !e->o)
        e->busy = 0;
    return freed;
}

void spu_port_show(const spu_model_t *m, spu_out_t *out)
{
    if (!m->port_valid)
        return;
    out->mem_valid = 1;
    out->mem_addr = m->port.addr;
    out->mem_data = m->port.data;
    out->mem_strb = m->port.strb;
}
