/*
 * spu-diff's report (report.h).
 */
#include <inttypes.h>
#include <string.h>

#include "explain.h"
#include "hint.h"
#include "report.h"
#include "plural.h"

static const char *tol_str(const match_tol_t *t, char *buf, size_t len)
{
    snprintf(buf, len, "%+" PRId64 "..%+" PRId64, t->min, t->max);
    return buf;
}

/* The tolerances and what is compared, as one line. */
static void settings(FILE *f, const report_t *r)
{
    char a[48], b[48];
    fprintf(f, "  record cycle %s (--record-latency), sample/collision cycle %s (--sample-latency); read/undef "
               "lines %s; pmu totals %s\n",
            tol_str(&r->o->match.record, a, sizeof a), tol_str(&r->o->match.sample, b, sizeof b),
            r->o->match.ignore_reads ? "not compared (--ignore-reads)" : "compared",
            r->theirs->have_pmu ? "compared" : "not compared (theirs has no pmu line)");
}

void report_agree(FILE *f, const report_t *r)
{
    const match_result_t *m = r->res;
    fprintf(f, "spu-diff: AGREE: %s matches the model on %s (configuration %s): %" PRIu64 " sample/collision, %" PRIu64
               " record, %" PRIu64 " read/undef line%s, %" PRIu64 " pmu total%s\n",
            r->theirs->path, r->o->eng.trace, r->s->cfg.name, m->matched[MC_SELECT], m->matched[MC_RECORD],
            m->matched[MC_REG], plural_s(m->matched[MC_REG]), m->matched[MC_PMU], plural_s(m->matched[MC_PMU]));
    settings(f, r);
    if (!m->model_lines[MC_SELECT] && !m->model_lines[MC_RECORD])
        fprintf(f, "  note: the model logs no sample, collision or record on this trace, so none was compared\n");
}

static void reasons_str(uint32_t reasons, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int k = 0; k < MR_N; k++)
        if ((reasons >> k) & 1u) {
            const int w = snprintf(buf + n, len - n, "%s%s", n ? ", " : "", match_reason_name(k));
            if (w < 0 || (size_t)w >= len - n)
                return;
            n += (size_t)w;
        }
}

/* One disagreement on one line: its number (for --show), where, which op,
 * why, and their line. */
static void one_line(FILE *f, const report_t *r, const match_dis_t *d)
{
    char why[400];
    reasons_str(d->reasons, why, sizeof why);
    fprintf(f, "  #%-6zu cycle %-8" PRIu64, (size_t)(d - r->res->dis) + 1, d->time);
    if (d->op != MATCH_NO_OP)
        fprintf(f, " op %-8" PRIu64, d->op);
    else if (d->cls == MC_PMU)
        fprintf(f, " %s", spu_pmu_name(d->pmu));
    fprintf(f, " %s: %s", match_class_name(d->cls), why);
    if (d->theirs)
        fprintf(f, "  (%s:%" PRIu32 ")", r->theirs->path, d->theirs->line);
    fputc('\n', f);
}

/* A line of the model's log or theirs, or what stands in for a missing one. */
static void side(FILE *f, const report_t *r, const match_dis_t *d, int theirs)
{
    const spl_file_t *file = theirs ? r->theirs : r->model;
    const spl_line_t *l = theirs ? d->theirs : d->model;
    const char *who = theirs ? "theirs" : "model ";
    char text[512];
    if (d->cls == MC_PMU) {
        fprintf(f, "  %s %s=%" PRIu64 " on the pmu line", who, spu_pmu_name(d->pmu), file->pmu[d->pmu]);
        if (theirs)
            fprintf(f, "  (%s:%" PRIu32 ")", file->path, file->pmu_line);
        fputc('\n', f);
        return;
    }
    if (l) {
        spl_line_text(file, l, text, sizeof text);
        fprintf(f, "  %s %s", who, text);
        if (theirs)
            fprintf(f, "  (%s:%" PRIu32 ")", file->path, l->line);
        fputc('\n', f);
        return;
    }
    const char *what = d->cls == MC_SELECT ? "sample or collision line" : d->cls == MC_RECORD ? "record line" : "read or undef line";
    if (d->op != MATCH_NO_OP)
        fprintf(f, "  %s (none: no %s for op %" PRIu64 ")\n", who, what, d->op);
    else
        fprintf(f, "  %s (none: no %s in cycle %" PRIu64 ")\n", who, what, theirs ? d->model->cycle : d->theirs->cycle);
    const uint64_t nops = r->s->trace.nops;
    if (d->op != MATCH_NO_OP && d->op >= nops)
        fprintf(f, "         op %" PRIu64 " is not in the trace: it has %" PRIu64 " ops%s; see docs/diff.md for how op "
                   "ids are numbered\n", d->op, nops, nops ? " (ids from 0)" : "");
}

