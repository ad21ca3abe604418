/*
 * Fuzz target: the .spt parser, the configuration check and the replay
 * cursor, on arbitrary bytes. Every input must either be refused with a
 * located message or parse into a trace that replays; nothing may crash,
 * leak or hang. The configuration is the trace's own, else v1p4 (so a
 * `cfg` line exercises the mismatch check too).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Cycles replayed at most: a trace may name a cycle near 2^63. */
#define REPLAY_MAX 20000u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    spt_trace_t t;
    char *buf = malloc(size ? size : 1); /* a buffer of exactly size bytes, so overreads show */
    if (!buf)
        return 0;
    if (size)
        memcpy(buf, data, size);
    if (spt_parse(&t, "fuzz.spt", buf, size, err, sizeof err) == 0) {
        const spu_config_t *cfg = spu_config_find(t.cfg[0] ? t.cfg : "v1p4");
        if (!cfg)
            abort(); /* the parser accepted an unknown configuration name */
        if (spt_check_config(&t, cfg, err, sizeof err) == 0) {
            spt_cursor_t k;
            spu_src_t src = spt_source(&k, &t);
            spu_cyc_t cy;
            spu_op_t op;
            for (unsigned n = 0; n < REPLAY_MAX && src.next(src.self, &cy); n++)
                for (unsigned l = 0; l < SPU_MAX_LANES; l++)
                    if (((cy.pop_mask >> l) & 1u) && src.op(src.self, cy.op_id[l], &op) != 0)
                        abort(); /* an op the cursor handed out has no attributes */
        }
        spt_free(&t);
    } else if (err[0] == '\0') {
        abort(); /* refused without a message */
    }
    free(buf);
    return 0;
}
