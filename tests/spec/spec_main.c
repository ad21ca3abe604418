/*
 * Runs every spec-rule test: `spu-spec-tests [FILTER]`. FILTER is a substring
 * of the test names to run. Prints `PASS <name>` or `FAIL <name>: <why>` per
 * test and ends with `N passed, N failed`; exit status 1 if any failed.
 */
#include <stdio.h>
#include <string.h>

#include "spec.h"

static const spec_test_t *const tables[] = {
    spec_tests_interval, spec_tests_ernd,    spec_tests_enable,   spec_tests_coll,
    spec_tests_type,     spec_tests_filter,  spec_tests_latency,  spec_tests_pmu,
    spec_tests_regs,     spec_tests_regs_port, spec_tests_knobs,  spec_tests_skip,
    spec_tests_api,      spec_tests_record,   spec_tests_buffer,  spec_tests_wait,
};

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : "";
    unsigned passed = 0, failed = 0;
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        for (const spec_test_t *t = tables[i]; t->name; t++) {
            if (!strstr(t->name, filter))
                continue;
            spec_why[0] = 0;
            spec_case_no = 0;
            if (t->fn() == 0) {
                printf("PASS %s\n", t->name);
                passed++;
            } else {
                printf("FAIL %s: %s\n", t->name, spec_why[0] ? spec_why : "(no reason)");
                failed++;
            }
            fflush(stdout);
        }
    }
    printf("%u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}
