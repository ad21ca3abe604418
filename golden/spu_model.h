/*
 * openspu golden model: the Statistical Profiling Unit's sampling and filtering
 * (Arm ARM D17, M.a.a pseudocode) as a plain C11 library with the cycle timing
 * of rtl/spu_top.v. See docs/semantics.md for the per-cycle order of work and
 * docs/api.md for how to use this API.
 *
 * Rules: no globals, no exit(), no simulator headers. All state is in
 * spu_model_t; the caller owns the storage.
 */
#ifndef SPU_MODEL_H
#define SPU_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "spu_config.h" /* generated from configs/spu.toml */
#include "spu_ports.h"  /* generated from configs/spu.toml [ports] */

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- ports */

/* fin_type / flags bit positions: PMSFCR_EL1.TYPE order (bits 16..20). */
enum spu_type_bit { SPU_T_B = 0, SPU_T_LD = 1, SPU_T_ST = 2, SPU_T_FP = 3, SPU_T_SIMD = 4 };

/* rec_why bits: one per rejecting reason (docs/semantics.md step 4). */
enum spu_why_bit {
    SPU_WHY_TYPE = 0, SPU_WHY_EV = 1, SPU_WHY_NEV = 2,
    SPU_WHY_LAT = 3, SPU_WHY_DS = 4, SPU_WHY_DISCARD = 5
};

/* fin_attr bits: what the Operation Type packet and the address packets
 * need beyond fin_type (docs/records.md). */
enum spu_attr_bit {
    SPU_ATTR_COND = 0, /* conditional (or conditional select) */
    SPU_ATTR_IND = 1,  /* indirect branch */
    SPU_ATTR_EXCL = 2, /* load/store exclusive */
    SPU_ATTR_AR = 3,   /* load-acquire/store-release */
    SPU_ATTR_NS = 4,   /* Non-secure: the NS bit of the address packets */
    SPU_ATTR_SVE = 5,  /* an SVE operation (the SVE Operation Type formats, FEAT_SVE) */
    SPU_ATTR_PRED = 6, /* SVE: predicated */
    SPU_ATTR_SG = 7,   /* SVE load/store: gather/scatter */
    SPU_ATTR_EVL = 8   /* SVE: effective vector length, 3 bits: 32 << EVL bits */
};
#define SPU_ATTR_BITS SPU_W_fin_attr

/* fin_addr_valid bits (and spu_rec_src_t.valid): which optional packets the
 * sampled operation has a value for. */
enum spu_rec_bit {
    SPU_REC_TGT = 1 << 0, /* branch target address */
    SPU_REC_VA = 1 << 1,  /* data virtual address */
    SPU_REC_PA = 1 << 2,  /* data physical address */
    SPU_REC_PBT = 1 << 3, /* previous branch target (FEAT_SPE_PBT) */
    SPU_REC_DS = 1 << 4   /* data source (spu_rec_src_t only: fin_ds_valid) */
};
#define SPU_REC_ADDR_BITS SPU_W_fin_addr_valid

/* Inputs of one clock cycle: one member per port of spu_top, generated from
 * configs/spu.toml [ports] (spu_ports.h; the table in docs/ports.md). Issue
 * and finish events arrive on ports 0..SLOTS-1, each naming its slot. The
 * payloads of finish port p (fin_events .. fin_pbt) are read only with its
 * finish (the events and data source by the filter, the rest for a kept
 * record). They come last: a harness may leave them stale between finishes
 * instead of clearing them (SPU_IN_CLEAR_BYTES). */
typedef struct spu_in {
    SPU_IN_MEMBERS
} spu_in_t;

/* The bytes of spu_in_t before the stale payloads: what a harness clears
 * every cycle. */
#define SPU_IN_CLEAR_BYTES offsetof(spu_in_t, SPU_IN_FIRST_STALE)

/* Registered outputs: the results of one cycle's inputs, one member per
 * output port of spu_top (a record's bytes are not a port: they leave as
 * the write beats; spu_model_record() gives them). Fields of lanes and ports that are not valid are zero, and so are
 * mem_addr, mem_data and mem_strb without mem_valid. Compare them member by
 * member (the checker's cmp_equal()), never as bytes: the struct may have
 * padding. */
