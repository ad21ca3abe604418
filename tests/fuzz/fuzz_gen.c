/*
 * Fuzz target: the generator's knobs as the command line gives them
 * (`--gen name=value,name=value`, split as sim/setup.c splits them), then,
 * for a set the checks accept, a short run of the generator with every op's
 * attributes asked for. The first byte picks the configuration and the seed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CYCLES_MAX 400u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 512)
        return 0;
    const spu_config_t *cfg = &spu_configs[data[0] % spu_nconfigs];
    gen_params_t p;
    char err[256];
    gen_params_default(&p, cfg, data[0]);
    char *buf = malloc(size);
    if (!buf)
        return 0;
    memcpy(buf, data + 1, size - 1);
    buf[size - 1] = '\0'; /* a C string, as argv gives it */
    int ok = 1;
    for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv && ok; kv = strtok_r(NULL, ",", &save)) {
        err[0] = '\0';
        if (gen_params_set(&p, kv, err, sizeof err) != 0) {
            if (!err[0])
                abort(); /* refused without a message */
            ok = 0;
        }
    }
    if (ok && gen_params_check(&p, err, sizeof err) == 0) {
        spu_gen_t g;
        gen_init(&g, cfg, &p, data[0], CYCLES_MAX, UINT64_MAX);
        spu_src_t src = gen_source(&g);
        spu_cyc_t cy;
        spu_op_t op;
        while (src.next(src.self, &cy))
            for (unsigned l = 0; l < SPU_MAX_LANES; l++)
                if (((cy.pop_mask >> l) & 1u) && src.op(src.self, cy.op_id[l], &op) != 0)
                    abort();
    }
    free(buf);
    return 0;
}
