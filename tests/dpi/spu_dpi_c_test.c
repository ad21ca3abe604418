/*
 * The DPI-C layer's own contract (golden/dpi/spu_dpi.h), without a
 * simulator: the messages and null handles of bad configurations, widths and
 * knobs, a null handle that does not crash, a knob that reaches the model,
 * and the svBitVecVal field packing at every offset within and across words
 * against a bit-by-bit expansion. spu_top's port layout itself is checked
 * against the RTL by tests/dpi/spu_dpi_tb.sv. Prints PASS/FAIL lines.
 */
#include <stdio.h>
#include <string.h>

#include "spu_dpi_internal.h"

static int fails;

static void check(const char *name, int ok, const char *detail)
{
    if (ok)
        printf("PASS dpi/c/%s\n", name);
    else {
        printf("FAIL dpi/c/%s: %s\n", name, detail);
        fails++;
    }
}

/* A call that must fail with a message containing want. */
static void fails_with(const char *name, int failed, const char *want)
{
    char detail[640];
    snprintf(detail, sizeof detail, "no failure, or the message '%s' lacks '%s'", spu_dpi_error(), want);
    check(name, failed && strstr(spu_dpi_error(), want) != NULL, detail);
}

static void handles(void)
{
    const spu_config_t *v1p4 = spu_config_find("v1p4");
    const int L = (int)v1p4->lanes, S = (int)v1p4->slots, R = (int)v1p4->rec_max;
    fails_with("unknown_config_is_null_with_names", spu_dpi_new("nosuch", L, S, R, SPU_NPMU, SPU_PMU_W) == NULL,
               "unknown configuration 'nosuch' (this library has: v1 v1p4");
    fails_with("null_config_name_is_null", spu_dpi_new(NULL, L, S, R, SPU_NPMU, SPU_PMU_W) == NULL,
               "unknown configuration '(null)'");
    fails_with("other_widths_are_null", spu_dpi_new("v1p4", L + 1, S, R, SPU_NPMU, SPU_PMU_W) == NULL,
               "compiled with LANES 2,");
    char want[64];
    snprintf(want, sizeof want, "SLOTS %d, REC_MAX %d, NPMU", S, R - 1);
    fails_with("other_rec_max_is_null", spu_dpi_new("v1p4", L, S, R - 1, SPU_NPMU, SPU_PMU_W) == NULL, want);
    void *h = spu_dpi_new("v1p4", L, S, R, SPU_NPMU, SPU_PMU_W);
    check("good_config_has_a_handle_and_no_message", h != NULL && spu_dpi_error()[0] == '\0', spu_dpi_error());
    if (!h)
        return;
    fails_with("unknown_knob", spu_dpi_set_knob(h, "NOSUCH", 1) != 0, "unknown knob 'NOSUCH'");
    fails_with("knob_out_of_range", spu_dpi_set_knob(h, "SLOT_REUSE", 2) != 0, "knob SLOT_REUSE=2 out of range");
    fails_with("knob_of_null_handle", spu_dpi_set_knob(NULL, "SLOT_REUSE", 1) != 0, "null handle");
    const spu_dpi_t *d = h;
    check("knob_reaches_the_model",
          spu_dpi_set_knob(h, "SLOT_REUSE", 1) == 0 && spu_dpi_error()[0] == '\0' &&
              d->m.cfg.knob[SPU_KNOB_SLOT_REUSE] == 1 &&
              d->m.cfg.knob[SPU_KNOB_INFLIGHT] == v1p4->knob[SPU_KNOB_INFLIGHT],
          spu_dpi_error());
    spu_dpi_free(h);
    spu_dpi_free(NULL);
    /* a step on a null handle (spu_dpi_new failed, unchecked) returns */
    svBitVecVal z[4] = {0}, o[4];
    svBit b;
    /* every port from the generated list: a bit or a vector, in or out */
#define ARG_BIT_IN 1
#define ARG_VEC_IN z
#define ARG_BIT_OUT &b
#define ARG_VEC_OUT o
#define ARG(p, K, D) , ARG_##K##_##D
    spu_dpi_step(NULL SPU_DPI_PORTS(ARG));
#undef ARG
    check("step_of_null_handle_returns", 1, "");
}

/* Bit i of a packed vector, the way the standard defines the words. */
static unsigned bit_of(const svBitVecVal *v, unsigned i)
{
    return (v[i / 32] >> (i % 32)) & 1u;
}

static void packing(void)
{
    /* n fields of w bits for every w, n = 5, from a pattern that differs
     * in every field and bit position */
    int ok = 1;
    char detail[128] = "";
    for (unsigned w = 1; w <= 64 && ok; w++) {
        uint64_t src[5], back[5];
        svBitVecVal v[11];
        for (unsigned i = 0; i < 5; i++)
            src[i] = (0x9E3779B97F4A7C15ull * (i + 1) ^ 0xD1B54A32D192ED03ull * w) & (UINT64_MAX >> (64 - w));
        memset(v, 0xA5, sizeof v); /* pack must clear the last word's unused bits */
        spu_dpi_pack(v, src, sizeof src[0], 5, w);
        const unsigned bits = 5 * w;
        for (unsigned i = 0; i < bits && ok; i++)
            if (bit_of(v, i) != ((src[i / w] >> (i % w)) & 1u)) {
                snprintf(detail, sizeof detail, "w=%u: bit %u of the vector", w, i);
                ok = 0;
            }
        for (unsigned i = bits; i < (bits + 31) / 32 * 32 && ok; i++)
            if (bit_of(v, i)) {
                snprintf(detail, sizeof detail, "w=%u: bit %u past the vector is set", w, i);
                ok = 0;
            }
        spu_dpi_unpack(v, back, sizeof back[0], 5, w);
        if (ok && memcmp(src, back, sizeof src) != 0) {
            snprintf(detail, sizeof detail, "w=%u: unpack(pack(x)) != x", w);
            ok = 0;
        }
    }
    check("pack_unpack_every_width_and_offset", ok, detail);
    /* narrow elements: fields are truncated into them and zero-extended out */
    const uint8_t slots[3] = {0x3, 0x1, 0x2};
    svBitVecVal v = 0;
    uint16_t wide[3];
    spu_dpi_pack(&v, slots, 1, 3, 2);
    spu_dpi_unpack(&v, wide, 2, 3, 2);
    check("slot_fields_at_2p", v == 0x27u && wide[0] == 3 && wide[1] == 1 && wide[2] == 2, "iss_slot_i layout");
}

int main(void)
{
    handles();
    packing();
    return fails ? 1 : 0;
}
