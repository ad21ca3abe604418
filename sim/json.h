/* A JSON object writer for --stats-json (docs/formats.md): one object,
 * nested objects and arrays by key, keys in the order written; integers
 * exact, other numbers with 6 significant digits, strings escaped. Inside
 * an array the key is NULL. */
#ifndef SPU_JSON_H
#define SPU_JSON_H

#include <stdint.h>
#include <stdio.h>

typedef struct json {
    FILE *f;
    unsigned depth;
    uint32_t started;            /* bit d: level d has a member already */
    uint32_t array;              /* bit d: level d is an array */
} json_t;

void json_begin(json_t *j, FILE *f);                    /* {  */
void json_end(json_t *j);                               /* }\n, closing every level */
void json_obj(json_t *j, const char *key);              /* "key": {  */
void json_arr(json_t *j, const char *key);              /* "key": [  */
void json_close(json_t *j);                             /* } or ]  */
void json_u64(json_t *j, const char *key, uint64_t v);
void json_num(json_t *j, const char *key, double v);
void json_str(json_t *j, const char *key, const char *s); /* NULL: null */

#endif
