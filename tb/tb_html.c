/* spu-tb --report (tb_html.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "tb_html.h"

/* The plural ending of a count: "1 cycle", "2 cycles". */
#define S_(n) ((n) == 1 ? "" : "s")
#define WAVE_SIGNALS 8

static void run_table(html_t *h, const report_run_t *rr, const ls_cfg_t *lc, const ls_result_t *r,
                      const char *result)
{
    char which[512], v[64];
    const char *what;
    report_stimulus(rr, &what, which, sizeof which);
    html_tag(h, "h2", "Run");
    fprintf(h->f, "<p class=\"%s\">", strcmp(result, "pass") ? "fail" : "pass");
    html_esc(h->f, !strcmp(result, "pass") ? "PASS" : "FAIL: ");
    html_esc(h->f, strcmp(result, "pass") ? result : "");
    fputs("</p>\n", h->f);
    html_table(h, 2, "item", "value");
    html_row(h, 2, "tool", "spu-tb (the RTL and the golden model in lockstep)");
    html_row(h, 2, "configuration", rr->s->cfg.name);
    html_row(h, 2, what, which);
    html_row(h, 2, "init seed", (snprintf(v, sizeof v, "%" PRIu64, lc->init_seed), v));
    html_row(h, 2, "cycles checked", (snprintf(v, sizeof v, "%" PRIu64, r->cycles), v));
    html_row(h, 2, "of them checked in place as quiet cycles", (snprintf(v, sizeof v, "%" PRIu64, r->quiet), v));
    html_row(h, 2, "of those in blocks of plain cycles", (snprintf(v, sizeof v, "%" PRIu64, r->blocks), v));
    html_row(h, 2, "differences", (snprintf(v, sizeof v, "%d", r->status == LS_DIFF ? r->ndiff : 0), v));
    if (r->status == LS_DIFF || r->status == LS_CORE)
        html_row(h, 2, "first difference at cycle", (snprintf(v, sizeof v, "%" PRIu64, r->fail_cycle), v));
    html_row(h, 2, "seconds", (snprintf(v, sizeof v, "%.3f", r->seconds), v));
    html_row(h, 2, "DUT clocking", r->clocking ? r->clocking : "not run");
    if (r->rerun)
        html_row(h, 2, "run again by the reference loop", r->rerun_why);
    html_table_end(h);
}

/* The geometry of the waveform: a name column, then a column per cycle. */
enum { WN = 230, WC = 27, WR = 22, WT = 24 };

/* One lane of signal `name` (the DUT's or the model's outputs), a segment
 * per run of equal values: low when 0, high with its value when not; the
 * failing cycle's segment red when the two differ there. */
static void wave_lane(html_t *h, const ls_result_t *r, uint64_t first, const char *name, int dut, int y,
                      const char *ink)
{
    FILE *f = h->f;
    uint64_t k = first;
    while (k < r->nhist) {
        const int last = k + 1 == r->nhist && r->status == LS_DIFF;
        uint64_t v, end = k + 1, w;
        cmp_value(last ? (dut ? &r->fail_dut : &r->fail_model) : &r->hist[k % LS_RING].out, name, &v);
        while (end < r->nhist && !(end + 1 == r->nhist && r->status == LS_DIFF) &&
               !cmp_value(&r->hist[end % LS_RING].out, name, &w) && w == v)
            end++;
        const int x = WN + (int)(k - first) * WC, wd = (int)(end - k) * WC - 2, hi = v ? WR - 6 : 3;
        fprintf(f, "<rect class=\"seg\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>",
                x, y + WR - 2 - hi, wd, hi, last ? "#e8000b" : ink);
        html_esc(f, name);
        fprintf(f, " %s cycle %" PRIu64 ": 0x%" PRIx64 "</title></rect>\n", dut ? "DUT" : "model",
                r->hist[k % LS_RING].cycle, v);
        char hex[20];
        if (v && (int)strlen((snprintf(hex, sizeof hex, "%" PRIx64, v), hex)) * 6 + 4 <= wd)
            fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"9\" fill=\"#fff\">%s</text>\n", x + 2, y + WR - 8,
                    hex);
        k = end;
    }
}

/* The cycle numbers above the lanes, every fourth and the last. */
static void wave_cycles(FILE *f, const ls_result_t *r, uint64_t first, int height)
{
    for (uint64_t k = first; k < r->nhist; k++)
        if ((k - first) % 4 == 0 || k + 1 == r->nhist) {
            const int x = WN + (int)(k - first) * WC;
            fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"9\">%" PRIu64 "</text>\n", x, WT - 8,
                    r->hist[k % LS_RING].cycle);
            fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n", x, WT - 4, x,
                    height);
        }
}

