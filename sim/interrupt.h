/*
 * SIGINT (Ctrl-C) during a run (interrupt.c): the first asks the run to
 * stop where it is, and the front end then prints what the run did so far
 * and exits with SPU_EXIT_INTERRUPTED (128 + SIGINT, as a shell reports a
 * process SIGINT ended); a second ends the process at once.
 */
#ifndef SPU_INTERRUPT_H
#define SPU_INTERRUPT_H

#include <signal.h>

#define SPU_EXIT_INTERRUPTED 130

/* Set by the handler; the run loops look at it every 65,536 cycles. */
extern volatile sig_atomic_t spu_interrupted;

/* Install the handler (before the run). */
void spu_interrupt_install(void);

#endif
