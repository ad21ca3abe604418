// openspu: the Profiling Buffer's beat queue and write port (Arm ARM D17.8;
// docs/buffer.md).
//
// The serial encoder (spu_encode) pushes write beats, {address [63:3],
// byte enables, data}, into a queue BEATS beats deep (knob BUF_BEATS), held
// in block RAM (SB_RAM40_4K on iCE40, DP16KD on ECP5). The write port's
// outputs are the queue's read registers: a beat pushed in cycle c is
// loaded into them at the earliest at the edge that ends cycle c+1, one
// beat per cycle while mem_ready_i takes them. While the queue is full
// (room_o low) the encoder waits: no beat is dropped. golden/spu_encode.c
// is the same machine.

`default_nettype none

module spu_beat_queue #(
  parameter integer BEATS = 16                   // beats the queue holds (BUF_BEATS)
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  input  wire         push_i,                    // a beat goes into the queue ...
  input  wire [132:0] beat_i,                    // ... {address [63:3], enables, data}
  output wire         room_o,                    // the queue has room for a beat
  input  wire         mem_ready_i,               // the memory takes the beat shown
  output reg          mem_valid_o,               // a beat is shown
  output wire [63:0]  mem_addr_o,                // its address (8-byte aligned)
  output reg  [63:0]  mem_data_o,                // byte j for address + j
  output reg  [7:0]   mem_strb_o                 // byte enables
);

  localparam integer  BW    = (BEATS > 1) ? $clog2(BEATS) : 1;   // queue index bits
  localparam [BW:0]   BN    = BEATS[BW:0];
  localparam integer  LASTI = BEATS - 1;
  localparam [BW-1:0] LAST  = LASTI[BW-1:0];                     // the queue's last index

  // Written at wr_q, read at rd_q into the write port's registers when the
  // port is empty or its beat is taken. An entry is never read in the
  // cycle it is written (it is read only once counted).
  (* ram_style = "block" *) reg [132:0] q_mem [0:BEATS-1];
  reg [BW-1:0] wr_q, wr_d, rd_q, rd_d;
  reg [BW:0]   cnt_q, cnt_d;                     // beats in the queue
  reg          valid_d;
  reg [60:0]   port_addr;
  wire         take = mem_valid_o & mem_ready_i;
  wire         load = (cnt_q != {(BW+1){1'b0}}) & (~mem_valid_o | take);
  assign room_o     = cnt_q != BN;
  assign mem_addr_o = {port_addr, 3'b000};

  function [BW-1:0] next_idx;
    input [BW-1:0] x;
    begin
      next_idx = (x == LAST) ? {BW{1'b0}} : x + {{(BW-1){1'b0}}, 1'b1};
    end
  endfunction

  always @* begin : b_queue
    wr_d    = push_i ? next_idx(wr_q) : wr_q;
    rd_d    = load ? next_idx(rd_q) : rd_q;
    cnt_d   = cnt_q + {{BW{1'b0}}, push_i} - {{BW{1'b0}}, load};
    valid_d = load | (mem_valid_o & ~take);
  end

  always @(posedge clk_i) begin : b_queue_q
    if (!rst_ni) begin
      wr_q        <= {BW{1'b0}};
      rd_q        <= {BW{1'b0}};
      cnt_q       <= {(BW+1){1'b0}};
      mem_valid_o <= 1'b0;
    end else begin
      wr_q        <= wr_d;
      rd_q        <= rd_d;
      cnt_q       <= cnt_d;
      mem_valid_o <= valid_d;
    end
  end

  always @(posedge clk_i) begin : b_mem
    if (push_i)
      q_mem[wr_q] <= beat_i;
    if (load)
      {port_addr, mem_strb_o, mem_data_o} <= q_mem[rd_q];
  end

`ifdef FORMAL
  // Proved with spu_top as the top (formal/spu.sby, group encode): after the
  // first clock edge (the first cycle is a reset) the queue never holds more
  // than BEATS beats.
  reg f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;
  always @* begin
    if (f_past_valid) begin
      // the queue holds cnt_q beats from rd_q: it writes at rd_q + cnt_q
      // (mod BEATS, any BEATS), and nothing is pushed into a full queue
      BeatQueueBounded_A: assert (cnt_q <= BN && {1'b0, rd_q} < BN && {1'b0, wr_q} < BN &&
                                  {1'b0, wr_q} == (({1'b0, rd_q} + cnt_q >= BN) ?
                                                   {1'b0, rd_q} + cnt_q - BN : {1'b0, rd_q} + cnt_q) &&
                                  (!push_i || room_o));
      // Reachability (the cover task): the port shows a beat the memory
      // does not take
      BeatStalled_C: cover (mem_valid_o && !mem_ready_i);
    end
  end
`endif

endmodule

`default_nettype wire
