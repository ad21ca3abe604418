/*
 * (Over 500 lines: the two steps below share the candidate runner and the
 * trace under reduction, which would otherwise be exported to each other.)
 *
 * --shrink: reduce a failing trace to a small one that fails the same way
 * (the same status in the same cycle and, for a difference, the same first
 * differing signal). Two steps:
 *
 *  1. Cut: the history before a cycle T is replaced by a dozen register
 *     writes (and a context change) in the cycles just before T that restore
 *     the registers and the context the golden model has at T; cycles T.. are
 *     kept. The interval counter is a register (PMSICR_EL1), so a cut just
 *     before the failing operation's selection usually keeps the failure; the
 *     LFSR and samples in flight are not restored, and a cut that needs them
 *     simply does not fail and is not taken. The latest cut that fails is
 *     found by trying the failing cycle itself, then doubling the distance
 *     back from it, then by bisection. Then the cycles after that cut are
 *     cut again the same way (keeping, say, a sample in flight across the
 *     failure), while that helps.
 *  2. Units (ddmin-like, Zeller and Hildebrandt): a unit is one thing a cycle
 *     carries: a reset, a context change, a register access or one population
 *     member. A candidate is a subset of the units replayed at their original
 *     cycles (so every candidate is a well-formed trace with the same timing
 *     that runs to the failing cycle); members are renumbered in order.
 *     Whole kinds go first, then chunks of consecutive units at halving
 *     sizes, then single units until none can go.
 *
 * Candidates run in lockstep straight from memory; only the cut and the
 * result are written, with the .spt writer. A budget bounds the work.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run.h"
#include "shrink.h"
#include "plural.h"

#define SHRINK_MAX_TESTS 5000
#define SHRINK_MAX_SECONDS 60
#define SHRINK_MAX_CUTS 8

/* What a unit is; kind passes try dropping every unit of one kind at once. */
enum { U_RESET, U_CTX, U_READ, U_WRITE, U_OP, U_KINDS };
static const char *const kind_name[U_KINDS] = {"resets", "context changes", "reads", "writes", "members"};

/* A replay of the trace that keeps only the units marked in keep[]. */
typedef struct usrc {
    spt_cursor_t k;
    spu_src_t in;
    const uint8_t *keep;         /* NULL: keep everything (counting pass) */
    uint8_t *kind;               /* counting pass: each unit's U_* ... */
    uint64_t *cyc;               /* ... and cycle (arrays of nunits) */
    size_t u;                    /* units seen so far */
    uint8_t oel, oallow;         /* the trace's context of the previous cycle */
    uint8_t el, allow;           /* the candidate's context */
    uint64_t *map;               /* candidate op id -> trace op id */
    uint64_t nmap;
} usrc_t;

