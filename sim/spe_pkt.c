/*
 * SPE packet decoder (spe_pkt.h). The header encodings are those of Arm ARM
 * chapter D18 (tabled in docs/perf.md); the text of each packet is the
 * wording perf 6.1 prints in `perf report -D`, compared form by form with
 * perf itself on the buffers of tests/perf/ (tests/perf_test.sh).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "spe_pkt.h"
#include "plural.h"

#define ADDR_56(p) ((p) & UINT64_C(0x00ffffffffffffff))

/* Append to a text buffer, never past its end. */
typedef struct {
    char *s;
    size_t n, at;
} text_t;

static void put(text_t *t, const char *fmt, ...)
{
    if (t->at >= t->n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->s + t->at, t->n - t->at, fmt, ap);
    va_end(ap);
    if (k > 0)
        t->at += (size_t)k < t->n - t->at ? (size_t)k : t->n - t->at - 1;
}

/* The header byte's size field, bits [5:4]: 1, 2, 4 or 8 bytes. */
static unsigned payload_size(uint8_t hdr)
{
    return 1u << ((hdr >> 4) & 3);
}

int spe_pkt_next(const uint8_t *buf, size_t len, size_t off, spe_pkt_t *p, char err[SPE_PKT_ERR_LEN])
{
    memset(p, 0, sizeof *p);
    p->offset = off;
    size_t hlen = 1;
    uint8_t h = buf[off];
    if (h == 0x00) {
        p->kind = SPE_PKT_PAD;
    } else if (h == 0x01) {
        p->kind = SPE_PKT_END;
    } else if (h == 0x71) {
        p->kind = SPE_PKT_TIMESTAMP;
    } else if ((h & 0xCF) == 0x42) {
        p->kind = SPE_PKT_EVENTS;
    } else if ((h & 0xCF) == 0x43) {
        p->kind = SPE_PKT_DATA_SOURCE;
    } else if ((h & 0xFC) == 0x64) {
        p->kind = SPE_PKT_CONTEXT;
        p->index = h & 3;
    } else if ((h & 0xFC) == 0x48) {
        p->kind = SPE_PKT_OP_TYPE;
        p->index = h & 3;
    } else {
        /* Address and Counter, with a one-byte header or an extended
         * header 001000ii that gives index bits [4:3]. */
        unsigned hi = 0;
        if ((h & 0xFC) == 0x20) {
            if (off + 1 >= len) {
                snprintf(err, SPE_PKT_ERR_LEN, "offset 0x%zx: extended header 0x%02x cut short by the end of the buffer (%zu byte%s)",
                         off, h, len, plural_s(len));
                return 0;
            }
            hi = (h & 3u) << 3;
            h = buf[off + 1];
            hlen = 2;
        }
        if ((h & 0xF8) == 0xB0) {
            p->kind = SPE_PKT_ADDRESS;
        } else if ((h & 0xF8) == 0x98) {
            p->kind = SPE_PKT_COUNTER;
        } else {
            if (hlen == 2)
                snprintf(err, SPE_PKT_ERR_LEN, "offset 0x%zx: unknown packet header 0x%02x 0x%02x after an extended header%s",
                         off, buf[off], h, h == 0 ? " (alignment padding, which this decoder does not take)" : "");
            else
                snprintf(err, SPE_PKT_ERR_LEN, "offset 0x%zx: unknown packet header 0x%02x", off, h);
            return 0;
        }
        p->index = hi | (h & 7u);
    }
    if (p->kind != SPE_PKT_PAD && p->kind != SPE_PKT_END)
        p->payload_size = payload_size(h);
    p->size = hlen + p->payload_size;
    if (p->size > len - off) {
        snprintf(err, SPE_PKT_ERR_LEN, "offset 0x%zx: packet header 0x%02x needs %zu bytes, the buffer ends after %zu",
                 off, buf[off], p->size, len - off);
        return 0;
    }
    for (unsigned i = 0; i < p->payload_size; i++)
        p->payload |= (uint64_t)buf[off + hlen + i] << (8 * i);
    return 1;
}

