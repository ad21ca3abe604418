/*
 * The engine's set-up from the options (setup.h). Every bad value names
 * its option; no output file may be the trace, the log or another output.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"
#include "setup.h"

static int apply_knobs(const spu_opts_t *o, spu_config_t *cfg)
{
    char err[512];
    for (int i = 0; i < o->nknob; i++) {
        const char *eq = strchr(o->knob[i], '=');
        uint64_t v;
        char name[64];
        if (!eq || (size_t)(eq - o->knob[i]) >= sizeof name) {
            fprintf(stderr, "error: --knob '%s': expected NAME=VALUE\n", o->knob[i]);
            return -1;
        }
        memcpy(name, o->knob[i], (size_t)(eq - o->knob[i]));
        name[eq - o->knob[i]] = '\0';
        if (opts_u64("--knob", eq + 1, &v))
            return -1;
        if (v > 0xFFFFFFFFu || spu_config_set_knob(cfg, name, (uint32_t)v, err, sizeof err)) {
            fprintf(stderr, "error: --knob %s: %s\n", o->knob[i], v > 0xFFFFFFFFu ? "value too large" : err);
            return -1;
        }
    }
    return 0;
}

static int apply_gen(const spu_opts_t *o, gen_params_t *gp)
{
    char err[256], buf[256];
    for (int i = 0; i < o->ngen; i++) {
        snprintf(buf, sizeof buf, "%s", o->gen[i]);
        for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
            if (gen_params_set(gp, kv, err, sizeof err)) {
                fprintf(stderr, "error: --gen: %s\n", err);
                return -1;
            }
        }
    }
    if (gen_params_check(gp, err, sizeof err)) {
        fprintf(stderr, "error: --gen: %s\n", err);
        return -1;
    }
    return 0;
}

/* The absolute form of path: realpath() of the file, or of its directory
 * when the file does not exist yet. 0, or -1 when neither resolves. */
static int canon_path(const char *path, char *out)
{
    if (realpath(path, out))
        return 0;
    char dir[PATH_MAX], res[PATH_MAX];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash == path ? 1 : slash - path), path);
    if (!realpath(dir, res))
        return -1;
    const int n = snprintf(out, PATH_MAX, "%s/%s", strcmp(res, "/") ? res : "", base);
    return n > 0 && n < PATH_MAX ? 0 : -1;
}

/* 1 when paths a and b name the same file, existing (also through a link)
 * or about to be created. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    char ca[PATH_MAX], cb[PATH_MAX];
    if (!a || !b)
        return 0;
    if (!strcmp(a, b))
        return 1;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    return canon_path(a, ca) == 0 && canon_path(b, cb) == 0 && !strcmp(ca, cb);
}

spu_src_t opts_fresh_source(const spu_setup_t *s, spt_cursor_t *k, spu_gen_t *g, pev_src_t *p)
{
    spu_src_t in;
    uint64_t fin;
    if (s->have_trace) {
        in = spt_source(k, &s->trace);
        fin = spt_max_fin(&s->trace);
    } else {
        gen_init(g, &s->cfg, &s->gp, s->seed, s->end_cycle, s->end_ops);
        in = gen_source(g);
        fin = gen_fin_bound(g);
    }
    return s->have_pev ? pev_source(p, in, &s->pev, fin) : in;
}

/* A --gen knob that only shapes the generator's register traffic and resets,
 * which it does not make under --perf-event: its name, else NULL. */
static const char *regs_knob(const spu_opts_t *o, char *buf, size_t len)
{
    for (int i = 0; i < o->ngen; i++)
        for (const char *kv = o->gen[i]; kv; kv = strchr(kv, ',') ? strchr(kv, ',') + 1 : NULL) {
            const size_t n = strcspn(kv, "=,");
            if (kv[n] == '=' && gen_param_regs_only(kv, n)) {
                snprintf(buf, len, "%.*s", (int)n, kv);
                return buf;
            }
        }
    return NULL;
}

