#!/usr/bin/env bash
# The C test suites with the sanitizer build (make asan-build: BUILD/asan,
# -fsanitize=address,undefined, no recovery). AddressSanitizer writes every
# report to a file of its own (log_path), so a report cannot hide behind a
# test that expects a non-zero exit: any such file fails the run and is
# printed. UndefinedBehaviorSanitizer (GCC's combined runtime ignores its
# log_path and exitcode options) stops the program at once with exit status 1
# and a "runtime error" message on stderr; every test checks the exit status
# and the message it expects, so the test that met it fails, and the whole
# output is searched for "runtime error" as well.
#   tests/asan_test.sh [SUITE...]   (default: spec engine vectors bad diff)
# Prints PASS/FAIL lines and "N passed, N failed"; exit 1 on failure.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${BUILD:-build}
AB=$B/asan
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(spec engine vectors bad diff)
for bin in spu-csim spu-spec-tests spu-engine-tests spu-diff; do
    [ -x "$AB/$bin" ] || { echo "FAIL asan/built: missing $AB/$bin (make asan-build)"; echo "0 passed, 1 failed"; exit 1; }
done
LOGS=$(mktemp -d)
trap 'rm -rf "$LOGS"' EXIT
{
# The sanitizers must really report the way this script looks for them:
# a use after free (AddressSanitizer only) leaves a report file, a signed
# overflow (UndefinedBehaviorSanitizer) stops the program (exit status 1).
export ASAN_OPTIONS="log_path=$LOGS/asan:detect_leaks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
probe() { # NAME CODE
    printf '#include <stdlib.h>\n#include <limits.h>\nint main(int argc, char **argv) { (void)argv; %s }\n' "$2" >"$LOGS/$1.c"
    ${CC:-cc} -O0 -g -fsanitize=address,undefined -fno-sanitize-recover=all "$LOGS/$1.c" -o "$LOGS/$1" 2>"$LOGS/cc.txt"
}
if probe uaf 'char *p = malloc(4); p[0] = 1; free(p); return p[argc - 1];' &&
   probe ovf 'int x = INT_MAX - 1 + argc; return x + 1 > 0;'; then
    "$LOGS/uaf" 2>/dev/null
    if ls "$LOGS"/asan.* >/dev/null 2>&1 && grep -q heap-use-after-free "$LOGS"/asan.*; then
        echo "PASS asan/address_reports_are_caught"
    else
        echo "FAIL asan/address_reports_are_caught: a planted use after free left no report file"
    fi
    "$LOGS/ovf" 2>"$LOGS/ovf.txt"
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "PASS asan/undefined_behaviour_is_caught"
    else
        echo "FAIL asan/undefined_behaviour_is_caught: a planted signed overflow exited $rc"
    fi
    rm -f "$LOGS"/asan.* "$LOGS"/uaf* "$LOGS"/ovf*
else
    echo "FAIL asan/probes: the compiler cannot build with the sanitizers: $(head -1 "$LOGS/cc.txt")"
fi
# (the sanitizer build has the C only: no quiet-test or public-eval build)
BUILD=$AB GEN=$B/gen TB_CXX_TESTS=0 tests/run_tests.sh "${suites[@]}" >"$LOGS/out.txt" 2>&1
rc=$?
# The fuzz targets, without libFuzzer, over their seeds and every input that
# ever made one fail (tests/fuzz/corpus/T/; the parser also gets every
# committed trace): each must return for every input, with no report.
for bin in "$AB"/fuzz-replay-*; do
    [ -x "$bin" ] || continue
    t=${bin##*/fuzz-replay-}
    files=(); for f in tests/fuzz/corpus/"$t"/*; do [ -f "$f" ] && files+=("$f"); done
    [ "$t" = spt ] && files+=(tests/vectors/*.spt tests/bad/*.spt)
    if "$bin" "${files[@]}" >"$LOGS/replay.txt" 2>&1; then
        echo "PASS fuzz_replay/$t ($(sed -nE 's/^fuzz-replay: ([0-9]+) inputs.*/\1/p' "$LOGS/replay.txt") inputs)" >>"$LOGS/out.txt"
    else
        echo "FAIL fuzz_replay/$t: $(grep -m2 -E 'ERROR|runtime error|fuzz-replay' "$LOGS/replay.txt" | tr '\n' ' ')" >>"$LOGS/out.txt"
    fi
done
ls "$AB"/fuzz-replay-* >/dev/null 2>&1 || echo "FAIL fuzz_replay/built: no $AB/fuzz-replay-* (make asan-build)" >>"$LOGS/out.txt"
grep -E '^(PASS|FAIL|SKIP) ' "$LOGS/out.txt" | sed -E 's#^(PASS|FAIL|SKIP) #\1 asan/#'
reports=$(ls "$LOGS"/asan.* 2>/dev/null)
if [ -n "$reports" ]; then
    echo "FAIL asan/no_address_sanitizer_reports: $(echo "$reports" | wc -l) report(s):"
    for f in $reports; do head -12 "$f" | sed 's/^/    /'; done
else
    echo "PASS asan/no_address_sanitizer_reports"
fi
if grep -q 'runtime error' "$LOGS/out.txt"; then
    echo "FAIL asan/no_undefined_behaviour: $(grep -m1 'runtime error' "$LOGS/out.txt" | cut -c1-200)"
else
    echo "PASS asan/no_undefined_behaviour"
fi
n=$(grep -cE '^(PASS|FAIL) ' "$LOGS/out.txt")
[ "$n" -gt 0 ] || echo "FAIL asan/suite: no test ran: $(tail -2 "$LOGS/out.txt" | tr '\n' ' ')"
[ $rc -eq 0 ] || [ "$(grep -c '^FAIL ' "$LOGS/out.txt")" -gt 0 ] || echo "FAIL asan/suite: exit $rc"
} | tee "$LOGS/results.txt"
p=$(grep -c '^PASS ' "$LOGS/results.txt"); f=$(grep -c '^FAIL ' "$LOGS/results.txt")
echo "$p passed, $f failed"
[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