/* Events packet bits perf 6.1 names (registers.md's table, D18.2.6);
 * the other bits it leaves out of the text. */
static const struct {
    unsigned bit;
    const char *name;
} event_names[] = {
    {0, "EXCEPTION-GEN"}, {1, "RETIRED"},      {2, "L1D-ACCESS"},     {3, "L1D-REFILL"},
    {4, "TLB-ACCESS"},    {5, "TLB-REFILL"},   {6, "NOT-TAKEN"},      {7, "MISPRED"},
    {8, "LLC-ACCESS"},    {9, "LLC-REFILL"},   {10, "REMOTE-ACCESS"}, {11, "ALIGNMENT"},
    {17, "SVE-PARTIAL-PRED"}, {18, "SVE-EMPTY-PRED"},
};

/* The SVE effective vector length field, p[6:4]: 32 << EVL bits. */
static int sve_evl(uint64_t p)
{
    return 32 << ((p >> 4) & 7);
}

/* Operation Type text; returns 0 for a class perf has no words for. */
static int op_text(text_t *t, unsigned cls, uint64_t p)
{
    switch (cls) {
    case SPE_OP_OTHER:
        if ((p & 0x89) == 0x08) { /* SVE operation other than load/store */
            put(t, "SVE-OTHER EVLEN %d", sve_evl(p));
            if (p & 0x02)
                put(t, " FP");
            if (p & 0x04)
                put(t, " PRED");
        } else {
            put(t, "OTHER %s", p & 1 ? "COND-SELECT" : "INSN-OTHER");
        }
        return 1;
    case SPE_OP_LDST:
        put(t, p & 1 ? "ST" : "LD");
        if ((p & 0xE2) == 0x02) { /* extended: atomic, exclusive, acquire/release */
            if (p & 0x04)
                put(t, " AT");
            if (p & 0x08)
                put(t, " EXCL");
            if (p & 0x10)
                put(t, " AR");
        }
        switch (p & 0xFE) {
        case 0x00: put(t, " GP-REG"); break;
        case 0x04: put(t, " SIMD-FP"); break;
        case 0x10: put(t, " UNSPEC-REG"); break;
        case 0x30: put(t, " NV-SYSREG"); break;
        default: break;
        }
        if ((p & 0x0A) == 0x08) { /* SVE load/store */
            put(t, " EVLEN %d", sve_evl(p));
            if (p & 0x04)
                put(t, " PRED");
            if (p & 0x80)
                put(t, " SG");
        }
        return 1;
    case SPE_OP_BRANCH:
        put(t, "B");
        if (p & 1)
            put(t, " COND");
        if ((p & 0xFE) == 0x02)
            put(t, " IND");
        return 1;
    default:
        return 0;
    }
}

/* Address text; returns 0 for an index perf has no words for. */
static int addr_text(text_t *t, unsigned idx, uint64_t p)
{
    static const char *const name[] = {"PC", "TGT"};
    switch (idx) {
    case SPE_ADDR_PC:
    case SPE_ADDR_TARGET:
        put(t, "%s 0x%" PRIx64 " el%u ns=%u", name[idx], ADDR_56(p), (unsigned)(p >> 61) & 3, (unsigned)(p >> 63));
        return 1;
    case SPE_ADDR_DATA_VA:
        put(t, "VA 0x%" PRIx64, p);
        return 1;
    case SPE_ADDR_DATA_PA:
        put(t, "PA 0x%" PRIx64 " ns=%u ch=%u pat=%x", ADDR_56(p), (unsigned)(p >> 63), (unsigned)(p >> 62) & 1,
            (unsigned)(p >> 56) & 0xF);
        return 1;
    default:
        return 0;
    }
}

