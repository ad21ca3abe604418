// openspu: the Profiling Buffer's limit gap (Arm ARM D17.7.2, D17.8;
// docs/buffer.md).
//
// SPEBufferIsFull() compares PMBPTR_EL1 with PMBPTR_EL1.LIMIT. The full
// test of spu_buffer needs, for the pointer's page A = PMBPTR_EL1[63:12]
// and for A + 1, whether A >= LIMIT and whether A = LIMIT - 1. They come
// from lim_gap_q = LIMIT - PMBPTR_EL1[63:12] (53-bit, signed), a register
// kept up to date as records move the pointer, so no 52-bit add or compare
// is in the reservation's cycle: down by one when a record carries the
// pointer into its next page (to LIMIT when it wraps to page 0). After an
// MSR PMBPTR_EL1 or PMBLIMITR_EL1 the next cycle recomputes it (stale_o),
// and that cycle and the one after it (stale2_o, while the stop a cycle
// ahead catches up) reserve nothing (docs/impl-defined.md rows 46, 47).

`default_nettype none

module spu_limit_gap (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire [63:0] pmbptr_i,        // PMBPTR_EL1
  input  wire [63:0] limit_i,         // PMBLIMITR_EL1.LIMIT:Zeros(12)
  input  wire        lim_we_i,        // MSR PMBPTR_EL1 or PMBLIMITR_EL1 this cycle
  input  wire        ptr_we_i,        // a record enters: PMBPTR_EL1 advances ...
  input  wire        step_i,          // ... into its next page
  input  wire        work_i,          // a record waits or is kept (flags wanted)
  output reg  [3:0]  lf_o,            // {LIMIT = 0, A >= LIMIT, A = LIMIT - 1, A + 1 >= LIMIT}
  output reg         hi_ones_o,       // A + 1 wraps to page 0
  output wire        stale_o,         // lim_gap_q is being recomputed ...
  output wire        stale2_o         // ... or was, in the cycle before
);

  wire [51:0] ptr_hi     = pmbptr_i[63:12];
  wire [51:0] lim_hi     = limit_i[63:12];
  wire        unused_lim = ^{pmbptr_i[11:0], limit_i[11:0]};   // Zeros(12)
  reg  [52:0] lim_gap_q, lim_gap_d;   // LIMIT - PMBPTR_EL1[63:12]
  reg         lim_stale_q, lim_stale_d;
  reg         lim_stale2_q;
  assign stale_o  = lim_stale_q;
  assign stale2_o = lim_stale2_q;

  // The flags: worked out only in a cycle with a waiting or kept record
  // (simulation speed).
  always @* begin : b_flags
    lf_o      = 4'd0;
    hi_ones_o = 1'b0;
    if (work_i) begin
      hi_ones_o = &ptr_hi;
      lf_o[3]   = lim_hi == 52'd0;
      lf_o[2]   = lim_gap_q[52] | (lim_gap_q == 53'd0);                   // A >= LIMIT
      lf_o[1]   = lim_gap_q == 53'd1;                                     // A = LIMIT - 1
      lf_o[0]   = hi_ones_o ? lf_o[3] : (lim_gap_q[52] | (lim_gap_q[52:1] == 52'd0));
    end
  end

  // Worked out only in a cycle that changes it (simulation speed).
  wire lim_work = lim_stale_q | lim_stale2_q | lim_we_i | ptr_we_i;
  always @* begin : b_gap
    lim_gap_d   = lim_gap_q;
    lim_stale_d = lim_we_i;
    if (lim_work) begin
      if (lim_stale_q)
        lim_gap_d = {1'b0, lim_hi} - {1'b0, ptr_hi};
      else if (step_i)                   // PMBPTR_EL1[63:12] + 1
        lim_gap_d = (&ptr_hi) ? {1'b0, lim_hi} : lim_gap_q - 53'd1;
    end
  end

  always @(posedge clk_i) begin : b_lim
    if (!rst_ni) begin
      lim_gap_q    <= 53'd0;
      lim_stale_q  <= 1'b1;
      lim_stale2_q <= 1'b1;
    end else if (lim_work) begin
      lim_gap_q    <= lim_gap_d;
      lim_stale_q  <= lim_stale_d;
      lim_stale2_q <= lim_stale_q;
    end
  end

`ifdef FORMAL
  // Proved with spu_top as the top (formal/spu.sby, group full): after the
  // first clock edge the kept gap is LIMIT - PMBPTR_EL1[63:12] unless it is
  // being recomputed.
  reg f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;
  always @* begin
    if (f_past_valid)
      LimGapValid_A: assert (lim_stale_q || lim_gap_q == {1'b0, lim_hi} - {1'b0, ptr_hi});
  end
`endif

endmodule

`default_nettype wire
