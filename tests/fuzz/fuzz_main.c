/*
 * Replays files through a fuzz target without libFuzzer: `fuzz-replay-T
 * FILE...` calls LLVMFuzzerTestOneInput once per file. make test runs each
 * target this way over its seed corpus and every input that ever made it
 * fail (tests/fuzz/corpus/T/, and the traces of tests/vectors and
 * tests/bad for the parser), under the sanitizer build.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    int n = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            fprintf(stderr, "fuzz-replay: cannot open %s\n", argv[i]);
            return 2;
        }
        size_t cap = 1 << 16, len = 0;
        uint8_t *buf = malloc(cap);
        for (size_t k; buf && (k = fread(buf + len, 1, cap - len, f)) > 0;) {
            len += k;
            if (len == cap) {
                uint8_t *x = realloc(buf, cap *= 2);
                if (!x) {
                    free(buf);
                    buf = NULL;
                }
                buf = x;
            }
        }
        fclose(f);
        if (!buf) {
            fprintf(stderr, "fuzz-replay: out of memory on %s\n", argv[i]);
            return 2;
        }
        LLVMFuzzerTestOneInput(buf, len);
        free(buf);
        n++;
    }
    printf("fuzz-replay: %d inputs, none failed\n", n);
    return n ? 0 : 1;
}
