/*
 * .spl event log writer (docs/formats.md), shared by csim and tb so both print
 * byte-identical logs, and the counters behind every run's summary.
 */
#include <inttypes.h>
#include <string.h>

#include "json.h"
#include "spl.h"
#include "stim.h"

void spl_init(spl_log_t *l, FILE *f, const spu_config_t *cfg)
{
    memset(l, 0, sizeof *l);
    l->f = f;
    l->cfg = cfg;
}

void spl_sample(spl_log_t *l, uint64_t cycle, uint64_t op, unsigned lane, unsigned slot)
{
    l->samples++;
    if (l->f)
        fprintf(l->f, "%" PRIu64 " sample op=%" PRIu64 " lane=%u slot=%u\n", cycle, op, lane, slot);
}

void spl_collision(spl_log_t *l, uint64_t cycle, uint64_t op)
{
    l->collisions++;
    if (l->f)
        fprintf(l->f, "%" PRIu64 " collision op=%" PRIu64 "\n", cycle, op);
}

/* Reasons in the log's alphabetical order, with their why bit. */
static const struct {
    const char *name;
    unsigned bit;
} why_names[] = {
    {"discard", SPU_WHY_DISCARD}, {"ds", SPU_WHY_DS}, {"ev", SPU_WHY_EV},
    {"lat", SPU_WHY_LAT},         {"nev", SPU_WHY_NEV}, {"type", SPU_WHY_TYPE},
};

void spl_why_str(unsigned why, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof why_names / sizeof why_names[0]; i++) {
        if (!((why >> why_names[i].bit) & 1u))
            continue;
        int w = snprintf(buf + n, len - n, "%s%s", n ? "," : "", why_names[i].name);
        if (w < 0 || (size_t)w >= len - n)
            break;
        n += (size_t)w;
    }
    if (n == 0)
        snprintf(buf, len, "-");
}

void spl_record(spl_log_t *l, uint64_t cycle, uint64_t op, unsigned slot, unsigned tot,
                unsigned iss, int keep, unsigned why)
{
    if (keep)
        l->kept++;
    else
        l->rejected++;
    for (unsigned b = 0; b < 6; b++)
        l->why[b] += (why >> b) & 1u;
    if (l->f) {
        char w[64];
        spl_why_str(why, w, sizeof w);
        fprintf(l->f, "%" PRIu64 " record op=%" PRIu64 " slot=%u tot=%u iss=%u keep=%d why=%s\n",
                cycle, op, slot, tot, iss, keep, w);
    }
}

void spl_read(spl_log_t *l, uint64_t cycle, uint16_t enc, uint64_t value)
{
    l->reads++;
    if (l->f) {
        char r[32];
        stim_reg_str(enc, r, sizeof r);
        fprintf(l->f, "%" PRIu64 " read %s 0x%016" PRIx64 "\n", cycle, r, value);
    }
}

void spl_undef(spl_log_t *l, uint64_t cycle, int write, uint16_t enc)
{
    if (l->f) {
        char r[32];
        stim_reg_str(enc, r, sizeof r);
        fprintf(l->f, "%" PRIu64 " undef %c %s\n", cycle, write ? 'w' : 'r', r);
    }
}

void spl_reset(spl_log_t *l, uint64_t cycle)
{
    if (l->f)
        fprintf(l->f, "%" PRIu64 " reset\n", cycle);
}

void spl_add_pops(spl_log_t *l, uint64_t pops)
{
    l->pmu[SPU_PMU_POP] += pops;
}

void spl_pmu_line(spl_log_t *l, uint64_t cycle)
{
    if (!l->f)
        return;
    fprintf(l->f, "%" PRIu64 " pmu", cycle);
    for (int i = 0; i < SPU_NPMU; i++)
        if (spu_pmu_implemented(l->cfg, i))
            fprintf(l->f, " %s=%" PRIu64, spu_pmu_name(i), l->pmu[i]);
    fputc('\n', l->f);
}

void spl_bar(FILE *f, uint64_t count, uint64_t peak)
{
    char bar[41];
    const int w = peak ? (int)(40 * count / peak) : 0;
    memset(bar, '#', (size_t)w);
    bar[w] = '\0';
    fprintf(f, " %10" PRIu64 " %s\n", count, bar);
}

void spl_histogram(FILE *f, const uint64_t *count, unsigned n, void (*label)(FILE *f, unsigned i))
{
    uint64_t peak = 1;
    for (unsigned i = 0; i < n; i++)
        if (count[i] > peak)
            peak = count[i];
    for (unsigned i = 0; i < n; i++) {
        if (!count[i])
            continue;
        label(f, i);
        spl_bar(f, count[i], peak);
    }
}

