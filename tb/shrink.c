/*
 * --shrink: ddmin (Zeller and Hildebrandt) over the units of a failing trace.
 * The trace is read with the .spt parser; a unit is one thing a cycle
 * carries: a reset, a context change, a register access or one population
 * member. A candidate is a subset of the units replayed at their original
 * cycles (so every candidate is a well-formed trace with the same timing, and
 * it still runs to the failing cycle); members are renumbered in order.
 * Candidates run in lockstep straight from memory; only the result is
 * written, with the .spt writer. A budget bounds the work.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shrink.h"

#define SHRINK_MAX_TESTS 5000
#define SHRINK_MAX_SECONDS 120

/* A replay of the trace that keeps only the units marked in keep[]. */
typedef struct usrc {
    spt_cursor_t k;
    spu_src_t in;
    const uint8_t *keep;         /* NULL: keep everything (counting pass) */
    size_t u;                    /* units seen so far */
    uint8_t oel, oallow;         /* the trace's context of the previous cycle */
    uint8_t el, allow;           /* the candidate's context */
    uint64_t *map;               /* candidate op id -> trace op id */
    uint64_t nmap;
} usrc_t;

static int kept(usrc_t *s)
{
    const size_t u = s->u++;
    return !s->keep || s->keep[u];
}

static int us_next(void *self, spu_cyc_t *c)
{
    usrc_t *s = self;
    spu_cyc_t oc;
    if (!s->in.next(s->in.self, &oc))
        return 0;
    memset(c, 0, sizeof *c);
    c->cycle = oc.cycle;
    if (oc.reset && kept(s))
        c->reset = 1;
    if (oc.el != s->oel || oc.allow != s->oallow) {
        if (kept(s)) {
            s->el = oc.el;
            s->allow = oc.allow;
        }
        s->oel = oc.el;
        s->oallow = oc.allow;
    }
    c->el = s->el;
    c->allow = s->allow;
    if (oc.reg_valid && kept(s)) {
        c->reg_valid = 1;
        c->reg_write = oc.reg_write;
        c->reg_enc = oc.reg_enc;
        c->reg_wdata = oc.reg_wdata;
    }
    for (unsigned l = 0; oc.pop_mask >> l; l++) {
        if (!((oc.pop_mask >> l) & 1u) || !kept(s))
            continue;
        c->pop_mask |= (uint8_t)(1u << l);
        c->op_id[l] = s->nmap;
        s->map[s->nmap++] = oc.op_id[l];
    }
    return 1;
}

static int us_op(void *self, uint64_t id, spu_op_t *op)
{
    usrc_t *s = self;
    if (id >= s->nmap || s->in.op(s->in.self, s->map[id], op))
        return -1;
    op->id = id;
    return 0;
}

static spu_src_t us_source(usrc_t *s, const spt_trace_t *t, const uint8_t *keep, uint64_t *map)
{
    memset(s, 0, sizeof *s);
    s->in = spt_source(&s->k, t);
    s->keep = keep;
    s->map = map;
    spu_src_t src = {s, us_next, us_op, NULL};
    return src;
}

typedef struct shrink {
    const ls_cfg_t *lc;
    const ls_result_t *fail;
    const spt_trace_t *t;
    uint64_t *map;
    uint8_t *keep;               /* scratch: one byte per unit */
    size_t nunits;
    ls_result_t *r;
    unsigned tests;
    time_t t0;
} shrink_t;

/* 1 when the candidate v[0..n) (unit indices) fails the same way. */
static int fails(shrink_t *s, const size_t *v, size_t n)
{
    usrc_t us;
    memset(s->keep, 0, s->nunits);
    for (size_t i = 0; i < n; i++)
        s->keep[v[i]] = 1;
    s->tests++;
    ls_cfg_t c = *s->lc;
    c.log = NULL;
    c.progress = 0;
    c.wave = NULL;
    lockstep_run(&c, us_source(&us, s->t, s->keep, s->map), s->r);
    if (s->r->status != s->fail->status)
        return 0;
    return s->r->status != LS_DIFF || !strcmp(s->r->diff[0].name, s->fail->diff[0].name);
}

static int budget_left(const shrink_t *s)
{
    return s->tests < SHRINK_MAX_TESTS && time(NULL) - s->t0 < SHRINK_MAX_SECONDS;
}

/* ddmin over v[0..*n): tries each chunk alone, then each complement, at
 * doubling granularity, until no single unit can go. */
