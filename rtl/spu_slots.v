// openspu: sample slots, collisions and latency counters (D17.3.7, D17.3.1
// steps 5-6, M.a.a SPEStartSample() and SPECompleteSample()).
//
// The ASL has one SPESampleInFlight flag; openspu has SLOTS of them
// (D17.3.7: "The maximum number of sampled operations that a PE can support
// simultaneously is IMPLEMENTATION DEFINED"). Per cycle (docs/semantics.md):
//   step 4  finish port p names slot s: when s is busy the port reports tot
//           and iss and s is freed (ports in order, so a second port naming
//           the same slot in the same cycle is ignored);
//   step 5  issue port p names busy, not yet issued slot s: iss_lat = tot now
//           (an issue for a slot finished in step 4 has no visible effect);
//   step 6  each selected lane, lane 0 first, takes the lowest-numbered free
//           slot; with none free the selection is a collision
//           (SPESampleCollision()). A slot whose kept record waits for a
//           the write path (spu_buffer and spu_encode: wait_i, and hold_i for one of
//           this cycle's finishes) is not free. Knob SLOT_REUSE = 1 lets
//           slots freed in this cycle (finished with no record waiting, or
//           rel_i: the encoder read a record's last packet, or a waiting record was discarded) be
//           taken in the same cycle, SLOT_REUSE = 0 from the next.
// Latency (SPEStartCounter at selection, SPEStopCounter at issue/finish): a
// slot taken in cycle t holds 1 in cycle t+1 and counts up each cycle,
// saturating at CMAX = 2^COUNT_SIZE-1, so a finish in cycle f sees
// min(f - t, CMAX). Slot and port indexes are 2 bits; an index >= SLOTS
// names no slot and is ignored like a free slot.