void spe_pkt_text(const spe_pkt_t *p, char out[SPE_PKT_TEXT_LEN])
{
    text_t t = {out, SPE_PKT_TEXT_LEN, 0};
    out[0] = 0;
    switch (p->kind) {
    case SPE_PKT_PAD:
        put(&t, "PAD");
        return;
    case SPE_PKT_END:
        put(&t, "END");
        return;
    case SPE_PKT_TIMESTAMP:
        put(&t, "TS %" PRId64, (int64_t)p->payload);
        return;
    case SPE_PKT_DATA_SOURCE:
        put(&t, "DATA-SOURCE %" PRId64, (int64_t)p->payload);
        return;
    case SPE_PKT_CONTEXT:
        put(&t, "CONTEXT 0x%" PRIx64 " el%u", p->payload, p->index + 1);
        return;
    case SPE_PKT_EVENTS:
        put(&t, "EV");
        for (size_t i = 0; i < sizeof event_names / sizeof event_names[0]; i++)
            if (p->payload >> event_names[i].bit & 1)
                put(&t, " %s", event_names[i].name);
        return;
    case SPE_PKT_COUNTER:
        put(&t, "LAT %u %s", (unsigned)(p->payload & 0xFFFF),
            p->index == SPE_CNT_TOTAL ? "TOT" : p->index == SPE_CNT_ISSUE ? "ISSUE" : p->index == SPE_CNT_XLAT ? "XLAT" : "");
        return;
    case SPE_PKT_OP_TYPE:
        if (!op_text(&t, p->index, p->payload))
            put(&t, "OP-TYPE 0x%" PRIx64 " (%u)", p->payload, p->index);
        return;
    case SPE_PKT_ADDRESS:
        if (!addr_text(&t, p->index, p->payload))
            put(&t, "ADDR 0x%" PRIx64 " (%u)", p->payload, p->index);
        return;
    }
}

/* One dump line: offset, up to 16 bytes in hex, padded, then the text. */
static void dump_line(FILE *f, const uint8_t *buf, size_t off, size_t n, const char *text, uint64_t base)
{
    fprintf(f, "%08" PRIx64 ":  ", base + off);
    for (size_t i = 0; i < 16; i++) {
        if (i < n)
            fprintf(f, "%02x ", buf[off + i]);
        else
            fputs("   ", f);
    }
    fprintf(f, "%s\n", text);
}

int spe_pkt_dump(FILE *f, const uint8_t *buf, size_t len, char err[SPE_PKT_ERR_LEN])
{
    return spe_pkt_dump_at(f, buf, len, 0, err);
}

int spe_pkt_dump_at(FILE *f, const uint8_t *buf, size_t len, uint64_t base, char err[SPE_PKT_ERR_LEN])
{
    size_t off = 0;
    while (off < len) {
        spe_pkt_t p;
        if (!spe_pkt_next(buf, len, off, &p, err))
            return -1;
        size_t n = p.size;
        if (p.kind == SPE_PKT_PAD) /* a run of zero bytes, 16 to a line */
            while (n < 16 && off + n < len && buf[off + n] == 0)
                n++;
        char text[SPE_PKT_TEXT_LEN];
        spe_pkt_text(&p, text);
        dump_line(f, buf, off, n, text, base);
        off += n;
    }
    return 0;
}

int spe_read_file(const char *path, uint8_t **buf, size_t *len, char err[SPE_PKT_ERR_LEN])
{
    *buf = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, SPE_PKT_ERR_LEN, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 0;
    for (;;) {
        if (*len == cap) {
            cap = cap ? 2 * cap : 65536;
            uint8_t *nb = realloc(*buf, cap);
            if (!nb) {
                snprintf(err, SPE_PKT_ERR_LEN, "%s: out of memory after %zu byte%s", path, *len, plural_s(*len));
                break;
            }
            *buf = nb;
        }
        size_t k = fread(*buf + *len, 1, cap - *len, f);
        *len += k;
        if (k == 0) {
            if (!ferror(f)) {
                fclose(f);
                return 0;
            }
            snprintf(err, SPE_PKT_ERR_LEN, "%s: read error after %zu byte%s: %s", path, *len, plural_s(*len), strerror(errno));
            break;
        }
    }
    fclose(f);
    free(*buf);
    *buf = NULL;
    *len = 0;
    return -1;
}
