/*
 * openspu golden model as DPI-C functions, for a SystemVerilog testbench
 * that uses the model as its scoreboard reference (docs/integration.md).
 * golden/dpi/spu_dpi_pkg.sv imports exactly these functions.
 *
 * Every input and output of spu_dpi_step is a port of rtl/spu_top.v in its
 * packed layout (docs/ports.md): lane l or port p of a vector of w-bit
 * fields at [w*l +: w]. Packed
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

#include "spu_ports.h" /* generated from configs/spu.toml [ports] */

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

/* One clock cycle: spu_top's inputs with a spu_in_t member, then its
 * outputs, in the order of configs/spu.toml [ports] (the vector files'
 * order, docs/formats.md; the list is generated, SPU_DPI_PORTS of
 * spu_ports.h: an svBit for a 1-bit port, else an svBitVecVal array; the
 * parameter list is a macro so that the definition in spu_dpi_step.c is
 * this declaration). */
#define SPU_DPI_BIT_IN(p) svBit p
#define SPU_DPI_VEC_IN(p) const svBitVecVal *p
#define SPU_DPI_BIT_OUT(p) svBit *p
#define SPU_DPI_VEC_OUT(p) svBitVecVal *p
#define SPU_DPI_PARAM(p, K, D) , SPU_DPI_##K##_##D(p)
#define SPU_DPI_STEP_PARAMS void *h SPU_DPI_PORTS(SPU_DPI_PARAM)
void spu_dpi_step(SPU_DPI_STEP_PARAMS);

#ifdef __cplusplus
}
#endif
#endif
