// openspu: the sample record of every kept sample (Arm ARM D17.6, the
// packets of D18; docs/records.md), built at the clock edge that ends the
// finish cycle (the record port's registers), with the per-slot context it
// needs from the selection.
//
// At the selection (SPEStartSample(), SPESampleAddContext()) each slot
// latches the Exception level of the sampled operation and whether
// CONTEXTIDR_EL1 is to be collected: PMSCR_EL1.CX = 1 at EL0 or EL1 (no EL2,
// CollectContextIDR1()). At the finish, for a kept record (collected, not
// discarded), SPEConstructRecord() in the pseudocode's order: Context,
// Counter packets by index (total, issue latency), Address packets by index
// (PC, branch target, data virtual, data physical when PMSCR_EL1.PA,
// previous branch target with FEAT_SPE_PBT), Data Source (FEAT_SPE_LDS),
// Operation Type, Events (EV_BYTES of payload, bits REC_EV_MASK), then
// Timestamp (ts_i) when PMSCR_EL1.TS, else End, then zero Padding to
// 1 << PMBIDR_EL1.Align bytes. The record is the slot's, whichever finish
// port finished it (docs/buffer.md: it may wait in its slot for a write-queue
// entry). Registered, one cycle after the finish: slot s's record is
// data_o[8*REC_MAX*s +: 8*len] in memory order (byte 0 lowest), bytes
// beyond len zero; it holds until the slot's next kept record (reset clears
// len_o only). len_o and len_c_o are per finish port.

`default_nettype none

`include "spu_config.vh"

