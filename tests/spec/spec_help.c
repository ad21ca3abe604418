/*
 * Helpers of the spec-rule tests: drive the golden model one clock at a time
 * through its ports (register port, population lanes, finish ports), keeping
 * the last outputs and running totals of the PMU outputs.
 */
#include <stdio.h>
#include <string.h>

#include "spec.h"

int spec_cfg(spu_config_t *cfg, const char *name)
{
    const spu_config_t *c = spu_config_find(name);
    if (!c) {
        spec_fail(__FILE__, __LINE__, "spu_config_find", "no configuration '%s'", name);
        return -1;
    }
    *cfg = *c;
    return 0;
}

int spec_knob(spu_config_t *cfg, const char *name, uint32_t value)
{
    char err[160];
    if (spu_config_set_knob(cfg, name, value, err, sizeof err) != 0) {
        spec_fail(__FILE__, __LINE__, "spu_config_set_knob", "%s", err);
        return -1;
    }
    return 0;
}

int spec_init(spec_t *s, const spu_config_t *cfg)
{
    char err[160];
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    s->el = 1;
    s->allow = 1;
    if (spu_model_init(&s->m, cfg, err, sizeof err) != 0) {
        spec_fail(__FILE__, __LINE__, "spu_model_init", "%s", err);
        return -1;
    }
    return 0;
}

int spec_open(spec_t *s, const char *name)
{
    spu_config_t cfg;
    if (spec_cfg(&cfg, name) != 0)
        return -1;
    return spec_init(s, &cfg);
}

void spec_cycle(spec_t *s)
{
    s->in.rst_n = 1;
    s->in.el = s->el;
    s->in.prof_allowed = s->allow;
    s->in.mem_ready = !s->mem_stall;
    spu_model_step(&s->m, &s->in, &s->o);
    memset(&s->in, 0, sizeof s->in);
    for (int i = 0; i < SPU_NPMU; i++)
        s->pmu[i] += s->o.pmu[i];
    s->nsmp += (uint64_t)__builtin_popcount(s->o.smp_valid);
    s->ncol += (uint64_t)__builtin_popcount(s->o.col_valid);
    s->t++;
}

void spec_reset(spec_t *s)
{
    s->in.rst_n = 0;
    s->in.el = s->el;
    s->in.prof_allowed = s->allow;
    spu_model_step(&s->m, &s->in, &s->o);
    memset(&s->in, 0, sizeof s->in);
    s->t = 0;
}

void spec_idle(spec_t *s, uint64_t n)
{
    while (n--)
        spec_cycle(s);
}

int spec_wr_enc(spec_t *s, uint16_t enc, uint64_t value)
{
    s->in.reg_valid = 1;
    s->in.reg_write = 1;
    s->in.reg_enc = enc;
    s->in.reg_wdata = value;
    spec_cycle(s);
    return s->o.reg_undef;
}

int spec_wr(spec_t *s, int reg, uint64_t value)
{
    return spec_wr_enc(s, spu_reg_enc(reg), value);
}

uint64_t spec_rd_enc(spec_t *s, uint16_t enc)
{
    s->in.reg_valid = 1;
    s->in.reg_write = 0;
    s->in.reg_enc = enc;
    spec_cycle(s);
    return s->o.reg_rdata;
}

uint64_t spec_rd(spec_t *s, int reg)
{
    return spec_rd_enc(s, spu_reg_enc(reg));
}

void spec_pop(spec_t *s, uint8_t mask)
{
    s->in.pop_valid = mask;
    spec_cycle(s);
}

void spec_fin(spec_t *s, unsigned slot, uint8_t type, uint64_t events, int ds_valid, uint16_t ds)
{
    s->in.fin_valid = 1;
    s->in.fin_slot[0] = (uint8_t)slot;
    s->in.fin_type[0] = type;
    s->in.fin_events[0] = events;
    s->in.fin_ds_valid = ds_valid ? 1 : 0;
    s->in.fin_ds[0] = ds;
    spec_cycle(s);
}

int spec_enable(spec_t *s, uint64_t pmsirr, uint64_t pmsicr, uint64_t limitr)
{
    int undef = spec_wr(s, SPU_REG_PMSIRR_EL1, pmsirr);
    undef |= spec_wr(s, SPU_REG_PMSICR_EL1, pmsicr);
    undef |= spec_wr(s, SPU_REG_PMSCR_EL1, PMSCR_E0E1);
    undef |= spec_wr(s, SPU_REG_PMBLIMITR_EL1, limitr);
    CHECK(!undef, "a register write of the enable sequence was UNDEFINED");
    CHECK(!s->o.obs_enabled, "enabled before the PMBLIMITR_EL1 write took effect");
    spec_idle(s, 1);
    CHECK(s->o.obs_enabled, "profiling not enabled after the enable sequence");
    s->members = 0;
    return 0;
}

