/*
 * Stimulus shared by csim and tb: one cycle of population members, register
 * access, context and reset, from a .spt trace (spt.c) or the seeded generator
 * (gen.c). Op attributes are asked for only when an op is sampled.
 */
#ifndef SPU_STIM_H
#define SPU_STIM_H

#include <stddef.h>
#include <stdint.h>

#include "spu_model.h"

/* One population member's attributes (trace `op` line). */
typedef struct spu_op {
    uint64_t id;          /* op id: members counted from 0 in stimulus order */
    uint8_t type;         /* {SIMD,FP,ST,LD,B} (spu_type_bit) */
    uint8_t ds_valid;     /* has a data source */
    uint16_t ds;
    uint64_t ev;          /* Events packet bits */
    uint32_t iss;         /* issue event iss cycles after entry, >= 1 */
    uint32_t fin;         /* finish event fin cycles after entry, >= iss */
    /* What its sample record carries (docs/records.md) */
    uint16_t attr;        /* spu_attr_bit set (NS by default) */
    uint8_t addr_valid;   /* SPU_REC_TGT, _VA, _PA, _PBT: which addresses it has */
    uint32_t ctx;         /* CONTEXTIDR_EL1 */
    uint64_t pc, tgt, va, pa, pbt;
} spu_op_t;

#define SPU_OP_ADDR_MAX 0x00FFFFFFFFFFFFFFull /* pc, tgt, pa, pbt: 56-bit addresses */
/* The attributes of an `op` line with no keys. */
#define SPU_OP_DEFAULT {.iss = 1, .fin = 1, .attr = 1u << SPU_ATTR_NS}

#define SPU_OP_MAX_LAT 0xFFFFFFu /* largest iss/fin a trace may give */

/* One cycle of stimulus, before the core model adds issue/finish events. */
typedef struct spu_cyc {
    uint64_t cycle;
    uint8_t reset;                    /* 1: rst_ni = 0 this cycle */
    uint8_t pop_mask;                 /* bit l: member in lane l */
    uint64_t op_id[SPU_MAX_LANES];    /* id of lane l's member */
    uint8_t reg_valid, reg_write;
    uint16_t reg_enc;
    uint64_t reg_wdata;
    uint8_t el, allow;                /* context in force this cycle */
} spu_cyc_t;

/* A source of stimulus. */
typedef struct spu_src {
    void *self;
    /* Fill the next cycle; 1 = filled, 0 = the stimulus has ended. */
    int (*next)(void *self, spu_cyc_t *c);
    /* Attributes of op `id`: 0, or -1 when next() never handed that id out. */
    int (*op)(void *self, uint64_t id, spu_op_t *op);
    /* Optional (NULL if unsupported): consume up to max_cycles upcoming cycles
     * that are plain (no register access, no context change, no reset) and
     * carry at most max_pops members in all; returns how many cycles were
     * consumed and their members in *pops. With pop_mask (NULL: not wanted;
     * else room for max_cycles), pop_mask[i] gets the lanes with a member
     * in the i-th cycle consumed, as next() would have set pop_mask. */
    uint64_t (*skip)(void *self, uint64_t max_cycles, uint64_t max_pops, uint64_t *pops, uint8_t *pop_mask);
    /* Optional (NULL for open-loop stimulus): the unit's outputs of the
     * cycle next() handed out last, before the next call of next(). Called
     * for every cycle with a register access and every cycle with PMBIRQ
     * set (run_observe()). */
    void (*observe)(void *self, const spu_out_t *out);
} spu_src_t;

/* How traces and logs spell a register encoding: its name, or the
 * s<op0>_<op1>_c<CRn>_c<CRm>_<op2> form for an encoding the model lacks. */
void stim_reg_str(uint16_t enc, char *buf, size_t len);

#endif
