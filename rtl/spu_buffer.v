// openspu: the Profiling Buffer's reservation (Arm ARM D17.7, D17.8;
// docs/buffer.md).
//
// A kept record is its slot's (spu_record). At its finish every kept
// record joins the waiting records, unless the buffer is disabled or
// stopped then (it is discarded, D17.4) (hold_o: its slot stays occupied, so a
// selection that finds no other slot collides, D17.3.7), in port order
// behind those already waiting (a FIFO of slot numbers). From the next
// cycle on, the first waiting record enters the write path in a cycle that
// starts with the serial encoder idle (spu_encode; one record a cycle at
// most): the reservation reads only registers (the FIFO, the lengths,
// PMBPTR_EL1, PMBLIMITR_EL1, the encoder's state), not the filter of this
// cycle. A record entering takes its place at PMBPTR_EL1, which advances by
// its length at the clock edge (SPEConstructRecord() writing at the
// pointer); then SPEBufferIsFull() tests whether one of 1 << PMSIDR_EL1.MaxSize
// bytes still fits below PMBLIMITR_EL1.LIMIT, and if not raises the
// buffer-full management event (full_o: PMBSR_EL1.S, EC, BSC in spu_regs;
// SAMPLE_BUFFER_FULL in spu_pmu) and stops profiling (spu_top's members:
// from the cycle after the record's finish on, stop_o). While the buffer is
// disabled (PMBLIMITR_EL1.E = 0) or stopped (PMBSR_EL1.S = 1, or by the
// record entering) every waiting record is discarded (D17.4) and its slot
// freed (rel_o); a record that entered is written (spu_encode frees it).

`default_nettype none

`include "spu_config.vh"

