// openspu: the System register file of the unit (D24.7):
// decode of the packed {op0,op1,CRn,CRm,op2} encoding, reads, writes with the
// write mask, UNDEFINED accesses, and the unit's own set of PMBSR_EL1.COLL.
//
// Per cycle (docs/semantics.md steps 1 and 7):
//   read   MRS of an implemented register: reg_rdata_o (next cycle) = its value
//          at the start of the cycle (RES0/RAZ-WI bits read as zero because
//          only writable bits are ever stored);
//   undef  MRS/MSR of an absent or unknown encoding, or MSR to a read-only
//          register (REG_RO: PMSIDR_EL1, PMBIDR_EL1): reg_undef_o for one cycle, nothing changes;
//   write  MSR: the register gets wdata & WMASK at the clock edge, winning
//          over the unit's own update in the same cycle (SPESampleCollision()
//          setting PMBSR_EL1.COLL here; the PMSICR_EL1 counting in
//          spu_interval, which owns that register and gets the write strobe).
// Every register resets to zero (the architecture leaves most of them
// UNKNOWN; zero keeps PMBLIMITR_EL1.E = 0, so profiling starts disabled).
//
// Register index i = `SPU_REG_<NAME> (generated from configs/spu.toml)
// selects the 16-bit slice of REG_ENC, the 64-bit slice of REG_WMASK and bit
// i of REG_PRESENT and REG_RO; no position is typed here, so a reordered
// toml needs no change.
//
// Structure chosen for simulation speed (Verilator): one 64-bit register per
// architectural register, each with its own write enable, and the read mux
// and write decode inside the clocked block, where they run once per clock
// edge and only when there is an access. (A single 832-bit register vector
// with loops over variable part-selects was copied word by word several
// times per evaluation; combinational logic that reads both inputs and
// registers is evaluated twice per cycle by Verilator 5.)

`default_nettype none

`include "spu_config.vh"

