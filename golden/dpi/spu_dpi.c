/*
 * The model handle of the DPI-C functions (spu_dpi.h): create one for a
 * configuration, check it against the widths the SystemVerilog side was
 * compiled with, set a knob, free it, and the message of a failure.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spu_dpi_internal.h"

/* The one piece of state outside a handle: why the last call of this
 * thread failed (a failed spu_dpi_new has no handle to keep it in). */
static _Thread_local char last_error[512];

void spu_dpi_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
}

const char *spu_dpi_error(void)
{
    return last_error;
}

/* The names of every configuration this library holds, for a message. */
static void config_names(char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < spu_nconfigs && at < len; i++) {
        const int n = snprintf(buf + at, len - at, "%s%s", i ? " " : "", spu_configs[i].name);
        at += n > 0 ? (size_t)n : 0;
    }
}

void *spu_dpi_new(const char *cfg_name, int lanes, int slots, int rec_max, int npmu, int pmu_w)
{
    last_error[0] = '\0';
    const spu_config_t *cfg = cfg_name ? spu_config_find(cfg_name) : NULL;
    if (!cfg) {
        char names[256];
        config_names(names, sizeof names);
        spu_dpi_fail("spu_dpi_new: unknown configuration '%s' (this library has: %s)", cfg_name ? cfg_name : "(null)",
                     names);
        return NULL;
    }
    if (lanes != (int)cfg->lanes || slots != (int)cfg->slots || rec_max != (int)cfg->rec_max || npmu != SPU_NPMU ||
        pmu_w != SPU_PMU_W) {
        spu_dpi_fail("spu_dpi_new: configuration '%s' has LANES %u, SLOTS %u, REC_MAX %u, NPMU %d, PMU_W %d but the "
                     "SystemVerilog side was compiled with LANES %d, SLOTS %d, REC_MAX %d, NPMU %d, PMU_W %d "
                     "(spu_dpi_pkg.sv takes them from the spu_config.vh it includes: use the one of '%s')",
                     cfg->name, cfg->lanes, cfg->slots, cfg->rec_max, SPU_NPMU, SPU_PMU_W, lanes, slots, rec_max,
                     npmu, pmu_w, cfg->name);
        return NULL;
    }
    spu_dpi_t *h = calloc(1, sizeof *h);
    if (!h) {
        spu_dpi_fail("spu_dpi_new: out of memory for a model of '%s'", cfg->name);
        return NULL;
    }
    char err[256];
    if (spu_model_init(&h->m, cfg, err, sizeof err) != 0) {
        spu_dpi_fail("spu_dpi_new: %s", err);
        free(h);
        return NULL;
    }
    return h;
}

int spu_dpi_set_knob(void *handle, const char *name, unsigned value)
{
    spu_dpi_t *h = handle;
    last_error[0] = '\0';
    if (!h) {
        spu_dpi_fail("spu_dpi_set_knob: null handle (spu_dpi_new failed: see its message)");
        return -1;
    }
    spu_config_t c = h->m.cfg;
    char err[256];
    if (spu_config_set_knob(&c, name ? name : "(null)", value, err, sizeof err) != 0 ||
        spu_model_init(&h->m, &c, err, sizeof err) != 0) {
        spu_dpi_fail("spu_dpi_set_knob: %s", err);
        return -1;
    }
    return 0;
}

void spu_dpi_free(void *h)
{
    free(h);
}
