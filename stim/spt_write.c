/*
 * .spt writer: any stimulus, cycle by cycle, as a trace spt_load() reads back
 * to the same stimulus (docs/formats.md, "Writing").
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "spt_priv.h"


void spt_write_begin(spt_writer_t *w, FILE *f, const char *cfg_name)
{
    memset(w, 0, sizeof *w);
    w->f = f;
    fputs("spu-trace 1\n", f);
    if (cfg_name && cfg_name[0])
        fprintf(f, "cfg %s\n", cfg_name);
}

static void write_type(FILE *f, uint8_t type)
{
    /* written in the order LD, ST, B, FP, SIMD */
    static const struct {
        int bit;
        const char *name;
    } order[5] = {{SPU_T_LD, "LD"}, {SPU_T_ST, "ST"}, {SPU_T_B, "B"},
                  {SPU_T_FP, "FP"}, {SPU_T_SIMD, "SIMD"}};
    const char *sep = " type=";
    for (int i = 0; i < 5; i++)
        if (type >> order[i].bit & 1) {
            fprintf(f, "%s%s", sep, order[i].name);
            sep = "+";
        }
}

int spt_write_cycle(spt_writer_t *w, const spu_cyc_t *c, const spu_src_t *src)
{
    FILE *f = w->f;
    int ctx = c->el != w->el || c->allow != w->allow;
    int reg = c->reg_valid && !c->reset;
    uint8_t pops = c->reset ? 0 : c->pop_mask;
    w->started = 1;
    w->last = c->cycle;
    if (!ctx && !c->reset && !reg && !pops)
        return 0;
    if (c->cycle != w->cur) {
        fprintf(f, "@%" PRIu64 "\n", c->cycle);
        w->cur = c->cycle;
    }
    if (ctx) {
        fputs("ctx", f);
        if (c->el != w->el)
            fprintf(f, " el=%u", (unsigned)c->el);
        if (c->allow != w->allow)
            fprintf(f, " allow=%u", (unsigned)c->allow);
        fputc('\n', f);
        w->el = c->el;
        w->allow = c->allow;
    }
    if (c->reset)
        fputs("reset\n", f);
    if (reg) {
        char name[32];
        stim_reg_str(c->reg_enc, name, sizeof name);
        if (c->reg_write)
            fprintf(f, "w %s 0x%" PRIx64 "\n", name, c->reg_wdata);
        else
            fprintf(f, "r %s\n", name);
    }
    unsigned next = 0;
    for (unsigned l = 0; l < SPU_MAX_LANES; l++) {
        if (!(pops >> l & 1))
            continue;
        spu_op_t op;
        if (src->op(src->self, c->op_id[l], &op))
            return -1;
        fputs("op", f);
        if (op.type)
            write_type(f, op.type);
        if (op.ev)
            fprintf(f, " ev=0x%" PRIx64, op.ev);
        if (op.ds_valid)
            fprintf(f, " ds=0x%x", (unsigned)op.ds);
        if (op.iss != 1)
            fprintf(f, " iss=%" PRIu32, op.iss);
        if (op.fin != 1)
            fprintf(f, " fin=%" PRIu32, op.fin);
        if (l != next)
            fprintf(f, " lane=%u", l);
        fputc('\n', f);
        next = l + 1;
    }
    return 0;
}

int spt_write_end(spt_writer_t *w)
{
    if (w->started && w->last > w->cur) {
        fprintf(w->f, "@%" PRIu64 "\n", w->last);
        w->cur = w->last;
    }
    return fflush(w->f) == 0 && !ferror(w->f) ? 0 : -1;
}

