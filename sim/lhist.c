/* A linear histogram that widens its bins (lhist.h). */
#include <string.h>

#include "lhist.h"

void lhist_init(lhist_t *h, uint64_t *bins, unsigned nbin)
{
    memset(bins, 0, nbin * sizeof *bins);
    h->bin = bins;
    h->nbin = nbin;
    h->shift = 0;
    h->n = h->max = 0;
    h->min = UINT64_MAX;
}

void lhist_widen(lhist_t *h, uint64_t v)
{
    while ((v >> h->shift) >= h->nbin) {
        for (unsigned b = 0; b < h->nbin / 2; b++)
            h->bin[b] = h->bin[2 * b] + h->bin[2 * b + 1];
        memset(h->bin + h->nbin / 2, 0, h->nbin / 2 * sizeof *h->bin);
        h->shift++;
    }
}

/* Rows of width w: the first from *first (the largest off + k w <= min,
 * else 0), the second from *second (off when the first is below it), then
 * every w; off is the edge's remainder when the edge is a multiple of the
 * bin width. Returns how many rows reach max. */
static uint64_t rows_of(const lhist_t *h, uint64_t edge, uint64_t w, uint64_t *first, uint64_t *second)
{
    const uint64_t off = edge % (1ull << h->shift) ? 0 : edge % w;
    *first = h->min >= off ? h->min - (h->min - off) % w : 0;
    *second = *first < off ? off : *first + w;
    return 1 + (h->max >= *second ? (h->max - *second) / w + 1 : 0);
}

unsigned lhist_rows(const lhist_t *h, uint64_t edge, lhist_row_t *row, uint64_t *width)
{
    static const uint64_t mant[3] = {1, 2, 5};
    if (!h->n)
        return (unsigned)(*width = 0);
    uint64_t w = 0, first = 0, second = 0, n = LHIST_ROWS + 1;
    for (uint64_t dec = 1ull << h->shift; n > LHIST_ROWS; dec *= 10)
        for (int i = 0; i < 3 && n > LHIST_ROWS; i++)
            n = rows_of(h, edge, w = mant[i] * dec, &first, &second);
    for (unsigned r = 0; r < n; r++) {
        row[r].lo = r ? second + (r - 1) * w : first;
        row[r].hi = (r ? second + r * w : second) - 1;
        row[r].count = 0;
    }
    for (uint64_t b = h->min >> h->shift; b <= h->max >> h->shift; b++) {
        const uint64_t v = b << h->shift;
        if (h->bin[b])
            row[v < second ? 0 : 1 + (v - second) / w].count += h->bin[b];
    }
    *width = w;
    return (unsigned)n;
}

uint64_t lhist_below(const lhist_t *h, uint64_t v)
{
    uint64_t sum = 0;
    for (uint64_t b = 0; b < h->nbin && (b << h->shift) < v; b++)
        sum += h->bin[b];
    return sum;
}
