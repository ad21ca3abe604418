// The golden model as a scoreboard inside a SystemVerilog bench: spu_top
// (rtl/*.v) and the model through DPI-C (golden/dpi/spu_dpi_pkg.sv,
// libspudpi) take the same inputs every cycle, and every output of spu_top
// is compared with the model's after every clock edge (docs/integration.md).
// The inputs come from a vector file of spu-csim --vectors (its expected
// outputs are not read: the model computes them here).
//   build: verilator --binary -Ibuild/gen/<cfg> -Irtl golden/dpi/spu_dpi_pkg.sv tests/dpi/spu_dpi_tb.sv rtl/*.v
//       --top-module spu_dpi_tb -LDFLAGS "libspudpi.a libspugolden.a"      (make build/dpi/<cfg>/spu_dpi_tb)
//   spu_dpi_tb +vectors=FILE [+config=NAME] [+inject=PORT +inject_at=CYCLE]
// +config names the model's configuration (default: the include's);
// +inject plants a difference: bit 0 of the model's PORT (an output of
// spu_top, e.g. rec_data_o) flipped in the first cycle from CYCLE on in
// which PORT is compared. Prints "dpi: PASS ..." with the cycles compared
// and how many samples, records and write beats they had, or the
// differences and "dpi: FAIL ..." and stops with $fatal (non-zero exit);
// a run without a sample, a kept record or a write beat fails as vacuous.
`include "spu_config.vh"

module spu_dpi_tb;
  import spu_dpi_pkg::*;

  localparam int CW = REC_W > 64 ? REC_W : 64;  // the widest output

  bit clk_i = 1'b0;
  // spu_top's inputs in the order of the vector file: `in` drives the DUT
  // and the model. A cycle's fields are read one by one into `field` and
  // copied into `rd`, then `in = rd` in one assignment (Verilator 5.006
  // neither scans into a struct member nor wakes the logic that reads a
  // variable $fscanf wrote).
  typedef struct packed {
    bit                      rst_ni;
    bit [LANES-1:0]          pop_valid_i;
    bit [SLOTS-1:0]          iss_valid_i;
    bit [SLOTS*SLOT_W-1:0]   iss_slot_i;
    bit [SLOTS-1:0]          fin_valid_i;
    bit [SLOTS*SLOT_W-1:0]   fin_slot_i;
    bit [SLOTS*TYPE_W-1:0]   fin_type_i;
    bit [SLOTS*64-1:0]       fin_events_i;
    bit [SLOTS-1:0]          fin_ds_valid_i;
    bit [SLOTS*16-1:0]       fin_ds_i;
    bit                      reg_valid_i;
    bit                      reg_write_i;
    bit [15:0]               reg_enc_i;
    bit [63:0]               reg_wdata_i;
    bit [1:0]                el_i;
    bit                      prof_allowed_i;
    bit [SLOTS*ATTR_W-1:0]   fin_attr_i;
    bit [SLOTS*AV_W-1:0]     fin_addr_valid_i;
    bit [SLOTS*32-1:0]       fin_ctx_i;
    bit [SLOTS*ADDR_W-1:0]   fin_pc_i;
    bit [SLOTS*ADDR_W-1:0]   fin_tgt_i;
    bit [SLOTS*64-1:0]       fin_va_i;
    bit [SLOTS*ADDR_W-1:0]   fin_pa_i;
    bit [SLOTS*ADDR_W-1:0]   fin_pbt_i;
    bit [63:0]               ts_i;
    bit                      mem_ready_i;
  } in_t;
  in_t rd, in = '{rst_ni: 1'b1, default: '0};
  bit [SLOTS*64-1:0] field;  // the widest input field

  // spu_top's outputs, and the model's (m_), W bits each
`define SPU_DPI_TB_OUT(W, N) logic [(W)-1:0] N``_o, m_``N;
  `SPU_DPI_TB_OUT(1, mem_valid) `SPU_DPI_TB_OUT(64, mem_addr) `SPU_DPI_TB_OUT(64, mem_data) `SPU_DPI_TB_OUT(8, mem_strb)
  `SPU_DPI_TB_OUT(1, pmbirq) `SPU_DPI_TB_OUT(LANES, smp_valid) `SPU_DPI_TB_OUT(LANES, col_valid)
  `SPU_DPI_TB_OUT(LANES * SLOT_W, smp_slot) `SPU_DPI_TB_OUT(SLOTS, rec_valid) `SPU_DPI_TB_OUT(SLOTS, rec_keep)
  `SPU_DPI_TB_OUT(SLOTS * SLOT_W, rec_slot) `SPU_DPI_TB_OUT(SLOTS * WHY_W, rec_why)
  `SPU_DPI_TB_OUT(SLOTS * 16, rec_tot_lat) `SPU_DPI_TB_OUT(SLOTS * 16, rec_iss_lat) `SPU_DPI_TB_OUT(SLOTS * 8, rec_len)
  `SPU_DPI_TB_OUT(REC_W, rec_data) `SPU_DPI_TB_OUT(SLOTS, rec_wr) `SPU_DPI_TB_OUT(SLOTS, rec_qfull)
  `SPU_DPI_TB_OUT(NPMU * PMU_W, pmu) `SPU_DPI_TB_OUT(64, reg_rdata) `SPU_DPI_TB_OUT(1, reg_undef)
  `SPU_DPI_TB_OUT(64, obs_pmsicr) `SPU_DPI_TB_OUT(1, obs_enabled)
`undef SPU_DPI_TB_OUT

  spu_top dut (
    .clk_i, .rst_ni(in.rst_ni), .pop_valid_i(in.pop_valid_i), .iss_valid_i(in.iss_valid_i),
    .iss_slot_i(in.iss_slot_i), .fin_valid_i(in.fin_valid_i), .fin_slot_i(in.fin_slot_i),
    .fin_type_i(in.fin_type_i), .fin_events_i(in.fin_events_i), .fin_ds_valid_i(in.fin_ds_valid_i),
    .fin_ds_i(in.fin_ds_i), .fin_attr_i(in.fin_attr_i), .fin_addr_valid_i(in.fin_addr_valid_i),
    .fin_ctx_i(in.fin_ctx_i), .fin_pc_i(in.fin_pc_i), .fin_tgt_i(in.fin_tgt_i), .fin_va_i(in.fin_va_i),
    .fin_pa_i(in.fin_pa_i), .fin_pbt_i(in.fin_pbt_i), .ts_i(in.ts_i), .reg_valid_i(in.reg_valid_i),
    .reg_write_i(in.reg_write_i), .reg_enc_i(in.reg_enc_i), .reg_wdata_i(in.reg_wdata_i), .el_i(in.el_i),
    .prof_allowed_i(in.prof_allowed_i), .mem_ready_i(in.mem_ready_i),
    .*);

  string  path, cfg_name, vconfig, line, inject;
  int     inject_at = 0, injected_at = -1, fd, n, vlanes, vslots;
  bit     inject_seen;
  int     cycle = 0, diffs = 0, first_cycle = -1;
  string  first_port;
  longint samples = 0, kept = 0, rejected = 0, beats = 0;
  chandle model;

  task automatic tick;
    #5 clk_i = 1'b1;
    #5 clk_i = 1'b0;
  endtask

  // One output of the cycle: compared when `when`; +inject flips the
  // model's bit 0 here.
  task automatic cmp(input string port, input logic [CW-1:0] got, input logic [CW-1:0] want, input bit when);
    if (port == inject) inject_seen = 1'b1;
    if (!when) return;
    if (port == inject && injected_at < 0 && cycle >= inject_at) begin
      want[0] = ~want[0];
      injected_at = cycle;
    end
    if (got !== want) begin
      diffs = diffs + 1;
      if (first_cycle < 0) begin
        first_cycle = cycle;
        first_port = port;
      end
      if (diffs <= 20)
        $display("dpi: cycle %0d: %s DUT %0h model %0h%s", cycle, port, got, want,
                 injected_at == cycle && port == inject ? " (planted by +inject)" : "");
    end
  endtask

  initial begin
    if (!$value$plusargs("vectors=%s", path)) $fatal(1, "dpi: no +vectors=FILE (spu-csim --vectors writes one)");
    if (!$value$plusargs("config=%s", cfg_name)) cfg_name = `SPU_CFG_NAME;
    if (!$value$plusargs("inject=%s", inject)) inject = "";
    else if (!$value$plusargs("inject_at=%d", inject_at)) $fatal(1, "dpi: +inject=%s needs +inject_at=CYCLE", inject);
    model = spu_dpi_open(cfg_name);
    if (model == null) $fatal(1, "dpi: +config=%s: %s", cfg_name, spu_dpi_error());
    fd = $fopen(path, "r");
    if (fd == 0) $fatal(1, "dpi: +vectors=%s: cannot open", path);
    n = $fgets(line, fd);
    if ($sscanf(line, "# spu-vectors 1 config %s lanes %d slots %d", vconfig, vlanes, vslots) != 3)
      $fatal(1, "dpi: +vectors=%s: not a spu-csim --vectors file (first line '%s')", path, line);
    if (vlanes != LANES || vslots != SLOTS)
      $fatal(1, "dpi: +vectors=%s: configuration %s has %0d lanes, %0d slots; this bench was compiled for %0d, %0d",
             path, vconfig, vlanes, vslots, LANES, SLOTS);
    // Power-up reset as every bench of spu_top does it; the model starts reset.
    in.rst_ni = 1'b0;
    tick;
    tick;
    in.rst_ni = 1'b1;
    while (!$feof(fd)) begin
      n = 0;
      // one field into rd.F (truncated to its width, as $fscanf would)
      /* verilator lint_off WIDTH */
`define SPU_DPI_TB_RD(F) if ($fscanf(fd, "%h", field) == 1) begin rd.F = field; n = n + 1; end
      `SPU_DPI_TB_RD(rst_ni) `SPU_DPI_TB_RD(pop_valid_i) `SPU_DPI_TB_RD(iss_valid_i) `SPU_DPI_TB_RD(iss_slot_i)
      `SPU_DPI_TB_RD(fin_valid_i) `SPU_DPI_TB_RD(fin_slot_i) `SPU_DPI_TB_RD(fin_type_i)
      `SPU_DPI_TB_RD(fin_events_i) `SPU_DPI_TB_RD(fin_ds_valid_i) `SPU_DPI_TB_RD(fin_ds_i)
      `SPU_DPI_TB_RD(reg_valid_i) `SPU_DPI_TB_RD(reg_write_i) `SPU_DPI_TB_RD(reg_enc_i) `SPU_DPI_TB_RD(reg_wdata_i)
      `SPU_DPI_TB_RD(el_i) `SPU_DPI_TB_RD(prof_allowed_i) `SPU_DPI_TB_RD(fin_attr_i)
      `SPU_DPI_TB_RD(fin_addr_valid_i) `SPU_DPI_TB_RD(fin_ctx_i) `SPU_DPI_TB_RD(fin_pc_i) `SPU_DPI_TB_RD(fin_tgt_i)
      `SPU_DPI_TB_RD(fin_va_i) `SPU_DPI_TB_RD(fin_pa_i) `SPU_DPI_TB_RD(fin_pbt_i) `SPU_DPI_TB_RD(ts_i)
      `SPU_DPI_TB_RD(mem_ready_i)
