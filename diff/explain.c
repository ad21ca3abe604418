/*
 * spu-diff's explanation of a keep/why disagreement (explain.h).
 */
#include <inttypes.h>
#include <string.h>

#include "explain.h"

/* The n low bits of v, most significant first. */
static const char *bits(uint64_t v, unsigned n, char *buf)
{
    for (unsigned i = 0; i < n; i++)
        buf[i] = (char)('0' + (v >> (n - 1 - i) & 1u));
    buf[n] = '\0';
    return buf;
}

/* One filter's row: the bit that enables it, both decisions, and what it
 * read. `impl` 0: the configuration lacks the filter. */
static void row(FILE *f, const match_dis_t *d, const char *name, unsigned why_bit, const char *en_field, int en,
                int impl, const char *read)
{
    const int m = d->model->why >> why_bit & 1u, t = d->theirs->why >> why_bit & 1u;
    char en_s[40];
    snprintf(en_s, sizeof en_s, "%s=%d", en_field, en);
    fprintf(f, "  %-8s %-21s %-7s %-7s %s%s%s\n", name, impl ? en_s : "(not implemented)", m ? "reject" : "pass",
            t ? "reject" : "pass", read, t && !en ? "; theirs rejects with the filter off" : "",
            m != t ? "  <- differs" : "");
}

/* The type filter's fields: TYPE, and with FEAT_SPE_EFT TYPEX and TYPEm. */
static void type_fields(const spu_config_t *cfg, uint64_t fcr, const char *keys, char *buf, size_t len)
{
    char a[8], b[8], c[8];
    const char *type = strstr(keys, " type=");
    int n = snprintf(buf, len, "op type %.*s; PMSFCR_EL1.TYPE=0b%s {ST,LD,B}", type ? (int)strcspn(type + 6, " ") : 1,
                     type ? type + 6 : "-", bits(SPU_GET(fcr, PMSFCR_EL1, TYPE), 3, a));
    if ((cfg->features & SPU_FEAT_EFT) && n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, " TYPEX=0b%s {SIMD,FP} TYPEm=0b%s {SIMD,FP,ST,LD,B}",
                 bits(SPU_GET(fcr, PMSFCR_EL1, TYPEX), 2, b), bits(SPU_GET(fcr, PMSFCR_EL1, TYPEm), 5, c));
}

/* The latency the filter compares: the model's, and theirs when it differs. */
static void lat_read(const match_dis_t *d, uint32_t minlat, char *buf, size_t len)
{
    if (d->model->tot == d->theirs->tot)
        snprintf(buf, len, "total latency %" PRIu32 "; PMSLATFR_EL1.MINLAT=%" PRIu32, d->model->tot, minlat);
    else
        snprintf(buf, len, "total latency %" PRIu32 " (theirs %" PRIu32 "); PMSLATFR_EL1.MINLAT=%" PRIu32,
                 d->model->tot, d->theirs->tot, minlat);
}

void explain_keep(FILE *f, const spu_config_t *cfg, const replay_t *p, const match_dis_t *d)
{
    const uint64_t *r = p->model.reg, fcr = r[SPU_REG_PMSFCR_EL1];
    const unsigned feat = cfg->features;
    char keys[512], rd[256];
    spu_op_t op;
    const int have = replay_op(p, d->op, &op) == 0;
    replay_op_keys(p, d->op, keys, sizeof keys);
    fprintf(f, "--- each filter's decision (D17.5): the model's, and what their why= says\n");
    fprintf(f, "  op %" PRIu64 " (as the trace gives it):%s\n", d->op, have ? (keys[0] ? keys : " no keys") : " unknown");
    fprintf(f, "  %-8s %-21s %-7s %-7s %s\n", "filter", "enabled by", "model", "theirs", "what it reads");
    type_fields(cfg, fcr, keys, rd, sizeof rd);
    row(f, d, "type", SPU_WHY_TYPE, "PMSFCR_EL1.FT", (int)SPU_GET(fcr, PMSFCR_EL1, FT), 1, rd);
    snprintf(rd, sizeof rd, "op events 0x%" PRIx64 "; PMSEVFR_EL1=0x%" PRIx64, have ? op.ev : 0,
             r[SPU_REG_PMSEVFR_EL1]);
    row(f, d, "ev", SPU_WHY_EV, "PMSFCR_EL1.FE", (int)SPU_GET(fcr, PMSFCR_EL1, FE), 1, rd);
    snprintf(rd, sizeof rd, "op events 0x%" PRIx64 "; PMSNEVFR_EL1=0x%" PRIx64, have ? op.ev : 0,
             r[SPU_REG_PMSNEVFR_EL1]);
    row(f, d, "nev", SPU_WHY_NEV, "PMSFCR_EL1.FnE", (int)SPU_GET(fcr, PMSFCR_EL1, FnE), (feat & SPU_FEAT_FNE) != 0,
        rd);
    lat_read(d, spu_minlat(r), rd, sizeof rd);
    row(f, d, "lat", SPU_WHY_LAT, "PMSFCR_EL1.FL", (int)SPU_GET(fcr, PMSFCR_EL1, FL), 1, rd);
    if (have && op.ds_valid)
        snprintf(rd, sizeof rd, "op data source 0x%x; PMSDSFR_EL1=0x%" PRIx64 " (loads only)", (unsigned)op.ds,
                 r[SPU_REG_PMSDSFR_EL1]);
    else
        snprintf(rd, sizeof rd, "op has no data source; PMSDSFR_EL1=0x%" PRIx64, r[SPU_REG_PMSDSFR_EL1]);
    row(f, d, "ds", SPU_WHY_DS, "PMSFCR_EL1.FDS", (int)SPU_GET(fcr, PMSFCR_EL1, FDS), (feat & SPU_FEAT_FDS) != 0,
        rd);
    const int fm = (int)SPU_GET(r[SPU_REG_PMBLIMITR_EL1], PMBLIMITR_EL1, FM);
    row(f, d, "discard", SPU_WHY_DISCARD, "PMBLIMITR_EL1.FM", fm, (feat & SPU_FEAT_V1P2) != 0,
        "FM=2 is discard mode: no record is kept (D17.5.5)");
    fprintf(f, "  %-8s %-21s %-7u %u%s\n", "keep", "", d->model->keep, d->theirs->keep,
            d->model->keep != d->theirs->keep ? "  <- differs" : "");
}
