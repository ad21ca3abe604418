/*
 * How a spec-rule test says why it failed (spec.h): the reason of the test
 * running now, which spec_main.c prints. Kept apart from the runner so the
 * tests and their helpers do not depend on the file that calls them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "spec.h"

char spec_why[512];
int spec_case_no;

/* "file:line: [case N: ]cond: message" */
static int prefix(const char *file, int line)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    if (spec_case_no)
        return snprintf(spec_why, sizeof spec_why, "%s:%d: case %d: ", base, line, spec_case_no);
    return snprintf(spec_why, sizeof spec_why, "%s:%d: ", base, line);
}

void spec_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    size_t n = (size_t)prefix(file, line);
    if (n < sizeof spec_why)
        n += (size_t)snprintf(spec_why + n, sizeof spec_why - n, "(%s) is false: ", cond);
    if (n < sizeof spec_why) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(spec_why + n, sizeof spec_why - n, fmt, ap);
        va_end(ap);
    }
}

void spec_fail_eq(const char *file, int line, const char *got, const char *want,
                  uint64_t g, uint64_t w, const char *fmt, ...)
{
    size_t n = (size_t)prefix(file, line);
    if (n < sizeof spec_why) {
        va_list ap;
        va_start(ap, fmt);
        n += (size_t)vsnprintf(spec_why + n, sizeof spec_why - n, fmt, ap);
        va_end(ap);
    }
    if (n < sizeof spec_why)
        snprintf(spec_why + n, sizeof spec_why - n,
                 ": %s = 0x%llX (%llu), expected %s = 0x%llX (%llu)", got,
                 (unsigned long long)g, (unsigned long long)g, want,
                 (unsigned long long)w, (unsigned long long)w);
}
