/*
 * The system-register file: lookup by encoding and name, reads (RES0 as zero,
 * ID registers from the configuration), writes through the writable-bit masks
 * generated from configs/spu.toml (docs/impl-defined.md).
 */
#include <string.h>

#include "spu_model.h"

static const struct {
    const char *name;
    uint16_t enc;
    uint8_t ro;
} regs[SPU_NREGS] = {
#define REG_ROW(n, enc, ro) {#n, enc, ro},
    SPU_REG_LIST(REG_ROW)
#undef REG_ROW
};

int spu_reg_find(uint16_t enc)
{
    for (int i = 0; i < SPU_NREGS; i++)
        if (regs[i].enc == enc)
            return i;
    return -1;
}

int spu_reg_by_name(const char *name)
{
    for (int i = 0; i < SPU_NREGS; i++)
        if (strcmp(regs[i].name, name) == 0)
            return i;
    return -1;
}

const char *spu_reg_name(int idx)
{
    return idx >= 0 && idx < SPU_NREGS ? regs[idx].name : "?";
}

uint16_t spu_reg_enc(int idx)
{
    return idx >= 0 && idx < SPU_NREGS ? regs[idx].enc : 0;
}

/* UNDEFINED: encodings this configuration lacks (PMSNEVFR_EL1 without FnE,
 * PMSDSFR_EL1 without FDS) and writes to the ID registers (no MSR form). EL
 * and trap checks of D24.7 belong to the PE before this port. */
int spu_reg_access_ok(const spu_config_t *cfg, int idx, int write)
{
    if (idx < 0 || idx >= SPU_NREGS || !cfg->present[idx])
        return 0;
    return !(write && regs[idx].ro);
}

uint64_t spu_model_reg_read(const spu_model_t *m, int idx)
{
    switch (idx) {
    case SPU_REG_PMSIDR_EL1:
        return m->cfg.pmsidr;
    case SPU_REG_PMBIDR_EL1:
        return m->cfg.pmbidr;
    default:
        return idx >= 0 && idx < SPU_NREGS ? m->reg[idx] : 0;
    }
}

int spu_model_reg_write(spu_model_t *m, int idx, uint64_t value)
{
    if (!spu_reg_access_ok(&m->cfg, idx, 1))
        return -1;
    m->reg[idx] = value & m->cfg.wmask[idx];
    return 0;
}
