/*
 * The generator's ops (gen.h: gen_op()): each population member's type,
 * events, latencies, data source and what its record carries, a function
 * of (seed, id) alone.
 */
#include <stdint.h>
#include <string.h>

#include "gen.h"
#include "rng.h"

static void gen_op_record(uint64_t *s, spu_op_t *op);

/* An op's attributes depend only on (seed, id): whoever asks, whenever. */
void gen_op(const spu_gen_t *g, uint64_t id, spu_op_t *op)
{
    uint64_t s = g->seed * 0x2545F4914F6CDD1Dull ^ id * 0x9E3779B97F4A7C15ull;
    const gen_params_t *p = &g->p;
    *op = (spu_op_t)SPU_OP_DEFAULT;
    op->id = id;
    uint32_t r = rng_below(&s, 100);
    if (r < p->p_ld)
        op->type = 1u << SPU_T_LD;
    else if ((r -= p->p_ld) < p->p_st)
        op->type = 1u << SPU_T_ST;
    else if ((r -= p->p_st) < p->p_b)
        op->type = (uint8_t)(1u << SPU_T_B | (rng_below(&s, 10) == 0 ? 1u << (1 + rng_below(&s, 2)) : 0));
    else if ((r -= p->p_b) < p->p_atomic)
        op->type = 1u << SPU_T_LD | 1u << SPU_T_ST;
    if (rng_below(&s, 100) < p->p_fp)
        op->type |= 1u << SPU_T_FP;
    if (rng_below(&s, 100) < p->p_simd)
        op->type |= 1u << SPU_T_SIMD;
    /* Each event bit set with probability about ev_density/1024. */
    uint64_t ev = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t w = rng_next(&s);
        uint32_t d = p->ev_density;
        while (d < 512 && w) {
            w &= rng_next(&s);
            d *= 2;
        }
        ev |= w;
        if (rng_below(&s, 4))
            break;
    }
    /* A quarter of the ops are event-rich (3/4 of the bits set), so that an
     * AND filter on one or two events (PMSEVFR) keeps some records. */
    if (rng_below(&s, 4) == 0)
        ev |= rng_next(&s) | rng_next(&s);
    op->ev = ev;
    if (rng_below(&s, 100) < p->p_ds) {
        op->ds_valid = 1;
        op->ds = (uint16_t)rng_next(&s);
    }
    uint32_t fin = 1 + rng_below(&s, p->fin_max);
    int late_issue = 0;
    if (rng_below(&s, 1000) < p->p_long) {
        /* Three quarters of the long ops end near the counters' saturation value CMAX (total
         * latency saturates; issued late, the issue latency too). */
        const uint32_t cmax = (1u << g->cfg->count_size) - 1u;
        if (cmax + 128u <= g->long_lat && rng_below(&s, 4)) {
            fin = cmax - 8u + rng_below(&s, 128);
            late_issue = rng_below(&s, 8) != 0;
        } else {
            fin = 1 + rng_below(&s, g->long_lat);
        }
    }
    op->fin = fin;
    op->iss = late_issue ? fin - rng_below(&s, 8) : 1 + rng_below(&s, fin);
    gen_op_record(&s, op);
}

/* An address: usually in one of a few regions, sometimes any 56 bits (so
 * every payload bit moves). */
static uint64_t gen_addr(uint64_t *s, uint64_t region)
{
    switch (rng_below(s, 8)) {
    case 0: return rng_next(s) & SPU_OP_ADDR_MAX;
    case 1: return SPU_OP_ADDR_MAX - (rng_next(s) & 0xFFF);
    default: return (region + (rng_next(s) & 0xFFFFF)) & SPU_OP_ADDR_MAX;
    }
}

/* What the op's record carries (docs/generator.md): a PC, a context, a
 * target for a taken branch, data addresses for loads and stores,
 * sometimes a previous branch target; the attributes the Operation Type
 * packet encodes. Drawn after everything else, so the rest of the op does
 * not depend on them. */
static void gen_op_record(uint64_t *s, spu_op_t *op)
{
    static const uint64_t region[4] = {0x0000AAAAC0000000ull, 0x0000FFFF80000000ull,
                                       0x00FFFF8000100000ull, 0x0000000000400000ull};
    const uint64_t code = region[rng_below(s, 4)];
    /* One op in 48 carries everything a record can hold (a branch that also
     * loads, with every address and a data source): the largest records. */
    const int full = rng_below(s, 48) == 0;
    if (full) {
        op->type = (uint8_t)(op->type | 1u << SPU_T_B | 1u << SPU_T_LD);
        op->ev &= ~(1ull << 6); /* taken */
        op->ds_valid = 1;
    }
    const int b = op->type & (1u << SPU_T_B), ldst = op->type & (1u << SPU_T_LD | 1u << SPU_T_ST);
    op->pc = gen_addr(s, code) & ~3ull;
    op->ctx = rng_below(s, 8) == 0 ? (uint32_t)rng_next(s) : 100u + rng_below(s, 4);
    op->attr = (uint16_t)(rng_below(s, 10) ? 1u << SPU_ATTR_NS : 0);
    /* Events bit 6 is "not taken": a conditional op whose condition failed. */
    const int failed = (op->ev >> 6) & 1u;
    if (failed || ((b || !ldst) && rng_below(s, 3) == 0))
        op->attr |= 1u << SPU_ATTR_COND;
    if (b) {
        if (rng_below(s, 3) == 0)
            op->attr |= 1u << SPU_ATTR_IND;
        if (!failed && (full || rng_below(s, 8))) {
            op->addr_valid |= SPU_REC_TGT;
            op->tgt = gen_addr(s, code) & ~3ull;
        }
    }
    if (ldst) {
        if (rng_below(s, 8) == 0)
            op->attr |= 1u << SPU_ATTR_EXCL;
        if (rng_below(s, 8) == 0)
            op->attr |= 1u << SPU_ATTR_AR;
        if (full || rng_below(s, 10)) {
            op->addr_valid |= SPU_REC_VA;
            /* the top byte is a tag now and then */
            op->va = gen_addr(s, region[rng_below(s, 4)]) | (rng_below(s, 4) ? 0 : rng_next(s) << 56);
            if (full || rng_below(s, 5)) {
                op->addr_valid |= SPU_REC_PA;
                op->pa = ((rng_next(s) << 12) | (op->va & 0xFFF)) & (rng_below(s, 8) ? 0xFFFFFFFFFFull
                                                                                      : SPU_OP_ADDR_MAX);
            }
        }
    }
    /* SVE: a third of the SIMD ops and some loads/stores and others */
    if ((!b && (op->type >> SPU_T_SIMD & 1u) && rng_below(s, 3) == 0) || (!b && rng_below(s, 16) == 0)) {
        op->attr |= (uint16_t)(1u << SPU_ATTR_SVE | rng_below(s, 2) << SPU_ATTR_PRED |
                               rng_below(s, 7) << SPU_ATTR_EVL);
        if (ldst && rng_below(s, 3) == 0)
            op->attr |= 1u << SPU_ATTR_SG;
    }
    if (full || rng_below(s, 2)) {
        op->addr_valid |= SPU_REC_PBT;
        op->pbt = gen_addr(s, code) & ~3ull;
    }
}
