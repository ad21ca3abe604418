/*
 * The arm_spe perf event: parse, check, and the driver's register sequences
 * (perf_event.h, docs/perf-event.md). The register fields come from the
 * generated configuration (SPU_PUT/SPU_GET), the event's format fields from
 * PEV_FIELD_LIST.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_event.h"

static const struct {
    const char *name;
    uint8_t word, lsb, msb;
} field[PEV_NFIELDS] = {
#define PEV_ROW(n, w, l, m) {#n, w, l, m},
    PEV_FIELD_LIST(PEV_ROW)
#undef PEV_ROW
};

static uint64_t field_max(enum pev_field f)
{
    const unsigned w = field[f].msb - field[f].lsb + 1u;
    return w == 64 ? UINT64_MAX : (1ull << w) - 1u;
}

uint64_t pev_get(const pev_attr_t *a, enum pev_field f)
{
    return (a->config[field[f].word] >> field[f].lsb) & field_max(f);
}

const char *pev_field_name(enum pev_field f)
{
    return field[f].name;
}

static void put(pev_attr_t *a, enum pev_field f, uint64_t v)
{
    a->config[field[f].word] &= ~(field_max(f) << field[f].lsb);
    a->config[field[f].word] |= v << field[f].lsb;
}

/* A number as perf's event parser takes it: decimal or 0x hex, the whole
 * text. 0, or -1. */
static int number(const char *s, size_t n, uint64_t *v)
{
    char buf[32], *end;
    if (n == 0 || n >= sizeof buf || s[0] == '-' || s[0] == '+')
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    errno = 0;
    *v = strtoull(buf, &end, 0);
    return *end || errno ? -1 : 0;
}

/* One term "name[=value]" of s[0..n). */
static int term(pev_attr_t *a, const char *s, size_t n, unsigned *seen, char *err, size_t errlen)
{
    const char *eq = memchr(s, '=', n);
    const size_t kn = eq ? (size_t)(eq - s) : n;
    uint64_t v = 1; /* a bare field name means 1, as in perf */
    if (kn == 0) {
        snprintf(err, errlen, "empty term name in '%.*s'", (int)n, s);
        return -1;
    }
    if (eq && number(eq + 1, n - kn - 1, &v)) {
        snprintf(err, errlen, "%.*s: '%.*s' is not a number (decimal or 0x hex, 0..2^64-1)", (int)kn, s,
                 (int)(n - kn - 1), eq + 1);
        return -1;
    }
    if (kn == 6 && !memcmp(s, "period", 6)) {
        if (a->have_period) {
            snprintf(err, errlen, "term 'period' given twice");
            return -1;
        }
        if (v >> 63) {
            snprintf(err, errlen, "period=%" PRIu64 " out of range: perf_event_open rejects a sample period with bit 63 set (EINVAL)", v);
            return -1;
        }
        a->period = v;
        a->have_period = 1;
        return 0;
    }
    if ((kn == 4 && !memcmp(s, "freq", 4)) || (kn == 11 && !memcmp(s, "sample_freq", 11))) {
        snprintf(err, errlen, "%.*s: the arm_spe driver rejects frequency mode (attr.freq: EINVAL); give a period", (int)kn, s);
        return -1;
    }
    for (int f = 0; f < PEV_NFIELDS; f++) {
        if (strlen(field[f].name) != kn || memcmp(field[f].name, s, kn))
            continue;
        if (*seen >> f & 1u) {
            snprintf(err, errlen, "term '%s' given twice", field[f].name);
            return -1;
        }
        *seen |= 1u << f;
        if (v > field_max(f)) {
            /* the field as its sysfs format file spells it: config2:0-11, config:33 */
            char bits[16];
            if (field[f].lsb == field[f].msb)
                snprintf(bits, sizeof bits, "%u", field[f].lsb);
            else
                snprintf(bits, sizeof bits, "%u-%u", field[f].lsb, field[f].msb);
            snprintf(err, errlen, "%s=%" PRIu64 " out of range: the field is config%.0u:%s, at most %" PRIu64,
                     field[f].name, v, field[f].word, bits, field_max(f));
            return -1;
        }
        put(a, (enum pev_field)f, v);
        return 0;
    }
    size_t m = (size_t)snprintf(err, errlen, "unknown term '%.*s' of arm_spe (format fields:", (int)kn, s);
    for (int f = 0; f < PEV_NFIELDS && m < errlen; f++)
        m += (size_t)snprintf(err + m, errlen - m, " %s", field[f].name);
    if (m < errlen)
        snprintf(err + m, errlen - m, "; and period)");
    return -1;
}

