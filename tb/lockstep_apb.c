/*
 * --apb in both lockstep loops (lockstep_priv.h): the bus master, the
 * wrapper's model, and the APB inputs and outputs of each cycle.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "lockstep_priv.h"

/* lockstep_priv.h */
ls_apb_t *ls_apb_open(const ls_cfg_t *c, ls_result_t *r)
{
    if (!c->apb)
        return NULL;
    ls_apb_t *a = calloc(1, sizeof *a);
    if (!a) {
        r->status = LS_ERROR;
        snprintf(r->err, sizeof r->err, "out of memory for the APB master's queue");
        return NULL;
    }
    apb_master_init(&a->bus);
    spu_apb_reset(&a->ma);
    return a;
}

/* lockstep_priv.h */
void ls_apb_close(ls_apb_t *a, ls_result_t *r)
{
    if (!a)
        return;
    r->apb = a->bus.st;
    free(a);
}

/* lockstep_priv.h */
int ls_apb_step(ls_apb_t *a, const ls_cfg_t *c, spu_dut_t *d, spu_in_t *in, spu_out_t *dout, spu_run_t *run,
                uint64_t cycle, ls_result_t *r)
{
    if (apb_master_take(&a->bus, in)) {
        r->status = LS_ERROR;
        snprintf(r->err, sizeof r->err, "cycle %" PRIu64 ": --apb: %d register accesses wait for the bus "
                 "(the stimulus makes them faster than APB carries them, one per 6 cycles at best)", cycle, APB_QUEUE);
        return -1;
    }
    /* PREADY shown now: the model's (the DUT's equals it until a difference stops the run) */
    apb_master_drive(&a->bus, c->dut_only ? a->dapb.pready : a->mapb.pready, &a->ai);
    if (in->rst_n)
        spu_apb_drive(&a->ma, &a->ai, in); /* the access the wrapper presents to the unit now */
    c->vt->step_apb(d, in, &a->ai, dout, &a->dapb);
    run->hold = (uint8_t)apb_master_busy(&a->bus);
    return 0;
}

/* lockstep_priv.h */
int ls_apb_after(ls_apb_t *a, const ls_cfg_t *c, const spu_in_t *in, const spu_out_t *out, uint64_t cycle,
                 ls_result_t *r)
{
    spu_apb_clock(&a->ma, &a->ai, in, out, &a->mapb);
    if (c->dut_only)
        return 0;
    if (c->inject && cycle == c->inject_cycle && cmp_perturb_apb(&a->mapb, c->inject) == 0)
        r->injected = 1;
    return cmp_apb(&a->dapb, &a->mapb, NULL, 0) != 0;
}
