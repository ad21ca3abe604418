/*
 * The core model shared by csim and tb: it turns the unit's selections into
 * the issue and finish events a CPU would present, `iss` and `fin` cycles
 * after the sampled member entered the population (docs/ports.md), and checks
 * that the unit's outputs fit what it scheduled. It writes nothing: the run
 * loop (run.h) logs what it reports.
 */
#ifndef SPU_CORE_H
#define SPU_CORE_H

#include "stim.h"

typedef struct core_slot {
    uint8_t live;
    uint8_t issued;
    uint64_t entry;                  /* stimulus cycle the member entered */
    uint8_t el;                      /* the EL of that cycle */
    spu_op_t op;
} core_slot_t;

typedef struct spu_core {
    const spu_config_t *cfg;
    core_slot_t slot[SPU_MAX_SLOTS];
    core_slot_t fin[SPU_MAX_SLOTS];  /* the slot of the op finishing on each port this cycle, as
                                        it was (the op and its attributes, entry, entry EL) */
    uint64_t next_event;             /* cache of core_next_event() */
    uint8_t stray_fin;               /* this cycle's finish ports driven by core_stray() */
    char err[256];                   /* set when the unit's outputs break the core's view */
} spu_core_t;

void core_init(spu_core_t *c, const spu_config_t *cfg);
/* Drop every op in flight (the unit was reset). */
void core_reset(spu_core_t *c);
/* Issue/finish events due in `cycle` onto the ports of `in`; the op of each
 * finish port is then in c->fin[port]. */
void core_drive(spu_core_t *c, uint64_t cycle, spu_in_t *in);
/* Learn this cycle's selections from the unit's outputs: each sampled lane's
 * op takes the slot the unit gave it (its attributes from src). Returns 0, or
 * -1 with c->err set when the outputs contradict the core's state (a slot
 * handed out twice, a record with no finish behind it) or src has no such op. */
int core_observe(spu_core_t *c, const spu_cyc_t *cy, const spu_in_t *in, const spu_out_t *out,
                 const spu_src_t *src);
/* --stray-events: in pct % of the cycles (a fixed function of the cycle
 * number, as --mem-stall's), also drive an issue and/or a finish that no
 * sampled op stands behind, on ports the cycle's own events leave free
 * (docs/semantics.md, "Input corner cases"). Returns bit 0 for an issue
 * driven, bit 1 for a finish. */
unsigned core_stray(spu_core_t *c, uint64_t cycle, unsigned pct, spu_in_t *in);
/* Earliest cycle with a pending issue or finish event, UINT64_MAX if none. */
uint64_t core_next_event(const spu_core_t *c);
int core_idle(const spu_core_t *c);

#endif
