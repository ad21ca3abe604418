/* --shrink: reduce a failing .spt trace (cuts, then delta debugging). */
#ifndef SPU_SHRINK_H
#define SPU_SHRINK_H

#include "lockstep.h"

/* Reduce the trace at path (which fails in lockstep as `fail` describes) to
 * a smaller one that fails the same way: the same status in the same cycle
 * and, for a difference, the same first differing signal. The history before
 * the failure is cut into register writes that restore the model's state,
 * then single units are dropped (shrink.c). Writes PATH-min.spt (through the
 * .spt writer) and prints what it did and the reduction ratio. 0 when a
 * reduced trace was written. */
int shrink_trace(const ls_cfg_t *lc, const ls_result_t *fail, const char *path);

#endif