module spu_record #(
  parameter integer LANES       = 1,
  parameter integer SLOTS       = 1,
  parameter integer REC_MAX     = 64,        // bytes of the largest record
  parameter integer EV_BYTES    = 1,         // Events packet payload bytes
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
  output reg  [SLOTS*8*REC_MAX-1:0] data_o      // each slot's last record (registered)
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

  // ------------------------------------------------- the record builder
  // The record is built from its last packet to its first: each packet in
  // front of it shifts what is there by the packet's size, a constant, so an
  // optional packet costs one 2:1 multiplexer per record bit (no shifter
  // by a variable offset). Bytes past the length stay zero: the Padding.
  // The builder runs at the clock edge, in the registers' own block, and
  // only in a cycle with a kept record (simulation speed: nothing here is
  // evaluated in the many cycles without one).
  localparam integer RB = 8 * REC_MAX;

  genvar gp;
  generate
    for (gp = 0; gp < SLOTS; gp = gp + 1) begin : g_port
      reg [7:0]    len_q;
      reg [7:0]    len_n;
      // The record's length, in the same cycle (the Profiling Buffer
      // reserves its place at PMBPTR_EL1 with it): the sizes of the packets
      // the builder below writes.
      always @* begin : b_len
        reg [7:0] n;
        reg [3:0] av;
        n  = 8'd0;
        av = fin_addr_valid_i[4*gp +: 4];
        if (keep_i[gp]) begin
          n = 8'd15 + 8'd2 + 8'd1 + EV_BYTES[7:0] +               // counters, PC, Op Type, Events
              (pmscr_i[`SPU_F_PMSCR_EL1_TS_LSB] ? 8'd9 : 8'd1) +   // Timestamp or End
              ((FEAT_LDS != 0 && fin_ds_valid_i[gp] && fin_type_i[5*gp + T_LD]) ? 8'd3 : 8'd0) +
              ((FEAT_PBT != 0 && av[3]) ? 8'd9 : 8'd0) +
              ((av[2] && pmscr_i[`SPU_F_PMSCR_EL1_PA_LSB]) ? 8'd9 : 8'd0) +
              (av[1] ? 8'd9 : 8'd0) + (av[0] ? 8'd9 : 8'd0) +
              (cx_q[fin_slot_i[2*gp +: 2]] ? 8'd5 : 8'd0);
          // Padding packets (zero bytes) up to 1 << PMBIDR_EL1.Align
          n = (n + ALIGN_B[7:0] - 8'd1) & ~(ALIGN_B[7:0] - 8'd1);
        end
        len_n = n;
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

  // The builder, one per slot: the slot's record from the finish port that
  // finished it (at most one port completes a slot in a cycle, spu_slots).
  // Only a slot with a kept record this cycle loads; the others hold.
  generate
    for (gs = 0; gs < SLOTS; gs = gs + 1) begin : g_build
      always @(posedge clk_i) begin : b_rec
        reg [RB-1:0] d;
        reg [1:0]  s, el, cls;
        reg [4:0]  ty;
        reg [10:0] at;
        reg        sve;
        reg [3:0]  av;
        reg [63:0] ctxb;
        reg [7:0]  op;
        reg        ld, st;
        reg        hit;                        // a port finished this slot with a kept record ...
        integer    p, q;                       // ... port p
        // Nothing is done in a cycle without a kept record (not even the
        // temporaries' defaults: a simulator would store them every cycle).
        // Every temporary has a value on every path where it is read.
        if (keep_i != {SLOTS{1'b0}}) begin
          hit  = 1'b0;
          p    = 0;
          for (q = 0; q < SLOTS; q = q + 1)
            if (keep_i[q] && fin_slot_i[2*q +: 2] == gs) begin
              hit = 1'b1;
              p   = q;
            end
          d    = {RB{1'b0}};
          s    = 2'd0;
          el   = 2'd0;
          ty   = 5'd0;
          at   = 11'd0;
          sve  = 1'b0;
          av   = 4'd0;
          ctxb = 64'd0;
          ld   = 1'b0;
          st   = 1'b0;
          cls  = 2'd0;
          op   = 8'd0;
          if (hit) begin
            s    = gs;
            el   = el_q[2*s +: 2];
            ty   = fin_type_i[5*p +: 5];
            at   = fin_attr_i[11*p +: 11];
            sve  = SVE_IMPL & at[A_SVE];
            av   = fin_addr_valid_i[4*p +: 4];
            ctxb = {at[A_NS], el, 61'd0};              // NS [63], EL [62:61]
            ld   = ty[T_LD];
            st   = ty[T_ST];
            // Operation Type: class 2 Branch {IND, COND}; class 1 Load/store
            // (ST bit 0; LD+ST is LoadAtomic, a load): extended {AR, EXCL,
            // AT, 1} for atomics, exclusives and acquire/release, else
            // SIMD&FP 0x04, else general-purpose 0x00; class 0 Other {COND}.
            if (ty[T_B]) begin
              cls = 2'd2;
              op  = {6'd0, at[A_IND], at[A_COND]};
            end else if (ld | st) begin
              cls = 2'd1;
              if ((ld & st) | at[A_EXCL] | at[A_AR])
                op = {3'd0, at[A_AR], at[A_EXCL], ld & st, 1'b1, st & ~ld};
              else if (sve)   // SVE: SG [7], EVL [6:4], 1 [3], PRED [2]
                op = {at[A_SG], at[A_EVL +: 3], 1'b1, at[A_PRED], 1'b0, st & ~ld};
              else if (ty[T_FP] | ty[T_SIMD])
                op = {5'd0, 1'b1, 1'b0, st & ~ld};
              else
                op = {7'd0, st & ~ld};
            end else begin
              cls = 2'd0;
              // SVE: EVL [6:4], 1 [3], PRED [2], FP [1]; else COND [0]
              op  = sve ? {1'b0, at[A_EVL +: 3], 1'b1, at[A_PRED], ty[T_FP], 1'b0}
                        : {7'd0, at[A_COND]};
            end
            // Timestamp, or End
            if (pmscr_i[`SPU_F_PMSCR_EL1_TS_LSB]) begin
              d[71:0] = {ts_i, 8'h71};
            end else begin
              d[7:0] = 8'h01;
            end
            // Events: REC_EV_MASK has no bit above the payload's 8*EV_BYTES
            d = d << (8 * (1 + EV_BYTES));
            d[71:0] = d[71:0] | {fin_events_i[64*p +: 64] & REC_EV_MASK, 2'b01, EV_SZ, 4'b0010};
            d = {d[RB-17:0], op, 6'b010010, cls};      // Operation Type
            if (FEAT_LDS != 0 && fin_ds_valid_i[p] && ld) begin   // a load's data source
              d = {d[RB-25:0], fin_ds_i[16*p +: 16], 8'h53};
            end
            if (FEAT_PBT != 0 && av[3]) begin
              d = {d[RB-73:0], ctxb | {8'd0, fin_pbt_i[56*p +: 56]}, 8'hB4};
            end
            if (av[2] && pmscr_i[`SPU_F_PMSCR_EL1_PA_LSB]) begin
              d = {d[RB-73:0], at[A_NS], 7'd0, fin_pa_i[56*p +: 56], 8'hB3};
            end
            if (av[1]) begin
              d = {d[RB-73:0], fin_va_i[64*p +: 64], 8'hB2};
            end
            if (av[0]) begin
              d = {d[RB-73:0], ctxb | {8'd0, fin_tgt_i[56*p +: 56]}, 8'hB1};
            end
            d = {d[RB-73:0], ctxb | {8'd0, fin_pc_i[56*p +: 56]}, 8'hB0};
            d = {d[RB-25:0], iss_i[16*p +: 16], 8'h99};
            d = {d[RB-25:0], tot_i[16*p +: 16], 8'h98};
            if (cx_q[s]) begin
              d = {d[RB-41:0], fin_ctx_i[32*p +: 32], 8'h64};
            end
            if (rst_ni)
              data_o[RB*gs +: RB] <= d;
          end
        end
      end
    end
  endgenerate

endmodule

`default_nettype wire
