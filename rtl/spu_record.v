// openspu: the sample record of every kept sample (Arm ARM D17.6, the
// packets of D18; docs/records.md), captured at the clock edge that ends the
// finish cycle as its packets, for the serial encoder (spu_encode) to write.
//
// At the selection (SPEStartSample(), SPESampleAddContext()) each slot
// latches the Exception level of the sampled operation and whether
// CONTEXTIDR_EL1 is to be collected: PMSCR_EL1.CX = 1 at EL0 or EL1 (no EL2,
// CollectContextIDR1()). At the finish, for a kept record (collected, not
// discarded), the packets SPEConstructRecord() writes, each as its header
// byte and 8 payload bytes (pkt_o, packet i of slot s at [72*(NPKT*s + i)
// +: 72], in the packet table's order, `SPU_PKT_*), and which of them the
// record has (pres_o): Context, Counter packets by index (total, issue
// latency), Address packets by index (PC, branch target, data virtual, data
// physical when PMSCR_EL1.PA, previous branch target with FEAT_SPE_PBT), Data
// Source (FEAT_SPE_LDS), Operation Type, Events (EV_BYTES of payload, bits
// REC_EV_MASK), then Timestamp (ts_i) when PMSCR_EL1.TS, else End; the record
// is padded with zeros to 1 << PMBIDR_EL1.Align bytes (len). The record is
// the slot's, whichever finish port finished it (docs/buffer.md: it waits in
// its slot for the write path). The capture holds until the slot's next
// kept record. len_o and len_c_o are per finish port. Payload bytes beyond a
// packet's size are zero, and header bits are constants but Operation
// Type's class: synthesis keeps no register for them.

`default_nettype none

`include "spu_config.vh"