module spu_regs #(
  parameter [`SPU_NREGS*16-1:0] REG_ENC     = {`SPU_NREGS*16{1'b0}}, // encodings
  parameter [`SPU_NREGS*64-1:0] REG_WMASK   = {`SPU_NREGS*64{1'b0}}, // writable
  parameter [`SPU_NREGS-1:0]    REG_PRESENT = {`SPU_NREGS{1'b0}},    // implemented
  parameter [`SPU_NREGS-1:0]    REG_RO      = {`SPU_NREGS{1'b0}},    // MRS only
  parameter [63:0]              PMSIDR      = 64'd0,  // PMSIDR_EL1 value
  parameter [63:0]              PMBIDR      = 64'd0   // PMBIDR_EL1 value
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
  input  wire        full_set_i,             // a buffer-full management event this cycle
  input  wire        ptr_we_i,               // PMBPTR_EL1 advances this cycle (spu_buffer) ...
  input  wire [63:0] ptr_i,                  // ... to this
  input  wire [63:0] pmsicr_i,               // PMSICR_EL1 (spu_interval)
  output wire        icr_we_o,               // MSR PMSICR_EL1 this cycle
  output wire [63:0] icr_wdata_o,            // its value, WMASK applied
  output wire        lim_we_o,               // MSR PMBPTR_EL1 or PMBLIMITR_EL1 this cycle
  output wire [63:0] pmscr_o,                // PMSCR_EL1
  output wire [63:0] pmsnevfr_o,             // PMSNEVFR_EL1
  output wire [63:0] pmsirr_o,               // PMSIRR_EL1
  output wire [63:0] pmsfcr_o,               // PMSFCR_EL1
  output wire [63:0] pmsevfr_o,              // PMSEVFR_EL1
  output wire [63:0] pmslatfr_o,             // PMSLATFR_EL1
  output wire [63:0] pmblimitr_o,            // PMBLIMITR_EL1
  output wire [63:0] pmbsr_o,                // PMBSR_EL1
  output wire [63:0] pmbptr_o,               // PMBPTR_EL1
  output wire [63:0] pmsdsfr_o               // PMSDSFR_EL1
);

  // Per register, by name: encoding, write mask, implemented, MRS only.
  localparam integer I_SCR   = `SPU_REG_PMSCR_EL1;
  localparam integer I_NEVFR = `SPU_REG_PMSNEVFR_EL1;
  localparam integer I_ICR   = `SPU_REG_PMSICR_EL1;
  localparam integer I_IRR   = `SPU_REG_PMSIRR_EL1;
  localparam integer I_FCR   = `SPU_REG_PMSFCR_EL1;
  localparam integer I_EVFR  = `SPU_REG_PMSEVFR_EL1;
  localparam integer I_LATFR = `SPU_REG_PMSLATFR_EL1;
  localparam integer I_SIDR  = `SPU_REG_PMSIDR_EL1;
  localparam integer I_LIM   = `SPU_REG_PMBLIMITR_EL1;
  localparam integer I_PTR   = `SPU_REG_PMBPTR_EL1;
  localparam integer I_BSR   = `SPU_REG_PMBSR_EL1;
  localparam integer I_DSFR  = `SPU_REG_PMSDSFR_EL1;
  localparam integer I_BIDR  = `SPU_REG_PMBIDR_EL1;

  localparam [15:0] E_SCR   = REG_ENC[16*I_SCR +: 16];
  localparam [15:0] E_NEVFR = REG_ENC[16*I_NEVFR +: 16];
  localparam [15:0] E_ICR   = REG_ENC[16*I_ICR +: 16];
  localparam [15:0] E_IRR   = REG_ENC[16*I_IRR +: 16];
  localparam [15:0] E_FCR   = REG_ENC[16*I_FCR +: 16];
  localparam [15:0] E_EVFR  = REG_ENC[16*I_EVFR +: 16];
  localparam [15:0] E_LATFR = REG_ENC[16*I_LATFR +: 16];
  localparam [15:0] E_SIDR  = REG_ENC[16*I_SIDR +: 16];
  localparam [15:0] E_LIM   = REG_ENC[16*I_LIM +: 16];
  localparam [15:0] E_PTR   = REG_ENC[16*I_PTR +: 16];
  localparam [15:0] E_BSR   = REG_ENC[16*I_BSR +: 16];
  localparam [15:0] E_DSFR  = REG_ENC[16*I_DSFR +: 16];
  localparam [15:0] E_BIDR  = REG_ENC[16*I_BIDR +: 16];

  localparam [63:0] M_SCR   = REG_WMASK[64*I_SCR +: 64];
  localparam [63:0] M_NEVFR = REG_WMASK[64*I_NEVFR +: 64];
  localparam [63:0] M_ICR   = REG_WMASK[64*I_ICR +: 64];
  localparam [63:0] M_IRR   = REG_WMASK[64*I_IRR +: 64];
  localparam [63:0] M_FCR   = REG_WMASK[64*I_FCR +: 64];
  localparam [63:0] M_EVFR  = REG_WMASK[64*I_EVFR +: 64];
  localparam [63:0] M_LATFR = REG_WMASK[64*I_LATFR +: 64];
  localparam [63:0] M_LIM   = REG_WMASK[64*I_LIM +: 64];
  localparam [63:0] M_PTR   = REG_WMASK[64*I_PTR +: 64];
  localparam [63:0] M_BSR   = REG_WMASK[64*I_BSR +: 64];
  localparam [63:0] M_DSFR  = REG_WMASK[64*I_DSFR +: 64];

  localparam integer COLL = `SPU_F_PMBSR_EL1_COLL_LSB;
  // OtherSPEManagementEvent('000001'): S = 1, EC = 0, MSS = BSC 0b000001
  // (buffer full), MSS2 = 0; DL and COLL are kept.
  localparam [63:0] BSR_KEEP = `SPU_F_PMBSR_EL1_DL_MASK | `SPU_F_PMBSR_EL1_COLL_MASK;
  localparam [63:0] BSR_FULL = `SPU_F_PMBSR_EL1_S_MASK | (64'd1 << `SPU_F_PMBSR_EL1_MSS_LSB);

  // The stored registers. PMSICR_EL1 lives in spu_interval and the ID
  // registers are constants.
  reg [63:0] scr_q, nevfr_q, irr_q, fcr_q, evfr_q, latfr_q;
  reg [63:0] lim_q, ptr_q, bsr_q, dsfr_q;

  // MSR PMSICR_EL1 (the only access decoded outside the clocked block,
  // because spu_interval needs the strobe in the same cycle).
  assign icr_we_o    = reg_valid_i & reg_write_i & REG_PRESENT[I_ICR] &
                       (reg_enc_i == E_ICR);
  assign icr_wdata_o = reg_wdata_i & M_ICR;
  // MSR PMBPTR_EL1 or PMBLIMITR_EL1: spu_buffer recomputes its limit.
  assign lim_we_o    = reg_valid_i & reg_write_i &
                       ((REG_PRESENT[I_PTR] & (reg_enc_i == E_PTR)) |
                        (REG_PRESENT[I_LIM] & (reg_enc_i == E_LIM)));

  // -------------------------------------------------- access and state
  // Encodings are distinct, so the case finds the one register an encoding
  // names; `pres` is that register's REG_PRESENT bit (absent -> UNDEFINED).
  // An MSR writes wdata & WMASK through we (bit i: register i), but
  // PMBSR_EL1 and PMBPTR_EL1, which the unit updates too, through their
  // next state; the access is decoded only in a cycle that has one.
  reg [`SPU_NREGS-1:0] we;
  reg [63:0]           rdata_d, bsr_d, ptr_d;
  reg                  undef_d;
  always @* begin : b_access
    reg        pres;                         // encoding implemented
    reg        ro;                           // ID register (MRS only)
    reg [63:0] rdata;                        // its value at cycle start
    we      = {`SPU_NREGS{1'b0}};
    rdata_d = 64'd0;
    undef_d = 1'b0;
    pres    = 1'b0;
    ro      = 1'b0;
    rdata   = 64'd0;
    // D17.3.7: a collision sets PMBSR_EL1.COLL; a buffer-full event sets S
    // and the syndrome (D17.8.2); the Profiling Buffer moves PMBPTR_EL1. An
    // MSR below wins over all of them.
    bsr_d   = bsr_q;
    if (full_set_i)
      bsr_d = (bsr_q & BSR_KEEP) | BSR_FULL | ({63'd0, coll_set_i} << COLL);
    else if (coll_set_i)
      bsr_d[COLL] = 1'b1;
    ptr_d   = ptr_q;
    if (ptr_we_i)
      ptr_d = ptr_i;
    if (reg_valid_i) begin
      case (reg_enc_i)
        E_SCR:   begin pres = REG_PRESENT[I_SCR]; ro = REG_RO[I_SCR];
                 rdata = scr_q; end
        E_NEVFR: begin pres = REG_PRESENT[I_NEVFR]; ro = REG_RO[I_NEVFR];
                 rdata = nevfr_q; end
        E_ICR:   begin pres = REG_PRESENT[I_ICR]; ro = REG_RO[I_ICR];
                 rdata = pmsicr_i; end
        E_IRR:   begin pres = REG_PRESENT[I_IRR]; ro = REG_RO[I_IRR];
                 rdata = irr_q; end
        E_FCR:   begin pres = REG_PRESENT[I_FCR]; ro = REG_RO[I_FCR];
                 rdata = fcr_q; end
        E_EVFR:  begin pres = REG_PRESENT[I_EVFR]; ro = REG_RO[I_EVFR];
                 rdata = evfr_q; end
        E_LATFR: begin pres = REG_PRESENT[I_LATFR]; ro = REG_RO[I_LATFR];
                 rdata = latfr_q; end
        E_SIDR:  begin pres = REG_PRESENT[I_SIDR]; ro = REG_RO[I_SIDR];
                 rdata = PMSIDR; end
        E_LIM:   begin pres = REG_PRESENT[I_LIM]; ro = REG_RO[I_LIM];
                 rdata = lim_q; end
        E_PTR:   begin pres = REG_PRESENT[I_PTR]; ro = REG_RO[I_PTR];
                 rdata = ptr_q; end
        E_BSR:   begin pres = REG_PRESENT[I_BSR]; ro = REG_RO[I_BSR];
                 rdata = bsr_q; end
        E_DSFR:  begin pres = REG_PRESENT[I_DSFR]; ro = REG_RO[I_DSFR];
                 rdata = dsfr_q; end
        E_BIDR:  begin pres = REG_PRESENT[I_BIDR]; ro = REG_RO[I_BIDR];
                 rdata = PMBIDR; end
        default: begin pres = 1'b0; ro = 1'b0; rdata = 64'd0; end
      endcase
      if (!pres || (reg_write_i && ro)) begin
        undef_d = 1'b1;
      end else if (!reg_write_i) begin
        rdata_d = rdata;
      end else begin
        // Step 7: wdata & WMASK; PMSICR_EL1 is written in spu_interval.
        case (reg_enc_i)
          E_SCR:   we[I_SCR]   = 1'b1;
          E_NEVFR: we[I_NEVFR] = 1'b1;
          E_IRR:   we[I_IRR]   = 1'b1;
          E_FCR:   we[I_FCR]   = 1'b1;
          E_EVFR:  we[I_EVFR]  = 1'b1;
          E_LATFR: we[I_LATFR] = 1'b1;
          E_LIM:   we[I_LIM]   = 1'b1;
          E_PTR:   ptr_d       = reg_wdata_i & M_PTR;
          E_BSR:   bsr_d       = reg_wdata_i & M_BSR;
          E_DSFR:  we[I_DSFR]  = 1'b1;
          default: ;                         // PMSICR_EL1: spu_interval
        endcase
      end
    end
  end

  always @(posedge clk_i) begin : b_regs_q
    if (!rst_ni) begin
      scr_q       <= 64'd0;
      nevfr_q     <= 64'd0;
      irr_q       <= 64'd0;
      fcr_q       <= 64'd0;
      evfr_q      <= 64'd0;
      latfr_q     <= 64'd0;
      lim_q       <= 64'd0;
      ptr_q       <= 64'd0;
      bsr_q       <= 64'd0;
      dsfr_q      <= 64'd0;
      reg_rdata_o <= 64'd0;
      reg_undef_o <= 1'b0;
    end else begin
      reg_rdata_o <= rdata_d;
      reg_undef_o <= undef_d;
      bsr_q       <= bsr_d;
      ptr_q       <= ptr_d;
      if (we != {`SPU_NREGS{1'b0}}) begin    // an MSR (simulation speed)
        if (we[I_SCR])   scr_q   <= reg_wdata_i & M_SCR;
        if (we[I_NEVFR]) nevfr_q <= reg_wdata_i & M_NEVFR;
        if (we[I_IRR])   irr_q   <= reg_wdata_i & M_IRR;
        if (we[I_FCR])   fcr_q   <= reg_wdata_i & M_FCR;
        if (we[I_EVFR])  evfr_q  <= reg_wdata_i & M_EVFR;
        if (we[I_LATFR]) latfr_q <= reg_wdata_i & M_LATFR;
        if (we[I_LIM])   lim_q   <= reg_wdata_i & M_LIM;
        if (we[I_DSFR])  dsfr_q  <= reg_wdata_i & M_DSFR;
      end
    end
  end

  assign pmscr_o     = scr_q;
  assign pmsnevfr_o  = nevfr_q;
  assign pmsirr_o    = irr_q;
  assign pmsfcr_o    = fcr_q;
  assign pmsevfr_o   = evfr_q;
  assign pmslatfr_o  = latfr_q;
  assign pmblimitr_o = lim_q;
  assign pmbsr_o     = bsr_q;
  assign pmsdsfr_o   = dsfr_q;

  assign pmbptr_o    = ptr_q;

`ifdef FORMAL
  // Proved with spu_top as the top (formal/spu.sby).
  reg f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;

  // An access is UNDEFINED when no implemented register has its encoding,
  // or it is an MSR to a read-only one (D24.7; restated from the parameters,
  // independently of the decode above).
  reg f_undef;
  always @* begin : f_decode
    integer i;
    reg known, known_ro;
    known    = 1'b0;
    known_ro = 1'b0;
    for (i = 0; i < `SPU_NREGS; i = i + 1) begin
      if (REG_PRESENT[i] && reg_enc_i == REG_ENC[16*i +: 16]) begin
        known    = 1'b1;
        known_ro = REG_RO[i];
      end
    end
    f_undef = reg_valid_i && (!known || (reg_write_i && known_ro));
  end
  // A defined MSR PMBSR_EL1 (software's write).
  wire f_bsr_msr = reg_valid_i && reg_write_i && REG_PRESENT[I_BSR] &&
                   !REG_RO[I_BSR] && reg_enc_i == E_BSR;

  always @(posedge clk_i) begin
    if (f_past_valid && $past(rst_ni)) begin
      // D17.3.7: a collision sets PMBSR_EL1.COLL, and it stays set until
      // software writes PMBSR_EL1 (an MSR in the same cycle wins).
      if (!$past(f_bsr_msr) && ($past(bsr_q[COLL]) || $past(coll_set_i)))
        CollStaysSet_A: assert (bsr_q[COLL]);
      if ($past(f_bsr_msr))
        BsrTakesWrite_A: assert (bsr_q == ($past(reg_wdata_i) & M_BSR));
      // The register port changes nothing on an UNDEFINED access: every
      // register keeps its value (but for what the unit itself changes in
      // that cycle: COLL, a buffer-full syndrome, PMBPTR_EL1), the read data
      // is zero and reg_undef_o is set.
      if ($past(f_undef))
        UndefChangesNothing_A: assert (
            scr_q == $past(scr_q) && nevfr_q == $past(nevfr_q) &&
            irr_q == $past(irr_q) && fcr_q == $past(fcr_q) &&
            evfr_q == $past(evfr_q) && latfr_q == $past(latfr_q) &&
            lim_q == $past(lim_q) &&
            ptr_q == ($past(ptr_we_i) ? $past(ptr_i) : $past(ptr_q)) &&
            dsfr_q == $past(dsfr_q) &&
            bsr_q == (($past(full_set_i) ? (($past(bsr_q) & BSR_KEEP) | BSR_FULL) : $past(bsr_q)) |
                      ({63'd0, $past(coll_set_i)} << COLL)) &&
            reg_undef_o && reg_rdata_o == 64'd0);
      // A defined access never raises reg_undef_o.
      if ($past(reg_valid_i) && !$past(f_undef))
        DefinedNotUndef_A: assert (!reg_undef_o);
    end
  end
  // ... and PMSICR_EL1 (in spu_interval) is not written either.
  always @* begin
    UndefNoIcrWrite_A: assert (!f_undef || !icr_we_o);
  end
`endif

endmodule

`default_nettype wire
