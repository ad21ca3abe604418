/*
 * Pipe-mode perf.data writer (perf_data.h). Every number is little endian;
 * every record starts with the 8-byte header u32 type, u16 misc, u16 size
 * (header included). The record order matters: perf copies the time
 * conversion when it reads AUXTRACE_INFO, so TIME_CONV comes first.
 */
#include <string.h>

#include "perf_data.h"

enum {
    REC_ATTR = 64,           /* PERF_RECORD_HEADER_ATTR */
    REC_FINISHED_ROUND = 68, /* PERF_RECORD_FINISHED_ROUND */
    REC_AUXTRACE_INFO = 70,  /* PERF_RECORD_AUXTRACE_INFO */
    REC_AUXTRACE = 71,       /* PERF_RECORD_AUXTRACE */
    REC_TIME_CONV = 79,      /* PERF_RECORD_TIME_CONV */
};
#define ATTR_SIZE 128        /* perf_event_attr as perf 6.1 has it */
#define AUXTRACE_ARM_SPE 4   /* AUXTRACE_INFO type of Arm SPE */
#define PIPE_MAGIC UINT64_C(0x32454c4946524550) /* "PERFILE2" */

typedef struct {
    uint8_t b[256];
    size_t n;
} rec_t;

static void u16(rec_t *r, uint16_t v)
{
    for (int i = 0; i < 2; i++)
        r->b[r->n++] = (uint8_t)(v >> (8 * i));
}

static void u32(rec_t *r, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        r->b[r->n++] = (uint8_t)(v >> (8 * i));
}

static void u64(rec_t *r, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        r->b[r->n++] = (uint8_t)(v >> (8 * i));
}

static void zeros(rec_t *r, size_t k)
{
    memset(r->b + r->n, 0, k);
    r->n += k;
}

static void begin(rec_t *r, uint32_t type)
{
    r->n = 0;
    u32(r, type);
    u16(r, 0);
    u16(r, 0); /* size, set by emit() */
}

static int emit(FILE *f, rec_t *r)
{
    r->b[6] = (uint8_t)r->n;
    r->b[7] = (uint8_t)(r->n >> 8);
    return fwrite(r->b, 1, r->n, f) == r->n ? 0 : -1;
}

int perf_data_write(FILE *f, const uint8_t *buf, size_t len, uint32_t cpu)
{
    rec_t r;
    r.n = 0;
    u64(&r, PIPE_MAGIC);
    u64(&r, 16); /* size of this header */
    if (fwrite(r.b, 1, r.n, f) != r.n)
        return -1;

    /* The event: perf_event_attr, then its one sample id. */
    begin(&r, REC_ATTR);
    size_t attr = r.n;
    u32(&r, PERF_DATA_PMU_TYPE); /* type */
    u32(&r, ATTR_SIZE);          /* size */
    u64(&r, 0);                  /* config */
    u64(&r, 1);                  /* sample_period */
    u64(&r, PERF_DATA_SAMPLE_TYPE);
    zeros(&r, ATTR_SIZE - (r.n - attr));
    u64(&r, 1); /* id */
    if (emit(f, &r))
        return -1;

    /* Timestamp packets count nanoseconds: time = (ts * mult) >> shift + zero. */
    begin(&r, REC_TIME_CONV);
    u64(&r, 0); /* time_shift */
    u64(&r, 1); /* time_mult */
    u64(&r, 0); /* time_zero */
    u64(&r, 0); /* time_cycles */
    u64(&r, 0); /* time_mask */
    zeros(&r, 8); /* cap_user_time_zero, cap_user_time_short, reserved */
    if (emit(f, &r))
        return -1;

    /* Arm SPE's private words: its PMU type (= the event's), per-CPU buffers. */
    begin(&r, REC_AUXTRACE_INFO);
    u32(&r, AUXTRACE_ARM_SPE);
    u32(&r, 0);
    u64(&r, PERF_DATA_PMU_TYPE);
    u64(&r, 1);
    if (emit(f, &r))
        return -1;

    /* The buffer itself follows its record, outside the record's size. */
    begin(&r, REC_AUXTRACE);
    u64(&r, len);  /* size */
    u64(&r, 0);    /* offset */
    u64(&r, 0);    /* reference */
    u32(&r, 0);    /* idx */
    u32(&r, 0);    /* tid (CONTEXT packets give each sample its own) */
    u32(&r, cpu);  /* cpu */
    u32(&r, 0);    /* reserved */
    if (emit(f, &r) || (len && fwrite(buf, 1, len, f) != len))
        return -1;

    begin(&r, REC_FINISHED_ROUND);
    return emit(f, &r);
}
