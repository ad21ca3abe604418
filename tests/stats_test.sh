#!/usr/bin/env bash
# spu-csim --stats and --stats-json answer "what do my filters do" (issue 28
# item 8): records rejected by one filter alone, kept and rejected per op
# type, the latency histogram against MINLAT, linear and log2 intervals, the
# filter registers, knobs and --perf-event period echoed. The expected
# figures are worked out by hand in tests/stats/filters.spt's comment and
# from docs/perf-event.md's rules, not produced by the code under test.
#   tests/stats_test.sh TMPDIR
set -uo pipefail
cd "$(dirname "$0")/.."
T=${1:-$(mktemp -d)}
B=${BUILD:-build}
CSIM=${CSIM:-$B/spu-csim}
# shellcheck source=tests/lib.sh
. tests/lib.sh
F=tests/stats/filters.spt

# want NAME FILE 'KEY=VALUE ...': every key of the JSON file has its value.
want() {
    local name=$1 file=$2 kv got miss=""
    for kv in $3; do
        got=$(jget "$file" "${kv%%=*}" 2>&1)
        [ "$got" = "${kv#*=}" ] || miss+=" ${kv%%=*}=$got (want ${kv#*=})"
    done
    if [ -z "$miss" ]; then ok "$name"; else bad "$name" "$miss"; fi
}

$CSIM $F --quiet --stats --stats-json "$T/f.json" --knob CU_FE=1 >/dev/null 2>"$T/f.txt"
want stats/rejected_alone "$T/f.json" "kept=2 rejected=6 rejected_alone.type=1 rejected_alone.ev=1 rejected_alone.nev=1
    rejected_alone.lat=1 rejected_alone.ds=1 rejected_alone.discard=0 rejected_several=1
    rejected_by.type=2 rejected_by.ev=2 rejected_by.nev=1 rejected_by.lat=2 rejected_by.ds=1"
if grep -qE '^  lat +PMSFCR_EL1\.FL +2 +1$' "$T/f.txt"; then ok stats/rejected_alone_text; else
    bad stats/rejected_alone_text "no 'lat PMSFCR_EL1.FL 2 1' row: $(grep -m1 ' lat ' "$T/f.txt")"; fi
want stats/by_type "$T/f.json" "by_type.LD.kept=1 by_type.LD.rejected=4 by_type.ST.kept=0 by_type.ST.rejected=1
    by_type.B.rejected=1 by_type.LD+FP.kept=1 by_type.LD+FP.rejected=0"
# Rows of width 2 from 4 ([4,5] [6,7] [8,9] [10,11] ...): 24 rows of 1 would
# not reach 30 from 5; one row starts at MINLAT.
want stats/latency "$T/f.json" "latency.n=8 latency.min=5 latency.max=30 latency.minlat=10 latency.below_minlat=2
    latency.width=2 latency.rows.0.lo=4 latency.rows.0.count=2 latency.rows.3.lo=10 latency.rows.8.lo=20
    latency.rows.8.count=5 latency.rows.13.lo=30 latency.rows.13.count=1"
if grep -A1 -- '---------- MINLAT 10 (PMSFCR_EL1.FL 1' "$T/f.txt" | grep -qE '^  \[ +10, +11\] +0'; then
    ok stats/latency_minlat_marked
else
    bad stats/latency_minlat_marked "$(grep -m1 -A1 MINLAT "$T/f.txt" | tr '\n' ' ')"
fi
want stats/intervals "$T/f.json" "intervals.n=7 intervals.min=257 intervals.max=257 intervals.log2.0.lo=256
    intervals.log2.0.hi=511 intervals.log2.0.count=7 intervals.linear.width=1 intervals.linear.rows.0.lo=257
    intervals.linear.rows.0.count=7"
if grep -A1 '^ linear:' "$T/f.txt" | grep -qE '^  \[ +257, +257\] +7 #'; then ok stats/intervals_linear_text; else
    bad stats/intervals_linear_text "$(grep -A1 '^ linear:' "$T/f.txt" | tr '\n' ' ')"; fi
want stats/filters_echoed "$T/f.json" "setup.filters.setups_met=1 setup.filters.PMSFCR_EL1.value=0x000000000002001f
    setup.filters.PMSFCR_EL1.FE=1 setup.filters.PMSFCR_EL1.FnE=1 setup.filters.PMSFCR_EL1.FDS=1
    setup.filters.PMSFCR_EL1.TYPE=2 setup.filters.PMSNEVFR_EL1.E=0x0000000000000008
    setup.filters.PMSLATFR_EL1.MINLAT=10 setup.filters.PMSDSFR_EL1.S=0x0000000000000001"