/* Modifiers after the closing '/': perf's u and k (exclude_kernel and
 * exclude_user for the others once one is given). */
static int modifiers(pev_attr_t *a, const char *s, char *err, size_t errlen)
{
    int u = 0, k = 0;
    if (*s == ':')
        s++;
    for (const char *p = s; *p; p++) {
        int *m = *p == 'u' ? &u : *p == 'k' ? &k : NULL;
        if (!m) {
            snprintf(err, errlen, "modifier '%c' is not supported (u: user only, k: kernel only, uk: both)", *p);
            return -1;
        }
        if (*m) {
            snprintf(err, errlen, "modifier '%c' given twice", *p);
            return -1;
        }
        *m = 1;
    }
    if (u || k) {
        a->exclude_user = (uint8_t)!u;
        a->exclude_kernel = (uint8_t)!k;
    }
    return 0;
}

int pev_parse(pev_attr_t *a, const char *s, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    const char *slash = strchr(s, '/');
    const char *close = slash ? strchr(slash + 1, '/') : NULL;
    if (!slash || !close) {
        snprintf(err, errlen, "'%s': expected PMU/term=value,.../ (e.g. arm_spe_0/load_filter=1/)", s);
        return -1;
    }
    const size_t pn = (size_t)(slash - s);
    if (!((pn == 9 && !memcmp(s, "arm_spe_0", 9)) || (pn == 7 && !memcmp(s, "arm_spe", 7)))) {
        snprintf(err, errlen, "unknown PMU '%.*s' (the unit is arm_spe_0, or arm_spe)", (int)pn, s);
        return -1;
    }
    unsigned seen = 0;
    for (const char *t = slash + 1; t < close;) {
        const char *e = memchr(t, ',', (size_t)(close - t));
        if (!e)
            e = close;
        if (term(a, t, (size_t)(e - t), &seen, err, errlen))
            return -1;
        t = e + 1;
    }
    return modifiers(a, close + 1, err, errlen);
}

/* "FIELD=VALUE: EOPNOTSUPP: why" */
static int unsupported(const pev_attr_t *a, enum pev_field f, char *err, size_t errlen, const char *why,
                       const spu_config_t *c)
{
    snprintf(err, errlen, "%s=0x%" PRIx64 ": EOPNOTSUPP: %s (configuration %s)", field[f].name, pev_get(a, f), why,
             c->name);
    return -1;
}

#define IDR(c, fld) SPU_GET((c)->pmsidr, PMSIDR_EL1, fld)