typedef struct spu_out {
    SPU_OUT_MEMBERS
} spu_out_t;

/* 1 when every output of a and b is equal, member by member and element by
 * element (every lane and port a configuration could have: those it lacks
 * are zero in both), never as bytes: spu_out_t may have padding. */
static inline int spu_out_equal(const spu_out_t *a, const spu_out_t *b)
{
#define SPU_EQ_ONE(m) (a->m == b->m)
#define SPU_EQ_LANE(m) (memcmp(a->m, b->m, sizeof a->m) == 0)
#define SPU_EQ_LANES SPU_EQ_ONE
#define SPU_EQ_PORTS SPU_EQ_ONE
#define SPU_EQ_PORT SPU_EQ_LANE
#define SPU_EQ_PMU SPU_EQ_LANE
#define SPU_EQ(port, m, PACK, w) &&SPU_EQ_##PACK(m)
    return 1 SPU_OUT_PORTS(SPU_EQ);
#undef SPU_EQ
}

/* ---------------------------------------------------------------- state */

typedef struct spu_slot {
    uint8_t busy;                         /* a sampled operation in flight */
    uint8_t waiting;                      /* finished; its kept record waits for the write path
                                             or is being encoded (docs/buffer.md): not free */
    uint8_t issued;
    uint8_t el;                           /* Exception level when it was sampled */
    uint8_t cx;                           /* CONTEXTIDR_EL1 to be collected (PMSCR_EL1.CX, EL0/1) */
    uint32_t iss_lat;                     /* saturated, valid when issued */
    uint64_t entry;                       /* cycle the member entered the population */
} spu_slot_t;

/* A write beat of the Profiling Buffer (docs/buffer.md). */
typedef struct spu_beat {
    uint64_t addr;                        /* 8-byte aligned */
    uint64_t data;                        /* byte j for addr + j */
    uint8_t strb;                         /* byte enables */
} spu_beat_t;

/* The serial record encoder (docs/buffer.md): the record that entered the
 * write path last, written into the beat queue a packet per cycle. */
typedef struct spu_enc {
    uint8_t busy;                         /* a record is being written */
    uint8_t slot;                         /* its slot, occupied until its last packet is read */
    uint32_t left;                        /* its packets not yet read (SPU_PKT_* bits) */
    uint8_t o;                            /* bytes in the window, not yet in a beat */
    uint8_t tail;                         /* record bytes not yet in the window (padding too) */
    uint8_t k;                            /* beats written */
    uint8_t len;
    uint64_t addr;                        /* PMBPTR_EL1 reserved for it */
    uint8_t rec[SPU_MAX_RECORD];          /* its bytes */
} spu_enc_t;

typedef struct spu_model {
    spu_config_t cfg;                     /* copy: knobs may be overridden */
    uint64_t reg[SPU_NREGS];              /* architectural registers (PMSICR included) */
    uint32_t lfsr;                        /* SPEGetRandomInterval() state, 24 bits */
    uint8_t prev_en;                      /* enabled in the previous cycle */
    uint64_t cycle;                       /* cycles since the last reset */
    spu_slot_t slot[SPU_MAX_SLOTS];
    uint8_t rec[SPU_MAX_SLOTS][SPU_MAX_RECORD]; /* slot s's last kept record ... */
    uint8_t rec_len[SPU_MAX_SLOTS];       /* ... and its length */
    uint8_t wq[SPU_MAX_SLOTS];            /* slots whose records wait, in finish order */
    uint8_t wq_n;
    uint32_t rec_pk[SPU_MAX_SLOTS];       /* ... its packets (SPU_PKT_* bits) */
    spu_enc_t enc;
    spu_beat_t bq[SPU_MAX_BUF_BEATS];     /* the beat queue: bq_n beats from bq_head */
    uint8_t bq_head, bq_n;
    spu_beat_t port;                      /* the beat shown (registered, as the RTL's) ... */
    uint8_t port_valid;                   /* ... if any */
    uint8_t filled;                       /* a record filled the buffer in the last step */
    uint8_t stopped;                      /* the last step's members were stopped ahead of a
                                             record that fills the buffer (docs/semantics.md) */
    uint8_t stop_next;                    /* ... and the next step's are (worked out a cycle
                                             ahead, as the RTL does) */
    uint8_t buf_stale;                    /* an MSR PMBPTR_EL1 or PMBLIMITR_EL1 (or a reset) in
                                             the last step ... */
    uint8_t buf_stale2;                   /* ... or the one before: this one reserves no place
                                             and holds the stop (docs/buffer.md) */
} spu_model_t;

