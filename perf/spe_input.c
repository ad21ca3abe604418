/*
 * What a file given to spu-perf is (spe_input.h): the kinds of file users
 * pass by mistake are named before the packets are walked.
 */
#include <stdio.h>
#include <string.h>

#include "spe_input.h"
#include "spe_pkt.h"
#include "plural.h"

#define REC_HINT "spu-csim or spu-tb --rec-bin FILE (or --mem-bin FILE) writes a buffer of records"

/* The length of the UTF-8 sequence at buf[i] of a text (printable
 * ASCII, tab, line ends, or a multi-byte character), else 0. */
static size_t text_char(const uint8_t *buf, size_t i, size_t n)
{
    const uint8_t c = buf[i];
    if (c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c < 0x7F))
        return 1;
    const size_t k = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (!k || i + k > n)
        return 0;
    for (size_t j = 1; j < k; j++)
        if ((buf[i + j] & 0xC0) != 0x80)
            return 0;
    return k;
}

/* 1 when the first bytes are lines of text (UTF-8): at least 16 bytes
 * with a line end among them (a few bytes of records can be text by
 * chance; lines of them cannot). */
static int looks_text(const uint8_t *buf, size_t len)
{
    const size_t n = len < 4096 ? len : 4096;
    int lines = 0;
    for (size_t i = 0, k; i < n; i += k) {
        lines |= buf[i] == '\n';
        if (!(k = text_char(buf, i, n))) {
            if (n < len && buf[i] >= 0xC2 && i + 4 > n)
                break; /* a character cut by the 4 KiB window */
            return 0;
        }
    }
    return n >= 16 && lines;
}

int spe_input_kind(const uint8_t *buf, size_t len, char why[SPE_INPUT_WHY_LEN])
{
    if (len == 0)
        snprintf(why, SPE_INPUT_WHY_LEN, "the file is empty: no records to read (%s)", REC_HINT);
    else if (len >= 4 && !memcmp(buf, "\x7f" "ELF", 4))
        snprintf(why, SPE_INPUT_WHY_LEN, "an ELF file (a program), not a buffer of SPE records (%s)", REC_HINT);
    else if (len >= 8 && (!memcmp(buf, "PERFILE2", 8) || !memcmp(buf, "PERFFILE", 8)))
        snprintf(why, SPE_INPUT_WHY_LEN, "already a perf.data file: give it to perf (perf report -D -i FILE), not "
                                         "to spu-perf");
    else if (len >= 10 && !memcmp(buf, "spu-trace ", 10))
        snprintf(why, SPE_INPUT_WHY_LEN, "a .spt stimulus trace (text), not a buffer of SPE records (spu-csim "
                                         "TRACE.spt --rec-bin FILE writes the records of its run)");
    else if (len >= 9 && !memcmp(buf, "# record ", 9))
        snprintf(why, SPE_INPUT_WHY_LEN, "the --records text (records decoded, one line per packet), not the "
                                         "records' bytes (the same run with --rec-bin FILE writes them)");
    else if (looks_text(buf, len))
        snprintf(why, SPE_INPUT_WHY_LEN, "a text file, not a buffer of SPE records (%s)", REC_HINT);
    else
        return 0;
    return -1;
}

int spe_input_check(const uint8_t *buf, size_t len, char why[SPE_INPUT_WHY_LEN])
{
    if (spe_input_kind(buf, len, why))
        return -1;
    size_t off = 0, ends = 0;
    char err[SPE_PKT_ERR_LEN];
    while (off < len) {
        spe_pkt_t p;
        if (!spe_pkt_next(buf, len, off, &p, err)) {
            snprintf(why, SPE_INPUT_WHY_LEN, "not a buffer of SPE records: %s, after %zu whole record%s (%s)", err,
                     ends, ends == 1 ? "" : "s", REC_HINT);
            return -1;
        }
        ends += p.kind == SPE_PKT_END || p.kind == SPE_PKT_TIMESTAMP;
        off += p.size;
    }
    if (!ends) {
        snprintf(why, SPE_INPUT_WHY_LEN, "no whole record in %zu byte%s (no End or Timestamp packet ends one)", len,
                 plural_s(len));
        return -1;
    }
    return 0;
}
