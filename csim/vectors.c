/*
 * csim --vectors (vectors.h, docs/formats.md). A header line naming the
 * configuration and the fields, then one line per clock cycle, every field a
 * packed spu_top port in hexadecimal, lane or port 0 in the low bits:
 *   rst_n pop_valid iss_valid iss_slot fin_valid fin_slot fin_type fin_events
 *   fin_ds_valid fin_ds reg_valid reg_write reg_enc reg_wdata el prof_allowed
 *   fin_attr fin_addr_valid fin_ctx fin_pc fin_tgt fin_va fin_pa fin_pbt ts
 *   mem_ready
 *   | rec_wr rec_qfull pmbirq mem_valid mem_addr mem_data mem_strb
 *   smp_valid smp_slot col_valid rec_valid rec_keep rec_slot rec_why
 *   rec_tot_lat rec_iss_lat pmu reg_rdata reg_undef obs_pmsicr obs_enabled
 *   rec_len rec_data
 * The record payload inputs are 0 on ports without a finish; rec_data is 0
 * in cycles without a record, mem_addr/data/strb without mem_valid (the bench
 * compares them only with one).
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

/* The fields of a line, in the order vec_cycle() writes them: the header
 * names them, so a reader can look a port up instead of counting. */
static const char vec_inputs[] =
    "rst_ni,pop_valid_i,iss_valid_i,iss_slot_i,fin_valid_i,fin_slot_i,fin_type_i,fin_events_i,"
    "fin_ds_valid_i,fin_ds_i,reg_valid_i,reg_write_i,reg_enc_i,reg_wdata_i,el_i,prof_allowed_i,"
    "fin_attr_i,fin_addr_valid_i,fin_ctx_i,fin_pc_i,fin_tgt_i,fin_va_i,fin_pa_i,fin_pbt_i,ts_i,mem_ready_i";
static const char vec_outputs[] =
    "rec_wr_o,rec_qfull_o,pmbirq_o,mem_valid_o,mem_addr_o,mem_data_o,mem_strb_o,"
    "smp_valid_o,smp_slot_o,col_valid_o,rec_valid_o,rec_keep_o,rec_slot_o,rec_why_o,"
    "rec_tot_lat_o,rec_iss_lat_o,pmu_o,reg_rdata_o,reg_undef_o,obs_pmsicr_o,obs_enabled_o,rec_len_o,rec_data_o";

void vec_begin(FILE *f, const spu_config_t *cfg)
{
    fprintf(f, "# spu-vectors 1 config %s lanes %u slots %u fields %s | %s\n", cfg->name, cfg->lanes, cfg->slots,
            vec_inputs, vec_outputs);
}

/* SLOTS fields of w bits (a multiple of 4, at most 64), port 0 last; 0 for
 * a port without a finish. */
static void put_ports(FILE *f, const uint64_t *a, unsigned S, unsigned w, uint8_t valid)
{
    fputc(' ', f);
    for (unsigned p = S; p-- > 0;)
        fprintf(f, "%0*" PRIx64, (int)(w / 4), ((valid >> p) & 1u) ? a[p] & (UINT64_MAX >> (64 - w)) : (uint64_t)0);
}

void vec_cycle(FILE *f, const spu_config_t *cfg, const spu_model_t *m, const spu_in_t *in,
               const spu_out_t *out)
{
    const unsigned L = cfg->lanes, S = cfg->slots;
    const uint64_t lmask = (1ull << L) - 1, smask = (1ull << S) - 1;
    fprintf(f, "%x %" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64 " ", in->rst_n,
            in->pop_valid & lmask, in->iss_valid & smask, pack(in->iss_slot, 1, S, 2), in->fin_valid & smask,
            pack(in->fin_slot, 1, S, 2), pack(in->fin_type, 1, S, 5));
    /* the events and data source only with their finish (payloads: the
     * harness leaves them stale between finishes, spu_model.h) */
    uint16_t ds[SPU_MAX_SLOTS] = {0};
    for (unsigned p = S; p-- > 0;) { /* SLOTS x 64 bits, port 0 last */
        const int fin = (in->fin_valid >> p) & 1u;
        fprintf(f, "%016" PRIx64, fin ? in->fin_events[p] : (uint64_t)0);
        ds[p] = fin ? in->fin_ds[p] : 0;
    }
    fprintf(f, " %" PRIx64 " %" PRIx64 " %x %x %x %" PRIx64 " %x %x ", in->fin_ds_valid & smask,
            pack(ds, 2, S, 16), in->reg_valid, in->reg_write, in->reg_enc, in->reg_wdata, in->el,
            in->prof_allowed);
    const uint8_t fv = in->fin_valid;
    uint64_t ctx[SPU_MAX_SLOTS];
    for (unsigned p = 0; p < S; p++)
        ctx[p] = in->fin_ctx[p];
    /* (masked per port by the finish valid bits) */
    uint16_t attr[SPU_MAX_SLOTS] = {0};
    uint8_t av[SPU_MAX_SLOTS] = {0};
    for (unsigned p = 0; p < S; p++)
        if ((fv >> p) & 1u) {
            attr[p] = in->fin_attr[p];
            av[p] = in->fin_addr_valid[p];
        }
    fprintf(f, "%" PRIx64 " %" PRIx64, pack(attr, 2, S, SPU_ATTR_BITS), pack(av, 1, S, SPU_REC_ADDR_BITS));
    put_ports(f, ctx, S, 32, fv);
    put_ports(f, in->fin_pc, S, 56, fv);
    put_ports(f, in->fin_tgt, S, 56, fv);
    put_ports(f, in->fin_va, S, 64, fv);
    put_ports(f, in->fin_pa, S, 56, fv);
    put_ports(f, in->fin_pbt, S, 56, fv);
    fprintf(f, " %" PRIx64 " %x | %" PRIx64 " %" PRIx64 " %x %x %" PRIx64 " %" PRIx64 " %x ", in->ts, in->mem_ready,
            out->rec_wr & smask, out->rec_qfull & smask, out->pmbirq, out->mem_valid, out->mem_addr, out->mem_data,
            out->mem_strb);
    uint64_t pmu = 0;
    for (int i = SPU_NPMU; i-- > 0;)
        pmu = pmu << SPU_PMU_W | (out->pmu[i] & ((1u << SPU_PMU_W) - 1));
    fprintf(f, "%" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64
               " %" PRIx64 " %" PRIx64 " %" PRIx64 " %x %" PRIx64 " %x %" PRIx64 " ",
            out->smp_valid & lmask, pack(out->smp_slot, 1, L, 2), out->col_valid & lmask, out->rec_valid & smask,
            out->rec_keep & smask, pack(out->rec_slot, 1, S, 2), pack(out->rec_why, 1, S, 6),
            pack(out->rec_tot_lat, 2, S, 16), pack(out->rec_iss_lat, 2, S, 16), pmu, out->reg_rdata, out->reg_undef,
            out->obs_pmsicr, out->obs_enabled, pack(out->rec_len, 1, S, 8));
    /* rec_data: port p's byte k at bit 8 * (REC_MAX * p + k), zero past
     * its length (and for ports without a record) */
    uint8_t any = 0;
    for (unsigned p = 0; p < S; p++)
        any |= out->rec_len[p];
    if (!any) {
        fputs("0\n", f);
        return;
    }
    for (unsigned p = S; p-- > 0;)
        for (unsigned k = cfg->rec_max; k-- > 0;)
            fprintf(f, "%02x", k < out->rec_len[p] ? spu_model_record(m, p)[k] : 0u);
    fputc('\n', f);
}
