#!/usr/bin/env bash
# .spt format version 2 (docs/formats.md): `op*N` and `@+K` mean exactly the
# version 1 lines they stand for, and the writer's compact form replays to
# the same log. A small awk expander (a second reading of the rules) turns
# each version 2 trace below into version 1; both must give byte-identical
# logs in csim (skipping and stepping) and in tb. Prints PASS/FAIL lines.
#   tests/spt2_test.sh [SCRATCH_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
TMP=${1:-$(mktemp -d)}
[ $# -ge 1 ] || trap 'rm -rf "$TMP"' EXIT
B=${BUILD:-build}
CSIM=$B/spu-csim
TB=$B/spu-tb

# shellcheck source=tests/lib.sh
. tests/lib.sh

# Version 2 -> version 1: `@+K` becomes `@cur+K`; `op*N KEYS` becomes
# `op KEYS` in the current cycle and in each of the next N-1 cycles.
# (Decimal numbers only; comments dropped.)
expand() {
    awk 'NR == 1 { print "spu-trace 1"; next }
         { sub(/#.*/, ""); if (NF == 0) next }
         $1 ~ /^@\+/ { cur += substr($1, 3) + 0; print "@" cur; next }
         $1 ~ /^@/   { cur = substr($1, 2) + 0; print; next }
         $1 ~ /^op\*/ {
             n = substr($1, 4) + 0; $1 = "op"
             for (i = 0; i < n; i++) { if (i) print "@" cur + i; print }
             cur += n - 1; next }
         { print }' "$1"
}

# same NAME CFG: TMP/NAME.spt (version 2) and its expansion log alike.
same() {
    local name=$1 cfg=$2 f=$TMP/$1
    expand "$f.spt" >"$f.v1.spt"
    "$CSIM" --config "$cfg" "$f.spt" >"$f.a.spl" 2>"$f.e" || { bad "spt2/$name" "csim: $(head -1 "$f.e")"; return; }
    "$CSIM" --config "$cfg" "$f.spt" --no-skip >"$f.b.spl" 2>/dev/null
    "$CSIM" --config "$cfg" "$f.v1.spt" >"$f.c.spl" 2>/dev/null
    local x xs="b c d"
    if built "$cfg"; then
        "$TB" --config "$cfg" "$f.spt" --no-progress --expect-vacuous >"$f.d.spl" 2>/dev/null
    else
        xs="b c"
        skip "spt2/$name/tb" "$cfg is not built in this tree: csim only"
    fi
    if ! grep -q ' sample ' "$f.a.spl"; then bad "spt2/$name" "nothing sampled: the case tests too little"; return; fi
    for x in $xs; do
        if ! cmp -s "$f.a.spl" "$f.$x.spl"; then bad "spt2/$name" "log $x differs: $(diff "$f.a.spl" "$f.$x.spl" | head -3 | tr '\n' ' ')"; return; fi
    done
    ok "spt2/$name ($(grep -c . "$f.spt") lines = $(grep -c . "$f.v1.spt") lines of version 1)"
}

# Profiling on at EL1 from cycle 6, INTERVAL 1 (256 members per selection).
start() {
    printf 'spu-trace 2\n@0\nw PMBLIMITR_EL1 0x1\n@1\nw PMSLATFR_EL1 3\n@2\nw PMSFCR_EL1 0x4\n'
    printf '@3\nw PMSIRR_EL1 0x100\n@4\nctx el=1 allow=1\nw PMSCR_EL1 0x3\n'
}

# 1. Runs, relative cycles, keys, a gap, reads in the last cycle of a run.
{ start
  printf '@6\nop*255\n@+1\nop type=LD fin=5   # selected\n@+1\nop*300 fin=2\nr PMSICR_EL1\n'
  printf '@+10\nop*200 type=ST+FP ev=0x12 ds=0x3 iss=2 fin=9\n@+0\nr PMSICR_EL1\n'
} >"$TMP/runs.spt"
same runs v1p4

# 2. A run whose first cycle already holds members and a register access,
#    explicit lanes (kept in every cycle of the run), and more members joining
#    the run's last cycle; on a 4-lane configuration.
{ start
  printf '@6\nop\nw PMSICR_EL1 0x20\nop*40 fin=3\nop lane=2\n'
  printf '@+5\nop*70 lane=2 fin=4\nop\n@+1\nop*1\nop*2 fin=2\n'
} >"$TMP/lanes.spt"
same lanes wide

# 3. A context change inside the cycles of a run is not possible, but around
#    it: ctx before a run applies to all of it, ctx after it to its last cycle.
{ start
  printf '@6\nop*300\nctx allow=0\n@+1\nop*50\n@+1\nctx allow=1\nop*200 fin=2\n@+100\n'
} >"$TMP/ctx_around_runs.spt"
same ctx_around_runs v1p4

# 4. The writer: a version 2 trace written back by csim uses op*N for runs
#    and replays to the same log; a random one replays too.
"$CSIM" --config v1p4 "$TMP/runs.spt" --emit-trace "$TMP/emit.spt" >"$TMP/emit.a.spl" 2>/dev/null
"$CSIM" "$TMP/emit.spt" >"$TMP/emit.b.spl" 2>/dev/null
if head -1 "$TMP/emit.spt" | grep -qx 'spu-trace 2' && grep -q '^op\*255$' "$TMP/emit.spt" && cmp -s "$TMP/emit.a.spl" "$TMP/emit.b.spl"; then
    ok "spt2/writer_compact ($(grep -c . "$TMP/emit.spt") lines written)"
else
    bad spt2/writer_compact "$(head -12 "$TMP/emit.spt" | tr '\n' ' ')"
fi
"$CSIM" --config wide --seed 3 --ops 50000 --emit-trace "$TMP/rand.spt" --gen pop_density=100 >"$TMP/rand.a.spl"
"$CSIM" "$TMP/rand.spt" >"$TMP/rand.b.spl"
if cmp -s "$TMP/rand.a.spl" "$TMP/rand.b.spl"; then ok spt2/writer_random_replays; else bad spt2/writer_random_replays; fi
t_end
