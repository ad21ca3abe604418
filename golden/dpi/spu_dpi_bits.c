/*
 * Fields of a DPI-C packed vector (svBitVecVal words: bit i in word i / 32,
 * bit i % 32) to and from C arrays (spu_dpi_internal.h).
 */
#include <stdint.h>

#include "spu_dpi_internal.h"

static uint32_t low_mask(unsigned bits)
{
    return bits >= 32 ? UINT32_MAX : (UINT32_C(1) << bits) - 1u;
}

/* The w bits (w <= 64) of v from bit lsb. */
static uint64_t get_field(const svBitVecVal *v, unsigned lsb, unsigned w)
{
    uint64_t x = 0;
    for (unsigned got = 0; got < w;) {
        const unsigned b = lsb + got, off = b % 32u;
        const unsigned take = 32u - off < w - got ? 32u - off : w - got;
        x |= (uint64_t)((v[b / 32u] >> off) & low_mask(take)) << got;
        got += take;
    }
    return x;
}

/* Bits lsb..lsb+w-1 of v become x's low w bits. */
static void put_field(svBitVecVal *v, unsigned lsb, unsigned w, uint64_t x)
{
    for (unsigned put = 0; put < w;) {
        const unsigned b = lsb + put, off = b % 32u;
        const unsigned take = 32u - off < w - put ? 32u - off : w - put;
        const uint32_t m = low_mask(take) << off;
        v[b / 32u] = (v[b / 32u] & ~m) | ((uint32_t)(x >> put) << off & m);
        put += take;
    }
}

static uint64_t load(const void *a, size_t elsz, unsigned i)
{
    switch (elsz) {
    case 1: return ((const uint8_t *)a)[i];
    case 2: return ((const uint16_t *)a)[i];
    case 4: return ((const uint32_t *)a)[i];
    default: return ((const uint64_t *)a)[i];
    }
}

static void store(void *a, size_t elsz, unsigned i, uint64_t x)
{
    switch (elsz) {
    case 1: ((uint8_t *)a)[i] = (uint8_t)x; break;
    case 2: ((uint16_t *)a)[i] = (uint16_t)x; break;
    case 4: ((uint32_t *)a)[i] = (uint32_t)x; break;
    default: ((uint64_t *)a)[i] = x; break;
    }
}

void spu_dpi_unpack(const svBitVecVal *v, void *dst, size_t elsz, unsigned n, unsigned w)
{
    for (unsigned i = 0; i < n; i++)
        store(dst, elsz, i, get_field(v, w * i, w));
}

void spu_dpi_pack(svBitVecVal *v, const void *src, size_t elsz, unsigned n, unsigned w)
{
    const unsigned bits = n * w;
    if (bits % 32u)
        v[bits / 32u] = 0; /* the bits of the last word past the vector */
    for (unsigned i = 0; i < n; i++)
        put_field(v, w * i, w, load(src, elsz, i));
}
