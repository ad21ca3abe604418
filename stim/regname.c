/*
 * How traces and logs spell a system-register encoding: the golden model's
 * name, or s<op0>_<op1>_c<CRn>_c<CRm>_<op2> for an encoding it does not know
 * (docs/formats.md). The .spt lexer reads both forms back.
 */
#include <stdio.h>

#include "stim.h"

void stim_reg_str(uint16_t enc, char *buf, size_t len)
{
    const int idx = spu_reg_find(enc);
    if (idx >= 0)
        snprintf(buf, len, "%s", spu_reg_name(idx));
    else
        snprintf(buf, len, "s%u_%u_c%u_c%u_%u", enc >> 14, (enc >> 11) & 7u, (enc >> 7) & 15u,
                 (enc >> 3) & 15u, enc & 7u);
}
