/*
 * The SIGINT handler of spu-csim and spu-tb (interrupt.h).
 */
#include <signal.h>
#include <string.h>

#include "interrupt.h"

volatile sig_atomic_t spu_interrupted;

static void on_sigint(int sig)
{
    if (spu_interrupted) { /* the second: end now, as SIGINT does */
        signal(sig, SIG_DFL);
        raise(sig);
    }
    spu_interrupted = 1;
}

void spu_interrupt_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}
