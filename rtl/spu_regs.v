// openspu: the System register file of the unit (registers.md, D24.7):
// decode of the packed {op0,op1,CRn,CRm,op2} encoding, reads, writes with the
// write mask, UNDEFINED accesses, and the unit's own set of PMBSR_EL1.COLL.
//
// Per cycle (docs/semantics.md steps 1 and 7):
//   read   MRS of an implemented register: reg_rdata_o (next cycle) = its value
//          at the start of the cycle (RES0/RAZ-WI bits read as zero because
//          only writable bits are ever stored);
//   undef  MRS/MSR of an absent or unknown encoding, or MSR to PMSIDR_EL1 or
//          PMBIDR_EL1 (MRS only): reg_undef_o for one cycle, nothing changes;
//   write  MSR: the register gets wdata & WMASK at the clock edge, winning
//          over the unit's own update in the same cycle (SPESampleCollision()
//          setting PMBSR_EL1.COLL here; the PMSICR_EL1 counting in
//          spu_interval, which owns that register and gets the write strobe).
// Every register resets to zero (the architecture leaves most of them
// UNKNOWN; zero keeps PMBLIMITR_EL1.E = 0, so profiling starts disabled).
//
// Register index i (configs/spu.toml order) selects the 16-bit slice of
// REG_ENC, the 64-bit slice of REG_WMASK and bit i of REG_PRESENT.

`default_nettype none

`include "spu_config.vh"

