/* The Verilated builds linked into spu-tb, by configuration name (and
 * whether spu_apb is the top, and whether it has tracing). The list comes
 * from the Makefile (-DSPU_DUT_LIST="X(v1) X(wave_v1) ... X(apb_v1p4)"). */
#include <string.h>

#include "dut.h"

#define DECL(id) extern const spu_dut_vtbl_t spu_dut_vtbl_##id;
SPU_DUT_LIST(DECL)
#undef DECL

static const spu_dut_vtbl_t *const builds[] = {
#define ROW(id) &spu_dut_vtbl_##id,
    SPU_DUT_LIST(ROW)
#undef ROW
};

const spu_dut_vtbl_t *spu_dut_find(const char *config, int apb, int wave)
{
    const spu_dut_vtbl_t *found = NULL;
    for (size_t i = 0; i < sizeof builds / sizeof builds[0]; i++) {
        const spu_dut_vtbl_t *b = builds[i];
        if (strcmp(b->config, config) != 0 || b->apb != apb || (wave && !b->trace_open))
            continue;
        if (!found || (!wave && found->trace_open && !b->trace_open))
            found = b;
    }
    return found;
}
