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

/* The range of knob i: LFSR_SEED a nonzero 24-bit state, BUF_BEATS a queue
 * depth, every other knob a choice of two. */
static void knob_range(int i, uint32_t *lo, uint32_t *hi)
{
    *lo = 0, *hi = 1;
    if (i == SPU_KNOB_LFSR_SEED)
        *lo = SPU_LFSR_SEED_MIN, *hi = SPU_LFSR_SEED_MAX;
    else if (i == SPU_KNOB_BUF_BEATS)
        *lo = 1, *hi = SPU_MAX_BUF_BEATS;
}

/* 0 when knob i may be value; else -1 with the range in err. */
static int knob_check(int i, uint32_t value, char *err, size_t errlen)
{
    uint32_t lo, hi;
    knob_range(i, &lo, &hi);
    if (value >= lo && value <= hi)
        return 0;
    if (err && hi == 1)
        snprintf(err, errlen, "knob %s=%u out of range (0 or 1)", knob_names[i], value);
    else if (err)
        snprintf(err, errlen, "knob %s=0x%X out of range (0x%X..0x%X)", knob_names[i], value, lo, hi);
    return -1;
}

int spu_config_knobs_ok(const spu_config_t *cfg, char *err, size_t errlen)
{
    for (int i = 0; i < SPU_NKNOBS; i++)
        if (knob_check(i, cfg->knob[i], err, errlen))
            return -1;
    return 0;
}

int spu_config_set_knob(spu_config_t *cfg, const char *name, uint32_t value,
                        char *err, size_t errlen)
{
    for (int i = 0; i < SPU_NKNOBS; i++) {
        if (strcmp(knob_names[i], name) != 0)
            continue;
        if (knob_check(i, value, err, errlen))
            return -1;
        cfg->knob[i] = value;
        return 0;
    }
    if (err) {
        size_t n = (size_t)snprintf(err, errlen, "unknown knob '%s' (the knobs:", name);
        for (int i = 0; i < SPU_NKNOBS && n < errlen; i++)
            n += (size_t)snprintf(err + n, errlen - n, " %s", knob_names[i]);
        if (n < errlen)
            snprintf(err + n, errlen - n, ")");
    }
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
