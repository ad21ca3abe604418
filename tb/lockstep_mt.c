/*
 * The lockstep checker in two threads (spu-tb --threads 2; lockstep.h).
 *
 * This thread runs the stimulus, the core model and the golden model, and
 * writes each cycle's inputs and expected outputs (and the model's records
 * of a cycle with one) into a ring, with a line of it (mt_line_t) for the
 * DUT's common path. The DUT's thread steps the Verilated model through the
 * ring and checks every output of every cycle: a quiet cycle in place, from
 * the line alone (dut.h, step_quiet()); any other as the one-thread loop
 * does (ls_dut_check()). The model may run up to MT_RING cycles ahead: it
 * drives the stimulus, and the core model sees its outputs, which equal
 * the DUT's until a difference. The ring's lines (MT_RING x 64 bytes) are
 * more than a core's L2 holds, so a line the DUT's thread read has left it
 * before the model writes it again (docs/performance.md, "Two threads").
 *
 * Only a pass is reported from here. A difference, a core-model error or
 * anything else stops both threads, and lockstep_run() runs the stimulus
 * again in one thread for the report (the model has run past the failure,
 * so its registers, log and counts would not be those of the failing
 * cycle).
 *
 * Each side publishes a count every MT_BATCH rows, and waits by spinning a
 * little, then sleeping on a condition variable (a machine with fewer free
 * cores than threads must not spin).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep_priv.h"

#define MT_RING 16384u /* rows: cycles the model may run ahead of the DUT */
#define MT_BATCH 64u   /* rows between two publications of a count */
#define MT_SPINS 4000u /* polls before a wait sleeps */
_Static_assert((MT_RING & (MT_RING - 1)) == 0 && MT_RING % MT_BATCH == 0 && MT_RING > 2 * MT_BATCH,
               "MT_RING: a power of two, several batches");

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define cpu_relax() __asm__ __volatile__("yield")
#else
#define cpu_relax() ((void)0)
#endif

/* A row for the DUT's common path (dut.h), one cache line. */
typedef struct mt_line {
    _Alignas(64) spu_row_t r;
} mt_line_t;
_Static_assert(sizeof(mt_line_t) == 64, "a row of the common path in one cache line");

/* A row's inputs: spu_in_t's but a finish's (the DUT's thread reads the
 * whole spu_in_t of a row with a finish). */
static void mt_row_inputs(spu_row_t *r, const spu_in_t *in)
{
    r->ts = in->ts;
    r->reg_wdata = in->reg_wdata;
    r->reg_enc = in->reg_enc;
    r->rst_n = in->rst_n;
    r->pop_valid = in->pop_valid;
    r->iss_valid = in->iss_valid;
    r->fin_valid = in->fin_valid;
    r->fin_ds_valid = in->fin_ds_valid;
    r->reg_valid = in->reg_valid;
    r->reg_write = in->reg_write;
    r->el = in->el;
    r->prof_allowed = in->prof_allowed;
    r->mem_ready = in->mem_ready;
    memcpy(r->iss_slot, in->iss_slot, sizeof r->iss_slot);
}

/* Outputs o as a quiet cycle: a plain cycle's (spu_model_step() returned
 * 1) are one, only the outputs they carry need reading; any other's are
 * scanned (cmp_quiet()). */
static inline void mt_quiet(const spu_out_t *o, int plain, spu_quiet_t *q)
{
    if (plain) {
        q->quiet = 1;
        cmp_quiet_carried(o, q);
    } else {
        cmp_quiet(o, q);
    }
}

/* A count one thread publishes and the other waits for. */
typedef struct mt_count {
    _Alignas(64) _Atomic uint64_t v;
    _Atomic int sleeping;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} mt_count_t;

static void count_publish(mt_count_t *k, uint64_t v)
{
    /* Sequentially consistent with the sleeper's flag and its load of v:
     * either it sees v, or this sees it sleeping (and the mutex makes the
     * broadcast come after its wait began). */
    atomic_store_explicit(&k->v, v, memory_order_seq_cst);
    if (atomic_load_explicit(&k->sleeping, memory_order_seq_cst)) {
        pthread_mutex_lock(&k->mu);
        pthread_cond_broadcast(&k->cv);
        pthread_mutex_unlock(&k->mu);
    }
}

/* Wait until the count is at least want; returns it. */
static uint64_t count_await(mt_count_t *k, uint64_t want)
{
    uint64_t v;
    for (unsigned i = 0; i < MT_SPINS; i++) {
        if ((v = atomic_load_explicit(&k->v, memory_order_acquire)) >= want)
            return v;
        cpu_relax();
    }
    pthread_mutex_lock(&k->mu);
    atomic_store_explicit(&k->sleeping, 1, memory_order_seq_cst);
    while ((v = atomic_load_explicit(&k->v, memory_order_seq_cst)) < want)
        pthread_cond_wait(&k->cv, &k->mu);
    atomic_store_explicit(&k->sleeping, 0, memory_order_relaxed);
    pthread_mutex_unlock(&k->mu);
    return v;
}