/* The values behind a pair's reasons that the two lines do not show at a glance. */
static void details(FILE *f, const report_t *r, const match_dis_t *d)
{
    if (!d->model || !d->theirs)
        return;
    const int rec = d->cls == MC_RECORD;
    if ((d->reasons >> MR_SAMPLE_CYCLE & 1u) || (d->reasons >> MR_RECORD_CYCLE & 1u)) {
        char t[48];
        fprintf(f, "  %s cycle: theirs - model = %+" PRId64 ", allowed %s (%s)\n", rec ? "record" : "sample/collision",
                (int64_t)d->theirs->cycle - (int64_t)d->model->cycle,
                tol_str(rec ? &r->o->match.record : &r->o->match.sample, t, sizeof t),
                rec ? "--record-latency" : "--sample-latency");
    }
    if (d->reasons >> MR_SLOT & 1u)
        fprintf(f, "  slot: model %u, theirs %u\n", d->model->slot, d->theirs->slot);
    if (d->reasons >> MR_LANE & 1u)
        fprintf(f, "  lane: model %u, theirs %u\n", d->model->lane, d->theirs->lane);
    if (d->reasons >> MR_LAT & 1u)
        fprintf(f, "  tot/iss: model %" PRIu32 "/%" PRIu32 ", theirs %" PRIu32 "/%" PRIu32 "\n", d->model->tot,
                d->model->iss, d->theirs->tot, d->theirs->iss);
}

/* The sample or collision line of op in f, for a record's disagreement. */
static void selection(FILE *f, const report_t *r, const spl_file_t *file, uint64_t op, const char *who)
{
    char text[512];
    for (size_t i = 0; i < file->n; i++) {
        const spl_line_t *l = &file->v[i];
        if ((l->kind == SPL_SAMPLE || l->kind == SPL_COLLISION) && l->op == op) {
            spl_line_text(file, l, text, sizeof text);
            fprintf(f, "  %s selected it: %s", who, text);
            if (file == r->theirs)
                fprintf(f, "  (%s:%" PRIu32 ")", file->path, l->line);
            fputc('\n', f);
            return;
        }
    }
    fprintf(f, "  %s has no sample or collision line for op %" PRIu64 "\n", who, op);
}

static void model_state(FILE *f, const report_t *r, uint64_t at)
{
    const replay_t *p = r->p;
    const spu_model_t *m = &p->model;
    const spu_config_t *cfg = &r->s->cfg;
    if (p->run.cycle < at)
        fprintf(f, "--- model state at the end of the run (cycle %" PRIu64 "; the disagreement stands after it)\n",
                p->run.cycle);
    else
        fprintf(f, "--- model state at the start of cycle %" PRIu64 " (after the cycles before it)\n", at);
    fprintf(f, "  context el=%u allow=%u, profiling %s, LFSR 0x%06X, %" PRIu64 " cycle%s since the last reset\n",
            p->el, p->allow, spu_model_enabled(m, p->el, p->allow) ? "enabled" : "disabled", m->lfsr, m->cycle,
            plural_s(m->cycle));
    int k = 0;
    for (int i = 0; i < SPU_NREGS; i++)
        if (spu_reg_access_ok(cfg, i, 0))
            fprintf(f, "  %-14s 0x%016" PRIx64 "%s", spu_reg_name(i), spu_model_reg_read(m, i), ++k % 3 ? "" : "\n");
    if (k % 3)
        fputc('\n', f);
    for (unsigned s = 0; s < cfg->slots; s++) {
        const spu_slot_t *sl = &m->slot[s];
        const core_slot_t *c = &p->run.core.slot[s];
        if (!sl->busy) {
            fprintf(f, "  slot %u: free\n", s);
            continue;
        }
        fprintf(f, "  slot %u: ", s);
        if (c->live)
            fprintf(f, "op %" PRIu64 ", entered cycle %" PRIu64 " at EL%u, ", c->op.id, c->entry, sl->el);
        else
            fprintf(f, "entered %" PRIu64 " cycle%s after the last reset at EL%u, ", sl->entry, plural_s(sl->entry), sl->el);
        if (sl->issued)
            fprintf(f, "issued (issue latency %" PRIu32 ")", sl->iss_lat);
        else
            fprintf(f, "not issued yet");
        if (c->live)
            fprintf(f, ", finishes in cycle %" PRIu64, c->entry + c->op.fin);
        fputc('\n', f);
    }
}