module spu_buffer #(
  parameter integer SLOTS   = 1,
  parameter integer MAXSIZE = 6        // PMSIDR_EL1.MaxSize
) (
  input  wire                       clk_i,
  input  wire                       rst_ni,
  input  wire [SLOTS*8-1:0]         len_i,        // this cycle's kept records' lengths by port (0: none)
  input  wire [SLOTS*2-1:0]         fin_slot_i,   // their slots
  input  wire [SLOTS*8-1:0]         slot_len_i,   // each slot's last kept record's length (spu_record)
  input  wire [63:0]                pmbptr_i,     // PMBPTR_EL1
  input  wire                       buf_en_i,     // PMBLIMITR_EL1.E and not PMBSR_EL1.S
  input  wire [63:0]                limit_i,      // PMBLIMITR_EL1.LIMIT:Zeros(12)
  input  wire                       lim_we_i,     // MSR PMBPTR_EL1 or PMBLIMITR_EL1 this cycle
  input  wire                       enc_busy_i,   // the encoder writes a record (spu_encode)
  output reg  [SLOTS-1:0]           wr_o,         // slot s's record enters the write path ...
  output reg  [1:0]                 wr_slot_o,    // ... (its slot ...
  output reg  [7:0]                 wr_len_o,     // ... and length; its place is pmbptr_i)
  output wire [SLOTS-1:0]           wait_o,       // slot s's record waits (since an earlier cycle)
  output reg  [SLOTS-1:0]           hold_o,       // slot s's kept record of this cycle starts to wait
  output reg  [SLOTS-1:0]           rel_o,        // slot s's waiting record is discarded
  output reg                        full_o,       // a write filled the buffer
  output wire                       stop_o,       // a waiting record fills it: stop this cycle's members
  output wire                       ptr_we_o,     // PMBPTR_EL1 advances ...
  output reg  [63:0]                ptr_o         // ... to this
);

  localparam [64:0]  MAXB = 65'd1 << MAXSIZE;                // 1 << MaxSize

  // ------------------------------------------------- the reservation
  // SPEBufferIsFull(): UInt(ptr) > UInt(LIMIT:Zeros(12)) - (1 << MaxSize).
  // is_full (formal, FullExact_A) is the reference; the reservation tests
  // PMBPTR_EL1 + n for the n < 2^12 bytes entered before (full_at). With
  // A:B = PMBPTR_EL1 + n (B its 12 low bits, A the rest modulo 2^52, as
  // the pseudocode's 64-bit pointer wraps) and LIMIT > 0 it is full when
  // A >= LIMIT, or A = LIMIT - 1 and B > 4096 - (1 << MaxSize). A is
  // PMBPTR_EL1[63:12] plus the carry out of the low 12 bits, so the
  // reservation needs, for A = PMBPTR_EL1[63:12] and for A + 1, the flags
  // A >= LIMIT and A = LIMIT - 1. They come from the limit gap
  // (spu_limit_gap), kept up to date as records move the pointer: no 52-bit
  // add or compare is in the cycle's path. While it is recomputed after an
  // MSR PMBPTR_EL1 or PMBLIMITR_EL1 (lim_stale, then lim_stale2) no record
  // enters (docs/buffer.md).
  localparam [11:0] LOW_MAX = 12'd4095 - MAXB[11:0] + 12'd1;  // 4096 - (1 << MaxSize)
  wire        lim_stale, lim_stale2;

  // SPEBufferIsFull(PMBPTR_EL1 + n); lf = {lim0, ge0, eq0, ge1}: LIMIT =
  // 0, A >= LIMIT and A = LIMIT - 1 for A = PMBPTR_EL1[63:12], and A + 1 >=
  // LIMIT. A = LIMIT - 2 with a carry out of the low 12 bits is never full:
  // the bytes past the page, b[11:0], are at most those of the records that
  // wait or finish, SLOTS * REC_MAX <= 4 * 255, below 4096 - (1 << MaxSize)
  // for every MaxSize <= 11 the configuration generator accepts.
  function full_at;
    input [11:0] n;
    input [11:0] lo;                           // PMBPTR_EL1[11:0]
    input [3:0]  lf;
    reg   [12:0] b;
    begin
      b       = {1'b0, lo} + {1'b0, n};
      full_at = lf[3] | (b[12] ? lf[0] : (lf[2] | (lf[1] & (b[11:0] > LOW_MAX))));
    end
  endfunction

  // The waiting records: wq_q holds their slots in finish order (position
  // i at [2i +: 2], wqn_q of them; those above are zero, as a record
  // joins by an OR), wait_q the same as a mask; slot s's
  // record length is slot_len_i[8s +: 8], a register of its capture. Every
  // kept record joins them at its finish (hold_o: its slot stays occupied),
  // so the reservation below reads only registers: the keep decision and
  // the length are a cycle behind it.
  reg [2*SLOTS-1:0]  wq_q, wq_d;
  reg [2:0]          wqn_q, wqn_d;
  reg [SLOTS-1:0]    wait_q, wait_d;
  wire               fin_any = len_i != {SLOTS*8{1'b0}};
  wire               work    = fin_any || wqn_q != 3'd0;
  assign wait_o = wait_q;

  // full_at's flags, and whether A + 1 wraps to 0: worked out only in a
  // cycle with a waiting or kept record (simulation speed).
  wire [3:0] lf;
  wire       hi_ones;
  spu_limit_gap u_gap (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .pmbptr_i  (pmbptr_i),
    .limit_i   (limit_i),
    .lim_we_i  (lim_we_i),
    .ptr_we_i  (ptr_we_o),
    .step_i    (ptr_o[12] ^ pmbptr_i[12]),   // PMBPTR_EL1[63:12] + 1 (n < 2^12)
    .work_i    (work),
    .lf_o      (lf),
    .hi_ones_o (hi_ones),
    .stale_o   (lim_stale),
    .stale2_o  (lim_stale2)
  );

  // The stop ahead of the fill (D17.8: "profiling is disabled before the
  // Statistical Profiling Unit samples further operations"; docs/semantics.md,
  // *The buffer-full window*). The waiting records enter in finish order,
  // each at the pointer the ones before it left, so one of them fills the
  // buffer exactly when PMBPTR_EL1 plus all their lengths does
  // (SPEBufferIsFull() is monotone in the pointer; a sum past 2^64 counts
  // as full, which only a pointer already above LIMIT - (1 << MaxSize)
  // reaches). From the cycle after such a record's finish to the cycle it
  // enters, no member is counted or selected (stop_o). stop_o is a
  // register, worked out a cycle ahead (b_stop), so the population's path
  // starts at a flop. In the two cycles after an MSR PMBPTR_EL1 or
  // PMBLIMITR_EL1 (the kept gap being recomputed) it holds the answer it
  // had, and no record enters (docs/impl-defined.md rows 46, 47).
  reg        stop_q, stop_d;
  reg [11:0] wb_q, wb_d;                 // the waiting records' bytes
  reg [9:0]  c_new;                      // this cycle's kept records' bytes
  assign stop_o = stop_q;

  // Next cycle's stop. Unless that cycle is held, it is SPEBufferIsFull()
  // of PMBPTR_EL1 + wb_q + c_new in this cycle's coordinates (a record
  // entering moves its bytes from wb_q to the pointer; a record that fills
  // the buffer stops the next cycle whatever joins it): with b =
  // PMBPTR_EL1[11:0] + wb_q + c_new, the limit flags give the largest b
  // that does not fill (bmax), so the kept lengths of this cycle meet only
  // a compare with bmax - PMBPTR_EL1[11:0] - wb_q, which reads registers.
  always @* begin : b_stop
    integer    j;
    reg [12:0] bmax;
    reg [13:0] room;                     // bmax - PMBPTR_EL1[11:0] - wb_q; [13]: below 0
    stop_d = 1'b0;
    c_new  = 10'd0;
    bmax   = 13'd0;
    room   = 14'd0;
    j      = 0;
    if (work) begin
      for (j = 0; j < SLOTS; j = j + 1)
        c_new = c_new + {2'd0, len_i[8*j +: 8]};
      if (lim_we_i || lim_stale) begin
        stop_d = stop_q && wqn_d != 3'd0;
      end else begin
        bmax   = lf[1]   ? {1'b0, LOW_MAX} :
                 hi_ones ? 13'd4095 : 13'h1FFF;
        room   = {1'b0, bmax} - {2'd0, pmbptr_i[11:0]} - {2'd0, wb_q};
        stop_d = wqn_d != 3'd0 &&
                 (full_o || lf[3] || lf[2] || room[13] || {4'd0, c_new} > room);
      end
    end
  end

  // FIFO position 0's record enters when the buffer is enabled, the
  // encoder idle and the limit not being recomputed; the others wait on, or
  // all are discarded while the buffer is disabled or stopped (or by the
  // record entering). Those that wait on, then this cycle's kept records in
  // port order, make the next FIFO.
  always @* begin : b_reserve
    integer    j;
    reg        en, cv, go;
    reg [1:0]  cs;
    reg [SLOTS-1:0] c1;                  // cs one-hot
    reg [7:0]  cl;
    ptr_o     = pmbptr_i;
    wr_o      = {SLOTS{1'b0}};
    wr_slot_o = 2'd0;
    wr_len_o  = 8'd0;
    hold_o    = {SLOTS{1'b0}};
    rel_o     = {SLOTS{1'b0}};
    full_o    = 1'b0;
    wq_d      = {2*SLOTS{1'b0}};
    wqn_d     = 3'd0;
    wait_d    = {SLOTS{1'b0}};
    en        = 1'b0;
    go        = 1'b0;
    cv        = 1'b0;
    cs        = 2'd0;
    c1        = {SLOTS{1'b0}};
    cl        = 8'd0;
    // loop variables: a value on every path, or Yosys >= 0.3x infers a latch
    j         = 0;
    if (wqn_q != 3'd0) begin  // most cycles have no waiting record
      en      = buf_en_i;
      go      = buf_en_i & ~enc_busy_i & ~lim_stale & ~lim_stale2;
      for (j = 0; j < SLOTS; j = j + 1) begin
        cv = j < wqn_q;
        cs = wq_q[2*j +: 2];
        cl = slot_len_i[8*cs +: 8];
        c1 = {{(SLOTS-1){1'b0}}, 1'b1} << cs;
        if (cv && j == 0 && go) begin        // it enters the write path
          wr_o      = c1;
          wr_slot_o = cs;
          wr_len_o  = cl;
          ptr_o     = pmbptr_i + {56'd0, cl};
          if (full_at({4'd0, cl}, pmbptr_i[11:0], lf)) begin
            full_o = 1'b1;
            en     = 1'b0;
          end
        end else if (cv && en) begin         // it waits on
          wait_d              = wait_d | c1;
          wq_d                = wq_d | ({{(2*SLOTS-2){1'b0}}, cs} << {wqn_d, 1'b0});
          wqn_d               = wqn_d + 3'd1;
        end else if (cv) begin               // D17.4: discarded
          rel_o = rel_o | c1;
        end
      end
    end
    // This cycle's kept records join the FIFO, unless the buffer is
    // disabled or stopped at the start of the cycle: then they are
    // discarded at their finish (D17.4), their slots freed.
    if (fin_any && buf_en_i) begin
      for (j = 0; j < SLOTS; j = j + 1) begin
        cl = len_i[8*j +: 8];
        cs = fin_slot_i[2*j +: 2];
        c1 = {{(SLOTS-1){1'b0}}, 1'b1} << cs;
        if (cl != 8'd0) begin
          hold_o              = hold_o | c1;
          wait_d              = wait_d | c1;
          wq_d                = wq_d | ({{(2*SLOTS-2){1'b0}}, cs} << {wqn_d, 1'b0});
          wqn_d               = wqn_d + 3'd1;
        end
      end
    end
  end
  assign ptr_we_o = wr_o != {SLOTS{1'b0}};

  // The waiting records' bytes next cycle: those that wait on (all but the
  // one entering, none once the buffer is disabled, stopped or filled) and
  // this cycle's kept records, which join them while the buffer is enabled.
  always @* begin : b_wait_bytes
    wb_d = wb_q;
    if (work) begin
      wb_d = (!buf_en_i || full_o) ? 12'd0 : wb_q - {4'd0, wr_len_o};
      if (buf_en_i)
        wb_d = wb_d + {2'd0, c_new};
    end
  end

  always @(posedge clk_i) begin : b_stop_q
    if (!rst_ni) stop_q <= 1'b0;
    else         stop_q <= stop_d;
  end

  // The waiting records' state: updated only in a cycle with work.
  always @(posedge clk_i) begin : b_wait
    if (!rst_ni) begin
      wq_q   <= {2*SLOTS{1'b0}};
      wqn_q  <= 3'd0;
      wait_q <= {SLOTS{1'b0}};
      wb_q   <= 12'd0;
    end else if (work) begin
      wq_q   <= wq_d;
      wqn_q  <= wqn_d;
      wait_q <= wait_d;
      wb_q   <= wb_d;
    end
  end

`ifdef FORMAL
  // SPEBufferIsFull() in 65-bit integers: the reference of FullExact_A.
  function is_full;
    input [63:0] ptr;
    input [63:0] lim;
    begin
      is_full = ({1'b0, ptr} + MAXB) > {1'b0, lim};
    end
  endfunction

  reg f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;

  // A kept record is written or discarded exactly once (docs/buffer.md).
  // These hold after the first clock edge (the first cycle is a reset), as
  // spu_slots' BusyNotWaiting_A, which the induction needs with them: the
  // same guard in both, so an induction step sees all of them or none.
  // f_new: the slots with a kept record of this cycle.
  reg [SLOTS-1:0] f_new;
  always @* begin : f_kept
    integer fp;
    f_new = {SLOTS{1'b0}};
    for (fp = 0; fp < SLOTS; fp = fp + 1)
      if (len_i[8*fp +: 8] != 8'd0)
        f_new = f_new | ({{(SLOTS-1){1'b0}}, 1'b1} << fin_slot_i[2*fp +: 2]);
  end
  // f_end: PMBPTR_EL1 plus the waiting records' lengths, in 65 bits.
  reg [64:0] f_end;
  always @* begin : f_waiting_end
    integer fk;
    f_end = {1'b0, pmbptr_i};
    for (fk = 0; fk < SLOTS; fk = fk + 1)
      if (wait_q[fk])
        f_end = f_end + {57'd0, slot_len_i[8*fk +: 8]};
  end
  // The stop's reference, worked out a cycle ahead as the unit does, in
  // 65-bit integers: the waiting records' end, PMBPTR_EL1 + their lengths,
  // plus this cycle's kept lengths, is SPEBufferIsFull() or past 2^64 (or a
  // record of this cycle filled the buffer); held in the cycles after a
  // limit write. (Where a record entering wraps PMBPTR_EL1 past 2^64, the
  // end stays past 2^64 in the reference as in the unit.)
  reg        f_stop;
  reg [64:0] f_next;
  always @* begin : f_next_end
    integer fk;
    f_next = f_end;
    for (fk = 0; fk < SLOTS; fk = fk + 1)
      f_next = f_next + {57'd0, len_i[8*fk +: 8]};
  end
  always @(posedge clk_i) begin
    if (!rst_ni)
      f_stop <= 1'b0;
    else
      f_stop <= wqn_d != 3'd0 &&
                ((lim_we_i || lim_stale) ? f_stop :
                 (full_o || f_next[64] || is_full(f_next[63:0], limit_i)));
  end
  always @* begin
    if (f_past_valid) begin
      // it enters only while waiting, and then waits no more; a slot's new
      // record never meets its waiting one (none overwritten), and every
      // new one joins the waiting records
      RecordOnce_A: assert ((wr_o & ~wait_q) == {SLOTS{1'b0}} &&
                            (!work || (wr_o & wait_d) == {SLOTS{1'b0}}) &&
                            (f_new & wait_q) == {SLOTS{1'b0}} &&
                            (!buf_en_i || (f_new & ~wait_d) == {SLOTS{1'b0}}));
      // one that does not enter waits on, unless the buffer is disabled or
      // stopped (D17.4) or a record of this cycle filled it
      RecordNotLost_A: assert (!work || !buf_en_i || full_o ||
                               (wait_q & ~wr_o & ~wait_d) == {SLOTS{1'b0}});
      // the reservation's full test is SPEBufferIsFull() of the new pointer,
      // with the gap it keeps (an invariant) when it reserves
      FullExact_A: assert (!ptr_we_o || full_o == is_full(ptr_o, limit_i));
      // the stop ahead of the fill is its 65-bit reference (f_stop, worked
      // out a cycle ahead), and a record that fills the buffer always stops
      // its cycle's members
      // invariant: wb_q is the waiting records' bytes
      WaitBytesExact_A: assert ({53'd0, wb_q} == f_end - {1'b0, pmbptr_i});
      StopExact_A: assert (stop_q == f_stop);
      FullStops_A: assert (!full_o || stop_o);
    end
  end
  // Invariant: the FIFO holds wqn_q distinct slots, exactly those of wait_q,
  // and zeros above them.
  always @* begin : f_fifo
    integer fi, fj;
    reg [SLOTS-1:0] in_fifo;
    reg ok;
    ok      = wqn_q <= SLOTS;
    in_fifo = {SLOTS{1'b0}};
    for (fi = 0; fi < SLOTS; fi = fi + 1)
      if (fi < wqn_q) begin
        if (wq_q[2*fi +: 2] >= SLOTS) ok = 1'b0;
        in_fifo = in_fifo | ({{(SLOTS-1){1'b0}}, 1'b1} << wq_q[2*fi +: 2]);
        for (fj = fi + 1; fj < SLOTS; fj = fj + 1)
          if (fj < wqn_q && wq_q[2*fi +: 2] == wq_q[2*fj +: 2]) ok = 1'b0;
      end else if (wq_q[2*fi +: 2] != 2'd0) begin
        ok = 1'b0;                       // a position above is zero
      end
    if (f_past_valid) WaitFifoValid_A: assert (ok && in_fifo == wait_q);
  end
`endif

endmodule

`default_nettype wire
