/*
 * Whether a run proved anything (vacuity.h): what is missing, and from what
 * the run did see, about how long a run would need to see it (assuming the
 * stimulus goes on alike).
 */
#include <inttypes.h>
#include <stdio.h>

#include "vacuity.h"
#include "plural.h"

int spl_vacuous(const spl_log_t *l, uint64_t n, uint64_t pmsirr, char why[VAC_WHY_LEN], char est[VAC_EST_LEN])
{
    const uint64_t pop = l->pmu[SPU_PMU_POP], recs = l->kept + l->rejected;
    char reasons[200] = "";
    why[0] = est[0] = '\0';
    if (n == 0) {
        snprintf(why, VAC_WHY_LEN, "no cycle was compared");
        snprintf(est, VAC_EST_LEN, "the stimulus is empty");
    } else if (l->samples == 0) {
        snprintf(why, VAC_WHY_LEN, "no sample was selected");
        const uint64_t interval = SPU_GET(pmsirr, PMSIRR_EL1, INTERVAL);
        if (pop == 0)
            snprintf(est, VAC_EST_LEN, "nothing at all was seen: no member entered the population while profiling was "
                                      "enabled (SAMPLE_POP 0); enable profiling (PMBLIMITR_EL1.E, PMSCR_EL1 for the EL, "
                                      "ctx allow=1, PMBSR_EL1.S 0) before the members, or run longer (100,000 cycles "
                                      "or more of random stimulus)");
        else if (l->collisions)
            snprintf(est, VAC_EST_LEN, "%s %" PRIu64 " selection%s collided with a sample in flight",
                     l->collisions == 1 ? "the" : "all", l->collisions, plural_s(l->collisions));
        else if (interval == 0)
            snprintf(est, VAC_EST_LEN, "%" PRIu64 " member%s counted while enabled, but PMSIRR_EL1.INTERVAL is 0 at the end",
                     pop, plural_s(pop));
        else {
            /* Members at the rate seen, for one interval; never less than
             * twice this run (the counter may have been reloaded or
             * reprogrammed on the way, so this run was not one interval). */
            double need = (double)interval * 256.0 * (double)n / (double)pop;
            if (need < 2.0 * (double)n)
                need = 2.0 * (double)n;
            snprintf(est, VAC_EST_LEN, "%" PRIu64 " member%s counted while enabled, one every %.1f cycles; a selection "
                                      "needs about %" PRIu64 " members (INTERVAL %" PRIu64 " x 256), so %.0f cycles or more",
                     pop, plural_s(pop), (double)n / (double)pop, interval * 256, interval, need);
        }
    } else if (recs == 0) {
        snprintf(why, VAC_WHY_LEN, "no record was made");
        snprintf(est, VAC_EST_LEN, "%" PRIu64 " sample%s, none of which finished with a record", l->samples,
                 plural_s(l->samples));
    } else if (l->kept == 0 || l->rejected == 0) {
        const int none_kept = l->kept == 0;
        snprintf(why, VAC_WHY_LEN, "no record was %s", none_kept ? "kept" : "rejected");
        if (none_kept) {
            static const unsigned order[6] = {SPU_WHY_DISCARD, SPU_WHY_DS, SPU_WHY_EV, SPU_WHY_LAT, SPU_WHY_NEV, SPU_WHY_TYPE};
            size_t k = 0;
            for (unsigned i = 0, b; i < 6 && k < sizeof reasons; i++) {
                char w[16];
                b = order[i];
                if (!l->why[b])
                    continue;
                spl_why_str(1u << b, w, sizeof w);
                k += (size_t)snprintf(reasons + k, sizeof reasons - k, "%s %s %" PRIu64, k ? "," : " (why:", w, l->why[b]);
            }
            if (k && k < sizeof reasons)
                snprintf(reasons + k, sizeof reasons - k, ")");
        }
        /* With 0 of R seen, the missing outcome's share is likely under 1/R:
         * a run long enough for about 3R records would likely show one. */
        snprintf(est, VAC_EST_LEN, "%s %" PRIu64 " record%s %s %s%s, one record every %.0f cycles; unless the filters %s "
                                  "every record, seeing one %s likely takes %.0f cycles or more",
                 recs > 1 ? "all" : "the", recs, recs > 1 ? "s" : "", recs > 1 ? "were" : "was",
                 none_kept ? "rejected" : "kept", reasons, (double)n / (double)recs,
                 none_kept ? "reject" : "keep", none_kept ? "kept" : "rejected", 3.0 * (double)n + (double)n / (double)recs);
    }
    return !why[0] ? VAC_NONE : l->samples && recs ? VAC_ONE_OUTCOME : VAC_NOTHING;
}
