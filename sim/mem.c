/*
 * The harness's byte-addressed memory (mem.h).
 */
#include <stdlib.h>
#include <string.h>

#include "mem.h"

void mem_init(spu_mem_t *m)
{
    memset(m, 0, sizeof *m);
}

void mem_free(spu_mem_t *m)
{
    for (unsigned i = 0; i < m->cap; i++)
        free(m->slot[i]);
    free(m->slot);
    memset(m, 0, sizeof *m);
}

static unsigned hash(uint64_t page, unsigned cap)
{
    return (unsigned)((page * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1u);
}

static mem_page_t *find(const spu_mem_t *m, uint64_t base)
{
    if (!m->cap)
        return NULL;
    for (unsigned i = hash(base, m->cap);; i = (i + 1u) & (m->cap - 1u)) {
        if (!m->slot[i] || m->slot[i]->base == base)
            return m->slot[i];
    }
}

static int grow(spu_mem_t *m)
{
    const unsigned cap = m->cap ? 2 * m->cap : 64;
    mem_page_t **s = calloc(cap, sizeof *s);
    if (!s)
        return -1;
    for (unsigned i = 0; i < m->cap; i++) {
        mem_page_t *p = m->slot[i];
        if (!p)
            continue;
        unsigned j = hash(p->base, cap);
        while (s[j])
            j = (j + 1u) & (cap - 1u);
        s[j] = p;
    }
    free(m->slot);
    m->slot = s;
    m->cap = cap;
    return 0;
}

static mem_page_t *get(spu_mem_t *m, uint64_t base)
{
    mem_page_t *p = find(m, base);
    if (p)
        return p;
    if (2 * (m->npages + 1) > m->cap && grow(m))
        return NULL;
    if (!(p = calloc(1, sizeof *p)))
        return NULL;
    p->base = base;
    unsigned i = hash(base, m->cap);
    while (m->slot[i])
        i = (i + 1u) & (m->cap - 1u);
    m->slot[i] = p;
    m->npages++;
    return p;
}

int mem_write(spu_mem_t *m, uint64_t addr, uint64_t data, uint8_t strb)
{
    m->beats++;
    if (!strb)
        return 0;
    /* a beat is 8-byte aligned, so its bytes are in one page: one lookup */
    const uint64_t base = addr & ~(uint64_t)(MEM_PAGE - 1u);
    mem_page_t *p = (addr & 7u) || (addr - base) > MEM_PAGE - 8u ? NULL : get(m, base);
    for (unsigned j = 0; j < 8; j++) {
        if (!((strb >> j) & 1u))
            continue;
        const uint64_t a = addr + j;
        mem_page_t *q = p ? p : get(m, a & ~(uint64_t)(MEM_PAGE - 1u));
        if (!q)
            return -1;
        const unsigned o = (unsigned)(a & (MEM_PAGE - 1u));
        q->byte[o] = (uint8_t)(data >> (8 * j));
        q->written[o / 8] |= (uint8_t)(1u << (o % 8));
        m->bytes++;
    }
    /* the lowest and highest address written, from the beat's first and last enabled byte */
    const uint64_t first = addr + (unsigned)__builtin_ctz(strb), last = addr + 7u - (unsigned)__builtin_clz((unsigned)strb << 24);
    if (m->lo == m->hi)
        m->lo = first, m->hi = last + 1;
    else {
        if (first < m->lo)
            m->lo = first;
        if (last >= m->hi)
            m->hi = last + 1;
    }
    return 0;
}

int mem_read(const spu_mem_t *m, uint64_t addr, uint8_t *byte)
{
    const mem_page_t *p = find(m, addr & ~(uint64_t)(MEM_PAGE - 1u));
    const unsigned o = (unsigned)(addr & (MEM_PAGE - 1u));
    *byte = p ? p->byte[o] : 0;
    return p && ((p->written[o / 8] >> (o % 8)) & 1u);
}

/* The first byte of a's pages that b does not hold alike. Pages that match
 * as a whole (the bytes and which of them were written; a byte never written
 * stays zero) are passed with two memcmp()s; only a page that differs is
 * walked byte by byte. */
static int first_diff(const spu_mem_t *a, const spu_mem_t *b, uint64_t *addr)
{
    static const mem_page_t empty;
    for (unsigned i = 0; i < a->cap; i++) {
        const mem_page_t *p = a->slot[i];
        if (!p)
            continue;
        const mem_page_t *q = find(b, p->base);
        if (!q)
            q = &empty;
        if (!memcmp(p->written, q->written, sizeof p->written) && !memcmp(p->byte, q->byte, sizeof p->byte))
            continue;
        for (unsigned o = 0; o < MEM_PAGE; o++) {
            const int hx = (p->written[o / 8] >> (o % 8)) & 1u, hy = (q->written[o / 8] >> (o % 8)) & 1u;
            if (hx != hy || (hx && p->byte[o] != q->byte[o])) {
                *addr = p->base + o;
                return 1;
            }
        }
    }
    return 0;
}

int mem_compare(const spu_mem_t *a, const spu_mem_t *b, uint64_t *addr, int *a_has, uint8_t *a_byte,
                int *b_has, uint8_t *b_byte)
{
    if (!first_diff(a, b, addr) && !first_diff(b, a, addr))
        return 0;
    *a_has = mem_read(a, *addr, a_byte);
    *b_has = mem_read(b, *addr, b_byte);
    return 1;
}

int mem_dump(const spu_mem_t *m, FILE *f)
{
    if (m->hi - m->lo > MEM_DUMP_MAX)
        return -2;
    for (uint64_t a = m->lo; a != m->hi; a++) {
        uint8_t b;
        (void)mem_read(m, a, &b);
        if (fputc(b, f) == EOF)
            return -1;
    }
    return 0;
}
