/* csim --vectors: every cycle's inputs and the model's outputs as spu_top's
 * packed ports, for a Verilog bench (tb/icarus) to apply and compare. */
#ifndef SPU_VECTORS_H
#define SPU_VECTORS_H

#include <stdio.h>

#include "spu_model.h"

/* The header line: format, configuration, lanes and ports, the fields' names. */
void vec_begin(FILE *f, const spu_config_t *cfg);
/* One cycle: `inputs | outputs`, each port in hex, in the header's order. */
void vec_cycle(FILE *f, const spu_config_t *cfg, const spu_in_t *in,
               const spu_out_t *out);

#endif
