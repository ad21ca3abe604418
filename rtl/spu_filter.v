// openspu: SPECollectRecord() for one finish port (M.a.a pseudocode, D17.5),
// purely combinational.
//
// The record is kept when no filter rejects it ("The filter is the logical AND
// of the filters controlled by FDS, FnE, FL, FT, and FE bits", PMSFCR_EL1).
// Every filter function runs for every sample, so the SAMPLE_FEED_* events
// (D14.3) are raised whatever FE/FnE/FT/FL/FDS say; spu_pmu drops the events
// a configuration does not implement. Each
// ConstrainUnpredictableBool(Unpredictable_BADPMSFCR) takes its knob:
// 1 = reject, 0 = behave as if the filter bit were 0.

`default_nettype none

`include "spu_config.vh"

module spu_filter #(
  parameter integer FEAT_FNE     = 0,        // FEAT_SPE_FnE implemented
  parameter integer FEAT_EFT     = 0,        // FEAT_SPE_EFT implemented
  parameter integer FEAT_FDS     = 0,        // FEAT_SPE_FDS implemented
  parameter [63:0]  EVENT_MASK   = 64'hAA,   // SPEFilterByEvents() mask
  parameter integer CU_FE        = 0,        // knob: FE=1, PMSEVFR&mask == 0
  parameter integer CU_FNE       = 0,        // knob: FnE=1, PMSNEVFR&mask == 0
  parameter integer CU_EVOVERLAP = 0,        // knob: FE=FnE=1, overlap
  parameter integer CU_FT        = 0,        // knob: FT=1, no EFT, TYPE == 0
  parameter integer CU_FL        = 0         // knob: FL=1, MINLAT == 0
) (
  input  wire        valid_i,                // a record on this port
  input  wire [63:0] events_i,               // Events packet bits
  input  wire [4:0]  type_i,                 // flags {SIMD,FP,ST,LD,B}
  input  wire        ds_valid_i,             // SPESampleDataSourceValid
  input  wire [15:0] ds_i,                   // SPESampleDataSource
  input  wire [15:0] tot_lat_i,              // total latency, saturated
  input  wire [63:0] pmsfcr_i,               // PMSFCR_EL1
  input  wire [63:0] pmsevfr_i,              // PMSEVFR_EL1
  input  wire [63:0] pmsnevfr_i,             // PMSNEVFR_EL1 (0 without FnE)
  input  wire [63:0] pmslatfr_i,             // PMSLATFR_EL1
  input  wire [63:0] pmsdsfr_i,              // PMSDSFR_EL1 (0 without FDS)
  output reg         collect_o,              // SPECollectRecord() result
  output reg  [4:0]  why_o,                  // rejected by {ds,lat,nev,ev,type}
  output reg         filtrate_o,             // SAMPLE_FILTRATE
  output reg  [4:0]  feed_type_o,            // SAMPLE_FEED_{SIMD,FP,ST,LD,BR}
  output reg         feed_op_o,              // SAMPLE_FEED_OP
  output reg         feed_event_o,           // SAMPLE_FEED_EVENT
  output reg         feed_lat_o,             // SAMPLE_FEED_LAT
  output reg         feed_ds_o               // SAMPLE_FEED_DS
);

  localparam [0:0] FNE_IMPL = (FEAT_FNE != 0) ? 1'b1 : 1'b0;
  localparam [0:0] EFT_IMPL = (FEAT_EFT != 0) ? 1'b1 : 1'b0;
  localparam [0:0] FDS_IMPL = (FEAT_FDS != 0) ? 1'b1 : 1'b0;
  localparam [0:0] CU_FE_B  = (CU_FE != 0) ? 1'b1 : 1'b0;
  localparam [0:0] CU_FNE_B = (CU_FNE != 0) ? 1'b1 : 1'b0;
  localparam [0:0] CU_OVL_B = (CU_EVOVERLAP != 0) ? 1'b1 : 1'b0;
  localparam [0:0] CU_FT_B  = (CU_FT != 0) ? 1'b1 : 1'b0;
  localparam [0:0] CU_FL_B  = (CU_FL != 0) ? 1'b1 : 1'b0;

  // For simulation speed all of it is one block whose work runs only when
  // valid_i is set (all outputs zero otherwise; spu_complete gates them with
  // the finish anyway): Verilator evaluates combinational logic on every
  // clock, so continuous assignments of the register fields alone would
  // still cost every cycle. The logic is the same either way.
  always @* begin : b_record
    // PMSFCR_EL1 controls. FnE/FDS/TYPE<4:3>/TYPEm read as zero when their
    // feature is absent (write mask), and are gated here as well.
    reg        fe, ft, fl, fne, fds;
    reg [63:0] evfr, nevfr;
    reg        overlap;
    reg [1:0]  ev_mode, nev_mode, type_mode, lat_mode;
    reg [4:0]  ctrl, tmask, ctrl_or, ctrl_and;
    reg        op_any;
    reg [15:0] minlat;
    reg is_evt, is_nevt, is_op, is_lat, is_ds, ds_applies;
    fe = 1'b0; ft = 1'b0; fl = 1'b0; fne = 1'b0; fds = 1'b0;
    evfr = 64'd0; nevfr = 64'd0; overlap = 1'b0;
    ev_mode = 2'b00; nev_mode = 2'b00; type_mode = 2'b00; lat_mode = 2'b00;
    ctrl = 5'd0; tmask = 5'd0; ctrl_or = 5'd0; ctrl_and = 5'd0; op_any = 1'b0;
    minlat       = 16'd0;
    is_evt       = 1'b0;
    is_nevt      = 1'b0;
    is_op        = 1'b0;
    is_lat       = 1'b0;
    is_ds        = 1'b0;
    ds_applies   = 1'b0;
    collect_o    = 1'b0;
    why_o        = 5'd0;
    filtrate_o   = 1'b0;
    feed_type_o  = 5'd0;
    feed_op_o    = 1'b0;
    feed_event_o = 1'b0;
    feed_lat_o   = 1'b0;
    feed_ds_o    = 1'b0;
    if (valid_i) begin
      fe  = pmsfcr_i[`SPU_F_PMSFCR_EL1_FE_LSB];
      ft  = pmsfcr_i[`SPU_F_PMSFCR_EL1_FT_LSB];
      fl  = pmsfcr_i[`SPU_F_PMSFCR_EL1_FL_LSB];
      fne = pmsfcr_i[`SPU_F_PMSFCR_EL1_FnE_LSB] & FNE_IMPL;
      fds = pmsfcr_i[`SPU_F_PMSFCR_EL1_FDS_LSB] & FDS_IMPL;

      // ---------------------------------------------- SPEFilterByEvents()
      // PMSEVFR_EL1 is an AND filter (reject when a selected event is 0),
      // PMSNEVFR_EL1 an OR filter (reject when a selected event is 1); both
      // see the events after AND mask (evfr and nevfr are already masked,
      // so ~(events & mask) & evfr == ~events & evfr).
      evfr  = pmsevfr_i & EVENT_MASK;
      nevfr = pmsnevfr_i & EVENT_MASK & {64{FNE_IMPL}};
      // FE = FnE = 1 with a bit set in both registers: both filters take the
      // CONSTRAINED UNPREDICTABLE value (the last statement of the function).
      overlap  = fe & fne & ((evfr & nevfr) != 64'd0);
      // Per filter, mode = {reject always, reject when the record fails the
      // test}: 2'b00 when the filter is off, 2'b01 when it tests, and
      // {CU, 1'b0} for a ConstrainUnpredictableBool() value.
      ev_mode  = overlap ? {CU_OVL_B, 1'b0} :
                 ~fe ? 2'b00 :
                 (evfr != 64'd0) ? 2'b01 : {CU_FE_B, 1'b0};
      nev_mode = overlap ? {CU_OVL_B, 1'b0} :
                 ~fne ? 2'b00 :
                 (nevfr != 64'd0) ? 2'b01 : {CU_FNE_B, 1'b0};

      // ------------------------------------------------ SPEFilterByType()
      // Without EFT, ctrl = TYPE<2:0> and mask = 0 (D17.5.1), so
      // is_op = ctrl == 0 || (flags AND ctrl) != 0.
      ctrl      = {pmsfcr_i[`SPU_F_PMSFCR_EL1_TYPEX_MSB:
                            `SPU_F_PMSFCR_EL1_TYPEX_LSB] & {2{EFT_IMPL}},
                   pmsfcr_i[`SPU_F_PMSFCR_EL1_TYPE_MSB:
                            `SPU_F_PMSFCR_EL1_TYPE_LSB]};
      tmask     = pmsfcr_i[`SPU_F_PMSFCR_EL1_TYPEm_MSB:
                           `SPU_F_PMSFCR_EL1_TYPEm_LSB] & {5{EFT_IMPL}};
      ctrl_or   = ctrl & ~tmask;
      ctrl_and  = ctrl & tmask;
      op_any    = (ctrl != 5'd0) || (tmask != 5'd0);
      type_mode = ~ft ? 2'b00 :
                  (EFT_IMPL || ctrl != 5'd0) ? 2'b01 : {CU_FT_B, 1'b0};

      // --------------------------------------------- SPEFilterByLatency()
      // M.a.a keeps total latency >= MINLAT (D17.5.3). MINLAT<15:12> is
      // RES0 with 12-bit counters (write mask).
      minlat   = pmslatfr_i[`SPU_F_PMSLATFR_EL1_MINLAT_HI_MSB:
                            `SPU_F_PMSLATFR_EL1_MINLAT_LSB];
      lat_mode = ~fl ? 2'b00 :
                 (minlat != 16'd0) ? 2'b01 : {CU_FL_B, 1'b0};

      // ---------------------------------------------- the record's tests
      is_evt  = ((~events_i & evfr) == 64'd0);
      is_nevt = ((events_i & nevfr) == 64'd0);    // TRUE without FnE
      is_op   = ((ctrl_or == 5'd0) || ((type_i & ctrl_or) != 5'd0)) &&
                ((type_i & tmask) == ctrl_and);
      is_lat  = (tot_lat_i >= minlat);
      // SPEFilterByDataSource(): only Load/LoadAtomic (LD and not B, the
      // port contract, docs/ports.md) with a data source; PMSDSFR_EL1<ds<5:0>> selects
      // it (D17.5.4).
      ds_applies = FDS_IMPL & ds_valid_i & type_i[1] & ~type_i[0];
      is_ds      = pmsdsfr_i[ds_i[5:0]];
      why_o = {ds_applies & fds & ~is_ds,
               lat_mode[1]  | (lat_mode[0]  & ~is_lat),
               nev_mode[1]  | (nev_mode[0]  & ~is_nevt),
               ev_mode[1]   | (ev_mode[0]   & ~is_evt),
               type_mode[1] | (type_mode[0] & ~is_op)};
      // SPECollectRecord() and the SAMPLE_FEED_* events.
      collect_o    = (why_o == 5'd0);
      filtrate_o   = collect_o;
      feed_type_o  = type_i;
      feed_op_o    = is_op & op_any;
      feed_event_o = is_evt & is_nevt;
      feed_lat_o   = is_lat;
      feed_ds_o    = ds_applies & is_ds;
    end
  end

  // Bits the filter never reads: the rest of PMSFCR_EL1/PMSLATFR_EL1 is RES0,
  // and only Data Source<5:0> indexes PMSDSFR_EL1.
  wire unused_filter = ^{pmsfcr_i & ~(`SPU_F_PMSFCR_EL1_FE_MASK |
                                      `SPU_F_PMSFCR_EL1_FT_MASK |
                                      `SPU_F_PMSFCR_EL1_FL_MASK |
                                      `SPU_F_PMSFCR_EL1_FnE_MASK |
                                      `SPU_F_PMSFCR_EL1_FDS_MASK |
                                      `SPU_F_PMSFCR_EL1_TYPE_MASK |
                                      `SPU_F_PMSFCR_EL1_TYPEX_MASK |
                                      `SPU_F_PMSFCR_EL1_TYPEm_MASK),
                         pmslatfr_i & ~(`SPU_F_PMSLATFR_EL1_MINLAT_MASK |
                                        `SPU_F_PMSLATFR_EL1_MINLAT_HI_MASK),
                         ds_i[15:6]};

`ifdef FORMAL
  // A kept record passed every enabled filter (D17.5, PMSFCR_EL1: "The
  // filter is the logical AND of the filters controlled by FDS, FnE, FL, FT,
  // and FE bits"). Restated from the pseudocode's SPECollectRecord() and
  // the register fields, independently of the mode encoding above. A
  // filter in a CONSTRAINED UNPREDICTABLE case (Unpredictable_BADPMSFCR)
  // whose knob says "as if the bit were 0" rejects nothing; with the knob
  // at "reject" it rejects every record (checked below).
  wire [63:0] f_evfr    = pmsevfr_i & EVENT_MASK;
  wire [63:0] f_nevfr   = pmsnevfr_i & EVENT_MASK;
  wire        f_fe      = pmsfcr_i[`SPU_F_PMSFCR_EL1_FE_LSB];
  wire        f_fne     = pmsfcr_i[`SPU_F_PMSFCR_EL1_FnE_LSB] && FEAT_FNE != 0;
  wire        f_ft      = pmsfcr_i[`SPU_F_PMSFCR_EL1_FT_LSB];
  wire        f_fl      = pmsfcr_i[`SPU_F_PMSFCR_EL1_FL_LSB];
  wire        f_fds     = pmsfcr_i[`SPU_F_PMSFCR_EL1_FDS_LSB] && FEAT_FDS != 0;
  wire        f_overlap = f_fe && f_fne && (f_evfr & f_nevfr) != 64'd0;
  wire [4:0]  f_ctrl    = {(FEAT_EFT != 0) ?
                           pmsfcr_i[`SPU_F_PMSFCR_EL1_TYPEX_MSB:
                                    `SPU_F_PMSFCR_EL1_TYPEX_LSB] : 2'b00,
                           pmsfcr_i[`SPU_F_PMSFCR_EL1_TYPE_MSB:
                                    `SPU_F_PMSFCR_EL1_TYPE_LSB]};
  wire [4:0]  f_tmask   = (FEAT_EFT != 0) ?
                          pmsfcr_i[`SPU_F_PMSFCR_EL1_TYPEm_MSB:
                                   `SPU_F_PMSFCR_EL1_TYPEm_LSB] : 5'b00000;
  wire [15:0] f_minlat  = pmslatfr_i[`SPU_F_PMSLATFR_EL1_MINLAT_HI_MSB:
                                     `SPU_F_PMSLATFR_EL1_MINLAT_LSB];

  // D17.5.1 per type bit: a masked bit must equal its TYPE bit; of the
  // unmasked TYPE bits that are set, the operation must have one.
  reg f_type_ok;
  always @* begin : f_type
    integer b;
    reg all_masked_match, one_unmasked;
    all_masked_match = 1'b1;
    one_unmasked     = ((f_ctrl & ~f_tmask) == 5'd0);
    for (b = 0; b < 5; b = b + 1) begin
      if (f_tmask[b] && type_i[b] != f_ctrl[b]) all_masked_match = 1'b0;
      if (!f_tmask[b] && f_ctrl[b] && type_i[b]) one_unmasked = 1'b1;
    end
    f_type_ok = all_masked_match && one_unmasked;
  end

  always @* begin
    if (collect_o) begin
      // D17.5.2, PMSEVFR_EL1: every selected event is 1.
      KeptPassedEvents_A: assert (!f_fe || f_overlap ||
                                  (~events_i & f_evfr) == 64'd0);
      // D17.5.2, PMSNEVFR_EL1 (FEAT_SPE_FnE): every selected event is 0.
      KeptPassedNotEvents_A: assert (!f_fne || f_overlap ||
                                     (events_i & f_nevfr) == 64'd0);
      // D17.5.1: the operation type matches (TYPE ignored without EFT
      // only in the CONSTRAINED UNPREDICTABLE TYPE == 0 case).
      KeptPassedType_A: assert (!f_ft || (FEAT_EFT == 0 && f_ctrl == 5'd0) ||
                                f_type_ok);
      // D17.5.3: total latency >= MINLAT.
      KeptPassedLatency_A: assert (!f_fl || tot_lat_i >= f_minlat);
      // D17.5.4: a load with a Data Source has it selected in PMSDSFR_EL1.
      KeptPassedDataSource_A: assert (!f_fds || !ds_valid_i || !type_i[1] ||
                                      type_i[0] || pmsdsfr_i[ds_i[5:0]]);
      // A CONSTRAINED UNPREDICTABLE filter whose knob is 1 (reject) keeps
      // nothing.
      KeptNotRejectedUnpredictable_A: assert (
          !(CU_FE != 0 && f_fe && f_evfr == 64'd0) &&
          !(CU_FNE != 0 && f_fne && f_nevfr == 64'd0) &&
          !(CU_EVOVERLAP != 0 && f_overlap) &&
          !(CU_FT != 0 && f_ft && FEAT_EFT == 0 && f_ctrl == 5'd0) &&
          !(CU_FL != 0 && f_fl && f_minlat == 16'd0));
    end
  end
`endif

endmodule

`default_nettype wire
