/*
 * The plural ending of a count in a message: "1 record", "2 records"
 * (tests/check_plurals.py finds a count written before a plural noun
 * without it). In stim/, the lowest layer that writes messages.
 */
#ifndef SPU_PLURAL_H
#define SPU_PLURAL_H

#include <stdint.h>

static inline const char *plural_s(uint64_t n)
{
    return n == 1 ? "" : "s";
}

#endif
