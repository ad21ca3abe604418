/* Private helpers shared by the golden model's files. */
#ifndef SPU_INTERNAL_H
#define SPU_INTERNAL_H

#include <string.h>

#include "spu_model.h"

/* 0 when every knob of cfg is in its range; else -1 with a message. */
int spu_config_knobs_ok(const spu_config_t *cfg, char *err, size_t errlen);
/* Members countable with no selection, draw or reload. */
uint64_t spu_interval_quiet(const spu_config_t *cfg, uint64_t pmsirr, uint64_t pmsicr);
/* Count n quiet members. */
void spu_interval_advance(const spu_config_t *cfg, uint64_t pmsirr, uint64_t *pmsicr, uint64_t n);
/* Count n[0], ..., n[k-1] quiet members in turn (in all at most
 * spu_interval_quiet()); after[i]: PMSICR_EL1 after n[i]. */
void spu_interval_advance_each(const spu_config_t *cfg, uint64_t pmsirr, uint64_t *pmsicr, const uint8_t *n,
                               unsigned k, uint64_t *after);
/* Count n members if none of them is selected, draws or reloads (n at most
 * spu_interval_quiet()): 1; else 0, PMSICR_EL1 unchanged. */
int spu_interval_count(const spu_config_t *cfg, uint64_t pmsirr, uint64_t *pmsicr, unsigned n);

/* The ones of a lane mask (8 bits), without a library call: two lookups
 * of a nibble's. */
_Static_assert(SPU_MAX_LANES <= 8, "spu_ones8() counts 8 lanes");
static inline unsigned spu_ones8(unsigned v)
{
    static const uint8_t nibble[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    return nibble[v & 0xFu] + nibble[(v >> 4) & 0xFu];
}

/* The lowest free slot of a nonzero slot mask (8 bits), in plain C: the
 * first set bit of a nibble's, looked up. */
_Static_assert(SPU_MAX_SLOTS <= 8, "spu_lowest8() looks at 8 slots");
static inline unsigned spu_lowest8(unsigned v)
{
    static const uint8_t first[16] = {4, 0, 1, 0, 2, 0, 1, 0, 3, 0, 1, 0, 2, 0, 1, 0};
    return (v & 0xFu) ? first[v & 0xFu] : 4u + first[(v >> 4) & 0xFu];
}

/* The outputs every cycle shows: the enable, PMSICR_EL1 and the interrupt. */
static inline void spu_step_outputs(const spu_model_t *m, int en, spu_out_t *out)
{
    out->obs_enabled = (uint8_t)en;
    out->obs_pmsicr = m->reg[SPU_REG_PMSICR_EL1];
    out->pmbirq = (m->reg[SPU_REG_PMBSR_EL1] & SPU_F_PMBSR_EL1_S_MASK) != 0;
}

/* Every output zero: a 64-byte part and the rest, which a compiler clears
 * with a few vector stores (the 96 bytes of spu_out_t at once are a `rep
 * stos`, slow to start, or a copy of a zero constant, a load for every
 * store). */
static inline void spu_out_clear(spu_out_t *out)
{
    _Static_assert(sizeof(spu_out_t) > 64, "spu_out_t cleared as 64 bytes and the rest");
    memset(out, 0, 64);
    memset((char *)out + 64, 0, sizeof *out - 64);
}


/* The Profiling Buffer (spu_buffer.c, spu_encode.c), in the order of a
 * step: begin the cycle's writes (what holds at its start); the port shows
 * its next beat; the encoder writes a beat when the queue had room at the
 * start of the cycle (returns the slot it frees); the waiting records
 * enter, one while the encoder is idle, in finish order, or are discarded
 * while the buffer is disabled or stopped (returns the slots freed); then
 * each kept record of the cycle, in port order, joins the waiting records
 * (its slot stays occupied); show the beat. A record entering reserves its
 * place at PMBPTR_EL1 and may fill the buffer (docs/buffer.md). */
typedef struct spu_bufstep {
    uint8_t en;    /* records can be written: ProfilingBufferEnabled() and not stopped since */
    uint8_t enter; /* a record may enter the write path this cycle */
    uint8_t full;  /* a record of this cycle filled the buffer */
    uint8_t e;     /* the bytes of the record that entered (0: none) */
} spu_bufstep_t;
/* The next step's stop ahead of a fill, at the end of a step that began
 * with PMBPTR_EL1 = ptr0, whose entering record (if any) has e bytes, that
 * stopped its members (stop) and that filled the buffer (full). */
int spu_buffer_stop_next(const spu_model_t *m, uint64_t ptr0, unsigned e, int stop, int full);
void spu_buffer_begin(const spu_model_t *m, spu_bufstep_t *bs);
void spu_port_step(spu_model_t *m, const spu_in_t *in);
uint8_t spu_encode_step(spu_model_t *m, int room);
uint8_t spu_buffer_waiting(spu_model_t *m, spu_bufstep_t *bs, spu_out_t *out);
void spu_encode_start(spu_model_t *m, unsigned s, uint64_t ptr);
void spu_buffer_hold(spu_model_t *m, unsigned s);
void spu_port_show(const spu_model_t *m, spu_out_t *out);

/* The write path holds something: a record being encoded, a beat queued or
 * shown. */
static inline int spu_write_busy(const spu_model_t *m)
{
    return m->enc.busy | m->bq_n | m->port_valid;
}

#endif
