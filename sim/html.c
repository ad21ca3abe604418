/* A self-contained HTML page with inline SVG bar plots (html.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "html.h"

static const char page_css[] =
    "body{font-family:sans-serif;margin:16px;color:#222;background:#fff;max-width:1180px}\n"
    "h1{font-size:22px;margin:4px 0}h2{font-size:17px;margin:18px 0 6px;border-bottom:1px solid #ccc}\n"
    "table{border-collapse:collapse;font-size:12px;margin:4px 0}\n"
    "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}\n"
    "th{background:#eee}td.num{text-align:right;font-family:monospace}\n"
    ".plots{display:grid;grid-template-columns:repeat(2,580px);gap:8px}\n"
    ".pass{color:#060;font-weight:bold}.fail{color:#b00;font-weight:bold}\n"
    "svg text{font-family:sans-serif}pre{font-size:11px;overflow-x:auto}\n";

void html_esc(FILE *f, const char *s)
{
    for (; s && *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f);
        }
}

void html_begin(html_t *h, FILE *f, const char *title)
{
    h->f = f;
    h->ink = 0;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
    html_esc(f, title);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", page_css);
    html_esc(f, title);
    fputs("</h1>\n", f);
}

void html_end(html_t *h)
{
    fputs("</body>\n</html>\n", h->f);
}

void html_tag(html_t *h, const char *tag, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fprintf(h->f, "<%s>", tag);
    html_esc(h->f, buf);
    fprintf(h->f, "</%s>\n", tag);
}

/* A row of n cells of kind cell ("th", "td"), from ap; a cell that is a
 * number is aligned as one. */
static void row_of(html_t *h, const char *cell, int n, va_list ap)
{
    fputs("<tr>", h->f);
    for (int i = 0; i < n; i++) {
        const char *s = va_arg(ap, const char *);
        const int num = s && *s && strspn(s, "0123456789.") == strlen(s) && *cell == 't' && cell[1] == 'd';
        fprintf(h->f, "<%s%s>", cell, num ? " class=\"num\"" : "");
        html_esc(h->f, s);
        fprintf(h->f, "</%s>", cell);
    }
    fputs("</tr>\n", h->f);
}

void html_table(html_t *h, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    fputs("<table>\n", h->f);
    row_of(h, "th", n, ap);
    va_end(ap);
}

void html_row(html_t *h, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    row_of(h, "td", n, ap);
    va_end(ap);
}

void html_table_end(html_t *h)
{
    fputs("</table>\n", h->f);
}

const char *html_ink(html_t *h)
{
    /* saturated colours no text or axis of the page has */
    static const char *const ink[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                      "#e377c2", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31",
                                      "#843c39", "#7b4173", "#3182bd", "#e6550d"};
    return ink[h->ink++ % (sizeof ink / sizeof ink[0])];
}

/* The plot's geometry: the SVG's size, the plotting area's. */
enum { PW = 570, PH = 260, PL = 64, PR = 10, PT = 34, PB = 80 };
#define AREA_W (PW - PL - PR)
#define AREA_H (PH - PT - PB)

static void svg_text(FILE *f, double x, double y, const char *attrs, const char *s)
{
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" %s>", x, y, attrs);
    html_esc(f, s);
    fputs("</text>\n", f);
}

/* The title, the axes, their labels, the y axis's 0 and max, the legend. */
static void plot_frame(FILE *f, const html_plot_t *p, uint64_t max, const char *const *ink, int ns)
{
    char s[32];
    svg_text(f, PL, 16, "font-size=\"14\" font-weight=\"bold\"", p->title);
    fprintf(f, "<path d=\"M%d %d V%d H%d\" stroke=\"#333\" fill=\"none\"/>\n", PL, PT, PT + AREA_H, PL + AREA_W);
    svg_text(f, PL + AREA_W / 2.0, PH - 6, "font-size=\"12\" text-anchor=\"middle\"", p->xlabel);
    fprintf(f, "<text x=\"14\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 14 %d)\">",
            PT + AREA_H / 2, PT + AREA_H / 2);
    html_esc(f, p->ylabel);
    fputs("</text>\n", f);
    snprintf(s, sizeof s, "%" PRIu64, max);
    svg_text(f, PL - 4, PT + 4, "font-size=\"10\" text-anchor=\"end\"", s);
    svg_text(f, PL - 4, PT + AREA_H + 4, "font-size=\"10\" text-anchor=\"end\"", "0");
    for (int k = 0; k < ns && ns > 1; k++) {
        const int x = PL + AREA_W - 200 + 100 * k;
        fprintf(f, "<rect class=\"key\" x=\"%d\" y=\"20\" width=\"8\" height=\"8\" fill=\"%s\"/>\n", x, ink[k]);
        svg_text(f, x + 11, 28, "font-size=\"11\"", p->series[k]);
    }
}

