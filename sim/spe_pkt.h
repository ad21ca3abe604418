/*
 * SPE packet decoder: the consumer side of the sample records (Arm ARM
 * chapter D18, the Statistical Profiling Extension sample record format;
 * the packet headers as tabled in docs/perf.md). A buffer holds records back to back, possibly with
 * zero padding between them; spe_pkt_next() takes one packet at a time and
 * spe_pkt_text() describes it in the words `perf report -D` (perf 6.1)
 * prints, so a test can diff the two (docs/perf.md).
 */
#ifndef SPU_SPE_PKT_H
#define SPU_SPE_PKT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum spe_pkt_kind {
    SPE_PKT_PAD,         /* 0x00, no payload */
    SPE_PKT_END,         /* 0x01, no payload: end of a record without a timestamp */
    SPE_PKT_TIMESTAMP,   /* 0x71, 8 bytes */
    SPE_PKT_EVENTS,      /* 01ss0010 (D18.2.6) */
    SPE_PKT_DATA_SOURCE, /* 01ss0011 */
    SPE_PKT_CONTEXT,     /* 011001ii, 4 bytes */
    SPE_PKT_OP_TYPE,     /* 010010cc, 1 byte */
    SPE_PKT_ADDRESS,     /* 10110iii, 8 bytes */
    SPE_PKT_COUNTER,     /* 10011iii, 2 bytes */
} spe_pkt_kind_t;

/* Address packet indexes. */
enum { SPE_ADDR_PC = 0, SPE_ADDR_TARGET = 1, SPE_ADDR_DATA_VA = 2, SPE_ADDR_DATA_PA = 3, SPE_ADDR_PREV_TARGET = 4 };
/* Counter packet indexes. */
enum { SPE_CNT_TOTAL = 0, SPE_CNT_ISSUE = 1, SPE_CNT_XLAT = 2 };
/* Operation Type classes. */
enum { SPE_OP_OTHER = 0, SPE_OP_LDST = 1, SPE_OP_BRANCH = 2 };

typedef struct spe_pkt {
    spe_pkt_kind_t kind;
    unsigned index;        /* Address/Counter index (extended header included), Context ii, Op class */
    uint64_t payload;      /* little-endian payload, zero-extended */
    unsigned payload_size; /* 0, 1, 2, 4 or 8 bytes */
    size_t offset;         /* of the first header byte in the buffer */
    size_t size;           /* header byte(s) and payload */
} spe_pkt_t;

/* The longest message spe_pkt_next() writes, and the longest text. */
#define SPE_PKT_ERR_LEN 160
#define SPE_PKT_TEXT_LEN 256

/* Decode the packet at buf[off] (off < len). Returns 1 with *p filled,
 * or 0 with err set to a message naming the byte offset (an unknown
 * header, a payload cut short by the end of the buffer). */
int spe_pkt_next(const uint8_t *buf, size_t len, size_t off, spe_pkt_t *p, char err[SPE_PKT_ERR_LEN]);

/* perf 6.1's description of a packet ("PC 0x1000 el1 ns=1", "LAT 12 TOT",
 * "EV RETIRED L1D-ACCESS", "LD GP-REG", "TS 1234", "PAD", ...). */
void spe_pkt_text(const spe_pkt_t *p, char out[SPE_PKT_TEXT_LEN]);

/* The decoded lines of a whole buffer in the layout of perf report -D:
 * "%08x:  " offset, the packet's bytes in hex padded to 16 columns, the
 * text; a run of zero bytes is one PAD line of up to 16 bytes. Returns 0,
 * or -1 with err set (the lines before the bad packet are written). */
int spe_pkt_dump(FILE *f, const uint8_t *buf, size_t len, char err[SPE_PKT_ERR_LEN]);

/* The same for a piece of a longer stream: offsets are printed from base. */
int spe_pkt_dump_at(FILE *f, const uint8_t *buf, size_t len, uint64_t base, char err[SPE_PKT_ERR_LEN]);

/* Read a whole file into a malloc'ed buffer. Returns 0, or -1 with err set
 * to a message naming the file. */
int spe_read_file(const char *path, uint8_t **buf, size_t *len, char err[SPE_PKT_ERR_LEN]);

#endif
