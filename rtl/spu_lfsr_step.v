// openspu: one draw of SPEGetRandomInterval() (M.a.a pseudocode, D17.3.2).
//
// D17.3.2 leaves the random number generator IMPLEMENTATION DEFINED; openspu
// uses the 24-bit LFSR of the 2023-03 ASL, one step per draw, shared bit for
// bit with the golden model (docs/semantics.md, "SPEToCollectSample"):
//
//   new = L<16:9> ^ L<21:14> ^ L<22:15> ^ L<23:16>
//   L   = L<15:0> : new
//   return L<23:16>                      (the old L<15:8>)
//
// One step equals 8 steps of the Fibonacci LFSR x^24+x^23+x^22+x^17+1
// (period 2^24-1). The state register and its nonzero reset seed live in
// spu_interval; this module is purely combinational so that several draws in
// one cycle (enable edge, then each lane) can be chained.

`default_nettype none

module spu_lfsr_step (
  input  wire [23:0] state_i,            // LFSR state before the draw
  output wire [23:0] state_o,            // LFSR state after the draw
  output wire [7:0]  rnd_o               // the drawn byte, new L<23:16>
);

  // Per bit j = 0..7: new<j> = L<9+j> ^ L<14+j> ^ L<15+j> ^ L<16+j>.
  wire [7:0] new_byte = state_i[16:9] ^ state_i[21:14] ^
                        state_i[22:15] ^ state_i[23:16];

  assign state_o = {state_i[15:0], new_byte};
  assign rnd_o   = state_o[23:16];

endmodule

`default_nettype wire
