#!/usr/bin/env bash
# The example program of docs/api.md, compiled exactly as that page says
# (one library, two include directories) in a scratch directory, and run:
# it must link, print PMSIDR_EL1 and exit 0. Prints PASS/FAIL lines.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${BUILD:-build}
case $B in /*) ;; *) B=$PWD/$B ;; esac
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
awk '/^```c( |$)/ {on=1; next} /^```$/ {if (on) exit} on' docs/api.md >"$TMP/example.c"
if [ "$(grep -c 'int main' "$TMP/example.c")" -ne 1 ]; then
    echo "FAIL api/example_present: no complete program in docs/api.md"; exit 0
fi
cmd=$(grep -E '^cc .*example\.c' docs/api.md | head -1)
if [ -z "$cmd" ]; then echo "FAIL api/example_builds: no build command in docs/api.md"; exit 0; fi
cmd=${cmd//build\//$B/}; cmd=${cmd//-Igolden/-I$PWD/golden}
if (cd "$TMP" && eval "$cmd" -Werror -Wall) >"$TMP/out" 2>&1; then
    echo "PASS api/example_builds_as_documented"
else
    echo "FAIL api/example_builds_as_documented: $(head -3 "$TMP/out" | tr '\n' ' ')"; exit 0
fi
if out=$("$TMP/example") && grep -qE '^PMSIDR_EL1 = 0x[0-9a-f]+$' <<<"$out"; then
    echo "PASS api/example_runs ($out)"
else
    echo "FAIL api/example_runs: $out"
fi
# An unknown configuration is an error from spu_model_init, not a crash.
sed 's/spu_config_find("v1p4")/spu_config_find("nosuch")/' "$TMP/example.c" >"$TMP/bad.c"
(cd "$TMP" && eval "${cmd//example.c/bad.c}" -o bad) >/dev/null 2>&1
"$TMP/bad" >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc -eq 1 ] && grep -q 'no configuration' "$TMP/err"; then
    echo "PASS api/unknown_config_is_an_error"
else
    echo "FAIL api/unknown_config_is_an_error: exit $rc $(head -1 "$TMP/err")"
fi