/* Bar i's label below the axis (slanted when the bars are narrow). */
static void plot_label(FILE *f, const html_plot_t *p, unsigned i, double x, double gw)
{
    char a[96];
    const double cx = x + gw / 2, y = PT + AREA_H + 12;
    if (gw < 40)
        snprintf(a, sizeof a, "font-size=\"10\" text-anchor=\"end\" transform=\"rotate(-45 %.1f %.1f)\"", cx, y);
    else
        snprintf(a, sizeof a, "font-size=\"10\" text-anchor=\"middle\"");
    svg_text(f, cx, y, a, p->bar[i].label);
}

/* The mark, a dashed line at x. */
static void plot_mark(FILE *f, const html_plot_t *p, double x)
{
    fprintf(f, "<line class=\"mark\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\" "
               "stroke-width=\"2\" stroke-dasharray=\"5 3\"/>\n", x, PT - 4, x, PT + AREA_H);
    svg_text(f, x + 3, PT + 6, "font-size=\"11\" font-weight=\"bold\"", p->mark_label);
}

/* The bars of bar i, each with its count above it. */
static void plot_group(FILE *f, const html_plot_t *p, unsigned i, double x, double gw, uint64_t max,
                       const char *const *ink, int ns)
{
    const double bw = gw * 0.8 / ns;
    for (int k = 0; k < ns; k++) {
        const uint64_t v = p->bar[i].v[k];
        if (!v)
            continue;
        double bh = (double)v / (double)max * AREA_H;
        bh = bh < 1 ? 1 : bh;
        const double bx = x + gw * 0.1 + bw * k, by = PT + AREA_H - bh;
        fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                   "<title>", bx, by, bw, bh, ink[k]);
        html_esc(f, p->bar[i].label);
        fprintf(f, ": %" PRIu64 "</title></rect>\n", v);
        if (bw >= 9) {
            char s[24];
            snprintf(s, sizeof s, "%" PRIu64, v);
            svg_text(f, bx + bw / 2, by - 2, "font-size=\"9\" text-anchor=\"middle\"", s);
        }
    }
}

void html_plot(html_t *h, const html_plot_t *p)
{
    FILE *f = h->f;
    const int ns = p->series[1] ? 2 : 1;
    const char *ink[HTML_SERIES] = {html_ink(h), ns > 1 ? html_ink(h) : NULL};
    uint64_t max = 0;
    for (unsigned i = 0; i < p->n; i++)
        for (int k = 0; k < ns; k++)
            max = p->bar[i].v[k] > max ? p->bar[i].v[k] : max;
    fprintf(f, "<svg class=\"plot\" data-plot=\"");
    html_esc(f, p->id);
    fprintf(f, "\" data-ink=\"%s%s%s\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
               "shape-rendering=\"crispEdges\">\n", ink[0], ns > 1 ? " " : "", ns > 1 ? ink[1] : "", PW, PH, PW, PH);
    plot_frame(f, p, max, ink, ns);
    const double gw = p->n ? (double)AREA_W / p->n : AREA_W;
    for (unsigned i = 0; i < p->n && max; i++) {
        plot_group(f, p, i, PL + gw * i, gw, max, ink, ns);
        plot_label(f, p, i, PL + gw * i, gw);
    }
    if (max && p->mark >= 0 && (unsigned)p->mark <= p->n)
        plot_mark(f, p, PL + gw * p->mark);
    if (!max)
        svg_text(f, PL + AREA_W / 2.0, PT + AREA_H / 2.0, "font-size=\"14\" text-anchor=\"middle\"", "no data");
    fputs("</svg>\n", f);
}