int pev_check(const pev_attr_t *a, const spu_config_t *c, char *err, size_t errlen)
{
    char why[160];
    /* The driver probes the filterable events by writing all ones to
     * PMSEVFR_EL1 and reading it back; the bits that read as zero are
     * refused in both event filters. */
    const uint64_t res0 = ~c->wmask[SPU_REG_PMSEVFR_EL1];
    static const enum pev_field evf[] = {PEV_event_filter, PEV_inv_event_filter};
    for (size_t i = 0; i < 2; i++)
        if (pev_get(a, evf[i]) & res0) {
            snprintf(why, sizeof why, "bits 0x%" PRIx64 " of PMSEVFR_EL1 read back as zero after writing all ones",
                     pev_get(a, evf[i]) & res0);
            return unsupported(a, evf[i], err, errlen, why, c);
        }
    if (pev_get(a, PEV_inv_data_src_filter) && !IDR(c, FDS))
        return unsupported(a, PEV_inv_data_src_filter, err, errlen, "data-source filtering needs PMSIDR_EL1.FDS", c);
    if (pev_get(a, PEV_event_filter) && !IDR(c, FE))
        return unsupported(a, PEV_event_filter, err, errlen, "PMSFCR_EL1.FE needs PMSIDR_EL1.FE", c);
    if (pev_get(a, PEV_inv_event_filter) && !IDR(c, FnE))
        return unsupported(a, PEV_inv_event_filter, err, errlen, "PMSFCR_EL1.FnE needs PMSIDR_EL1.FnE", c);
    for (int f = PEV_branch_filter; f <= PEV_float_filter_mask; f++)
        if (f != PEV_discard && pev_get(a, (enum pev_field)f) && !IDR(c, FT))
            return unsupported(a, (enum pev_field)f, err, errlen, "PMSFCR_EL1.FT needs PMSIDR_EL1.FT", c);
    if (pev_get(a, PEV_min_latency) && !IDR(c, FL))
        return unsupported(a, PEV_min_latency, err, errlen, "PMSFCR_EL1.FL needs PMSIDR_EL1.FL", c);
    for (int f = PEV_branch_filter_mask; f <= PEV_float_filter_mask; f++)
        if (pev_get(a, (enum pev_field)f) && !IDR(c, EFT))
            return unsupported(a, (enum pev_field)f, err, errlen,
                               "the masks and the SIMD and FP filters need PMSIDR_EL1.EFT", c);
    if (pev_get(a, PEV_discard) && !(c->features & SPU_FEAT_V1P2))
        return unsupported(a, PEV_discard, err, errlen, "discard mode needs FEAT_SPEv1p2", c);
    return 0;
}

uint64_t pev_default_period(const spu_config_t *c)
{
    /* PMSIDR_EL1.Interval: 0 256, 2 512, 3 768, 4 1024, 5 1536, 6 2048,
     * 7 3072, 8 4096; the driver takes any other value as 8. */
    static const uint16_t period[16] = {256, 4096, 512, 768, 1024, 1536, 2048, 3072, 4096,
                                        4096, 4096, 4096, 4096, 4096, 4096, 4096};
    return period[IDR(c, Interval)];
}

/* Bytes in a page: the driver's and perf's unit, and PMBLIMITR_EL1.LIMIT's
 * granule (4 KB, docs/impl-defined.md row 29). */
#define PEV_PAGE (1ull << SPU_F_PMBLIMITR_EL1_LIMIT_LSB)

int pev_rearm(const pev_prog_t *p, uint64_t ptr, uint64_t *pmbptr, uint64_t *pmblimitr)
{
    const uint64_t half = p->size / 2; /* perf record's AUX watermark; a multiple of the page */
    uint64_t head = ptr - p->base;     /* perf's AUX head: where the unit left PMBPTR_EL1 */
    for (;;) {
        head = (head + p->align - 1) & ~(p->align - 1);
        if (head >= p->size) {
            /* TRUNCATED: PMBLIMITR_EL1 = the area's start, E = 0 */
            *pmbptr = p->base + (head & (p->size - 1));
            *pmblimitr = p->base;
            return 1;
        }
        uint64_t limit = (head / half + 1) * half;
        if (limit > p->size)
            limit = p->size;
        if (limit - head >= p->rec_max) {
            *pmbptr = p->base + head;
            *pmblimitr = (p->base + limit) | SPU_PUT(PMBLIMITR_EL1, E, 1);
            return 0;
        }
        head = limit; /* too close to the limit: padded (zeros, PAD packets) up to it */
    }
}

