// openspu golden model as a SystemVerilog package: the DPI-C functions of
// golden/dpi/spu_dpi.h (libspudpi), with spu_top's port widths from the
// generated configuration include (spu_config.vh of build/gen/<config>/,
// found with -I), so one package serves every configuration
// (docs/integration.md).
//
//   chandle m = spu_dpi_pkg::spu_dpi_open("v1p4");   // null: spu_dpi_error() says why
//   spu_dpi_pkg::spu_dpi_step(m, <spu_top's inputs>, <its outputs after the clock edge>);
//
// spu_dpi_step takes every input of spu_top (but clk_i) in its packed
// layout and returns every output as spu_top shows it after that cycle's
// clock edge, in the port order of configs/spu.toml [ports] (its import is
// generated: spu_dpi_step.svh beside spu_config.vh; docs/ports.md); a
// scoreboard calls it once per clock with the inputs of the cycle and
// compares after the edge.
`include "spu_config.vh"

package spu_dpi_pkg;
  // From the configuration include.
  localparam int LANES   = `SPU_LANES;
  localparam int SLOTS   = `SPU_SLOTS;
  localparam int REC_MAX = `SPU_REC_MAX;
  localparam int NPMU    = `SPU_NPMU;
  localparam int PMU_W   = `SPU_PMU_W;

  // A model of configuration `cfg_name`, for the widths above; null (and
  // spu_dpi_error() the reason) for an unknown configuration or widths that
  // are not its. spu_dpi_open passes the widths.
  import "DPI-C" function chandle spu_dpi_new(input string cfg_name, input int lanes, input int slots,
                                              input int rec_max, input int npmu, input int pmu_w);
  // Set a knob (docs/impl-defined.md) and reset, as spu_top's parameter of
  // that name: 0, or -1 and spu_dpi_error().
  import "DPI-C" function int spu_dpi_set_knob(input chandle h, input string name, input int unsigned value);
  import "DPI-C" function string spu_dpi_error();
  import "DPI-C" function void spu_dpi_free(input chandle h);

`include "spu_dpi_step.svh"

  // spu_dpi_new with this package's widths.
  function automatic chandle spu_dpi_open(input string cfg_name);
    return spu_dpi_new(cfg_name, LANES, SLOTS, REC_MAX, NPMU, PMU_W);
  endfunction
endpackage