/* ------------------------------------------------------------- lifetime */

/* Copy cfg into m and reset. Returns 0, or -1 with a message in err when the
 * configuration is out of range (err may be NULL). */
int spu_model_init(spu_model_t *m, const spu_config_t *cfg, char *err, size_t errlen);
void spu_model_reset(spu_model_t *m);

/* One clock cycle: inputs in, registered outputs out, every step of
 * docs/semantics.md. Returns 0; or SPU_EINPUT, with every output zero and
 * the model unchanged, when an input does not fit its port of spu_top
 * (spu_model_bad_input() names it): a bench's bug, which the RTL would
 * have truncated, not a cycle of the unit. (The fast entry points of
 * spu_fast.h are for csim and spu-tb.) */
#define SPU_EINPUT (-1)
int spu_model_step(spu_model_t *m, const spu_in_t *in, spu_out_t *out);
/* The first input port (its name, "el_i") whose value, where its gate holds
 * (docs/ports.md), has bits beyond the port's element width, or NULL. The
 * lane and port masks are not checked: their bits for lanes and ports the
 * configuration lacks are ignored, as spu_top's narrower ports drop them. */
const char *spu_model_bad_input(const spu_model_t *m, const spu_in_t *in);

/* The bytes of slot s's last kept record (spu_model_record_len() of them):
 * built at its finish (out.rec_len[p] of the finish port p), written when
 * out.rec_wr bit s says it entered the write path; valid until the slot's
 * next finish. */
static inline const uint8_t *spu_model_record(const spu_model_t *m, unsigned s)
{
    return m->rec[s];
}
static inline unsigned spu_model_record_len(const spu_model_t *m, unsigned s)
{
    return m->rec_len[s];
}

/* --------------------------------------------------- register helpers */

/* Index of the register with this packed encoding, or -1. */
int spu_reg_find(uint16_t enc);
/* Index of the register with this name ("PMSICR_EL1"), or -1. */
int spu_reg_by_name(const char *name);
const char *spu_reg_name(int idx);
uint16_t spu_reg_enc(int idx);
/* The value a read returns (RES0 bits zero, ID registers from the config). */
uint64_t spu_model_reg_read(const spu_model_t *m, int idx);
/* Write as software would (WMASK applied); -1 when UNDEFINED. */
int spu_model_reg_write(spu_model_t *m, int idx, uint64_t value);
/* 1 when the encoding is implemented in this config and the access allowed. */
int spu_reg_access_ok(const spu_config_t *cfg, int idx, int write);

/* 1 when profiling is enabled for this context (docs/semantics.md step 2). */
int spu_model_enabled(const spu_model_t *m, uint8_t el, uint8_t prof_allowed);

/* ------------------------------------------------------- pure pieces */

/* SPECollectRecord() on its own: inputs, result and PMU side outputs. */
typedef struct spu_record_in {
    uint64_t events;
    uint32_t total_latency;               /* saturated */
    uint8_t type;                         /* {SIMD,FP,ST,LD,B} */
    uint8_t ds_valid;
    uint16_t ds;
} spu_record_in_t;

typedef struct spu_record_out {
    uint8_t collect;                      /* SPECollectRecord() result */
    uint8_t why;                          /* rejecting reasons (no discard bit) */
    uint8_t pmu[SPU_NPMU];                /* FEED_* and FILTRATE raised (0/1) */
} spu_record_out_t;

/* regs: the register file (spu_model_t.reg layout). */
void spu_collect_record(const spu_config_t *cfg, const uint64_t *regs,
                        const spu_record_in_t *in, spu_record_out_t *out);

/* The type filter's ctrl and mask from PMSFCR_EL1 (bit i for flag i of
 * {SIMD,FP,ST,LD,B}; mask 0 without FEAT_SPE_EFT), and PMSLATFR_EL1's MINLAT,
 * as SPEFilterByType() and SPEFilterByLatency() read them. */
