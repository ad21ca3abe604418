#!/usr/bin/env bash
# The docs' command blocks (tests/doc_commands.py): every block of README.md
# and docs/*.md says what it is and names the make target that builds what it
# runs; in the full form every sh block runs from this built tree. Then the
# check must be able to fail: planted docs with each kind of drift are caught.
#   tests/doc_commands_test.sh short|full
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib.sh
. tests/lib.sh
T_PREFIX=docs/
PY=${PYTHON:-python3}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if [ "${1:-short}" = full ]; then
    # One line per block, already PASS/FAIL/SKIP; prefixed as the others.
    $PY tests/doc_commands.py | sed -E 's#^(PASS|FAIL|SKIP) #\1 docs/run/#'
else
    if $PY tests/doc_commands.py --static >"$T/out" 2>&1; then
        ok blocks_say_what_they_are "$(grep -c '^PASS' "$T/out") docs"
    else
        bad blocks_say_what_they_are "$(grep '^FAIL' "$T/out" | head -3 | tr '\n' ' ')"
    fi
fi

# planted NAME WANT MARKDOWN: a doc with one drift fails, and says WANT.
planted() {
    local name=$1 want=$2
    printf '# planted\n\n%b' "$3" >"$T/$name.md"
    if $PY tests/doc_commands.py "$T/$name.md" >"$T/$name.out" 2>&1; then
        bad "catches/$name" "passed: $(tr '\n' ' ' <"$T/$name.out")"
    elif grep -q "^FAIL .*$want" "$T/$name.out"; then
        ok "catches/$name"
    else
        bad "catches/$name" "failed without '$want': $(tr '\n' ' ' <"$T/$name.out")"
    fi
}
planted untagged_block "needs an info string" '```\nmake csim\n```\n'
planted command_in_text "make the block" '```text\nmake csim\n```\n'
planted no_make_target "no .make TARGET. earlier" '```sh\nbuild/spu-csim --seed 1 --ops 10\n```\n'
planted command_fails "exit 2" '```sh\nmake csim\nbuild/spu-csim --no-such-option\n```\n'
planted output_drifted "not printed by the block before" \
    '```sh\nmake csim\nbuild/spu-csim --seed 3 --ops 20000 --quiet --stats\n```\n\n```text output\nsamples 999999999\n```\n'
planted tool_not_in_all "which make all does not build" '```sh\nbuild/spu-engine-tests\n```\n'
planted unknown_target "make has no target" '```sh\nmake test-fulll\nmake test-full\n```\n'
planted unknown_config "unknown configuration" '```sh\nmake regress CONFIGS=nope\n```\n'
# ...and a doc that is right passes (the planted ones fail for their drift).
printf '# right\n\n```sh\nmake csim\nbuild/spu-csim --seed 3 --ops 20000 --quiet\n```\n' >"$T/right.md"
if $PY tests/doc_commands.py "$T/right.md" >"$T/right.out" 2>&1; then ok passes_a_right_doc
else bad passes_a_right_doc "$(tr '\n' ' ' <"$T/right.out")"; fi
t_end
