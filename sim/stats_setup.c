/* The set-up --stats echoes (stats_setup.h). */
#include <string.h>

#include "perf_event.h"
#include "stats_setup.h"

static const struct {
    int reg;
    const char *name;
    unsigned msb, lsb;
} field_list[] = {
#define SETUP_FIELD(r, f, msb, lsb) {SPU_REG_##r, #f, msb, lsb},
    SPU_FIELD_LIST(SETUP_FIELD)
#undef SETUP_FIELD
};

unsigned setup_fields(const spu_config_t *cfg, int reg, uint64_t v, setup_field_t *f)
{
    unsigned n = 0;
    for (size_t i = 0; i < sizeof field_list / sizeof field_list[0] && n < SETUP_MAX_FIELDS; i++) {
        if (field_list[i].reg != reg)
            continue;
        const unsigned w = field_list[i].msb - field_list[i].lsb + 1;
        const uint64_t mask = (w == 64 ? ~0ull : (1ull << w) - 1) << field_list[i].lsb;
        if (!(mask & cfg->wmask[reg]))
            continue; /* not in this configuration (RES0) */
        f[n].name = field_list[i].name;
        f[n].msb = field_list[i].msb;
        f[n].lsb = field_list[i].lsb;
        f[n].value = (v & mask) >> field_list[i].lsb;
        n++;
    }
    return n;
}

void setup_filter_regs(const spu_model_t *m, uint64_t *v)
{
    for (int i = 0; i < STATS_NFREGS; i++)
        v[i] = spu_model_reg_read(m, stats_freg[i]);
}

uint32_t setup_knobs_given(const spu_opts_t *o)
{
    uint32_t given = 0;
    for (int i = 0; i < o->nknob; i++) {
        const size_t n = strcspn(o->knob[i], "=");
        for (int k = 0; k < SPU_NKNOBS; k++)
            if (strlen(spu_knob_name(k)) == n && !strncmp(o->knob[i], spu_knob_name(k), n))
                given |= 1u << k;
    }
    return given;
}

void setup_period(const spu_opts_t *o, const spu_setup_t *s, setup_period_t *p)
{
    p->asked = s->pev.period;
    p->programmed = pev_interval(&s->cfg, p->asked, &p->rule);
    p->source = opts_given(o, "--period") ? "--period"
                : s->pev.have_period      ? "the event's period= term"
                                          : "perf's default, caps/min_interval";
}
