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
  localparam integer LANES   = `SPU_LANES;
  localparam integer SLOTS   = `SPU_SLOTS;
  localparam integer REC_MAX = `SPU_REC_MAX;
  localparam integer CW = SLOTS * 8 * REC_MAX;  // widest port: the compare width

  // Every port of spu_top in the vector file's order (configs/spu.toml
  // [ports], spu_vec_ports.vh): an input, its value read from the line
  // (v_), an output and its expected value (e_).
  reg clk_i = 1'b0;
`define SPU_VEC_IN(N, W) reg [(W)-1:0] N = 0; reg [(W)-1:0] v_``N;
`define SPU_VEC_SEP
`define SPU_VEC_OUT(N, W) wire [(W)-1:0] N; reg [(W)-1:0] e_``N;
`define SPU_VEC_OUT_GATED(N, W, G) `SPU_VEC_OUT(N, W)
`include "spu_vec_ports.vh"
`undef SPU_VEC_IN
`undef SPU_VEC_OUT
`undef SPU_VEC_OUT_GATED

`define SPU_VEC_IN(N, W) .N(N),
`define SPU_VEC_OUT(N, W) .N(N),
`define SPU_VEC_OUT_GATED(N, W, G) .N(N),
  spu_top dut (
`include "spu_vec_ports.vh"
    .clk_i(clk_i)
  );
`undef SPU_VEC_IN
`undef SPU_VEC_OUT
`undef SPU_VEC_OUT_GATED

  integer fd, n, nf, nl, cycle, diffs, shown;
  reg [8*1024-1:0] path, line, sep;

  task tick;
    begin
      #5 clk_i = 1'b1;
      #5 clk_i = 1'b0;
    end
  endtask

  // One output: report when it differs (first few in full).
  task check(input [8*16-1:0] name, input [CW-1:0] got, input [CW-1:0] want, input differs);
    begin
      if (differs) begin
        diffs = diffs + 1;
        if (shown < 20) begin
          $display("icarus: cycle %0d: %0s DUT %0h expected %0h", cycle, name, got, want);
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
    n = $fgets(line, fd); // the "# spu-vectors 2 ..." header
    // Reset as the Verilator harness does it: 1, then 0 for two clocks, then 1.
    rst_ni = 1'b0;
    tick;
    tick;
    rst_ni = 1'b1;
    while (!$feof(fd)) begin
      // One line, field by field: the inputs, "|", the expected outputs.
      n = 0;
      nf = 0;
`define SPU_VEC_IN(N, W) n = n + $fscanf(fd, "%h", v_``N); nf = nf + 1;
`define SPU_VEC_SEP if ($fscanf(fd, "%s", sep) == 1 && sep[7:0] == "|") n = n + 1; nf = nf + 1;
`define SPU_VEC_OUT(N, W) n = n + $fscanf(fd, "%h", e_``N); nf = nf + 1;
`define SPU_VEC_OUT_GATED(N, W, G) `SPU_VEC_OUT(N, W)
`include "spu_vec_ports.vh"
`undef SPU_VEC_IN
`undef SPU_VEC_SEP
`undef SPU_VEC_OUT
`undef SPU_VEC_OUT_GATED
      // the end of the line, right after the last field ($feof then holds
      // after the last line); anything else there makes the line bad
      nl = $fgetc(fd);
      if (nl != 10 && nl != -1)
        n = n - 1;
      nl = $fgetc(fd);  // and a look at the next line's first character
      if (nl != -1)
        nl = $ungetc(nl, fd);
      if (n == nf) begin
`define SPU_VEC_IN(N, W) N = v_``N;
`define SPU_VEC_SEP
`define SPU_VEC_OUT(N, W)
`define SPU_VEC_OUT_GATED(N, W, G)
`include "spu_vec_ports.vh"
`undef SPU_VEC_IN
`undef SPU_VEC_OUT
`undef SPU_VEC_OUT_GATED
        tick;
        // Every output; a gated one (the write beat's address, data and
        // byte enables) only while its gate is nonzero. X or Z differs (!==).
`define SPU_VEC_IN(N, W)
`define SPU_VEC_OUT(N, W) check(`"N`", N, e_``N, N !== e_``N);
`define SPU_VEC_OUT_GATED(N, W, G) if (e_``G != 0) `SPU_VEC_OUT(N, W)
`include "spu_vec_ports.vh"
`undef SPU_VEC_IN
`undef SPU_VEC_SEP
`undef SPU_VEC_OUT
`undef SPU_VEC_OUT_GATED
        cycle = cycle + 1;
      end else if (n > 0) begin
        $display("icarus: FAIL %0s: cycle %0d has %0d of %0d fields (or no '|' after the inputs)",
                 path, cycle, n, nf);
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
