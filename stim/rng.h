/*
 * The generator's random stream: splitmix64, small, fast, and every seed gives
 * a full-period stream. Shared by the phase and program halves of the
 * generator (gen.c, gen_prog.c) so neither needs the other's internals.
 */
#ifndef SPU_RNG_H
#define SPU_RNG_H

#include <stdint.h>

static inline uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform-ish in 0..n-1 (0 when n is 0). */
static inline uint32_t rng_below(uint64_t *s, uint32_t n)
{
    return n ? (uint32_t)(rng_next(s) % n) : 0;
}

#endif