static void history(FILE *f, const report_t *r, uint64_t at)
{
    replay_t *p = r->p;
    const uint64_t nm = p->nmem < REPLAY_MEMBERS ? p->nmem : REPLAY_MEMBERS;
    fprintf(f, "--- the last %" PRIu64 " population member%s before cycle %" PRIu64 " (of %" PRIu64 ")\n", nm, plural_s(nm),
            at, p->nmem);
    if (nm)
        fprintf(f, "     cycle lane       op  model        attributes (as the trace gives them)\n");
    for (uint64_t i = p->nmem - nm; i < p->nmem; i++) {
        const replay_member_t *m = &p->mem[i % REPLAY_MEMBERS];
        char fate[24], keys[512];
        if (m->fate == 1)
            snprintf(fate, sizeof fate, "sample s%u", m->slot);
        else
            snprintf(fate, sizeof fate, "%s", m->fate == 2 ? "collision" : "-");
        replay_op_keys(p, m->op, keys, sizeof keys); /* " type=LD ev=0x2 ..." */
        fprintf(f, "  %8" PRIu64 " %4u %8" PRIu64 "  %-*s%s\n", m->cycle, m->lane, m->op, keys[0] ? 12 : 0, fate, keys);
    }
    const uint64_t na = p->nacc < REPLAY_ACCESSES ? p->nacc : REPLAY_ACCESSES;
    fprintf(f, "--- register accesses, resets and context changes before cycle %" PRIu64 " (the last %" PRIu64
               " of %" PRIu64 ")\n", at, na, p->nacc);
    for (uint64_t i = p->nacc - na; i < p->nacc; i++) {
        const replay_access_t *a = &p->acc[i % REPLAY_ACCESSES];
        char reg[40];
        stim_reg_str(a->enc, reg, sizeof reg);
        fprintf(f, "  %8" PRIu64 "  ", a->cycle);
        if (a->kind == RA_RESET)
            fprintf(f, "reset\n");
        else if (a->kind == RA_CTX)
            fprintf(f, "ctx el=%u allow=%u\n", a->el, a->allow);
        else if (a->undef)
            fprintf(f, "%c %s  (UNDEFINED)\n", a->kind == RA_WRITE ? 'w' : 'r', reg);
        else if (a->kind == RA_WRITE)
            fprintf(f, "w %s 0x%" PRIx64 "\n", reg, a->wdata);
        else
            fprintf(f, "r %s  -> 0x%016" PRIx64 "\n", reg, a->rdata);
    }
}

static void summary(FILE *f, const report_t *r)
{
    const match_result_t *m = r->res;
    uint64_t lines = 0, matched = 0;
    for (int c = 0; c < MC_N; c++) {
        lines += m->model_lines[c];
        matched += m->matched[c];
    }
    fprintf(f, "--- summary: %zu disagreement%s; %" PRIu64 " of the model's %" PRIu64 " line%s (pmu totals counted one "
               "by one) agree\n", m->n, plural_s(m->n), matched, lines, plural_s(lines));
    fprintf(f, "  %-32s", "reason");
    for (int c = 0; c < MC_N; c++)
        fprintf(f, " %16s", match_class_name(c));
    fputc('\n', f);
    for (int k = 0; k < MR_N; k++) {
        uint64_t t = 0;
        for (int c = 0; c < MC_N; c++)
            t += m->count[k][c];
        if (!t)
            continue;
        fprintf(f, "  %-32s", match_reason_name(k));
        for (int c = 0; c < MC_N; c++)
            fprintf(f, " %16" PRIu64, m->count[k][c]);
        fputc('\n', f);
    }
}

void report_disagree(FILE *f, const report_t *r)
{
    const match_result_t *m = r->res;
    const match_dis_t *d = &m->dis[r->at];
    char why[400];
    fprintf(f, "spu-diff: DISAGREE: %s against the model on %s (configuration %s): %zu disagreement%s\n",
            r->theirs->path, r->o->eng.trace, r->s->cfg.name, m->n, m->n == 1 ? "" : "s");
    settings(f, r);
    hint_print(f, r->model, r->theirs, &r->o->match, m);
    reasons_str(d->reasons, why, sizeof why);
    if (r->at)
        fprintf(f, "=== DISAGREEMENT #%zu of %zu (--show %zu) at cycle %" PRIu64, r->at + 1, m->n, r->at + 1, d->time);
    else
        fprintf(f, "=== FIRST DISAGREEMENT at cycle %" PRIu64, d->time);
    if (d->op != MATCH_NO_OP)
        fprintf(f, ", op %" PRIu64, d->op);
    fprintf(f, " (%s): %s\n", match_class_name(d->cls), why);
    side(f, r, d, 0);
    side(f, r, d, 1);
    details(f, r, d);
    if (d->cls == MC_RECORD) {
        selection(f, r, r->model, d->op, "model ");
        selection(f, r, r->theirs, d->op, "theirs");
        if (d->reasons >> MR_KEEP & 1u)
            explain_keep(f, &r->s->cfg, r->p, d);
    }
    model_state(f, r, d->time);
    history(f, r, d->time);
    const size_t more = m->n - 1 - r->at, shown = more < r->o->list ? more : (size_t)r->o->list;
    if (more) {
        fprintf(f, "--- the next %zu of %zu more disagreement%s (%s--show N reports #N in full)\n", shown, more, plural_s(more),
                shown < more ? "--list N lists more; " : "");
        for (size_t i = r->at + 1; i <= r->at + shown; i++)
            one_line(f, r, &m->dis[i]);
    }
    summary(f, r);
}
