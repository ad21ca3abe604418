/*
 * The APB4 completer spu_apb (rtl/spu_apb.v) as a cycle model around the
 * golden model: which register access the wrapper presents to the unit in a
 * cycle, and the PRDATA/PREADY/PSLVERR it shows after the clock edge. The
 * memory map and the transfer timing are those of docs/integration.md ("The
 * APB wrapper"). Like the model: no globals, the caller owns the state.
 *
 * Per cycle, with the APB inputs `ai` of that cycle:
 *   spu_apb_drive(a, ai, in)          the unit's register-port inputs (in->reg_*)
 *   spu_model_step(m, in, out)        the unit
 *   spu_apb_clock(a, ai, in, out, ao) the wrapper's clock edge; ao is what it
 *                                     shows in the next cycle
 */
#ifndef SPU_APB_H
#define SPU_APB_H

#include "spu_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* APB4 inputs of one cycle (PSEL..PPROT). */
typedef struct spu_apb_in {
    uint8_t psel, penable, pwrite;
    uint8_t pstrb;                        /* 4 bits */
    uint8_t pprot;                        /* 3 bits, not checked */
    uint16_t paddr;                       /* 12 bits */
    uint32_t pwdata;
} spu_apb_in_t;

/* APB4 outputs shown in a cycle. */
typedef struct spu_apb_out {
    uint32_t prdata;
    uint8_t pready, pslverr;
} spu_apb_out_t;

/* The memory map. */
#define SPU_APB_REG_END 0x080u            /* registers: 0x000 .. 0x07F */
#define SPU_APB_PMU_BASE 0x100u           /* SAMPLE_* counter e at 0x100 + 4e */

/* The wrapper's registers (rtl/spu_apb.v), and what the unit shows this
 * cycle that they take at the next edge. */
typedef struct spu_apb {
    uint8_t pready_q, unit_q, half_q, pslverr_q;
    uint32_t prdata_q, wlo_q, rhi_q;
    uint32_t cnt[SPU_NPMU];               /* SAMPLE_* counters */
    uint8_t pmu_shown[SPU_NPMU];          /* the unit's pmu_o this cycle */
    uint64_t rdata_shown;                 /* its reg_rdata_o this cycle */
} spu_apb_t;

/* The state after reset (PRESETn). */
void spu_apb_reset(spu_apb_t *a);

/* The APB address of the System register with this packed encoding
 * ({op0,op1,CRn,CRm,op2}), or -1 when the map has none for it. */
int spu_apb_reg_addr(uint16_t enc);

/* The unit's register-port inputs of this cycle: the MRS or MSR the wrapper
 * presents (in->reg_valid, reg_write, reg_enc, reg_wdata), else reg_valid 0. */
void spu_apb_drive(const spu_apb_t *a, const spu_apb_in_t *ai, spu_in_t *in);

/* The clock edge: the wrapper's next state from this cycle's APB inputs and
 * the unit's inputs and outputs of the same step; *ao: the APB outputs shown
 * in the next cycle. */
void spu_apb_clock(spu_apb_t *a, const spu_apb_in_t *ai, const spu_in_t *in, const spu_out_t *out,
                   spu_apb_out_t *ao);

#ifdef __cplusplus
}
#endif
#endif
