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
  // spu_top's inputs in the order of the vector file (configs/spu.toml
  // [ports], spu_vec_ports.vh): `in` drives the DUT and the model. A
  // cycle's fields are read one by one into `field` and copied into `rd`,
  // then `in = rd` in one assignment (Verilator 5.006 neither scans into a
  // struct member nor wakes the logic that reads a variable $fscanf wrote).
`define SPU_VEC_IN(N, W) bit [(W)-1:0] N;
`define SPU_VEC_SEP
`define SPU_VEC_OUT(N, W)
`define SPU_VEC_OUT_GATED(N, W, G)
  typedef struct packed {
`include "spu_vec_ports.vh"
  } in_t;
`undef SPU_VEC_IN
`undef SPU_VEC_OUT
`undef SPU_VEC_OUT_GATED
  in_t rd, in = '{rst_ni: 1'b1, default: '0};
  /* verilator lint_off UNUSEDSIGNAL */
  bit [$bits(in_t)-1:0] field;  // wide enough for any input field
  /* verilator lint_on UNUSEDSIGNAL */

  // spu_top's outputs, and the model's (m_)
`define SPU_VEC_IN(N, W)
`define SPU_VEC_OUT(N, W) logic [(W)-1:0] N, m_``N;
`define SPU_VEC_OUT_GATED(N, W, G) `SPU_VEC_OUT(N, W)
`include "spu_vec_ports.vh"
`undef SPU_VEC_IN
`undef SPU_VEC_OUT
`undef SPU_VEC_OUT_GATED

`define SPU_VEC_IN(N, W) .N(in.N),
`define SPU_VEC_OUT(N, W)
`define SPU_VEC_OUT_GATED(N, W, G)
  spu_top dut (
`include "spu_vec_ports.vh"
    .clk_i, .*);
`undef SPU_VEC_IN
`undef SPU_VEC_OUT
`undef SPU_VEC_OUT_GATED

  string  path, cfg_name, vconfig, line, inject;
  int     inject_at = 0, injected_at = -1, fd, n, nin, vlanes, vslots;
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
    if ($sscanf(line, "# spu-vectors 2 config %s lanes %d slots %d", vconfig, vlanes, vslots) != 3)
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
      // one field into rd.N (truncated to its width, as $fscanf would)
      /* verilator lint_off WIDTH */
`define SPU_VEC_IN(N, W) if ($fscanf(fd, "%h", field) == 1) begin rd.N = field; n = n + 1; end nin = nin + 1;
`define SPU_VEC_OUT(N, W)
`define SPU_VEC_OUT_GATED(N, W, G)
      nin = 0;
`include "spu_vec_ports.vh"
`undef SPU_VEC_IN
`undef SPU_VEC_OUT
`undef SPU_VEC_OUT_GATED
      /* verilator lint_on WIDTH */
      void'($fgets(line, fd));  // the expected outputs csim wrote: the model gives them here
      if (n <= 0) continue;
      if (n != nin) $fatal(1, "dpi: +vectors=%s: cycle %0d has %0d of %0d input fields", path, cycle, n, nin);
      in = rd;
      if (m_mem_valid_o && in.mem_ready_i) beats = beats + 1;  // the beat shown is taken
`define SPU_VEC_IN(N, W) , in.N
`define SPU_VEC_OUT(N, W) , m_``N
`define SPU_VEC_OUT_GATED(N, W, G) `SPU_VEC_OUT(N, W)
      spu_dpi_step(model
`include "spu_vec_ports.vh"
      );
`undef SPU_VEC_IN
`undef SPU_VEC_OUT
`undef SPU_VEC_OUT_GATED
      tick;
      // every output of the cycle, zero-extended to the compare width CW; a
      // gated one (rec_data_o holds the last records; the write beat's
      // address, data and byte enables) only while the model's gate is set
      /* verilator lint_off WIDTH */
`define SPU_VEC_IN(N, W)
`define SPU_VEC_OUT(N, W) cmp(`"N`", N, m_``N, 1);
`define SPU_VEC_OUT_GATED(N, W, G) cmp(`"N`", N, m_``N, m_``G != 0);
`include "spu_vec_ports.vh"
`undef SPU_VEC_IN
`undef SPU_VEC_SEP
`undef SPU_VEC_OUT
`undef SPU_VEC_OUT_GATED
      /* verilator lint_on WIDTH */
      if (inject != "" && !inject_seen)
        $fatal(1, "dpi: +inject=%s: spu_top has no output of that name (an output port, e.g. rec_data_o)", inject);
      samples = samples + $countones(m_smp_valid_o);
      kept = kept + $countones(m_rec_keep_o);
      rejected = rejected + $countones(m_rec_valid_o & ~m_rec_keep_o);
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
