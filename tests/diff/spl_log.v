// An example of the .spl logging spu-diff needs from a testbench
// (docs/diff.md), for Icarus Verilog (-g2005, no DPI). It is a second root
// module beside the vector bench tb/icarus/spu_vec_tb.v, which drives
// spu_top from a vector file of spu-csim --vectors; this module only watches
// spu_top's ports (by hierarchical name) and writes the sample, collision,
// record, read, undef and reset lines of each cycle, and at the end the pmu
// line: the totals of pmu_o for each SAMPLE_* event the configuration
// implements.
//
// DELAY puts a delay stage of that many cycles on the record outputs: the
// records come out DELAY cycles after the finish, as from a pipeline with
// other timing (a stand-in for your own SPE unit). spu-diff then needs
// --record-latency DELAY.
//
//   iverilog -g2005 -I build/gen/<cfg> -I rtl -s spu_vec_tb -s spu_spl_log -P spu_spl_log.DELAY=3 \
//       -o x.vvp tb/icarus/spu_vec_tb.v tests/diff/spl_log.v rtl/*.v
//   vvp -n x.vvp +vectors=FILE.vec +spl=THEIR.spl
`include "spu_config.vh"
`define DUT spu_vec_tb.dut

module spu_spl_log;
  parameter integer DELAY = 0;
  localparam integer L = `SPU_LANES;
  localparam integer S = `SPU_SLOTS;
  localparam integer QN = 64;            // records the delay stage holds
  localparam integer NPMU = `SPU_NPMU;
  localparam integer PW = `SPU_PMU_W;
  localparam integer NL = 8 * `SPU_PMU_NAME_LEN;
  localparam [NPMU*NL-1:0] PMU_NAME = `SPU_PMU_NAME_ALL;  // configs/spu.toml [pmu.*]
  localparam [NPMU-1:0] PMU_IMPL = `SPU_PMU_IMPL;

  integer fd, l, p, k, first;
  reg [8*1024-1:0] path;
  reg [63:0] cycle, next_op, op;
  reg [63:0] slot_op [0:S-1];            // the op each slot was given by its sample
  // the delay stage: records in finish order, each with the cycle it comes out
  reg [63:0] q_cycle [0:QN-1];
  reg [63:0] q_op [0:QN-1];
  reg [15:0] q_tot [0:QN-1];
  reg [15:0] q_iss [0:QN-1];
  reg [1:0]  q_slot [0:QN-1];
  reg        q_keep [0:QN-1];
  reg [5:0]  q_why [0:QN-1];
  integer q_head, q_n;
  reg [63:0] pmu_tot [0:NPMU-1];         // the totals of pmu_o

  initial begin
    {cycle, next_op} = 0;
    q_head = 0;
    q_n = 0;
    for (k = 0; k < NPMU; k = k + 1)
      pmu_tot[k] = 0;
    fd = $value$plusargs("spl=%s", path) ? $fopen(path, "w") : 0;
    if (fd == 0) begin
      $display("spl_log: FAIL no +spl=FILE, or it cannot be written");
      $finish;
    end
  end

  // why=: the reasons of rec_why_o (bit 0 type, 1 ev, 2 nev, 3 lat, 4 ds,
  // 5 discard) in alphabetical order, or - for none.
  task put_why(input [5:0] w);
    begin
      first = 1;
      if (w == 0) $fwrite(fd, "-");
      if (w[5]) begin $fwrite(fd, "discard"); first = 0; end
      if (w[4]) begin if (!first) $fwrite(fd, ","); $fwrite(fd, "ds"); first = 0; end
      if (w[1]) begin if (!first) $fwrite(fd, ","); $fwrite(fd, "ev"); first = 0; end
      if (w[3]) begin if (!first) $fwrite(fd, ","); $fwrite(fd, "lat"); first = 0; end
      if (w[2]) begin if (!first) $fwrite(fd, ","); $fwrite(fd, "nev"); first = 0; end
      if (w[0]) begin if (!first) $fwrite(fd, ","); $fwrite(fd, "type"); end
    end
  endtask

  // The records of the delay stage due by cycle c (all of them at the end).
  task put_records(input [63:0] c, input all);
    begin
      while (q_n > 0 && (all || q_cycle[q_head] <= c)) begin
        $fwrite(fd, "%0d record op=%0d slot=%0d tot=%0d iss=%0d keep=%0d why=", q_cycle[q_head], q_op[q_head],
                q_slot[q_head], q_tot[q_head], q_iss[q_head], q_keep[q_head]);
        put_why(q_why[q_head]);
        $fwrite(fd, "\n");
        q_head = (q_head + 1) % QN;
        q_n = q_n - 1;
      end
    end
  endtask

  // The closing pmu line: SAMPLE_<NAME>=total for each implemented event.
  task put_pmu;
    begin
      $fwrite(fd, "%0d pmu", cycle);
      for (k = 0; k < NPMU; k = k + 1)
        if (PMU_IMPL[k])
          $fwrite(fd, " SAMPLE_%0s=%0d", PMU_NAME[NL*k +: NL], pmu_tot[k]);
      $fwrite(fd, "\n");
    end
  endtask

  // One cycle: spu_top's inputs of the cycle and the outputs it shows for it.
  task log_cycle;
    begin
      // A record is the op its slot was given (read before this cycle's
      // samples, which may take a slot freed in the same cycle).
      for (p = 0; p < S && `DUT.rst_ni; p = p + 1)
        if (`DUT.rec_valid_o[p]) begin
          if (q_n == QN) begin
            $display("spl_log: FAIL the delay stage holds only %0d records", QN);
            $finish;
          end
          k = (q_head + q_n) % QN;
          q_cycle[k] = cycle + DELAY;
          q_op[k] = slot_op[`DUT.rec_slot_o[2*p +: 2]];
          q_slot[k] = `DUT.rec_slot_o[2*p +: 2];
          q_tot[k] = `DUT.rec_tot_lat_o[16*p +: 16];
          q_iss[k] = `DUT.rec_iss_lat_o[16*p +: 16];
          q_keep[k] = `DUT.rec_keep_o[p];
          q_why[k] = `DUT.rec_why_o[6*p +: 6];
          q_n = q_n + 1;
        end
      if (!`DUT.rst_ni)
        $fdisplay(fd, "%0d reset", cycle);
      // Op ids count the members of pop_valid_i, cycle by cycle, lane 0 first.
      op = next_op;
      for (l = 0; l < L; l = l + 1)
        if (`DUT.pop_valid_i[l]) begin
          if (`DUT.rst_ni && `DUT.col_valid_o[l])
            $fdisplay(fd, "%0d collision op=%0d", cycle, op);
          if (`DUT.rst_ni && `DUT.smp_valid_o[l]) begin
            $fdisplay(fd, "%0d sample op=%0d lane=%0d slot=%0d", cycle, op, l, `DUT.smp_slot_o[2*l +: 2]);
            slot_op[`DUT.smp_slot_o[2*l +: 2]] = op;
          end
          op = op + 1;
        end
      next_op = op;
      for (k = 0; k < NPMU; k = k + 1)
        pmu_tot[k] = pmu_tot[k] + `DUT.pmu_o[PW*k +: PW];
      put_records(cycle, 1'b0);
      // The register access, its register in the s<op0>_<op1>_c<CRn>_c<CRm>_<op2> form.
      if (`DUT.rst_ni && `DUT.reg_valid_i && (`DUT.reg_undef_o || !`DUT.reg_write_i)) begin
        if (`DUT.reg_undef_o)
          $fwrite(fd, "%0d undef %s ", cycle, `DUT.reg_write_i ? "w" : "r");
        else
          $fwrite(fd, "%0d read ", cycle);
        $fwrite(fd, "s%0d_%0d_c%0d_c%0d_%0d", `DUT.reg_enc_i[15:14], `DUT.reg_enc_i[13:11], `DUT.reg_enc_i[10:7],
                `DUT.reg_enc_i[6:3], `DUT.reg_enc_i[2:0]);
        if (`DUT.reg_undef_o)
          $fwrite(fd, "\n");
        else
          $fwrite(fd, " 0x%016h\n", `DUT.reg_rdata_o);
      end
      cycle = cycle + 1;
    end
  endtask

  // After each rising edge of a vector cycle (the bench's v_rst_ni is X
  // until it has read the first vector line: the reset before is its own);
  // the inputs stay until the bench applies the next line, 5 units later.
  always @(posedge spu_vec_tb.clk_i) begin
    #1;
    if (spu_vec_tb.v_rst_ni !== 1'bx) begin
      log_cycle;
      // The last vector line read: run the delay stage dry.
      if ($feof(spu_vec_tb.fd)) begin
        put_records(cycle, 1'b1);
        put_pmu;
        $fclose(fd);
      end
    end
  end
endmodule
