// openspu: the properties of spu_top (make formal; formal/spu.sby,
// tools/formal.py), included by spu_top.v under `ifdef FORMAL: they read
// spu_top's internal wires. make formal proves every assertion of the
// design with spu_top as the top; docs/verification.md lists them.

  // The one assumption: the run starts with reset asserted in its first
  // cycle (the registers have no initial value, as in silicon). Every input
  // is free after that, reset included.
  reg f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;
  always @* begin
    if (!f_past_valid) ResetFirst_M: assume (!rst_ni);
  end

  // D17.3.5, semantics step 6: while profiling is disabled no member is
  // selected, so none is sampled and none collides (SPEToCollectSample() is
  // not called).
  always @* begin
    NoSelWhileDisabled_A: assert (en || (sel == {LANES{1'b0}} &&
                                         col == {LANES{1'b0}}));
  end
  // The same at the ports: a cycle whose obs_enabled_o says profiling was
  // disabled reports no sample and no collision (the outputs of cycle t+1
  // are the results of cycle t).
  always @* begin
    if (f_past_valid)
      NoSmpOutWhileDisabled_A: assert (obs_enabled_o ||
                                       (smp_valid_o == {LANES{1'b0}} &&
                                        col_valid_o == {LANES{1'b0}}));
  end
  // The most selections one cycle can hold (the select.K_in_one_cycle
  // coverage bins listed as unreachable, docs/coverage.md). D17.3.4: a COUNT
  // reload is INTERVAL' << 8, so 0 or at least 256 members, and from any
  // state COUNT expires at most once in a cycle of at most 8 members; with
  // ERnd that expiry selects through its draw (at once or through ECOUNT),
  // and the only other selection is an ECOUNT that software wrote, expiring
  // before COUNT does. Without ERnd, RND adds a byte below 256 to the reload
  // only when INTERVAL' is 0 (knob INTERVAL0 = 0).
  localparam integer F_MAX_SEL = (LANES == 1) ? 1 : (FEAT_ERND != 0) ? 2 :
                                 (INTERVAL0 != 0) ? 1 : (LANES + 1) / 2;
  always @* begin : f_max_sel
    integer fl;
    reg [3:0] n;
    n = 4'd0;
    for (fl = 0; fl < LANES; fl = fl + 1) n = n + {3'd0, sel[fl]};
    SelectionsPerCycleMax_A: assert (n <= F_MAX_SEL);
  end
  // D17.3.7: a selected lane either gets a slot or collides, never both, and
  // only a selected lane does either.
  always @* begin
    SmpOrColOnly_A: assert ((smp & col) == {LANES{1'b0}} && (smp | col) == sel);
  end
  // D17.5.5: in discard mode (FEAT_SPEv1p2, PMBLIMITR_EL1.FM == 0b10) no
  // record is kept; at the ports, a kept record of cycle t+1 never comes
  // from a cycle t in discard mode. (spu_complete checks the same
  // combinationally; this is the registered view software would see.)
  always @(posedge clk_i) begin
    if (f_past_valid && $past(rst_ni) && FEAT_V1P2 != 0 &&
        $past(pmblimitr[`SPU_F_PMBLIMITR_EL1_FM_MSB:
                        `SPU_F_PMBLIMITR_EL1_FM_LSB]) == 2'b10)
      NoKeepOutInDiscard_A: assert (rec_keep_o == {SLOTS{1'b0}});
  end
  // Reachability (the cover task of make formal): from reset the unit gets
  // to the states the properties are about, so none holds vacuously: a
  // kept record, a record rejected by a filter, a discarded record (where
  // the configuration has discard mode) and a collision.
  always @* begin
    if (f_past_valid) begin
      KeptRecord_C:      cover (rec_keep_o[0]);
      FilteredRecord_C:  cover (rec_valid_o[0] && rec_why_o[4:0] != 5'd0);
      Collision_C:       cover (col_valid_o[0]);
      if (FEAT_V1P2 != 0) DiscardedRecord_C: cover (rec_valid_o[0] && rec_why_o[5]);
      BufferFull_C:      cover (rec_wr_o[0] && pmbirq_o);
    end
  end
  // A record's bytes come only for a kept, non-discarded sample, and every
  // kept sample has them (D17.6: each kept sample is a record; discard mode
  // writes nothing, NoKeepOutInDiscard_A).
  always @* begin : f_rec_len
    integer fp;
    reg [SLOTS-1:0] has_bytes;
    for (fp = 0; fp < SLOTS; fp = fp + 1)
      has_bytes[fp] = rec_len_o[8*fp +: 8] != 8'd0;
    if (f_past_valid)
      RecordOnlyKept_A: assert (has_bytes == rec_keep_o);
  end
  // D17.4: nothing is written while the buffer is disabled or stopped.
  always @(posedge clk_i) begin
    if (f_past_valid && $past(rst_ni) && (!$past(pmblimitr[`SPU_F_PMBLIMITR_EL1_E_LSB]) ||
                                          $past(pmbsr[`SPU_F_PMBSR_EL1_S_LSB])))
      NoWriteWhileStopped_A: assert (rec_wr_o == {SLOTS{1'b0}});
  end
  // A kept record is a record (rec_keep_o only with rec_valid_o).
  always @* begin
    if (f_past_valid)
      KeepIsRecord_A: assert ((rec_keep_o & ~rec_valid_o) == {SLOTS{1'b0}});
  end
  // The slot the encoder reads is not also a waiting one, and a waiting
  // slot's record has a length (it is kept): the invariants that tie the
  // reservation (spu_buffer), the encoder (spu_encode) and the capture
  // (spu_record) together.
  always @* begin : f_write_path
    integer fs;
    reg     ok;
    ok = 1'b1;
    for (fs = 0; fs < SLOTS; fs = fs + 1)
      if (buf_wait[fs] && rec_slot_len[8*fs +: 8] == 8'd0) ok = 1'b0;
    if (f_past_valid) begin
      EncNotWaiting_A: assert ((enc_occ & buf_wait) == {SLOTS{1'b0}});
      WaitHasLength_A: assert (ok);
    end
  end
