/* Private helpers shared by the golden model's files. */
#ifndef SPU_INTERNAL_H
#define SPU_INTERNAL_H

#include "spu_model.h"

/* Members countable with no selection, draw or reload. */
uint64_t spu_interval_quiet(const spu_config_t *cfg, uint64_t pmsirr, uint64_t pmsicr);
/* Count n quiet members. */
void spu_interval_advance(const spu_config_t *cfg, uint64_t pmsirr, uint64_t *pmsicr, uint64_t n);

#endif