/* --perf-event, --period, --buffer: the driver's sequences for the event,
 * or a message naming the option, field and value. */
static int setup_perf_event(const spu_opts_t *o, spu_setup_t *s)
{
    char err[512], knob[32];
    pev_attr_t a;
    uint64_t base = PEV_DEFAULT_BASE, size = PEV_DEFAULT_SIZE;
    if (pev_parse(&a, o->perf_event, err, sizeof err) || pev_check(&a, &s->cfg, err, sizeof err)) {
        fprintf(stderr, "error: --perf-event: %s\n", err);
        return -1;
    }
    if (opts_given(o, "--period") && a.have_period) {
        fprintf(stderr, "error: --period %" PRIu64 ": the event's period=%" PRIu64 " term is also given (perf would use the term); give one\n",
                o->period, a.period);
        return -1;
    }
    if (opts_given(o, "--period")) {
        if (o->period >> 63) {
            fprintf(stderr, "error: --period %" PRIu64 ": perf_event_open rejects a sample period with bit 63 set (EINVAL)\n", o->period);
            return -1;
        }
        a.period = o->period;
        a.have_period = 1;
    }
    if (o->buffer && pev_get(&a, PEV_discard)) {
        fprintf(stderr, "error: --buffer: the event has discard=1, which writes no Profiling Buffer\n");
        return -1;
    }
    if (o->buffer && pev_buffer(o->buffer, &s->cfg, &base, &size, err, sizeof err)) {
        fprintf(stderr, "error: %s\n", err);
        return -1;
    }
    if (s->have_trace) {
        uint64_t cyc;
        int reset;
        uint16_t enc;
        char reg[40];
        if (spt_first_write(&s->trace, &cyc, &reset, &enc)) {
            stim_reg_str(enc, reg, sizeof reg);
            fprintf(stderr, "error: --perf-event: the trace %s %s%s in cycle %" PRIu64 "; with --perf-event the driver's "
                            "sequences program the unit, so a trace may only read registers (docs/perf-event.md)\n",
                    o->trace, reset ? "resets the unit" : "writes ", reset ? "" : reg, cyc);
            return -1;
        }
    } else if (regs_knob(o, knob, sizeof knob)) {
        fprintf(stderr, "error: --gen %s: under --perf-event the driver programs the unit; the generator makes no "
                        "register access or reset, so this knob does not apply\n", knob);
        return -1;
    } else {
        s->gp.no_regs = 1;
    }
    pev_program(&a, &s->cfg, base, size, &s->pev);
    s->have_pev = 1;
    return 0;
}

/* The configuration and the stimulus: the trace or the generator, knobs,
 * --perf-event's sequences. 0, or -1 (the message printed). */
