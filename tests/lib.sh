# tests/lib.sh: sourced by every test script. One line per test:
#   ok NAME [DETAIL]     PASS NAME (DETAIL)
#   bad NAME [WHY]       FAIL NAME: WHY
#   skip NAME WHY        SKIP NAME: WHY   (said, never silent; not a pass)
# T_PREFIX (optional, set before sourcing or after) goes before each name.
# t_end prints the closing line "N passed, N failed" (and ", N skipped" when
# any was) and returns 1 when anything failed; a script ends with `t_end`.
# tests/run_tests.sh counts the PASS/FAIL/SKIP lines.
# shellcheck shell=bash
t_pass=0
t_fail=0
t_skip=0
t_failed=()
T_PREFIX=${T_PREFIX:-}
ok()   { t_pass=$((t_pass + 1)); echo "PASS ${T_PREFIX}$1${2:+ ($2)}"; }
bad()  { t_fail=$((t_fail + 1)); t_failed+=("$1"); echo "FAIL ${T_PREFIX}$1${2:+: $2}"; }
skip() { t_skip=$((t_skip + 1)); echo "SKIP ${T_PREFIX}$1${2:+: $2}"; }
# built CFG...: every CFG is a configuration the tree was built for
# ($CONFIGS, which tests/run_tests.sh exports; unset: every one).
built() {
    local c
    [ -n "${CONFIGS+x}" ] || return 0
    for c in "$@"; do case " $CONFIGS " in *" $c "*) ;; *) return 1 ;; esac; done
}
# spt_cfg TRACE: the configuration its cfg line names (v1p4 without one,
# as spu-csim and spu-tb take it).
spt_cfg() {
    local c
    c=$(sed -nE 's/^cfg +([A-Za-z0-9_-]+).*/\1/p' "$1" | head -1)
    echo "${c:-v1p4}"
}
# jget FILE KEY[.KEY]...: values of a --stats-json file, one per line.
jget() { ${PYTHON:-python3} tests/json_get.py "$@"; }
t_end() {
    echo "$t_pass passed, $t_fail failed$([ $t_skip -eq 0 ] || echo ", $t_skip skipped")"
    [ $t_fail -eq 0 ]
}
