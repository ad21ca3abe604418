/*
 * .spt writer: any stimulus, cycle by cycle, as a trace spt_load() reads back
 * to the same stimulus (docs/formats.md, "Writing traces"). In version 2 a
 * run of cycles that each carry one identical member and nothing else is
 * held back and written as one `op*N` line when the run ends.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "spt_priv.h"


void spt_write_begin_version(spt_writer_t *w, FILE *f, const char *cfg_name, int version)
{
    memset(w, 0, sizeof *w);
    w->f = f;
    w->version = version == 1 ? 1 : 2;
    fprintf(f, "spu-trace %d\n", w->version);
    if (cfg_name && cfg_name[0])
        fprintf(f, "cfg %s\n", cfg_name);
}

void spt_write_begin(spt_writer_t *w, FILE *f, const char *cfg_name)
{
    spt_write_begin_version(w, f, cfg_name, SPT_VERSION);
}

void spt_type_str(uint8_t type, char *buf, size_t len)
{
    /* written in the order LD, ST, B, FP, SIMD */
    static const int order[5] = {SPU_T_LD, SPU_T_ST, SPU_T_B, SPU_T_FP, SPU_T_SIMD};
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < 5 && n < len; i++)
        if (type >> order[i] & 1)
            n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "+" : "", spt_type_names[order[i]]);
}

static void write_type(FILE *f, uint8_t type)
{
    char t[32];
    spt_type_str(type, t, sizeof t);
    if (t[0])
        fprintf(f, " type=%s", t);
}

/* `op` (n == 1) or `op*n` with the keys that differ from their defaults;
 * lane= when lane is not `next`. */
static void write_op(FILE *f, const spu_op_t *op, uint64_t n, unsigned lane, unsigned next)
{
    if (n == 1)
        fputs("op", f);
    else
        fprintf(f, "op*%" PRIu64, n);
    spt_write_op_keys(f, op);
    if (lane != next)
        fprintf(f, " lane=%u", lane);
    fputc('\n', f);
}

void spt_write_op_keys(FILE *f, const spu_op_t *op)
{
    if (op->type)
        write_type(f, op->type);
    if (op->ev)
        fprintf(f, " ev=0x%" PRIx64, op->ev);
    if (op->ds_valid)
        fprintf(f, " ds=0x%x", (unsigned)op->ds);
    if (op->iss != 1)
        fprintf(f, " iss=%" PRIu32, op->iss);
    if (op->fin != 1)
        fprintf(f, " fin=%" PRIu32, op->fin);
    if (op->pc)
        fprintf(f, " pc=0x%" PRIx64, op->pc);
    if (op->ctx)
        fprintf(f, " ctx=0x%" PRIx32, op->ctx);
    if (!(op->attr >> SPU_ATTR_NS & 1u))
        fputs(" ns=0", f);
    static const struct { uint8_t bit; const char *key; size_t off; } addr[] = {
        {SPU_REC_TGT, "tgt", offsetof(spu_op_t, tgt)}, {SPU_REC_VA, "va", offsetof(spu_op_t, va)},
        {SPU_REC_PA, "pa", offsetof(spu_op_t, pa)},    {SPU_REC_PBT, "pbt", offsetof(spu_op_t, pbt)}};
    for (unsigned i = 0; i < sizeof addr / sizeof addr[0]; i++)
        if (op->addr_valid & addr[i].bit)
            fprintf(f, " %s=0x%" PRIx64, addr[i].key, *(const uint64_t *)((const char *)op + addr[i].off));
    /* Events bit 6 (not taken) implies cond=1 */
    if ((op->attr >> SPU_ATTR_COND & 1u) && !(op->ev >> 6 & 1u))
        fputs(" cond=1", f);
    static const struct { uint8_t bit; const char *key; } flag[] = {
        {SPU_ATTR_IND, "ind"}, {SPU_ATTR_EXCL, "excl"}, {SPU_ATTR_AR, "ar"},
        {SPU_ATTR_SVE, "sve"}, {SPU_ATTR_PRED, "pred"}, {SPU_ATTR_SG, "sg"}};
    for (unsigned i = 0; i < sizeof flag / sizeof flag[0]; i++)
        if (op->attr >> flag[i].bit & 1u)
            fprintf(f, " %s=1", flag[i].key);
    if (op->attr >> SPU_ATTR_EVL & 7u)
        fprintf(f, " evl=%u", 32u << (op->attr >> SPU_ATTR_EVL & 7u));
}

