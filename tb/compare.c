/*
 * Output comparison for the lockstep checker (compare.h). The field table
 * names each spu_out_t member after its spu_top port.
 */
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "compare.h"
#include "spl.h"

/* Each output member, named after its spu_top port (configs/spu.toml
 * [ports], spu_ports.h). */
typedef struct field {
    const char *name;
    size_t off, size;            /* member offset and element size */
    int per;                     /* 0 one value or a mask, 1 per lane, 2 per port, 3 per PMU event */
} field_t;

enum { PER_ONE, PER_LANE, PER_PORT, PER_PMU };
#define PER_ONE_OF_ONE PER_ONE
#define PER_ONE_OF_LANES PER_ONE
#define PER_ONE_OF_PORTS PER_ONE
#define PER_ONE_OF_LANE PER_LANE
#define PER_ONE_OF_PORT PER_PORT
#define PER_ONE_OF_PMU PER_PMU
#define FIELD(port, m, PACK, w) \
    {#port, offsetof(spu_out_t, m), sizeof(((spu_out_t *)0)->m) / CMP_N_##PACK, PER_ONE_OF_##PACK},
static const field_t fields[] = {SPU_OUT_PORTS(FIELD)};
#undef FIELD

static uint64_t load(const void *p, size_t size)
{
    switch (size) {
    case 1: return *(const uint8_t *)p;
    case 2: return *(const uint16_t *)p;
    case 4: return *(const uint32_t *)p;
    default: return *(const uint64_t *)p;
    }
}

static unsigned count(int per)
{
    return per == PER_LANE ? SPU_MAX_LANES : per == PER_PORT ? SPU_MAX_SLOTS : per == PER_PMU ? SPU_NPMU : 1;
}

static void elem_name(const field_t *f, unsigned i, char *buf, size_t len)
{
    if (f->per == PER_ONE)
        snprintf(buf, len, "%s", f->name);
    else if (f->per == PER_PMU) /* the event's slice of the packed pmu_o, by its name */
        snprintf(buf, len, "%s[%s]", f->name, spu_pmu_name((int)i));
    else
        snprintf(buf, len, "%s[%s %u]", f->name, f->per == PER_LANE ? "lane" : "port", i);
}

int cmp_outputs(const spu_out_t *dut, const spu_out_t *model,
                cmp_diff_t *diffs, int max)
{
    int n = 0;
    if (cmp_equal(dut, model))
        return 0;
    /* Every element, also of lanes and ports the configuration lacks (they
     * must be zero in both), so an unequal pair always names its field. */
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
        const field_t *f = &fields[k];
        for (unsigned i = 0; i < count(f->per); i++) {
            const uint64_t a = load((const char *)dut + f->off + i * f->size, f->size);
            const uint64_t b = load((const char *)model + f->off + i * f->size, f->size);
            if (a == b)
                continue;
            if (n < max) {
                elem_name(f, i, diffs[n].name, sizeof diffs[n].name);
                diffs[n].dut = a;
                diffs[n].model = b;
            }
            n++;
        }
    }
    return n;
}

/* The offset and size in spu_out_t of the named output element (a field's
 * name alone is its element 0): 0, or -1 for an unknown name. */
static int find_elem(const char *name, size_t *off, size_t *size)
{
    char buf[40];
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
        const field_t *f = &fields[k];
        for (unsigned i = 0; i < count(f->per); i++) {
            elem_name(f, i, buf, sizeof buf);
            if (strcmp(buf, name) == 0 || (i == 0 && strcmp(f->name, name) == 0)) {
                *off = f->off + i * f->size;
                *size = f->size;
                return 0;
            }
        }
    }
    return -1;
}

int cmp_perturb(spu_out_t *o, const char *name)
{
    size_t off, size;
    if (find_elem(name, &off, &size))
        return -1;
    *((uint8_t *)o + off) ^= 1u;
    return 0;
}

int cmp_value(const spu_out_t *o, const char *name, uint64_t *v)
{
    size_t off, size;
    if (find_elem(name, &off, &size))
        return -1;
    *v = load((const char *)o + off, size);
    return 0;
}

