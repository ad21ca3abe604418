/* golden/dpi private: the model handle behind the DPI chandle, the error
 * message, and svBitVecVal field access. */
#ifndef SPU_DPI_INTERNAL_H
#define SPU_DPI_INTERNAL_H

#include <stddef.h>

#include "spu_dpi.h"
#include "spu_model.h"

/* What one chandle points to. */
typedef struct spu_dpi {
    spu_model_t m;
} spu_dpi_t;

/* Set the thread's spu_dpi_error() message (printf format). */
void spu_dpi_fail(const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* n fields of w bits (w <= 64) of a packed vector, field i at [w*i +: w],
 * from or into an array of n elements of elsz bytes (1, 2, 4 or 8; the
 * fields are zero-extended into them, or truncated to w bits from them).
 * spu_dpi_pack writes every bit of the vector's n*w bits and clears the
 * rest of its last word. */
void spu_dpi_unpack(const svBitVecVal *v, void *dst, size_t elsz, unsigned n, unsigned w);
void spu_dpi_pack(svBitVecVal *v, const void *src, size_t elsz, unsigned n, unsigned w);

#endif
