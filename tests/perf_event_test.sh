#!/usr/bin/env bash
# --perf-event (docs/perf-event.md): the register accesses csim emits for a
# set of event strings per configuration, against values worked out by hand
# from the driver's rules (the expected lines below are written here, not
# produced by the code under test); every EOPNOTSUPP rejection per
# configuration; parse and option errors; the stop sequence's PMSICR_EL1 read;
# csim and tb agree; lockstep runs with --perf-event sample, keep and reject
# on every configuration.
#   tests/perf_event_test.sh TMPDIR
set -uo pipefail
cd "$(dirname "$0")/.."
T=${1:-$(mktemp -d)}
B=${BUILD:-build}
CSIM=$B/spu-csim
TB=$B/spu-tb
CONFIGS=${CONFIGS:-$(${PYTHON:-python3} tools/gen_config.py --list "${CFG_SRC:-configs/spu.toml}")}
# shellcheck source=tests/lib.sh
. tests/lib.sh

# 100 members, one per cycle, no register access: the inner stimulus.
printf 'spu-trace 2\nop*100 type=LD fin=3\n' >"$T/ops.spt"

# seq NAME CFG 'EXPECTED LINES' EVENT [ARGS...]: the w/r lines and the
# context line of the emitted trace must be exactly EXPECTED.
seq() {
    local name=$1 cfg=$2 want=$3
    shift 3
    if ! $CSIM --config "$cfg" "$T/ops.spt" --perf-event "$@" --emit-trace "$T/e.spt" >"$T/e.spl" 2>"$T/err"; then
        bad "pev/seq/$name" "exit $?: $(head -1 "$T/err")"
        return
    fi
    grep -E '^(w|r|ctx) ' "$T/e.spt" >"$T/got"
    if diff -u <(printf '%s\n' "$want") "$T/got" >"$T/diff"; then ok "pev/seq/$name"; else bad "pev/seq/$name" "$(tr '\n' ' ' <"$T/diff" | cut -c1-400)"; fi
}

# The stop: PMSCR_EL1 = 0, the drain, PMBLIMITR_EL1 = 0; with a buffer
# PMBSR_EL1 (S clear here: nothing pending) and PMBPTR_EL1; PMSICR_EL1.
STOP='w PMSCR_EL1 0x0
w PMBLIMITR_EL1 0x0
r PMBSR_EL1
r PMBPTR_EL1
r PMSICR_EL1'
STOP_DISCARD='w PMSCR_EL1 0x0
w PMBLIMITR_EL1 0x0
r PMSICR_EL1'

# v1: no FnE, FDS (no PMSNEVFR/PMSDSFR write). PMSFCR: LD (bit 17) | FL | FT | FE.
# Default buffer 4 MiB at 0xffff800080000000, limit at perf's wakeup (half).
# Default period: caps/min_interval = 256 (PMSIDR_EL1.Interval 0): INTERVAL 0x100 | RND.
V1A='ctx allow=1
w PMBPTR_EL1 0xffff800080000000
w PMBLIMITR_EL1 0xffff800080200001
w PMSFCR_EL1 0x20007
w PMSEVFR_EL1 0x2
w PMSLATFR_EL1 0x14
w PMSIRR_EL1 0x101
w PMSICR_EL1 0x100
w PMSCR_EL1 0x3'"
$STOP"
for cfg in v1 v1-alt; do
    seq "$cfg/load_lat_jitter_event" $cfg "$V1A" 'arm_spe_0/load_filter=1,min_latency=20,jitter=1,event_filter=0x2/'
done
# v1p4-class: PMSNEVFR_EL1 = inv_event_filter (0) and PMSDSFR_EL1 = NOT inv_data_src_filter.
for cfg in v1p4 wide wide-alt; do
    seq "$cfg/load_lat_jitter_event" $cfg 'ctx allow=1
