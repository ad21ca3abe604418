/*
 * csim --vectors (vectors.h). One line per clock cycle, every field a packed
 * spu_top port in hexadecimal, lane or port 0 in the low bits:
 *   rst_n pop_valid iss_valid iss_slot fin_valid fin_slot fin_type fin_events
 *   fin_ds_valid fin_ds reg_valid reg_write reg_enc reg_wdata el prof_allowed
 *   | smp_valid smp_slot col_valid rec_valid rec_keep rec_slot rec_why
 *   rec_tot_lat rec_iss_lat pmu reg_rdata reg_undef obs_pmsicr obs_enabled
 * The bench (tb/icarus/spu_vec_tb.v) reads them with $fscanf("%h").
 */
#include <inttypes.h>

#include "vectors.h"

/* Fields of width w per element, n elements, packed into one integer. */
static uint64_t pack(const void *a, size_t elsz, unsigned n, unsigned w)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;) {
        const uint64_t x = elsz == 1 ? ((const uint8_t *)a)[i] : ((const uint16_t *)a)[i];
        v = v << w | (x & ((1ull << w) - 1));
    }
    return v;
}

void vec_begin(FILE *f, const spu_config_t *cfg)
{
    fprintf(f, "# spu-vectors 1 config %s lanes %u slots %u\n", cfg->name, cfg->lanes, cfg->slots);
}

void vec_cycle(FILE *f, const spu_config_t *cfg, const spu_in_t *in, const spu_out_t *out)
{
    const unsigned L = cfg->lanes, S = cfg->slots;
    const uint64_t lmask = (1ull << L) - 1, smask = (1ull << S) - 1;
    fprintf(f, "%x %" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64 " ", in->rst_n,
            in->pop_valid & lmask, in->iss_valid & smask, pack(in->iss_slot, 1, S, 2), in->fin_valid & smask,
            pack(in->fin_slot, 1, S, 2), pack(in->fin_type, 1, S, 5));
    for (unsigned p = S; p-- > 0;) /* SLOTS x 64 bits, port 0 last */
        fprintf(f, "%016" PRIx64, in->fin_events[p]);
    fprintf(f, " %" PRIx64 " %" PRIx64 " %x %x %x %" PRIx64 " %x %x | ", in->fin_ds_valid & smask,
            pack(in->fin_ds, 2, S, 16), in->reg_valid, in->reg_write, in->reg_enc, in->reg_wdata, in->el,
            in->prof_allowed);
    uint64_t pmu = 0;
    for (int i = SPU_NPMU; i-- > 0;)
        pmu = pmu << SPU_PMU_W | (out->pmu[i] & ((1u << SPU_PMU_W) - 1));
    fprintf(f, "%" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64
               " %" PRIx64 " %" PRIx64 " %" PRIx64 " %x %" PRIx64 " %x\n",
            out->smp_valid & lmask, pack(out->smp_slot, 1, L, 2), out->col_valid & lmask, out->rec_valid & smask,
            out->rec_keep & smask, pack(out->rec_slot, 1, S, 2), pack(out->rec_why, 1, S, 6),
            pack(out->rec_tot_lat, 2, S, 16), pack(out->rec_iss_lat, 2, S, 16), pmu, out->reg_rdata, out->reg_undef,
            out->obs_pmsicr, out->obs_enabled);
}
