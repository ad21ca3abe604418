/*
 * .spt stimulus traces (docs/formats.md):
 * parse a whole file into memory, replay it as a spu_src_t, and write one.
 */
#ifndef SPU_SPT_H
#define SPU_SPT_H

#include <stdio.h>

#include "stim.h"

typedef struct spt_item spt_item_t; /* private */
typedef struct spt_oploc spt_oploc_t; /* private */

/* A parsed trace. After spt_load() it is only read: any number of cursors
 * (spt_source) can replay it, one after the other or side by side. */
typedef struct spt_trace {
    char path[256];
    char cfg[32];                 /* `cfg NAME` line, "" if none */
    spt_item_t *items;            /* private: parsed lines in cycle order */
    size_t nitems, cap;
    spu_op_t *ops;                /* private: op attributes, one per `op` line (.id = its first op id) */
    size_t nrec, opcap;           /* private: entries of ops[] and oploc[] */
    uint64_t nops;                /* population members (op ids 0..nops-1) */
    uint64_t last_cycle;          /* cycle of the last line */
    int version;                  /* format version of the file (1 or 2) */
    spt_oploc_t *oploc;           /* private: line/column/count of each ops[] entry */
    uint32_t cfg_line, cfg_col;   /* private: where the `cfg` name stands */
} spt_trace_t;

/* The longest `fin` of the trace's ops (0 when it has none). */
uint32_t spt_max_fin(const spt_trace_t *t);
/* 1 with the cycle of the trace's first register write or reset (*reset
 * says which; *enc the register written), 0 when it has none. */
int spt_first_write(const spt_trace_t *t, uint64_t *cycle, int *reset, uint16_t *enc);

/* A replay of one trace from cycle 0 (private fields). */
typedef struct spt_cursor {
    const spt_trace_t *t;
    size_t pos;                   /* next item */
    uint64_t cur;                 /* next cycle */
    uint64_t handed;              /* op ids handed out so far */
    uint8_t el, allow;            /* context in force */
    int done;
} spt_cursor_t;

/* Parse the whole file into t (the configuration is checked separately by
 * spt_check_config()). Returns 0, or -1 with "file:line:col: error: message"
 * in err. t needs no initialisation; call spt_free() after either result. */
int spt_load(spt_trace_t *t, const char *path, char *err, size_t errlen);
/* The same from size bytes in memory (need not end in a NUL); name stands
 * for the file in messages. */
int spt_parse(spt_trace_t *t, const char *name, const char *buf, size_t size, char *err, size_t errlen);
/* Check the trace against a configuration (cfg line, lanes per cycle);
 * 0 or -1 with "file:line:col: message". */
int spt_check_config(const spt_trace_t *t, const spu_config_t *cfg, char *err, size_t errlen);
void spt_free(spt_trace_t *t);
/* A stimulus source replaying t from cycle 0; c holds the replay state. */
spu_src_t spt_source(spt_cursor_t *c, const spt_trace_t *t);

/* The format version spt_write_begin() writes: version 2 writes a run of
 * cycles that each carry one identical member and nothing else as one
 * `op*N` line; version 1 writes every member on its own line. */
#define SPT_VERSION 2

/* Writing: header, then one call per cycle of stimulus. */
typedef struct spt_writer {
    FILE *f;
    uint64_t cur;                 /* last `@` written */
    uint8_t el, allow;            /* last context written */
    int started;                  /* a cycle has been passed in */
    uint64_t last;                /* private: last cycle passed in */
    int version;                  /* private: 1 or 2 */
    uint64_t run_n;               /* private: members of the `op*N` line not yet written ... */
    uint64_t run_start;           /* ... from this cycle ... */
    uint8_t run_lane;             /* ... in this lane ... */
    spu_op_t run_op;              /* ... with these attributes */
} spt_writer_t;

/* Header for format version SPT_VERSION. */
void spt_write_begin(spt_writer_t *w, FILE *f, const char *cfg_name);
/* An op's keys as an `op` line spells them (" type=LD ev=0x2 pc=0x..."),
 * each that differs from its default; no newline. */
void spt_write_op_keys(FILE *f, const spu_op_t *op);
/* An op's type flags as a trace writes them ("LD+ST", "B+FP"; "" for none). */
void spt_type_str(uint8_t type, char *buf, size_t len);
/* The name of each type flag, by its bit (enum spu_type_bit): "B", "LD",
 * "ST", "FP", "SIMD", as a trace's type= key spells them. */
extern const char *const spt_type_names[5];
/* The same for format version 1 or 2. */
void spt_write_begin_version(spt_writer_t *w, FILE *f, const char *cfg_name, int version);
/* Write one cycle; src gives each member's attributes. 0, or -1 when src
 * has no attributes for one of the cycle's members. */
int spt_write_cycle(spt_writer_t *w, const spu_cyc_t *c, const spu_src_t *src);
/* After the last cycle: write `@N` for trailing empty cycles so the trace
 * reads back with the same number of cycles, and flush. 0, or -1 when the
 * file could not be written. */
int spt_write_end(spt_writer_t *w);

#endif
