// openspu: the sample interval counter (D17.3, the M.a.a pseudocode's
// SPEToCollectSample(), SPEResetSampleCounter() and SPEGetRandomInterval()).
//
// Owns PMSICR_EL1 and the LFSR of SPEGetRandomInterval(). Per cycle, in the
// order of docs/semantics.md:
//   step 3  enable edge: when profiling becomes enabled and the whole of
//           PMSICR_EL1 is zero, COUNT is loaded as by SPEResetSampleCounter()
//           (D17.3.3: "If PMSICR_EL1 is zero, then it is loaded with an
//           initial value"); this comes before the members of the cycle;
//   step 6  SPEToCollectSample() for each lane, lane 0 first, each lane
//           seeing the PMSICR_EL1/LFSR left by the one before (spu_lanes);
//   step 7  a direct MSR to PMSICR_EL1 wins over the counting of this cycle.
// The LFSR steps once per draw, in the same order (edge, lane 0, lane 1, ..),
// and keeps its draws even when an MSR overwrites PMSICR_EL1.

`default_nettype none

`include "spu_config.vh"

module spu_interval #(
  parameter integer LANES       = 1,         // population members per cycle
  parameter integer FEAT_ERND   = 0,         // FEAT_SPE_ERnd implemented
  parameter integer INTERVAL0   = 0,         // knob: INTERVAL == 0 counts as 1
  parameter integer LFSR_SEED   = 32'hC0FFEE // knob: LFSR reset state, nonzero
) (
  input  wire             clk_i,             // clock
  input  wire             rst_ni,            // synchronous reset, active low
  input  wire             en_i,              // profiling enabled this cycle
  input  wire             edge_i,            // en_i, and disabled last cycle
  input  wire [LANES-1:0] pop_valid_i,       // population member in lane l
  input  wire [63:0]      pmsirr_i,          // PMSIRR_EL1
  input  wire             icr_we_i,          // MSR PMSICR_EL1 this cycle
  input  wire [63:0]      icr_wdata_i,       // its value, WMASK applied
  output wire [LANES-1:0] sel_o,             // lane l's member is selected
  output wire [63:0]      pmsicr_o           // PMSICR_EL1 (register)
);

  localparam [23:0] SEED = LFSR_SEED[23:0];
  localparam [0:0]  ERND_IMPL = (FEAT_ERND != 0) ? 1'b1 : 1'b0;
  localparam [0:0]  INT0_ONE  = (INTERVAL0 != 0) ? 1'b1 : 1'b0;

  // PMSICR_EL1 = {ECOUNT, RES0, COUNT} (field positions generated from
  // configs/spu.toml), held as three registers so that the lane chain works
  // on 32 and 8 bits, not 64 (for simulation speed). The middle bits only
  // change by an MSR (write mask).
  localparam integer C_LSB = `SPU_F_PMSICR_EL1_COUNT_LSB;
  localparam integer C_MSB = `SPU_F_PMSICR_EL1_COUNT_MSB;
  localparam integer E_LSB = `SPU_F_PMSICR_EL1_ECOUNT_LSB;
  localparam integer E_MSB = `SPU_F_PMSICR_EL1_ECOUNT_MSB;
  reg  [C_MSB-C_LSB:0]   count_q;
  reg  [E_MSB-E_LSB:0]   ecount_q;
  reg  [E_LSB-C_MSB-2:0] mid_q;
  reg  [23:0]            lfsr_q;

  // PMSIRR_EL1 fields. INTERVAL == 0 gives an UNKNOWN interval; knob
  // INTERVAL0 = 1 (the default) uses 1 instead, everywhere COUNT is
  // (re)loaded, including the enable-edge load.
  wire        rnd      = pmsirr_i[`SPU_F_PMSIRR_EL1_RND_LSB];
  wire [23:0] interval = pmsirr_i[`SPU_F_PMSIRR_EL1_INTERVAL_MSB:
                                  `SPU_F_PMSIRR_EL1_INTERVAL_LSB];
  wire [23:0] interval_eff = (INT0_ONE && interval == 24'd0) ? 24'd1
                                                              : interval;

  // Only RND and INTERVAL are read; the rest of PMSIRR_EL1 is RES0.
  wire unused_pmsirr = ^(pmsirr_i & ~(`SPU_F_PMSIRR_EL1_RND_MASK |
                                      `SPU_F_PMSIRR_EL1_INTERVAL_MASK));

  // ---------------------------------------------------------- enable edge
  // D17.3.3 / semantics step 3: COUNT = {INTERVAL, 8'h00}, or a random low
  // byte when RND == 1 without ERnd. PMSICR_EL1 is all zero here, so ECOUNT
  // stays zero.
  wire        icr_zero  = ~|{count_q, ecount_q, mid_q};
  wire        edge_load = edge_i & icr_zero;
  wire        edge_draw = edge_load & rnd & ~ERND_IMPL;
  wire [23:0] edge_lfsr_next;
  wire [7:0]  edge_rnd;

  spu_lfsr_step u_lfsr_edge (
    .state_i (lfsr_q),
    .state_o (edge_lfsr_next),
    .rnd_o   (edge_rnd)
  );

  wire [31:0] count_edge = edge_load ?
                           {interval_eff, (edge_draw ? edge_rnd : 8'h00)} :
                           count_q;
  wire [23:0] lfsr_edge  = edge_draw ? edge_lfsr_next : lfsr_q;

  // ---------------------------------------------------------------- lanes
  // Step 6: SPEToCollectSample() for each lane's member in lane order, as
  // the chain of spu_lanes_serial, computed with a depth that does not grow
  // with LANES (spu_lanes, proved equal to the chain).
  wire [31:0] lanes_count;
  wire [7:0]  lanes_ecount;
  wire [23:0] lanes_lfsr;
  spu_lanes #(
    .LANES         (LANES),
    .FEAT_ERND     (FEAT_ERND),
    .ZERO_INTERVAL (INTERVAL0 == 0 ? 1 : 0)
  ) u_lanes (
    .valid_i    (pop_valid_i & {LANES{en_i}}),
    .rnd_i      (rnd),
    .interval_i (interval_eff),
    .count_i    (count_edge),
    .ecount_i   (ecount_q),
    .lfsr_i     (lfsr_edge),
    .count_o    (lanes_count),
    .ecount_o   (lanes_ecount),
    .lfsr_o     (lanes_lfsr),
    .sel_o      (sel_o)
  );

  // ---------------------------------------------------------- registers
  // Step 7: a direct write wins over this cycle's counting; the LFSR is not
  // architectural state and keeps the draws made.
  wire [23:0] lfsr_d = lanes_lfsr;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      count_q  <= 32'd0;
      ecount_q <= 8'd0;
      mid_q    <= 24'd0;
      lfsr_q   <= SEED;
    end else begin
      if (icr_we_i) begin
        count_q  <= icr_wdata_i[C_MSB:C_LSB];
        ecount_q <= icr_wdata_i[E_MSB:E_LSB];
        mid_q    <= icr_wdata_i[E_LSB-1:C_MSB+1];
      end else begin
        count_q  <= lanes_count;
        ecount_q <= lanes_ecount;
      end
      lfsr_q <= lfsr_d;
    end
  end

  assign pmsicr_o = {ecount_q, mid_q, count_q};  // COUNT at LSB 0, ECOUNT at 63

  // The packing above needs COUNT<31:0> and ECOUNT<63:56> (PMSICR_EL1).
  generate
    if (C_LSB != 0 || C_MSB != 31 || E_MSB != 63 || E_LSB != 56) begin : g_bad_pmsicr
      spu_interval_pmsicr_layout_not_supported u_error ();
    end
  endgenerate

`ifdef FORMAL
  // Proved with spu_top as the top (formal/spu.sby), where edge_i implies
  // en_i and icr_wdata_i is already masked; state invariants hold once a
  // reset has been seen (spu_top assumes one in the first cycle).
  reg f_past_valid = 1'b0;
  reg f_rst_seen   = 1'b0;
  always @(posedge clk_i) begin
    f_past_valid <= 1'b1;
    if (!rst_ni) f_rst_seen <= 1'b1;
  end

  // D17.3.2: "The random number generator must be reset into a useable
  // state": the LFSR is never zero after a reset (a zero LFSR would lock),
  // because the seed is nonzero and a step maps a nonzero state to a
  // nonzero one (every draw of the cycle, the edge and each lane).
  always @* begin
    if (f_rst_seen) LfsrNonZero_A: assert (lfsr_q != 24'd0);
    LfsrStepNonZero_A: assert (lfsr_q == 24'd0 || lfsr_d != 24'd0);
  end

  // PMSICR_EL1 only decrements, reloads, or takes a written value. Each
  // lane's step is checked in spu_to_collect_sample (decrement or reload);
  // here the enable edge and the register update.
  // D17.3.3: the enable-edge load only happens when the whole of PMSICR_EL1
  // is zero, and loads COUNT = {INTERVAL, low byte} (the byte nonzero only
  // for RND without ERnd), ECOUNT untouched.
  always @* begin
    IcrEdgeLoadFromZero_A: assert (count_edge == count_q ||
                                   (edge_i && pmsicr_o == 64'd0 &&
                                    count_edge[31:8] == interval_eff &&
                                    ((rnd && FEAT_ERND == 0) ||
                                     count_edge[7:0] == 8'd0)));
  end
  // D17.3.5: while profiling is disabled PMSICR_EL1 holds (the lane chain
  // passes it through unchanged).
  always @* begin
    IcrHoldWhileDisabled_A: assert (en_i || (lanes_count == count_q &&
                                             lanes_ecount == ecount_q));
  end
  // Step 7: a direct write (MSR PMSICR_EL1) wins and is taken as written;
  // without one the RES0 middle bits never change and COUNT/ECOUNT are the
  // lane chain's result.
  always @(posedge clk_i) begin
    if (f_past_valid && $past(rst_ni)) begin
      if ($past(icr_we_i))
        IcrTakesWrite_A: assert (pmsicr_o == $past(icr_wdata_i));
      else
        IcrCountsOrHolds_A: assert (mid_q == $past(mid_q) &&
                                    count_q == $past(lanes_count) &&
                                    ecount_q == $past(lanes_ecount));
    end
  end
`endif

endmodule

`default_nettype wire
