// openspu: the lanes of one cycle, SPEToCollectSample() for each member in
// lane order (D17.3.1, D17.3.4), with a logic depth that does not grow with
// LANES. The same outputs as the chain of spu_lanes_serial, proved equal to it
// (LanesEqualSerial_A below, make formal).
//
// Why it can be parallel: a reload sets COUNT to R = {INTERVAL, low byte}.
// With INTERVAL >= 1, R >= 256 > LANES, so within one cycle COUNT reloads at
// most once and expires (1 -> 0) at most once, and the LFSR is drawn at most
// once by the lanes (at the expiry with ERnd, at the reload with RND without
// ERnd), always from the state the lanes start with. Member i of the cycle
// (i = the number of members in the lanes before its own, a prefix count)
// then sees, with C = COUNT before lane 0:
//   i <  C  COUNT = C - i, decremented; it expires at i = C - 1
//   i == C  COUNT = 0: the reload (SPEResetSampleCounter())
//   i >  C  COUNT = R - (i - C - 1), decremented, no expiry
// and with ERnd ECOUNT (the random tail, decremented while nonzero) is
// E - i before the expiry and r - (i - C) after it, r the byte drawn there.
// Each lane compares its prefix count with C and E (small numbers), so the
// only carry chains are the final COUNT - N or R - (N - C - 1).
// With INTERVAL = 0 (knob INTERVAL0 = 0) and no random low byte, R = 0 and
// every member after the reload point reloads again: also covered. With
// INTERVAL = 0 and RND without ERnd a cycle can reload and draw several times;
// only that case (ZERO_INTERVAL, no FEAT_SPE_ERnd, LANES > 1) takes the chain.

`default_nettype none

module spu_lanes #(
  parameter integer LANES         = 1,   // population members per cycle
  parameter integer FEAT_ERND     = 0,   // FEAT_SPE_ERnd implemented
  parameter integer ZERO_INTERVAL = 0    // interval_i can be 0 (knob INTERVAL0 = 0)
) (
  input  wire [LANES-1:0] valid_i,       // lane l's member counts (present, enabled)
  input  wire             rnd_i,         // PMSIRR_EL1.RND
  input  wire [23:0]      interval_i,    // PMSIRR_EL1.INTERVAL after INTERVAL0
  input  wire [31:0]      count_i,       // PMSICR_EL1.COUNT before lane 0
  input  wire [7:0]       ecount_i,      // PMSICR_EL1.ECOUNT before lane 0
  input  wire [23:0]      lfsr_i,        // LFSR state before lane 0
  output wire [31:0]      count_o,       // COUNT after the last lane
  output wire [7:0]       ecount_o,      // ECOUNT after it
  output wire [23:0]      lfsr_o,        // LFSR after it
  output wire [LANES-1:0] sel_o          // lane l's member is selected
);

  localparam [0:0] ERND_IMPL = (FEAT_ERND != 0) ? 1'b1 : 1'b0;
  // The chain: the whole of a one-lane unit (one stage has the depth of the
  // parallel form and is cheaper to simulate: it skips its work in cycles
  // without a member or a reload); with several lanes only the case the
  // parallel form does not cover (INTERVAL = 0 with RND and no ERnd:
  // several reloads and draws in a cycle); under FORMAL always, as the
  // reference LanesEqualSerial_A compares with.
  localparam integer CHAIN_ALL    = (LANES == 1) ? 1 : 0;
  localparam integer CHAIN_CORNER = (LANES > 1 && ZERO_INTERVAL != 0 && FEAT_ERND == 0) ? 1 : 0;
`ifdef FORMAL
  localparam integer CHAIN = 1;