typedef struct mt {
    const ls_cfg_t *c;
    ls_hist_t *row;                                  /* the ring: row k in slot k % MT_RING */
    uint8_t (*rec)[SPU_MAX_SLOTS][SPU_MAX_RECORD];   /* the model's records of rows with one */
    mt_line_t *line;                                 /* slot k: row k's inputs and the outputs its step shows
                                                        (late: row k - 1's) as a quiet cycle, all the DUT's
                                                        thread reads of a row on the common path */
    /* 2 * rows written + 1 once the model has stopped (no more rows) */
    mt_count_t head;
    /* rows the DUT's thread no longer reads; UINT64_MAX once it stopped */
    mt_count_t done;
    _Atomic int dut_stopped;                         /* it stopped before the last row */
    /* the DUT's thread's own */
    spu_mem_t dmem;
    ls_result_t dr;                                  /* its outcome: status, cycles checked */
    uint64_t evals;
    const char *clocking;
    int sync;                                        /* the mutexes and conditions are set up */
} mt_t;

static void *dut_thread(void *arg)
{
    mt_t *t = arg;
    const ls_cfg_t *c = t->c;
    ls_result_t *r = &t->dr;
    const int late = c->vt->input_stage; /* the model drives the stimulus (lockstep.c) */
    spu_dut_t *d = c->vt->create(c->init_seed, c->full_clock, late);
    if (!d) {
        r->status = LS_ERROR;
        snprintf(r->err, sizeof r->err, "could not create the Verilated model");
        atomic_store(&t->dut_stopped, 1);
        count_publish(&t->done, UINT64_MAX);
        return NULL;
    }
    c->vt->reset(d);
    const uint64_t evals0 = c->vt->evals(d);
    spu_out_t dout;
    ls_beat_t b = {0};
    const ls_hist_t *pend = NULL; /* the last row stepped (late: its outputs show next) */
    ls_rec_t prec = NULL;
    uint64_t k = 0;
    for (;;) {
        const uint64_t rows = count_await(&t->head, 2 * k + 1) / 2;
        if (rows == k)
            break; /* the model stopped, every row stepped */
        while (k < rows) {
            const uint64_t end = rows - k > MT_BATCH ? k + MT_BATCH : rows;
            while (k < end) {
                int stepped = 0;
                const spu_row_t *cr = &t->line[k % MT_RING].r;
                if (!b.valid && !cr->fin_valid && cr->q.quiet) {
                    /* the common path: quiet rows stepped in a block, their
                     * outputs checked in place (dut.h, step_quiet()) */
                    const uint64_t left = MT_RING - k % MT_RING, n = end - k < left ? end - k : left;
                    const unsigned got = c->vt->step_quiet(d, cr, sizeof *t->line, (unsigned)n);
                    if (got) {
                        r->cycles += got;
                        r->quiet += got;
                        k += got;
                        pend = &t->row[(k - 1) % MT_RING];
                        prec = (ls_rec_t)t->rec[(k - 1) % MT_RING];
                    }
                    cr = &t->line[k % MT_RING].r;
                    if (got == n || cr->fin_valid || !cr->q.quiet)
                        continue; /* the next row is stepped below */
                    c->vt->outputs(d, &dout); /* row k stepped, its outputs not the quiet ones */
                    stepped = 1;
                }
                const ls_hist_t *h = &t->row[k % MT_RING];
                ls_rec_t hrec = (ls_rec_t)t->rec[k % MT_RING];
                if (!stepped)
                    c->vt->step(d, &h->in, &dout);
                /* late: the outputs of the row before (none after reset) */
                const ls_hist_t *e = late ? pend : h;
                if (e && ls_dut_check(c, d, late ? prec : hrec, e, &dout, 0, NULL, NULL, &b, &t->dmem, r))
                    goto stop;
                pend = h;
                prec = hrec;
                k++;
            }
            count_publish(&t->done, late ? k - 1 : k);
        }
    }
    /* late: the last row's outputs, one step more (lockstep.c) */
    if (late && pend) {
        c->vt->step(d, &pend->in, &dout);
        ls_dut_check(c, d, prec, pend, &dout, 0, NULL, NULL, &b, &t->dmem, r);
    }
stop:
    if (r->status != LS_PASS)
        atomic_store(&t->dut_stopped, 1);
    count_publish(&t->done, UINT64_MAX);
    t->evals = c->vt->evals(d) - evals0;
    t->clocking = c->vt->clocking_says(d);
    c->vt->destroy(d);
    return NULL;
}

static void mt_free(mt_t *t)
{
    for (int i = 0; i < 2 && t->sync; i++) {
        mt_count_t *k = i ? &t->done : &t->head;
        pthread_mutex_destroy(&k->mu);
        pthread_cond_destroy(&k->cv);
    }
    free(t->row);
    free(t->rec);
    free(t->line);
    free(t);
}

