/*
 * The APB master of spu-tb --apb (apb_master.h).
 */
#include <string.h>

#include "apb_master.h"

void apb_master_init(apb_master_t *b)
{
    memset(b, 0, sizeof *b);
}

/* Queue one access; 0, or -1 when the queue is full. */
static int push(apb_master_t *b, apb_access_t x)
{
    if (b->count == APB_QUEUE)
        return -1;
    b->q[(b->head + b->count++) % APB_QUEUE] = x;
    return 0;
}

int apb_master_take(apb_master_t *b, spu_in_t *in)
{
    if (!in->rst_n) {
        b->st.dropped += b->count + (b->phase != APB_IDLE);
        b->count = 0;
        b->phase = APB_IDLE;
        in->reg_valid = 0;
        return 0;
    }
    if (!in->reg_valid)
        return 0;
    const apb_access_t x = {.kind = APB_REG, .write = in->reg_write, .enc = in->reg_enc, .wdata = in->reg_wdata};
    in->reg_valid = 0;
    if (x.write && ++b->st.writes % APB_PROBE == 0) {
        apb_access_t bad = x;
        bad.kind = APB_BAD_STROBE;
        if (push(b, bad))
            return -1;
        b->st.bad_strobes++;
    }
    if (push(b, x))
        return -1;
    if (++b->st.accesses % APB_PROBE == 0) {
        const apb_access_t rd = {.kind = APB_PMU_READ, .event = (uint8_t)(b->st.pmu_reads++ % SPU_NPMU)};
        if (push(b, rd))
            return -1;
    }
    return 0;
}

void apb_master_drive(apb_master_t *b, uint8_t pready, spu_apb_in_t *ai)
{
    memset(ai, 0, sizeof *ai);
    if (b->phase == APB_IDLE && b->count) {
        b->cur = b->q[b->head];
        b->head = (b->head + 1) % APB_QUEUE;
        b->count--;
        b->half = b->cur.kind == APB_BAD_STROBE; /* only the high word */
        b->phase = APB_SETUP;
        /* the address of the low word, once per access */
        if (b->cur.kind == APB_PMU_READ) {
            b->addr = (uint16_t)(SPU_APB_PMU_BASE + 4u * b->cur.event);
        } else {
            const int base = spu_apb_reg_addr(b->cur.enc);
            b->st.unmapped += b->cur.kind == APB_REG && base < 0;
            b->addr = (uint16_t)(base < 0 ? APB_UNMAPPED : (unsigned)base);
        }
    }
    if (b->phase == APB_IDLE)
        return;
    ai->psel = 1;
    ai->penable = b->phase == APB_ACCESS;
    ai->pwrite = b->cur.kind != APB_PMU_READ && b->cur.write;
    ai->paddr = (uint16_t)(b->addr + 4u * b->half);
    ai->pstrb = !ai->pwrite ? 0 : b->cur.kind == APB_BAD_STROBE ? 0x3 : 0xF;
    ai->pwdata = ai->pwrite ? (uint32_t)(b->cur.wdata >> (32 * b->half)) : 0;
    if (b->phase == APB_SETUP) {
        b->phase = APB_ACCESS;
    } else if (pready) { /* the transfer completes at this cycle's edge */
        b->st.transfers++;
        /* a register access has two transfers, low word then high word */
        b->phase = b->cur.kind == APB_REG && b->half++ == 0 ? APB_SETUP : APB_IDLE;
    }
}
