/*
 * spu_dpi_step (spu_dpi.h): spu_top's packed ports (docs/ports.md) to the
 * model's spu_in_t, one spu_model_step, and spu_out_t back to the ports,
 * every port through the X-macros of spu_ports.h.
 */
#include <string.h>

#include "spu_dpi_internal.h"

/* Each port by its packing (spu_ports.h, configs/spu.toml [ports]): a
 * single bit is an svBit, every other port a packed vector of elements
 * (spu_dpi_unpack/spu_dpi_pack). */
#define IN_ONE(v, f, w) spu_dpi_unpack_one((v), &in.f, sizeof in.f, (w))
#define IN_LANES(v, f, w) spu_dpi_unpack((v), &in.f, sizeof in.f, 1, L)
#define IN_PORTS(v, f, w) spu_dpi_unpack((v), &in.f, sizeof in.f, 1, S)
#define IN_LANE(v, f, w) spu_dpi_unpack((v), in.f, sizeof in.f[0], L, (w))
#define IN_PORT(v, f, w) spu_dpi_unpack((v), in.f, sizeof in.f[0], S, (w))
#define OUT_ONE(v, f, w) spu_dpi_pack_one((v), &out.f, sizeof out.f, (w))
#define OUT_LANES(v, f, w) spu_dpi_pack((v), &out.f, sizeof out.f, 1, L)
#define OUT_PORTS(v, f, w) spu_dpi_pack((v), &out.f, sizeof out.f, 1, S)
#define OUT_LANE(v, f, w) spu_dpi_pack((v), out.f, sizeof out.f[0], L, (w))
#define OUT_PORT(v, f, w) spu_dpi_pack((v), out.f, sizeof out.f[0], S, (w))
#define OUT_PMU(v, f, w) spu_dpi_pack((v), out.f, sizeof out.f[0], SPU_NPMU, (w))

/* A single port of w bits: an svBit (w 1, by value or through a pointer)
 * or a packed vector. C11 _Generic tells them apart. */
#define spu_dpi_unpack_one(v, dst, elsz, w) \
    _Generic((v), svBit: spu_dpi_unpack_bit, default: spu_dpi_unpack_vec)((v), (dst), (elsz), (w))
#define spu_dpi_pack_one(v, src, elsz, w) \
    _Generic((v), svBit *: spu_dpi_pack_bit, default: spu_dpi_pack_vec)((v), (src), (elsz), (w))
static void spu_dpi_unpack_bit(svBit v, void *dst, size_t elsz, unsigned w)
{
    (void)w;
    memset(dst, 0, elsz);
    *(uint8_t *)dst = v & 1u; /* little-endian: the low byte */
}
static void spu_dpi_unpack_vec(const svBitVecVal *v, void *dst, size_t elsz, unsigned w)
{
    spu_dpi_unpack(v, dst, elsz, 1, w);
}
static void spu_dpi_pack_bit(svBit *v, const void *src, size_t elsz, unsigned w)
{
    (void)elsz;
    (void)w;
    *v = *(const uint8_t *)src & 1u;
}
static void spu_dpi_pack_vec(svBitVecVal *v, const void *src, size_t elsz, unsigned w)
{
    spu_dpi_pack(v, src, elsz, 1, w);
}

void spu_dpi_step(SPU_DPI_STEP_PARAMS)
{
    spu_dpi_t *d = h;
    if (!d)
        return; /* spu_dpi_new failed and said why; the caller did not check */
    const unsigned L = d->m.cfg.lanes, S = d->m.cfg.slots;
    spu_in_t in;
    memset(&in, 0, sizeof in);
#define IN(port, m, PACK, w) IN_##PACK(port, m, w);
    SPU_IN_ALL(IN)
#undef IN
    spu_out_t out;
    spu_model_step(&d->m, &in, &out);
#define OUT(port, m, PACK, w) OUT_##PACK(port, m, w);
    SPU_OUT_ALL(OUT)
#undef OUT
}