int spec_fin_counted(spec_t *s, unsigned slot)
{
    spec_wr(s, SPU_REG_PMSICR_EL1, 2);
    s->in.pop_valid = 1;
    spec_fin(s, slot, TLD, 0, 0, 0);
    CHECK_EQ(s->o.rec_keep, 1u, "F: the load is kept");
    CHECK_EQ(s->o.pmu[SPU_PMU_POP], 1u, "F: its member is counted");
    CHECK_EQ(s->m.reg[SPU_REG_PMSICR_EL1], 1u, "F: COUNT 2 -> 1");
    return 0;
}

void spec_drain(spec_t *s)
{
    for (unsigned k = 0; k < 256 && !s->mem_stall && (s->m.wq_n || s->m.enc.busy); k++)
        spec_idle(s, 1);
}

int spec_take(spec_t *s)
{
    /* a kept record holds its slot until the encoder has read it
     * (docs/buffer.md): with the memory ready, let earlier records enter
     * the write path and be read first */
    spec_drain(s);
    spec_wr(s, SPU_REG_PMSICR_EL1, 1);
    spec_pop(s, 1);
    if (!(s->o.smp_valid & 1u)) {
        spec_fail(__FILE__, __LINE__, "smp_valid & 1", "forced selection (PMSICR=1) not sampled "
                  "(col_valid=0x%X, obs_enabled=%u)", s->o.col_valid, s->o.obs_enabled);
        return -1;
    }
    return s->o.smp_slot[0];
}

int spec_record(spec_t *s, uint32_t lat, uint8_t type, uint64_t events, int ds_valid, uint16_t ds)
{
    const int slot = spec_take(s);
    if (slot < 0)
        return -1;
    if (lat > 1)
        spec_idle(s, lat - 1u);
    spec_fin(s, (unsigned)slot, type, events, ds_valid, ds);
    if (!(s->o.rec_valid & 1u)) {
        spec_fail(__FILE__, __LINE__, "rec_valid & 1", "no record for the finish of slot %d", slot);
        return -1;
    }
    return 0;
}

int spec_expect(spec_t *s, uint32_t lat, uint8_t type, uint64_t events, int ds_valid,
                uint16_t ds, uint8_t why)
{
    TRY(spec_record(s, lat, type, events, ds_valid, ds));
    CHECK_EQ(s->o.rec_why[0], why, "rec_why for type 0x%X events 0x%llX lat %u ds %s0x%X", type,
             (unsigned long long)events, lat, ds_valid ? "" : "(none) ", ds);
    CHECK_EQ(s->o.rec_keep & 1u, why == 0, "rec_keep for type 0x%X events 0x%llX lat %u", type,
             (unsigned long long)events, lat);
    return 0;
}

void spec_iss(spec_t *s, unsigned slot)
{
    s->in.iss_valid = 1;
    s->in.iss_slot[0] = (uint8_t)slot;
    spec_cycle(s);
}

uint32_t spec_feed(spec_t *s, uint64_t n, unsigned per_cycle, uint64_t *pos, uint32_t cap,
                   int autofin, uint32_t stop)
{
    uint32_t nsel = 0;
    uint8_t pending = 0; /* slots to finish in the next cycle */
    while (n > 0 || pending) {
        unsigned k = n < per_cycle ? (unsigned)n : per_cycle;
        if (stop && nsel >= stop)
            k = 0;
        s->in.pop_valid = (uint8_t)((1u << k) - 1u);
        unsigned p = 0;
        for (unsigned sl = 0; sl < SPU_MAX_SLOTS; sl++) {
            if (!((pending >> sl) & 1u))
                continue;
            s->in.fin_valid |= (uint8_t)(1u << p);
            s->in.fin_slot[p++] = (uint8_t)sl;
        }
        pending = 0;
        const uint64_t base = s->members;
        spec_cycle(s);
        s->members += k;
        n -= k;
        for (unsigned l = 0; l < k; l++) {
            const int smp = (s->o.smp_valid >> l) & 1u, col = (s->o.col_valid >> l) & 1u;
            if (!smp && !col)
                continue;
            if (pos && nsel < cap)
                pos[nsel] = base + l + 1u;
            nsel++;
            if (smp && autofin)
                pending |= (uint8_t)(1u << s->o.smp_slot[l]);
        }
        if (stop && nsel >= stop)
            n = 0;
    }
    return nsel;
}
