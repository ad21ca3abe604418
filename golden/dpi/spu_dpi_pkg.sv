// openspu golden model as a SystemVerilog package: the DPI-C functions of
// golden/dpi/spu_dpi.h (libspudpi), with spu_top's port widths from the
// generated configuration include (spu_config.vh of build/gen/<config>/,
// found with -I), so one package serves every configuration
// (docs/integration.md).
//
//   chandle m = spu_dpi_pkg::spu_dpi_open("v1p4");   // null: spu_dpi_error() says why
//   spu_dpi_pkg::spu_dpi_step(m, <spu_top's inputs>, <its outputs after the clock edge>);
//
// spu_dpi_step takes every input of spu_top in its packed layout and
// declaration order (docs/ports.md) and returns every output as spu_top
// shows it after that cycle's clock edge; a scoreboard calls it once per
// clock with the inputs of the cycle and compares after the edge.
`include "spu_config.vh"

package spu_dpi_pkg;
  // From the configuration include.
  localparam int LANES   = `SPU_LANES;
  localparam int SLOTS   = `SPU_SLOTS;
  localparam int REC_MAX = `SPU_REC_MAX;
  localparam int NPMU    = `SPU_NPMU;
  localparam int PMU_W   = `SPU_PMU_W;
  // spu_top's fields of one lane or port (docs/ports.md)
  localparam int SLOT_W  = 2;   // iss_slot_i, fin_slot_i, smp_slot_o, rec_slot_o
  localparam int TYPE_W  = 5;   // fin_type_i {SIMD,FP,ST,LD,B}
  localparam int ATTR_W  = 11;  // fin_attr_i
  localparam int AV_W    = 4;   // fin_addr_valid_i {PBT,PA,VA,TGT}
  localparam int WHY_W   = 6;   // rec_why_o
  localparam int ADDR_W  = 56;  // fin_pc_i, fin_tgt_i, fin_pa_i, fin_pbt_i
  localparam int REC_W   = 8 * REC_MAX * SLOTS; // rec_data_o

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

  import "DPI-C" function void spu_dpi_step(
    input  chandle                 h,
    input  bit                     rst_ni,
    input  bit [LANES-1:0]         pop_valid_i,
    input  bit [SLOTS-1:0]         iss_valid_i,
    input  bit [SLOTS*SLOT_W-1:0]  iss_slot_i,
    input  bit [SLOTS-1:0]         fin_valid_i,
    input  bit [SLOTS*SLOT_W-1:0]  fin_slot_i,
    input  bit [SLOTS*TYPE_W-1:0]  fin_type_i,
    input  bit [SLOTS*64-1:0]      fin_events_i,
    input  bit [SLOTS-1:0]         fin_ds_valid_i,
    input  bit [SLOTS*16-1:0]      fin_ds_i,
    input  bit [SLOTS*ATTR_W-1:0]  fin_attr_i,
    input  bit [SLOTS*AV_W-1:0]    fin_addr_valid_i,
    input  bit [SLOTS*32-1:0]      fin_ctx_i,
    input  bit [SLOTS*ADDR_W-1:0]  fin_pc_i,
    input  bit [SLOTS*ADDR_W-1:0]  fin_tgt_i,
    input  bit [SLOTS*64-1:0]      fin_va_i,
    input  bit [SLOTS*ADDR_W-1:0]  fin_pa_i,
    input  bit [SLOTS*ADDR_W-1:0]  fin_pbt_i,
    input  bit [63:0]              ts_i,
    input  bit                     reg_valid_i,
    input  bit                     reg_write_i,
    input  bit [15:0]              reg_enc_i,
    input  bit [63:0]              reg_wdata_i,
    input  bit [1:0]               el_i,
    input  bit                     prof_allowed_i,
    input  bit                     mem_ready_i,
    output bit                     mem_valid_o,
    output bit [63:0]              mem_addr_o,
    output bit [63:0]              mem_data_o,
    output bit [7:0]               mem_strb_o,
    output bit                     pmbirq_o,
    output bit [LANES-1:0]         smp_valid_o,
    output bit [LANES-1:0]         col_valid_o,
    output bit [LANES*SLOT_W-1:0]  smp_slot_o,
    output bit [SLOTS-1:0]         rec_valid_o,
    output bit [SLOTS-1:0]         rec_keep_o,
    output bit [SLOTS*SLOT_W-1:0]  rec_slot_o,
    output bit [SLOTS*WHY_W-1:0]   rec_why_o,
    output bit [SLOTS*16-1:0]      rec_tot_lat_o,
    output bit [SLOTS*16-1:0]      rec_iss_lat_o,
    output bit [SLOTS*8-1:0]       rec_len_o,
    output bit [REC_W-1:0]         rec_data_o,
    output bit [SLOTS-1:0]         rec_wr_o,
    output bit [SLOTS-1:0]         rec_qfull_o,
    output bit [NPMU*PMU_W-1:0]    pmu_o,
    output bit [63:0]              reg_rdata_o,
    output bit                     reg_undef_o,
    output bit [63:0]              obs_pmsicr_o,
    output bit                     obs_enabled_o);

  // spu_dpi_new with this package's widths.
  function automatic chandle spu_dpi_open(input string cfg_name);
    return spu_dpi_new(cfg_name, LANES, SLOTS, REC_MAX, NPMU, PMU_W);
  endfunction
endpackage
