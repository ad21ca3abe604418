/*
 * spu-diff: a user's .spl log against the golden model, transaction by
 * transaction (docs/diff.md). The model replays the trace through the run
 * loop spu-csim uses and writes its own log; both logs are read by the same
 * reader and their sample, collision, record, read and undef lines matched
 * by op id (cycle for register accesses), record and sample cycles within a
 * tolerance. The first disagreement is reported with the model's state
 * there, from a second run of the model up to it.
 *
 *   build/spu-diff TRACE.spt THEIR.spl [--record-latency MIN:MAX] [--config NAME] ...
 */
#include <stdio.h>
#include <stdlib.h>

#include "diff_opts.h"
#include "report.h"

/* The disagreement reported in full, *at: the first, or --show N's;
 * -1 (message printed) when N is beyond the count. */
static int shown(const diff_opts_t *d, const match_result_t *res, size_t *at)
{
    *at = d->show ? (size_t)d->show - 1 : 0;
    if (d->show <= res->n)
        return 0;
    if (res->n)
        fprintf(stderr, "error: --show '%s': there %s only %zu disagreement%s (--show takes 1..%zu)\n", d->show_opt,
                res->n == 1 ? "is" : "are", res->n, res->n == 1 ? "" : "s", res->n);
    else
        fprintf(stderr, "error: --show '%s': there is no disagreement (the logs agree)\n", d->show_opt);
    return -1;
}

int main(int argc, char **argv)
{
    diff_opts_t *d = calloc(1, sizeof *d);
    spu_setup_t *s = calloc(1, sizeof *s);
    replay_t *p = calloc(1, sizeof *p);
    spl_file_t model = {0}, theirs = {0};
    match_result_t res = {0};
    char err[512];
    int rc = 2, setup = 0;
    FILE *log = NULL;
    if (!d || !s || !p) {
        fprintf(stderr, "error: out of memory\n");
        goto out;
    }
    const int pr = diff_opts_parse(d, argc, argv);
    if (pr) {
        rc = pr > 0 ? 0 : 2;
        goto out;
    }
    if (opts_setup(&d->eng, s))
        goto out;
    setup = 1;
    if (spl_load(&theirs, d->theirs, &s->cfg, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        goto out;
    }
    /* The model's log, written and read back as theirs is read. */
    if (!(log = tmpfile())) {
        fprintf(stderr, "error: cannot make a temporary file for the model's log\n");
        goto out;
    }
    p->mem_stall = (unsigned)d->eng.mem_stall;
    if (replay_log(p, s, log))
        goto out;
    if (fflush(log) || ferror(log) || fseek(log, 0, SEEK_SET) ||
        spl_load_stream(&model, "the model's log", log, &s->cfg, err, sizeof err)) {
        fprintf(stderr, "error: internal: the model's log does not read back: %s\n", err);
        goto out;
    }
    if (match_logs(&model, &theirs, &d->match, &res)) {
        fprintf(stderr, "error: out of memory comparing the logs\n");
        goto out;
    }
    report_t r = {.o = d, .s = s, .model = &model, .theirs = &theirs, .res = &res, .p = p};
    if (shown(d, &res, &r.at))
        goto out;
    if (res.n == 0) {
        report_agree(stdout, &r);
        rc = 0;
    } else if (replay_until(p, s, res.dis[r.at].time) == 0) {
        report_disagree(stdout, &r);
        rc = 1;
    }
    if (fflush(stdout) || ferror(stdout)) {
        fprintf(stderr, "error: the report could not be written completely\n");
        rc = 2;
    }
out:
    if (log)
        fclose(log);
    match_free(&res);
    spl_free(&model);
    spl_free(&theirs);
    if (setup && opts_teardown(s))
        rc = 2;
    free(d);
    free(s);
    free(p);
    return rc;
}
