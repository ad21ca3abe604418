// openspu: SPEToCollectSample() for one member of the sample population
// (M.a.a pseudocode, D17.3.1, D17.3.4), as one combinational stage.
//
// spu_lanes_serial chains LANES of these so that each lane sees PMSICR_EL1
// and the LFSR as the lane before it left them (docs/semantics.md step 6),
// the reference spu_lanes is proved equal to. A stage
// with valid_i = 0 passes everything through unchanged: no SAMPLE_POP, no
// decrement, no draw (D17.3.5: the counters hold while profiling is disabled).
//
// ernd = PMSIRR_EL1.RND && FEAT_SPE_ERnd. Where COUNT reloads relative to
// the random tail (D17.3.1 step 4) is what PMSIDR_EL1.ERnd reports, so it
// follows the feature: with ERnd the new interval starts when INTERVAL
// expires (the M.a.a text below); without it the random number is added at
// the start of the interval by reset_counter().
//
//   if COUNT == 0: reset_counter()
//   else:
//     COUNT -= 1
//     if COUNT == 0:
//       if ernd: ECOUNT = rnd(); return ECOUNT == 0
//       else: return TRUE
//   if ernd && ECOUNT != 0:
//     ECOUNT -= 1
//     if ECOUNT == 0: return TRUE
//   return FALSE
//
// reset_counter() is SPEResetSampleCounter(): COUNT<31:8> = INTERVAL (after
// knob INTERVAL0, applied by the caller), COUNT<7:0> = rnd() when RND == 1
// without ERnd, else zero. ECOUNT is left alone. A call draws at most once.

`default_nettype none

module spu_to_collect_sample #(
  parameter integer FEAT_ERND   = 0      // FEAT_SPE_ERnd implemented
) (
  input  wire        valid_i,            // member present and profiling enabled
  input  wire        rnd_i,              // PMSIRR_EL1.RND
  input  wire [23:0] interval_i,         // PMSIRR_EL1.INTERVAL after INTERVAL0
  input  wire [31:0] count_i,            // PMSICR_EL1.COUNT before this member
  input  wire [7:0]  ecount_i,           // PMSICR_EL1.ECOUNT before it
  input  wire [23:0] lfsr_i,             // LFSR state before this member
  output reg  [31:0] count_o,            // PMSICR_EL1.COUNT after this member
  output reg  [7:0]  ecount_o,           // PMSICR_EL1.ECOUNT after it
  output wire [23:0] lfsr_o,             // LFSR state after this member
  output reg         sel_o               // SPEToCollectSample() returned TRUE
);

  localparam [0:0] ERND_IMPL = (FEAT_ERND != 0) ? 1'b1 : 1'b0;

  // ernd selects the secondary counter; low_rnd is the RND behaviour without
  // ERnd (D17.3.4.2: random low byte of COUNT at every reload).
  wire ernd    = rnd_i & ERND_IMPL;
  wire low_rnd = rnd_i & ~ERND_IMPL;

  // The one possible draw of this member (spu_lfsr_step); it only advances the
  // state when `draw` is set below.
  wire [23:0] lfsr_next;
  wire [7:0]  rnd_byte;
  reg         draw;

  spu_lfsr_step u_lfsr (
    .state_i (lfsr_i),
    .state_o (lfsr_next),
    .rnd_o   (rnd_byte)
  );

  assign lfsr_o = draw ? lfsr_next : lfsr_i;

  // PMSICR_EL1 = {ECOUNT[63:56], RES0[55:32], COUNT[31:0]};
  // only the two counters pass through the lane chain (narrow for speed).
  wire [31:0] count     = count_i;
  wire [7:0]  ecount    = ecount_i;
  wire [31:0] count_m1  = count - 32'd1;
  wire [7:0]  ecount_m1 = ecount - 8'd1;
  wire [31:0] reload    = {interval_i, (low_rnd ? rnd_byte : 8'h00)};
  wire        tail      = ernd & (ecount != 8'd0);   // random tail running

  // Line coverage (make cov-code): without FEAT_SPE_ERnd (v1, v1-alt) `ernd`
  // and `tail` are constant 0, so in those builds the three ERnd branches
  // below (`if (tail)` twice, `if (ernd)`) are never taken and are reported
  // as such; every ERnd build takes them.
  always @* begin
    count_o  = count;
    ecount_o = ecount;
    draw     = 1'b0;
    sel_o    = 1'b0;
    if (valid_i) begin
      if (count == 32'd0) begin
        // SPEResetSampleCounter(): reload only, no decrement on this call.
        count_o = reload;
        draw    = low_rnd;
        if (tail) begin
          // M.a.a: the ECOUNT test is at function level, so it also runs on
          // the call that reloads COUNT.
          ecount_o = ecount_m1;
          sel_o    = (ecount == 8'd1);     // ECOUNT - 1 == 0
        end
      end else begin
        count_o = count_m1;
        if (count == 32'd1) begin     // COUNT - 1 == 0, without the subtraction's carry
          if (ernd) begin
            // D17.3.4.3: the secondary counter gets a random byte; a zero
            // byte samples this very member.
            ecount_o = rnd_byte;
            draw     = 1'b1;
            sel_o    = (rnd_byte == 8'd0);
          end else begin
            sel_o = 1'b1;
          end
        end else if (tail) begin
          ecount_o = ecount_m1;
          sel_o    = (ecount == 8'd1);     // ECOUNT - 1 == 0
        end
      end
    end
  end

`ifdef FORMAL
  // PMSICR_EL1 only decrements, reloads, or takes a written value (the write
  // is spu_interval's): one member moves COUNT by at most one step.
  // D17.3.4: COUNT holds, decrements by one, or, when it is zero, reloads as
  // SPEResetSampleCounter() does: {INTERVAL, 0x00}, or a random low byte
  // when RND == 1 without ERnd (D17.3.4.2).
  // (Restated from the ports, not from count_m1/ecount_m1/low_rnd above.)
  wire f_ernd    = rnd_i && FEAT_ERND != 0;
  wire f_low_rnd = rnd_i && FEAT_ERND == 0;
  always @* begin
    StageCountStep_A: assert (count_o == count_i ||
                              (count_i != 32'd0 && count_o == count_i - 32'd1) ||
                              (count_i == 32'd0 && count_o[31:8] == interval_i &&
                               (f_low_rnd || count_o[7:0] == 8'd0)));
  end
  // D17.3.4.3: ECOUNT holds, decrements by one from nonzero, or, with ERnd
  // when COUNT expires (1 -> 0), reloads with the byte drawn.
  always @* begin
    StageEcountStep_A: assert (ecount_o == ecount_i ||
                               (ecount_i != 8'd0 && ecount_o == ecount_i - 8'd1) ||
                               (f_ernd && count_i == 32'd1 && ecount_o == rnd_byte));
  end
  // A member that is not valid (absent, or profiling disabled) changes
  // nothing and is not selected (D17.3.5).
  always @* begin
    StageIdleHolds_A: assert (valid_i || (count_o == count_i &&
                                          ecount_o == ecount_i &&
                                          lfsr_o == lfsr_i && !sel_o));
  end
`endif

endmodule

`default_nettype wire
