#!/usr/bin/env bash
# --shrink on a real bug: a copy of the repository gets a one-character RTL
# bug (the latency filter's >= becomes >), spu-tb is built there for v1p4
# only, a random run finds the bug and shrinks the failing trace. Checks: exit
# 1, a -min.spt was written, it is small, it still fails with the bug, it
# passes on the real build, and shrinking took under 60 s. Prints PASS/FAIL
# lines like tests/tb_tests.sh.
#   tests/shrink_test.sh [SCRATCH_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TMP=${1:-$(mktemp -d)}
[ $# -ge 1 ] || trap 'rm -rf "$TMP"' EXIT
REAL_TB=$ROOT/${BUILD:-build}/spu-tb
SEED=${SHRINK_SEED:-5}
CYCLES=${SHRINK_CYCLES:-2000000}
MAX_LINES=60
MAX_SECONDS=60

# shellcheck source=tests/lib.sh
. tests/lib.sh

[ -x "$REAL_TB" ] || { bad shrink/built "missing $REAL_TB"; exit 1; }

# 1. A scratch copy of the sources with the bug planted.
REPO=$TMP/repo
rm -rf "$REPO" && mkdir -p "$REPO"
if git ls-files -z >/dev/null 2>&1 && [ -n "$(git ls-files Makefile)" ]; then
    git ls-files -z | xargs -0 cp --parents -t "$REPO"
else
    cp -r Makefile configs golden stim sim csim tb rtl tools "$REPO"
fi
BUG_FILE=rtl/spu_filter.v
BUG_FROM='is_lat  = (tot_lat_i >= minlat);'
BUG_TO='is_lat  = (tot_lat_i > minlat);'
sed -i "s/$BUG_FROM/$BUG_TO/" "$REPO/$BUG_FILE"
if grep -qF "$BUG_TO" "$REPO/$BUG_FILE" && [ "$(diff "$BUG_FILE" "$REPO/$BUG_FILE" | grep -c '^[<>]')" -eq 2 ]; then
    ok "shrink/bug_planted ($BUG_FILE: '$BUG_FROM' -> '$BUG_TO')"
else
    bad shrink/bug_planted "the line '$BUG_FROM' is not in $BUG_FILE any more"; exit 1
fi

# 2. spu-tb of the copy, v1p4 only (CONFIGS overrides the toml's list).
if ! make -s -C "$REPO" -j"$(nproc 2>/dev/null || echo 2)" CONFIGS=v1p4 BUILD=build tb >"$TMP/build.log" 2>&1; then
    bad shrink/build_with_bug "$(tail -3 "$TMP/build.log" | tr '\n' ' ')"; exit 1
fi
BUG_TB=$REPO/build/spu-tb

# 3. Random run with --shrink.
t0=$(date +%s.%N)
"$BUG_TB" --config v1p4 --seed "$SEED" --cycles "$CYCLES" --quiet --no-progress --shrink 2>"$TMP/e"
rc=$?
wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
cycle=$(sed -nE 's/^=== spu-tb: FIRST DIFFERENCE at cycle ([0-9]+) ===$/\1/p' "$TMP/e")
signal=$(awk '/^signal /{getline; print $1; exit}' "$TMP/e")
line=$(grep -E '^shrink: [0-9]+ -> [0-9]+ lines' "$TMP/e")
min=$(grep -oE '[^ ]+-min\.spt$' <<<"$line")
secs=$(sed -nE 's/.* ([0-9.]+) s(: | \(budget).*/\1/p' <<<"$line")
if [ $rc -eq 1 ] && [ -n "$cycle" ]; then
    ok "shrink/bug_found (seed $SEED: $signal differs at cycle $cycle)"
else
    bad shrink/bug_found "exit $rc, $(grep -E 'DIFFERENCE|PASS|VACUOUS' "$TMP/e" | head -1)"; exit 1
fi
if [ -n "$min" ] && [ -s "$min" ]; then
    ok "shrink/min_written (${line#shrink: })"
else
    bad shrink/min_written "$(grep shrink "$TMP/e" | tr '\n' ' ')"; exit 1
fi
lines=$(wc -l <"$min")
if [ "$lines" -le $MAX_LINES ]; then ok "shrink/small ($lines lines <= $MAX_LINES)"; else bad shrink/small "$lines lines > $MAX_LINES"; fi
if [ -n "$secs" ] && awk -v s="$secs" -v m=$MAX_SECONDS 'BEGIN { exit !(s < m) }'; then
    ok "shrink/fast (${secs} s shrinking, ${wall} s with the run)"
else
    bad shrink/fast "shrinking took ${secs:-?} s (limit $MAX_SECONDS)"
fi

# 4. The reduced trace still fails with the bug, in the same cycle and
#    signal, and passes on the real build (it may be vacuous: it holds only
#    what the failure needs).
"$BUG_TB" "$min" --quiet --no-progress 2>"$TMP/e2"
rc=$?
if [ $rc -eq 1 ] && grep -q "FIRST DIFFERENCE at cycle $cycle ===" "$TMP/e2" && \
   [ "$(awk '/^signal /{getline; print $1; exit}' "$TMP/e2")" = "$signal" ]; then
    ok "shrink/min_fails_with_bug"
else
    bad shrink/min_fails_with_bug "exit $rc: $(grep -E 'DIFFERENCE|PASS|VACUOUS|error' "$TMP/e2" | head -1)"
fi
if "$REAL_TB" "$min" --quiet --no-progress --expect-vacuous 2>"$TMP/e3"; then
    ok "shrink/min_passes_without_bug"
else
    bad shrink/min_passes_without_bug "$(grep -E 'DIFFERENCE|VACUOUS|error' "$TMP/e3" | head -1)"
fi
t_end
