#!/usr/bin/env bash
# The register order of configs/spu.toml must not matter: the C model and the
# RTL take every register index from the generated files, never from a
# position typed by hand. This copies the toml with its [registers.*] tables
# in reverse order, builds csim, the lockstep checker and the spec tests from
# it in a scratch build directory, and runs the spec tests, the golden vectors
# (csim and tb) and the whole lockstep suite (tests/tb_tests.sh).
#   tests/reorder_regs.sh [SCRATCH_DIR]
# Prints PASS/FAIL lines and ends with "N passed, N failed"; exit 1 on failure.
set -uo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
TMP=${1:-$(mktemp -d)}
[ $# -gt 0 ] || trap 'rm -rf "$TMP"' EXIT
B=$TMP/build
# shellcheck source=tests/lib.sh
. tests/lib.sh
finish() { t_end; exit $?; }

# 1. The reversed toml: every [registers.X] table (up to the next table or
#    section rule) moves, nothing else changes. The order must really differ.
$PYTHON - configs/spu.toml "$TMP/spu.toml" <<'EOF'
import sys, tomllib
src, dst = sys.argv[1], sys.argv[2]
lines = open(src).read().split("\n")
starts = [i for i, l in enumerate(lines) if l.startswith("[registers.")]
def end(i):
    j = i + 1
    while j < len(lines) and not lines[j].startswith("[") and not lines[j].startswith("# ---"):
        j += 1
    return j
blocks = [lines[s:end(s)] for s in starts]
out = lines[:starts[0]] + [l for b in reversed(blocks) for l in b] + lines[end(starts[-1]):]
open(dst, "w").write("\n".join(out))
a = list(tomllib.load(open(src, "rb"))["registers"])
b = list(tomllib.load(open(dst, "rb"))["registers"])
if b != a[::-1] or len(a) < 2:
    sys.exit(f"reorder failed: {a} -> {b}")
print(f"{len(a)} registers reversed: {b[0]} first, {b[-1]} last")
EOF
if [ $? -eq 0 ]; then ok reorder/toml_reversed; else bad reorder/toml_reversed; finish; fi

# 2. Build everything from it (generated files, csim, tb, spec tests).
if make -s -j"$(nproc 2>/dev/null || echo 2)" BUILD="$B" CFG_SRC="$TMP/spu.toml" \
        csim tb "$B/spu-spec-tests" >"$TMP/build.log" 2>&1; then
    ok reorder/build
else
    bad reorder/build "$(tail -3 "$TMP/build.log" | tr '\n' ' ')"; finish
fi
first=$(sed -n 's/^ *SPU_REG_\([A-Z0-9_]*\),$/\1/p' "$B/gen/spu_config.h" | head -1)
if [ "$first" = "$(sed -n 's/^\[registers\.\(.*\)\]$/\1/p' "$TMP/spu.toml" | head -1)" ]; then
    ok "reorder/generated_order ($first is index 0)"
else
    bad reorder/generated_order "index 0 is '$first'"
fi

# 3. Spec tests.
"$B/spu-spec-tests" >"$TMP/spec.txt" 2>&1
rc=$?
p=$(grep -c '^PASS ' "$TMP/spec.txt"); f=$(grep -c '^FAIL ' "$TMP/spec.txt")
if [ $rc -eq 0 ] && [ "$f" -eq 0 ] && [ "$p" -ge 60 ]; then
    ok "reorder/spec ($p tests)"
else
    bad reorder/spec "exit $rc, $p passed, $f failed: $(grep '^FAIL ' "$TMP/spec.txt" | head -2 | tr '\n' ' ')"
fi

# 4. Golden vectors: the hand-derived logs, from csim and from the RTL.
for spt in tests/vectors/*.spt; do
    exp=${spt%.spt}.spl
    for tool in spu-csim spu-tb; do
        name=reorder/vectors/$tool/$(basename "${spt%.spt}")
        args=()
        [ $tool = spu-tb ] && args=(--expect-vacuous --no-progress)
        if "$B/$tool" "$spt" "${args[@]}" >"$TMP/got.spl" 2>"$TMP/err" && cmp -s "$exp" "$TMP/got.spl"; then
            ok "$name"
        else
            bad "$name" "$(diff "$exp" "$TMP/got.spl" | head -3 | tr '\n' ' ')$(head -1 "$TMP/err")"
        fi
    done
done

# 5. The lockstep suite (tests/tb_tests.sh: every configuration, resets,
#    X-init seeds, the self-tests, shrinking, bad input) on the reordered
#    build, its configurations listed from the reordered toml.
mkdir -p "$TMP/tbt"
BUILD="$B" CFG_SRC="$TMP/spu.toml" tests/tb_tests.sh "$TMP/tbt" >"$TMP/tbt.txt" 2>&1
n=0
while read -r verdict rest; do
    n=$((n + 1))
    if [ "$verdict" = PASS ]; then ok "reorder/$rest"; else bad "reorder/$rest"; fi
done < <(grep -E '^(PASS|FAIL) ' "$TMP/tbt.txt")
[ $n -gt 20 ] || bad reorder/lockstep_suite "only $n lockstep tests ran: $(tail -2 "$TMP/tbt.txt" | tr '\n' ' ')"
finish
