/*
 * Unit tests of the engine under csim and spu-tb (stim/, sim/): properties
 * the command-line suites cannot reach. Prints PASS/FAIL per test and ends
 * with "N passed, N failed"; exit 1 if any failed.
 *
 *   build/spu-engine-tests TRACE.spt
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "rng.h"
#include "run.h"
#include "spt.h"

static int passed, failed;

static void report(const char *name, int ok, const char *why)
{
    if (ok) {
        printf("PASS engine/%s\n", name);
        passed++;
    } else {
        printf("FAIL engine/%s: %s\n", name, why);
        failed++;
    }
}

/* Two cursors over one const trace, interleaved, see the same cycles. */
static void two_cursors(const spt_trace_t *t)
{
    spt_cursor_t ka, kb;
    spu_src_t a = spt_source(&ka, t), b = spt_source(&kb, t);
    spu_cyc_t ca, cb;
    uint64_t n = 0;
    int same = 1;
    for (;;) {
        memset(&ca, 0, sizeof ca);
        memset(&cb, 0, sizeof cb);
        const int ra = a.next(a.self, &ca), rb = b.next(b.self, &cb);
        if (ra != rb || memcmp(&ca, &cb, sizeof ca) != 0) {
            same = 0;
            break;
        }
        if (!ra)
            break;
        n++;
    }
    char why[96];
    snprintf(why, sizeof why, "cursors differ after %" PRIu64 " cycles", n);
    report("one_trace_two_cursors", same && n == t->last_cycle + 1, why);
}

/* An op id the source never handed out is an error, not an invented op. */
static void unhanded_op_trace(const spt_trace_t *t)
{
    spt_cursor_t k;
    spu_src_t s = spt_source(&k, t);
    spu_op_t op;
    spu_cyc_t c;
    const int before = s.op(s.self, 0, &op);
    while (s.next(s.self, &c))
        ;
    const int after = s.op(s.self, 0, &op), beyond = s.op(s.self, t->nops, &op);
    report("trace_op_never_handed_out_is_an_error", t->nops > 0 && before == -1 && after == 0 && beyond == -1,
           "op(0) before any cycle, op(0) after the trace, or op(nops) gave the wrong answer");
}

static void unhanded_op_gen(void)
{
    const spu_config_t *cfg = spu_config_find("v1p4");
    gen_params_t p;
    spu_gen_t g;
    spu_op_t op;
    spu_cyc_t c;
    gen_params_default(&p, cfg, 5);
    gen_init(&g, cfg, &p, 5, 1000, UINT64_MAX);
    spu_src_t s = gen_source(&g);
    const int before = s.op(s.self, 0, &op);
    while (s.next(s.self, &c))
        ;
    const int ok_last = g.next_op ? s.op(s.self, g.next_op - 1, &op) : -1;
    const int beyond = s.op(s.self, g.next_op, &op);
    report("generator_op_never_handed_out_is_an_error", before == -1 && ok_last == 0 && beyond == -1,
           "op() before any cycle, of the last op, or past it gave the wrong answer");
}

/* skip() with pop_mask hands out the cycles next() would, members and all:
 * source b skips where it can (random limits on cycles and members) and
 * steps the rest; source a, the same stimulus, steps every cycle. Each
 * skipped cycle must be plain in a (no reset, register access or context
 * change) with a's members; the members skip() counts must be those of
 * its masks, within the limit; both end together. */
