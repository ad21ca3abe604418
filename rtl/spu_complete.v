// openspu: SPECompleteSample() for every finish port (M.a.a pseudocode,
// docs/semantics.md step 4), combinational.
//
// A finish of a busy slot (spu_slots) is a record: SAMPLE_FEED, then
// SPECollectRecord() (spu_filter, with every SAMPLE_FEED_* event and
// SAMPLE_FILTRATE), then discard mode: FEAT_SPEv1p2 and PMBLIMITR_EL1.FM ==
// 10. D17.5.5: "The discarding of profiling data occurs after SAMPLE_FILTRATE
// and other PMU events are counted." keep = collect && !discard; the why
// bits are every rejecting filter plus `discard` whenever discard mode is on.
// Every finish of a busy slot raises SAMPLE_FEED and is filtered, so its
// SAMPLE_FEED_* events and SAMPLE_FILTRATE count (D14.3 counts samples "not
// written to the Profiling Buffer"). Knob INFLIGHT = 1 then drops the record
// of a sample that finishes while profiling is disabled (D17.4; its slot is
// still freed); INFLIGHT = 0 reports it as the pseudocode does. All record
// outputs of a port without a record are zero.

`default_nettype none

`include "spu_config.vh"

module spu_complete #(
  parameter integer SLOTS        = 1,        // finish/record ports
  parameter integer FEAT_V1P2    = 0,        // FEAT_SPEv1p2 (discard mode)
  parameter integer FEAT_FNE     = 0,        // FEAT_SPE_FnE
  parameter integer FEAT_EFT     = 0,        // FEAT_SPE_EFT
  parameter integer FEAT_FDS     = 0,        // FEAT_SPE_FDS
  parameter [63:0]  EVENT_MASK   = 64'hAA,   // SPEFilterByEvents() mask
  parameter integer CU_FE        = 0,        // BADPMSFCR knobs (spu_filter)
  parameter integer CU_FNE       = 0,
  parameter integer CU_EVOVERLAP = 0,
  parameter integer CU_FT        = 0,
  parameter integer CU_FL        = 0,
  parameter integer INFLIGHT     = 0         // knob: drop when disabled
) (
  input  wire                en_i,           // profiling enabled this cycle
  input  wire [SLOTS-1:0]    hit_i,          // finish port p names a busy slot
  input  wire [SLOTS*2-1:0]  fin_slot_i,     // its slot at [2p+:2]
  input  wire [SLOTS*5-1:0]  fin_type_i,     // {SIMD,FP,ST,LD,B} at [5p+:5]
  input  wire [SLOTS*64-1:0] fin_events_i,   // Events packet at [64p+:64]
  input  wire [SLOTS-1:0]    fin_ds_valid_i, // port p has a Data Source
  input  wire [SLOTS*16-1:0] fin_ds_i,       // Data Source at [16p+:16]
  input  wire [SLOTS*16-1:0] tot_i,          // total latency (spu_slots)
  input  wire [SLOTS*16-1:0] iss_i,          // issue latency (spu_slots)
  input  wire [63:0]         pmsfcr_i,       // PMSFCR_EL1
  input  wire [63:0]         pmsevfr_i,      // PMSEVFR_EL1
  input  wire [63:0]         pmsnevfr_i,     // PMSNEVFR_EL1
  input  wire [63:0]         pmslatfr_i,     // PMSLATFR_EL1
  input  wire [63:0]         pmsdsfr_i,      // PMSDSFR_EL1
  input  wire [63:0]         pmblimitr_i,    // PMBLIMITR_EL1 (FM)
  output wire [SLOTS-1:0]    feed_o,         // SAMPLE_FEED on port p
  output wire [SLOTS-1:0]    rec_o,          // record on port p
  output wire [SLOTS-1:0]    keep_o,         // record kept
  output reg  [SLOTS*2-1:0]  slot_o,         // record slot
  output reg  [SLOTS*6-1:0]  why_o,          // {discard,ds,lat,nev,ev,type}
  output reg  [SLOTS*16-1:0] tot_o,          // total latency
  output reg  [SLOTS*16-1:0] iss_o,          // issue latency
  output wire [SLOTS-1:0]    filtrate_o,     // SAMPLE_FILTRATE
  output reg  [SLOTS-1:0]    feed_br_o,      // SAMPLE_FEED_BR
  output reg  [SLOTS-1:0]    feed_ld_o,      // SAMPLE_FEED_LD
  output reg  [SLOTS-1:0]    feed_st_o,      // SAMPLE_FEED_ST
  output reg  [SLOTS-1:0]    feed_fp_o,      // SAMPLE_FEED_FP
  output reg  [SLOTS-1:0]    feed_simd_o,    // SAMPLE_FEED_SIMD
  output wire [SLOTS-1:0]    feed_op_o,      // SAMPLE_FEED_OP
  output wire [SLOTS-1:0]    feed_event_o,   // SAMPLE_FEED_EVENT
  output wire [SLOTS-1:0]    feed_lat_o,     // SAMPLE_FEED_LAT
  output wire [SLOTS-1:0]    feed_ds_o       // SAMPLE_FEED_DS
);

  localparam [0:0] V1P2_IMPL     = (FEAT_V1P2 != 0) ? 1'b1 : 1'b0;
  localparam [0:0] DROP_INFLIGHT = (INFLIGHT != 0) ? 1'b1 : 1'b0;

  wire [1:0] fm = pmblimitr_i[`SPU_F_PMBLIMITR_EL1_FM_MSB:
                              `SPU_F_PMBLIMITR_EL1_FM_LSB];
  wire       discard = V1P2_IMPL & (fm == 2'b10);
  assign feed_o = hit_i;
  assign rec_o  = hit_i & {SLOTS{~(DROP_INFLIGHT & ~en_i)}};

  wire [SLOTS-1:0]   collect, filtrate, feed_op, feed_event, feed_lat, feed_ds;
  wire [SLOTS*5-1:0] why5, feed_type;

  genvar p;
  generate
    for (p = 0; p < SLOTS; p = p + 1) begin : g_port
      spu_filter #(
        .FEAT_FNE     (FEAT_FNE),
        .FEAT_EFT     (FEAT_EFT),
        .FEAT_FDS     (FEAT_FDS),
        .EVENT_MASK   (EVENT_MASK),
        .CU_FE        (CU_FE),
        .CU_FNE       (CU_FNE),
        .CU_EVOVERLAP (CU_EVOVERLAP),
        .CU_FT        (CU_FT),
        .CU_FL        (CU_FL)
      ) u_filter (
        .valid_i      (hit_i[p]),
        .events_i     (fin_events_i[64*p +: 64]),
        .type_i       (fin_type_i[5*p +: 5]),
        .ds_valid_i   (fin_ds_valid_i[p]),
        .ds_i         (fin_ds_i[16*p +: 16]),
        .tot_lat_i    (tot_i[16*p +: 16]),
        .pmsfcr_i     (pmsfcr_i),
        .pmsevfr_i    (pmsevfr_i),
        .pmsnevfr_i   (pmsnevfr_i),
        .pmslatfr_i   (pmslatfr_i),
        .pmsdsfr_i    (pmsdsfr_i),
        .collect_o    (collect[p]),
        .why_o        (why5[5*p +: 5]),
        .filtrate_o   (filtrate[p]),
        .feed_type_o  (feed_type[5*p +: 5]),
        .feed_op_o    (feed_op[p]),
        .feed_event_o (feed_event[p]),
        .feed_lat_o   (feed_lat[p]),
        .feed_ds_o    (feed_ds[p])
      );
    end
  endgenerate

  assign keep_o       = rec_o & collect & {SLOTS{~discard}};
  assign filtrate_o   = hit_i & filtrate;
  assign feed_op_o    = hit_i & feed_op;
  assign feed_event_o = hit_i & feed_event;
  assign feed_lat_o   = hit_i & feed_lat;
  assign feed_ds_o    = hit_i & feed_ds;

  // Record fields, and the per-type SAMPLE_FEED_* bits regrouped by event
  // (flags bit order B, LD, ST, FP, SIMD = PMSFCR_EL1.TYPE order; the filter
  // outputs are zero on ports without a finish). The loop is skipped in
  // cycles without a finish (simulation speed).
  always @* begin : b_rec
    integer i;
    slot_o      = {SLOTS*2{1'b0}};
    why_o       = {SLOTS*6{1'b0}};
    tot_o       = {SLOTS*16{1'b0}};
    iss_o       = {SLOTS*16{1'b0}};
    feed_br_o   = {SLOTS{1'b0}};
    feed_ld_o   = {SLOTS{1'b0}};
    feed_st_o   = {SLOTS{1'b0}};
    feed_fp_o   = {SLOTS{1'b0}};
    feed_simd_o = {SLOTS{1'b0}};
    // loop variables: a value on every path, or Yosys >= 0.3x infers a latch
    i           = 0;
    if (hit_i != {SLOTS{1'b0}}) begin
      for (i = 0; i < SLOTS; i = i + 1) begin
        feed_br_o[i]   = feed_type[5*i + 0];
        feed_ld_o[i]   = feed_type[5*i + 1];
        feed_st_o[i]   = feed_type[5*i + 2];
        feed_fp_o[i]   = feed_type[5*i + 3];
        feed_simd_o[i] = feed_type[5*i + 4];
        if (rec_o[i]) begin
          slot_o[2*i +: 2]  = fin_slot_i[2*i +: 2];
          why_o[6*i +: 6]   = {discard, why5[5*i +: 5]};
          tot_o[16*i +: 16] = tot_i[16*i +: 16];
          iss_o[16*i +: 16] = iss_i[16*i +: 16];
        end
      end
    end
  end

  // Only FM is read here; the rest of PMBLIMITR_EL1 is used by spu_top (E)
  // or belongs to the Profiling Buffer, which this unit does not model yet.
  wire unused_pmblimitr = ^(pmblimitr_i & ~`SPU_F_PMBLIMITR_EL1_FM_MASK);

`ifdef FORMAL
  // D17.5.5: no record is kept in discard mode (FEAT_SPEv1p2 and
  // PMBLIMITR_EL1.FM == 0b10): "profiling data is discarded".
  always @* begin
    NoKeepInDiscard_A: assert (!(FEAT_V1P2 != 0 && fm == 2'b10) ||
                               keep_o == {SLOTS{1'b0}});
  end
  // A kept record is a record that SPECollectRecord() collected (its
  // filters, spu_filter's KeptPassed*_A), and a record is a finish of a busy
  // slot.
  always @* begin
    KeepOnlyCollected_A: assert ((keep_o & ~(rec_o & collect)) == {SLOTS{1'b0}} &&
                                 (rec_o & ~hit_i) == {SLOTS{1'b0}});
  end
`endif

endmodule

`default_nettype wire