static int mt_alloc(mt_t *t)
{
    t->row = calloc(MT_RING, sizeof *t->row);
    t->rec = calloc(MT_RING, sizeof *t->rec);
    t->line = aligned_alloc(_Alignof(mt_line_t), MT_RING * sizeof *t->line);
    if (!t->row || !t->rec || !t->line)
        return -1;
    memset(t->line, 0, MT_RING * sizeof *t->line);
    mt_count_t *cnt[2] = {&t->head, &t->done};
    for (int i = 0; i < 2; i++)
        if (pthread_mutex_init(&cnt[i]->mu, NULL) || pthread_cond_init(&cnt[i]->cv, NULL))
            return -1;
    t->sync = 1;
    return 0;
}

void ls_mt_run(const ls_cfg_t *c, spu_src_t src, ls_result_t *r)
{
    spu_model_t m;
    spu_run_t run;
    spu_cyc_t cy;
    pthread_t th;

    if (ls_start(c, &m, 2, r))
        return;
    mt_t *t = aligned_alloc(_Alignof(mt_t), (sizeof *t + _Alignof(mt_t) - 1) / _Alignof(mt_t) * _Alignof(mt_t));
    if (t)
        memset(t, 0, sizeof *t);
    if (!t || mt_alloc(t)) {
        r->status = LS_ERROR;
        snprintf(r->err, sizeof r->err, "--threads 2: out of memory for the ring of %u cycles", MT_RING);
        if (t)
            mt_free(t);
        return;
    }
    t->c = c;
    spu_mem_t mmem;
    ls_begin_run(c, src, &run, &mmem, &t->dmem);
    if (pthread_create(&th, NULL, dut_thread, t)) {
        r->status = LS_ERROR;
        snprintf(r->err, sizeof r->err, "--threads 2: could not start the DUT's thread");
        ls_end_run(c, &run, &m, &mmem, &t->dmem, r);
        mt_free(t);
        return;
    }
    const int late = c->vt->input_stage; /* as the DUT's thread */
    const double t0 = ls_now();
    double next_report = t0 + 0.5;
    uint64_t rows = 0, room = MT_RING; /* rows below room may be written */
    int plain = 0;                     /* the last row was a plain cycle of the model */
    for (;;) {
        if (rows == room) {
            count_publish(&t->head, 2 * rows);
            const uint64_t freed = count_await(&t->done, rows - MT_RING + MT_BATCH);
            if (atomic_load(&t->dut_stopped))
                break;
            room = freed + MT_RING;
        }
        ls_hist_t *h = &t->row[rows % MT_RING];
        if (run_inputs(&run, &cy, &h->in) <= 0)
            break;
        /* The row's line, written at once. Late, the DUT's step of this row
         * shows the row before's outputs (none for the first), read here,
         * long after the model's step stored them byte by byte (read at
         * once, the words would wait for those stores). */
        spu_row_t *cr = &t->line[rows % MT_RING].r;
        mt_row_inputs(cr, &h->in);
        if (late && rows)
            mt_quiet(&t->row[(rows - 1) % MT_RING].out, plain, &cr->q);
        else
            cr->q.quiet = 0;
        plain = cov_model_step(c->cov, &m, &h->in, &h->out);
        if (c->inject && cy.cycle == c->inject_cycle) { /* the run then fails: its report comes from one thread */
            r->injected = cmp_perturb(&h->out, c->inject) == 0;
            plain = 0;
        }
        if (!late)
            mt_quiet(&h->out, plain, &cr->q);
        h->cycle = cy.cycle;
        uint32_t any; /* a record on any port: its bytes go with the row */
        memcpy(&any, h->out.rec_len, sizeof any);
        if (any)
            memcpy(t->rec[rows % MT_RING], m.rec, sizeof m.rec);
        rows++;
        if (rows % MT_BATCH == 0) {
            count_publish(&t->head, 2 * rows);
            if (atomic_load_explicit(&t->dut_stopped, memory_order_relaxed))
                break;
            if (c->progress && (rows & 0xFFFF) == 0 && ls_now() >= next_report) {
                r->cycles = rows;
                ls_progress(c, r, &run, t0);
                next_report = ls_now() + 0.5;
            }
        }
        if (run_observe(&run, &cy, &h->in, &h->out) || run_records(&run, &cy, &h->out, &m)) {
            r->status = LS_CORE;
            r->fail_cycle = cy.cycle;
            snprintf(r->err, sizeof r->err, "%s", run.err);
            break;
        }
    }
    count_publish(&t->head, 2 * rows + 1);
    pthread_join(th, NULL);
    r->seconds = ls_now() - t0;
    r->cycles = t->dr.cycles;
    r->quiet = t->dr.quiet;
    if (r->status == LS_PASS && t->dr.status != LS_PASS) {
        r->status = t->dr.status;
        r->fail_cycle = t->dr.fail_cycle;
        snprintf(r->err, sizeof r->err, "%s", t->dr.err);
    }
    if (c->progress) {
        ls_progress(c, r, &run, t0);
        fputc('\n', stderr);
    }
    r->evals = t->evals;
    r->clocking = t->clocking;
    ls_end_run(c, &run, &m, &mmem, &t->dmem, r);
    mt_free(t);
}
