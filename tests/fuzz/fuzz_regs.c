/*
 * Fuzz target: the golden model's register port and the cycle around it.
 * The first byte picks the configuration; then each 12-byte record is one
 * cycle: a register access (any encoding, read or write, any value), the
 * context, population members, and issue/finish events on any slot with
 * any type, events and data source. Reads of the ID registers must match
 * the configuration, and the model must never step into a state its own
 * helpers call out of range.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spu_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    spu_model_t m;
    const spu_config_t *cfg = &spu_configs[data[0] % spu_nconfigs];
    if (spu_model_init(&m, cfg, NULL, 0) != 0)
        abort();
    const uint64_t pmsidr = spu_model_reg_read(&m, SPU_REG_PMSIDR_EL1);
    for (size_t at = 1; at + 12 <= size; at += 12) {
        const uint8_t *r = data + at;
        spu_in_t in = {0};
        spu_out_t out;
        const uint8_t f = r[0];
        in.rst_n = (f & 0xF0u) != 0xF0u; /* a reset in 1 of 16 cycles */
        in.reg_valid = f & 1u;
        in.reg_write = (f >> 1) & 1u;
        in.reg_enc = (uint16_t)(r[1] | r[2] << 8);
        if (r[3] & 1u) /* half the time one of the model's own encodings */
            in.reg_enc = spu_reg_enc(r[1] % SPU_NREGS);
        in.reg_wdata = get64(r + 4);
        in.el = (f >> 2) & 3u;
        in.prof_allowed = (r[3] >> 1) & 1u;
        in.pop_valid = (uint8_t)(r[3] & ((1u << cfg->lanes) - 1u));
        for (unsigned p = 0; p < cfg->slots; p++) {
            const uint8_t e = r[4 + p];
            if (e & 1u) {
                in.iss_valid |= (uint8_t)(1u << p);
                in.iss_slot[p] = (uint8_t)((e >> 1) % cfg->slots);
            }
            if (e & 8u) {
                in.fin_valid |= (uint8_t)(1u << p);
                in.fin_slot[p] = (uint8_t)((e >> 4) % cfg->slots);
                in.fin_type[p] = (uint8_t)(r[8 + p % 4] & 0x1Fu);
                in.fin_events[p] = get64(r + 4) >> (e & 7u);
                in.fin_ds_valid |= (uint8_t)(((e >> 6) & 1u) << p);
                in.fin_ds[p] = (uint16_t)(r[9] | r[10] << 8);
            }
        }
        spu_model_step(&m, &in, &out);
        if (in.rst_n && in.reg_valid && !in.reg_write && !out.reg_undef &&
            in.reg_enc == spu_reg_enc(SPU_REG_PMSIDR_EL1) && out.reg_rdata != pmsidr)
            abort(); /* an ID register changed */
    }
    return 0;
}