static int ddmin(shrink_t *s, size_t *v, size_t *n)
{
    size_t *cand = malloc((*n ? *n : 1) * sizeof *cand);
    if (!cand)
        return -1;
    size_t parts = 2;
    while (*n >= 1 && budget_left(s)) {
        if (parts > *n)
            parts = *n;
        const size_t chunk = (*n + parts - 1) / parts;
        int reduced = 0;
        for (int pass = 0; pass < 2 && !reduced; pass++) {
            if (pass == 1 && parts == 2)
                break; /* the complements of two halves are the halves */
            for (size_t i = 0; i < parts && budget_left(s); i++) {
                const size_t lo = i * chunk, hi = lo + chunk < *n ? lo + chunk : *n;
                if (lo >= *n)
                    break;
                size_t m = 0;
                for (size_t k = 0; k < *n; k++)
                    if ((k >= lo && k < hi) == (pass == 0))
                        cand[m++] = v[k];
                if (m < *n && fails(s, cand, m)) {
                    memcpy(v, cand, m * sizeof *v);
                    *n = m;
                    parts = pass == 0 ? 2 : (parts > 2 ? parts - 1 : 2);
                    reduced = 1;
                    break;
                }
            }
        }
        if (!reduced) {
            if (parts >= *n)
                break;
            parts = parts * 2 < *n ? parts * 2 : *n;
        }
    }
    free(cand);
    return 0;
}

/* Write the candidate v[0..n) as a trace; returns its line count or -1. */
static long write_min(shrink_t *s, const size_t *v, size_t n, const char *path)
{
    usrc_t us;
    spu_cyc_t cy;
    spt_writer_t w;
    memset(s->keep, 0, s->nunits);
    for (size_t i = 0; i < n; i++)
        s->keep[v[i]] = 1;
    FILE *f = fopen(path, "w+");
    if (!f)
        return -1;
    spu_src_t src = us_source(&us, s->t, s->keep, s->map);
    int rc = 0;
    spt_write_begin(&w, f, s->lc->cfg->name);
    while (rc == 0 && src.next(src.self, &cy))
        rc = spt_write_cycle(&w, &cy, &src);
    if (spt_write_end(&w))
        rc = -1;
    long lines = 0;
    rewind(f);
    for (int ch; (ch = fgetc(f)) != EOF;)
        lines += ch == '\n';
    if (fclose(f) || rc)
        return -1;
    return lines;
}

static long count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    long lines = 0;
    if (!f)
        return -1;
    for (int ch; (ch = fgetc(f)) != EOF;)
        lines += ch == '\n';
    fclose(f);
    return lines;
}

/* The units of the trace, then ddmin, then the result; 0 or -1. */
static int reduce(shrink_t *s, const char *path)
{
    usrc_t us;
    spu_cyc_t cy;
    char out[600];
    spu_src_t src = us_source(&us, s->t, NULL, s->map);
    while (src.next(src.self, &cy))
        ;
    s->nunits = us.u;
    s->keep = malloc(s->nunits ? s->nunits : 1);
    size_t *v = malloc((s->nunits ? s->nunits : 1) * sizeof *v);
    if (!s->keep || !v) {
        free(v);
        fprintf(stderr, "shrink: out of memory\n");
        return -1;
    }
    for (size_t i = 0; i < s->nunits; i++)
        v[i] = i;
    size_t n = s->nunits;
    int rc = -1;
    if (!fails(s, v, n)) {
        fprintf(stderr, "shrink: %s does not fail the same way when replayed; nothing to reduce\n", path);
    } else if (ddmin(s, v, &n)) {
        fprintf(stderr, "shrink: out of memory\n");
    } else {
        snprintf(out, sizeof out, "%.*s-min.spt", (int)(strlen(path) - 4), path);
        const long before = count_lines(path), after = write_min(s, v, n, out);
        if (after < 0) {
            fprintf(stderr, "shrink: could not write %s\n", out);
        } else {
            fprintf(stderr, "shrink: %zu -> %zu units, %ld -> %ld lines (%.1fx smaller) in %u lockstep runs, %lds%s: %s\n",
                    s->nunits, n, before, after, after > 0 ? (double)before / (double)after : 0.0, s->tests,
                    (long)(time(NULL) - s->t0), budget_left(s) ? "" : " (budget reached)", out);
            rc = 0;
        }
    }
    free(v);
    return rc;
}

int shrink_trace(const ls_cfg_t *lc, const ls_result_t *fail, const char *path)
{
    spt_trace_t t;
    char err[512];
    shrink_t s = {.lc = lc, .fail = fail, .t = &t, .t0 = time(NULL)};
    if (spt_load(&t, path, err, sizeof err)) {
        fprintf(stderr, "shrink: %s\n", err);
        return -1;
    }
    int rc = -1;
    s.map = malloc((t.nops ? t.nops : 1) * sizeof *s.map);
    s.r = malloc(sizeof *s.r);
    if (s.map && s.r)
        rc = reduce(&s, path);
    else
        fprintf(stderr, "shrink: out of memory\n");
    spt_free(&t);
    free(s.map);
    free(s.keep);
    free(s.r);
    return rc;
}
