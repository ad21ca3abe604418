/*
 * The harness's byte-addressed memory: what the unit's Profiling Buffer
 * write port (mem_valid_o ... mem_strb_o) writes, page by page, with which
 * bytes were written. csim keeps the model's; tb keeps the DUT's and the
 * model's and compares them at the end of a run (docs/buffer.md).
 */
#ifndef SPU_MEM_H
#define SPU_MEM_H

#include <stdint.h>
#include <stdio.h>

#define MEM_PAGE_BITS 12
#define MEM_PAGE (1u << MEM_PAGE_BITS)

typedef struct mem_page {
    uint64_t base;                     /* address of byte 0 */
    uint8_t byte[MEM_PAGE];
    uint8_t written[MEM_PAGE / 8];     /* bit per byte */
} mem_page_t;

typedef struct spu_mem {
    mem_page_t **slot;                 /* open-addressed table of pages */
    unsigned cap, npages;              /* slots (a power of two) and pages in use */
    uint64_t beats, bytes;             /* write beats taken, bytes written */
    uint64_t lo, hi;                   /* lowest written address, highest + 1 (lo == hi: none) */
} spu_mem_t;

void mem_init(spu_mem_t *m);
void mem_free(spu_mem_t *m);
/* One write beat: data byte j to addr + j where bit j of strb is set.
 * 0, or -1 when memory for a page could not be allocated. */
int mem_write(spu_mem_t *m, uint64_t addr, uint64_t data, uint8_t strb);
/* The byte at addr and whether it was written. */
int mem_read(const spu_mem_t *m, uint64_t addr, uint8_t *byte);
/* 0 when both memories hold the same bytes at the same addresses; else 1
 * with the first differing address (in a's page order) and both views. */
int mem_compare(const spu_mem_t *a, const spu_mem_t *b, uint64_t *addr, int *a_has, uint8_t *a_byte,
                int *b_has, uint8_t *b_byte);
/* The most bytes mem_dump() writes (1 GiB). */
#define MEM_DUMP_MAX (1ull << 30)
/* Write bytes lo..hi-1 (unwritten ones as 0) to f; -1 on a write error, -2
 * (nothing written) when they span more than MEM_DUMP_MAX bytes. */
int mem_dump(const spu_mem_t *m, FILE *f);

#endif
