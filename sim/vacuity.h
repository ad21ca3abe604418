/*
 * Whether a run proved anything (vacuity.c): it ran cycles, selected
 * samples, and kept and rejected records. spu-tb fails a run that did not;
 * spu-csim fails a generated run that selected or recorded nothing, and
 * notes the rest (docs/tb.md, docs/csim.md).
 */
#ifndef SPU_VACUITY_H
#define SPU_VACUITY_H

#include <stddef.h>
#include <stdint.h>

#include "spl.h"

#define VAC_WHY_LEN 160
#define VAC_EST_LEN 400

/* How vacuous a run is: not (it selected samples, kept and rejected
 * records), one outcome short (records, but none kept or none rejected:
 * spu-tb's compare saw only one side of the filter), or nothing (no cycle,
 * no sample or no record). */
enum { VAC_NONE = 0, VAC_ONE_OUTCOME = 1, VAC_NOTHING = 2 };

/* How vacuous the run of `cycles` cycles with counters l (and PMSIRR_EL1 at
 * its end) is; when it is, why says what is missing, est what the run saw
 * and how long a run would likely need. */
int spl_vacuous(const spl_log_t *l, uint64_t cycles, uint64_t pmsirr, char why[VAC_WHY_LEN], char est[VAC_EST_LEN]);

#endif