int pev_buffer(const char *s, const spu_config_t *c, uint64_t *base, uint64_t *size, char *err, size_t errlen)
{
    const char *comma = strchr(s, ',');
    if (!comma || number(s, (size_t)(comma - s), base) || number(comma + 1, strlen(comma + 1), size)) {
        snprintf(err, errlen, "--buffer '%s': expected BASE,SIZE (two numbers, decimal or 0x hex)", s);
        return -1;
    }
    const uint64_t pages = *size / PEV_PAGE, rec = 1ull << IDR(c, MaxSize);
    const char *why = NULL;
    if (*base % PEV_PAGE)
        why = "BASE must be aligned to a 4 KB page (the driver maps the AUX area in pages)";
    else if (*size % PEV_PAGE || pages < 2 || (pages & (pages - 1)))
        why = "SIZE must be a power-of-two number of 4 KB pages, at least 2 (perf's AUX area; the driver needs two pages)";
    else if (*base + *size < *base)
        why = "BASE + SIZE wraps past 2^64";
    else if (*size / 2 < rec)
        why = "the buffer up to PMBLIMITR_EL1 (half of it, perf's wakeup point) has no room for a record of PMSIDR_EL1.MaxSize";
    if (!why)
        return 0;
    snprintf(err, errlen, "--buffer %s: %s", s, why);
    return -1;
}

static void acc(pev_access_t *a, unsigned *n, int reg, int write, uint64_t v)
{
    a[*n].enc = spu_reg_enc(reg);
    a[*n].write = (uint8_t)write;
    a[*n].value = v;
    (*n)++;
}

/* PMSFCR_EL1: the type bits and masks copied, each filter enabled when its
 * field is nonzero (so Linux never writes an enable with an empty filter). */
static uint64_t pmsfcr(const pev_attr_t *a)
{
    const uint64_t type = pev_get(a, PEV_branch_filter) << SPU_T_B | pev_get(a, PEV_load_filter) << SPU_T_LD |
                          pev_get(a, PEV_store_filter) << SPU_T_ST | pev_get(a, PEV_float_filter) << SPU_T_FP |
                          pev_get(a, PEV_simd_filter) << SPU_T_SIMD;
    const uint64_t mask = pev_get(a, PEV_branch_filter_mask) << SPU_T_B | pev_get(a, PEV_load_filter_mask) << SPU_T_LD |
                          pev_get(a, PEV_store_filter_mask) << SPU_T_ST |
                          pev_get(a, PEV_float_filter_mask) << SPU_T_FP |
                          pev_get(a, PEV_simd_filter_mask) << SPU_T_SIMD;
    const unsigned tw = SPU_F_PMSFCR_EL1_TYPE_MSB - SPU_F_PMSFCR_EL1_TYPE_LSB + 1;
    return SPU_PUT(PMSFCR_EL1, TYPE, type) | SPU_PUT(PMSFCR_EL1, TYPEX, type >> tw) | SPU_PUT(PMSFCR_EL1, TYPEm, mask) |
           SPU_PUT(PMSFCR_EL1, FT, (type | mask) != 0) | SPU_PUT(PMSFCR_EL1, FE, pev_get(a, PEV_event_filter) != 0) |
           SPU_PUT(PMSFCR_EL1, FnE, pev_get(a, PEV_inv_event_filter) != 0) |
           SPU_PUT(PMSFCR_EL1, FDS, pev_get(a, PEV_inv_data_src_filter) != 0) |
           SPU_PUT(PMSFCR_EL1, FL, pev_get(a, PEV_min_latency) != 0);
}

