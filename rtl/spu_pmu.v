// openspu: the SAMPLE_* PMU event outputs (pmu-events.md, D14.3), as
// registered per-cycle counts.
//
// SAMPLE_POP and SAMPLE_COLLISION count lanes (0..LANES), SAMPLE_FEED,
// SAMPLE_FILTRATE and every SAMPLE_FEED_* count records (0..SLOTS) of the
// cycle. Events the configuration does not implement are constant zero
// (docs/semantics.md "PMU outputs"): SAMPLE_FEED_{BR,LD,ST,OP,EVENT,LAT}
// need FEAT_SPEv1p2, SAMPLE_FEED_{FP,SIMD} FEAT_SPE_EFT, SAMPLE_FEED_DS
// FEAT_SPE_FDS.

`default_nettype none

module spu_pmu #(
  parameter integer LANES     = 1,           // population members per cycle
  parameter integer SLOTS     = 1,           // record ports
  parameter integer FEAT_V1P2 = 0,           // FEAT_SPEv1p2 implemented
  parameter integer FEAT_EFT  = 0,           // FEAT_SPE_EFT implemented
  parameter integer FEAT_FDS  = 0            // FEAT_SPE_FDS implemented
) (
  input  wire             clk_i,             // clock
  input  wire             rst_ni,            // synchronous reset, active low
  input  wire [LANES-1:0] pop_i,             // SAMPLE_POP per lane
  input  wire [LANES-1:0] collision_i,       // SAMPLE_COLLISION per lane
  input  wire [SLOTS-1:0] feed_i,            // SAMPLE_FEED per record port
  input  wire [SLOTS-1:0] filtrate_i,        // SAMPLE_FILTRATE
  input  wire [SLOTS-1:0] feed_br_i,         // SAMPLE_FEED_BR
  input  wire [SLOTS-1:0] feed_ld_i,         // SAMPLE_FEED_LD
  input  wire [SLOTS-1:0] feed_st_i,         // SAMPLE_FEED_ST
  input  wire [SLOTS-1:0] feed_fp_i,         // SAMPLE_FEED_FP
  input  wire [SLOTS-1:0] feed_simd_i,       // SAMPLE_FEED_SIMD
  input  wire [SLOTS-1:0] feed_op_i,         // SAMPLE_FEED_OP
  input  wire [SLOTS-1:0] feed_event_i,      // SAMPLE_FEED_EVENT
  input  wire [SLOTS-1:0] feed_lat_i,        // SAMPLE_FEED_LAT
  input  wire [SLOTS-1:0] feed_ds_i,         // SAMPLE_FEED_DS
  output reg  [3:0]       pmu_pop_o,         // counts of the last cycle
  output reg  [3:0]       pmu_feed_o,
  output reg  [3:0]       pmu_filtrate_o,
  output reg  [3:0]       pmu_collision_o,
  output reg  [3:0]       pmu_feed_br_o,
  output reg  [3:0]       pmu_feed_ld_o,
  output reg  [3:0]       pmu_feed_st_o,
  output reg  [3:0]       pmu_feed_fp_o,
  output reg  [3:0]       pmu_feed_simd_o,
  output reg  [3:0]       pmu_feed_op_o,
  output reg  [3:0]       pmu_feed_event_o,
  output reg  [3:0]       pmu_feed_lat_o,
  output reg  [3:0]       pmu_feed_ds_o
);

  localparam [0:0] V1P2_IMPL = (FEAT_V1P2 != 0) ? 1'b1 : 1'b0;
  localparam [0:0] EFT_IMPL  = (FEAT_EFT != 0) ? 1'b1 : 1'b0;
  localparam [0:0] FDS_IMPL  = (FEAT_FDS != 0) ? 1'b1 : 1'b0;

  // Population counts (LANES <= 8, SLOTS <= 4: 4 bits suffice).
  function [3:0] count_lanes;
    input [LANES-1:0] v;
    integer i;
    begin
      count_lanes = 4'd0;
      for (i = 0; i < LANES; i = i + 1)
        count_lanes = count_lanes + {3'd0, v[i]};
    end
  endfunction

  function [3:0] count_ports;
    input [SLOTS-1:0] v;
    integer i;
    begin
      count_ports = 4'd0;
      for (i = 0; i < SLOTS; i = i + 1)
        count_ports = count_ports + {3'd0, v[i]};
    end
  endfunction

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      pmu_pop_o        <= 4'd0;
      pmu_feed_o       <= 4'd0;
      pmu_filtrate_o   <= 4'd0;
      pmu_collision_o  <= 4'd0;
      pmu_feed_br_o    <= 4'd0;
      pmu_feed_ld_o    <= 4'd0;
      pmu_feed_st_o    <= 4'd0;
      pmu_feed_fp_o    <= 4'd0;
      pmu_feed_simd_o  <= 4'd0;
      pmu_feed_op_o    <= 4'd0;
      pmu_feed_event_o <= 4'd0;
      pmu_feed_lat_o   <= 4'd0;
      pmu_feed_ds_o    <= 4'd0;
    end else begin
      pmu_pop_o        <= count_lanes(pop_i);
      pmu_feed_o       <= count_ports(feed_i);
      pmu_filtrate_o   <= count_ports(filtrate_i);
      pmu_collision_o  <= count_lanes(collision_i);
      pmu_feed_br_o    <= count_ports(feed_br_i & {SLOTS{V1P2_IMPL}});
      pmu_feed_ld_o    <= count_ports(feed_ld_i & {SLOTS{V1P2_IMPL}});
      pmu_feed_st_o    <= count_ports(feed_st_i & {SLOTS{V1P2_IMPL}});
      pmu_feed_fp_o    <= count_ports(feed_fp_i & {SLOTS{EFT_IMPL}});
      pmu_feed_simd_o  <= count_ports(feed_simd_i & {SLOTS{EFT_IMPL}});
      pmu_feed_op_o    <= count_ports(feed_op_i & {SLOTS{V1P2_IMPL}});
      pmu_feed_event_o <= count_ports(feed_event_i & {SLOTS{V1P2_IMPL}});
      pmu_feed_lat_o   <= count_ports(feed_lat_i & {SLOTS{V1P2_IMPL}});
      pmu_feed_ds_o    <= count_ports(feed_ds_i & {SLOTS{FDS_IMPL}});
    end
  end

endmodule

`default_nettype wire
