// spu_scoreboard: the golden model as a scoreboard beside your unit. Connect
// every port of spu_top (docs/ports.md) to it, inputs and outputs alike, as
// inputs; at each rising edge of clk_i it compares your unit's outputs with
// the model's for the cycle before (the outputs after the last edge), then
// steps the model (spu_dpi_pkg::spu_dpi_step) with the inputs your unit
// samples at this edge. It prints the first SHOW differences (cycle, port,
// your value, the model's) and counts them; call report() at the end for
// one PASS or FAIL line (docs/integration.md).
//
//   spu_scoreboard #(.CONFIG("v1p4")) sb (.clk_i, .*);   // beside spu_top dut (.clk_i, .*)
//   ... at the end: if (!sb.report()) $fatal(1, "differs from the golden model");
//
// Drive the inputs away from the rising edge (a falling edge, or
// non-blocking assignments), as for any synchronous unit. The model starts
// reset; a cycle with rst_ni = 0 resets it too. Outputs that are gated
// (configs/spu.toml [ports]: the write beat's address, data and strobes
// while mem_valid_o) are compared while the
// model's gate is set. The port list is generated from configs/spu.toml
// (spu_vec_ports.vh in the configuration's include directory), so compile
// this with that directory, as spu_top and spu_dpi_pkg are.
//
// Plusargs: +config=NAME (when CONFIG is ""), and the self-test
// +inject=PORT +inject_at=CYCLE: bit 0 of the model's PORT is flipped in the
// first cycle from CYCLE on that compares PORT; the scoreboard must then
// report exactly that difference.
`include "spu_config.vh"

module spu_scoreboard
  import spu_dpi_pkg::*;
#(
    parameter string CONFIG = "",                // the model's configuration; "" = +config=NAME or the include's
    parameter int    SHOW   = 20,                // differences printed in full
    parameter string TAG    = "spu_scoreboard"   // the prefix of every line it prints
) (
    input logic clk_i,
`define SPU_VEC_IN(N, W) input logic [(W)-1:0] N,
`define SPU_VEC_SEP
`define SPU_VEC_OUT(N, W) input logic [(W)-1:0] N,
`define SPU_VEC_OUT_GATED(N, W, G) `SPU_VEC_OUT(N, W)
`include "spu_vec_ports.vh"
`undef SPU_VEC_IN
`undef SPU_VEC_OUT
`undef SPU_VEC_OUT_GATED
    output int unsigned cycles_o,                // cycles compared
    output int unsigned diffs_o                  // differences found
);
  localparam int CW = 64;                       // the widest output (obs_pmsicr_o, mem_*_o, rec_*_lat_o)
  // A scoreboard's counters and the model's outputs are updated in order
  // within the clock's process, read by nothing else in that time step.
  /* verilator lint_off BLKSEQ */

  // The model's outputs (m_), as spu_dpi_step returns them.
`define SPU_VEC_IN(N, W)
`define SPU_VEC_OUT(N, W) logic [(W)-1:0] m_``N;
`define SPU_VEC_OUT_GATED(N, W, G) `SPU_VEC_OUT(N, W)
`include "spu_vec_ports.vh"
`undef SPU_VEC_IN
`undef SPU_VEC_OUT
`undef SPU_VEC_OUT_GATED

  string       cfg_name, inject = "", first_port = "";
  int          inject_at = 0, injected_at = -1, first_cycle = -1;
  bit          inject_seen, stepped;
  int unsigned cycle = 0, diffs = 0;
  longint      samples = 0, kept = 0, rejected = 0, beats = 0;
  chandle      model;

  assign cycles_o = cycle;
  assign diffs_o  = diffs;

  initial begin
    cfg_name = CONFIG;
    if (cfg_name == "" && !$value$plusargs("config=%s", cfg_name)) cfg_name = `SPU_CFG_NAME;
    if ($value$plusargs("inject=%s", inject) && !$value$plusargs("inject_at=%d", inject_at))
      $fatal(1, "%s: +inject=%s needs +inject_at=CYCLE", TAG, inject);
    model = spu_dpi_open(cfg_name);
    if (model == null) $fatal(1, "%s: +config=%s: %s", TAG, cfg_name, spu_dpi_error());
  end

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
        first_port  = port;
      end
      if (diffs <= SHOW)
        $display("%s: cycle %0d: %s DUT %0h model %0h%s", TAG, cycle, port, got, want,
                 injected_at == cycle && port == inject ? " (planted by +inject)" : "");
    end
  endtask

  // Every output of the cycle, zero-extended to CW; a gated one while the
  // model's gate is set.
  task automatic compare;
    /* verilator lint_off WIDTH */
`define SPU_VEC_IN(N, W)
`define SPU_VEC_OUT(N, W) cmp(`"N`", N, m_``N, 1);
`define SPU_VEC_OUT_GATED(N, W, G) cmp(`"N`", N, m_``N, m_``G != 0);
`include "spu_vec_ports.vh"
`undef SPU_VEC_IN
`undef SPU_VEC_OUT
`undef SPU_VEC_OUT_GATED
    /* verilator lint_on WIDTH */
    if (inject != "" && !inject_seen)
      $fatal(1, "%s: +inject=%s: spu_top has no output of that name (an output port, e.g. rec_len_o)", TAG, inject);
    samples  = samples + $countones(m_smp_valid_o);
    kept     = kept + $countones(m_rec_keep_o);
    rejected = rejected + $countones(m_rec_valid_o & ~m_rec_keep_o);
    if (m_mem_valid_o && mem_ready_i) beats = beats + 1;  // the beat shown is taken at this edge
    cycle = cycle + 1;
  endtask

  always @(posedge clk_i) begin
    if (stepped) compare();
`define SPU_VEC_IN(N, W) , N
`define SPU_VEC_OUT(N, W) , m_``N
`define SPU_VEC_OUT_GATED(N, W, G) `SPU_VEC_OUT(N, W)
    spu_dpi_step(model
`include "spu_vec_ports.vh"
    );
`undef SPU_VEC_IN
`undef SPU_VEC_SEP
`undef SPU_VEC_OUT
`undef SPU_VEC_OUT_GATED
    stepped = 1'b1;
  end

  // One line: PASS with the cycles compared and what they held, or FAIL with
  // the differences (the first one's cycle and port), or FAIL as vacuous (no
  // sample, kept record or write beat). 1 for a PASS.
  function automatic bit report();
    if (inject != "" && injected_at < 0)
      $fatal(1, "%s: +inject=%s +inject_at=%0d: no cycle from %0d on compares %s (%0d cycles)",
             TAG, inject, inject_at, inject_at, inject, cycle);
    if (diffs != 0) begin
      string noun = diffs == 1 ? "difference" : "differences";
      $display("%s: FAIL config %s: %0d %s in %0d cycles, the first at cycle %0d: %s",
               TAG, cfg_name, diffs, noun, cycle, first_cycle, first_port);
      return 1'b0;
    end
    if (samples == 0 || kept == 0 || beats == 0) begin
      $display("%s: FAIL config %s: vacuous: %0d cycles, samples %0d, records kept %0d, write beats %0d",
               TAG, cfg_name, cycle, samples, kept, beats);
      return 1'b0;
    end
    $display("%s: PASS config %s: %0d cycles compared, 0 differences, samples %0d, records kept %0d rejected %0d, write beats %0d",
             TAG, cfg_name, cycle, samples, kept, rejected, beats);
    return 1'b1;
  endfunction

  final if (model != null) spu_dpi_free(model);
  /* verilator lint_on BLKSEQ */
endmodule
