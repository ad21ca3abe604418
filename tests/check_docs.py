#!/usr/bin/env python3
"""The docs name only what exists, and the PMU event lists are the toml's.

1. Every option written in backticks in README.md and docs/*.md (`--name`)
   is an option of one of the project's tools (their --help, or argparse's
   add_argument in tools/*.py and tests/*.py, or tests/run_tests.sh's), or of an outside
   tool listed in OUTSIDE below with the tool it belongs to.
2. Every function written in backticks as `name()` (lower case: the
   project's; the Arm pseudocode's are CamelCase) is defined in the sources:
   a C/C++ definition, a Python def, a shell function.
3. The lists of SAMPLE_* events in docs/ports.md (pmu_o) and docs/formats.md
   (the pmu line) are the [pmu.*] tables of configs/spu.toml, in order, and
   NPMU is their number.

usage: check_docs.py BUILD [TOML] [EXTRA.md...]   (EXTRA: more files to check, for the test of this check)
Prints what it checked; exit 1 naming each file:line that is wrong.
"""
import glob
import os
import re
import subprocess
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Options of tools outside the project that the docs name, with the tool.
OUTSIDE = {
    "--lint-only": "verilator", "--x-assign": "verilator", "--x-initial": "verilator",
    "--trace-fst": "verilator", "--coverage-line": "verilator", "--inline-mult": "verilator",
    "--toggle-collect": "verilator_coverage", "--timing-allow-fail": "nextpnr",
    "--itrace": "perf", "--dump-line": "perf", "--dependency": "sbatch",
    "--separate-threads": "valgrind", "--tool": "valgrind", "--break-system-packages": "pip",
    "--cores-root": "fusesoc", "--target": "fusesoc", "--hx8k": "nextpnr-ice40", "--speed": "nextpnr-ecp5",
    "--binary": "verilator", "--write": "verilator_coverage",
}
# Functions outside the project's sources that the docs name, with whose they are.
OUTSIDE_FUNCS = {
    "exit": "C library", "memcmp": "C library", "eval": "a Verilated model's",
    "min": "the Arm pseudocode's", "reset_counter": "docs/semantics.md's name for SPEResetSampleCounter()",
}
# Options and functions that were removed, and the one doc that keeps them
# as history (their measurements), where they may still be named.
REMOVED = {"--threads": "docs/performance.md", "step_quiet": "docs/performance.md"}
SOURCE_DIRS = ("golden", "stim", "sim", "csim", "vl", "tb", "diff", "perf", "bench", "tests", "tools")


EXTRA = []


def docs():
    return [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))) + EXTRA


def our_options(build):
    """Every --option the project's tools take."""
    opts = set()
    for tool in ("spu-tb", "spu-csim", "spu-diff", "spu-perf"):
        path = os.path.join(build, tool)
        if not os.access(path, os.X_OK):
            sys.exit(f"check_docs: {path} is not built (make check builds it)")
        out = subprocess.run([path, "--help"], capture_output=True, text=True)
        opts |= set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", out.stdout + out.stderr))
    scripts = glob.glob(os.path.join(ROOT, "tools", "*.py")) + glob.glob(os.path.join(ROOT, "tools", "*.sh")) + \
        glob.glob(os.path.join(ROOT, "tools", "slurm", "*")) + [os.path.join(ROOT, "tests", "run_tests.sh")] + \
        glob.glob(os.path.join(ROOT, "tests", "*.py"))
    for path in scripts:
        with open(path) as f:
            text = f.read()
        opts |= set(re.findall(r"add_argument\(\s*\"(--[a-z][a-z0-9-]*)\"", text))
        opts |= set(re.findall(r"^\s*\|?\s*(--[a-z][a-z0-9-]*)[=)|]", text, re.M))  # shell case labels
    for path in glob.glob(os.path.join(ROOT, "tests", "*.sh")):
        with open(path) as f:
            opts |= set(re.findall(r"\" = (--[a-z][a-z0-9-]*) \]", f.read()))  # [ "$1" = --update ]
    return opts


