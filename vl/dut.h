/*
 * The DUT behind a plain C API (one small C++ shim per Verilated build,
 * vl/dut_shim.cpp). Any build of spu_top with the same ports fits.
 */
#ifndef SPU_DUT_H
#define SPU_DUT_H

#include <stddef.h>

#include "spu_apb.h"
#include "spu_fast.h" /* spu_block_t: step_block() */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct spu_dut spu_dut_t;

/* The outputs of a quiet cycle, the common one: no selection, collision,
 * record, Profiling Buffer write or write beat, no PMU count but
 * SAMPLE_POP, and the rest as given here. cmp_quiet() (tb/compare.h) makes
 * it from the model's spu_out_t; step_check_quiet() checks the DUT's outputs
 * against it without unpacking them into a spu_out_t. */
typedef struct spu_quiet {
    SPU_QUIET_MEMBERS                   /* the outputs configs/spu.toml [ports] marks carried */
    uint8_t quiet;                      /* 1: the cycle is quiet; 0: the rest is meaningless */
} spu_quiet_t;

/* The functions one Verilated build provides. */
typedef struct spu_dut_vtbl {
    const char *config;                 /* configuration it was built for */
    const char *identity;               /* Verilated class, build time, RTL digest */
    /* NULL on failure. full_clock: evaluate on both clock edges instead of
     * once per cycle (see dut_shim.cpp); the outputs are the same. piped:
     * in a build with the input stage, step() shows its outputs one step
     * late (see input_stage); ignored in a build without it. */
    spu_dut_t *(*create)(uint64_t init_seed, int full_clock, int piped);
    void (*destroy)(spu_dut_t *d);
    /* Reset sequence rst_ni 1 -> 0 (two clocks) -> 1 (docs/ports.md). */
    void (*reset)(spu_dut_t *d);
    /* One clock: inputs before the rising edge, registered outputs after it.
     * Created piped (input_stage 1): the registered outputs of the previous
     * step's inputs; the first step after reset shows a reset cycle's. */
    void (*step)(spu_dut_t *d, const spu_in_t *in, spu_out_t *out);
    /* step() without unpacking the outputs, the common path of the lockstep
     * loop in one thread: the outputs shown must be exactly those of the
     * quiet cycle q. 1 when they are; 0 when not (outputs() gives them). */
    int (*step_check_quiet)(spu_dut_t *d, const spu_in_t *in, const spu_quiet_t *q);
    /* Steps through a block of plain cycles (run_block(), sim/run.h), the
     * common path of the lockstep loop in one thread: up to k steps, step i
     * with the inputs of b's cycle i (spu_model_block(), spu_model.h: only
     * the members and the timestamp differ from step to step), the first
     * showing the quiet cycle q, step i > 0 cycle i - 1's (q with b's
     * SAMPLE_POP count and PMSICR_EL1). Returns the number of steps whose
     * outputs were those; less than k: the last step taken showed others
     * (outputs() gives them). */
    unsigned (*step_block)(spu_dut_t *d, const spu_block_t *b, unsigned k, const spu_quiet_t *q);
    /* The outputs shown after the last step, as step() gives them. */
    void (*outputs)(const spu_dut_t *d, spu_out_t *out);
    /* Waves: open an FST file; dump on every step while open. Null in a
     * build without tracing (every build of spu_top but its wave-<cfg>
     * one: tracing makes every step slower, docs/performance.md). */
    int (*trace_open)(spu_dut_t *d, const char *path);
    void (*trace_close)(spu_dut_t *d);
    /* Evaluations of the Verilated model so far (eval() calls, or one per
     * shortcut, vl/vl_clock.h: about 1 per cycle with a shortcut, 2 with
     * full_clock, twice that unpiped behind the input stage): shows which
     * way really ran. */
    uint64_t (*evals)(const spu_dut_t *d);
    /* How the model's clocks are raised, and why, in words (vl/vl_clock.h's
     * vl_way_says(): a shortcut on a tested Verilator, or eval() on both
     * edges), for --stats and the failure report. */
    const char *(*clocking_says)(const spu_dut_t *d);
    /* Mutant builds (make mutate) only; NULL in every other build. Make
     * mutant k live (mutsel = k; 0 is the unmutated design), before reset:
     * 0, or -1 when the build has no mutant k. */
    int (*set_mutant)(spu_dut_t *d, unsigned k);
    /* 1 once the live mutant's site has differed from the original value
     * at a clock edge (the netlist's sticky mut_act_o). */
    int (*mutant_activated)(const spu_dut_t *d);
    /* 1 for a build of spu_apb, the APB wrapper (spu-tb --apb): its
     * register accesses come through step_apb's APB inputs (in->reg_* are
     * not driven), and it shows the APB outputs too. NULL step_apb in every
     * other build. */
    int apb;
    void (*step_apb)(spu_dut_t *d, const spu_in_t *in, const spu_apb_in_t *ai, spu_out_t *out,
                     spu_apb_out_t *ao);
    /* 1 for spu_top behind the input stage (tools/gen_vl_pipe.py; docs/
     * performance.md, "The input stage"): a register on every input, loaded
     * by the same step that clocks spu_top with the previous step's inputs
     * (piped), so that Verilator evaluates the combinational logic once per
     * cycle; or loaded before that clock (not piped: no delay, the
     * combinational logic twice). 0: spu_top's own ports. */
    int input_stage;
} spu_dut_vtbl_t;

/* The build of spu_top (apb 0) or of spu_apb (apb 1) for a configuration
 * name, or NULL: with wave 1 one with tracing (trace_open), else the one
 * without where there is one. */
const spu_dut_vtbl_t *spu_dut_find(const char *config, int apb, int wave);

#ifdef __cplusplus
}
#endif
#endif