static void skip_masks_equal_next(const char *name, spu_src_t a, spu_src_t b, uint64_t min_skipped)
{
    static uint8_t mask[301]; /* up to 300 cycles and one that must stay as it was */
    uint32_t st = 1;
    uint64_t n = 0, skipped = 0;
    uint8_t el = 0, allow = 0;
    char why[200] = "";
    spu_cyc_t ca, cb;
    for (int done = 0; !done && !why[0];) {
        st = st * 1103515245u + 12345u;
        const uint64_t max = 1 + (st >> 8) % 300, lim = (st >> 20) % 4 == 0 ? 0 : (st >> 20) % 4 == 1 ? 5 : UINT64_MAX;
        uint64_t pops = UINT64_MAX;
        memset(mask, 0xEE, sizeof mask);
        const uint64_t k = n ? b.skip(b.self, max, lim, &pops, mask) : 0; /* a cycle first: the context */
        uint64_t counted = 0;
        for (uint64_t i = 0; i < k && !why[0]; i++, n++) {
            memset(&ca, 0, sizeof ca);
            if (!a.next(a.self, &ca))
                snprintf(why, sizeof why, "skip() handed out cycle %" PRIu64 ", after the stimulus", n);
            else if (ca.reset || ca.reg_valid || ca.el != el || ca.allow != allow || ca.pop_mask != mask[i])
                snprintf(why, sizeof why, "cycle %" PRIu64 ": skipped with members %#x, but next() gives reset %u "
                         "reg %u context %u/%u (was %u/%u) members %#x", n, mask[i], ca.reset, ca.reg_valid, ca.el,
                         ca.allow, el, allow, ca.pop_mask);
            counted += (uint64_t)__builtin_popcount(mask[i]);
        }
        if (!why[0] && k && (counted != pops || pops > lim || mask[k] != 0xEE))
            snprintf(why, sizeof why, "a skip of %" PRIu64 " cycles at cycle %" PRIu64 " said %" PRIu64 " members "
                     "(limit %" PRIu64 "), its masks %" PRIu64 "%s", k, n, pops, lim, counted,
                     mask[k] != 0xEE ? ", and it wrote past them" : "");
        skipped += k;
        if (why[0] || k)
            continue;
        memset(&ca, 0, sizeof ca);
        memset(&cb, 0, sizeof cb);
        const int ra = a.next(a.self, &ca), rb = b.next(b.self, &cb);
        if (ra != rb || (ra && (ca.pop_mask != cb.pop_mask || ca.reset != cb.reset || ca.reg_valid != cb.reg_valid ||
                                ca.el != cb.el || ca.allow != cb.allow)))
            snprintf(why, sizeof why, "cycle %" PRIu64 ": next() differs after the skips (ended %d/%d, members %#x/%#x)",
                     n, ra, rb, ca.pop_mask, cb.pop_mask);
        done = !ra;
        el = ca.el;
        allow = ca.allow;
        n += ra;
    }
    if (!why[0] && skipped < min_skipped)
        snprintf(why, sizeof why, "vacuous: %" PRIu64 " of %" PRIu64 " cycles skipped", skipped, n);
    report(name, !why[0], why);
}

static void skip_masks(const spt_trace_t *t)
{
    spt_cursor_t ka, kb;
    skip_masks_equal_next("trace_skip_masks_equal_next", spt_source(&ka, t), spt_source(&kb, t), t->last_cycle / 2);
    const spu_config_t *cfg = spu_config_find("wide");
    gen_params_t p;
    static spu_gen_t ga, gb;
    gen_params_default(&p, cfg, 9);
    gen_init(&ga, cfg, &p, 9, 200000, UINT64_MAX);
    gen_init(&gb, cfg, &p, 9, 200000, UINT64_MAX);
    skip_masks_equal_next("generator_skip_masks_equal_next", gen_source(&ga), gen_source(&gb), 100000);
}

/* The run writes what the core model reports: with a log, one `sample`
 * line per counted sample and one `record` line per record; without one, the
 * same counts (the core model writes nothing itself). */
static void run_logs_what_core_reports(const spt_trace_t *t, const spu_config_t *cfg)
{
    uint64_t samples[2] = {0}, records[2] = {0}, lines_s = 0, lines_r = 0;
    for (int i = 0; i < 2; i++) {
        spt_cursor_t k;
        spu_run_t r;
        spu_model_t m;
        spu_cyc_t cy;
        spu_in_t in;
        spu_out_t out;
        FILE *f = i ? tmpfile() : NULL;
        if (spu_model_init(&m, cfg, NULL, 0) || (i && !f)) {
            report("run_logs_what_core_reports", 0, "model init or tmpfile");
            return;
        }
        run_init(&r, cfg, spt_source(&k, t), f, NULL);
        while (run_inputs(&r, &cy, &in) > 0) {
            spu_model_step(&m, &in, &out);
            if (run_observe(&r, &cy, &in, &out))
                break;
        }
        samples[i] = r.log.samples;
        records[i] = r.log.kept + r.log.rejected;
        if (f) {
            char line[256];
            rewind(f);
            while (fgets(line, sizeof line, f)) {
                lines_s += strstr(line, " sample ") != NULL;
                lines_r += strstr(line, " record ") != NULL;
            }
            fclose(f);
        }
    }
    char why[160];
    snprintf(why, sizeof why, "samples %" PRIu64 "/%" PRIu64 "/%" PRIu64 " lines, records %" PRIu64 "/%" PRIu64 "/%" PRIu64 " lines",
             samples[0], samples[1], lines_s, records[0], records[1], lines_r);
    report("run_logs_what_core_reports", samples[0] && records[0] && samples[0] == samples[1] && samples[1] == lines_s &&
                                              records[0] == records[1] && records[1] == lines_r, why);
}