int cmp_signal_exists(const spu_config_t *cfg, const char *name)
{
    char buf[40];
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
        const field_t *f = &fields[k];
        const unsigned n = f->per == PER_LANE ? cfg->lanes : f->per == PER_PORT ? cfg->slots : count(f->per);
        for (unsigned i = 0; i < n; i++) {
            if (f->per == PER_PMU && !spu_pmu_implemented(cfg, (int)i))
                continue;
            elem_name(f, i, buf, sizeof buf);
            if (strcmp(buf, name) == 0 || (i == 0 && strcmp(f->name, name) == 0))
                return 1;
        }
    }
    return 0;
}

void cmp_out_str(const spu_config_t *cfg, const spu_out_t *o, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "smp=%02x col=%02x en=%u icr=%016" PRIx64, o->smp_valid,
                                o->col_valid, o->obs_enabled, o->obs_pmsicr);
    for (unsigned p = 0; p < cfg->slots && n < len; p++)
        if ((o->rec_valid >> p) & 1u) {
            char why[64];
            spl_why_str(o->rec_why[p], why, sizeof why); /* as the log spells it */
            n += (size_t)snprintf(buf + n, len - n, " rec%u{s%u k%u why=%s tot%u iss%u}", p,
                                  o->rec_slot[p], (o->rec_keep >> p) & 1u, why,
                                  o->rec_tot_lat[p], o->rec_iss_lat[p]);
        }
    if (n < len && (o->reg_undef || o->reg_rdata))
        n += (size_t)snprintf(buf + n, len - n, " rd=%016" PRIx64 "%s", o->reg_rdata, o->reg_undef ? " UNDEF" : "");
    if (n < len && o->pmu[SPU_PMU_POP])
        snprintf(buf + n, len - n, " pop%u", o->pmu[SPU_PMU_POP]);
}

void cmp_in_str(const spu_config_t *cfg, const spu_in_t *in, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "rst_n=%u pop=%02x el=%u allow=%u", in->rst_n, in->pop_valid,
                                in->el, in->prof_allowed);
    for (unsigned p = 0; p < cfg->slots && n < len; p++) {
        if ((in->iss_valid >> p) & 1u)
            n += (size_t)snprintf(buf + n, len - n, " iss%u{s%u}", p, in->iss_slot[p]);
        if ((in->fin_valid >> p) & 1u)
            n += (size_t)snprintf(buf + n, len - n, " fin%u{s%u t%02x ev%" PRIx64 " ds%s%x}", p,
                                  in->fin_slot[p], in->fin_type[p], in->fin_events[p],
                                  ((in->fin_ds_valid >> p) & 1u) ? "" : "-", in->fin_ds[p]);
    }
    if (n < len && in->reg_valid)
        snprintf(buf + n, len - n, " %s %04x %016" PRIx64, in->reg_write ? "w" : "r", in->reg_enc, in->reg_wdata);
}

/* The outputs of spu_apb beyond spu_top's (spu-tb --apb). */
static const struct {
    const char *name;
    size_t off, size;
} apb_fields[] = {
    {"prdata_o", offsetof(spu_apb_out_t, prdata), sizeof(uint32_t)},
    {"pready_o", offsetof(spu_apb_out_t, pready), sizeof(uint8_t)},
    {"pslverr_o", offsetof(spu_apb_out_t, pslverr), sizeof(uint8_t)},
};

int cmp_apb(const spu_apb_out_t *dut, const spu_apb_out_t *model, cmp_diff_t *diffs, int max)
{
    int n = 0;
    for (size_t k = 0; k < sizeof apb_fields / sizeof apb_fields[0]; k++) {
        const uint64_t a = load((const char *)dut + apb_fields[k].off, apb_fields[k].size);
        const uint64_t b = load((const char *)model + apb_fields[k].off, apb_fields[k].size);
        if (a == b)
            continue;
        if (n < max) {
            snprintf(diffs[n].name, sizeof diffs[n].name, "%s", apb_fields[k].name);
            diffs[n].dut = a;
            diffs[n].model = b;
        }
        n++;
    }
    return n;
}

int cmp_perturb_apb(spu_apb_out_t *o, const char *name)
{
    for (size_t k = 0; k < sizeof apb_fields / sizeof apb_fields[0]; k++)
        if (strcmp(apb_fields[k].name, name) == 0) {
            *((uint8_t *)o + apb_fields[k].off) ^= 1u; /* bit 0: the low byte, little-endian */
            return 0;
        }
    return -1;
}
