#!/usr/bin/env bash
# --report FILE.html of spu-csim and spu-tb (issue 28 item 9): one
# self-contained page (no script, no URL), its plots there with bars and
# their figures right, spu-tb's counted as spu-csim's, a failure's first
# difference drawn as a waveform, text escaped, bad options refused; and in
# tier full, the pages rendered by headless Chromium and their screenshots
# checked for the plots' pixels. Planted faults (a plot emptied, a URL
# added) must make the checks fail.
#   tests/report_test.sh TMPDIR
set -uo pipefail
cd "$(dirname "$0")/.."
T=${1:-$(mktemp -d)}
B=${BUILD:-build}
PY=${PYTHON:-python3}
CSIM=$B/spu-csim
TB=$B/spu-tb
CHK="$PY tests/report_check.py"
# shellcheck source=tests/lib.sh
. tests/lib.sh
T_PREFIX=report/
ALL="intervals_log2 intervals_linear latency filters op_types packets"

# page NAME FILE [PLOT...]: the page passes the structure check.
page() {
    local name=$1 file=$2 out
    shift 2
    if out=$($CHK html "$file" "$@" 2>&1); then ok "$name"; else bad "$name" "$(echo "$out" | head -3 | tr '\n' ' ')"; fi
}
# has NAME FILE PLOT 'BAR'...: the plot has each bar ("label: count").
has() {
    local name=$1 file=$2 plot=$3 b miss="" got
    shift 3
    got=$($CHK bars "$file" "$plot" 2>&1)
    for b in "$@"; do grep -qxF "$b" <<<"$got" || miss+=" '$b'"; done
    if [ -z "$miss" ]; then ok "$name"; else bad "$name" "$plot lacks$miss; has: $(echo "$got" | head -8 | tr '\n' ' ')"; fi
}

if out=$($CHK selftest "$T" 2>&1); then ok png_reader_selftest; else bad png_reader_selftest "$out"; fi

# A generated run that selects, keeps and rejects: every plot has bars.
G="--seed 5 --gen int_min=1,int_max=2,p_long=30,ev_density=300"
$CSIM $G --ops 300000 --quiet --emit-trace "$T/g.spt" --report "$T/csim.html"
page csim_page "$T/csim.html"

# spu-tb counts what spu-csim counts, in the fast loop and the reference one.
$TB "$T/g.spt" --quiet --no-progress --report "$T/tb.html" 2>"$T/tb.err"
$TB "$T/g.spt" --quiet --no-progress --reference --report "$T/tbref.html" 2>/dev/null
$CSIM "$T/g.spt" --quiet --report "$T/csimtr.html"
page tb_pass_page "$T/tb.html"
same=""
for p in $ALL; do
    a=$($CHK bars "$T/csimtr.html" "$p"); b=$($CHK bars "$T/tb.html" "$p"); c=$($CHK bars "$T/tbref.html" "$p")
    [ -n "$a" ] && [ "$a" = "$b" ] && [ "$b" = "$c" ] || same+=" $p"
done
if [ -z "$same" ]; then ok tb_plots_equal_csim; else bad tb_plots_equal_csim "plots that differ:$same"; fi
n=$(sed -nE 's/^PASS config [^:]*: ([0-9]+) cycles compared.*/\1/p' "$T/tb.err")
if grep -q '<p class="pass">PASS</p>' "$T/tb.html" && grep -q "<tr><td>cycles checked</td><td class=\"num\">$n</td>" "$T/tb.html" &&
   grep -q '<tr><td>differences</td><td class="num">0</td>' "$T/tb.html" && ! grep -q 'data-plot="waveform"' "$T/tb.html"; then
    ok tb_pass_checked_cycles
else
    bad tb_pass_checked_cycles "no PASS, $n cycles checked and 0 differences, or a waveform on a pass"
fi

# A failing run (a difference planted with --inject): the first difference,
# its signal's waveform, DUT and model apart only in the failing cycle.
$TB --seed 1 --cycles 200000 --quiet --no-progress --inject smp_valid_o@150000 --fail-dir "$T/fail" \
    --report "$T/tbfail.html" 2>/dev/null
page tb_fail_page "$T/tbfail.html" $ALL waveform
if grep -q '<h2>First difference, at cycle 150000</h2>' "$T/tbfail.html" &&
   grep -q '<tr><td>smp_valid_o</td><td>0x0</td><td>0x1</td></tr>' "$T/tbfail.html" &&
   grep -q '<tr><td>differences</td><td class="num">1</td>' "$T/tbfail.html"; then
    ok tb_fail_first_difference
else
    bad tb_fail_first_difference "no 'First difference, at cycle 150000' with smp_valid_o 0x0 / 0x1"
fi
has tb_fail_waveform "$T/tbfail.html" waveform "smp_valid_o DUT cycle 150000: 0x0" "smp_valid_o model cycle 150000: 0x1" \
    "smp_valid_o DUT cycle 149969: 0x0"
if grep -q 'fill="#e8000b"><title>smp_valid_o model cycle 150000' "$T/tbfail.html"; then ok tb_fail_cycle_red; else
    bad tb_fail_cycle_red "the failing cycle's segment is not drawn red"; fi