/* One generated v1p4 run through the model with the run's check that the
 * write beats write the queued records (docs/buffer.md), the memory always
 * ready (so the n-th beat shown is the n-th taken). mode 0: as the model made them, the run must pass and
 * every queued byte must be written; mode 1: one data bit of the first beat
 * flipped; mode 2: a later beat's address moved by 8. Returns the run's
 * verdict: 0 passed, -1 failed (r->err in why). */
static int beats_run(int mode, char *why, size_t len, uint64_t *bytes)
{
    const spu_config_t *cfg = spu_config_find("v1p4");
    gen_params_t p;
    spu_gen_t g;
    spu_run_t r;
    spu_model_t m;
    spu_mem_t mem;
    spu_cyc_t cy;
    spu_in_t in = {0};
    spu_out_t out;
    char err[128];
    gen_params_default(&p, cfg, 3);
    if (gen_params_set(&p, "int_min=1", err, sizeof err) || gen_params_set(&p, "int_max=2", err, sizeof err) ||
        gen_params_set(&p, "pop_density=100", err, sizeof err) || spu_model_init(&m, cfg, err, sizeof err)) {
        snprintf(why, len, "set-up: %s", err);
        return -2;
    }
    gen_init(&g, cfg, &p, 3, 200000, UINT64_MAX);
    run_init(&r, cfg, gen_source(&g), NULL, NULL);
    mem_init(&mem);
    r.mem = &mem;
    r.check_stream = 1;
    uint64_t beats = 0;
    int rc = 0;
    while (rc == 0 && run_inputs(&r, &cy, &in) > 0) {
        spu_model_step(&m, &in, &out);
        if (out.mem_valid && beats++ == 0 && mode == 1)
            out.mem_data ^= 1u << (8 * (unsigned)__builtin_ctz(out.mem_strb));
        if (out.mem_valid && beats == 3 && mode == 2)
            out.mem_addr += 8;
        rc = run_observe(&r, &cy, &in, &out) || run_records(&r, &cy, &out, &m) ? -1 : 0;
    }
    if (rc == 0)
        rc = run_check_end(&r);
    *bytes = mem.bytes;
    snprintf(why, len, "%s", rc ? r.err : "");
    mem_free(&mem);
    return rc;
}

static void run_checks_write_beats(void)
{
    char why[3][320];
    uint64_t bytes[3];
    const int rc0 = beats_run(0, why[0], sizeof why[0], &bytes[0]);
    const int rc1 = beats_run(1, why[1], sizeof why[1], &bytes[1]);
    const int rc2 = beats_run(2, why[2], sizeof why[2], &bytes[2]);
    char msg[1100];
    snprintf(msg, sizeof msg, "clean run: %d (%s, %" PRIu64 " bytes); flipped data: %d (%s); moved address: %d (%s)",
             rc0, why[0], bytes[0], rc1, why[1], rc2, why[2]);
    report("run_checks_write_beats", rc0 == 0 && bytes[0] > 1000 && rc1 == -1 && strstr(why[1], "the record has") &&
                                         rc2 == -1 && strstr(why[2], "not after the last one"), msg);
}

/* One cycle of core_stray() on a random core state and random real
 * finishes (each freeing its slot, as core_drive() does); a rule broken is
 * named in why. Returns what it drove. */
