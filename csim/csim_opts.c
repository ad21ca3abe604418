/*
 * spu-csim's options, rules and help (csim_opts.h); the parser and the
 * engine's options are opts.c's.
 */
#include "csim_opts.h"

/* The longest run: about an hour at the 225-369 M members per second csim
 * was measured at (docs/performance.md). */
#define CSIM_MAX_OPS 1000000000000ull

static const opt_def_t csim_opt[] = {
    NUM_OPT("--ops", offsetof(csim_opts_t, eng.ops), 1, CSIM_MAX_OPS,
            "1..10^12 members: a run needs one, and 10^12 is about an hour at csim's measured speed "
            "(docs/performance.md); split a longer one into seeds"),
    OUT_OPT("--vectors", offsetof(csim_opts_t, vectors)),
    FLAG_OPT("--expect-vacuous", offsetof(csim_opts_t, expect_vacuous), 1),
};

static const opt_rule_t csim_rule[] = {
    {"TRACE", "--ops", 0, "a trace runs to its end (cut the trace to run less of it)"},
};

/* spu-tb's options (a test checks this list against spu-tb --help). */
#define TB_S "it is spu-tb's"
static const opt_hint_t csim_hint[] = {
    {"--cycles", TB_S "; spu-csim runs --ops N members"},
    {"--wave", TB_S},       {"--shrink", TB_S},   {"--full-clock", TB_S},     {"--reference", TB_S},
    {"--apb", TB_S},        {"--dut-only", TB_S}, {"--fail-dir", TB_S},
    {"--inject", TB_S},     {"--init-seed", TB_S}, {"--mutant", TB_S},
};

static void csim_init(void *own)
{
    ((csim_opts_t *)own)->eng.ops = 1000000;
}

static const opts_front_t csim_front = {
    .tool = "spu-csim",
    .size = sizeof(csim_opts_t),
    .init = csim_init,
    .opt = OPTS_TABLE(csim_opt),
    .rule = OPTS_TABLE(csim_rule),
    .hint = OPTS_TABLE(csim_hint),
    .help_length = "  --ops N             population members the generator offers (default 1000000, at most\n"
                   "                      10^12); --stats counts as 'members' those offered while profiling\n"
                   "                      was enabled\n",
    .help = "  --knob NAME=V       override a knob of the configuration (docs/impl-defined.md)\n"
            "  --emit-trace FILE   also write the stimulus as a .spt trace\n"
            "  --vectors FILE      also write every cycle's inputs and outputs as spu_top's ports, for\n"
            "                      the Icarus bench (tb/icarus/spu_vec_tb.v)\n"
            "  --no-skip           step every cycle (no skipping ahead; --cov and --vectors do so too)\n"
            "  --expect-vacuous    a generated run that selects or records nothing is not a failure\n"
            "                      (a trace's, or one whose records are all kept or all rejected, is a note)\n",
    .help_exit = "exit status: 0 ok, 1 the outputs contradict the core model, a file could not be written or\n"
                 "             a generated run was vacuous, 2 bad input, 130 stopped by SIGINT (Ctrl-C) after\n"
                 "             printing what it ran\n",
};

int csim_opts_parse(csim_opts_t *c, int argc, char **argv)
{
    return opts_parse(c, argc, argv, &csim_front);
}
