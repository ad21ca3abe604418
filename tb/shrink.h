/* --shrink: delta debugging (ddmin) of a failing .spt trace. */
#ifndef SPU_SHRINK_H
#define SPU_SHRINK_H

#include "lockstep.h"

/* Reduce the trace at path (which fails in lockstep as `fail` describes) to
 * a smaller one that fails the same way: the same status and, for a
 * difference, the same first differing signal. Writes PATH-min.spt (through
 * the .spt writer) and prints what it did and the reduction ratio. 0 when a
 * reduced trace was written. */
int shrink_trace(const ls_cfg_t *lc, const ls_result_t *fail, const char *path);

#endif