module spu_record #(
  parameter integer LANES       = 1,
  parameter integer SLOTS       = 1,
  parameter integer EV_BYTES    = 1,         // Events packet payload bytes
  parameter integer NPKT        = `SPU_NPKT, // packets of the packet table ...
  parameter [NPKT*4-1:0] PKT_SIZE = {NPKT{4'd1}}, // ... and their sizes (spu_top)
  parameter [63:0]  REC_EV_MASK = 64'hFF,    // Events packet bits written
  parameter integer ALIGN       = 0,         // PMBIDR_EL1.Align
  parameter integer FEAT_LDS    = 0,         // FEAT_SPE_LDS: Data Source packet
  parameter integer FEAT_SVE    = 0,         // FEAT_SVE: the SVE Operation Type formats
  parameter integer FEAT_PBT    = 0          // FEAT_SPE_PBT: previous branch target
) (
  input  wire                   clk_i,
  input  wire                   rst_ni,
  // selections this cycle (spu_slots) and the context they are made in
  input  wire [LANES-1:0]       smp_i,
  input  wire [LANES*2-1:0]     smp_slot_i,
  input  wire [1:0]             el_i,
  input  wire [63:0]            pmscr_i,        // PMSCR_EL1 (CX, PA, TS)
  // finishes: kept records and what they carry
  input  wire [SLOTS-1:0]       fin_valid_i,    // finishes this cycle (the filter's inputs)
  input  wire [SLOTS-1:0]       keep_i,
  input  wire [SLOTS*2-1:0]     fin_slot_i,
  input  wire [SLOTS*16-1:0]    tot_i,          // saturated total latency
  input  wire [SLOTS*16-1:0]    iss_i,          // saturated issue latency
  input  wire [SLOTS*5-1:0]     fin_type_i,     // {SIMD,FP,ST,LD,B}
  input  wire [SLOTS*11-1:0]    fin_attr_i,     // {EVL[2:0],SG,PRED,SVE,NS,AR,EXCL,IND,COND}
  input  wire [SLOTS*4-1:0]     fin_addr_valid_i, // {PBT,PA,VA,TGT}
  input  wire [SLOTS*32-1:0]    fin_ctx_i,      // CONTEXTIDR_EL1
  input  wire [SLOTS*56-1:0]    fin_pc_i,       // PC [55:0]
  input  wire [SLOTS*56-1:0]    fin_tgt_i,      // branch target [55:0]
  input  wire [SLOTS*64-1:0]    fin_va_i,       // data virtual address
  input  wire [SLOTS*56-1:0]    fin_pa_i,       // data physical address [55:0]
  input  wire [SLOTS*56-1:0]    fin_pbt_i,      // previous branch target [55:0]
  input  wire [SLOTS*64-1:0]    fin_events_i,   // Events packet bits
  input  wire [SLOTS-1:0]       fin_ds_valid_i,
  input  wire [SLOTS*16-1:0]    fin_ds_i,
  input  wire [63:0]            ts_i,           // timer
  output wire [SLOTS*8-1:0]     len_c_o,        // this cycle's record bytes, 0 = none (combinational)
  output wire [SLOTS*8-1:0]     len_o,          // record bytes, 0 = none (registered)
  output wire [SLOTS*NPKT*72-1:0] pkt_o,        // each slot's last record's packets (registered)
  output wire [SLOTS*NPKT-1:0]  pres_o,         // ... which it has ...
  output wire [SLOTS*8-1:0]     slot_len_o      // ... and its length (registered)
);

  localparam [1:0] EV_SZ = (EV_BYTES == 1) ? 2'd0 : (EV_BYTES == 2) ? 2'd1 :
                           (EV_BYTES == 4) ? 2'd2 : 2'd3;
  localparam integer ALIGN_B = 1 << ALIGN;
  // Bit positions of fin_type_i and fin_attr_i (docs/ports.md).
  localparam integer T_B = 0, T_LD = 1, T_ST = 2, T_FP = 3, T_SIMD = 4;
  localparam integer A_COND = 0, A_IND = 1, A_EXCL = 2, A_AR = 3, A_NS = 4, A_SVE = 5,
                     A_PRED = 6, A_SG = 7, A_EVL = 8;
  localparam [0:0]   SVE_IMPL = (FEAT_SVE != 0) ? 1'b1 : 1'b0;

  // ---------------------------------------- context latched at selection
  // indexed by a 2-bit slot number, so sized for SPU_MAX_SLOTS
  reg  [`SPU_MAX_SLOTS*2-1:0] el_q;
  reg  [`SPU_MAX_SLOTS-1:0]   cx_q;
  wire               cx_now = pmscr_i[`SPU_F_PMSCR_EL1_CX_LSB] & ~el_i[1];
  // PMSCR_EL1 bits other than CX, PA and TS are read by spu_top.
  wire unused_pmscr = ^(pmscr_i & ~(`SPU_F_PMSCR_EL1_CX_MASK | `SPU_F_PMSCR_EL1_PA_MASK |
                                    `SPU_F_PMSCR_EL1_TS_MASK));

  genvar gs;
  generate
    for (gs = 0; gs < `SPU_MAX_SLOTS; gs = gs + 1) begin : g_slot
      reg take; // a lane's member is sampled into slot gs this cycle
      always @* begin : b_take
        integer l;
        take = 1'b0;
        for (l = 0; l < LANES; l = l + 1)
          take = take | (smp_i[l] & (smp_slot_i[2*l +: 2] == gs));
      end
      always @(posedge clk_i) begin
        if (!rst_ni) begin
          el_q[2*gs +: 2] <= 2'd0;
          cx_q[gs]        <= 1'b0;
        end else if (take) begin
          el_q[2*gs +: 2] <= el_i;
          cx_q[gs]        <= cx_now;
        end
      end
    end
  endgenerate

  // ---------------------------------------------------- the packets
  // The packet table: header bytes, and sizes (header and payload bytes,
  // PKT_SIZE from spu_top).
  localparam [NPKT*8-1:0] HDR_ALL   = `SPU_PKT_HDR_ALL;
  function [7:0] pkt_size;               // header and payload bytes of packet i
    input integer i;
    begin
      pkt_size = {4'd0, PKT_SIZE[4*i +: 4]};
    end
  endfunction

  // Which packets each finish port's record has (port p at [NPKT*p +:
  // NPKT]; a block, not a function, so that every signal it reads is in
  // its sensitivity list for every simulator).
  reg [SLOTS*NPKT-1:0] pres;
  always @* begin : b_pres
    integer   p;
    reg [3:0] av;
    reg       ts;
    pres = {SLOTS*NPKT{1'b0}};
    ts   = pmscr_i[`SPU_F_PMSCR_EL1_TS_LSB];
    av   = 4'd0;
    p    = 0;
    // worked out only in a cycle with a finish (simulation speed), and not
    // from the keep decision, so that the filter is not in front of the
    // length's adders (an FPGA clock)
    if (fin_valid_i != {SLOTS{1'b0}}) begin
      for (p = 0; p < SLOTS; p = p + 1) begin
        av = fin_addr_valid_i[4*p +: 4];
        pres[NPKT*p + `SPU_PKT_CONTEXT]   = cx_q[fin_slot_i[2*p +: 2]];
        pres[NPKT*p + `SPU_PKT_COUNT_TOT] = 1'b1;
        pres[NPKT*p + `SPU_PKT_COUNT_ISS] = 1'b1;
        pres[NPKT*p + `SPU_PKT_ADDR_PC]   = 1'b1;
        pres[NPKT*p + `SPU_PKT_ADDR_TGT]  = av[0];
        pres[NPKT*p + `SPU_PKT_ADDR_VA]   = av[1];
        pres[NPKT*p + `SPU_PKT_ADDR_PA]   = av[2] & pmscr_i[`SPU_F_PMSCR_EL1_PA_LSB];
        pres[NPKT*p + `SPU_PKT_ADDR_PBT]  = (FEAT_PBT != 0) & av[3];
        pres[NPKT*p + `SPU_PKT_DS]        = (FEAT_LDS != 0) & fin_ds_valid_i[p] & fin_type_i[5*p + T_LD];
        pres[NPKT*p + `SPU_PKT_OPTYPE]    = 1'b1;
        pres[NPKT*p + `SPU_PKT_EVENTS]    = 1'b1;
        pres[NPKT*p + `SPU_PKT_TS]        = ts;
        pres[NPKT*p + `SPU_PKT_END]       = ~ts;
      end
    end
  end

  // The Operation Type packet's class and payload of finish port p's
  // operation: class 2 Branch {IND, COND}; class 1 Load/store (ST bit 0;
  // LD+ST is LoadAtomic, a load): extended {AR, EXCL, AT, 1} for atomics,
  // exclusives and acquire/release, else SVE: SG [7], EVL [6:4], 1 [3],
  // PRED [2], else SIMD&FP 0x04, else general-purpose 0x00; class 0 Other:
  // SVE: EVL [6:4], 1 [3], PRED [2], FP [1]; else COND [0].
  function [9:0] optype_of;              // {payload, class}
    input integer p;
    reg [4:0]  ty;
    reg [10:0] at;
    reg        ld, st, sve;
    begin
      ty  = fin_type_i[5*p +: 5];
      at  = fin_attr_i[11*p +: 11];
      sve = SVE_IMPL & at[A_SVE];
      ld  = ty[T_LD];
      st  = ty[T_ST];
      if (ty[T_B])
        optype_of = {6'd0, at[A_IND], at[A_COND], 2'd2};
      else if ((ld | st) && ((ld & st) | at[A_EXCL] | at[A_AR]))
        optype_of = {3'd0, at[A_AR], at[A_EXCL], ld & st, 1'b1, st & ~ld, 2'd1};
      else if ((ld | st) && sve)
        optype_of = {at[A_SG], at[A_EVL +: 3], 1'b1, at[A_PRED], 1'b0, st & ~ld, 2'd1};
      else if (ld | st)
        optype_of = {5'd0, ty[T_FP] | ty[T_SIMD], 1'b0, st & ~ld, 2'd1};
      else if (sve)
        optype_of = {1'b0, at[A_EVL +: 3], 1'b1, at[A_PRED], ty[T_FP], 1'b0, 2'd0};
      else
        optype_of = {7'd0, at[A_COND], 2'd0};
    end
  endfunction

  // The bytes of finish port p's packets: packet i's header at [72i +: 8],
  // its payload from [72i + 8], bytes beyond its size zero.
  function [NPKT*72-1:0] packets_of;
    input integer p;
    reg [63:0] ctxb;
    reg [9:0]  ot;
    reg [10:0] at;
    integer    i;
    begin
      at   = fin_attr_i[11*p +: 11];
      ctxb = {at[A_NS], el_q[2*fin_slot_i[2*p +: 2] +: 2], 61'd0};   // NS [63], EL [62:61]
      ot   = optype_of(p);
      packets_of = {NPKT*72{1'b0}};
      packets_of[72*`SPU_PKT_CONTEXT   + 8 +: 32] = fin_ctx_i[32*p +: 32];
      packets_of[72*`SPU_PKT_COUNT_TOT + 8 +: 16] = tot_i[16*p +: 16];
      packets_of[72*`SPU_PKT_COUNT_ISS + 8 +: 16] = iss_i[16*p +: 16];
      packets_of[72*`SPU_PKT_ADDR_PC   + 8 +: 64] = ctxb | {8'd0, fin_pc_i[56*p +: 56]};
      packets_of[72*`SPU_PKT_ADDR_TGT  + 8 +: 64] = ctxb | {8'd0, fin_tgt_i[56*p +: 56]};
      packets_of[72*`SPU_PKT_ADDR_VA   + 8 +: 64] = fin_va_i[64*p +: 64];
      packets_of[72*`SPU_PKT_ADDR_PA   + 8 +: 64] = {at[A_NS], 7'd0, fin_pa_i[56*p +: 56]};
      packets_of[72*`SPU_PKT_ADDR_PBT  + 8 +: 64] = ctxb | {8'd0, fin_pbt_i[56*p +: 56]};
      packets_of[72*`SPU_PKT_DS        + 8 +: 16] = fin_ds_i[16*p +: 16];
      packets_of[72*`SPU_PKT_OPTYPE        +: 16] = {ot[9:2], 6'd0, ot[1:0]};
      packets_of[72*`SPU_PKT_EVENTS        +: 72] = {fin_events_i[64*p +: 64] & REC_EV_MASK,
                                                     2'b00, EV_SZ, 4'd0};
      packets_of[72*`SPU_PKT_TS        + 8 +: 64] = ts_i;
      for (i = 0; i < NPKT; i = i + 1) begin
        packets_of[72*i +: 8]     = packets_of[72*i +: 8] | HDR_ALL[8*i +: 8];
        packets_of[72*i + 8 +: 64] = packets_of[72*i + 8 +: 64] &
                                     ~({64{1'b1}} << (8 * (pkt_size(i) - 8'd1)));
      end
    end
  endfunction

  // The record's length, in the finish cycle (it joins the waiting records
  // with it): the sizes of its packets, padded to 1 << PMBIDR_EL1.Align.
  genvar gp;
  generate
    for (gp = 0; gp < SLOTS; gp = gp + 1) begin : g_port
      reg [7:0]  len_q;
      reg [7:0]  len_n;
      // The sizes are added as a tree, log2(NPKT) adders deep, not a chain
      // of NPKT (the length's adders precede the stop ahead of a fill,
      // spu_buffer: an FPGA clock).
      always @* begin : b_len
        reg [NPKT-1:0]   pr;
        reg [8*NPKT-1:0] sz;               // packet i's size, or 0; then partial sums
        integer i, w;
        pr    = pres[NPKT*gp +: NPKT];
        len_n = 8'd0;
        sz    = {8*NPKT{1'b0}};
        i     = 0;
        w     = 0;
        if (fin_valid_i[gp]) begin
          for (i = 0; i < NPKT; i = i + 1)
            sz[8*i +: 8] = pr[i] ? pkt_size(i) : 8'd0;
          for (w = 1; w < NPKT; w = 2 * w)
            for (i = 0; i + w < NPKT; i = i + 2 * w)
              sz[8*i +: 8] = sz[8*i +: 8] + sz[8*(i+w) +: 8];
          len_n = (sz[7:0] + ALIGN_B[7:0] - 8'd1) & ~(ALIGN_B[7:0] - 8'd1);
          if (!keep_i[gp]) len_n = 8'd0;
        end
      end
      always @(posedge clk_i) begin : b_len_q
        if (!rst_ni)
          len_q <= 8'd0;
        else
          len_q <= len_n;
      end
      assign len_o[8*gp +: 8]    = len_q;
      assign len_c_o[8*gp +: 8]  = len_n;
    end
  endgenerate

  // Each slot's capture: the packets of the kept record a port finished it
  // with (at most one port completes a slot in a cycle, spu_slots); the
  // other slots hold. Worked out at the clock edge, and only in a cycle
  // with a kept record (simulation speed: nothing is evaluated in the many
  // cycles without one).
  reg [SLOTS*NPKT-1:0]    pres_q;
  reg [SLOTS*NPKT*72-1:0] pk_q;
  reg [SLOTS*8-1:0]       slen_q;
  assign pres_o     = pres_q;
  assign pkt_o      = pk_q;
  assign slot_len_o = slen_q;
  generate
    for (gs = 0; gs < SLOTS; gs = gs + 1) begin : g_cap
      always @(posedge clk_i) begin : b_cap
        integer q;
        if (!rst_ni) begin
          pres_q[NPKT*gs +: NPKT] <= {NPKT{1'b0}};
          slen_q[8*gs +: 8]       <= 8'd0;
        end else if (keep_i != {SLOTS{1'b0}}) begin
          for (q = 0; q < SLOTS; q = q + 1)
            if (keep_i[q] && fin_slot_i[2*q +: 2] == gs) begin
              pres_q[NPKT*gs +: NPKT] <= pres[NPKT*q +: NPKT];
              slen_q[8*gs +: 8]       <= len_c_o[8*q +: 8];
            end
        end
      end
      // the packets' bytes: no reset (read only once the record is kept)
      always @(posedge clk_i) begin : b_cap_pk
        integer q;
        if (keep_i != {SLOTS{1'b0}})
          for (q = 0; q < SLOTS; q = q + 1)
            if (keep_i[q] && fin_slot_i[2*q +: 2] == gs)
              pk_q[NPKT*72*gs +: NPKT*72] <= packets_of(q);
      end
    end
  endgenerate

`ifdef FORMAL
  // Each slot's length is its packets' sizes, padded, and a slot with
  // packets has its PC packet (formal group encode: the encoder writes the
  // record from both).
  reg f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;
  always @* begin : f_cap
    integer s, i;
    reg [7:0] n;
    reg       ok;
    ok = 1'b1;
    n  = 8'd0;
    for (s = 0; s < SLOTS; s = s + 1) begin
      n = 8'd0;
      for (i = 0; i < NPKT; i = i + 1)
        if (pres_q[NPKT*s + i]) n = n + pkt_size(i);
      n = (n + ALIGN_B[7:0] - 8'd1) & ~(ALIGN_B[7:0] - 8'd1);
      if (slen_q[8*s +: 8] != n) ok = 1'b0;
      if (pres_q[NPKT*s +: NPKT] != {NPKT{1'b0}} && !pres_q[NPKT*s + `SPU_PKT_ADDR_PC])
        ok = 1'b0;                       // a record has its PC (spu_encode: 9 bytes or more)
    end
    if (f_past_valid) CapLenExact_A: assert (ok);
  end
`endif

endmodule

`default_nettype wire
