/* Private interface between gen.c (phases) and gen_prog.c (programs, ops). */
#ifndef SPU_GEN_PROG_H
#define SPU_GEN_PROG_H

#include "gen.h"
#include "rng.h"

enum { GEN_ACT_WRITE = 1, GEN_ACT_READ = 2, GEN_ACT_CTX = 3, GEN_ACT_RESET = 4 };

void gen_prog_program(spu_gen_t *g);   /* Linux-like start sequence */
void gen_prog_reprogram(spu_gen_t *g); /* 1..3 writes to the controls */
void gen_prog_toggle(spu_gen_t *g);    /* enable/disable by context or register */
void gen_prog_read(spu_gen_t *g);      /* a read, or an UNDEFINED access */
void gen_prog_reset(spu_gen_t *g);     /* reset, then the start sequence */
void gen_prog_hammer_more(spu_gen_t *g); /* the next part of a hammer burst */

#endif