/* The differing outputs (those the history holds) over the last cycles. */
static void wave(html_t *h, const ls_result_t *r)
{
    const char *sig[WAVE_SIGNALS];
    int n = 0;
    uint64_t v;
    for (int i = 0; i < r->ndiff && i < CMP_MAX_DIFFS && n < WAVE_SIGNALS; i++)
        if (!cmp_value(&r->fail_dut, r->diff[i].name, &v))
            sig[n++] = r->diff[i].name;
    const uint64_t first = r->nhist > LS_HISTORY ? r->nhist - LS_HISTORY : 0;
    if (!n || r->nhist == first) {
        html_tag(h, "p", "(no waveform: the differing outputs are record bytes or APB outputs, which the history "
                         "of the last cycles does not hold)");
        return;
    }
    const int height = WT + n * 2 * (WR + 2) + 4, width = WN + (int)(r->nhist - first) * WC + 10;
    const char *ink = html_ink(h);
    fprintf(h->f, "<svg class=\"wave\" data-plot=\"waveform\" data-ink=\"%s\" width=\"%d\" height=\"%d\" "
                  "viewBox=\"0 0 %d %d\" role=\"img\" shape-rendering=\"crispEdges\">\n",
            ink, width, height, width, height);
    wave_cycles(h->f, r, first, height);
    for (int i = 0; i < n; i++)
        for (int dut = 1; dut >= 0; dut--) {
            const int y = WT + (2 * i + !dut) * (WR + 2);
            fprintf(h->f, "<text x=\"4\" y=\"%d\" font-size=\"11\">", y + WR - 6);
            html_esc(h->f, sig[i]);
            fprintf(h->f, " (%s)</text>\n", dut ? "DUT" : "model");
            wave_lane(h, r, first, sig[i], dut, y, ink);
        }
    fputs("</svg>\n", h->f);
}

/* The first difference: its signals' values, the waveform, the last cycles
 * as text (the words of spu-tb's report on stderr). */
static void difference(html_t *h, const spu_config_t *cfg, const ls_result_t *r)
{
    char a[512], b[512], d[24], m[24];
    html_tag(h, "h2", "First difference, at cycle %" PRIu64, r->fail_cycle);
    if (r->status == LS_CORE) {
        html_tag(h, "p", "The outputs (equal in DUT and model) contradict the core model: %s", r->err);
        return;
    }
    html_table(h, 3, "signal", "DUT", "model");
    for (int i = 0; i < r->ndiff && i < CMP_MAX_DIFFS; i++)
        html_row(h, 3, r->diff[i].name, (snprintf(d, sizeof d, "0x%" PRIx64, r->diff[i].dut), d),
                 (snprintf(m, sizeof m, "0x%" PRIx64, r->diff[i].model), m));
    html_table_end(h);
    wave(h, r);
    const uint64_t first = r->nhist > LS_HISTORY ? r->nhist - LS_HISTORY : 0;
    html_tag(h, "h2", "The last %u cycle%s (inputs | outputs)", (unsigned)(r->nhist - first), S_(r->nhist - first));
    fputs("<pre>", h->f);
    for (uint64_t k = first; k < r->nhist; k++) {
        const ls_hist_t *e = &r->hist[k % LS_RING];
        const int last = k + 1 == r->nhist;
        cmp_in_str(cfg, &e->in, a, sizeof a);
        cmp_out_str(cfg, last ? &r->fail_dut : &e->out, b, sizeof b);
        fprintf(h->f, "%8" PRIu64 " | ", e->cycle);
        html_esc(h->f, a);
        fputs(last ? " | DUT:   " : " | ", h->f);
        html_esc(h->f, b);
        fputc('\n', h->f);
        if (last) {
            cmp_out_str(cfg, &r->fail_model, b, sizeof b);
            fprintf(h->f, "%8s | %*s | model: ", "", (int)strlen(a), "");
            html_esc(h->f, b);
            fputc('\n', h->f);
        }
    }
    fputs("</pre>\n", h->f);
}

void tb_html(const tb_opts_t *t, const spu_setup_t *s, const ls_cfg_t *lc, const ls_result_t *r,
             const char *result)
{
    html_t h;
    char title[600], which[512];
    const char *what;
    const report_run_t rr = {.o = &t->eng, .s = s, .regs = r->regs, .st = lc->stats, .log = &r->log};
    report_stimulus(&rr, &what, which, sizeof which);
    snprintf(title, sizeof title, "spu-tb run: configuration %s, %s %s", s->cfg.name, what, which);
    html_begin(&h, s->report_f, title);
    run_table(&h, &rr, lc, r, result);
    if (r->status == LS_DIFF || r->status == LS_CORE)
        difference(&h, &s->cfg, r);
    report_stats(&h, &rr);
    report_setup(&h, &rr);
    html_end(&h);
}