def defined_functions():
    names = set()
    c_def = re.compile(r"^[A-Za-z_][^;]*$", re.M)  # a C/C++ line at column 0 without ';'
    pat = [re.compile(r"\(\*([a-z_][a-z0-9_]*)\)\(", re.M),                   # a function pointer member
           re.compile(r"^\s*def ([a-z_][a-z0-9_]*)\(", re.M),                  # Python
           re.compile(r"^\s*([a-z_][a-z0-9_]*)\(\)\s*\{", re.M),               # shell
           re.compile(r"^#define ([a-z_][a-z0-9_]*)\(", re.M)]                 # function-like macro
    for d in SOURCE_DIRS:
        for dirpath, _, files in os.walk(os.path.join(ROOT, d)):
            for name in files:
                if name.endswith((".c", ".h", ".cpp", ".py", ".sh")):
                    with open(os.path.join(dirpath, name), errors="replace") as f:
                        text = f.read()
                    for p in pat:
                        names |= set(p.findall(text))
                    if name.endswith((".c", ".h", ".cpp")):
                        for line in c_def.findall(text):
                            names |= set(re.findall(r"\b([a-z_][a-z0-9_]*)\s*\(", line))
    return names


def check_mentions(opts, funcs, errors):
    n_opt = n_fun = 0
    for path in docs():
        rel = os.path.relpath(path, ROOT) if path.startswith(ROOT) else path
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                for span in re.findall(r"`([^`]+)`", line):
                    for m in re.finditer(r"(?:^|\s)(--[a-z][a-z0-9-]*)", span):
                        n_opt += 1
                        o = m.group(1)
                        if o not in opts and o not in OUTSIDE and REMOVED.get(o) != rel:
                            errors.append(f"{rel}:{lineno}: option {o} is no tool's (not in any --help)")
                    m = re.fullmatch(r"([a-z_][a-z0-9_]*)\(\)", span.strip())
                    if m:
                        n_fun += 1
                        if m.group(1) not in funcs and m.group(1) not in OUTSIDE_FUNCS and REMOVED.get(m.group(1)) != rel:
                            errors.append(f"{rel}:{lineno}: function {m.group(1)}() is defined nowhere in the sources")
    return n_opt, n_fun


def check_pmu(toml, errors):
    with open(toml, "rb") as f:
        events = list(tomllib.load(f)["pmu"])
    with open(os.path.join(ROOT, "docs", "ports.md")) as f:
        ports = f.read()
    m = re.search(r"The `pmu_o` events, in `\[pmu\.\*\]` order: ([A-Z_,\s]+) \(NPMU = `SPU_NPMU` = (\d+)\)", ports)
    if not m:
        errors.append("docs/ports.md: the pmu_o event list (\"The `pmu_o` events, in `[pmu.*]` order: ... "
                      "(NPMU = `SPU_NPMU` = N)\") not found")
    else:
        got = [e.strip() for e in m.group(1).split(",")]
        if got != events or int(m.group(2)) != len(events):
            errors.append(f"docs/ports.md: pmu_o lists {got} (NPMU {m.group(2)}); the toml has {events} ({len(events)})")
    with open(os.path.join(ROOT, "docs", "formats.md")) as f:
        formats = f.read()
    m = re.search(r"```[^\n]*\n<cycle> pmu (.*?)```", formats, re.S)
    if not m:
        errors.append("docs/formats.md: the pmu line's block (```<cycle> pmu ...```) not found")
    else:
        got = re.findall(r"SAMPLE_([A-Z_]+)=n", m.group(1))
        if got != events:
            errors.append(f"docs/formats.md: the pmu line lists {got}; the toml has {events}")
    return len(events)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: " + __doc__.split("usage: ")[1].split("\n")[0])
    build = sys.argv[1]
    toml = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "configs", "spu.toml")
    EXTRA.extend(os.path.abspath(a) for a in sys.argv[3:])
    errors = []
    n_opt, n_fun = check_mentions(our_options(build), defined_functions(), errors)
    n_pmu = check_pmu(toml, errors)
    for e in errors:
        print("check_docs: " + e)
    print(f"check_docs: {n_opt} option and {n_fun} function mentions in {len(docs())} docs, "
          f"{n_pmu} PMU events in docs/ports.md and docs/formats.md: {len(errors)} wrong")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
