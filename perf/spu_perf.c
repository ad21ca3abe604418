/*
 * spu-perf: a raw SPE buffer dump (records back to back, as the unit writes
 * them to the Profiling Buffer) for stock perf (docs/perf.md).
 *   spu-perf [--cpu N] BUFFER.bin > out.data   pipe-mode perf.data stream
 *   spu-perf --dump BUFFER.bin                 our decoder's packet lines
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perf_data.h"
#include "spe_input.h"
#include "spe_pkt.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: spu-perf [--cpu N] BUFFER.bin > out.data\n"
               "       spu-perf --dump BUFFER.bin\n"
               "Wraps a buffer of SPE records in a pipe-mode perf.data stream on stdout, for\n"
               "  spu-perf BUFFER.bin | perf report -D -i -     (every packet)\n"
               "  spu-perf BUFFER.bin | perf script --itrace=i1i -F ip,addr,weight,tid,time -i -\n"
               "(perf reads the stream from a pipe: `perf ... -i - < out.data` misreads it;\n"
               "`cat out.data | perf ... -i -` works). --dump prints the packets in the layout of\n"
               "perf report -D instead. --cpu N: the CPU the samples name (default 0).\n"
               "exit status: 0 ok, 1 a malformed buffer (--dump) or a failed write, 2 bad input (a file that is\n"
               "not a buffer of SPE records, named as what it is)\n");
}

static int bad(const char *msg, const char *arg)
{
    fprintf(stderr, "spu-perf: %s%s%s%s\n", msg, arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
    fprintf(stderr, "spu-perf: try 'spu-perf --help'\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    int dump = 0, have_cpu = 0;
    uint32_t cpu = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--dump")) {
            if (dump)
                return bad("--dump given twice", NULL);
            dump = 1;
        } else if (!strcmp(a, "--cpu") || !strncmp(a, "--cpu=", 6)) {
            if (have_cpu)
                return bad("--cpu given twice", NULL);
            if (!a[5] && ++i == argc)
                return bad("--cpu needs a CPU number", NULL);
            const char *n = a[5] ? a + 6 : argv[i];
            char *end;
            errno = 0;
            unsigned long long v = strtoull(n, &end, 10);
            /* perf takes no sample from a buffer of CPU -1, so 0..2^31-1. */
            if (errno || end == n || *end || n[0] == '-' || v > INT32_MAX)
                return bad("--cpu takes a number 0..2147483647, not", n);
            cpu = (uint32_t)v;
            have_cpu = 1;
        } else if (a[0] == '-' && a[1]) {
            return bad("unknown option", a);
        } else if (path) {
            return bad("one buffer file only; a second one is", a);
        } else {
            path = a;
        }
    }
    if (!path)
        return bad("missing the buffer file (BUFFER.bin)", NULL);
    if (dump && have_cpu)
        return bad("--cpu is for the perf.data stream, not --dump", NULL);
    if (!dump && isatty(STDOUT_FILENO))
        return bad("refusing to write a binary perf.data stream to a terminal; redirect it or pipe it to perf", NULL);

    uint8_t *buf;
    size_t len;
    char err[SPE_PKT_ERR_LEN];
    if (spe_read_file(path, &buf, &len, err)) {
        fprintf(stderr, "spu-perf: %s\n", err);
        return 2;
    }
    char why[SPE_INPUT_WHY_LEN];
    /* --dump prints the packets up to a bad one (exit 1); a stream for perf
     * is written from whole records only */
    if (dump ? spe_input_kind(buf, len, why) : spe_input_check(buf, len, why)) {
        fprintf(stderr, "spu-perf: %s: %s\n", path, why);
        free(buf);
        return 2;
    }
    int rc = 0;
    if (dump) {
        if (spe_pkt_dump(stdout, buf, len, err)) {
            fprintf(stderr, "spu-perf: %s: %s\n", path, err);
            rc = 1;
        }
    } else if (perf_data_write(stdout, buf, len, cpu)) {
        fprintf(stderr, "spu-perf: writing the perf.data stream: %s\n", strerror(errno));
        rc = 1;
    }
    free(buf);
    if (fflush(stdout) || ferror(stdout)) {
        fprintf(stderr, "spu-perf: writing stdout: %s\n", strerror(errno));
        rc = 1;
    }
    return rc;
}
