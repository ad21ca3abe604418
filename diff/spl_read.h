/*
 * Reading a .spl event log (docs/formats.md) back into lines: the model's
 * own log and a user's, through the same reader, so both are held to the
 * same rules (docs/diff.md lists them). Every defect is an error of the form
 * "FILE:LINE:COL: error: MESSAGE", as for .spt traces.
 */
#ifndef SPU_SPL_READ_H
#define SPU_SPL_READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spu_model.h"

enum spl_kind { SPL_SAMPLE, SPL_COLLISION, SPL_RECORD, SPL_READ, SPL_UNDEF, SPL_RESET };

/* One line of a log. */
typedef struct spl_line {
    uint64_t cycle;
    uint64_t op;          /* sample, collision, record: op id */
    uint64_t value;       /* read: the value */
    size_t off;           /* where the line starts in spl_file_t.text */
    uint32_t line;        /* its number, from 1 */
    uint32_t tot, iss;    /* record: latency counters */
    uint16_t enc;         /* read, undef: register encoding */
    uint8_t kind;         /* enum spl_kind */
    uint8_t lane, slot;   /* sample: lane and slot; record: slot */
    uint8_t keep, why;    /* record: keep flag and spu_why_bit set */
    uint8_t write;        /* undef: 1 for `w` */
} spl_line_t;

/* A whole log. */
typedef struct spl_file {
    char path[256];
    char *text;           /* the file's bytes (lines are shown from it) */
    size_t size;
    spl_line_t *v;        /* lines other than blank, comment and pmu, in file order */
    size_t n, cap;
    int have_pmu;         /* the closing pmu line, when the log has one: */
    uint32_t pmu_line;
    uint64_t pmu_cycle;
    uint64_t pmu[SPU_NPMU];
    uint8_t pmu_given[SPU_NPMU]; /* events it names */
} spl_file_t;

/* Read the log at path (a file or a pipe) for configuration cfg, whose lanes,
 * slots and PMU events bound the fields. 0, or -1 with the message in err;
 * call spl_free() after either. */
int spl_load(spl_file_t *f, const char *path, const spu_config_t *cfg, char *err, size_t errlen);
/* The same from an open stream, named `name` in messages. */
int spl_load_stream(spl_file_t *f, const char *name, FILE *in, const spu_config_t *cfg, char *err,
                    size_t errlen);
void spl_free(spl_file_t *f);
/* Line l as it stands in the file (no newline, at most len - 1 bytes). */
void spl_line_text(const spl_file_t *f, const spl_line_t *l, char *buf, size_t len);

#endif
