// openspu: the serial record encoder (Arm ARM D17.8; docs/buffer.md).
//
// The record that entered the write path (start_i: spu_buffer reserved its
// place at PMBPTR_EL1) is written a packet per cycle, in the packet table's
// order, from its slot's captured packets (spu_record) into a window of 16
// bytes: a ring of two 8-byte halves. The window starts at PMBPTR_EL1's
// offset in its 8 bytes (bytes before it are not written); when a half is
// full, or the record's last byte (padding included) is in it, the half is
// a write beat and goes into the beat queue (spu_beat_queue, whose read
// registers are the write port). While the queue is full the encoder
// waits. The record's slot is occupied until its last packet is read
// (occ_o), and freed in that cycle (rel_o). golden/spu_encode.c is the same
// machine.

`default_nettype none

`include "spu_config.vh"

module spu_encode #(
  parameter integer        SLOTS    = 1,
  parameter integer        NPKT     = `SPU_NPKT,  // packets of the packet table ...
  parameter [NPKT*4-1:0]   PKT_SIZE = {NPKT{4'd1}}, // ... and their sizes (spu_top)
  parameter integer        BEATS    = 16,         // beats the queue holds (BUF_BEATS)
  parameter integer        REC_MAX  = 128         // the longest record's bytes (REC_MAX)
) (
  input  wire                     clk_i,
  input  wire                     rst_ni,
  input  wire                     start_i,       // a record enters: ...
  input  wire [1:0]               start_slot_i,  // ... its slot, ...
  input  wire [63:0]              start_ptr_i,   // ... place ...
  input  wire [7:0]               start_len_i,   // ... and length
  input  wire [SLOTS*NPKT*72-1:0] pkt_i,         // each slot's packets (spu_record)
  input  wire [SLOTS*NPKT-1:0]    pres_i,        // ... and which its record has
  output wire                     busy_o,        // a record is being written (no start)
  output wire [SLOTS-1:0]         occ_o,         // slot s's packets are still to be read
  output wire [SLOTS-1:0]         rel_o,         // slot s's last packet is read
  input  wire                     mem_ready_i,   // the memory takes the beat shown
  output wire                     mem_valid_o,   // a beat is shown (spu_beat_queue)
  output wire [63:0]              mem_addr_o,    // its address (8-byte aligned)
  output wire [63:0]              mem_data_o,    // byte j for address + j
  output wire [7:0]               mem_strb_o     // byte enables
);

  // a record's beats: at most (7 + REC_MAX + 7) / 8, from an offset of up to
  // 7 bytes in its first
  localparam integer  NBW  = $clog2((REC_MAX + 14) / 8 + 1);
  localparam [NBW-1:0] NB1 = 1;
  localparam [NBW-1:0] NB2 = 2;

  function [3:0] pkt_size;              // header and payload bytes of packet i
    input integer i;
    begin
      pkt_size = PKT_SIZE[4*i +: 4];
    end
  endfunction

  // ------------------------------------------------------- the encoder
  reg            busy_q, busy_d;
  reg [1:0]      slot_q, slot_d;
  reg [71:0]     cur_q, cur_d;         // the next packet's bytes (read a cycle ahead) ...
  reg [3:0]      csz_q, csz_d;         // ... its size ...
  reg            cv_q, cv_d;           // ... if one is left
  reg [NPKT-1:0] left_q, left_d;       // the packets after it
  reg [4:0]      o_q, o_d;             // bytes in the window, not yet in a beat
  reg [3:0]      wp_q, wp_d;           // where the window takes bytes: (8 * rp + o) mod 16
  reg [NBW-1:0]  nb_q, nb_d;           // the record's beats not yet in the queue ...
  reg            last_q, last_d;       // ... if only one (nb_q == 1) ...
  reg [3:0]      eoff_q, eoff_d;       // ... and the record's bytes in its last beat, 1..8
  reg            rp_q, rp_d;           // the half that is the next beat
  reg [127:0]    win_q, win_d;         // the window's bytes
  reg [15:0]     wst_q, wst_d;         // ... and which are the record's
  reg [60:0]     addr_q, addr_d;       // the next beat's address [63:3]
  wire           room;                 // the beat queue has room

  reg [5:0]      nbs;                  // a starting record's beats (below 1 << NBW)
  wire           unused_nbs = ^(nbs >> NBW);
  reg            emit;                 // a beat goes into the queue ...
  reg [63:0]     beat_data;            // ... with these bytes
  reg [7:0]      beat_strb;
  reg [SLOTS-1:0] rel;

  assign busy_o = busy_q;
  assign rel_o  = rel;
  assign occ_o  = (busy_q && cv_q) ? ({{(SLOTS-1){1'b0}}, 1'b1} << slot_q) : {SLOTS{1'b0}};

  // The first packet of mask m, one-hot, and a packet of a slot with its size.
  function [NPKT-1:0] first_of;        // the lowest bit of m, one-hot
    input [NPKT-1:0] m;
    integer i;
    reg     seen;
    begin
      first_of = {NPKT{1'b0}};
      seen     = 1'b0;
      for (i = 0; i < NPKT; i = i + 1) begin
        first_of[i] = m[i] & ~seen;
        seen        = seen | m[i];
      end
    end
  endfunction
  // An OR of the one-hot choices, each masked to its packet's size: the
  // bytes past a packet's size are not read (nor kept, spu_record).
  function [75:0] pick;                // {size, bytes} of one-hot packet f of slot sl
    input [NPKT-1:0]          f;
    input [1:0]               sl;
    input [SLOTS*NPKT*72-1:0] pk;      // every slot's packets (pkt_i)
    integer k, i;
    begin
      pick = 76'd0;
      for (k = 0; k < SLOTS; k = k + 1)
        for (i = 0; i < NPKT; i = i + 1)
          pick = pick | ({76{sl == k[1:0] && f[i]}} &
                         {pkt_size(i), pk[72*(NPKT*k + i) +: 72] &
                                       ~({72{1'b1}} << (8 * pkt_size(i)))});
    end
  endfunction

  // The window takes the packet read a cycle ahead (or the padding up to
  // its half's end, or the record's) at byte wp = (8 * rp + o) mod 16, and
  // the packet after it is read; a full half, or the record's last, is a
  // beat. The record's beats are counted from its entry (nb, and its last
  // beat's bytes eoff), so whether a beat is due is one compare of the
  // window's count against 8 or eoff, not a count of the bytes left.
  // Worked out only while a record is being written or starts.
  always @* begin : b_encode
    reg [NPKT-1:0] nxt;                // the packet read next, one-hot
    reg [71:0]     bytes;              // the bytes the window takes ...
    reg [3:0]      size;               // ... and how many
    reg [3:0]      d;
    reg [3:0]      end8;               // the record's bytes in the half: 8, or eoff
    reg [4:0]      o1;
    reg [8:0]      ends;               // PMBPTR_EL1's offset plus the length
    integer        i;
    busy_d    = busy_q;
    slot_d    = slot_q;
    cur_d     = cur_q;
    csz_d     = csz_q;
    cv_d      = cv_q;
    left_d    = left_q;
    o_d       = o_q;
    wp_d      = wp_q;
    nb_d      = nb_q;
    last_d    = last_q;
    eoff_d    = eoff_q;
    rp_d      = rp_q;
    win_d     = win_q;
    wst_d     = wst_q;
    addr_d    = addr_q;
    emit      = 1'b0;
    beat_data = 64'd0;
    beat_strb = 8'd0;
    rel       = {SLOTS{1'b0}};
    nxt       = {NPKT{1'b0}};
    bytes     = 72'd0;
    size      = 4'd0;
    d         = 4'd0;
    end8      = last_q ? eoff_q : 4'd8;
    o1        = 5'd0;
    ends      = 9'd0;
    nbs       = 6'd0;
    i         = 0;
    if (busy_q && room) begin
      o1 = o_q;
      if (o_q < 5'd8) begin
        if (cv_q) begin
          nxt   = first_of(left_q);
          bytes = cur_q;
          size  = csz_q;
          {csz_d, cur_d} = pick(nxt, slot_q, pkt_i);
          cv_d   = left_q != {NPKT{1'b0}};
          left_d = left_q & ~nxt;
          if (left_q == {NPKT{1'b0}})
            rel = {{(SLOTS-1){1'b0}}, 1'b1} << slot_q;
        end else begin                 // padding: zeros up to the half's or the record's end
          size = end8 - o_q[3:0];
        end
        o1   = o_q + {1'b0, size};
        wp_d = wp_q + size;
        for (i = 0; i < 16; i = i + 1) begin
          d = i[3:0] - wp_q;
          if (d < size) begin
            win_d[8*i +: 8] = bytes[{d, 3'b000} +: 8];
            wst_d[i]        = 1'b1;
          end
        end
      end
      o_d = o1;
      if (o1 >= {1'b0, end8}) begin    // a whole half, or the record's last byte
        emit = 1'b1;
        for (i = 0; i < 8; i = i + 1) begin
          beat_strb[i]        = rp_q ? wst_d[8 + i] : wst_d[i];
          beat_data[8*i +: 8] = beat_strb[i] ? (rp_q ? win_d[64 + 8*i +: 8] : win_d[8*i +: 8])
                                             : 8'd0;
        end
        if (rp_q) wst_d[15:8] = 8'd0;
        else      wst_d[7:0]  = 8'd0;
        rp_d   = ~rp_q;
        o_d    = (o1 >= 5'd8) ? o1 - 5'd8 : 5'd0;
        addr_d = addr_q + 61'd1;
        nb_d   = nb_q - NB1;
        last_d = nb_q == NB2;
        if (last_q)
          busy_d = 1'b0;
      end
    end
    if (start_i) begin                 // the record's first packet, read now
      nxt    = first_of(pres_i[NPKT*start_slot_i +: NPKT]);
      busy_d = 1'b1;
      slot_d = start_slot_i;
      {csz_d, cur_d} = pick(nxt, start_slot_i, pkt_i);
      cv_d   = 1'b1;
      left_d = pres_i[NPKT*start_slot_i +: NPKT] & ~nxt;
      o_d    = {2'd0, start_ptr_i[2:0]};
      wp_d   = {1'b0, start_ptr_i[2:0]};
      ends   = {1'b0, start_len_i} + {6'd0, start_ptr_i[2:0]};
      nbs    = ends[8:3] + {5'd0, ends[2:0] != 3'd0};
      nb_d   = nbs[NBW-1:0];
      last_d = 1'b0;                   // a record has 9 bytes or more (its PC packet)
      eoff_d = (ends[2:0] == 3'd0) ? 4'd8 : {1'b0, ends[2:0]};
      rp_d   = 1'b0;
      wst_d  = 16'd0;
      addr_d = start_ptr_i[63:3];
    end
  end

  always @(posedge clk_i) begin : b_enc_q
    if (!rst_ni) begin
      busy_q <= 1'b0;
      slot_q <= 2'd0;
      cv_q   <= 1'b0;
      left_q <= {NPKT{1'b0}};
      o_q    <= 5'd0;
      wp_q   <= 4'd0;
      nb_q   <= {NBW{1'b0}};
      last_q <= 1'b0;
      eoff_q <= 4'd0;
      rp_q   <= 1'b0;
      wst_q  <= 16'd0;
      addr_q <= 61'd0;
    end else if (busy_q || start_i) begin
      busy_q <= busy_d;
      slot_q <= slot_d;
      cv_q   <= cv_d;
      left_q <= left_d;
      o_q    <= o_d;
      wp_q   <= wp_d;
      nb_q   <= nb_d;
      last_q <= last_d;
      eoff_q <= eoff_d;
      rp_q   <= rp_d;
      wst_q  <= wst_d;
      addr_q <= addr_d;
    end
  end

  // the window's and the next packet's bytes: no reset (read only after
  // they are written)
  always @(posedge clk_i) begin : b_win_q
    if (busy_q || start_i) begin
      win_q <= win_d;
      cur_q <= cur_d;
      csz_q <= csz_d;
    end
  end

  // ------------------------------------------------ the beat queue
  spu_beat_queue #(
    .BEATS       (BEATS)
  ) u_queue (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .push_i      (emit),
    .beat_i      ({addr_q, beat_strb, beat_data}),
    .room_o      (room),
    .mem_ready_i (mem_ready_i),
    .mem_valid_o (mem_valid_o),
    .mem_addr_o  (mem_addr_o),
    .mem_data_o  (mem_data_o),
    .mem_strb_o  (mem_strb_o)
  );

`ifdef FORMAL
  // Proved with spu_top as the top (formal/spu.sby, group encode): after the
  // first clock edge (the first cycle is a reset) the queue never holds more
  // than BEATS beats, the window never more than a beat when a cycle starts,
  // and the beats of a record write exactly its bytes: f_sent, the enabled
  // bytes of its beats so far, plus those waiting in the window plus those
  // not yet in it make its length, and the record's last beat brings f_sent
  // to it (so PMBPTR_EL1, which moved by the length at its entry, moved by
  // exactly the bytes written). The bytes not yet in the window are at
  // least the packets still to be read.
  reg f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;
  reg [8:0] f_sent;                    // enabled bytes of the record's beats so far
  reg [7:0] f_len;                     // its length
  reg [3:0] f_off;                     // its offset in its first 8 bytes
  reg [5:0] f_beats;                   // its beats so far
  reg [60:0] f_base;                   // its first beat's address [63:3]
  wire [5:0] f_nb = {{(6-NBW){1'b0}}, nb_q};   // nb_q in 6 bits
  function [4:0] f_ones16;             // the ones of v
    input [15:0] v;
    integer k;
    begin
      f_ones16 = 5'd0;
      for (k = 0; k < 16; k = k + 1) f_ones16 = f_ones16 + {4'd0, v[k]};
    end
  endfunction
  reg [8:0]  f_unread;                 // bytes of the packets still to be read
  // the record's bytes not yet in the window: up to the end of its last
  // beat's eoff bytes, from the window's count in the next beat
  wire [8:0] f_tail = {f_nb - 6'd1, 3'b000} + {5'd0, eoff_q} - {4'd0, o_q};
  reg [15:0] f_wst;                    // the enables the window's bytes must have
  always @* begin : f_sizes
    integer k;
    f_unread = cv_q ? {5'd0, csz_q} : 9'd0;
    for (k = 0; k < NPKT; k = k + 1)
      if (left_q[k]) f_unread = f_unread + {5'd0, pkt_size(k)};
    // the o bytes from half rp (mod 16), less the offset's in the first beat
    f_wst = 16'd0;
    for (k = 0; k < 16; k = k + 1)
      if (k < o_q) f_wst[(8 * rp_q + k) % 16] = 1'b1;
    if (f_beats == 6'd0)
      f_wst[7:0] = f_wst[7:0] & ~(8'hFF >> (4'd8 - f_off));
  end
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      f_sent  <= 9'd0;
      f_len   <= 8'd0;
      f_off   <= 4'd0;
      f_beats <= 6'd0;
    end else if (start_i) begin
      f_sent  <= 9'd0;
      f_len   <= start_len_i;
      f_off   <= {1'b0, start_ptr_i[2:0]};
      f_beats <= 6'd0;
      f_base  <= start_ptr_i[63:3];
    end else if (emit) begin
      f_sent  <= f_sent + {4'd0, f_ones16({8'd0, beat_strb})};
      f_beats <= f_beats + 6'd1;
    end
  end
  always @* begin
    if (f_past_valid) begin
      // the record's beats are its consecutive 8-byte blocks from
      // PMBPTR_EL1's at its entry: the next beat's address is the first's
      // plus the beats so far
      EncAddrExact_A: assert (!busy_q || addr_q == f_base + {55'd0, f_beats});
      // the window holds at most a beat when a cycle starts, its enabled
      // bytes are exactly the record's pending ones, the beats so far were
      // whole (the first from the offset), the next packet has a packet's
      // size, and the bytes not yet in the window cover the unread packets
      WindowBounded_A: assert (!busy_q ||
                               (o_q <= 5'd8 && wst_q == f_wst && f_off <= 4'd7 && slot_q < SLOTS &&
                                (f_beats != 6'd0 || (!rp_q && {1'b0, o_q[3:0]} >= {1'b0, f_off})) &&
                                rp_q == f_beats[0] &&
                                {1'b0, f_beats, 3'b000} + {5'd0, o_q} + {1'b0, f_tail} ==
                                  {6'd0, f_off} + {2'd0, f_len} &&
                                f_sent == ((f_beats == 6'd0) ? 9'd0 : {f_beats, 3'b000} - {5'd0, f_off}) &&
                                (cv_q ? (csz_q >= 4'd1 && csz_q <= 4'd9) : left_q == {NPKT{1'b0}}) &&
                                f_tail >= f_unread));
      EncBytesExact_A: assert (!busy_q ||
                               f_sent + {4'd0, f_ones16(wst_q)} + f_tail == {1'b0, f_len});
      // the beats left and where the window writes: nb_q beats from half rp
      // hold the o bytes in the window and the rest of the record, the last
      // of them eoff (1..8) of it; wp is 8 * rp + o mod 16
      EncBeatsLeft_A: assert (!busy_q ||
                              (f_nb != 6'd0 && last_q == (f_nb == 6'd1) &&
                               eoff_q != 4'd0 && eoff_q <= 4'd8 &&
                               {f_nb - 6'd1, 3'b000} + {5'd0, eoff_q} >= {4'd0, o_q} &&
                               (!last_q || {1'b0, o_q} <= {1'b0, eoff_q}) &&
                               wp_q == {rp_q, 3'b000} + o_q[3:0]));
      // Reachability (the cover task): a beat goes into the queue
      BeatEmitted_C: cover (emit);
      // a record spans two beats or more (start sets last_q to 0)
      EncRecordLen_A: assert (!start_i || start_len_i >= 8'd9);
      EncLastBeatExact_A: assert (!(busy_q && !busy_d && !start_i) ||
                                  f_sent + {4'd0, f_ones16({8'd0, beat_strb})} == {1'b0, f_len});
    end
  end
`endif

endmodule

`default_nettype wire
