/*
 * Matching a user's .spl lines to the model's (match.h): each class of line
 * is sorted by its key (op id, or cycle for register accesses) and the two
 * sorted lists are walked side by side.
 */
#include <stdlib.h>
#include <string.h>

#include "match.h"

static const char *const reason_names[MR_N] = {
    [MR_MISSING] = "missing in theirs",
    [MR_EXTRA] = "extra in theirs",
    [MR_DUPLICATE] = "duplicate in theirs",
    [MR_KIND] = "sample vs collision",
    [MR_LANE] = "different lane",
    [MR_SLOT] = "different slot",
    [MR_KEEP] = "different keep/why",
    [MR_LAT] = "different tot/iss latency",
    [MR_SAMPLE_CYCLE] = "sample cycle outside tolerance",
    [MR_RECORD_CYCLE] = "record cycle outside tolerance",
    [MR_READ_UNDEF] = "read vs undef",
    [MR_REGISTER] = "different register access",
    [MR_VALUE] = "different read value",
    [MR_PMU] = "different PMU total",
};

static const char *const class_names[MC_N] = {"sample/collision", "record", "read/undef", "pmu"};

const char *match_reason_name(int reason)
{
    return reason >= 0 && reason < MR_N ? reason_names[reason] : "?";
}

const char *match_class_name(int cls)
{
    return cls >= 0 && cls < MC_N ? class_names[cls] : "?";
}

static int class_of(const spl_line_t *l)
{
    switch (l->kind) {
    case SPL_SAMPLE:
    case SPL_COLLISION:
        return MC_SELECT;
    case SPL_RECORD:
        return MC_RECORD;
    case SPL_READ:
    case SPL_UNDEF:
        return MC_REG;
    default:
        return -1; /* reset: not compared (docs/diff.md) */
    }
}

/* A register access is keyed by its cycle (one per cycle), the rest by op id. */
static uint64_t key_of(int cls, const spl_line_t *l)
{
    return cls == MC_REG ? l->cycle : l->op;
}

