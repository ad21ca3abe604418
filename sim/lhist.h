/*
 * A linear histogram of counts that grows its bin width as values grow: nbin
 * bins of width 2^shift from 0; a value past the last bin doubles the width
 * (pairs of bins merge) until it fits. Adding is a shift and an increment;
 * lhist_rows() regroups the bins into rows to show.
 */
#ifndef SPU_LHIST_H
#define SPU_LHIST_H

#include <stdint.h>

typedef struct lhist {
    uint64_t *bin;               /* bin b: values b << shift .. ((b + 1) << shift) - 1 */
    unsigned nbin, shift;
    uint64_t n, min, max;        /* values added, the smallest and the largest */
} lhist_t;

/* bins: nbin (a power of two) counters the histogram owns from now on. */
void lhist_init(lhist_t *h, uint64_t *bins, unsigned nbin);
void lhist_widen(lhist_t *h, uint64_t v);
static inline void lhist_add(lhist_t *h, uint64_t v)
{
    if ((v >> h->shift) >= h->nbin)
        lhist_widen(h, v);
    h->bin[v >> h->shift]++;
    h->n++;
    if (v < h->min)
        h->min = v;
    if (v > h->max)
        h->max = v;
}

/* One row to show: the values lo .. hi and how many were added. */
typedef struct lhist_row {
    uint64_t lo, hi, count;
} lhist_row_t;

#define LHIST_ROWS 24

/* Rows of one width (1, 2 or 5 times a power of ten, times the bin width)
 * from the row holding min to the one holding max, at most LHIST_ROWS,
 * every count in its row exactly; a row starts at `edge` when edge is a
 * multiple of the bin width (the first row may start higher, at 0). Returns
 * how many rows (0 when nothing was added); *width is theirs. */
unsigned lhist_rows(const lhist_t *h, uint64_t edge, lhist_row_t *row, uint64_t *width);
/* Values added below v (exact when v is a multiple of the bin width). */
uint64_t lhist_below(const lhist_t *h, uint64_t v);

#endif
