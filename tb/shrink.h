/* --shrink: delta debugging (ddmin) of a failing .spt trace. */
#ifndef SPU_SHRINK_H
#define SPU_SHRINK_H

#include "lockstep.h"

/* Reduce the trace at path to a smaller one that still fails in lockstep;
 * writes PATH-min.spt and prints what it did. 0 when a reduced trace was
 * written. */
int shrink_trace(const ls_cfg_t *lc, const char *path);

#endif
