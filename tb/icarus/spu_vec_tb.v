// The second simulator: spu_top under Icarus Verilog, driven from a vector
// file that spu-csim --vectors wrote (the golden model's inputs and its
// expected outputs, cycle by cycle; Icarus has no DPI, so the model cannot
// run beside it). Every output is compared after every clock edge, as the
// Verilator checker compares it; X or Z on an output is a difference.
//   iverilog -g2005 -I build/gen/<cfg> -I rtl -s spu_vec_tb -o x.vvp tb/icarus/spu_vec_tb.v rtl/*.v
//   vvp -n x.vvp +vectors=FILE
// Prints "icarus: PASS <n> cycles" or the first differences and
// "icarus: FAIL".
`include "spu_config.vh"

module spu_vec_tb;
  localparam integer L = `SPU_LANES;
  localparam integer S = `SPU_SLOTS;
  localparam integer PW = `SPU_NPMU * `SPU_PMU_W;
  localparam integer RW = S * 8 * `SPU_REC_MAX;

  reg              clk_i = 1'b0, rst_ni = 1'b1;
  reg  [L-1:0]     pop_valid_i = 0;
  reg  [S-1:0]     iss_valid_i = 0, fin_valid_i = 0, fin_ds_valid_i = 0;
  reg  [S*2-1:0]   iss_slot_i = 0, fin_slot_i = 0;
  reg  [S*5-1:0]   fin_type_i = 0;
  reg  [S*64-1:0]  fin_events_i = 0;
  reg  [S*16-1:0]  fin_ds_i = 0;
  reg              reg_valid_i = 0, reg_write_i = 0, prof_allowed_i = 0;
  reg  [15:0]      reg_enc_i = 0;
  reg  [63:0]      reg_wdata_i = 0;
  reg  [1:0]       el_i = 0;
  reg  [S*11-1:0]  fin_attr_i = 0;
  reg  [S*4-1:0]   fin_addr_valid_i = 0;
  reg  [S*32-1:0]  fin_ctx_i = 0;
  reg  [S*56-1:0]  fin_pc_i = 0, fin_tgt_i = 0, fin_pa_i = 0, fin_pbt_i = 0;
  reg  [S*64-1:0]  fin_va_i = 0;
  reg  [63:0]      ts_i = 0;
  reg              mem_ready_i = 1'b0;

  wire [L-1:0]     smp_valid_o, col_valid_o;
  wire [L*2-1:0]   smp_slot_o;
  wire [S-1:0]     rec_valid_o, rec_keep_o;
  wire [S*2-1:0]   rec_slot_o;
  wire [S*6-1:0]   rec_why_o;
  wire [S*16-1:0]  rec_tot_lat_o, rec_iss_lat_o;
  wire [PW-1:0]    pmu_o;
  wire [63:0]      reg_rdata_o, obs_pmsicr_o;
  wire             reg_undef_o, obs_enabled_o;
  wire [S*8-1:0]   rec_len_o;
  wire [RW-1:0]    rec_data_o;
  wire [S-1:0]     rec_wr_o, rec_qfull_o;
  wire             pmbirq_o, mem_valid_o;
  wire [63:0]      mem_addr_o, mem_data_o;
  wire [7:0]       mem_strb_o;

  spu_top dut (
    .clk_i(clk_i),
    .rst_ni(rst_ni),
    .pop_valid_i(pop_valid_i),
    .iss_valid_i(iss_valid_i),
    .iss_slot_i(iss_slot_i),
    .fin_valid_i(fin_valid_i),
    .fin_slot_i(fin_slot_i),
    .fin_type_i(fin_type_i),
    .fin_events_i(fin_events_i),
    .fin_ds_valid_i(fin_ds_valid_i),
    .fin_ds_i(fin_ds_i),
    .fin_attr_i(fin_attr_i),
    .fin_addr_valid_i(fin_addr_valid_i),
    .fin_ctx_i(fin_ctx_i),
    .fin_pc_i(fin_pc_i),
    .fin_tgt_i(fin_tgt_i),
    .fin_va_i(fin_va_i),
    .fin_pa_i(fin_pa_i),
    .fin_pbt_i(fin_pbt_i),
    .ts_i(ts_i),
    .reg_valid_i(reg_valid_i),
    .reg_write_i(reg_write_i),
    .reg_enc_i(reg_enc_i),
    .reg_wdata_i(reg_wdata_i),
    .el_i(el_i),
    .prof_allowed_i(prof_allowed_i),
    .mem_ready_i(mem_ready_i),
    .mem_valid_o(mem_valid_o),
    .mem_addr_o(mem_addr_o),
    .mem_data_o(mem_data_o),
    .mem_strb_o(mem_strb_o),
    .pmbirq_o(pmbirq_o),
    .rec_wr_o(rec_wr_o),
    .rec_qfull_o(rec_qfull_o),
    .smp_valid_o(smp_valid_o),
    .col_valid_o(col_valid_o),
    .smp_slot_o(smp_slot_o),
    .rec_valid_o(rec_valid_o),
    .rec_keep_o(rec_keep_o),
    .rec_slot_o(rec_slot_o),
    .rec_why_o(rec_why_o),
    .rec_tot_lat_o(rec_tot_lat_o),
    .rec_iss_lat_o(rec_iss_lat_o),
    .rec_len_o(rec_len_o),
    .rec_data_o(rec_data_o),
    .pmu_o(pmu_o),
    .reg_rdata_o(reg_rdata_o),
    .reg_undef_o(reg_undef_o),
    .obs_pmsicr_o(obs_pmsicr_o),
    .obs_enabled_o(obs_enabled_o)
  );

  // Expected outputs of the current cycle.
  reg  [L-1:0]     e_smp_valid, e_col_valid;
  reg  [L*2-1:0]   e_smp_slot;
  reg  [S-1:0]     e_rec_valid, e_rec_keep;
  reg  [S*2-1:0]   e_rec_slot;
  reg  [S*6-1:0]   e_rec_why;
  reg  [S*16-1:0]  e_rec_tot_lat, e_rec_iss_lat;
  reg  [PW-1:0]    e_pmu;
  reg  [63:0]      e_reg_rdata, e_obs_pmsicr;
  reg              e_reg_undef, e_obs_enabled;
  reg  [S*8-1:0]   e_rec_len;
  reg  [RW-1:0]    e_rec_data;
  reg  [S-1:0]     e_rec_wr, e_rec_qfull;
  reg              e_pmbirq, e_mem_valid;
  reg  [63:0]      e_mem_addr, e_mem_data;
  reg  [7:0]       e_mem_strb;
  reg  [0:0]       in_mem_ready;
  reg  [0:0]       in_rst_n, in_reg_valid, in_reg_write, in_prof_allowed;
  reg  [1:0]       in_el;

  integer fd, n, cycle, diffs, shown;
  reg [8*1024-1:0] path, line;

  task tick;
    begin
      #5 clk_i = 1'b1;
      #5 clk_i = 1'b0;
    end
  endtask

  // One output: report when it differs (first few in full).
  task check(input [8*16-1:0] name, input [255:0] got, input [255:0] want, input differs);
    begin
      if (differs) begin
        diffs = diffs + 1;
        if (shown < 20) begin
          $display("icarus: cycle %0d: %0s DUT %h expected %h", cycle, name, got, want);
          shown = shown + 1;
        end
      end
    end
  endtask

  initial begin
    diffs = 0;
    shown = 0;
    cycle = 0;
    if (!$value$plusargs("vectors=%s", path)) begin
      $display("icarus: FAIL no +vectors=FILE");
      $finish;
    end
    fd = $fopen(path, "r");
    if (fd == 0) begin
      $display("icarus: FAIL cannot open %0s", path);
      $finish;
    end
    n = $fgets(line, fd); // the "# spu-vectors 1 ..." header
    // Reset as the Verilator harness does it: 1, then 0 for two clocks, then 1.
    rst_ni = 1'b0;
    tick;
    tick;
    rst_ni = 1'b1;
    while (!$feof(fd)) begin
      n = $fscanf(fd, "%h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h | %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h\n",
                  in_rst_n, pop_valid_i, iss_valid_i, iss_slot_i, fin_valid_i, fin_slot_i, fin_type_i,
                  fin_events_i, fin_ds_valid_i, fin_ds_i, in_reg_valid, in_reg_write, reg_enc_i, reg_wdata_i,
                  in_el, in_prof_allowed, fin_attr_i, fin_addr_valid_i, fin_ctx_i, fin_pc_i, fin_tgt_i,
                  fin_va_i, fin_pa_i, fin_pbt_i, ts_i, in_mem_ready,
                  e_rec_wr, e_rec_qfull, e_pmbirq, e_mem_valid, e_mem_addr, e_mem_data, e_mem_strb,
                  e_smp_valid, e_smp_slot, e_col_valid, e_rec_valid, e_rec_keep, e_rec_slot, e_rec_why,
                  e_rec_tot_lat, e_rec_iss_lat, e_pmu, e_reg_rdata, e_reg_undef, e_obs_pmsicr, e_obs_enabled,
                  e_rec_len, e_rec_data);
      if (n == 49) begin
        rst_ni = in_rst_n;
        mem_ready_i = in_mem_ready;
        reg_valid_i = in_reg_valid;
        reg_write_i = in_reg_write;
        el_i = in_el;
        prof_allowed_i = in_prof_allowed;
        tick;
        check("smp_valid_o", smp_valid_o, e_smp_valid, smp_valid_o !== e_smp_valid);
        check("smp_slot_o", smp_slot_o, e_smp_slot, smp_slot_o !== e_smp_slot);
        check("col_valid_o", col_valid_o, e_col_valid, col_valid_o !== e_col_valid);
        check("rec_valid_o", rec_valid_o, e_rec_valid, rec_valid_o !== e_rec_valid);
        check("rec_keep_o", rec_keep_o, e_rec_keep, rec_keep_o !== e_rec_keep);
        check("rec_slot_o", rec_slot_o, e_rec_slot, rec_slot_o !== e_rec_slot);
        check("rec_why_o", rec_why_o, e_rec_why, rec_why_o !== e_rec_why);
        check("rec_tot_lat_o", rec_tot_lat_o, e_rec_tot_lat, rec_tot_lat_o !== e_rec_tot_lat);
        check("rec_iss_lat_o", rec_iss_lat_o, e_rec_iss_lat, rec_iss_lat_o !== e_rec_iss_lat);
        check("pmu_o", pmu_o, e_pmu, pmu_o !== e_pmu);
        check("reg_rdata_o", reg_rdata_o, e_reg_rdata, reg_rdata_o !== e_reg_rdata);
        check("reg_undef_o", reg_undef_o, e_reg_undef, reg_undef_o !== e_reg_undef);
        check("obs_pmsicr_o", obs_pmsicr_o, e_obs_pmsicr, obs_pmsicr_o !== e_obs_pmsicr);
        check("obs_enabled_o", obs_enabled_o, e_obs_enabled, obs_enabled_o !== e_obs_enabled);
        check("rec_len_o", rec_len_o, e_rec_len, rec_len_o !== e_rec_len);
        check("rec_wr_o", rec_wr_o, e_rec_wr, rec_wr_o !== e_rec_wr);
        check("rec_qfull_o", rec_qfull_o, e_rec_qfull, rec_qfull_o !== e_rec_qfull);
        check("pmbirq_o", pmbirq_o, e_pmbirq, pmbirq_o !== e_pmbirq);
        check("mem_valid_o", mem_valid_o, e_mem_valid, mem_valid_o !== e_mem_valid);
        // the beat's address, data and byte enables mean something only with mem_valid_o
        if (e_mem_valid) begin
          check("mem_addr_o", mem_addr_o, e_mem_addr, mem_addr_o !== e_mem_addr);
          check("mem_data_o", mem_data_o, e_mem_data, mem_data_o !== e_mem_data);
          check("mem_strb_o", mem_strb_o, e_mem_strb, mem_strb_o !== e_mem_strb);
        end
        // rec_data_o holds the last record; it is compared with a new one
        if (e_rec_len != 0 && rec_data_o !== e_rec_data) begin
          diffs = diffs + 1;
          if (shown < 20) begin
            $display("icarus: cycle %0d: rec_data_o DUT %h expected %h", cycle, rec_data_o, e_rec_data);
            shown = shown + 1;
          end
        end
        cycle = cycle + 1;
      end else if (n > 0) begin
        $display("icarus: FAIL %0s: cycle %0d has %0d of 49 fields", path, cycle, n);
        diffs = diffs + 1;
        n = $fgets(line, fd);
      end
    end
    $fclose(fd);
    if (diffs == 0 && cycle > 0)
      $display("icarus: PASS %0d cycles, every output compared", cycle);
    else
      $display("icarus: FAIL %0d differences in %0d cycles", diffs, cycle);
    $finish;
  end
endmodule