`else
  localparam integer CHAIN = CHAIN_ALL + CHAIN_CORNER;
`endif
  wire [31:0]      s_count;
  wire [7:0]       s_ecount;
  wire [23:0]      s_lfsr;
  wire [LANES-1:0] s_sel;
  generate
    if (CHAIN != 0) begin : g_chain
      spu_lanes_serial #(
        .LANES     (LANES),
        .FEAT_ERND (FEAT_ERND)
      ) u_chain (
        .valid_i    (valid_i),
        .rnd_i      (rnd_i),
        .interval_i (interval_i),
        .count_i    (count_i),
        .ecount_i   (ecount_i),
        .lfsr_i     (lfsr_i),
        .count_o    (s_count),
        .ecount_o   (s_ecount),
        .lfsr_o     (s_lfsr),
        .sel_o      (s_sel)
      );
    end else begin : g_no_chain
      assign {s_count, s_ecount, s_lfsr, s_sel} = {(64 + LANES){1'b0}};
    end

    if (CHAIN_ALL != 0) begin : g_one
      assign count_o  = s_count;
      assign ecount_o = s_ecount;
      assign lfsr_o   = s_lfsr;
      assign sel_o    = s_sel;
      wire unused_one = ZERO_INTERVAL[0] ^ ERND_IMPL;
    end else begin : g_par
      wire ernd    = rnd_i & ERND_IMPL;      // the random tail (D17.3.4.3)
      wire low_rnd = rnd_i & ~ERND_IMPL;     // a random low byte at each reload (D17.3.4.2)

      // The one draw of the cycle's lanes, from the state they start with.
      wire [23:0] lfsr_next;
      wire [7:0]  r;
      spu_lfsr_step u_lfsr (
        .state_i (lfsr_i),
        .state_o (lfsr_next),
        .rnd_o   (r)
      );

      // One block, skipped in the (common) cycles without a member: with no
      // member every output is its input, which is also what the general form
      // gives for N = 0 (simulation speed: Verilator evaluates it only then).
      // Every temporary gets a value on every path (else Yosys infers latches).
      reg [31:0]      par_count;
      reg [7:0]       par_ecount;
      reg [23:0]      par_lfsr;
      reg [LANES-1:0] sel;
      always @* begin : b_lanes
        integer   l;
        reg [31:0] reload;
        reg       reload_zero, c_big, expiry, after_x, tail_sel, n_le_c, expired, drew;
        reg [3:0] c_lo, i, d, post, since;
        par_count   = count_i;
        par_ecount  = ecount_i;
        par_lfsr    = lfsr_i;
        sel         = {LANES{1'b0}};
        l           = 0;
        reload      = 32'd0;
        reload_zero = 1'b0;
        c_lo        = 4'd0;
        i           = 4'd0;
        d           = 4'd0;
        expiry      = 1'b0;
        after_x     = 1'b0;
        tail_sel    = 1'b0;
        n_le_c      = 1'b0;
        expired     = 1'b0;
        drew        = 1'b0;
        post        = 4'd0;
        since       = 4'd0;
        c_big = |count_i[31:4];                         // C >= 16, above every member index
        if (valid_i != {LANES{1'b0}} && c_big && !(ernd && ecount_i != 8'd0)) begin
          // Most cycles: COUNT far from zero and no random tail running, so
          // no lane is selected, nothing reloads or draws: COUNT - N.
          for (l = 0; l < LANES; l = l + 1)
            i = i + {3'd0, valid_i[l]};
          par_count = count_i - {28'd0, i};
        end else if (valid_i != {LANES{1'b0}}) begin
          reload      = {interval_i, (low_rnd ? r : 8'h00)};
          reload_zero = reload == 32'd0;
          c_lo        = count_i[3:0];
          // Each lane's decision from its index i alone (i: members in the
          // lanes before it, a prefix count).
          for (l = 0; l < LANES; l = l + 1) begin
            expiry   = !c_big && c_lo == i + 4'd1;          // COUNT 1 -> 0 at this member
            after_x  = !c_big && c_lo != 4'd0 && c_lo <= i; // after this cycle's expiry
            d        = i - c_lo + 4'd1;                     // members since the expiry, this one included
            tail_sel = expiry  ? r == 8'd0 :                // ECOUNT = r, zero samples at once
                       after_x ? r == {4'd0, d} :           // r counted down to zero here
                                 ecount_i == {4'd0, i} + 8'd1; // E counted down to zero here
            sel[l]   = valid_i[l] && (ernd ? tail_sel : expiry);
            i        = i + {3'd0, valid_i[l]};
          end
          // After all N = i members.
          n_le_c     = c_big || c_lo >= i;                  // no reload this cycle
          expired    = !c_big && c_lo != 4'd0 && c_lo <= i;
          post       = i - c_lo - 4'd1;                     // members after the reload
          since      = i - c_lo;                            // members after the expiry
          par_count  = n_le_c      ? count_i - {28'd0, i} :
                       reload_zero ? 32'd0 : reload - {28'd0, post};
          par_ecount = !ernd   ? ecount_i :
                       expired ? (r > {4'd0, since} ? r - {4'd0, since} : 8'd0) :
                                 (ecount_i > {4'd0, i} ? ecount_i - {4'd0, i} : 8'd0);
          drew       = ernd ? expired : (low_rnd && !n_le_c);
          par_lfsr   = drew ? lfsr_next : lfsr_i;
        end
      end

      wire use_chain = CHAIN_CORNER != 0 && interval_i == 24'd0 && rnd_i;
      assign count_o  = use_chain ? s_count  : par_count;
      assign ecount_o = use_chain ? s_ecount : par_ecount;
      assign lfsr_o   = use_chain ? s_lfsr   : par_lfsr;
      assign sel_o    = use_chain ? s_sel    : sel;
    end
  endgenerate

`ifdef FORMAL
  // The lanes equal the chain of SPEToCollectSample() stages
  // (spu_lanes_serial) for every input, state and lane pattern (with
  // ZERO_INTERVAL = 0 the caller never gives INTERVAL = 0).
  always @* begin
    if (ZERO_INTERVAL != 0 || interval_i != 24'd0)
      LanesEqualSerial_A: assert (count_o == s_count && ecount_o == s_ecount &&
                                  lfsr_o == s_lfsr && sel_o == s_sel);
  end
`endif

endmodule

`default_nettype wire
