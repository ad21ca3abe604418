/*
 * spu-tb's options, rules and help (tb_opts.h); the parser and the
 * engine's options are opts.c's.
 */
#include <string.h>

#include "tb_opts.h"

/* The longest run: about an hour at 27 M checked cycles per second (v1p4,
 * docs/performance.md), the speed the checker was measured at. */
#define TB_MAX_CYCLES 100000000000ull

#define M(m) offsetof(tb_opts_t, m)
static const opt_def_t tb_opt[] = {
    NUM_OPT("--cycles", M(eng.cycles), 1, TB_MAX_CYCLES,
            "1..10^11 cycles: a run needs one, and 10^11 is about an hour at the checker's measured speed "
            "(docs/performance.md); split a longer one into seeds (tools/regress.py)"),
    STR_OPT("--fail-dir", M(fail_dir)),
    STR_OPT("--inject", M(inject)),
    NUM_OPT("--init-seed", M(init_seed), 1, 0x7FFFFFFF,
            "Verilator's +verilator+seed takes 1..2147483647"),
    NUM_OPT("--mutant", M(mutant), 0, 0xFFFF, "mutant numbers are 0..65535"),
    FLAG_OPT("--wave", M(wave), 1),
    FLAG_OPT("--shrink", M(shrink), 1),
    FLAG_OPT("--full-clock", M(full_clock), 1),
    FLAG_OPT("--reference", M(reference), 1),
    FLAG_OPT("--apb", M(apb), 1),
    FLAG_OPT("--dut-only", M(dut_only), 1),
    FLAG_OPT("--expect-vacuous", M(expect_vacuous), 1),
};
#undef M

#define NO_MODEL(opt, what) {"--dut-only", opt, 0, "--dut-only runs no model" what}
#define COMPARES_NOTHING(opt, what) {"--dut-only", opt, 0, "--dut-only compares nothing, so " what}
static const opt_rule_t tb_rule[] = {
    {"TRACE", "--cycles", 0, "a trace runs to its end (cut the trace to run less of it)"},
    {"--reference", "--dut-only", 0, "--reference compares every cycle; --dut-only compares none"},
    {"--reference", "--no-skip", 0, "the reference loop already steps and compares each cycle with both clock edges"},
    {"--reference", "--full-clock", 0, "the reference loop already steps and compares each cycle with both clock edges"},
    COMPARES_NOTHING("--wave", "there is no difference to show"),
    COMPARES_NOTHING("--shrink", "there is no failure to shrink"),
    COMPARES_NOTHING("--inject", "an injected difference cannot be caught"),
    {"--dut-only", "--expect-vacuous", 0, "--dut-only does not check vacuity"},
    NO_MODEL("--cov", ", and coverage is sampled with the model's state"),
    NO_MODEL("--records", "; the records printed are the model's (equal to the DUT's when compared)"),
    NO_MODEL("--rec-bin", "; the records written are the model's (equal to the DUT's when compared)"),
    NO_MODEL("--mem-bin", "; the memory written is the model's (equal to the DUT's when compared)"),
    NO_MODEL("--stats", ", so there are no statistics to print"),
    NO_MODEL("--stats-json", ", so there are no statistics to write"),
    NO_MODEL("--report", ", so there are no statistics to report"),
    {"TRACE", "--expect-vacuous", 1, "it is for a directed trace; a random run must select, keep and reject"},
    {NULL, "--knob", 0, "in the RTL the knobs are parameters of a build; pick a configuration that has them "
                        "(e.g. v1-alt, wide-alt)"},
    {"--apb", "--perf-event", 0, "with --apb the driver's accesses would reach the unit later than its handler "
                                 "reads them; --apb runs traces and the generator"},
    {"--apb", "--mutant", 0, "the mutant builds are of spu_top, not spu_apb"},
    {NULL, "--emit-trace", 0, "it is spu-csim's; spu-tb saves the stimulus of a failure itself"},
};

static const opt_hint_t tb_hint[] = {
    {"--ops", "it is spu-csim's; spu-tb runs --cycles N"},
    {"--vectors", "it is spu-csim's; the Icarus bench reads vectors spu-csim writes"},
    {"--threads", "removed: the checker runs in one thread; two were slower than one once one thread took "
                  "blocks of plain cycles: docs/performance.md, \"Two threads\""},
};

static void tb_init(void *own)
{
    ((tb_opts_t *)own)->eng.cycles = 1000000;
}

static const opts_front_t tb_front = {
    .tool = "spu-tb",
    .size = sizeof(tb_opts_t),
    .init = tb_init,
    .opt = OPTS_TABLE(tb_opt),
    .rule = OPTS_TABLE(tb_rule),
    .hint = OPTS_TABLE(tb_hint),
    .help_length = "  --cycles N          cycles of generated stimulus (default 1000000, at most 10^11)\n",
    .help = "  --no-skip           check each cycle on its own (default: runs of plain cycles in blocks,\n"
            "                      docs/performance.md; the logs are identical)\n"
            "  --wave              on a difference, re-run and write an FST of the window around it\n"
            "                      (the whole run uses the model built with tracing, a little slower)\n"
            "  --shrink            on a difference, reduce the failing stimulus (delta debugging)\n"
            "  --init-seed N       +verilator+seed for X initialisation (default derived from --seed)\n"
            "  --expect-vacuous    a trace that selects nothing is not a failure\n"
            "  --dut-only          benchmark: the DUT alone on the same stimulus (no model, no compare)\n"
            "  --inject SIG@CYCLE  flip bit 0 of a model output in one cycle (checker self-test)\n"
            "  --fail-dir DIR      where a failure's stimulus, wave and reduced trace go (default: fail/\n"
            "                      beside the spu-tb binary)\n"
            "  --full-clock        drive both clock edges with an eval each (default: one eval per\n"
            "                      cycle where the Verilated model allows it; the logs are identical)\n"
            "  --reference         run the reference loop, the checker's specification (tb/lockstep.c):\n"
            "                      spu_top's own timing, both clock edges, every cycle compared whole;\n"
            "                      the default fast loop gives the same logs, records and reports\n"
            "  --apb               the DUT is spu_apb, the APB4 wrapper: the register accesses go over\n"
            "                      APB, PRDATA/PREADY/PSLVERR compared too (configurations built with it)\n"
            "  --mutant K          a mutant build only (build/spu-tb-mut, make mutate): mutsel = K,\n"
            "                      0 the unmutated design; reports whether mutant K was activated\n"
            "  (regressions over many seeds: tools/regress.py, make regress)\n",
    .help_exit = "exit status: 0 no difference and not vacuous, 1 a difference or a vacuous run, 2 bad input,\n"
                 "             130 stopped by SIGINT (Ctrl-C) after printing what it checked\n",
};

int tb_opts_parse(tb_opts_t *t, int argc, char **argv)
{
    const int rc = opts_parse(t, argc, argv, &tb_front);
    t->have_mutant = rc == 0 && opts_given(&t->eng, "--mutant");
    return rc;
}