# The figures of tests/stats/filters.spt (worked out in its comment;
# tests/stats_test.sh checks the same in --stats-json).
$CSIM tests/stats/filters.spt --quiet --knob CU_FE=1 --report "$T/f.html"
has filters_figures "$T/f.html" filters "type: 1" "type: 2" "lat: 1" "lat: 2" "nev: 1" "ds: 1"
has op_type_figures "$T/f.html" op_types "LD: 1" "LD: 4" "ST: 1" "LD+FP: 1"
has latency_figures "$T/f.html" latency "4-5: 2" "20-21: 5" "30-31: 1"
if grep -q '<line class="mark"' "$T/f.html" && grep -q '>MINLAT 10</text>' "$T/f.html"; then ok latency_minlat_marked; else
    bad latency_minlat_marked "no MINLAT 10 line in the latency plot"; fi
if grep -qE '<td>PMSLATFR_EL1</td><td>0x000000000000000a</td><td>MINLAT=10[ <]' "$T/f.html"; then ok registers_decoded; else
    bad registers_decoded "no PMSLATFR_EL1 0x...0a MINLAT=10 row"; fi

# Every text is escaped: a trace whose name has markup in it.
odd="$T/a<b>&'\"c.spt"
cp tests/stats/filters.spt "$odd"
$CSIM "$odd" --quiet --report "$T/odd.html"
if ! grep -qF "<b>" "$T/odd.html" && grep -qF "a&lt;b&gt;&amp;&#39;&quot;c.spt" "$T/odd.html"; then
    page escaped "$T/odd.html"
else
    bad escaped "the trace's name went into the page unescaped"
fi

# Planted faults the structure check must catch.
plant() { # NAME EXPECTED PYTHON-EDIT
    $PY -c "import re,sys; s=open(sys.argv[1]).read(); $3; open(sys.argv[2],'w').write(s)" "$T/csim.html" "$T/$1.html"
    if out=$($CHK html "$T/$1.html" 2>&1); then bad "planted_$1_fails" "the check passed"
    elif grep -qF "$2" <<<"$out"; then ok "planted_$1_fails"; else bad "planted_$1_fails" "$out"; fi
}
plant empty_plot "plot 'latency' has no bars" \
    "s=re.sub(r'(<svg[^>]*data-plot=\"latency\".*?</svg>)', lambda m: re.sub(r'<rect class=\"bar\".*?</rect>', '', m.group(1), flags=re.S), s, flags=re.S)"
plant url "'http'" "s=s.replace('</body>', '<img alt=\"\" src=\"https://example.org/x.png\"></body>')"
plant script "'<script'" "s=s.replace('</body>', '<script>1</script></body>')"

# Bad options: named, exit 2, nothing written.
bad_opt() { # NAME EXPECTED-MESSAGE CMD...
    local name=$1 want=$2 rc
    shift 2
    "$@" >"$T/bo.out" 2>"$T/bo.err"; rc=$?
    if [ $rc -eq 2 ] && grep -qF "$want" "$T/bo.err"; then ok "$name"; else bad "$name" "exit $rc: $(head -2 "$T/bo.err")"; fi
}
bad_opt refuses_unwritable "error: cannot write --report '$T/no/x.html'" $CSIM --ops 1000 --quiet --report "$T/no/x.html"
bad_opt refuses_stdout_twice "error: --report -: stdout already carries the .spl log" $CSIM --ops 1000 --report -
bad_opt refuses_dut_only "error: --report: --dut-only runs no model" $TB --cycles 1000 --dut-only --report "$T/x.html"
bad_opt tb_refuses_unwritable "error: cannot write --report '$T'" $TB --cycles 1000 --report "$T"
$CSIM --ops 100000 --quiet --report - >"$T/stdout.html"
page stdout_dash "$T/stdout.html" intervals_log2 packets

# The browser: headless Chromium renders each page; its screenshot is not
# blank and has every plot's colours (tests/report_check.py png).
shot() { # NAME PAGE [EXPECTED-FAILURE]
    local name=$1 html=$2 want=${3:-} out
    rm -f "$T/$name.png"
    timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-color-profile=srgb --screenshot="$T/$name.png" \
        --window-size=1200,3000 "file://$(realpath "$html")" >"$T/$name.log" 2>&1
    [ -s "$T/$name.png" ] || { bad "$name" "no screenshot: $(tail -2 "$T/$name.log" | tr '\n' ' ')"; return; }
    out=$($CHK png "$T/$name.png" "$html" 2>&1)
    if [ -z "$want" ]; then
        if [ -z "$out" ]; then ok "$name"; else bad "$name" "$out"; fi
    elif grep -qF "$want" <<<"$out"; then ok "$name"; else bad "$name" "want '$want', got: ${out:-a pass}"; fi
}
if [ "${TIER:-full}" != full ]; then
    skip browser "the screenshots run in tier full (make test-full, which installs chromium)"
elif ! command -v chromium >/dev/null; then
    skip browser "chromium is not installed (Debian's chromium: tools/deps.sh --install chromium)"
else
    shot browser_csim "$T/csim.html"
    shot browser_tb_fail "$T/tbfail.html"
    shot browser_planted_empty_plot_fails "$T/empty_plot.html" "plot 'latency'"
fi
t_end