static void size_label(FILE *f, unsigned n)
{
    fprintf(f, "  %3u bytes", n);
}

/* Every SAMPLE_FEED is a finished sample: written, rejected by a rule, or
 * dropped because profiling was disabled while it was in flight (knob
 * INFLIGHT = 1; docs/impl-defined.md row 11): the last of these. */
static uint64_t disabled_in_flight(const spl_log_t *l)
{
    const uint64_t feed = l->pmu[SPU_PMU_FEED], reported = l->kept + l->rejected;
    return feed > reported ? feed - reported : 0;
}

void spl_print_records(const spl_log_t *l, FILE *f)
{
    fprintf(f, "records written %" PRIu64 "  bytes %" PRIu64 "  mean %.1f bytes per record\n", l->rec_written,
            l->rec_bytes, l->rec_written ? (double)l->rec_bytes / (double)l->rec_written : 0.0);
    spl_histogram(f, l->rec_size, SPU_MAX_RECORD + 1, size_label);
    fprintf(f, "records not written: filtered type=%" PRIu64 " ev=%" PRIu64 " nev=%" PRIu64 " lat=%" PRIu64
               " ds=%" PRIu64 "  discard mode=%" PRIu64 "  disabled in flight=%" PRIu64
               "  buffer disabled or stopped=%" PRIu64 "  reset while waiting=%" PRIu64
               "  lost=%" PRIu64 "; a record several filters reject counts under each\n",
            l->why[SPU_WHY_TYPE], l->why[SPU_WHY_EV], l->why[SPU_WHY_NEV], l->why[SPU_WHY_LAT], l->why[SPU_WHY_DS],
            l->why[SPU_WHY_DISCARD], disabled_in_flight(l), l->rec_stopped, l->rec_reset, spl_rec_lost(l));
    fprintf(f, "records that waited for the write path %" PRIu64 "  waiting at the end %" PRIu64 "\n",
            l->rec_waited, l->rec_pending);
    fprintf(f, "Profiling Buffer: buffer-full events %" PRIu64 "  write beats %" PRIu64 "  bytes of the write path lost to a reset %" PRIu64 "\n",
            l->buf_full, l->mem_beats, l->mem_lost);
    if (l->stray_iss || l->stray_fin)
        fprintf(f, "stray events (--stray-events, no op behind them): issues %" PRIu64 "  finishes %" PRIu64 "\n",
                l->stray_iss, l->stray_fin);
}

void spl_log_json(const spl_log_t *l, json_t *j)
{
    static const char *const why[6] = {"type", "ev", "nev", "lat", "ds", "discard"};
    json_u64(j, "samples", l->samples);
    json_u64(j, "collisions", l->collisions);
    json_u64(j, "kept", l->kept);
    json_u64(j, "rejected", l->rejected);
    json_u64(j, "reads", l->reads);
    json_u64(j, "multi_selection_cycles", l->multi);
    json_obj(j, "rejected_by"); /* a record several filters reject counts under each */
    for (int b = 0; b < 6; b++)
        json_u64(j, why[b], l->why[b]);
    json_close(j);
    json_obj(j, "records");
    json_u64(j, "built", l->rec_built);
    json_u64(j, "written", l->rec_written);
    json_u64(j, "bytes", l->rec_bytes);
    json_u64(j, "disabled_in_flight", disabled_in_flight(l));
    json_u64(j, "buffer_disabled_or_stopped", l->rec_stopped);
    json_u64(j, "reset_while_waiting", l->rec_reset);
    json_u64(j, "waited", l->rec_waited);
    json_u64(j, "waiting_at_end", l->rec_pending);
    json_u64(j, "lost", spl_rec_lost(l));
    json_close(j);
    json_obj(j, "buffer");
    json_u64(j, "full_events", l->buf_full);
    json_u64(j, "write_beats", l->mem_beats);
    json_u64(j, "bytes_lost_to_reset", l->mem_lost);
    json_close(j);
    json_obj(j, "stray"); /* --stray-events */
    json_u64(j, "issues", l->stray_iss);
    json_u64(j, "finishes", l->stray_fin);
    json_close(j);
    json_obj(j, "pmu"); /* the events the configuration implements */
    for (int i = 0; i < SPU_NPMU; i++)
        if (spu_pmu_implemented(l->cfg, i))
            json_u64(j, spu_pmu_name(i), l->pmu[i]);
    json_close(j);
}