static int same_attrs(const spu_op_t *a, const spu_op_t *b)
{
    const uint8_t v = a->addr_valid;
    return a->type == b->type && a->ev == b->ev && a->ds_valid == b->ds_valid &&
           (!a->ds_valid || a->ds == b->ds) && a->iss == b->iss && a->fin == b->fin &&
           a->attr == b->attr && v == b->addr_valid && a->ctx == b->ctx && a->pc == b->pc &&
           (!(v & SPU_REC_TGT) || a->tgt == b->tgt) && (!(v & SPU_REC_VA) || a->va == b->va) &&
           (!(v & SPU_REC_PA) || a->pa == b->pa) && (!(v & SPU_REC_PBT) || a->pbt == b->pbt);
}

/* Write the held-back run, if any: its first cycle's other lines are
 * written already, and the current cycle becomes its last cycle. */
static void flush_run(spt_writer_t *w)
{
    if (!w->run_n)
        return;
    /* a lane= of op*N applies in every cycle; without it the member takes
     * the first free lane, lane 0 */
    write_op(w->f, &w->run_op, w->run_n, w->run_lane, 0);
    w->cur = w->run_start + w->run_n - 1;
    w->run_n = 0;
}

/* The ctx, reset and w/r lines of cycle c (the current cycle). */
static void write_controls(spt_writer_t *w, const spu_cyc_t *c, int ctx, int reg)
{
    FILE *f = w->f;
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
}

int spt_write_cycle(spt_writer_t *w, const spu_cyc_t *c, const spu_src_t *src)
{
    FILE *f = w->f;
    int ctx = c->el != w->el || c->allow != w->allow;
    int reg = c->reg_valid && !c->reset;
    uint8_t pops = c->reset ? 0 : c->pop_mask;
    const int one = pops && !(pops & (pops - 1u));
    spu_op_t op;
    w->started = 1;
    w->last = c->cycle;
    if (w->run_n) {
        /* Does this cycle carry on the run: the next cycle, one identical
         * member in the same lane? Then it joins the run; a context change
         * or register access in it ends the run (their lines follow the
         * op*N line, in its last cycle). */
        if (one && pops == 1u << w->run_lane && c->cycle == w->run_start + w->run_n) {
            if (src->op(src->self, c->op_id[w->run_lane], &op))
                return -1;
            if (same_attrs(&op, &w->run_op)) {
                w->run_n++;
                if (ctx || reg) {
                    flush_run(w);
                    write_controls(w, c, ctx, reg);
                }
                return 0;
            }
        }
        flush_run(w);
    }
    if (!ctx && !c->reset && !reg && !pops)
        return 0;
    if (c->cycle != w->cur) {
        fprintf(f, "@%" PRIu64 "\n", c->cycle);
        w->cur = c->cycle;
    }
    write_controls(w, c, ctx, reg);
    unsigned next = 0;
    for (unsigned l = 0; l < SPU_MAX_LANES; l++) {
        if (!(pops >> l & 1))
            continue;
        if (src->op(src->self, c->op_id[l], &op))
            return -1;
        if (one && w->version >= 2) {
            /* the only member: it may start a run (written when it ends) */
            w->run_n = 1;
            w->run_start = c->cycle;
            w->run_lane = (uint8_t)l;
            w->run_op = op;
            break;
        }
        write_op(f, &op, 1, l, next);
        next = l + 1;
    }
    return 0;
}

int spt_write_end(spt_writer_t *w)
{
    flush_run(w);
    if (w->started && w->last > w->cur) {
        fprintf(w->f, "@%" PRIu64 "\n", w->last);
        w->cur = w->last;
    }
    return fflush(w->f) == 0 && !ferror(w->f) ? 0 : -1;
}
