// openspu: the Statistical Profiling Unit's sampling and filtering (Arm ARM
// D17, M.a.a pseudocode), cycle for cycle as docs/semantics.md describes.
//
//   spu_regs      System registers, MRS/MSR port, PMBSR_EL1.COLL
//   spu_interval  PMSICR_EL1, enable-edge load, SPEToCollectSample() per lane
//   spu_slots     sample slots, collisions, total/issue latency counters
//   spu_complete  SPECompleteSample(): spu_filter per finish port, discard
//   spu_record    SPEConstructRecord(): the packets of each kept record
//   spu_buffer    the Profiling Buffer: PMBPTR_EL1, buffer full (spu_limit_gap)
//   spu_encode    the serial record encoder (spu_beat_queue: queue, write port)
//   spu_pmu       SAMPLE_* event counts
// This module computes the enable and registers every output: the outputs in cycle t+1 are the results of the
// inputs of cycle t. Fields of lanes and ports that are not valid are zero.
// Reset is synchronous and active low; every control register resets to
// zero, the LFSR to LFSR_SEED. Parameters default to the generated
// configuration (spu_config.vh, chosen by include directory).

`default_nettype none

`include "spu_config.vh"

module spu_top #(
  parameter integer LANES        = `SPU_LANES,       // members per cycle, 1..MAX
  parameter integer SLOTS        = `SPU_SLOTS,       // samples in flight, 1..MAX
  parameter integer COUNT_SIZE   = `SPU_COUNT_SIZE,  // counter bits, 12 or 16
  parameter integer FEAT_V1P2    = `SPU_FEAT_V1P2,   // FEAT_SPEv1p2
  parameter integer FEAT_FNE     = `SPU_FEAT_FNE,    // FEAT_SPE_FnE
  parameter integer FEAT_EFT     = `SPU_FEAT_EFT,    // FEAT_SPE_EFT
  parameter integer FEAT_FDS     = `SPU_FEAT_FDS,    // FEAT_SPE_FDS
  parameter integer FEAT_ERND    = `SPU_FEAT_ERND,   // FEAT_SPE_ERnd
  parameter integer FEAT_LDS     = `SPU_FEAT_LDS,    // FEAT_SPE_LDS
  parameter integer FEAT_SVE     = `SPU_FEAT_SVE,    // FEAT_SVE (SVE Operation Type formats)
  parameter integer FEAT_PBT     = `SPU_FEAT_PBT,    // FEAT_SPE_PBT
  parameter integer EV_BYTES     = `SPU_EV_BYTES,    // Events packet payload bytes
  parameter [63:0]  REC_EV_MASK  = `SPU_REC_EV_MASK, // Events packet bits written
  parameter [63:0]  EVENT_MASK   = `SPU_EVENT_MASK,  // event filter mask
  parameter [63:0]  PMSIDR       = `SPU_PMSIDR,      // PMSIDR_EL1 value
  parameter [63:0]  PMBIDR       = `SPU_PMBIDR,      // PMBIDR_EL1 value
  parameter integer LFSR_SEED    = `SPU_KNOB_LFSR_SEED,    // LFSR reset
  parameter integer INTERVAL0    = `SPU_KNOB_INTERVAL0,    // INTERVAL 0 -> 1
  parameter integer CU_FE        = `SPU_KNOB_CU_FE,        // BADPMSFCR choices
  parameter integer CU_FNE       = `SPU_KNOB_CU_FNE,       //   (1 = reject)
  parameter integer CU_EVOVERLAP = `SPU_KNOB_CU_EVOVERLAP,
  parameter integer CU_FT        = `SPU_KNOB_CU_FT,
  parameter integer CU_FL        = `SPU_KNOB_CU_FL,
  parameter integer SLOT_REUSE   = `SPU_KNOB_SLOT_REUSE,   // reuse same cycle
  parameter integer INFLIGHT     = `SPU_KNOB_INFLIGHT,     // drop when disabled
  parameter integer BUF_BEATS    = `SPU_KNOB_BUF_BEATS,    // beat queue, beats
  // Register map, packed in configs/spu.toml order: register SPU_REG_<NAME>
  // at [16*i +: 16], [64*i +: 64] and bit i (generated, selected by name).
  parameter [`SPU_NREGS*16-1:0] REG_ENC     = `SPU_REG_ENC_ALL,     // encodings
  parameter [`SPU_NREGS*64-1:0] REG_WMASK   = `SPU_REG_WMASK_ALL,   // writable bits
  parameter [`SPU_NREGS-1:0]    REG_PRESENT = `SPU_REG_PRESENT_ALL, // implemented
  parameter [`SPU_NREGS-1:0]    REG_RO      = `SPU_REG_RO_ALL,      // MRS only
  // PMU events, configs/spu.toml order: bit SPU_PMU_<NAME> set when the
  // configuration implements the event (its feature).
  parameter [`SPU_NPMU-1:0]     PMU_IMPL    = `SPU_PMU_IMPL
) (
  // The ports, generated from configs/spu.toml [ports] (docs/ports.md).
  // Fields of lanes and ports that are not valid are zero; pmu_o holds
  // SAMPLE_<NAME> at [`SPU_PMU_W*`SPU_PMU_<NAME> +: `SPU_PMU_W].
`include "spu_top_ports.vh"
);

  // ------------------------------------------------- parameter limits
  // configs/spu.toml [limits]: a configuration outside them does not
  // elaborate (the module named below does not exist).
  generate
    if (LANES < 1 || LANES > `SPU_MAX_LANES || SLOTS < 1 ||
        SLOTS > `SPU_MAX_SLOTS || LFSR_SEED < `SPU_LFSR_SEED_MIN ||
        LFSR_SEED > `SPU_LFSR_SEED_MAX) begin : g_bad_parameters
      spu_top_parameter_out_of_limits u_error ();
    end
  endgenerate

  // ------------------------------------------------------ packet sizes
  // The packet table's sizes: header and payload bytes of each packet, the
  // Events payload EV_BYTES (configs/spu.toml [packets]). spu_record and
  // spu_encode read them.
  function [`SPU_NPKT*4-1:0] pkt_sizes;
    input [3:0] evb;                     // EV_BYTES: 1, 2, 4 or 8
    integer i;
    reg [`SPU_NPKT*4-1:0] b;
    begin
      b = `SPU_PKT_BYTES_ALL;
      for (i = 0; i < `SPU_NPKT; i = i + 1)
        pkt_sizes[4*i +: 4] = (b[4*i +: 4] == `SPU_PKT_EV_BYTES) ? 4'd1 + evb
                                                                : 4'd1 + b[4*i +: 4];
    end
  endfunction
  localparam [`SPU_NPKT*4-1:0] PKT_SIZE = pkt_sizes(EV_BYTES[3:0]);

  // ------------------------------------------------------- registers
  wire [63:0] pmscr, pmsnevfr, pmsirr, pmsfcr, pmsevfr, pmslatfr;
  wire [63:0] pmblimitr, pmbsr, pmbptr, pmsdsfr, pmsicr;
  wire        buf_full, buf_stop, ptr_we;
  wire [63:0] ptr_next;
  wire        icr_we;
  wire        lim_we;
  wire [63:0] icr_wdata;
  wire [LANES-1:0] col;

  spu_regs #(
    .REG_ENC     (REG_ENC),
    .REG_WMASK   (REG_WMASK),
    .REG_PRESENT (REG_PRESENT),
    .REG_RO      (REG_RO),
    .PMSIDR      (PMSIDR),
    .PMBIDR      (PMBIDR)
  ) u_regs (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .reg_valid_i (reg_valid_i),
    .reg_write_i (reg_write_i),
    .reg_enc_i   (reg_enc_i),
    .reg_wdata_i (reg_wdata_i),
    .reg_rdata_o (reg_rdata_o),
    .reg_undef_o (reg_undef_o),
    .coll_set_i  (|col),
    .full_set_i  (buf_full),
    .ptr_we_i    (ptr_we),
    .ptr_i       (ptr_next),
    .pmsicr_i    (pmsicr),
    .icr_we_o    (icr_we),
    .icr_wdata_o (icr_wdata),
    .lim_we_o    (lim_we),
    .pmscr_o     (pmscr),
    .pmsnevfr_o  (pmsnevfr),
    .pmsirr_o    (pmsirr),
    .pmsfcr_o    (pmsfcr),
    .pmsevfr_o   (pmsevfr),
    .pmslatfr_o  (pmslatfr),
    .pmblimitr_o (pmblimitr),
    .pmbsr_o     (pmbsr),
    .pmbptr_o    (pmbptr),
    .pmsdsfr_o   (pmsdsfr)
  );

  // ----------------------------------------------------------- enable
  // semantics step 2: StatisticalProfilingEnabled() for an EL1-owned
  // buffer: ProfilingBufferEnabled() (PMBLIMITR_EL1.E, not stopped by
  // PMBSR_EL1.S) and PMSCR_EL1.{E0SPE,E1SPE} for the current EL. EL2 and EL3
  // are never enabled; prof_allowed_i stands for the security-state, EL2 and
  // EL3 controls.
  wire el_on = ((el_i == 2'd0) & pmscr[`SPU_F_PMSCR_EL1_E0SPE_LSB]) |
               ((el_i == 2'd1) & pmscr[`SPU_F_PMSCR_EL1_E1SPE_LSB]);
  wire en    = prof_allowed_i & pmblimitr[`SPU_F_PMBLIMITR_EL1_E_LSB] &
               ~pmbsr[`SPU_F_PMBSR_EL1_S_LSB] & el_on;

  // Step 3: the enable edge is against the previous cycle's `en` (reset 0),
  // which is also obs_enabled_o.
  reg  en_q;
  wire en_edge = en & ~en_q;
  // From the cycle after the finish of a record that fills the buffer to
  // the cycle it enters the write path (and fills it), no member is counted
  // or selected and PMSICR_EL1 is not loaded (D17.8: profiling is disabled
  // before the unit samples further operations; spu_buffer's stop_o,
  // docs/semantics.md).
  wire en_pop  = en & ~buf_stop;

  // ---------------------------------------------- interval and slots
  wire [LANES-1:0]   sel;
  wire [LANES-1:0]   smp;
  wire [LANES*2-1:0] smp_slot;
  wire [SLOTS-1:0]   fin_hit;
  wire [SLOTS*16-1:0] fin_tot, fin_iss;
  // slots whose kept records wait for the write path or are being encoded
  wire [SLOTS-1:0]   slot_wait, slot_hold, slot_rel;

  spu_interval #(
    .LANES       (LANES),
    .FEAT_ERND   (FEAT_ERND),
    .INTERVAL0   (INTERVAL0),
    .LFSR_SEED   (LFSR_SEED)
  ) u_interval (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .en_i        (en_pop),
    .edge_i      (en_edge & ~buf_stop),
    .pop_valid_i (pop_valid_i),
    .pmsirr_i    (pmsirr),
    .icr_we_i    (icr_we),
    .icr_wdata_i (icr_wdata),
    .sel_o       (sel),
    .pmsicr_o    (pmsicr)
  );

  spu_slots #(
    .LANES       (LANES),
    .SLOTS       (SLOTS),
    .COUNT_SIZE  (COUNT_SIZE),
    .SLOT_REUSE  (SLOT_REUSE)
  ) u_slots (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .sel_i       (sel),
    .iss_valid_i (iss_valid_i),
    .iss_slot_i  (iss_slot_i),
    .fin_valid_i (fin_valid_i),
    .fin_slot_i  (fin_slot_i),
    .wait_i      (slot_wait),
    .hold_i      (slot_hold),
    .rel_i       (slot_rel),
    .smp_o       (smp),
    .smp_slot_o  (smp_slot),
    .col_o       (col),
    .fin_hit_o   (fin_hit),
    .fin_tot_o   (fin_tot),
    .fin_iss_o   (fin_iss)
  );

  // ---------------------------------------------------------- records
  // Step 4: SPECompleteSample() for the finish ports (spu_complete).
  wire [SLOTS-1:0]    feed, rec, keep, filtrate, feed_op, feed_event, feed_lat, feed_ds;
  wire [SLOTS-1:0]    feed_br, feed_ld, feed_st, feed_fp, feed_simd;
  wire [SLOTS*2-1:0]  rec_slot;
  wire [SLOTS*6-1:0]  rec_why;
  wire [SLOTS*16-1:0] rec_tot, rec_iss;

  spu_complete #(
    .SLOTS          (SLOTS),
    .FEAT_V1P2      (FEAT_V1P2),
    .FEAT_FNE       (FEAT_FNE),
    .FEAT_EFT       (FEAT_EFT),
    .FEAT_FDS       (FEAT_FDS),
    .EVENT_MASK     (EVENT_MASK),
    .CU_FE          (CU_FE),
    .CU_FNE         (CU_FNE),
    .CU_EVOVERLAP   (CU_EVOVERLAP),
    .CU_FT          (CU_FT),
    .CU_FL          (CU_FL),
    .INFLIGHT       (INFLIGHT)
  ) u_complete (
    .en_i           (en),
    .hit_i          (fin_hit),
    .fin_slot_i     (fin_slot_i),
    .fin_type_i     (fin_type_i),
    .fin_events_i   (fin_events_i),
    .fin_ds_valid_i (fin_ds_valid_i),
    .fin_ds_i       (fin_ds_i),
    .tot_i          (fin_tot),
    .iss_i          (fin_iss),
    .pmsfcr_i       (pmsfcr),
    .pmsevfr_i      (pmsevfr),
    .pmsnevfr_i     (pmsnevfr),
    .pmslatfr_i     (pmslatfr),
    .pmsdsfr_i      (pmsdsfr),
    .pmblimitr_i    (pmblimitr),
    .feed_o         (feed),
    .rec_o          (rec),
    .keep_o         (keep),
    .slot_o         (rec_slot),
    .why_o          (rec_why),
    .tot_o          (rec_tot),
    .iss_o          (rec_iss),
    .filtrate_o     (filtrate),
    .feed_br_o      (feed_br),
    .feed_ld_o      (feed_ld),
    .feed_st_o      (feed_st),
    .feed_fp_o      (feed_fp),
    .feed_simd_o    (feed_simd),
    .feed_op_o      (feed_op),
    .feed_event_o   (feed_event),
    .feed_lat_o     (feed_lat),
    .feed_ds_o      (feed_ds)
  );

  wire [SLOTS*8-1:0] rec_len_c;
  wire [SLOTS*`SPU_NPKT*72-1:0] rec_pkt;     // each slot's record's packets (spu_encode)
  wire [SLOTS*`SPU_NPKT-1:0]    rec_pres;
  wire [SLOTS*8-1:0]            rec_slot_len;  // each slot's record's length (spu_buffer, spu_encode)
  // spu_record registers rec_len_o and each slot's record's packets: they
  // are captured at the clock edge only when a record is kept.
  spu_record #(
    .LANES            (LANES),
    .SLOTS            (SLOTS),
    .EV_BYTES         (EV_BYTES),
    .PKT_SIZE         (PKT_SIZE),
    .REC_EV_MASK      (REC_EV_MASK),
    .ALIGN            ({28'd0, PMBIDR[`SPU_F_PMBIDR_EL1_Align_MSB:`SPU_F_PMBIDR_EL1_Align_LSB]}),
    .FEAT_LDS         (FEAT_LDS),
    .FEAT_SVE         (FEAT_SVE),
    .FEAT_PBT         (FEAT_PBT)
  ) u_record (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .smp_i            (smp),
    .smp_slot_i       (smp_slot),
    .el_i             (el_i),
    .pmscr_i          (pmscr),
    .fin_valid_i      (fin_valid_i),
    .keep_i           (keep),
    .fin_slot_i       (fin_slot_i),
    .tot_i            (rec_tot),
    .iss_i            (rec_iss),
    .fin_type_i       (fin_type_i),
    .fin_attr_i       (fin_attr_i),
    .fin_addr_valid_i (fin_addr_valid_i),
    .fin_ctx_i        (fin_ctx_i),
    .fin_pc_i         (fin_pc_i),
    .fin_tgt_i        (fin_tgt_i),
    .fin_va_i         (fin_va_i),
    .fin_pa_i         (fin_pa_i),
    .fin_pbt_i        (fin_pbt_i),
    .fin_events_i     (fin_events_i),
    .fin_ds_valid_i   (fin_ds_valid_i),
    .fin_ds_i         (fin_ds_i),
    .ts_i             (ts_i),
    .len_c_o          (rec_len_c),
    .len_o            (rec_len_o),
    .pkt_o            (rec_pkt),
    .pres_o           (rec_pres),
    .slot_len_o       (rec_slot_len)
  );

  // The Profiling Buffer: places at PMBPTR_EL1 for the waiting records,
  // buffer full (spu_buffer); the serial encoder and the write port
  // (spu_encode). A slot is occupied while its record waits or its packets
  // are still to be read, and freed when it is discarded or read.
  wire [SLOTS-1:0] buf_wr, buf_wait, buf_rel, enc_occ, enc_rel;
  wire [1:0]       buf_wr_slot;
  wire [7:0]       buf_wr_len;
  wire             enc_busy;
  assign slot_wait = buf_wait | enc_occ;
  assign slot_rel  = buf_rel | enc_rel;
  spu_buffer #(
    .SLOTS            (SLOTS),
    .MAXSIZE          ({28'd0, PMSIDR[`SPU_F_PMSIDR_EL1_MaxSize_MSB:`SPU_F_PMSIDR_EL1_MaxSize_LSB]})
  ) u_buffer (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .len_i            (rec_len_c),
    .fin_slot_i       (fin_slot_i),
    .slot_len_i       (rec_slot_len),
    .pmbptr_i         (pmbptr),
    .buf_en_i         (pmblimitr[`SPU_F_PMBLIMITR_EL1_E_LSB] & ~pmbsr[`SPU_F_PMBSR_EL1_S_LSB]),
    .limit_i          (pmblimitr & `SPU_F_PMBLIMITR_EL1_LIMIT_MASK),
    .lim_we_i         (lim_we),
    .enc_busy_i       (enc_busy),
    .wr_o             (buf_wr),
    .wr_slot_o        (buf_wr_slot),
    .wr_len_o         (buf_wr_len),
    .wait_o           (buf_wait),
    .hold_o           (slot_hold),
    .rel_o            (buf_rel),
    .full_o           (buf_full),
    .stop_o           (buf_stop),
    .ptr_we_o         (ptr_we),
    .ptr_o            (ptr_next)
  );

  spu_encode #(
    .SLOTS            (SLOTS),
    .PKT_SIZE         (PKT_SIZE),
    .BEATS            (BUF_BEATS),
    .REC_MAX          (`SPU_REC_MAX)
  ) u_encode (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .start_i          (ptr_we),
    .start_slot_i     (buf_wr_slot),
    .start_ptr_i      (pmbptr),
    .start_len_i      (buf_wr_len),
    .pkt_i            (rec_pkt),
    .pres_i           (rec_pres),
    .busy_o           (enc_busy),
    .occ_o            (enc_occ),
    .rel_o            (enc_rel),
    .mem_ready_i      (mem_ready_i),
    .mem_valid_o      (mem_valid_o),
    .mem_addr_o       (mem_addr_o),
    .mem_data_o       (mem_data_o),
    .mem_strb_o       (mem_strb_o)
  );
  assign pmbirq_o = pmbsr[`SPU_F_PMBSR_EL1_S_LSB];

  // --------------------------------------------------------------- PMU
  spu_pmu #(
    .LANES            (LANES),
    .SLOTS            (SLOTS),
    .PMU_IMPL         (PMU_IMPL)
  ) u_pmu (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .pop_i            (pop_valid_i & {LANES{en_pop}}),
    .collision_i      (col),
    .feed_i           (feed),
    .filtrate_i       (filtrate),
    .feed_br_i        (feed_br),
    .feed_ld_i        (feed_ld),
    .feed_st_i        (feed_st),
    .feed_fp_i        (feed_fp),
    .feed_simd_i      (feed_simd),
    .feed_op_i        (feed_op),
    .feed_event_i     (feed_event),
    .feed_lat_i       (feed_lat),
    .feed_ds_i        (feed_ds),
    .buffer_full_i    (buf_full),
    .pmu_o            (pmu_o)
  );

  // --------------------------------------------------- output registers
  // Data fields are zero unless their valid bit is set (spu_slots and
  // spu_complete zero the fields of lanes and ports they do not report).
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      en_q          <= 1'b0;
      smp_valid_o   <= {LANES{1'b0}};
      col_valid_o   <= {LANES{1'b0}};
      smp_slot_o    <= {LANES*2{1'b0}};
      rec_valid_o   <= {SLOTS{1'b0}};
      rec_keep_o    <= {SLOTS{1'b0}};
      rec_slot_o    <= {SLOTS*2{1'b0}};
      rec_why_o     <= {SLOTS*6{1'b0}};
      rec_tot_lat_o <= {SLOTS*16{1'b0}};
      rec_iss_lat_o <= {SLOTS*16{1'b0}};
      rec_wr_o      <= {SLOTS{1'b0}};
    end else begin
      en_q          <= en;
      smp_valid_o   <= smp;
      col_valid_o   <= col;
      smp_slot_o    <= smp_slot;
      rec_valid_o   <= rec;
      rec_keep_o    <= keep;
      rec_slot_o    <= rec_slot;
      rec_why_o     <= rec_why;
      rec_tot_lat_o <= rec_tot;
      rec_iss_lat_o <= rec_iss;
      rec_wr_o      <= buf_wr;
    end
  end

  assign obs_enabled_o = en_q;
  assign obs_pmsicr_o  = pmsicr;

  // Bits of the registers nothing here reads (other PMSCR_EL1 and PMBSR_EL1
  // fields are state for software).
  wire unused_top = ^{pmscr & ~(`SPU_F_PMSCR_EL1_E0SPE_MASK |
                                 `SPU_F_PMSCR_EL1_E1SPE_MASK |
                                 `SPU_F_PMSCR_EL1_CX_MASK |
                                 `SPU_F_PMSCR_EL1_PA_MASK |
                                 `SPU_F_PMSCR_EL1_TS_MASK),
                      pmbsr & ~`SPU_F_PMBSR_EL1_S_MASK};

`ifdef FORMAL
  // make formal's properties of the whole unit, in their own file
  `include "spu_top_props.vh"
`endif

endmodule

`default_nettype wire
