// openspu: the SAMPLE_* PMU event outputs (D14.3), as registered per-cycle
// counts packed into one vector.
//
// SAMPLE_POP and SAMPLE_COLLISION count lanes (0..LANES), SAMPLE_FEED,
// SAMPLE_FILTRATE and every SAMPLE_FEED_* count finishes (0..SLOTS) of the
// cycle. Event SAMPLE_<NAME> is the `SPU_PMU_W-bit count at
// [`SPU_PMU_W*`SPU_PMU_<NAME> +: `SPU_PMU_W]: the names, the order and the
// feature that gates each come from configs/spu.toml ([pmu.*]). Events the
// configuration does not implement (PMU_IMPL bit clear) are constant zero
// (docs/semantics.md "PMU outputs").

`default_nettype none

`include "spu_config.vh"

module spu_pmu #(
  parameter integer             LANES    = 1,                // members per cycle
  parameter integer             SLOTS    = 1,                // finish ports
  parameter [`SPU_NPMU-1:0]     PMU_IMPL = {`SPU_NPMU{1'b0}} // event implemented
) (
  input  wire             clk_i,             // clock
  input  wire             rst_ni,            // synchronous reset, active low
  input  wire [LANES-1:0] pop_i,             // SAMPLE_POP per lane
  input  wire [LANES-1:0] collision_i,       // SAMPLE_COLLISION per lane
  input  wire [SLOTS-1:0] feed_i,            // SAMPLE_FEED per finish port
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
  input  wire             buffer_full_i,     // SAMPLE_BUFFER_FULL (at most one a cycle)
  output reg  [`SPU_NPMU*`SPU_PMU_W-1:0] pmu_o // counts of the last cycle
);

  localparam integer W = `SPU_PMU_W;         // 0..max(MAX_LANES, MAX_SLOTS)

  // Population counts (LANES <= MAX_LANES, SLOTS <= MAX_SLOTS fit in W bits).
  function [W-1:0] count_lanes;
    input [LANES-1:0] v;
    integer i;
    begin
      count_lanes = {W{1'b0}};
      for (i = 0; i < LANES; i = i + 1)
        count_lanes = count_lanes + {{(W-1){1'b0}}, v[i]};
    end
  endfunction

  function [W-1:0] count_ports;
    input [SLOTS-1:0] v;
    integer i;
    begin
      count_ports = {W{1'b0}};
      for (i = 0; i < SLOTS; i = i + 1)
        count_ports = count_ports + {{(W-1){1'b0}}, v[i]};
    end
  endfunction

  // Each event at its generated index; an event the toml lists but this
  // module does not drive stays zero, one it drives but the toml lacks does
  // not compile (undefined macro).
  reg [`SPU_NPMU*W-1:0] cnt;
  always @* begin
    cnt = {`SPU_NPMU*W{1'b0}};
    cnt[W*`SPU_PMU_POP        +: W] = count_lanes(pop_i);
    cnt[W*`SPU_PMU_COLLISION  +: W] = count_lanes(collision_i);
    cnt[W*`SPU_PMU_FEED       +: W] = count_ports(feed_i);
    cnt[W*`SPU_PMU_FILTRATE   +: W] = count_ports(filtrate_i);
    cnt[W*`SPU_PMU_FEED_BR    +: W] = count_ports(feed_br_i);
    cnt[W*`SPU_PMU_FEED_LD    +: W] = count_ports(feed_ld_i);
    cnt[W*`SPU_PMU_FEED_ST    +: W] = count_ports(feed_st_i);
    cnt[W*`SPU_PMU_FEED_FP    +: W] = count_ports(feed_fp_i);
    cnt[W*`SPU_PMU_FEED_SIMD  +: W] = count_ports(feed_simd_i);
    cnt[W*`SPU_PMU_FEED_OP    +: W] = count_ports(feed_op_i);
    cnt[W*`SPU_PMU_FEED_EVENT +: W] = count_ports(feed_event_i);
    cnt[W*`SPU_PMU_FEED_LAT   +: W] = count_ports(feed_lat_i);
    cnt[W*`SPU_PMU_FEED_DS    +: W] = count_ports(feed_ds_i);
    cnt[W*`SPU_PMU_BUFFER_FULL +: W] = {{(W-1){1'b0}}, buffer_full_i};
  end

  // Implemented events only: PMU_IMPL bit e spread over count e.
  wire [`SPU_NPMU*W-1:0] impl;
  genvar e;
  generate
    for (e = 0; e < `SPU_NPMU; e = e + 1) begin : g_impl
      assign impl[W*e +: W] = {W{PMU_IMPL[e]}};
    end
  endgenerate

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      pmu_o <= {`SPU_NPMU*W{1'b0}};
    end else begin
      pmu_o <= cnt & impl;
    end
  end

endmodule

`default_nettype wire