static unsigned stray_cycle(spu_core_t *c, uint64_t t, uint64_t *h, unsigned pct, unsigned *seen, char *why)
{
    const unsigned n = c->cfg->slots;
    spu_in_t in;
    memset(&in, 0, sizeof in);
    for (unsigned s = 0; s < n; s++)
        c->slot[s].live = (uint8_t)rng_below(h, 2);
    for (unsigned p = 0; p < n; p++)
        if (rng_below(h, 3) == 0) {
            const unsigned s = rng_below(h, n);
            in.fin_valid |= (uint8_t)(1u << p);
            in.fin_slot[p] = (uint8_t)s;
            c->slot[s].live = 0;
        }
    const spu_in_t was = in;
    const unsigned d = core_stray(c, t, pct, &in);
    const uint8_t ni = in.iss_valid & (uint8_t)~was.iss_valid, nf = in.fin_valid & (uint8_t)~was.fin_valid;
    if (ni != (uint8_t)(in.iss_valid ^ was.iss_valid) || nf != (uint8_t)(in.fin_valid ^ was.fin_valid) ||
        (ni & (ni - 1u)) || (nf & (nf - 1u)) || (ni >> n) || (nf >> n) || !!ni != (d & 1u) || !!nf != (d >> 1) ||
        nf != c->stray_fin)
        snprintf(why, 160, "cycle %" PRIu64 ": not one event on a port that was free (issue %02x, finish %02x)", t, ni, nf);
    if (ni)
        seen[0] |= 1u << in.iss_slot[__builtin_ctz(ni)];
    if (nf) {
        const unsigned s = in.fin_slot[__builtin_ctz(nf)];
        seen[1] |= 1u << s;
        for (unsigned p = 0; p < n; p++)
            if ((s < n && c->slot[s].live) || (((was.fin_valid >> p) & 1u) && was.fin_slot[p] == s))
                snprintf(why, 160, "cycle %" PRIu64 ": a stray finish of slot %u, held or finished", t, s);
    }
    return d;
}

/* --stray-events (core_stray()): about pct % of the cycles carry one, each
 * on a free port; a stray finish never names a slot the core holds or
 * finishes in that cycle; every value of the 2-bit slot field is named
 * (free, issued and >= SLOTS); pct 0 drives none; and a record on a stray
 * finish's port is an error of the outputs, not logged as an op's. */
static void stray_events(void)
{
    const spu_config_t *cfg = spu_config_find("wide");
    spu_core_t c;
    core_init(&c, cfg);
    uint64_t h = 7;
    unsigned seen[2] = {0, 0}, with = 0, none = 0;
    char why[160] = "";
    for (uint64_t t = 0; t < 20000; t++) {
        with += stray_cycle(&c, t, &h, 30, seen, why) != 0;
        none += stray_cycle(&c, t, &h, 0, (unsigned[2]){0, 0}, why) != 0;
    }
    spu_in_t in;
    memset(&in, 0, sizeof in);
    memset(c.slot, 0, sizeof c.slot);
    for (uint64_t t = 0; !core_stray(&c, t, 100, &in) || !c.stray_fin; t++)
        memset(&in, 0, sizeof in);
    spu_out_t out;
    memset(&out, 0, sizeof out);
    out.rec_valid = c.stray_fin;
    const spu_cyc_t cy = {.cycle = 1};
    const int rc = core_observe(&c, &cy, &in, &out, NULL);
    char msg[640];
    snprintf(msg, sizeof msg, "%s; cycles with one %u of 20000 at 30 %%, %u at 0 %%; slots issued %x, finished %x; "
             "a record on the stray port: rc %d '%s'", why, with, none, seen[0], seen[1], rc, c.err);
    report("stray_events", !why[0] && with > 4000 && with < 8000 && none == 0 && seen[0] == 0xF && seen[1] == 0xF &&
                               rc == -1 && strstr(c.err, "stray finish"), msg);
}

int main(int argc, char **argv)
{
    spt_trace_t t;
    char err[512];
    if (argc != 2) {
        fprintf(stderr, "usage: %s TRACE.spt\n", argv[0]);
        return 2;
    }
    if (spt_load(&t, argv[1], err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    const spu_config_t *cfg = spu_config_find(t.cfg[0] ? t.cfg : "v1p4");
    if (!cfg || spt_check_config(&t, cfg, err, sizeof err)) {
        fprintf(stderr, "%s\n", cfg ? err : "unknown configuration");
        spt_free(&t);
        return 2;
    }
    two_cursors(&t);
    unhanded_op_trace(&t);
    unhanded_op_gen();
    skip_masks(&t);
    run_logs_what_core_reports(&t, cfg);
    run_checks_write_beats();
    stray_events();
    spt_free(&t);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
