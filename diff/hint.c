/*
 * spu-diff's hints (hint.h).
 */
#include <inttypes.h>

#include "hint.h"
#include "plural.h"

/* The cycles of one class's pairs against its tolerance: when some are
 * outside it, the tolerance that would accept every pair. */
static void latency(FILE *f, const match_result_t *m, int cls)
{
    const int rec = cls == MC_RECORD;
    const uint64_t n = m->count[rec ? MR_RECORD_CYCLE : MR_SAMPLE_CYCLE][cls];
    const char *opt = rec ? "--record-latency" : "--sample-latency", *what = rec ? "record" : "sample/collision";
    const int64_t lo = m->dmin[cls], hi = m->dmax[cls];
    if (!n)
        return;
    if (lo == hi) {
        const uint64_t k = (uint64_t)(lo < 0 ? -lo : lo);
        fprintf(f, "hint: %s %" PRIu64 " %s cycle mismatch%s %s %" PRIu64 " cycle%s %s (theirs - model = %+" PRId64
                   " for every %s pair): %s %" PRId64 " would accept %s\n", n == 1 ? "the" : "all", n, what,
                n == 1 ? "" : "es", n == 1 ? "is" : "are", k, plural_s(k), lo < 0 ? "early" : "late", lo, what, opt, lo,
                n == 1 ? "it" : "them");
    } else {
        fprintf(f, "hint: theirs - model ranges over %+" PRId64 "..%+" PRId64 " cycles for the %" PRIu64 " %s "
                   "pair%s: %s %" PRId64 ":%" PRId64 " would accept the cycle of every one\n", lo, hi, m->pairs[cls],
                what, plural_s(m->pairs[cls]), opt, lo, hi);
    }
}

/* Their op ids the model's plus a constant, for most of their lines. */
static void op_shift(FILE *f, const spl_file_t *model, const spl_file_t *theirs, const match_opts_t *o,
                     const match_result_t *m)
{
    match_shift_t sh;
    const uint64_t as_is = m->matched[MC_SELECT] + m->matched[MC_RECORD];
    if (match_op_shift(model, theirs, o, &sh) || !sh.shift || sh.agree <= as_is || 2 * sh.agree <= sh.lines)
        return;
    fprintf(f, "hint: their op ids look shifted by %+" PRId64 ": %" PRIu64 " of their %" PRIu64 " sample, collision "
               "and record lines agree with the model's line for op id %s %" PRIu64 " (%" PRIu64 " as the ids "
               "stand); see \"Op ids\" in docs/diff.md for how ids are counted\n", sh.shift, sh.agree, sh.lines,
            sh.shift > 0 ? "-" : "+", (uint64_t)(sh.shift > 0 ? sh.shift : -sh.shift), as_is);
}

void hint_print(FILE *f, const spl_file_t *model, const spl_file_t *theirs, const match_opts_t *o,
                const match_result_t *m)
{
    op_shift(f, model, theirs, o, m);
    latency(f, m, MC_RECORD);
    latency(f, m, MC_SELECT);
}
