/*
 * openspu golden model as DPI-C functions, for a SystemVerilog testbench
 * that uses the model as its scoreboard reference (docs/integration.md).
 * golden/dpi/spu_dpi_pkg.sv imports exactly these functions.
 *
 * Every input and output of spu_dpi_step is a port of rtl/spu_top.v in its
 * packed layout (docs/ports.md): lane l or port p of a vector of w-bit
 * fields at [w*l +: w], rec_data_o's port p at [8*REC_MAX*p +:]. Packed
 * vectors are svBitVecVal arrays (bit i in word i/32, bit i%32), 1-bit
 * ports are svBit. spu_dpi_step is one clock: the inputs of the cycle in,
 * the outputs spu_top shows after that clock edge out.
 *
 * Depends on the golden model only (spu_model.h); no simulator runtime
 * function is called, so the library links into any simulator with DPI-C.
 */
#ifndef SPU_DPI_H
#define SPU_DPI_H

#include "svdpi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A model of configuration cfg_name (a name of configs/spu.toml) for a
 * SystemVerilog side compiled with these widths (its spu_config.vh: LANES,
 * SLOTS, REC_MAX, NPMU, PMU_W); the model is reset. Returns NULL, with the
 * reason in spu_dpi_error(), for an unknown configuration, widths that are
 * not the configuration's, or no memory. */
void *spu_dpi_new(const char *cfg_name, int lanes, int slots, int rec_max, int npmu, int pmu_w);

/* Set knob `name` (docs/impl-defined.md) of the model's configuration to
 * value and reset the model, as spu_top's parameter of that name would be
 * set. Returns 0, or -1 with the reason in spu_dpi_error(). */
int spu_dpi_set_knob(void *h, const char *name, unsigned value);

/* Why the last spu_dpi_new or spu_dpi_set_knob of this thread failed (""
 * when it succeeded). */
const char *spu_dpi_error(void);

/* Release a model (NULL is ignored). */
void spu_dpi_free(void *h);

/* One clock cycle, spu_top's ports in its declaration order. rec_data_o
 * behaves as the RTL's: loaded in a cycle with a record on some port, held
 * otherwise. (The parameter list is a macro so that the definition in
 * spu_dpi_step.c is this declaration.) */
#define SPU_DPI_STEP_PARAMS                                                                                           \
    void *h,                                                                                                          \
        /* inputs */                                                                                                  \
        svBit rst_ni, const svBitVecVal *pop_valid_i, const svBitVecVal *iss_valid_i, const svBitVecVal *iss_slot_i, \
        const svBitVecVal *fin_valid_i, const svBitVecVal *fin_slot_i, const svBitVecVal *fin_type_i,                 \
        const svBitVecVal *fin_events_i, const svBitVecVal *fin_ds_valid_i, const svBitVecVal *fin_ds_i,              \
        const svBitVecVal *fin_attr_i, const svBitVecVal *fin_addr_valid_i, const svBitVecVal *fin_ctx_i,             \
        const svBitVecVal *fin_pc_i, const svBitVecVal *fin_tgt_i, const svBitVecVal *fin_va_i,                       \
        const svBitVecVal *fin_pa_i, const svBitVecVal *fin_pbt_i, const svBitVecVal *ts_i, svBit reg_valid_i,        \
        svBit reg_write_i, const svBitVecVal *reg_enc_i, const svBitVecVal *reg_wdata_i, const svBitVecVal *el_i,     \
        svBit prof_allowed_i, svBit mem_ready_i,                                                                      \
        /* outputs */                                                                                                 \
        svBit *mem_valid_o, svBitVecVal *mem_addr_o, svBitVecVal *mem_data_o, svBitVecVal *mem_strb_o,               \
        svBit *pmbirq_o, svBitVecVal *smp_valid_o, svBitVecVal *col_valid_o, svBitVecVal *smp_slot_o,                 \
        svBitVecVal *rec_valid_o, svBitVecVal *rec_keep_o, svBitVecVal *rec_slot_o, svBitVecVal *rec_why_o,           \
        svBitVecVal *rec_tot_lat_o, svBitVecVal *rec_iss_lat_o, svBitVecVal *rec_len_o, svBitVecVal *rec_data_o,      \
        svBitVecVal *rec_wr_o, svBitVecVal *rec_qfull_o, svBitVecVal *pmu_o, svBitVecVal *reg_rdata_o,               \
        svBit *reg_undef_o, svBitVecVal *obs_pmsicr_o, svBit *obs_enabled_o
void spu_dpi_step(SPU_DPI_STEP_PARAMS);

#ifdef __cplusplus
}
#endif
#endif