static int setup_stimulus(const spu_opts_t *o, spu_setup_t *s)
{
    char err[512];
    const char *cname = o->config;
    if (o->trace) {
        if (spt_load(&s->trace, o->trace, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return -1;
        }
        s->have_trace = 1;
        if (!cname && s->trace.cfg[0])
            cname = s->trace.cfg;
    }
    if (!cname)
        cname = "v1p4";
    const spu_config_t *c = spu_config_find(cname);
    if (!c) {
        fprintf(stderr, "error: unknown configuration '%s' (known:", cname);
        for (unsigned i = 0; i < spu_nconfigs; i++)
            fprintf(stderr, " %s", spu_configs[i].name);
        fprintf(stderr, ")\n");
        return -1;
    }
    s->cfg = *c;
    if (apply_knobs(o, &s->cfg))
        return -1;
    if (s->have_trace) {
        if (spt_check_config(&s->trace, &s->cfg, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return -1;
        }
    } else {
        gen_params_default(&s->gp, &s->cfg, o->seed);
        if (apply_gen(o, &s->gp))
            return -1;
        s->seed = o->seed;
        s->end_cycle = o->cycles;
        s->end_ops = o->ops;
    }
    if (o->perf_event && setup_perf_event(o, s))
        return -1;
    s->src = opts_fresh_source(s, &s->cursor, &s->gen, &s->pev_src);
    return 0;
}

#define OUT_MAX 16
typedef struct out_file {
    const char *opt, *path, *mode; /* path "-": stdout */
    FILE **f;                    /* NULL: the front end opens it at the end */
} out_file_t;

/* The output files: the log (stdout unless --quiet or --log), the emitted
 * trace, the engine's others, then the front end's (OPT_OUT). */
static int out_files(const spu_opts_t *o, spu_setup_t *s, out_file_t *out)
{
    const out_file_t eng[] = {{"--log", o->quiet ? NULL : o->log ? o->log : "-", "w", &s->log_f},
                              {"--emit-trace", o->emit, "w", &s->emit_f},
                              {"--cov", o->cov, "w", NULL},
                              {"--rec-bin", o->rec_bin, "wb", &s->rec_f},
                              {"--records", o->records, "w", &s->rec_txt},
                              {"--mem-bin", o->mem_bin, "wb", &s->mem_f},
                              {"--stats-json", o->stats_json, "w", &s->json_f},
                              {"--report", o->report, "w", &s->report_f}};
    int n = 0;
    for (size_t i = 0; i < sizeof eng / sizeof eng[0]; i++)
        out[n++] = eng[i];
    for (size_t i = 0; i < o->fe->nopt && n < OUT_MAX; i++)
        if (o->fe->opt[i].kind == OPT_OUT)
            out[n++] = (out_file_t){o->fe->opt[i].name, *(const char *const *)(const void *)((const char *)o + o->fe->opt[i].off),
                                    "w", NULL};
    return n;
}

static int is_stdout(const out_file_t *f)
{
    return f->path && !strcmp(f->path, "-");
}

/* No two outputs in one file (stdout included), none the trace: 0, or -1
 * (the message printed). */
static int outputs_apart(const spu_opts_t *o, const out_file_t *out, int n)
{
    for (int i = 0; i < n; i++) {
        if (!out[i].path)
            continue;
        if (!is_stdout(&out[i]) && same_file(out[i].path, o->trace)) {
            fprintf(stderr, "error: %s '%s' is the input trace; refusing to overwrite it\n", out[i].opt, out[i].path);
            return -1;
        }
        for (int j = 0; j < i; j++) {
            if (!out[j].path || is_stdout(&out[i]) != is_stdout(&out[j]))
                continue;
            if (is_stdout(&out[i])) {
                fprintf(stderr, "error: %s -: stdout already carries %s%s\n", out[i].opt,
                        j ? out[j].opt : o->log ? "--log -" : "the .spl log",
                        j || o->log ? "; give one of them a file" : "; add --quiet or --log FILE");
                return -1;
            }
            if (same_file(out[i].path, out[j].path)) {
                fprintf(stderr, "error: %s '%s' is also the %s file; refusing to overwrite it\n", out[i].opt,
                        out[i].path, out[j].opt);
                return -1;
            }
        }
    }
    return 0;
}

/* A file the front end writes at the end can be written: its directory
 * is, and it is no directory. 0, or -1 (the message printed). */
static int writable(const out_file_t *f)
{
    char dir[PATH_MAX];
    struct stat st;
    const char *slash = strrchr(f->path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash == f->path ? 1 : slash - f->path) : 1, slash ? f->path : ".");
    if (access(dir, W_OK) != 0 || (stat(f->path, &st) == 0 && S_ISDIR(st.st_mode))) {
        fprintf(stderr, "error: cannot write %s '%s': %s\n", f->opt, f->path,
                access(dir, W_OK) != 0 ? strerror(errno) : "it is a directory");
        return -1;
    }
    return 0;
}

/* The output files, each in a file of its own or on stdout ("-"): 0, or -1
 * (the message printed). */
static int open_outputs(const spu_opts_t *o, spu_setup_t *s)
{
    out_file_t out[OUT_MAX];
    const int n = out_files(o, s, out);
    if (outputs_apart(o, out, n))
        return -1;
    for (int i = 0; i < n; i++) {
        if (!out[i].path || (!out[i].f && is_stdout(&out[i])))
            continue;
        if (!out[i].f) {
            if (writable(&out[i]))
                return -1;
        } else if (is_stdout(&out[i])) {
            *out[i].f = stdout;
        } else if (!(*out[i].f = fopen(out[i].path, out[i].mode))) {
            fprintf(stderr, "error: cannot write %s '%s': %s\n", out[i].opt, out[i].path, strerror(errno));
            return -1;
        }
    }
    if (s->emit_f)
        spt_write_begin(&s->emit, s->emit_f, s->cfg.name);
    return 0;
}

static int setup(const spu_opts_t *o, spu_setup_t *s)
{
    return setup_stimulus(o, s) || open_outputs(o, s) ? -1 : 0;
}

int opts_setup(const spu_opts_t *o, spu_setup_t *s)
{
    memset(s, 0, sizeof *s);
    if (setup(o, s) == 0)
        return 0;
    opts_teardown(s); /* what was opened or loaded before the error */
    return -1;
}

/* Close *f (flush it when it is stdout) and clear it: 0, or -1 with a
 * message naming what it was when it was not written completely. */
static int close_out(FILE **f, const char *what)
{
    if (!*f)
        return 0;
    int bad = fflush(*f) != 0 || ferror(*f);
    if (*f != stdout && fclose(*f) != 0) /* closed whatever fflush said */
        bad = 1;
    *f = NULL;
    if (bad)
        fprintf(stderr, "error: %s could not be written completely\n", what);
    return bad ? -1 : 0;
}

int opts_teardown(spu_setup_t *s)
{
    int rc = 0;
    if (s->have_trace)
        spt_free(&s->trace);
    s->have_trace = 0;
    if (s->emit_f && spt_write_end(&s->emit)) {
        if (s->emit_f != stdout)
            fclose(s->emit_f);
        s->emit_f = NULL;
        fprintf(stderr, "error: the emitted trace could not be written completely\n");
        rc = -1;
    }
    rc |= close_out(&s->emit_f, "the emitted trace");
    rc |= close_out(&s->rec_txt, "the --records file");
    rc |= close_out(&s->json_f, "the --stats-json file");
    rc |= close_out(&s->report_f, "the --report file");
    rc |= close_out(&s->mem_f, "the --mem-bin file");
    rc |= close_out(&s->rec_f, "the --rec-bin file");
    rc |= close_out(&s->log_f, "the log");
    return rc;
}

void opts_print_driver(const spu_setup_t *s, FILE *f)
{
    if (!s->have_pev)
        return;
    const pev_src_t *p = &s->pev_src;
    fprintf(f, "perf-event driver: buffer-full interrupts handled %" PRIu64 " (PMBSR_EL1.COLL set in %" PRIu64
               ", no room left after %" PRIu64 ")  other syndromes %" PRIu64 "  bytes reported at the interrupts %" PRIu64 "\n",
            p->irqs, p->collisions, p->truncated, p->fatal, p->data_bytes);
}

void opts_driver_json(const spu_setup_t *s, json_t *j)
{
    if (!s->have_pev)
        return;
    const pev_src_t *p = &s->pev_src;
    json_obj(j, "driver");
    json_u64(j, "buffer_full_interrupts", p->irqs);
    json_u64(j, "interrupts_with_collision", p->collisions);
    json_u64(j, "interrupts_with_no_room_left", p->truncated);
    json_u64(j, "other_syndromes", p->fatal);
    json_u64(j, "bytes_reported", p->data_bytes);
    json_close(j);
}
