/*
 * Is a file a buffer of SPE records (what the Profiling Buffer holds, as
 * spu-csim/spu-tb --rec-bin and --mem-bin write it)? What it is when it is
 * not, in words a user recognises (spe_input.c).
 */
#ifndef SPU_SPE_INPUT_H
#define SPU_SPE_INPUT_H

#include <stddef.h>
#include <stdint.h>

#define SPE_INPUT_WHY_LEN 320

/* 0 when buf[0..len) is whole SPE packets holding at least one record (an
 * End or Timestamp packet ends one); else -1 with why: an empty file, an
 * ELF file, a perf.data file, a text file (a .spt trace, the --records
 * text), or the offset and header byte where the packets stop parsing. */
int spe_input_check(const uint8_t *buf, size_t len, char why[SPE_INPUT_WHY_LEN]);

/* The same for the file's kind only (empty, ELF, perf.data, text): the
 * checks of spe_input_check() before its packet walk. */
int spe_input_kind(const uint8_t *buf, size_t len, char why[SPE_INPUT_WHY_LEN]);

#endif