module spu_regs #(
  parameter [13*16-1:0] REG_ENC     = {13*16{1'b0}}, // packed encodings
  parameter [13*64-1:0] REG_WMASK   = {13*64{1'b0}}, // writable bits
  parameter [12:0]      REG_PRESENT = 13'd0,         // implemented here
  parameter [63:0]      PMSIDR      = 64'd0,         // PMSIDR_EL1 value
  parameter [63:0]      PMBIDR      = 64'd0          // PMBIDR_EL1 value
) (
  input  wire        clk_i,                  // clock
  input  wire        rst_ni,                 // synchronous reset, active low
  input  wire        reg_valid_i,            // register access this cycle
  input  wire        reg_write_i,            // 1 MSR, 0 MRS
  input  wire [15:0] reg_enc_i,              // packed encoding
  input  wire [63:0] reg_wdata_i,            // MSR data
  output reg  [63:0] reg_rdata_o,            // MRS data of the last cycle
  output reg         reg_undef_o,            // last access was UNDEFINED
  input  wire        coll_set_i,             // SPESampleCollision() this cycle
  input  wire [63:0] pmsicr_i,               // PMSICR_EL1 (spu_interval)
  output wire        icr_we_o,               // MSR PMSICR_EL1 this cycle
  output wire [63:0] icr_wdata_o,            // its value, WMASK applied
  output wire [63:0] pmscr_o,                // PMSCR_EL1
  output wire [63:0] pmsnevfr_o,             // PMSNEVFR_EL1
  output wire [63:0] pmsirr_o,               // PMSIRR_EL1
  output wire [63:0] pmsfcr_o,               // PMSFCR_EL1
  output wire [63:0] pmsevfr_o,              // PMSEVFR_EL1
  output wire [63:0] pmslatfr_o,             // PMSLATFR_EL1
  output wire [63:0] pmblimitr_o,            // PMBLIMITR_EL1
  output wire [63:0] pmbsr_o,                // PMBSR_EL1
  output wire [63:0] pmsdsfr_o               // PMSDSFR_EL1
);

  // Register indexes (configs/spu.toml and golden spu_config.h order).
  localparam integer NREGS     = 13;
  localparam integer PMSCR     = 0;
  localparam integer PMSNEVFR  = 1;
  localparam integer PMSICR    = 2;
  localparam integer PMSIRR    = 3;
  localparam integer PMSFCR    = 4;
  localparam integer PMSEVFR   = 5;
  localparam integer PMSLATFR  = 6;
  localparam integer PMSIDR_I  = 7;
  localparam integer PMBLIMITR = 8;
  localparam integer PMBPTR    = 9;
  localparam integer PMBSR     = 10;
  localparam integer PMSDSFR   = 11;
  localparam integer PMBIDR_I  = 12;
  localparam integer COLL      = PMBSR * 64 + `SPU_F_PMBSR_EL1_COLL_LSB;

  // The stored registers, at [64i+:64]. PMSICR_EL1 lives in spu_interval and
  // the ID registers are constants, so their slices here stay zero.
  reg [NREGS*64-1:0] regs_q, regs_d;

  // ---------------------------------------------------------- decode
  reg [NREGS-1:0] hit;                       // encoding i implemented
  always @* begin : b_decode
    integer i;
    for (i = 0; i < NREGS; i = i + 1)
      hit[i] = (reg_enc_i == REG_ENC[16*i +: 16]) && REG_PRESENT[i];
  end

  wire found    = |hit;
  wire is_ro    = hit[PMSIDR_I] | hit[PMBIDR_I];
  wire rd_ok    = reg_valid_i & ~reg_write_i & found;
  wire wr_ok    = reg_valid_i & reg_write_i & found & ~is_ro;
  wire undef    = reg_valid_i & (~found | (reg_write_i & is_ro));

  // ------------------------------------------------------------- read
  // The register seen by MRS: stored value, PMSICR_EL1 from spu_interval,
  // ID registers from the configuration. Values at the start of the cycle.
  reg [NREGS*64-1:0] view;
  reg [63:0]         rdata;
  always @* begin : b_read
    integer i;
    view                     = regs_q;
    view[PMSICR*64 +: 64]    = pmsicr_i;
    view[PMSIDR_I*64 +: 64]  = PMSIDR;
    view[PMBIDR_I*64 +: 64]  = PMBIDR;
    rdata                    = 64'd0;
    for (i = 0; i < NREGS; i = i + 1)
      if (hit[i]) rdata = rdata | view[64*i +: 64];
  end

  // ------------------------------------------------------------ write
  always @* begin : b_write
    integer i;
    regs_d = regs_q;
    // D17.3.7: a collision sets PMBSR_EL1.COLL; the MSR below wins.
    if (coll_set_i) regs_d[COLL] = 1'b1;
    for (i = 0; i < NREGS; i = i + 1)
      if (wr_ok && hit[i] && i != PMSICR)
        regs_d[64*i +: 64] = reg_wdata_i & REG_WMASK[64*i +: 64];
  end

  assign icr_we_o    = wr_ok & hit[PMSICR];
  assign icr_wdata_o = reg_wdata_i & REG_WMASK[PMSICR*64 +: 64];

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      regs_q      <= {NREGS*64{1'b0}};
      reg_rdata_o <= 64'd0;
      reg_undef_o <= 1'b0;
    end else begin
      regs_q      <= regs_d;
      reg_rdata_o <= rd_ok ? rdata : 64'd0;
      reg_undef_o <= undef;
    end
  end

  assign pmscr_o     = regs_q[PMSCR*64     +: 64];
  assign pmsnevfr_o  = regs_q[PMSNEVFR*64  +: 64];
  assign pmsirr_o    = regs_q[PMSIRR*64    +: 64];
  assign pmsfcr_o    = regs_q[PMSFCR*64    +: 64];
  assign pmsevfr_o   = regs_q[PMSEVFR*64   +: 64];
  assign pmslatfr_o  = regs_q[PMSLATFR*64  +: 64];
  assign pmblimitr_o = regs_q[PMBLIMITR*64 +: 64];
  assign pmbsr_o     = regs_q[PMBSR*64     +: 64];
  assign pmsdsfr_o   = regs_q[PMSDSFR*64   +: 64];

  // PMBPTR_EL1 is read and written but not used by this unit (no Profiling
  // Buffer yet, ARCHITECTURE.md); the ID-register slices are never written.
  wire unused_regs = ^{regs_q[PMBPTR*64 +: 64], regs_q[PMSICR*64 +: 64],
                       regs_q[PMSIDR_I*64 +: 64], regs_q[PMBIDR_I*64 +: 64]};

`ifdef FORMAL
  // Encodings are distinct, so at most one register matches.
  always @* begin
    assert ((hit & (hit - 13'd1)) == 13'd0);
  end
`endif

endmodule

`default_nettype wire
