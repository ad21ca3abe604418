// openspu: the lanes of one cycle, SPEToCollectSample() for each member in
// lane order (D17.3.1, D17.3.4), written as the pseudocode reads: LANES
// spu_to_collect_sample stages in a chain, each lane seeing PMSICR_EL1 and
// the LFSR as the lane before it left them (docs/semantics.md step 6).
//
// This is the readable reference. spu_lanes computes the same outputs with a
// depth that does not grow with LANES and is proved equal to it
// (LanesEqualSerial_A, make formal); it instantiates this chain itself only
// for the one case its parallel form does not cover.

`default_nettype none

module spu_lanes_serial #(
  parameter integer LANES     = 1,       // population members per cycle
  parameter integer FEAT_ERND = 0        // FEAT_SPE_ERnd implemented
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

  // Each generate block holds its own chain wires (no shared vector, so no
  // false combinational loop for the simulator's scheduler).
  genvar l;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : g_lane
      wire [31:0] count_in;
      wire [7:0]  ecount_in;
      wire [23:0] lfsr_in;
      wire [31:0] count_out;
      wire [7:0]  ecount_out;
      wire [23:0] lfsr_out;
      if (l == 0) begin : g_first
        assign count_in  = count_i;
        assign ecount_in = ecount_i;
        assign lfsr_in   = lfsr_i;
      end else begin : g_next
        assign count_in  = g_lane[l-1].count_out;
        assign ecount_in = g_lane[l-1].ecount_out;
        assign lfsr_in   = g_lane[l-1].lfsr_out;
      end
      spu_to_collect_sample #(
        .FEAT_ERND   (FEAT_ERND)
      ) u_stage (
        .valid_i    (valid_i[l]),
        .rnd_i      (rnd_i),
        .interval_i (interval_i),
        .count_i    (count_in),
        .ecount_i   (ecount_in),
        .lfsr_i     (lfsr_in),
        .count_o    (count_out),
        .ecount_o   (ecount_out),
        .lfsr_o     (lfsr_out),
        .sel_o      (sel_o[l])
      );
    end
  endgenerate

  assign count_o  = g_lane[LANES-1].count_out;
  assign ecount_o = g_lane[LANES-1].ecount_out;
  assign lfsr_o   = g_lane[LANES-1].lfsr_out;

endmodule

`default_nettype wire