`default_nettype none

module spu_slots #(
  parameter integer LANES      = 1,      // population members per cycle
  parameter integer SLOTS      = 1,      // sampled operations in flight, 1..4
  parameter integer COUNT_SIZE = 12,     // PMSIDR_EL1.CountSize: 12 or 16
  parameter integer SLOT_REUSE = 0       // knob: freed slot reusable same cycle
) (
  input  wire               clk_i,       // clock
  input  wire               rst_ni,      // synchronous reset, active low
  input  wire [LANES-1:0]   sel_i,       // lane l selected (SPEToCollectSample)
  input  wire [SLOTS-1:0]   iss_valid_i, // issue event on port p
  input  wire [SLOTS*2-1:0] iss_slot_i,  // its slot at [2p+:2]
  input  wire [SLOTS-1:0]   fin_valid_i, // finish event on port p
  input  wire [SLOTS*2-1:0] fin_slot_i,  // its slot at [2p+:2]
  input  wire [SLOTS-1:0]   wait_i,      // slot s's record waits (spu_buffer)
  input  wire [SLOTS-1:0]   hold_i,      // slot s finished, its record starts to wait
  input  wire [SLOTS-1:0]   rel_i,       // slot s's waiting record leaves
  output reg  [LANES-1:0]   smp_o,       // lane l got a slot
  output reg  [LANES*2-1:0] smp_slot_o,  // that slot at [2l+:2], else 0
  output reg  [LANES-1:0]   col_o,       // lane l collided (no free slot)
  output reg  [SLOTS-1:0]   fin_hit_o,   // finish port p names a busy slot
  output reg  [SLOTS*16-1:0] fin_tot_o,  // total latency at [16p+:16], else 0
  output reg  [SLOTS*16-1:0] fin_iss_o   // issue latency at [16p+:16], else 0
);

  localparam [15:0] CMAX = 16'hFFFF >> (16 - COUNT_SIZE);

  // Per-slot state. Counters are kept 16 bits wide and saturate at CMAX, so
  // the bits above COUNT_SIZE stay zero.
  reg [SLOTS-1:0]    busy_q, busy_d;
  reg [SLOTS-1:0]    issued_q, issued_d;
  reg [SLOTS*16-1:0] lat_q, lat_d;       // total latency so far
  reg [SLOTS*16-1:0] isl_q, isl_d;       // latency at the first issue

  reg [SLOTS-1:0] freed;                 // step 4: finished this cycle
  reg [SLOTS-1:0] alloc;                 // step 6: taken this cycle
  // free for selection from this cycle on: finished without a waiting
  // record, or a waiting record left (SLOT_REUSE = 1 takes them at once)
  wire [SLOTS-1:0] released = (freed & ~hold_i) | rel_i;

  // For simulation speed the combinational blocks below skip their loops in
  // the (common) cycles without a finish, a selection or a busy slot.

  // ----------------------------------------------------- step 4: finishes
  // Ports in order: the first port naming a busy slot completes it, and a
  // later port naming the same slot in the same cycle finds it no longer busy
  // and is ignored. fin_take[p*SLOTS+s]: port p completes slot s (no lower
  // port names s), computed without a branch, before the loop that uses it.
  // Testing the running `freed` inside that loop's branch instead hid the
  // branch from Verilator's line coverage: 5.006 evaluates a branch's
  // coverage condition after the loop, with the loop variables' final
  // values, where `!freed[s]` is false for every slot the branch freed.
  reg [SLOTS*SLOTS-1:0] fin_take;
  always @* begin : b_take
    integer p, s;
    reg [SLOTS-1:0] named;               // slots named by a lower port
    named    = {SLOTS{1'b0}};
    fin_take = {SLOTS*SLOTS{1'b0}};
    // loop variables: a value on every path, or Yosys >= 0.3x infers a latch
    p        = 0;
    s        = 0;
    // Without a finish every term is 0: Verilator then skips the loops.
    if (fin_valid_i != {SLOTS{1'b0}}) begin
      for (p = 0; p < SLOTS; p = p + 1) begin
        for (s = 0; s < SLOTS; s = s + 1) begin
          fin_take[p*SLOTS + s] = fin_valid_i[p] && fin_slot_i[2*p +: 2] == s[1:0] &&
                                  busy_q[s] && !named[s];
          named[s] = named[s] || (fin_valid_i[p] && fin_slot_i[2*p +: 2] == s[1:0]);
        end
      end
    end
  end

  always @* begin : b_fin
    integer p, s;
    freed     = {SLOTS{1'b0}};
    fin_hit_o = {SLOTS{1'b0}};
    fin_tot_o = {SLOTS*16{1'b0}};
    fin_iss_o = {SLOTS*16{1'b0}};
    // loop variables: a value on every path, or Yosys >= 0.3x infers a latch
    p         = 0;
    s         = 0;
    if (fin_valid_i != {SLOTS{1'b0}}) begin
      for (p = 0; p < SLOTS; p = p + 1) begin
        for (s = 0; s < SLOTS; s = s + 1) begin
          if (fin_take[p*SLOTS + s]) begin
            freed[s]              = 1'b1;
            fin_hit_o[p]          = 1'b1;
            fin_tot_o[16*p +: 16] = lat_q[16*s +: 16];
            // An issue in this same cycle counts as issued with latency tot.
            fin_iss_o[16*p +: 16] = issued_q[s] ? isl_q[16*s +: 16]
                                                : lat_q[16*s +: 16];
          end
        end
      end
    end
  end

  // ------------------------------------------ step 6: lanes take slots
  // Each selected lane, in lane order, takes the lowest free slot (avail &
  // -avail, one-hot), with no branch on the running `avail`: Verilator
  // 5.006's line coverage tests a branch's condition after the loop, with the
  // final values, and so reported such a branch as never taken.
  always @* begin : b_alloc
    integer l, s;
    reg [SLOTS-1:0]     avail;           // free for selection
    reg [SLOTS-1:0]     take;            // the slot lane l takes, one-hot or 0
    reg [1:0]           idx;
    avail      = {SLOTS{1'b0}};
    take       = {SLOTS{1'b0}};
    idx        = 2'd0;
    alloc      = {SLOTS{1'b0}};
    smp_o      = {LANES{1'b0}};
    smp_slot_o = {LANES*2{1'b0}};
    col_o      = {LANES{1'b0}};
    // loop variables: a value on every path, or Yosys >= 0.3x infers a latch
    l          = 0;
    s          = 0;
    if (sel_i != {LANES{1'b0}}) begin
      avail = ~(busy_q | wait_i) | ((SLOT_REUSE != 0) ? released : {SLOTS{1'b0}});
      for (l = 0; l < LANES; l = l + 1) begin
        take  = (avail & (~avail + 1'b1)) & {SLOTS{sel_i[l]}};
        avail = avail & ~take;
        alloc = alloc | take;
        idx   = 2'd0;
        for (s = 0; s < SLOTS; s = s + 1)
          idx = idx | ({2{take[s]}} & s[1:0]);
        smp_slot_o[2*l +: 2] = idx;
        smp_o[l] = take != {SLOTS{1'b0}};
        col_o[l] = sel_i[l] && take == {SLOTS{1'b0}};
      end
    end
  end

  // ------------------------------------------- step 5 and next state
  // Step 5: issue port p names busy, not yet issued slot s: iss_lat = the
  // latency now. A slot taken this cycle starts at latency 1, not issued. A
  // slot that stays busy counts on; a slot that is or becomes free is all
  // zero. With no slot busy and none taken nothing changes: every free slot
  // already holds zero since the reset (f_state below), so the update is
  // skipped in that case.
  wire slots_work = busy_q != {SLOTS{1'b0}} || alloc != {SLOTS{1'b0}};
  always @* begin : b_state
    integer p, s;
    reg [SLOTS-1:0] iss_hit;             // first issue this cycle
    reg [15:0]      lat_s;
    busy_d   = busy_q;
    issued_d = issued_q;
    lat_d    = lat_q;
    isl_d    = isl_q;
    iss_hit  = {SLOTS{1'b0}};
    lat_s    = 16'd0;
    // loop variables: a value on every path, or Yosys >= 0.3x infers a latch
    p        = 0;
    s        = 0;
    if (slots_work) begin
      for (p = 0; p < SLOTS; p = p + 1)
        for (s = 0; s < SLOTS; s = s + 1)
          if (iss_valid_i[p] && iss_slot_i[2*p +: 2] == s[1:0] &&
              busy_q[s] && !issued_q[s])
            iss_hit[s] = 1'b1;
      for (s = 0; s < SLOTS; s = s + 1) begin
        lat_s = lat_q[16*s +: 16];
        if (alloc[s]) begin
          busy_d[s]         = 1'b1;
          issued_d[s]       = 1'b0;
          lat_d[16*s +: 16] = 16'd1;
          isl_d[16*s +: 16] = 16'd0;
        end else if (busy_q[s] && !freed[s]) begin
          issued_d[s]       = issued_q[s] | iss_hit[s];
          lat_d[16*s +: 16] = (lat_s == CMAX) ? lat_s : lat_s + 16'd1;
          if (iss_hit[s]) isl_d[16*s +: 16] = lat_s;
        end else begin
          busy_d[s]         = 1'b0;
          issued_d[s]       = 1'b0;
          lat_d[16*s +: 16] = 16'd0;
          isl_d[16*s +: 16] = 16'd0;
        end
      end
    end
  end

  always @(posedge clk_i) begin : b_state_q
    if (!rst_ni) begin
      busy_q   <= {SLOTS{1'b0}};
      issued_q <= {SLOTS{1'b0}};
      lat_q    <= {SLOTS*16{1'b0}};
      isl_q    <= {SLOTS*16{1'b0}};
    end else if (slots_work) begin
      busy_q   <= busy_d;
      issued_q <= issued_d;
      lat_q    <= lat_d;
      isl_q    <= isl_d;
    end
  end

`ifdef FORMAL
  // Proved with spu_top as the top (formal/spu.sby). State invariants hold
  // once a reset has been seen (spu_top assumes one in the first cycle).
  reg f_rst_seen = 1'b0;
  always @(posedge clk_i) if (!rst_ni) f_rst_seen <= 1'b1;
  reg f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;

  // D17.3.7: a slot is never allocated twice: no two lanes take the same
  // slot in a cycle, only a free slot is taken (a busy one only when it was
  // freed this cycle and SLOT_REUSE allows it), and a taken slot exists.
  always @* begin : f_alloc
    integer fa, fb;
    reg     ok;
    ok = 1'b1;
    for (fa = 0; fa < LANES; fa = fa + 1) begin
      if (smp_o[fa] && smp_slot_o[2*fa +: 2] >= SLOTS) ok = 1'b0;
      for (fb = fa + 1; fb < LANES; fb = fb + 1)
        if (smp_o[fa] && smp_o[fb] &&
            smp_slot_o[2*fa +: 2] == smp_slot_o[2*fb +: 2]) ok = 1'b0;
    end
    SlotOnceAcrossLanes_A: assert (ok);
    SlotOnlyFreeTaken_A: assert ((alloc & (busy_q | wait_i) & ~released) == {SLOTS{1'b0}} &&
                                 (SLOT_REUSE != 0 || (alloc & (busy_q | wait_i)) == {SLOTS{1'b0}}));
    // A slot whose record waits is never given to a selection (D17.3.7:
    // the unit cannot take another sample into it).
    if (f_past_valid)
      WaitingNotTaken_A: assert ((alloc & wait_i & ~rel_i) == {SLOTS{1'b0}} &&
                                 (alloc & hold_i) == {SLOTS{1'b0}});
  end
  // D17.3.7: a selection collides only when every slot is taken (each slot
  // free for selection got a lane of this cycle).
  // Invariant: a slot is busy or holds a waiting record, never both (a
  // finish makes a busy slot's record wait and the slot not busy; a waiting
  // slot is not taken). Guarded, as spu_buffer's waiting-record properties,
  // by the first clock edge (the first cycle is a reset).
  always @* begin
    if (f_past_valid) BusyNotWaiting_A: assert ((busy_q & wait_i) == {SLOTS{1'b0}});
  end
  always @* begin
    ColOnlyWhenFull_A: assert (col_o == {LANES{1'b0}} ||
                               (~(busy_q | wait_i) | ((SLOT_REUSE != 0) ? released : {SLOTS{1'b0}})) ==
                               alloc);
  end

  // At most SLOTS samples in flight (D17.3.7: the number of sampled
  // operations in flight at once is IMPLEMENTATION DEFINED; here SLOTS). The
  // count is taken at the ports: +1 per lane that got a slot (smp_o), -1 per
  // finish that completed one (fin_hit_o).
  reg [3:0] f_inflight = 4'd0;
  reg [3:0] f_busy_n;                    // busy slots now
  always @* begin : f_pop
    integer fi;
    reg [3:0] n;
    n = 4'd0;
    for (fi = 0; fi < SLOTS; fi = fi + 1) n = n + {3'd0, busy_q[fi]};
    f_busy_n = n;
  end
  always @(posedge clk_i) begin : f_count
    integer fi;
    reg [3:0] n;
    n = f_inflight;
    for (fi = 0; fi < LANES; fi = fi + 1) n = n + {3'd0, smp_o[fi]};
    for (fi = 0; fi < SLOTS; fi = fi + 1) n = n - {3'd0, fin_hit_o[fi]};
    f_inflight <= rst_ni ? n : 4'd0;
  end
  always @* begin
    if (f_rst_seen) InFlightMax_A: assert (f_inflight <= SLOTS);
    // Invariant for the induction: the count at the ports is the number of
    // busy slots.
    if (f_rst_seen) InFlightIsBusy_A: assert (f_inflight == f_busy_n);
  end

  // Invariants of the slot state (for the induction; also what the skipped
  // update in b_state relies on): counters never pass CMAX, a free slot
  // holds no state, a busy slot has counted at least 1, and an issue latency
  // is below the total.
  always @* begin : f_state
    integer fa;
    reg     ok;
    ok = 1'b1;
    for (fa = 0; fa < SLOTS; fa = fa + 1) begin
      if (lat_q[16*fa +: 16] > CMAX) ok = 1'b0;
      if (!busy_q[fa] && (issued_q[fa] || lat_q[16*fa +: 16] != 16'd0 ||
                          isl_q[16*fa +: 16] != 16'd0)) ok = 1'b0;
      if (busy_q[fa] && lat_q[16*fa +: 16] == 16'd0) ok = 1'b0;
      if (isl_q[16*fa +: 16] > lat_q[16*fa +: 16]) ok = 1'b0;
    end
    if (f_rst_seen) SlotStateValid_A: assert (ok);
  end
`endif

endmodule

`default_nettype wire
