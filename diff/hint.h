/*
 * What a whole set of disagreements suggests (docs/diff.md): a constant
 * offset of their record (or sample) cycles, with the tolerance that would
 * accept it, and op ids shifted by a constant against the model's.
 */
#ifndef SPU_HINT_H
#define SPU_HINT_H

#include <stdio.h>

#include "match.h"

/* The hints that apply, one "hint: ..." line each (none when none does). */
void hint_print(FILE *f, const spl_file_t *model, const spl_file_t *theirs, const match_opts_t *o,
                const match_result_t *m);

#endif
