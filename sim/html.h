/*
 * A self-contained HTML page (the --report of spu-csim and spu-tb): inline
 * CSS and inline SVG only, no script, nothing fetched from anywhere. Every
 * text that goes into the page goes through html_esc(); the markup is
 * this file's and its callers' string literals.
 */
#ifndef SPU_HTML_H
#define SPU_HTML_H

#include <stdint.h>
#include <stdio.h>

typedef struct html {
    FILE *f;
    unsigned ink;                /* the next plot colour (html_ink()) */
} html_t;

/* The page's head (title escaped) and the start of its body. */
void html_begin(html_t *h, FILE *f, const char *title);
/* The end of the page. */
void html_end(html_t *h);
/* s with & < > " ' escaped. */
void html_esc(FILE *f, const char *s);
/* <tag>text</tag>, the text printf-formatted, then escaped. */
void html_tag(html_t *h, const char *tag, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A table: html_table() with its n column heads, html_row() per row of n
 * cells (escaped; NULL: empty), html_table_end(). */
void html_table(html_t *h, int n, ...);
void html_row(html_t *h, int n, ...);
void html_table_end(html_t *h);
/* The next of the page's plot colours, each distinct ("#rrggbb"), so that
 * a screenshot's pixels of a plot's colours are that plot's. */
const char *html_ink(html_t *h);

/* A bar plot, as inline SVG: per bar a label and a value per series (two
 * series: grouped bars, with a legend). */
#define HTML_SERIES 2
#define HTML_LABEL 40
typedef struct html_bar {
    char label[HTML_LABEL];
    uint64_t v[HTML_SERIES];
} html_bar_t;

typedef struct html_plot {
    const char *id;              /* the plot's name (data-plot="id") */
    const char *title, *xlabel, *ylabel;
    const char *series[HTML_SERIES]; /* their names; series[1] NULL: one series */
    const html_bar_t *bar;
    unsigned n;
    int mark;                    /* a line before this bar (-1: none) ... */
    const char *mark_label;      /* ... labelled so */
} html_plot_t;

/* The plot's SVG: axes, their labels, a bar per value above 0 with its
 * count, the mark; "no data" when every value is 0. */
void html_plot(html_t *h, const html_plot_t *p);

#endif
