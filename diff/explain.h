/*
 * A record's keep/why disagreement explained (docs/diff.md): each filter of
 * SPECollectRecord() (D17.5) and discard mode, the model's decision and the
 * one their why= implies, with the register fields and the op's attributes
 * the filter reads.
 */
#ifndef SPU_EXPLAIN_H
#define SPU_EXPLAIN_H

#include <stdio.h>

#include "match.h"
#include "replay.h"

/* p: replayed up to the start of the record's cycle (the register file its
 * filters read); d: a record pair that disagrees in keep/why. */
void explain_keep(FILE *f, const spu_config_t *cfg, const replay_t *p, const match_dis_t *d);

#endif
