/*
 * Named configurations and knobs (generated table from configs/spu.toml),
 * and the names of the SAMPLE_* PMU events.
 */
#include <stdio.h>
#include <string.h>

#include "spu_model.h"

static const char *const knob_names[SPU_NKNOBS] = {
#define KNOB_NAME(n, d) #n,
    SPU_KNOB_LIST(KNOB_NAME)
#undef KNOB_NAME
};

static const struct {
    const char *name;
    uint32_t gate;
} pmu[SPU_NPMU] = {
#define PMU_ROW(n, num, gate) {"SAMPLE_" #n, gate},
    SPU_PMU_LIST(PMU_ROW)
#undef PMU_ROW
};

const spu_config_t *spu_config_find(const char *name)
{
    for (unsigned i = 0; i < spu_nconfigs; i++)
        if (strcmp(spu_configs[i].name, name) == 0)
            return &spu_configs[i];
    return NULL;
}

const char *spu_knob_name(int idx)
{
    return idx >= 0 && idx < SPU_NKNOBS ? knob_names[idx] : "?";
}

int spu_config_set_knob(spu_config_t *cfg, const char *name, uint32_t value,
                        char *err, size_t errlen)
{
    for (int i = 0; i < SPU_NKNOBS; i++) {
        if (strcmp(knob_names[i], name) != 0)
            continue;
        /* the range of knob i: LFSR_SEED a nonzero 24-bit state, BUF_QUEUE
         * a queue depth, every other knob a choice of two */
        uint32_t lo = 0, hi = 1;
        if (i == SPU_KNOB_LFSR_SEED)
            lo = SPU_LFSR_SEED_MIN, hi = SPU_LFSR_SEED_MAX;
        else if (i == SPU_KNOB_BUF_QUEUE)
            lo = 1, hi = SPU_MAX_BUF_QUEUE;
        if (value < lo || value > hi) {
            if (err && hi == 1)
                snprintf(err, errlen, "knob %s=%u out of range (0 or 1)", name, value);
            else if (err)
                snprintf(err, errlen, "knob %s=%u out of range (%s%X..%s%X)", name, value, hi > 9 ? "0x" : "", lo,
                         hi > 9 ? "0x" : "", hi);
            return -1;
        }
        cfg->knob[i] = value;
        return 0;
    }
    if (err)
        snprintf(err, errlen, "unknown knob '%s'", name);
    return -1;
}

const char *spu_pmu_name(int idx)
{
    return idx >= 0 && idx < SPU_NPMU ? pmu[idx].name : "?";
}

int spu_pmu_implemented(const spu_config_t *cfg, int idx)
{
    return idx >= 0 && idx < SPU_NPMU && (pmu[idx].gate == 0 || (cfg->features & pmu[idx].gate));
}
