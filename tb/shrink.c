/*
 * --shrink: ddmin (Zeller and Hildebrandt) over the content lines of a
 * failing trace. `@N` lines are rewritten from the cycle each kept line
 * belongs to, so every candidate is a well-formed trace of the same timing;
 * candidates that no longer parse count as passing. A budget bounds the work.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shrink.h"

#define SHRINK_MAX_TESTS 600
#define SHRINK_MAX_SECONDS 240

typedef struct sline {
    uint64_t cycle;
    char *text;
} sline_t;

typedef struct shrink {
    const ls_cfg_t *lc;
    char hdr[2][256];            /* magic and cfg lines */
    int nhdr;
    char tmp[600];
    unsigned tests;
    time_t t0;
} shrink_t;

static int write_trace(const shrink_t *s, const char *path, sline_t *const *v, size_t n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    for (int i = 0; i < s->nhdr; i++)
        fprintf(f, "%s\n", s->hdr[i]);
    uint64_t cur = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i]->cycle != cur)
            fprintf(f, "@%" PRIu64 "\n", cur = v[i]->cycle);
        fprintf(f, "%s\n", v[i]->text);
    }
    fclose(f);
    return 0;
}

/* 1 when the candidate still fails in lockstep. */
static int fails(shrink_t *s, sline_t *const *v, size_t n)
{
    static spt_trace_t t;
    static ls_result_t r;
    char err[512];
    s->tests++;
    if (write_trace(s, s->tmp, v, n) || spt_load(&t, s->tmp, err, sizeof err))
        return 0;
    int bad = spt_check_config(&t, s->lc->cfg, err, sizeof err) != 0;
    if (!bad) {
        ls_cfg_t c = *s->lc;
        c.log = NULL;
        c.progress = 0;
        c.wave = NULL;
        lockstep_run(&c, spt_source(&t), &r);
        bad = r.status == LS_PASS ? 0 : 1;
    } else {
        bad = 0;
    }
    spt_free(&t);
    return bad;
}

static int budget_left(const shrink_t *s)
{
    return s->tests < SHRINK_MAX_TESTS && time(NULL) - s->t0 < SHRINK_MAX_SECONDS;
}

/* ddmin over v[0..*n): keeps removing complements of chunks that still fail. */
static void ddmin(shrink_t *s, sline_t **v, size_t *n)
{
    sline_t **cand = malloc(*n * sizeof *cand);
    size_t parts = 2;
    while (*n >= 2 && budget_left(s)) {
        const size_t chunk = (*n + parts - 1) / parts;
        int reduced = 0;
        for (size_t i = 0; i < parts && budget_left(s); i++) {
            const size_t lo = i * chunk, hi = lo + chunk < *n ? lo + chunk : *n;
            if (lo >= *n)
                break;
            size_t m = 0;
            for (size_t k = 0; k < *n; k++)
                if (k < lo || k >= hi)
                    cand[m++] = v[k];
            if (m < *n && fails(s, cand, m)) {
                memcpy(v, cand, m * sizeof *v);
                *n = m;
                parts = parts > 2 ? parts - 1 : 2;
                reduced = 1;
                break;
            }
        }
        if (!reduced) {
            if (parts >= *n)
                break;
            parts = parts * 2 < *n ? parts * 2 : *n;
        }
    }
    free(cand);
}

int shrink_trace(const ls_cfg_t *lc, const char *path)
{
    shrink_t s = {.lc = lc, .t0 = time(NULL)};
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t cap = 1024, n = 0;
    sline_t *lines = malloc(cap * sizeof *lines);
    char buf[4096];
    uint64_t cur = 0;
    while (fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\r\n")] = '\0';
        if (buf[0] == '\0' || buf[0] == '#')
            continue;
        if (!strncmp(buf, "spu-trace", 9) || !strncmp(buf, "cfg ", 4)) {
            if (s.nhdr < 2)
                snprintf(s.hdr[s.nhdr++], sizeof s.hdr[0], "%.200s", buf);
            continue;
        }
        if (buf[0] == '@') {
            cur = strtoull(buf + 1, NULL, 0);
            continue;
        }
        if (n == cap)
            lines = realloc(lines, (cap *= 2) * sizeof *lines);
        lines[n].cycle = cur;
        lines[n].text = strdup(buf);
        n++;
    }
    fclose(f);
    sline_t **v = calloc(n ? n : 1, sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = &lines[i];
    snprintf(s.tmp, sizeof s.tmp, "%.*s-try.spt", (int)(strlen(path) - 4), path);
    const size_t before = n;
    int rc = -1;
    if (!fails(&s, v, n)) {
        fprintf(stderr, "shrink: %s does not fail on its own; nothing to reduce\n", path);
    } else {
        ddmin(&s, v, &n);
        char out[600];
        snprintf(out, sizeof out, "%.*s-min.spt", (int)(strlen(path) - 4), path);
        rc = write_trace(&s, out, v, n);
        fprintf(stderr, "shrink: %zu -> %zu stimulus lines in %u lockstep runs%s: %s\n", before, n, s.tests,
                budget_left(&s) ? "" : " (budget reached)", out);
    }
    remove(s.tmp);
    for (size_t i = 0; i < before; i++)
        free(lines[i].text);
    free(lines);
    free(v);
    return rc;
}