w PMBPTR_EL1 0xffff800080000000
w PMBLIMITR_EL1 0xffff800080200001
w PMSFCR_EL1 0x20007
w PMSEVFR_EL1 0x2
w PMSNEVFR_EL1 0x0
w PMSDSFR_EL1 0xffffffffffffffff
w PMSLATFR_EL1 0x14
w PMSIRR_EL1 0x101
w PMSICR_EL1 0x100
w PMSCR_EL1 0x3'"
$STOP" 'arm_spe_0/load_filter=1,min_latency=20,jitter=1,event_filter=0x2/'
done
# Every EFT field, FnE, FDS, the PMSCR_EL1 bits, a period, :k and a buffer:
# PMSFCR = B(16)|ST(18)|SIMD(20) = 0x150000, STm(50)|FPm(51) = 0xC000000000000,
# FT(1)|FnE(3)|FDS(4) = 0x1A. PMSIRR = 20000 & ~0xFF = 0x4E00, PMSICR = 20000.
# PMSCR = PCT(6)|TS(5)|PA(4)|E1SPE(1) = 0x72 (no E0SPE: :k); the run starts at EL1.
# Limit: 0x8000 bytes, wakeup at half: 0x10000000 + 0x4000 | E.
seq v1p4/all_fields_k v1p4 'ctx el=1 allow=1
w PMBPTR_EL1 0x10000000
w PMBLIMITR_EL1 0x10004001
w PMSFCR_EL1 0xc00000015001a
w PMSEVFR_EL1 0x0
w PMSNEVFR_EL1 0x80
w PMSDSFR_EL1 0xffffffffffffff00
w PMSLATFR_EL1 0x0
w PMSIRR_EL1 0x4e00
w PMSICR_EL1 0x4e20
w PMSCR_EL1 0x72'"
$STOP" 'arm_spe_0/ts_enable=1,pa_enable=1,pct_enable=1,branch_filter=1,store_filter=1,store_filter_mask=1,simd_filter=1,float_filter_mask=1,inv_event_filter=0x80,inv_data_src_filter=0xff,period=20000/k' \
    --buffer 0x10000000,0x8000
# Discard: only PMBLIMITR_EL1 = FM 0b10 | E = 0x5; the period above the
# largest INTERVAL clamps to 0xFFFFFF00, PMSICR gets it as given; :u = E0SPE.
seq wide/discard_u_big_period wide 'ctx allow=1
w PMBLIMITR_EL1 0x5
w PMSFCR_EL1 0x0
w PMSEVFR_EL1 0x0
w PMSNEVFR_EL1 0x0
w PMSDSFR_EL1 0xffffffffffffffff
w PMSLATFR_EL1 0x0
w PMSIRR_EL1 0xffffff00
w PMSICR_EL1 0x123456789
w PMSCR_EL1 0x1'"
$STOP_DISCARD" 'arm_spe/discard,period=0x123456789/:u'
# A period below 256 clamps to INTERVAL 1; --period is perf's -c.
# event_filter bit 11 (alignment, FEAT_SPEv1p1): FE only.
seq wide-alt/short_period wide-alt 'ctx allow=1
w PMBPTR_EL1 0xffff800080000000
w PMBLIMITR_EL1 0xffff800080200001
w PMSFCR_EL1 0x1
w PMSEVFR_EL1 0x800
w PMSNEVFR_EL1 0x0
w PMSDSFR_EL1 0xffffffffffffffff
w PMSLATFR_EL1 0x0
w PMSIRR_EL1 0x100
w PMSICR_EL1 0x64'"
w PMSCR_EL1 0x3
$STOP" 'arm_spe_0/event_filter=0x800/' --period 100
# v1: the type filter alone; uk is both ELs.
seq v1/branch_store_uk v1 'ctx allow=1
w PMBPTR_EL1 0xffff800080000000
w PMBLIMITR_EL1 0xffff800080200001
w PMSFCR_EL1 0x50002
w PMSEVFR_EL1 0x0
w PMSLATFR_EL1 0x0
w PMSIRR_EL1 0x200
w PMSICR_EL1 0x2ff'"
w PMSCR_EL1 0x3
$STOP" 'arm_spe_0/branch_filter=1,store_filter=1/uk' --period 767