uint64_t pev_interval(const spu_config_t *c, uint64_t period, const char **why)
{
    const uint64_t lo = pev_default_period(c), hi = SPU_F_PMSIRR_EL1_INTERVAL_MASK;
    const uint64_t p = period < lo ? lo : period > hi ? hi : period & hi;
    if (why)
        *why = p == period ? NULL
               : period < lo ? "below the driver's minimum period (caps/min_interval, from PMSIDR_EL1.Interval)"
               : period > hi ? "above PMSIRR_EL1.INTERVAL's largest value"
                             : "PMSIRR_EL1.INTERVAL counts in units of 256: the low 8 bits are dropped";
    return p;
}

/* PMSIRR_EL1: the period as pev_interval() gives it; RND from jitter. */
static uint64_t pmsirr(const pev_attr_t *a, const spu_config_t *c, uint64_t period)
{
    return pev_interval(c, period, NULL) | SPU_PUT(PMSIRR_EL1, RND, pev_get(a, PEV_jitter));
}

void pev_program(const pev_attr_t *a, const spu_config_t *c, uint64_t base, uint64_t size, pev_prog_t *p)
{
    const uint64_t period = a->have_period ? a->period : pev_default_period(c);
    unsigned n = 0;
    memset(p, 0, sizeof *p);
    p->period = period;
    p->have_period = (uint8_t)a->have_period;
    p->base = base;
    p->size = size;
    p->rec_max = 1ull << IDR(c, MaxSize);
    p->align = 1ull << SPU_GET(c->pmbidr, PMBIDR_EL1, Align);
    p->aux = !pev_get(a, PEV_discard);
    if (!p->aux) {
        acc(p->start, &n, SPU_REG_PMBLIMITR_EL1, 1, SPU_PUT(PMBLIMITR_EL1, FM, 2) | SPU_PUT(PMBLIMITR_EL1, E, 1));
    } else {
        uint64_t ptr, limitr;
        (void)pev_rearm(p, base, &ptr, &limitr); /* pev_buffer() checked that a record fits */
        acc(p->start, &n, SPU_REG_PMBPTR_EL1, 1, ptr);
        acc(p->start, &n, SPU_REG_PMBLIMITR_EL1, 1, limitr);
    }
    acc(p->start, &n, SPU_REG_PMSFCR_EL1, 1, pmsfcr(a));
    acc(p->start, &n, SPU_REG_PMSEVFR_EL1, 1, pev_get(a, PEV_event_filter));
    if (IDR(c, FnE))
        acc(p->start, &n, SPU_REG_PMSNEVFR_EL1, 1, pev_get(a, PEV_inv_event_filter));
    if (IDR(c, FDS))
        acc(p->start, &n, SPU_REG_PMSDSFR_EL1, 1, ~pev_get(a, PEV_inv_data_src_filter));
    acc(p->start, &n, SPU_REG_PMSLATFR_EL1, 1, SPU_PUT(PMSLATFR_EL1, MINLAT, pev_get(a, PEV_min_latency)));
    acc(p->start, &n, SPU_REG_PMSIRR_EL1, 1, pmsirr(a, c, period));
    /* the remaining period: a new event's is its sample period, as given */
    acc(p->start, &n, SPU_REG_PMSICR_EL1, 1, period);
    acc(p->start, &n, SPU_REG_PMSCR_EL1, 1,
        SPU_PUT(PMSCR_EL1, TS, pev_get(a, PEV_ts_enable)) | SPU_PUT(PMSCR_EL1, PA, pev_get(a, PEV_pa_enable)) |
            SPU_PUT(PMSCR_EL1, PCT, pev_get(a, PEV_pct_enable)) | SPU_PUT(PMSCR_EL1, E0SPE, !a->exclude_user) |
            SPU_PUT(PMSCR_EL1, E1SPE, !a->exclude_kernel));
    p->nstart = n;
    n = 0;
    acc(p->stop, &n, SPU_REG_PMSCR_EL1, 1, 0);
    acc(p->stop, &n, SPU_REG_PMBLIMITR_EL1, 1, 0);
    p->nstop = n;
    p->el = a->exclude_user ? 1 : 0;
}