/* File order among the lines of one key. */
static int order(uint64_t kx, uint64_t ky, const spl_line_t *x, const spl_line_t *y)
{
    if (kx != ky)
        return kx < ky ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

static int by_op(const void *a, const void *b)
{
    const spl_line_t *x = *(const spl_line_t *const *)a, *y = *(const spl_line_t *const *)b;
    return order(x->op, y->op, x, y);
}

static int by_cycle(const void *a, const void *b)
{
    const spl_line_t *x = *(const spl_line_t *const *)a, *y = *(const spl_line_t *const *)b;
    return order(x->cycle, y->cycle, x, y);
}

static int by_time(const void *a, const void *b)
{
    const match_dis_t *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    if (x->op != y->op)
        return x->op < y->op ? -1 : 1;
    if (x->cls != y->cls)
        return x->cls - y->cls;
    const uint32_t lx = x->theirs ? x->theirs->line : 0, ly = y->theirs ? y->theirs->line : 0;
    return (lx > ly) - (lx < ly);
}

static int outside(const match_tol_t *t, const spl_line_t *model, const spl_line_t *theirs)
{
    const int64_t d = (int64_t)theirs->cycle - (int64_t)model->cycle; /* both below 2^63 */
    return d < t->min || d > t->max;
}

/* The reasons a pair of lines of class cls disagrees (0: they agree). */
static uint32_t compare(const match_opts_t *o, int cls, const spl_line_t *m, const spl_line_t *t)
{
    uint32_t r = 0;
    const int both_reads = m->kind == SPL_READ && t->kind == SPL_READ;
    if (m->kind != t->kind)
        r |= 1u << (cls == MC_REG ? MR_READ_UNDEF : MR_KIND);
    switch (cls) {
    case MC_SELECT:
        if (m->kind == SPL_SAMPLE && t->kind == SPL_SAMPLE)
            r |= (uint32_t)(m->lane != t->lane) << MR_LANE | (uint32_t)(m->slot != t->slot) << MR_SLOT;
        r |= (uint32_t)outside(&o->sample, m, t) << MR_SAMPLE_CYCLE;
        break;
    case MC_RECORD:
        r |= (uint32_t)(m->slot != t->slot) << MR_SLOT;
        r |= (uint32_t)(m->keep != t->keep || m->why != t->why) << MR_KEEP;
        r |= (uint32_t)(m->tot != t->tot || m->iss != t->iss) << MR_LAT;
        r |= (uint32_t)outside(&o->record, m, t) << MR_RECORD_CYCLE;
        break;
    default:
        if (m->kind == t->kind)
            r |= (uint32_t)(m->enc != t->enc || m->write != t->write) << MR_REGISTER;
        r |= (uint32_t)(both_reads && m->enc == t->enc && m->value != t->value) << MR_VALUE;
        break;
    }
    return r;
}

static int add(match_result_t *r, const match_dis_t *d)
{
    if (!d->reasons) {
        r->matched[d->cls]++;
        return 0;
    }
    for (int k = 0; k < MR_N; k++)
        r->count[k][d->cls] += (d->reasons >> k) & 1u;
    if (r->n == r->cap) {
        const size_t cap = r->cap ? 2 * r->cap : 256;
        match_dis_t *v = realloc(r->dis, cap * sizeof *v);
        if (!v)
            return -1;
        r->dis = v;
        r->cap = cap;
    }
    r->dis[r->n++] = *d;
    return 0;
}

/* The cycle difference of a pair, into the class's least and most. */
static void pair_cycles(match_result_t *r, int cls, const spl_line_t *m, const spl_line_t *t)
{
    const int64_t d = (int64_t)t->cycle - (int64_t)m->cycle;
    if (!r->pairs[cls]++ || d < r->dmin[cls])
        r->dmin[cls] = d;
    if (r->pairs[cls] == 1 || d > r->dmax[cls])
        r->dmax[cls] = d;
}

/* Where a line only theirs has stands on the model's time line: its cycle
 * less the least latency the tolerance allows. */
static uint64_t their_time(const match_opts_t *o, int cls, const spl_line_t *t)
{
    const int64_t min = cls == MC_SELECT ? o->sample.min : cls == MC_RECORD ? o->record.min : 0;
    const int64_t x = (int64_t)t->cycle - min;
    return x < 0 ? 0 : (uint64_t)x;
}

/* The lines of class cls from f, sorted by key; NULL when out of memory. */
static const spl_line_t **gather(const spl_file_t *f, int cls, size_t *n)
{
    const spl_line_t **v = malloc((f->n ? f->n : 1) * sizeof *v);
    *n = 0;
    if (!v)
        return NULL;
    for (size_t i = 0; i < f->n; i++)
        if (class_of(&f->v[i]) == cls)
            v[(*n)++] = &f->v[i];
    qsort(v, *n, sizeof *v, cls == MC_REG ? by_cycle : by_op);
    return v;
}

/* Walk the sorted lines of one class: the k-th line of a key in theirs goes
 * with the k-th of the model (the model has at most one). */
static int walk(match_result_t *r, const match_opts_t *o, int cls, const spl_line_t **m, size_t nm,
                const spl_line_t **t, size_t nt)
{
    size_t i = 0, j = 0;
    while (i < nm || j < nt) {
        uint64_t k;
        if (i < nm && j < nt)
            k = key_of(cls, m[i]) < key_of(cls, t[j]) ? key_of(cls, m[i]) : key_of(cls, t[j]);
        else
            k = key_of(cls, i < nm ? m[i] : t[j]);
        size_t cm = 0, ct = 0;
        while (i + cm < nm && key_of(cls, m[i + cm]) == k)
            cm++;
        while (j + ct < nt && key_of(cls, t[j + ct]) == k)
            ct++;
        for (size_t x = 0; x < (cm > ct ? cm : ct); x++) {
            match_dis_t d = {.op = cls == MC_REG ? MATCH_NO_OP : k, .cls = (uint8_t)cls, .pmu = -1};
            d.model = x < cm ? m[i + x] : NULL;
            d.theirs = x < ct ? t[j + x] : NULL;
            if (d.model && d.theirs) {
                d.reasons = compare(o, cls, d.model, d.theirs);
                pair_cycles(r, cls, d.model, d.theirs);
            } else
                d.reasons = 1u << (d.model ? MR_MISSING : cm ? MR_DUPLICATE : MR_EXTRA);
            d.time = d.model ? d.model->cycle : their_time(o, cls, d.theirs);
            if (add(r, &d))
                return -1;
        }
        i += cm;
        j += ct;
    }
    return 0;
}

int match_logs(const spl_file_t *model, const spl_file_t *theirs, const match_opts_t *o, match_result_t *r)
{
    memset(r, 0, sizeof *r);
    for (int cls = MC_SELECT; cls <= MC_REG; cls++) {
        if (cls == MC_REG && o->ignore_reads)
            continue;
        size_t nm, nt;
        const spl_line_t **m = gather(model, cls, &nm), **t = gather(theirs, cls, &nt);
        const int rc = !m || !t || walk(r, o, cls, m, nm, t, nt);
        r->model_lines[cls] = nm;
        free(m);
        free(t);
        if (rc) {
            r->failed = 1;
            return -1;
        }
    }
    /* The PMU totals theirs gives (the cycle of the pmu line is not compared). */
    for (int i = 0; theirs->have_pmu && i < SPU_NPMU; i++) {
        if (!theirs->pmu_given[i])
            continue;
        const match_dis_t d = {.time = model->pmu_cycle, .op = MATCH_NO_OP, .cls = MC_PMU, .pmu = (int8_t)i,
                               .reasons = (uint32_t)(model->pmu[i] != theirs->pmu[i]) << MR_PMU};
        r->model_lines[MC_PMU]++;
        if (add(r, &d)) {
            r->failed = 1;
            return -1;
        }
    }
    if (r->n)
        qsort(r->dis, r->n, sizeof *r->dis, by_time);
    return 0;
}

void match_free(match_result_t *r)
{
    free(r->dis);
    r->dis = NULL;
    r->n = r->cap = 0;
}

static int by_i64(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The commonest of the n differences in v (sorted in place); 0 when n is 0. */
static int64_t mode(int64_t *v, size_t n)
{
    int64_t best = 0;
    size_t run = 0, most = 0;
    qsort(v, n, sizeof *v, by_i64);
    for (size_t i = 0; i < n; i++) {
        run = i && v[i] == v[i - 1] ? run + 1 : 1;
        if (run > most) {
            most = run;
            best = v[i];
        }
    }
    return best;
}

/* Their lines of class cls that agree with the model's line for op - shift. */
static uint64_t agree_shifted(const spl_line_t **m, size_t nm, const spl_line_t **t, size_t nt,
                              const match_opts_t *o, int cls, int64_t shift)
{
    uint64_t n = 0;
    for (size_t j = 0; j < nt; j++) {
        const uint64_t want = t[j]->op - (uint64_t)shift;
        size_t lo = 0, hi = nm;
        while (lo < hi) { /* the first model line with op >= want */
            const size_t mid = lo + (hi - lo) / 2;
            if (m[mid]->op < want)
                lo = mid + 1;
            else
                hi = mid;
        }
        n += lo < nm && m[lo]->op == want && !compare(o, cls, m[lo], t[j]);
    }
    return n;
}

int match_op_shift(const spl_file_t *model, const spl_file_t *theirs, const match_opts_t *o, match_shift_t *sh)
{
    const spl_line_t **m[MC_RECORD + 1] = {NULL}, **t[MC_RECORD + 1] = {NULL};
    size_t nm[MC_RECORD + 1] = {0}, nt[MC_RECORD + 1] = {0};
    int64_t *d = NULL;
    int rc = -1;
    memset(sh, 0, sizeof *sh);
    for (int c = MC_SELECT; c <= MC_RECORD; c++)
        if (!(m[c] = gather(model, c, &nm[c])) || !(t[c] = gather(theirs, c, &nt[c])))
            goto out;
    const size_t n = nm[MC_SELECT] < nt[MC_SELECT] ? nm[MC_SELECT] : nt[MC_SELECT];
    if (!(d = malloc((n ? n : 1) * sizeof *d)))
        goto out;
    for (size_t i = 0; i < n; i++)
        d[i] = (int64_t)(t[MC_SELECT][i]->op - m[MC_SELECT][i]->op);
    sh->shift = mode(d, n);
    sh->lines = nt[MC_SELECT] + nt[MC_RECORD];
    for (int c = MC_SELECT; c <= MC_RECORD && sh->shift; c++)
        sh->agree += agree_shifted(m[c], nm[c], t[c], nt[c], o, c, sh->shift);
    rc = 0;
out:
    for (int c = MC_SELECT; c <= MC_RECORD; c++) {
        free(m[c]);
        free(t[c]);
    }
    free(d);
    return rc;
}