# The stop sequence's reads: PMBSR_EL1 0 (no fault), PMBPTR_EL1 where the
# data ends (no record: the base), PMSICR_EL1 = 0x100 written, 100 members
# counted while enabled (no selection), 256 - 100 = 156 = 0x9c left.
for cfg in $CONFIGS; do
    $CSIM --config $cfg "$T/ops.spt" --perf-event 'arm_spe_0//' >"$T/r.spl" 2>"$T/err"
    got=$(awk '$2 == "read" {printf "%s=%s ", $3, $4}' "$T/r.spl")
    if [ "$got" = "PMBSR_EL1=0x0000000000000000 PMBPTR_EL1=0xffff800080000000 PMSICR_EL1=0x000000000000009c " ]; then
        ok "pev/stop_reads/$cfg"
    else
        bad "pev/stop_reads/$cfg" "$got $(head -1 "$T/err")"
    fi
done
# With selections: period 50 (INTERVAL 1, COUNT 50): members 50 and then
# every 257th are sampled, each record finishes 3 cycles later; the last
# record comes before PMBLIMITR_EL1 = 0 (the cycle before the first read).
$CSIM --config v1p4 "$T/ops.spt" --perf-event 'arm_spe_0/period=50/' >"$T/r.spl"
rd=$(awk '$2 == "read" {print $1; exit}' "$T/r.spl")
lastrec=$(awk '$2 == "record" {c = $1} END {print c}' "$T/r.spl")
if [ "$(grep -c ' sample ' "$T/r.spl")" = 1 ] && [ -n "$lastrec" ] && [ "$lastrec" -lt $((rd - 1)) ]; then
    ok pev/drain_before_limit_write
else
    bad pev/drain_before_limit_write "read at $rd, last record at $lastrec"
fi

# EOPNOTSUPP, per configuration: NAME|CONFIGS|EVENT|message
while IFS='|' read -r name cfgs ev want; do
    for cfg in $cfgs; do
        $CSIM --config $cfg "$T/ops.spt" --perf-event "$ev" >/dev/null 2>"$T/err"
        rc=$?
        if [ $rc -eq 2 ] && grep -qF -- "error: --perf-event: $want (configuration $cfg)" "$T/err"; then
            ok "pev/eopnotsupp/$name/$cfg"
        else
            bad "pev/eopnotsupp/$name/$cfg" "exit $rc: $(head -1 "$T/err")"
        fi
    done
