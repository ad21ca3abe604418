/*
 * sim/ private: what the coverage bins' layout (cov_bins.c) and their
 * sampling (cov_sample.c) share, the indices of the bins of each group.
 */
#ifndef SPU_COV_PRIV_H
#define SPU_COV_PRIV_H

#include "cov.h"

enum { F_TYPE, F_EV, F_NEV, F_LAT, F_DS, F_DISCARD, NFILT };
enum { CU_FE, CU_FNE, CU_EVOVERLAP, CU_FT, CU_FL, CU_INTERVAL0, NCU };
static const int cu_knob[NCU] = {SPU_KNOB_CU_FE, SPU_KNOB_CU_FNE, SPU_KNOB_CU_EVOVERLAP,
                                 SPU_KNOB_CU_FT, SPU_KNOB_CU_FL, SPU_KNOB_INTERVAL0};
enum {
    C_EDGE_LOAD, C_RELOAD, C_EXPIRE_RND0, C_EXPIRE_RND1, C_ERND_ZERO_AT_ONCE, C_ERND_LOAD,
    C_ERND_COUNTDOWN, C_ERND_EXPIRE_SAME, C_ERND_EXPIRE_LATER, C_ERND_EXPIRE_WRITTEN,
    C_SEL_RND0, C_SEL_RND1, C_SEL_ERND, NCTR
};
enum { S_ALLOC, S_FREE, S_REUSE_SAME, S_REUSE_NEXT, NSLOTBIN };
enum { FIN_DISABLED, FIN_ISSUE_SAME, NFIN };
/* Sample records (docs/records.md): each packet kind, each Operation Type
 * class and subclass, each Events payload size. */
enum {
    P_CONTEXT, P_TOTAL, P_ISSUE, P_PC, P_TARGET, P_DATA_VA, P_DATA_PA, P_DATA_PA_NOT_COLLECTED,
    P_PREV_TARGET, P_DATA_SOURCE, P_TIMESTAMP, P_END, P_PADDING, NPKT
};
enum {
    O_OTHER, O_OTHER_COND, O_LD_GP, O_ST_GP, O_LD_SIMDFP, O_ST_SIMDFP, O_ATOMIC, O_EXCL, O_AR,
    O_BRANCH, O_BRANCH_COND, O_BRANCH_IND, O_BRANCH_COND_IND, O_SVE_LD, O_SVE_ST, O_SVE_OTHER, NOP
};
/* The Profiling Buffer (docs/buffer.md): what becomes of a record, records
 * waiting for a write-queue entry, and the write beats. */
enum {
    B_WRITTEN, B_FULL, B_STOPPED, B_FULL_EARLIER, B_WAITED, B_WAITED_DISCARDED, B_WAIT_COLLISION,
    B_WAIT_TWO, B_STOP_AHEAD, B_BEAT_WHOLE, B_BEAT_PARTIAL, B_BEAT_STALLED, NBUF
};
#define FILTER_BITS (SPU_F_PMSFCR_EL1_FT_MASK | SPU_F_PMSFCR_EL1_FE_MASK | SPU_F_PMSFCR_EL1_FnE_MASK | \
                     SPU_F_PMSFCR_EL1_FL_MASK | SPU_F_PMSFCR_EL1_FDS_MASK)
static const uint64_t filt_bit[NFILT - 1] = {SPU_F_PMSFCR_EL1_FT_MASK, SPU_F_PMSFCR_EL1_FE_MASK,
                                             SPU_F_PMSFCR_EL1_FnE_MASK, SPU_F_PMSFCR_EL1_FL_MASK,
                                             SPU_F_PMSFCR_EL1_FDS_MASK};

static inline int has(const spu_config_t *cfg, uint32_t feat) { return (cfg->features & feat) != 0; }


#endif
