/*
 * csim --vectors (vectors.h, docs/formats.md). A header line naming the
 * configuration and the fields, then one line per clock cycle: every input
 * of spu_top with a spu_in_t member, "|", every output, each the packed
 * port in hexadecimal (lane, port or event 0 in the low bits), in the port
 * order of configs/spu.toml [ports] (spu_ports.h; the Verilog benches read
 * the same order from spu_vec_ports.vh). An element whose gate does not
 * hold is written as 0: the finish payloads without their finish (and the
 * finer valid bits), mem_addr/data/strb without mem_valid (the benches
 * compare those outputs only with their gate).
 */
#include <inttypes.h>
#include <string.h>

#include "vectors.h"

/* One packed port: up to 64 bits per lane or port (the widest). */
#define VEC_WORDS SPU_MAX_LANES
_Static_assert(SPU_MAX_SLOTS <= SPU_MAX_LANES, "a port's packed value fits VEC_WORDS");
typedef struct vbits {
    uint64_t w[VEC_WORDS];
} vbits_t;

/* Put v's low w bits (w <= 64) at bit lsb. */
static void vb_put(vbits_t *b, unsigned lsb, unsigned w, uint64_t v)
{
    v &= w >= 64 ? UINT64_MAX : (1ull << w) - 1;
    b->w[lsb / 64] |= v << (lsb % 64);
    if (lsb % 64 && lsb % 64 + w > 64)
        b->w[lsb / 64 + 1] |= v >> (64 - lsb % 64);
}

/* sep, then the value in hexadecimal without leading zeros; clears b. */
static void vb_print(FILE *f, const char *sep, vbits_t *b)
{
    int i = VEC_WORDS - 1;
    while (i > 0 && !b->w[i])
        i--;
    fprintf(f, "%s%" PRIx64, sep, b->w[i]);
    while (i-- > 0)
        fprintf(f, "%016" PRIx64, b->w[i]);
    memset(b, 0, sizeof *b);
}

static void vec_names(FILE *f)
{
    const char *sep = "";
#define NAME(port, m, PACK, w) fprintf(f, "%s%s", sep, #port), sep = ",";
    SPU_IN_ALL(NAME)
    fputs(" | ", f);
    sep = "";
    SPU_OUT_ALL(NAME)
#undef NAME
}

void vec_begin(FILE *f, const spu_config_t *cfg)
{
    fprintf(f, "# spu-vectors 2 config %s lanes %u slots %u fields ", cfg->name, cfg->lanes, cfg->slots);
    vec_names(f);
    fputc('\n', f);
}

/* The elements of one port of a struct s (spu_in_t or spu_out_t), gated,
 * packed into b. */
#define PACK_ONE(s, m, w) vb_put(&b, 0, w, SPU_GATE_##m(s, 0) ? (uint64_t)(s)->m : 0)
#define PACK_LANES(s, m, w) vb_put(&b, 0, L, (s)->m)
#define PACK_PORTS(s, m, w) vb_put(&b, 0, S, (s)->m)
#define PACK_LANE(s, m, w)              \
    for (unsigned i = 0; i < L; i++)    \
        vb_put(&b, (w) * i, w, SPU_GATE_##m(s, i) ? (uint64_t)(s)->m[i] : 0)
#define PACK_PORT(s, m, w)              \
    for (unsigned i = 0; i < S; i++)    \
        vb_put(&b, (w) * i, w, SPU_GATE_##m(s, i) ? (uint64_t)(s)->m[i] : 0)
#define PACK_PMU(s, m, w)                   \
    for (unsigned i = 0; i < SPU_NPMU; i++) \
        vb_put(&b, (w) * i, w, (s)->m[i])

void vec_cycle(FILE *f, const spu_config_t *cfg, const spu_in_t *in,
               const spu_out_t *out)
{
    const unsigned L = cfg->lanes, S = cfg->slots;
    vbits_t b;
    const char *sep = "";
    memset(&b, 0, sizeof b);
#define FIELD_IN(port, m, PACK, w) \
    {                              \
        PACK_##PACK(in, m, w);     \
        vb_print(f, sep, &b);      \
        sep = " ";                 \
    }
#define FIELD_OUT(port, m, PACK, w) \
    {                               \
        PACK_##PACK(out, m, w);     \
        vb_print(f, " ", &b);       \
    }
    SPU_IN_ALL(FIELD_IN)
    fputs(" |", f);
    SPU_OUT_ALL(FIELD_OUT)
#undef FIELD_IN
#undef FIELD_OUT
    fputc('\n', f);
}
