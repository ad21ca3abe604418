/* The --stats-json writer (json.h). */
#include <inttypes.h>

#include "json.h"

static void key(json_t *j, const char *k)
{
    const uint32_t bit = 1u << j->depth;
    fprintf(j->f, "%s\n%*s", (j->started & bit) ? "," : "", 2 * (int)j->depth, "");
    if (k)
        fprintf(j->f, "\"%s\": ", k);
    j->started |= bit;
}

void json_begin(json_t *j, FILE *f)
{
    j->f = f;
    j->depth = 1;
    j->started = 0;
    j->array = 0;
    fputc('{', f);
}

static void open_level(json_t *j, const char *k, int array)
{
    key(j, k);
    fputc(array ? '[' : '{', j->f);
    j->depth++;
    j->started &= ~(1u << j->depth);
    j->array = (j->array & ~(1u << j->depth)) | (uint32_t)array << j->depth;
}

void json_obj(json_t *j, const char *k)
{
    open_level(j, k, 0);
}

void json_arr(json_t *j, const char *k)
{
    open_level(j, k, 1);
}

void json_close(json_t *j)
{
    const int array = (j->array >> j->depth) & 1u;
    j->depth--;
    fprintf(j->f, "\n%*s%c", 2 * (int)j->depth, "", array ? ']' : '}');
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