`undef SPU_DPI_TB_RD
      /* verilator lint_on WIDTH */
      void'($fgets(line, fd));  // the expected outputs csim wrote: the model gives them here
      if (n <= 0) continue;
      if (n != 26) $fatal(1, "dpi: +vectors=%s: cycle %0d has %0d of 26 input fields", path, cycle, n);
      in = rd;
      if (m_mem_valid && in.mem_ready_i) beats = beats + 1;  // the beat shown is taken
      spu_dpi_step(model, in.rst_ni, in.pop_valid_i, in.iss_valid_i, in.iss_slot_i, in.fin_valid_i,
                   in.fin_slot_i, in.fin_type_i, in.fin_events_i, in.fin_ds_valid_i, in.fin_ds_i, in.fin_attr_i,
                   in.fin_addr_valid_i, in.fin_ctx_i, in.fin_pc_i, in.fin_tgt_i, in.fin_va_i, in.fin_pa_i,
                   in.fin_pbt_i, in.ts_i, in.reg_valid_i, in.reg_write_i, in.reg_enc_i, in.reg_wdata_i, in.el_i,
                   in.prof_allowed_i, in.mem_ready_i,
                   m_mem_valid, m_mem_addr, m_mem_data, m_mem_strb, m_pmbirq, m_smp_valid, m_col_valid,
                   m_smp_slot, m_rec_valid, m_rec_keep, m_rec_slot, m_rec_why, m_rec_tot_lat, m_rec_iss_lat,
                   m_rec_len, m_rec_data, m_rec_wr, m_rec_qfull, m_pmu, m_reg_rdata, m_reg_undef,
                   m_obs_pmsicr, m_obs_enabled);
      tick;
      // every output of the cycle, zero-extended to the compare width CW
      /* verilator lint_off WIDTH */
`define SPU_DPI_TB_CMP(N, WHEN) cmp(`"N``_o`", N``_o, m_``N, WHEN);
      `SPU_DPI_TB_CMP(smp_valid, 1) `SPU_DPI_TB_CMP(smp_slot, 1) `SPU_DPI_TB_CMP(col_valid, 1)
      `SPU_DPI_TB_CMP(rec_valid, 1) `SPU_DPI_TB_CMP(rec_keep, 1) `SPU_DPI_TB_CMP(rec_slot, 1)
      `SPU_DPI_TB_CMP(rec_why, 1) `SPU_DPI_TB_CMP(rec_tot_lat, 1) `SPU_DPI_TB_CMP(rec_iss_lat, 1)
      `SPU_DPI_TB_CMP(rec_len, 1)
      // rec_data_o holds the last records: compared, all of it, with new ones
      `SPU_DPI_TB_CMP(rec_data, m_rec_len != 0)
      `SPU_DPI_TB_CMP(rec_wr, 1) `SPU_DPI_TB_CMP(rec_qfull, 1) `SPU_DPI_TB_CMP(pmu, 1)
      `SPU_DPI_TB_CMP(reg_rdata, 1) `SPU_DPI_TB_CMP(reg_undef, 1) `SPU_DPI_TB_CMP(obs_pmsicr, 1)
      `SPU_DPI_TB_CMP(obs_enabled, 1) `SPU_DPI_TB_CMP(pmbirq, 1) `SPU_DPI_TB_CMP(mem_valid, 1)
      // the write beat's address, data and byte enables mean something with mem_valid_o only
      `SPU_DPI_TB_CMP(mem_addr, m_mem_valid) `SPU_DPI_TB_CMP(mem_data, m_mem_valid)
      `SPU_DPI_TB_CMP(mem_strb, m_mem_valid)
`undef SPU_DPI_TB_CMP
      /* verilator lint_on WIDTH */
      if (inject != "" && !inject_seen)
        $fatal(1, "dpi: +inject=%s: spu_top has no output of that name (an output port, e.g. rec_data_o)", inject);
      samples = samples + $countones(m_smp_valid);
      kept = kept + $countones(m_rec_keep);
      rejected = rejected + $countones(m_rec_valid & ~m_rec_keep);
      cycle = cycle + 1;
    end
    $fclose(fd);
    spu_dpi_free(model);
    if (inject != "" && injected_at < 0)
      $fatal(1, "dpi: +inject=%s +inject_at=%0d: no cycle from %0d on compares %s (%0d cycles)",
             inject, inject_at, inject_at, inject, cycle);
    if (diffs != 0) begin
      $display("dpi: FAIL config %s: %0d differences in %0d cycles, the first at cycle %0d: %s",
               cfg_name, diffs, cycle, first_cycle, first_port);
      $fatal(1, "dpi: spu_top differs from the golden model");
    end
    if (samples == 0 || kept == 0 || beats == 0) begin
      $display("dpi: FAIL config %s: vacuous: %0d cycles, samples %0d, records kept %0d, write beats %0d",
               cfg_name, cycle, samples, kept, beats);
      $fatal(1, "dpi: the vectors select no sample, keep no record or write no beat");
    end
    $display("dpi: PASS config %s: %0d cycles compared, 0 differences, samples %0d, records kept %0d rejected %0d, write beats %0d",
             cfg_name, cycle, samples, kept, rejected, beats);
    $finish;
  end
endmodule
