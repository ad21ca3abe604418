// The golden model as a scoreboard inside a SystemVerilog bench: spu_top
// (rtl/*.v) and spu_scoreboard (golden/dpi/spu_scoreboard.sv: the model
// through DPI-C, golden/dpi/spu_dpi_pkg.sv and libspudpi) see the same
// ports every cycle, and every output of spu_top is compared with the
// model's after every clock edge (docs/integration.md). The inputs come from
// a vector file of spu-csim --vectors (its expected outputs are not read:
// the model computes them here). It is also the example of how to
// instantiate the scoreboard beside your own unit (make install puts it in
// share/openspu/examples/).
//   build: verilator --binary -Ibuild/gen/<cfg> -Irtl golden/dpi/spu_dpi_pkg.sv golden/dpi/spu_scoreboard.sv
//       tests/dpi/spu_dpi_tb.sv rtl/*.v --top-module spu_dpi_tb -LDFLAGS "libspudpi.a libspugolden.a"
//       (make build/dpi/<cfg>/spu_dpi_tb)
//   spu_dpi_tb +vectors=FILE [+config=NAME] [+inject=PORT +inject_at=CYCLE]
// +config names the model's configuration (default: the include's);
// +inject plants a difference (spu_scoreboard.sv). Prints "dpi: PASS ..."
// with the cycles compared and how many samples, records and write beats
// they had, or the differences and "dpi: FAIL ..." and stops with $fatal
// (non-zero exit); a run without a sample, a kept record or a write beat
// fails as vacuous.
`include "spu_config.vh"

module spu_dpi_tb;
  import spu_dpi_pkg::*;

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

  // spu_top's outputs
`define SPU_VEC_IN(N, W)
`define SPU_VEC_OUT(N, W) logic [(W)-1:0] N;
`define SPU_VEC_OUT_GATED(N, W, G) `SPU_VEC_OUT(N, W)
`include "spu_vec_ports.vh"
`undef SPU_VEC_IN
`undef SPU_VEC_OUT
`undef SPU_VEC_OUT_GATED

  string path, vconfig, line;
  int    fd, n, nin, vlanes, vslots, cycle = 0;

  // spu_top and the scoreboard beside it: the same inputs, and spu_top's
  // outputs into the scoreboard (.*).
`define SPU_VEC_IN(N, W) .N(in.N),
`define SPU_VEC_OUT(N, W)
`define SPU_VEC_OUT_GATED(N, W, G)
  spu_top dut (
`include "spu_vec_ports.vh"
    .clk_i, .*);
  /* verilator lint_off PINCONNECTEMPTY */  // report() says what the counts say
  spu_scoreboard #(.TAG("dpi")) sb (
`include "spu_vec_ports.vh"
    .clk_i, .cycles_o(), .diffs_o(), .*);
  /* verilator lint_on PINCONNECTEMPTY */
`undef SPU_VEC_IN
`undef SPU_VEC_OUT
`undef SPU_VEC_OUT_GATED

  task automatic tick;
    #5 clk_i = 1'b1;
    #5 clk_i = 1'b0;
  endtask

  initial begin
    if (!$value$plusargs("vectors=%s", path)) $fatal(1, "dpi: no +vectors=FILE (spu-csim --vectors writes one)");
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
      tick;
      cycle = cycle + 1;
    end
    $fclose(fd);
    tick;  // the scoreboard compares the last cycle's outputs at this edge
    if (!sb.report()) $fatal(1, "dpi: spu_top differs from the golden model, or the run is vacuous");
    $finish;
  end
endmodule
