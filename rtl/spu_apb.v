// openspu: spu_top behind an AMBA APB4 completer (docs/integration.md, "The
// APB wrapper"), for a system without an Arm core's system-register port:
// the unit's System registers (Arm ARM D17.7) and free-running counts of its
// SAMPLE_* PMU events (D14.3) in a 32-bit memory map.
//
// Memory map (PADDR[11:0], 32-bit words):
//   0x000-0x07F  the System register with encoding op0=3, op1=0, CRn=9,
//                CRm=9+PADDR[6], op2=PADDR[5:3] (every register of the
//                unit has this form; configs/spu.toml and gen_config.py
//                check it): low word at +0, high word at +4.
//                Reading the low word reads the register (one MRS) and
//                keeps its high half, which a read of the high word
//                returns: read low then high for a consistent 64-bit value.
//                Writing the low word only holds it; writing the high word
//                writes the register (one MSR of {high, held low}): write
//                low then high. An access the unit finds UNDEFINED (no such
//                register, an ID register written) gets PSLVERR and changes
//                nothing.
//   0x100+4e     SAMPLE_* event e (the order of configs/spu.toml [pmu.*]):
//                a 32-bit counter of every count the unit reported since
//                reset, wrapping; read only.
//   elsewhere    PSLVERR, no effect; so is a write to a counter and a write
//                with PSTRB other than 4'b1111.
// Every transfer has exactly one wait state (PREADY, PRDATA and PSLVERR are
// registers, or the unit's registered read port): the access phase takes two
// cycles. The unit sees an MRS or MSR in the first cycle of the access phase.
// PPROT is not checked (the unit has no secure or privileged view of its
// registers; the bus fabric guards the window). rst_ni resets the wrapper and
// the unit (PRESETn).
//
// Every other port of spu_top passes through, and so do its register port's
// outputs reg_rdata_o and reg_undef_o, as observation ports for a checker
// (like obs_pmsicr_o).

`default_nettype none

`include "spu_config.vh"

module spu_apb #(
  parameter integer LANES   = `SPU_LANES,    // as spu_top's (the generated
  parameter integer SLOTS   = `SPU_SLOTS     // configuration include)
) (
  // APB4 completer
  input  wire                  psel_i,
  input  wire                  penable_i,
  input  wire                  pwrite_i,
  input  wire [11:0]           paddr_i,
  input  wire [31:0]           pwdata_i,
  input  wire [3:0]            pstrb_i,
  input  wire [2:0]            pprot_i,
  output wire [31:0]           prdata_o,
  output wire                  pready_o,
  output wire                  pslverr_o,
  // spu_top's ports but its register port's inputs, generated from
  // configs/spu.toml [ports]. clk_i is PCLK and rst_ni PRESETn, synchronous.
  // reg_rdata_o and reg_undef_o are observation ports for a checker, like
  // obs_pmsicr_o.
`include "spu_apb_ports.vh"
);

  localparam integer N = `SPU_NPMU;
  localparam integer W = `SPU_PMU_W;

  // ------------------------------------------------------------ decode
  // The first cycle of an access phase (pready_q is set by it, so a transfer
  // is seen once).
  reg         pready_q;
  wire        start   = psel_i & penable_i & ~pready_q;
  wire        in_regs = paddr_i[11:7] == 5'd0;
  wire        in_pmu  = paddr_i[11:8] == 4'h1 && paddr_i[1:0] == 2'b00 &&
                        paddr_i[7:2] < N[5:0];
  wire [5:0]  ev      = paddr_i[7:2];
  wire        hi      = paddr_i[2];
  wire        full    = pstrb_i == 4'b1111;
  // The unit's access: a read of a low word or a write of a high word.
  wire        reg_valid = start & in_regs & (pwrite_i ? (hi & full) : ~hi);
  // {op0, op1, CRn, CRm, op2}, packed as the unit takes it
  wire [15:0] reg_enc   = {2'd3, 3'd0, 4'd9, 4'd9 + {3'd0, paddr_i[6]}, paddr_i[5:3]};
  reg  [31:0] wlo_q;                   // the low word written, held
  wire [63:0] rdata;
  wire        undef;

  // ----------------------------------------------------------- the unit
  spu_top #(
    .LANES            (LANES),
    .SLOTS            (SLOTS)
  ) u_unit (
`include "spu_top_conn.vh"
    .reg_valid_i      (reg_valid),
    .reg_write_i      (pwrite_i),
    .reg_enc_i        (reg_enc),
    .reg_wdata_i      ({pwdata_i, wlo_q})
  );
  assign rdata = reg_rdata_o;
  assign undef = reg_undef_o;

  // ------------------------------------------------ SAMPLE_* counters
  // cnt[e] adds the count the unit shows for event e in every cycle.
  reg [32*N-1:0] cnt_q;
  always @(posedge clk_i) begin : b_cnt
    integer e;
    if (!rst_ni)
      cnt_q <= {32*N{1'b0}};
    else
      for (e = 0; e < N; e = e + 1)
        cnt_q[32*e +: 32] <= cnt_q[32*e +: 32] + {{(32-W){1'b0}}, pmu_o[W*e +: W]};
  end

  // --------------------------------------------------------- response
  // Registered: PREADY in the second cycle of every access phase, with
  // PRDATA/PSLVERR from the wrapper's own registers, or from the unit's read
  // port (its outputs are registered) for a transfer the unit took.
  reg         unit_q;                  // the transfer went to the unit
  reg         half_q;                  // ... and returns the low half of rdata
  reg  [31:0] rhi_q;                   // high half of the last low-word read
  reg  [31:0] prdata_q;
  reg         pslverr_q;
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      pready_q  <= 1'b0;
      unit_q    <= 1'b0;
      half_q    <= 1'b0;
      prdata_q  <= 32'd0;
      pslverr_q <= 1'b0;
      wlo_q     <= 32'd0;
      rhi_q     <= 32'd0;
    end else begin
      pready_q  <= start;
      unit_q    <= reg_valid;
      half_q    <= reg_valid & ~pwrite_i;
      prdata_q  <= 32'd0;
      pslverr_q <= 1'b0;
      if (unit_q & half_q)
        rhi_q <= rdata[63:32];         // the read's high half, shown with its low
      if (start) begin
        if (in_regs & pwrite_i & ~hi & full)
          wlo_q <= pwdata_i;
        if (in_regs & ~pwrite_i & hi)
          prdata_q <= rhi_q;
        else if (in_pmu & ~pwrite_i)
          prdata_q <= cnt_q[32*ev +: 32];
        pslverr_q <= ~(in_regs & (~pwrite_i | full)) & ~(in_pmu & ~pwrite_i);
      end
    end
  end

  assign pready_o  = pready_q;
  assign prdata_o  = unit_q ? (half_q ? rdata[31:0] : 32'd0) : prdata_q;
  assign pslverr_o = unit_q ? undef : pslverr_q;

  wire unused_apb = ^pprot_i;          // PPROT is not checked (above)

endmodule

`default_nettype wire