void spu_type_ctrl_mask(const spu_config_t *cfg, uint64_t fcr, uint32_t *ctrl, uint32_t *mask);
uint32_t spu_minlat(const uint64_t *regs);

/* SPEConstructRecord() on its own: everything one record carries. */
typedef struct spu_rec_src {
    uint64_t pc, tgt, va, pa, pbt;        /* addresses (spu_in_t fin_*) */
    uint64_t events;                      /* Events packet bits (masked to rec_ev_mask) */
    uint64_t ts;                          /* timer value */
    uint32_t ctx;                         /* CONTEXTIDR_EL1 */
    uint16_t tot_lat, iss_lat;            /* saturated latencies */
    uint16_t ds;                          /* data source */
    uint8_t valid;                        /* spu_rec_bit set */
    uint8_t type;                         /* {SIMD,FP,ST,LD,B} */
    uint16_t attr;                        /* spu_attr_bit set */
    uint8_t el;                           /* Exception level of the operation */
    uint8_t cx;                           /* collect CONTEXTIDR_EL1 */
} spu_rec_src_t;

/* Write the record into buf (at least cfg->rec_max bytes) as
 * SPEConstructRecord() orders its packets, with PMSCR_EL1.{PA,TS} from regs;
 * returns its length, padding included. */
unsigned spu_record_build(const spu_config_t *cfg, const uint64_t *regs, const spu_rec_src_t *r,
                          uint8_t *buf);
/* The packets that record has: bit SPU_PKT_<name> for each ([packets] of
 * configs/spu.toml). */
uint32_t spu_record_packets(const spu_config_t *cfg, const uint64_t *regs, const spu_rec_src_t *r);
/* Payload bytes of packet SPU_PKT_<name> (its header byte is one more). */
unsigned spu_packet_payload(const spu_config_t *cfg, unsigned pkt);

/* The Operation Type packet of an operation: returns the class (0 Other,
 * 1 Load/store, 2 Branch) and sets *payload (the SVE formats only with
 * FEAT_SVE in cfg). */
uint8_t spu_optype(const spu_config_t *cfg, uint8_t type, uint16_t attr, uint8_t *payload);

/* SPEBufferIsFull(): 1 when a record of 1 << PMSIDR_EL1.MaxSize bytes would
 * not fit between PMBPTR_EL1 = ptr and PMBLIMITR_EL1.LIMIT of limitr. */
int spu_buffer_is_full(const spu_config_t *cfg, uint64_t ptr, uint64_t limitr);

/* Write beat `beat` of a record of len bytes at addr: its 8-byte aligned
 * address, data and byte enables (docs/buffer.md); returns 1 when it is the
 * record's last beat. */
int spu_buffer_beat(uint64_t addr, unsigned len, const uint8_t *rec, unsigned beat,
                    uint64_t *baddr, uint64_t *bdata, uint8_t *bstrb);

/* SPEGetRandomInterval(): one LFSR step, returns the byte. */
uint8_t spu_lfsr_draw(uint32_t *lfsr);

/* The D17.3.3 enable-edge load (SPEResetSampleCounter()) of a zero PMSICR:
 * updates *pmsicr and *lfsr. */
void spu_interval_edge_load(const spu_config_t *cfg, uint64_t pmsirr,
                            uint64_t *pmsicr, uint32_t *lfsr);

/* SPEToCollectSample() for one member: updates *pmsicr and *lfsr. */
int spu_to_collect_sample(const spu_config_t *cfg, uint64_t pmsirr,
                          uint64_t *pmsicr, uint32_t *lfsr);

/* ------------------------------------------------------ configurations */

/* Named configuration, or NULL. */
const spu_config_t *spu_config_find(const char *name);
/* Set knob NAME to value in cfg; -1 with a message for an unknown knob or a
 * value out of range. */
int spu_config_set_knob(spu_config_t *cfg, const char *name, uint32_t value,
                        char *err, size_t errlen);
const char *spu_knob_name(int idx);
const char *spu_pmu_name(int idx);        /* "SAMPLE_POP", ... */
/* 1 when the configuration implements PMU event idx. */
int spu_pmu_implemented(const spu_config_t *cfg, int idx);

#ifdef __cplusplus
}
#endif
#endif
