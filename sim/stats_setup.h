/*
 * What --stats and --stats-json echo of a run's set-up: the filter
 * registers decoded by their fields (the generated field list, those the
 * configuration has), the knobs set with --knob, and with --perf-event the
 * period asked for, the one programmed and the rule between them.
 */
#ifndef SPU_STATS_SETUP_H
#define SPU_STATS_SETUP_H

#include "setup.h"
#include "stats.h"

/* One field of a register and its value. */
typedef struct setup_field {
    const char *name;
    unsigned msb, lsb;
    uint64_t value;
} setup_field_t;

#define SETUP_MAX_FIELDS 16

/* The fields of register reg that cfg has, with their values in v. */
unsigned setup_fields(const spu_config_t *cfg, int reg, uint64_t v, setup_field_t *f);
/* The filter registers' values at the end of the run, in stats_freg order. */
void setup_filter_regs(const spu_model_t *m, uint64_t *v);
/* Bit i: knob i was set with --knob. */
uint32_t setup_knobs_given(const spu_opts_t *o);

/* --perf-event's sample period. */
typedef struct setup_period {
    uint64_t asked, programmed;  /* PMSIRR_EL1.INTERVAL's value (members) */
    const char *source;          /* where the period asked for came from */
    const char *rule;            /* why programmed differs (NULL: it does not) */
} setup_period_t;

void setup_period(const spu_opts_t *o, const spu_setup_t *s, setup_period_t *p);

#endif