static int kept(usrc_t *s, int kind, uint64_t cycle)
{
    const size_t u = s->u++;
    if (s->kind) {
        s->kind[u] = (uint8_t)kind;
        s->cyc[u] = cycle;
    }
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
    if (oc.reset && kept(s, U_RESET, oc.cycle))
        c->reset = 1;
    if (oc.el != s->oel || oc.allow != s->oallow) {
        if (kept(s, U_CTX, oc.cycle)) {
            s->el = oc.el;
            s->allow = oc.allow;
        }
        s->oel = oc.el;
        s->oallow = oc.allow;
    }
    c->el = s->el;
    c->allow = s->allow;
    if (oc.reg_valid && kept(s, oc.reg_write ? U_WRITE : U_READ, oc.cycle)) {
        c->reg_valid = 1;
        c->reg_write = oc.reg_write;
        c->reg_enc = oc.reg_enc;
        c->reg_wdata = oc.reg_wdata;
    }
    for (unsigned l = 0; oc.pop_mask >> l; l++) {
        if (!((oc.pop_mask >> l) & 1u) || !kept(s, U_OP, oc.cycle))
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
    spu_src_t src = {s, us_next, us_op, NULL, NULL}; /* open loop */
    return src;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct shrink {
    const ls_cfg_t *lc;
    const ls_result_t *fail;
    const spt_trace_t *t;
    uint64_t *map;
    uint8_t *keep;               /* scratch: one byte per unit */
    uint8_t *kind;               /* each unit's U_* */
    uint64_t *cyc;               /* each unit's cycle */
    size_t nunits;
    size_t *cand;                /* scratch candidate, nunits long */
    ls_result_t *r;
    unsigned tests;
    double t0;
    size_t orig_units;           /* units of the failing trace */
    uint64_t cuts[SHRINK_MAX_CUTS]; /* cycles of the cuts taken */
    unsigned ncuts;
} shrink_t;

/* 1 when src fails in lockstep as the original did. */
static int same_failure(shrink_t *s, spu_src_t src)
{
    ls_cfg_t c = *s->lc;
    c.cov = NULL; /* the reduced runs are not the run whose coverage was asked for */
    c.log = NULL;
    c.progress = 0;
    c.wave = NULL;
    c.rec_f = c.rec_txt = c.mem_f = NULL; /* the run's outputs are the original run's */
    c.stats = NULL;              /* the report's statistics are the original run's */
    c.fresh_source = NULL;       /* no blocks: a candidate mostly fails, and fresh_source is the original stimulus */
    lockstep_run(&c, src, s->r);
    if (s->r->status != s->fail->status || s->r->fail_cycle != s->fail->fail_cycle)
        return 0;
    return s->r->status != LS_DIFF || !strcmp(s->r->diff[0].name, s->fail->diff[0].name);
}

/* 1 when the candidate v[0..n) (unit indices) fails the same way: the same
 * status in the same cycle and, for a difference, the same first differing
 * signal. Every candidate replays its units at their original cycles up to
 * the failing cycle, so the failing cycle is never dropped. */
static int fails(shrink_t *s, const size_t *v, size_t n)
{
    usrc_t us;
    memset(s->keep, 0, s->nunits);
    for (size_t i = 0; i < n; i++)
        s->keep[v[i]] = 1;
    s->tests++;
    return same_failure(s, us_source(&us, s->t, s->keep, s->map));
}

static int budget_left(const shrink_t *s)
{
    return s->tests < SHRINK_MAX_TESTS && now_s() - s->t0 < SHRINK_MAX_SECONDS;
}

/* Try v without the units v[k] for which drop(k) is 1; keep the result
 * when it still fails. */
static int try_without(shrink_t *s, size_t *v, size_t *n, size_t lo, size_t hi, int kind)
{
    size_t m = 0;
    for (size_t k = 0; k < *n; k++)
        if (kind >= 0 ? s->kind[v[k]] != kind : (k < lo || k >= hi))
            s->cand[m++] = v[k];
    if (m == *n || !fails(s, s->cand, m))
        return 0;
    memcpy(v, s->cand, m * sizeof *v);
    *n = m;
    return 1;
}

/* The reduction, cheapest first:
 *  1. every unit of one kind at once (all reads, all context changes, ...);
 *  2. chunks of consecutive units (so whole stretches of cycles) at halving
 *     sizes, each size swept from the failing cycle backwards, since what
 *     lies just before the failure is the likeliest to matter and the
 *     farthest the likeliest to go; a chunk that goes is not retried;
 *  3. single units, swept again until none can go (1-minimal), within the
 *     budget. */
static void reduce_units(shrink_t *s, size_t *v, size_t *n)
{
    for (int kind = 0; kind < U_KINDS && budget_left(s); kind++)
        if (try_without(s, v, n, 0, 0, kind))
            fprintf(stderr, "shrink: dropped all %s (%zu unit%s left)\n", kind_name[kind], *n, plural_s(*n));
    size_t size = *n / 2 ? *n / 2 : 1;
    for (;;) {
        int changed = 0;
        for (size_t hi = *n; hi > 0 && budget_left(s);) {
            const size_t lo = hi > size ? hi - size : 0;
            if (try_without(s, v, n, lo, hi, -1))
                changed = 1;
            hi = lo;
        }
        if (size > 1)
            size = size / 2;
        else if (!changed || !budget_left(s))
            break;
    }
}

/* ------------------------------------------------------------------ cut */

/* The registers a cut restores, in the order written: the buffer and filter
 * controls, PMBSR_EL1, then (with the context) PMSCR_EL1, which may make an
 * enable edge that loads the counter, and PMSICR_EL1 two cycles later, after
 * any such load. */
static const int restore_order[] = {
    SPU_REG_PMBPTR_EL1,   SPU_REG_PMBLIMITR_EL1, SPU_REG_PMSFCR_EL1, SPU_REG_PMSEVFR_EL1,
    SPU_REG_PMSNEVFR_EL1, SPU_REG_PMSDSFR_EL1,   SPU_REG_PMSLATFR_EL1, SPU_REG_PMSIRR_EL1,
    SPU_REG_PMBSR_EL1,    SPU_REG_PMSCR_EL1,     -1 /* a spare cycle */, SPU_REG_PMSICR_EL1,
};
#define NRESTORE (sizeof restore_order / sizeof restore_order[0])

/* The golden model (m) and the run (core model, context) after cycles
 * 0..T-1 of s->t, the run's source state in *k. 0 or -1. */
static int state_at(shrink_t *s, uint64_t T, spu_model_t *m, spu_run_t *run, spt_cursor_t *k)
{
    spu_cyc_t cy;
    spu_in_t in = {0};
    spu_out_t out;
    if (spu_model_init(m, s->lc->cfg, NULL, 0))
        return -1;
    run_init(run, s->lc->cfg, spt_source(k, s->t), NULL, NULL);
    while (run->cycle < T && run_inputs(run, &cy, &in) > 0) {
        spu_model_step(m, &in, &out);
        if (run_observe(run, &cy, &in, &out))
            return -1;
    }
    return 0;
}

/* One past the latest entry cycle of a sample still in flight at the start
 * of cycle T of s->t (0 when none is). */
static uint64_t after_inflight(shrink_t *s, uint64_t T)
{
    spu_model_t *m = malloc(sizeof *m);
    spu_run_t *run = malloc(sizeof *run);
    spt_cursor_t k;
    uint64_t a = 0;
    if (m && run && state_at(s, T, m, run, &k) == 0)
        for (unsigned i = 0; i < SPU_MAX_SLOTS; i++)
            if (run->core.slot[i].live && run->core.slot[i].entry + 1 > a)
                a = run->core.slot[i].entry + 1;
    free(m);
    free(run);
    return a;
}

/* Write to path the cut of s->t that drops cycles A..T-1 (see the top of
 * the file): cycles before A as they are, the restore sequence in the last
 * cycles before T, cycles T.. as they are. 0, 1 when the restore sequence
 * does not fit between A and T, -1 on an error. */
static int write_cut(shrink_t *s, uint64_t A, uint64_t T, const char *path)
{
    const spu_config_t *cfg = s->lc->cfg;
    spu_model_t *m = malloc(sizeof *m);
    spu_run_t *run = malloc(sizeof *run);
    spt_cursor_t k;
    spu_cyc_t cy;
    int rc = -1;
    FILE *f = NULL;
    if (!m || !run || state_at(s, T, m, run, &k))
        goto out;
    const uint8_t el = run->el, allow = run->allow;
    int wr[NRESTORE];
    unsigned n = 0;
    for (unsigned i = 0; i < NRESTORE; i++) {
        const int r = restore_order[i];
        wr[i] = r < 0 || spu_reg_access_ok(cfg, r, 1);
        n += (unsigned)wr[i];
    }
    if (T < n || T - n < A) {
        rc = 1;
        goto out;
    }
    if (!(f = fopen(path, "w")))
        goto out;
    spt_writer_t w;
    spu_src_t src = spt_source(&k, s->t);
    spt_write_begin(&w, f, cfg->name);
    uint64_t c = T - n;
    int ctx = 0, more;
    rc = 0;
    /* cycles before A as they are */
    while ((more = src.next(src.self, &cy)) && cy.cycle < A && rc == 0)
        rc = spt_write_cycle(&w, &cy, &src);
    const uint8_t el0 = w.el, allow0 = w.allow;
    for (unsigned i = 0; i < NRESTORE && rc == 0; i++) {
        if (!wr[i])
            continue;
        const int r = restore_order[i];
        memset(&cy, 0, sizeof cy);
        cy.cycle = c++;
        ctx |= r == SPU_REG_PMSCR_EL1;
        cy.el = ctx ? el : el0;
        cy.allow = ctx ? allow : allow0;
        if (r >= 0) {
            cy.reg_valid = cy.reg_write = 1;
            cy.reg_enc = spu_reg_enc(r);
            cy.reg_wdata = spu_model_reg_read(m, r);
        }
        rc = spt_write_cycle(&w, &cy, &src);
    }
    /* cycles T.. as they are (the cursor stands in cycle A) */
    for (; more && rc == 0; more = src.next(src.self, &cy))
        if (cy.cycle >= T)
            rc = spt_write_cycle(&w, &cy, &src);
    if (spt_write_end(&w))
        rc = -1;
out:
    if (f && fclose(f))
        rc = -1;
    free(m);
    free(run);
    return rc;
}

/* 1 when the cut at T fails the same way; the cut is then loaded in *cut
 * (freed by the caller). */
static int try_cut(shrink_t *s, uint64_t A, uint64_t T, const char *path, spt_trace_t *cut)
{
    char err[512];
    spt_cursor_t k;
    if (write_cut(s, A, T, path) != 0)
        return 0;
    if (spt_load(cut, path, err, sizeof err)) {
        fprintf(stderr, "shrink: the cut at cycle %" PRIu64 " does not read back: %s\n", T, err);
        return 0;
    }
    s->tests++;
    if (same_failure(s, spt_source(&k, cut)))
        return 1;
    spt_free(cut);
    return 0;
}

/* The latest cut of the cycles from A on that still fails, loaded in *cut
 * and noted in s->cuts: 1, or 0 when none does. */
static int find_cut(shrink_t *s, uint64_t A, const char *path, spt_trace_t *cut)
{
    const uint64_t F = s->fail->fail_cycle;
    uint64_t ok = 0, bad = F + 1, d;
    int found = 0;
    /* d = 0 first: a failure can need nothing before its own cycle but the
     * registers (say, an ECOUNT drawn by the LFSR in the cycle before) */
    for (d = 0; d <= F - A && budget_left(s); d = d ? 2 * d : 1) {
        if (try_cut(s, A, F - d, path, cut)) {
            spt_free(cut);
            ok = F - d;
            found = 1;
            break;
        }
        bad = F - d;
    }
    if (!found)
        return 0;
    while (bad - ok > 1 && budget_left(s)) {
        const uint64_t mid = ok + (bad - ok) / 2;
        if (try_cut(s, A, mid, path, cut)) {
            spt_free(cut);
            ok = mid;
        } else {
            bad = mid;
        }
    }
    if (!try_cut(s, A, ok, path, cut))
        return 0; /* cannot happen: the same cut failed before */
    s->cuts[s->ncuts++] = ok;
    return 1;
}

/* ------------------------------------------------------------------ result */

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

/* Write the candidate v[0..n) as a trace; returns its line count or -1. */
static long write_min(shrink_t *s, const size_t *v, size_t n, const char *path)
{
    usrc_t us;
    spu_cyc_t cy;
    spt_writer_t w;
    memset(s->keep, 0, s->nunits);
    for (size_t i = 0; i < n; i++)
        s->keep[v[i]] = 1;
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    spu_src_t src = us_source(&us, s->t, s->keep, s->map);
    int rc = 0;
    spt_write_begin(&w, f, s->lc->cfg->name);
    while (rc == 0 && src.next(src.self, &cy))
        rc = spt_write_cycle(&w, &cy, &src);
    if (spt_write_end(&w))
        rc = -1;
    if (fclose(f) || rc)
        return -1;
    return count_lines(path);
}

/* The units of the trace, then the reduction, then the result; 0 or -1. */
static int reduce(shrink_t *s, const char *path)
{
    usrc_t us;
    spu_cyc_t cy;
    char out[600];
    spu_src_t src = us_source(&us, s->t, NULL, s->map);
    while (src.next(src.self, &cy))
        ;
    s->nunits = us.u;
    const size_t cap = s->nunits ? s->nunits : 1;
    s->keep = malloc(cap);
    s->kind = malloc(cap);
    s->cyc = malloc(cap * sizeof *s->cyc);
    s->cand = malloc(cap * sizeof *s->cand);
    size_t *v = malloc(cap * sizeof *v);
    if (!s->keep || !s->kind || !s->cyc || !s->cand || !v) {
        free(v);
        fprintf(stderr, "shrink: out of memory\n");
        return -1;
    }
    /* the counting pass again, now noting each unit's kind and cycle */
    src = us_source(&us, s->t, NULL, s->map);
    us.kind = s->kind;
    us.cyc = s->cyc;
    while (src.next(src.self, &cy))
        ;
    /* nothing after the failing cycle can matter */
    size_t n = 0;
    for (size_t i = 0; i < s->nunits; i++)
        if (s->cyc[i] <= s->fail->fail_cycle)
            v[n++] = i;
    int rc = -1;
    if (!fails(s, v, n)) {
        fprintf(stderr, "shrink: %s does not fail the same way when replayed; nothing to reduce\n", path);
    } else {
        reduce_units(s, v, &n);
        snprintf(out, sizeof out, "%.*s-min.spt", (int)(strlen(path) - 4), path);
        const long before = count_lines(path), after = write_min(s, v, n, out);
        if (after < 0) {
            fprintf(stderr, "shrink: could not write %s\n", out);
        } else {
            char how[300] = "";
            size_t k = 0;
            for (unsigned i = 0; i < s->ncuts && k < sizeof how; i++)
                k += (size_t)snprintf(how + k, sizeof how - k, "%s%" PRIu64, i ? ", " : " (cuts at cycles ", s->cuts[i]);
            if (s->ncuts && k < sizeof how)
                snprintf(how + k, sizeof how - k, " left %zu)", s->nunits);
            fprintf(stderr, "shrink: %ld -> %ld line%s (%.1fx smaller), %zu -> %zu unit%s%s, failing cycle %" PRIu64
                            " kept, %u lockstep run%s, %.1f s%s: %s\n",
                    before, after, plural_s((uint64_t)after), after > 0 ? (double)before / (double)after : 0.0,
                    s->orig_units, n, plural_s(n), how, s->fail->fail_cycle, s->tests, plural_s(s->tests),
                    now_s() - s->t0, budget_left(s) ? "" : " (budget reached)", out);
            rc = 0;
        }
    }
    free(v);
    return rc;
}

int shrink_trace(const ls_cfg_t *lc, const ls_result_t *fail, const char *path)
{
    spt_trace_t t, cut[2];
    char err[512], tmp[600];
    shrink_t s = {.lc = lc, .fail = fail, .t = &t, .t0 = now_s()};
    if (spt_load(&t, path, err, sizeof err)) {
        fprintf(stderr, "shrink: %s\n", err);
        return -1;
    }
    int rc = -1, in_use = -1;
    s.map = malloc((t.nops ? t.nops : 1) * sizeof *s.map);
    s.r = malloc(sizeof *s.r);
    if (s.map && s.r) {
        usrc_t us;
        spu_cyc_t cy;
        spu_src_t src = us_source(&us, &t, NULL, s.map);
        while (src.next(src.self, &cy))
            ;
        s.orig_units = us.u;
        /* the cut is written where the result will be */
        snprintf(tmp, sizeof tmp, "%.*s-min.spt", (int)(strlen(path) - 4), path);
        /* Cut from the start, then again after each cut taken, while that
         * leaves fewer cycles with something in them: a sample in flight
         * across the failure (a long latency, a collision) is kept with the
         * stretch it needs, and the history after it goes too. */
        for (uint64_t A = 0; s.ncuts < SHRINK_MAX_CUTS && A <= fail->fail_cycle && budget_left(&s);) {
            spt_trace_t *next = &cut[in_use == 0];
            if (!find_cut(&s, A, tmp, next))
                break;
            if (in_use >= 0 && next->nitems >= s.t->nitems) {
                spt_free(next);
                s.ncuts--;
                break;
            }
            if (in_use >= 0)
                spt_free(&cut[in_use]);
            in_use = in_use == 0;
            s.t = &cut[in_use];
            /* next, cut what lies after this cut and after the entry of
             * any sample still in flight at the failure */
            A = s.cuts[s.ncuts - 1] + 1;
            const uint64_t a = after_inflight(&s, fail->fail_cycle);
            if (a > A)
                A = a;
        }
        rc = reduce(&s, path);
    } else {
        fprintf(stderr, "shrink: out of memory\n");
    }
    if (rc != 0 && s.map && s.r)
        remove(tmp); /* a cut that was tried, not a result */
    if (in_use >= 0)
        spt_free(&cut[in_use]);
    spt_free(&t);
    free(s.map);
    free(s.keep);
    free(s.kind);
    free(s.cyc);
    free(s.cand);
    free(s.r);
    return rc;
}
