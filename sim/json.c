/* The --stats-json writer (json.h). */
#include <inttypes.h>

#include "json.h"

static void key(json_t *j, const char *k)
{
    const uint32_t bit = 1u << j->depth;
    fprintf(j->f, "%s\n%*s\"%s\": ", (j->started & bit) ? "," : "", 2 * (int)j->depth, "", k);
    j->started |= bit;
}

void json_begin(json_t *j, FILE *f)
{
    j->f = f;
    j->depth = 1;
    j->started = 0;
    fputc('{', f);
}

void json_obj(json_t *j, const char *k)
{
    key(j, k);
    fputc('{', j->f);
    j->depth++;
    j->started &= ~(1u << j->depth);
}

void json_close(json_t *j)
{
    j->depth--;
    fprintf(j->f, "\n%*s}", 2 * (int)j->depth, "");
}

void json_end(json_t *j)
{
    while (j->depth > 1)
        json_close(j);
    fputs("\n}\n", j->f);
}

void json_u64(json_t *j, const char *k, uint64_t v)
{
    key(j, k);
    fprintf(j->f, "%" PRIu64, v);
}

void json_num(json_t *j, const char *k, double v)
{
    key(j, k);
    fprintf(j->f, "%.6g", v);
}

void json_str(json_t *j, const char *k, const char *s)
{
    key(j, k);
    if (!s) {
        fputs("null", j->f);
        return;
    }
    fputc('"', j->f);
    for (; *s; s++) {
        const unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(j->f, "\\%c", c);
        else if (c < 0x20)
            fprintf(j->f, "\\u%04x", c);
        else
            fputc(c, j->f);
    }
    fputc('"', j->f);
}
