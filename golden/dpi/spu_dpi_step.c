/*
 * spu_dpi_step (spu_dpi.h): spu_top's packed ports (docs/ports.md) to the
 * model's spu_in_t, one spu_model_step, and spu_out_t back to the ports.
 */
#include <string.h>

#include "spu_dpi_internal.h"

/* Bits of one lane's or port's field where configs/spu.toml does not give
 * them (docs/ports.md; SPU_ATTR_BITS, SPU_REC_ADDR_BITS and SPU_PMU_W are
 * the model's). */
enum {
    W_SLOT = 2,    /* iss_slot_i, fin_slot_i, smp_slot_o, rec_slot_o */
    W_TYPE = 5,    /* fin_type_i */
    W_WHY = 6,     /* rec_why_o */
    W_BYTE = 8,    /* rec_len_o, rec_data_o, mem_strb_o */
    W_16 = 16,     /* fin_ds_i, reg_enc_i, rec_tot_lat_o, rec_iss_lat_o */
    W_CTX = 32,    /* fin_ctx_i */
    W_ADDR = 56,   /* fin_pc_i, fin_tgt_i, fin_pa_i, fin_pbt_i */
    W_64 = 64,     /* fin_events_i, fin_va_i, ts_i, reg_wdata_i, reg_rdata_o, obs_pmsicr_o, mem_addr_o, mem_data_o */
    W_EL = 2       /* el_i */
};

/* A port into one scalar field, or into an array field of n elements. */
#define IN_ONE(v, f, w) spu_dpi_unpack((v), &in.f, sizeof in.f, 1, (w))
#define IN_ARR(v, f, n, w) spu_dpi_unpack((v), in.f, sizeof in.f[0], (n), (w))
#define OUT_ONE(v, f, w) spu_dpi_pack((v), &out.f, sizeof out.f, 1, (w))
#define OUT_ARR(v, f, n, w) spu_dpi_pack((v), out.f, sizeof out.f[0], (n), (w))

void spu_dpi_step(SPU_DPI_STEP_PARAMS)
{
    spu_dpi_t *d = h;
    if (!d)
        return; /* spu_dpi_new failed and said why; the caller did not check */
    const unsigned L = d->m.cfg.lanes, S = d->m.cfg.slots, R = d->m.cfg.rec_max;
    spu_in_t in;
    memset(&in, 0, sizeof in);
    in.rst_n = rst_ni & 1u;
    IN_ONE(pop_valid_i, pop_valid, L);
    IN_ONE(iss_valid_i, iss_valid, S);
    IN_ARR(iss_slot_i, iss_slot, S, W_SLOT);
    IN_ONE(fin_valid_i, fin_valid, S);
    IN_ARR(fin_slot_i, fin_slot, S, W_SLOT);
    IN_ARR(fin_type_i, fin_type, S, W_TYPE);
    IN_ARR(fin_events_i, fin_events, S, W_64);
    IN_ONE(fin_ds_valid_i, fin_ds_valid, S);
    IN_ARR(fin_ds_i, fin_ds, S, W_16);
    IN_ARR(fin_attr_i, fin_attr, S, SPU_ATTR_BITS);
    IN_ARR(fin_addr_valid_i, fin_addr_valid, S, SPU_REC_ADDR_BITS);
    IN_ARR(fin_ctx_i, fin_ctx, S, W_CTX);
    IN_ARR(fin_pc_i, fin_pc, S, W_ADDR);
    IN_ARR(fin_tgt_i, fin_tgt, S, W_ADDR);
    IN_ARR(fin_va_i, fin_va, S, W_64);
    IN_ARR(fin_pa_i, fin_pa, S, W_ADDR);
    IN_ARR(fin_pbt_i, fin_pbt, S, W_ADDR);
    IN_ONE(ts_i, ts, W_64);
    in.reg_valid = reg_valid_i & 1u;
    in.reg_write = reg_write_i & 1u;
    IN_ONE(reg_enc_i, reg_enc, W_16);
    IN_ONE(reg_wdata_i, reg_wdata, W_64);
    IN_ONE(el_i, el, W_EL);
    in.prof_allowed = prof_allowed_i & 1u;
    in.mem_ready = mem_ready_i & 1u;

    spu_out_t out;
    spu_model_step(&d->m, &in, &out);

    /* rec_data_o: every port's record, zero past its length, in a cycle
     * with a record on some port; the last ones otherwise */
    unsigned any = 0;
    for (unsigned p = 0; p < S; p++)
        any |= out.rec_len[p];
    if (any) {
        memset(d->rec_data, 0, sizeof d->rec_data);
        for (unsigned p = 0; p < S; p++)
            memcpy(d->rec_data + R * p, spu_model_record(&d->m, p), out.rec_len[p]);
    }
    *mem_valid_o = out.mem_valid & 1u;
    OUT_ONE(mem_addr_o, mem_addr, W_64);
    OUT_ONE(mem_data_o, mem_data, W_64);
    OUT_ONE(mem_strb_o, mem_strb, W_BYTE);
    *pmbirq_o = out.pmbirq & 1u;
    OUT_ONE(smp_valid_o, smp_valid, L);
    OUT_ONE(col_valid_o, col_valid, L);
    OUT_ARR(smp_slot_o, smp_slot, L, W_SLOT);
    OUT_ONE(rec_valid_o, rec_valid, S);
    OUT_ONE(rec_keep_o, rec_keep, S);
    OUT_ARR(rec_slot_o, rec_slot, S, W_SLOT);
    OUT_ARR(rec_why_o, rec_why, S, W_WHY);
    OUT_ARR(rec_tot_lat_o, rec_tot_lat, S, W_16);
    OUT_ARR(rec_iss_lat_o, rec_iss_lat, S, W_16);
    OUT_ARR(rec_len_o, rec_len, S, W_BYTE);
    spu_dpi_pack(rec_data_o, d->rec_data, 1, S * R, W_BYTE);
    OUT_ONE(rec_wr_o, rec_wr, S);
    OUT_ONE(rec_qfull_o, rec_qfull, S);
    OUT_ARR(pmu_o, pmu, SPU_NPMU, SPU_PMU_W);
    OUT_ONE(reg_rdata_o, reg_rdata, W_64);
    *reg_undef_o = out.reg_undef & 1u;
    OUT_ONE(obs_pmsicr_o, obs_pmsicr, W_64);
    *obs_enabled_o = out.obs_enabled & 1u;
}