done <<'EOT'
discard|v1 v1-alt|arm_spe_0/discard=1/|discard=0x1: EOPNOTSUPP: discard mode needs FEAT_SPEv1p2
fne|v1 v1-alt|arm_spe_0/inv_event_filter=0x2/|inv_event_filter=0x2: EOPNOTSUPP: PMSFCR_EL1.FnE needs PMSIDR_EL1.FnE
fds|v1 v1-alt|arm_spe_0/inv_data_src_filter=0x1/|inv_data_src_filter=0x1: EOPNOTSUPP: data-source filtering needs PMSIDR_EL1.FDS
eft_branch_mask|v1 v1-alt|arm_spe_0/branch_filter_mask=1/|branch_filter_mask=0x1: EOPNOTSUPP: the masks and the SIMD and FP filters need PMSIDR_EL1.EFT
eft_load_mask|v1 v1-alt|arm_spe_0/load_filter_mask=1/|load_filter_mask=0x1: EOPNOTSUPP: the masks and the SIMD and FP filters need PMSIDR_EL1.EFT
eft_store_mask|v1 v1-alt|arm_spe_0/store_filter_mask=1/|store_filter_mask=0x1: EOPNOTSUPP: the masks and the SIMD and FP filters need PMSIDR_EL1.EFT
eft_simd|v1 v1-alt|arm_spe_0/simd_filter=1/|simd_filter=0x1: EOPNOTSUPP: the masks and the SIMD and FP filters need PMSIDR_EL1.EFT
eft_simd_mask|v1 v1-alt|arm_spe_0/simd_filter_mask=1/|simd_filter_mask=0x1: EOPNOTSUPP: the masks and the SIMD and FP filters need PMSIDR_EL1.EFT
eft_float|v1 v1-alt|arm_spe_0/float_filter=1/|float_filter=0x1: EOPNOTSUPP: the masks and the SIMD and FP filters need PMSIDR_EL1.EFT
eft_float_mask|v1 v1-alt|arm_spe_0/float_filter_mask=1/|float_filter_mask=0x1: EOPNOTSUPP: the masks and the SIMD and FP filters need PMSIDR_EL1.EFT
evfr_bit0|v1 v1-alt v1p4 wide wide-alt|arm_spe_0/event_filter=0x1/|event_filter=0x1: EOPNOTSUPP: bits 0x1 of PMSEVFR_EL1 read back as zero after writing all ones
evfr_v1_bit2|v1 v1-alt|arm_spe_0/event_filter=0x6/|event_filter=0x6: EOPNOTSUPP: bits 0x4 of PMSEVFR_EL1 read back as zero after writing all ones
evfr_bit16|v1p4 wide wide-alt|arm_spe_0/event_filter=0x10002/|event_filter=0x10002: EOPNOTSUPP: bits 0x10000 of PMSEVFR_EL1 read back as zero after writing all ones
nevfr_bit63|v1p4 wide|arm_spe_0/inv_event_filter=0x8000000000000000/|inv_event_filter=0x8000000000000000: EOPNOTSUPP: bits 0x8000000000000000 of PMSEVFR_EL1 read back as zero after writing all ones
nevfr_bit40|wide-alt|arm_spe_0/inv_event_filter=0x10000000000/|inv_event_filter=0x10000000000: EOPNOTSUPP: bits 0x10000000000 of PMSEVFR_EL1 read back as zero after writing all ones
nevfr_probe_first|v1 v1-alt|arm_spe_0/inv_event_filter=0x1/|inv_event_filter=0x1: EOPNOTSUPP: bits 0x1 of PMSEVFR_EL1 read back as zero after writing all ones
EOT
# ... and what v1p4-class configurations do support is accepted.
for cfg in v1p4 wide wide-alt; do
    if $CSIM --config $cfg "$T/ops.spt" --quiet --perf-event 'arm_spe_0/discard=1,inv_event_filter=0x2,inv_data_src_filter=1,branch_filter_mask=1,load_filter_mask=1,store_filter_mask=1,simd_filter=1,simd_filter_mask=1,float_filter=1,float_filter_mask=1,event_filter=0xFEFFFE/' 2>"$T/err"; then
        ok "pev/supported/$cfg"
    else
        bad "pev/supported/$cfg" "$(head -1 "$T/err")"
    fi
done

# Parse and option errors: exit 2 with the message.
printf 'spu-trace 2\nw PMSCR_EL1 0x3\nop\n' >"$T/w.spt"
printf 'spu-trace 2\nop\n@5\nreset\n' >"$T/reset.spt"
while IFS='|' read -r args want; do
    # shellcheck disable=SC2086
    eval "$CSIM --config v1p4 $args" >/dev/null 2>"$T/err"
    rc=$?
    if [ $rc -eq 2 ] && grep -qF -- "$want" "$T/err"; then ok "pev/error/$args"; else bad "pev/error/$args" "exit $rc: $(head -1 "$T/err")"; fi