if grep -q 'PMSFCR_EL1    0x000000000002001f FE=1 FT=1 FL=1 FnE=1 FDS=1 TYPE=2' "$T/f.txt" &&
    grep -q '^  type filter: one of {LD}$' "$T/f.txt"; then ok stats/filters_echoed_text; else
    bad stats/filters_echoed_text "$(grep -m1 PMSFCR "$T/f.txt")"; fi
# v1 has neither FnE nor FDS: PMSNEVFR_EL1 and PMSDSFR_EL1 are absent, FnE is RES0.
if built v1; then
    printf 'spu-trace 2\ncfg v1\n@0\nw PMSFCR_EL1 0x2000f\n@1\nop\n' >"$T/v1.spt"
    $CSIM "$T/v1.spt" --quiet --stats-json "$T/v1.json" >/dev/null 2>&1
    if jget "$T/v1.json" setup.filters.PMSFCR_EL1.FL >/dev/null 2>&1 &&
        ! jget "$T/v1.json" setup.filters.PMSFCR_EL1.FnE >/dev/null 2>&1 &&
        ! jget "$T/v1.json" setup.filters.PMSDSFR_EL1 >/dev/null 2>&1; then ok stats/filters_of_the_configuration; else
        bad stats/filters_of_the_configuration "$(grep -A6 PMSFCR "$T/v1.json" | tr -d ' \n')"; fi
else
    skip stats/filters_of_the_configuration "the tree was built without v1"
fi
want stats/knobs_echoed "$T/f.json" "setup.knobs_given.CU_FE=1 setup.knobs.CU_FE=1 setup.knobs.CU_FT=0"
if grep -q '^knobs CU_FE=1 (--knob; v1p4: 0)$' "$T/f.txt"; then ok stats/knobs_echoed_text; else
    bad stats/knobs_echoed_text "$(grep -m1 '^knobs' "$T/f.txt")"; fi

# --perf-event: the period asked for, the one PMSIRR_EL1 holds, the rule.
printf 'spu-trace 2\nop*3000 type=LD fin=3\n' >"$T/ops.spt"
# period ARGS -- KEY=VALUE...: the run's setup.perf_event.
period() {
    local name=$1 args=$2
    $CSIM "$T/ops.spt" --quiet --stats --stats-json "$T/p.json" --perf-event $args >/dev/null 2>"$T/p.txt"
    want "stats/perf_event_period/$name" "$T/p.json" "$3"
}
period min "arm_spe_0// --period 100" "setup.perf_event.event=arm_spe_0// setup.perf_event.period_asked=100
    setup.perf_event.period_source=--period setup.perf_event.period_programmed=256"
if grep -q "^  period 100 asked for (--period), 256 programmed (PMSIRR_EL1.INTERVAL): below the driver's minimum period" "$T/p.txt"; then
    ok stats/perf_event_period_text
else
    bad stats/perf_event_period_text "$(grep -m1 period "$T/p.txt")"
fi
period low_bits "arm_spe_0/period=1000/" "setup.perf_event.period_asked=1000 setup.perf_event.period_programmed=768"
jget "$T/p.json" setup.perf_event.period_rule 2>&1 | grep -q 'low 8 bits' && ok stats/perf_event_period_rule ||
    bad stats/perf_event_period_rule "$(jget "$T/p.json" setup.perf_event.period_rule)"
period same "arm_spe_0/period=4096/" "setup.perf_event.period_programmed=4096 setup.perf_event.period_rule=null"
period default "arm_spe_0//" "setup.perf_event.period_asked=256 setup.perf_event.period_programmed=256"

# Under --perf-event the header shows the generator knobs that apply, not
# those of the register traffic the mode refuses.
$CSIM --seed 3 --ops 200000 --quiet --stats --perf-event 'arm_spe_0//' >/dev/null 2>"$T/g.txt"
$CSIM --seed 3 --ops 200000 --quiet --stats >/dev/null 2>"$T/h.txt"
if grep '^generator ' "$T/g.txt" | grep -q 'p_ld=' && ! grep '^generator ' "$T/g.txt" | grep -qE 'int_min=|p_small_buf=' &&
    grep '^generator ' "$T/h.txt" | grep -q 'int_min=.*p_small_buf='; then ok stats/perf_event_generator_knobs; else
    bad stats/perf_event_generator_knobs "$(grep '^generator' "$T/g.txt")"; fi
$CSIM --seed 3 --ops 1000 --perf-event 'arm_spe_0//' --gen p_small_buf=5 >/dev/null 2>"$T/e.txt"
rc=$?
if [ $rc -eq 2 ] && grep -q '^error: --gen p_small_buf: under --perf-event' "$T/e.txt"; then ok stats/perf_event_refuses_p_small_buf; else
    bad stats/perf_event_refuses_p_small_buf "exit $rc: $(head -1 "$T/e.txt")"; fi
t_end