done <<EOT
$T/ops.spt --perf-event 'arm_spe_0/foo=1/'|error: --perf-event: unknown term 'foo' of arm_spe (format fields: ts_enable
$T/ops.spt --perf-event 'arm_spe_0/min_latency=4096/'|error: --perf-event: min_latency=4096 out of range: the field is config2:0-11, at most 4095
$T/ops.spt --perf-event 'arm_spe_0/load_filter=2/'|error: --perf-event: load_filter=2 out of range: the field is config:33, at most 1
$T/ops.spt --perf-event 'arm_spe_0/event_filter=0x10000000000000000/'|error: --perf-event: event_filter: '0x10000000000000000' is not a number
$T/ops.spt --perf-event 'arm_spe_0/load_filter=yes/'|error: --perf-event: load_filter: 'yes' is not a number
$T/ops.spt --perf-event 'arm_spe_0/load_filter=1'|error: --perf-event: 'arm_spe_0/load_filter=1': expected PMU/term=value,.../
$T/ops.spt --perf-event 'arm_spe_0'|expected PMU/term=value,.../
$T/ops.spt --perf-event 'cs_etm/load_filter=1/'|error: --perf-event: unknown PMU 'cs_etm'
$T/ops.spt --perf-event 'arm_spe_0/=1/'|error: --perf-event: empty term name
$T/ops.spt --perf-event 'arm_spe_0/jitter,jitter/'|error: --perf-event: term 'jitter' given twice
$T/ops.spt --perf-event 'arm_spe_0/period=1,period=2/'|error: --perf-event: term 'period' given twice
$T/ops.spt --perf-event 'arm_spe_0/freq=4000/'|error: --perf-event: freq: the arm_spe driver rejects frequency mode
$T/ops.spt --perf-event 'arm_spe_0//h'|error: --perf-event: modifier 'h' is not supported
$T/ops.spt --perf-event 'arm_spe_0//uu'|error: --perf-event: modifier 'u' given twice
$T/ops.spt --perf-event 'arm_spe_0/period=0x8000000000000000/'|out of range: perf_event_open rejects a sample period with bit 63 set
$T/ops.spt --perf-event 'arm_spe_0/period=5/' --period 6|error: --period 6: the event's period=5 term is also given
$T/ops.spt --perf-event 'arm_spe_0//' --period 0x8000000000000000|error: --period 9223372036854775808: perf_event_open rejects
--seed 1 --ops 10 --perf-event 'arm_spe_0//' --gen pop_density=50,reset_gap=9|error: --gen reset_gap: under --perf-event the driver programs the unit
$T/ops.spt --period 5|error: --period: it is the sample period of --perf-event, which is not given
$T/ops.spt --buffer 0x1000,0x2000|error: --buffer: it is the Profiling Buffer of --perf-event, which is not given
$T/ops.spt --perf-event 'arm_spe_0//' --perf-event 'arm_spe_0//'|error: --perf-event given twice
$T/ops.spt --perf-event 'arm_spe_0//' --buffer 0x1800,0x2000|error: --buffer 0x1800,0x2000: BASE must be aligned to a 4 KB page
$T/ops.spt --perf-event 'arm_spe_0//' --buffer 0x1000,0x3000|error: --buffer 0x1000,0x3000: SIZE must be a power-of-two number of 4 KB pages, at least 2
$T/ops.spt --perf-event 'arm_spe_0//' --buffer 0x1000,0x1000|SIZE must be a power-of-two number of 4 KB pages, at least 2
$T/ops.spt --perf-event 'arm_spe_0//' --buffer 0xfffffffffffff000,0x2000|error: --buffer 0xfffffffffffff000,0x2000: BASE + SIZE wraps past 2^64
$T/ops.spt --perf-event 'arm_spe_0//' --buffer 4096|error: --buffer '4096': expected BASE,SIZE
$T/ops.spt --perf-event 'arm_spe_0/discard=1/' --buffer 0x1000,0x2000|error: --buffer: the event has discard=1, which writes no Profiling Buffer
$T/w.spt --perf-event 'arm_spe_0//'|error: --perf-event: the trace $T/w.spt writes PMSCR_EL1 in cycle 0
$T/reset.spt --perf-event 'arm_spe_0//'|error: --perf-event: the trace $T/reset.spt resets the unit in cycle 5
EOT

# The generator under --perf-event makes no register access and no reset:
# the emitted trace holds exactly the driver's 8 + 5 accesses (v1; the 4 MiB
# buffer does not fill), and it replays to the same log; skipping ahead
# changes nothing.
EV='arm_spe_0/load_filter=1,min_latency=20,jitter=1,event_filter=0x2/'
$CSIM --config v1 --seed 4 --ops 300000 --perf-event "$EV" --emit-trace "$T/g.spt" >"$T/g.spl"
$CSIM "$T/g.spt" >"$T/g2.spl"
if [ "$(grep -cE '^(w|r) ' "$T/g.spt")" = 13 ] && ! grep -q '^reset' "$T/g.spt" && cmp -s "$T/g.spl" "$T/g2.spl" &&
    grep -q ' sample ' "$T/g.spl"; then
    ok pev/generator_no_register_traffic
else
    bad pev/generator_no_register_traffic "$(grep -cE '^(w|r) ' "$T/g.spt") accesses"
fi
for cfg in v1p4 wide-alt; do
    $CSIM --config $cfg --seed 5 --ops 400000 --perf-event "$EV" >"$T/a.spl"
    $CSIM --config $cfg --seed 5 --ops 400000 --perf-event "$EV" --no-skip >"$T/b.spl"
    if cmp -s "$T/a.spl" "$T/b.spl" && grep -q ' record ' "$T/a.spl"; then ok "pev/skip_equals_step/$cfg"; else bad "pev/skip_equals_step/$cfg"; fi
    # ... and with the interrupt handler: skipping ahead stops at its cycle
    $CSIM --config $cfg --seed 5 --ops 400000 --perf-event 'arm_spe_0/period=300/' --buffer 0x10000000,0x2000 >"$T/a.spl"
    $CSIM --config $cfg --seed 5 --ops 400000 --perf-event 'arm_spe_0/period=300/' --buffer 0x10000000,0x2000 --no-skip >"$T/b.spl"
    if cmp -s "$T/a.spl" "$T/b.spl" && [ "$(grep -c ' read PMBSR_EL1 ' "$T/a.spl")" = 3 ]; then
        ok "pev/skip_equals_step_with_interrupts/$cfg"
    else
        bad "pev/skip_equals_step_with_interrupts/$cfg" "$(grep -c ' read PMBSR_EL1 ' "$T/a.spl") PMBSR_EL1 reads"
    fi
done

# The buffer-full interrupt (docs/perf-event.md). Two pages at 0x10000000:
# the first limit is perf's wakeup point, 0x1000. Every record of a load
# without attributes is 23 bytes on v1p4 (latencies 3 + 3, PC 9, Op Type 2,
# Events 5, End 1: docs/records.md), and the unit stops after the record that
# leaves less than 1 << MaxSize = 128 bytes below the limit: 173 records
# (23 * 173 = 3979 > 0x1000 - 128). The handler reads PMBSR_EL1 = S | BSC 1
# and PMBPTR_EL1 = base + 3979, pads the 117 bytes left (< 128) up to 0x1000,
# re-arms at 0x1000 with the limit at the area's end; 173 records later
# (0x1000 + 3979) nothing is left: PMBPTR_EL1 = PMBLIMITR_EL1 = base, E = 0.
printf 'spu-trace 2\nop*100000 type=LD fin=3\n' >"$T/ops100k.spt"
R=23 N=173
P1=$((0x10000000 + R * N)) P2=$((0x10001000 + R * N))
WANT_IRQ="r PMBSR_EL1
r PMBPTR_EL1
w PMBPTR_EL1 0x10001000
w PMBLIMITR_EL1 0x10002001
w PMBSR_EL1 0x0
r PMBSR_EL1
r PMBPTR_EL1
w PMBPTR_EL1 0x10000000
w PMBLIMITR_EL1 0x10000000
w PMBSR_EL1 0x0
$STOP"
WANT_READS=$(printf 'PMBSR_EL1=0x%016x PMBPTR_EL1=0x%016x PMBSR_EL1=0x%016x PMBPTR_EL1=0x%016x PMBSR_EL1=0x%016x PMBPTR_EL1=0x%016x ' \
    $((0x20001)) $P1 $((0x20001)) $P2 0 $((0x10000000)))
$CSIM --config v1p4 "$T/ops100k.spt" --perf-event 'arm_spe_0//' --buffer 0x10000000,0x2000 --emit-trace "$T/i.spt" \
    --rec-bin "$T/i.rec" --mem-bin "$T/i.mem" --stats-json "$T/i.json" >"$T/i.spl" 2>"$T/i.err"
got=$(grep -E '^(w|r) ' "$T/i.spt" | tail -15)
reads=$(awk '$2 == "read" && $3 != "PMSICR_EL1" {printf "%s=%s ", $3, $4}' "$T/i.spl")
if [ "$got" = "$WANT_IRQ" ] && [ "$reads" = "$WANT_READS" ] &&
    [ "$(jget "$T/i.json" records.written driver.buffer_full_interrupts driver.interrupts_with_collision \
        driver.interrupts_with_no_room_left | tr '\n' ' ')" = "$((2 * N)) 2 0 1 " ]; then
    ok pev/irq_rearm_and_truncate
else
    bad pev/irq_rearm_and_truncate "$(echo "$got" | tr '\n' ' ' | cut -c1-200) | $reads"
fi
# The memory holds the records back to back, with the driver's padding (the
# 117 bytes below 0x1000 stay zero: PAD packets) between the two halves.
if [ "$(stat -c %s "$T/i.rec")" = $((2 * R * N)) ] &&
    cmp -s "$T/i.mem" <({ head -c $((R * N)) "$T/i.rec"; head -c $((0x1000 - R * N)) /dev/zero; tail -c +$((R * N + 1)) "$T/i.rec"; }); then
    ok pev/irq_memory_is_records_and_padding
else
    bad pev/irq_memory_is_records_and_padding "$(stat -c %s "$T/i.rec" "$T/i.mem" | tr '\n' ' ')"
fi

[ -x "$TB" ] || { bad pev/tb_built "missing $TB"; exit 0; }
# The handler in lockstep: the same accesses and log from the DUT.
$TB --config v1p4 "$T/ops100k.spt" --perf-event 'arm_spe_0//' --buffer 0x10000000,0x2000 --expect-vacuous \
    --no-progress --log "$T/it.spl" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && cmp -s "$T/i.spl" "$T/it.spl"; then ok pev/irq_tb_equals_csim; else bad pev/irq_tb_equals_csim "exit $rc $(tail -1 "$T/err")"; fi
# tb and csim log the same for the same trace and event (the start sequence
# goes through the register port in lockstep).
printf 'spu-trace 2\nop*3000 type=LD fin=30\n@+1\nop*3000 type=ST fin=5 ev=0x2\n' >"$T/ls.spt"
for cfg in v1 wide; do
    built $cfg || { skip "pev/tb_equals_csim/$cfg" "$cfg is not built in this tree"; continue; }
    $CSIM --config $cfg "$T/ls.spt" --perf-event 'arm_spe_0/min_latency=20,period=300/' >"$T/c.spl"
    $TB --config $cfg "$T/ls.spt" --perf-event 'arm_spe_0/min_latency=20,period=300/' --no-progress --log "$T/t.spl" 2>"$T/err"
    rc=$?
    if [ $rc -eq 0 ] && cmp -s "$T/c.spl" "$T/t.spl" && grep -q 'keep=1' "$T/c.spl" && grep -q 'keep=0' "$T/c.spl"; then
        ok "pev/tb_equals_csim/$cfg"
    else
        bad "pev/tb_equals_csim/$cfg" "exit $rc $(tail -1 "$T/err")"
    fi
done
# Lockstep with the generator on every configuration: tb fails a run that
# does not sample, keep and reject, and the numbers are checked here too.
for cfg in $CONFIGS; do
    $TB --config $cfg --seed 7 --cycles 200000 --quiet --no-progress --perf-event 'arm_spe_0/min_latency=20/u' 2>"$T/err"
    rc=$?
    line=$(grep -E '^(PASS|FAIL) config' "$T/err")
    if [ $rc -eq 0 ] && echo "$line" | grep -qE ' [1-9][0-9]* samples, .*records kept [1-9][0-9]* rejected [1-9]'; then
        ok "pev/lockstep/$cfg"
    else
        bad "pev/lockstep/$cfg" "exit $rc: $line $(tail -1 "$T/err")"
    fi
done
t_end
