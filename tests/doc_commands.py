#!/usr/bin/env python3
"""Run every command block of README.md and docs/*.md, as a user would.

Every fenced block says what it is in its info string:
  ```sh          commands: run here, line by line (a line may continue with \\);
                 ```sh exit=N: the last one shows a failure, exiting with N
  ```text        output or a synopsis: not run; a line of it that looks like
                 a command (make ..., build/...) must hold a placeholder
                 (an UPPER-CASE file name, [optional], <angle>, ...)
  ```text output the lines a run printed: each must be a line of what the
                 doc's sh block before it printed ("..." elides; a line
                 ending in "..." matches the line's start)
  ```c file=NAME a source the commands after it use: written as NAME
  ```c, ```verilog, ```toml, ...  code, not run
A block with no info string is an error: a new block must say what it is.

Each doc runs in its own directory: links to the tree's top-level entries
(build/ is the real, built one), HOME a fresh directory inside it (so
`make install PREFIX=$HOME/...` installs there), the environment carried
from one sh block of the doc to the next. A line of a long or root-only
command (a test tier, the FPGA flow, ssh hosts; LONG below) is not run: a
make command is checked instead (make reads the Makefile with its variables,
and has each target), any other is skipped with its reason in a SKIP line.

A section that runs build/X has, earlier in the same section, a `make T`
whose target builds X (by the Makefile's own database, `make -qp`), so
every doc says which target builds what it runs; and `make` (make all)
builds every tool and library the docs run (the DPI benches of `make dpi`
aside: they are tests, one Verilator build per configuration).

usage: doc_commands.py [--static] [MD...]   (default: README.md docs/*.md)
  --static  only the checks that run nothing (block kinds, make targets)
One line per block: PASS, FAIL (with the line and its output) or SKIP.
"""
import argparse
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KINDS = {"sh", "text", "c", "verilog", "systemverilog", "toml", "python", "json"}
# Commands not run here, each with why: a make command among them is checked
# instead (make_known()), so its target and variables must still exist.
LONG = [
    (r"^make (run|check|test|test-full)\b", "a test tier or make run: CI runs it (make test-full)"),
    (r"^make (fpga|regress|regress-parallel|cov)\b", "minutes of work: the fpga, regress and cov suites run it"),
    (r"^make regress-slurm-check\b", "root: a Slurm cluster on this machine (make test-full runs it)"),
    (r"^tools/deps\.sh --install\b", "installs Debian packages as root"),
    (r"^python3 tools/regress\.py\b", "hours of lockstep: the regress suite runs tools/regress.py"),
    (r"^tools/regress_parallel\.sh .*-S ", "needs the ssh hosts it names"),
    (r"^tools/slurm/submit\.sh\b", "needs a Slurm cluster and its shared directory"),
]
COMMANDISH = re.compile(r"^(make|build/|tools/|python3|cc|verilator|iverilog|vvp|perf|fusesoc)\b")
PLACEHOLDER = re.compile(r"\b[A-Z][A-Z0-9_]*\.[a-z]+\b|\[|<[a-zA-Z]|\.\.\.|\bN\b|\bFILE\b|\bDIR\b")
BLOCK = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)
HEADING = re.compile(r"^#{1,6} ", re.M)


class Block:
    def __init__(self, path, line, info, body, section):
        self.path, self.line, self.body, self.section = path, line, body, section
        words = info.split()
        self.kind = words[0] if words else ""
        self.attrs = dict(w.split("=", 1) if "=" in w else (w, "") for w in words[1:])
        self.where = f"{os.path.relpath(path, ROOT)}:{line}"

    def commands(self):
        """The logical lines of an sh block, with their first line numbers."""
        out, cur, first = [], "", 0
        for i, raw in enumerate(self.body.splitlines()):
            if not cur:
                first = self.line + 1 + i
            cur += raw.rstrip()
            if cur.endswith("\\"):
                cur = cur[:-1] + " "
                continue
            if cur.strip():
                out.append((first, cur.strip()))
            cur = ""
        return out


def blocks(path):
    txt = open(path, encoding="utf-8").read()
    heads = [m.start() for m in HEADING.finditer(txt)]
    for m in BLOCK.finditer(txt):
        section = sum(1 for h in heads if h < m.start())
        yield Block(path, txt.count("\n", 0, m.start()) + 1, m.group(1).strip(), m.group(2), section)


def long_reason(cmd):
    for pat, why in LONG:
        if re.search(pat, cmd):
            return why
    return None


def if_installed(n, cmd):
    """The command, or (its program not on PATH when it comes to run: an
    earlier line may have put it there) a SKIP line saying so."""
    prog = cmd.split()[0]
    if "/" in prog or "=" in prog:
        return cmd
    return (f"if type {shlex.quote(prog)} >/dev/null 2>&1; then {cmd}\n"
            f"else echo 'doc_commands-skip: line {n}: {prog} is not installed here"
            f" (make test-full installs what it lacks)'; fi")


def make_database():
    """target -> the files it builds directly, from make's own database."""
    p = subprocess.run(["make", "-qp"], cwd=ROOT, capture_output=True, text=True)
    db = {}
    for line in p.stdout.splitlines():
        m = re.match(r"^([a-z][a-z-]*): ?(.*)$", line)
        if m and m.group(1) not in db:
            db[m.group(1)] = m.group(2).split()
    return db


def made_by(cmd, db):
    """The files the make command (or the make commands of an && chain) builds."""
    built = set()
    for part in re.split(r"&&|;", cmd):
        words = part.split()
        if words[:1] != ["make"]:
            continue
        for w in words[1:]:
            if w.startswith("-") or "=" in w or w.startswith("#"):
                continue
            built.update(db.get(w, []))
            built.update(f for t in db.get(w, []) for f in db.get(t, []))
    return built


def used_from_build(cmd):
    """What a command runs or links from build/: the first word of each
    command of a pipeline or list, and any library."""
    used = [w for w in re.split(r"\s+", cmd) if re.match(r"build/\S*lib\w+\.(a|so)$", w)]
    for part in re.split(r"&&|\|\||[;|]", cmd):
        words = part.split()
        if words and words[0].startswith("build/"):
            used.append(words[0])
    return used


def static_errors(bl, db, built):
    """What is wrong with one block without running it (built: the section's files so far)."""
    errs = []
    if bl.kind not in KINDS:
        errs.append(f"a fenced block needs an info string, one of {' '.join(sorted(KINDS))} (here '{bl.kind}')")
        return errs
    if bl.kind == "text" and "output" not in bl.attrs:
        for n, cmd in bl.commands():
            if COMMANDISH.match(cmd) and not PLACEHOLDER.search(cmd):
                errs.append(f"line {n} is a command with no placeholder: make the block ```sh so it is run: {cmd[:60]}")
    if bl.kind != "sh":
        return errs
    for n, cmd in bl.commands():
        built.update(made_by(cmd, db))
        for tool in used_from_build(cmd):
            if tool not in built:
                errs.append(f"line {n} runs {tool}, but no `make TARGET` earlier in its section builds it")
    return errs


def not_in_all(bls, db):
    """`make` (make all) builds every tool and library the docs use."""
    everything = made_by("make all", db)
    missing = {t for bl in bls if bl.kind == "sh" for _, c in bl.commands()
               for t in used_from_build(c) if t not in everything and not t.startswith("build/dpi/")}
    for t in sorted(missing):
        print(f"FAIL {bls[0].where}: the doc runs {t}, which make all does not build")
    return len(missing)


def run_doc(path, bls, sandbox, out, db):
    """Run one doc's blocks in order; print a line per block; return failures."""
    fails, last = 0, ""
    env_file = os.path.join(sandbox, ".doc_env")
    for bl in bls:
        if bl.kind == "c" and "file" in bl.attrs:
            with open(os.path.join(sandbox, bl.attrs["file"]), "w") as f:
                f.write(bl.body)
        elif bl.kind == "text" and "output" in bl.attrs:
            missing = output_missing(bl.body, last)
            fails += report(out, bl, not missing, "printed by the block before" if not missing
                            else f"not printed by the block before: {missing[:200]}")
        elif bl.kind == "sh":
            ok, last, detail = run_block(bl, sandbox, env_file, out, db)
            fails += report(out, bl, ok, detail)
    return fails


def report(out, bl, ok, detail):
    out.write(f"{'PASS' if ok else 'FAIL'} {bl.where}{' (' + detail + ')' if ok else ': ' + detail}\n")
    out.flush()
    return 0 if ok else 1


def output_missing(body, printed):
    lines = [l.rstrip() for l in printed.splitlines()]
    for want in body.splitlines():
        want = want.rstrip()
        if not want or want == "...":
            continue
        if want.endswith("..."):
            if not any(l.startswith(want[:-3].rstrip()) for l in lines):
                return want
        elif want not in lines:
            return want
    return None


def make_known(cmd, db):
    """A shell line that checks a make command without running it: its
    variables parse (make reads the Makefile with them and prints its
    database; CONFIGS=nope stops there) and each target is one it has."""
    words = [w for w in shlex.split(cmd.split(" #")[0])[1:]]
    assigns = [w for w in words if "=" in w and not w.startswith("-")]
    targets = [w for w in words if "=" not in w and not w.startswith("-")]
    unknown = [t for t in targets if t not in db]
    if unknown:
        return f"echo 'doc_commands: make has no target {unknown[0]}' >&2; false"
    return "make -qp " + " ".join(shlex.quote(a) for a in assigns) + " >/dev/null 2>.make_err || [ $? = 1 ] && ! grep -q . .make_err || { cat .make_err >&2; false; }"


def run_block(bl, sandbox, env_file, out, db):
    script = ["set -eo pipefail", f"[ ! -f {env_file} ] || . {env_file}",
              "trap 'echo \"doc_commands: this line failed: $BASH_COMMAND\" >&2' ERR"]
    ran, skipped = 0, []
    for n, cmd in bl.commands():
        cmd = re.sub(r"\s+#[^'\"]*$", "", cmd)
        why = long_reason(cmd)
        if why and cmd.startswith("make "):
            script.append(make_known(cmd, db))
        elif why:
            skipped.append(f"line {n}: {why}")
            continue
        else:
            script.append(if_installed(n, cmd))
        ran += 1
    if "exit" in bl.attrs:
        # The block shows a failing run: its last command exits with this.
        script[-1] = f"{{ {script[-1]}; }} && rc=0 || rc=$?; [ $rc = {bl.attrs['exit']} ] || " \
                     f"{{ echo \"doc_commands: the last command exited $rc, the doc says {bl.attrs['exit']}\" >&2; false; }}"
    script.append(f"export -p > {env_file}")
    t0 = time.time()
    p = subprocess.run(["bash", "-c", "\n".join(script)], cwd=sandbox, capture_output=True, text=True,
                       env=dict(os.environ, HOME=os.path.join(sandbox, "home")), timeout=1800)
    printed = p.stdout + p.stderr
    absent = re.findall(r"^doc_commands-skip: (.*)$", p.stdout, re.M)
    skipped, ran = skipped + absent, ran - len(absent)
    for s in skipped:
        out.write(f"SKIP {bl.where} {s}\n")
    if p.returncode != 0:
        return False, printed, f"exit {p.returncode}: " + " | ".join(printed.strip().splitlines()[-6:])
    return True, printed, f"{ran} command{'s' if ran != 1 else ''}, {time.time() - t0:.0f} s"


def make_sandbox(top):
    d = tempfile.mkdtemp(prefix="doc.", dir=top)
    for name in os.listdir(ROOT):
        os.symlink(os.path.join(ROOT, name), os.path.join(d, name))
    os.mkdir(os.path.join(d, "home"))
    return d


def main(argv):
    ap = argparse.ArgumentParser(description="Run every command block of README.md and docs/*.md.")
    ap.add_argument("--static", action="store_true", help="only the checks that run nothing")
    ap.add_argument("md", nargs="*", help="the Markdown files (default: README.md docs/*.md)")
    args = ap.parse_args(argv)
    static, files = args.static, args.md
    if not files:
        files = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    db = make_database()
    fails = 0
    top = tempfile.mkdtemp(prefix="doc_commands.")
    try:
        for path in files:
            bls, errs, built, section = list(blocks(path)), [], set(), None
            for bl in bls:
                if bl.section != section:
                    built, section = set(), bl.section
                errs += [f"{bl.where}: {e}" for e in static_errors(bl, db, built)]
            for e in errs:
                print(f"FAIL {e}")
            fails += len(errs)
            fails += not_in_all(bls, db)
            if not static and not errs and any(b.kind == "sh" for b in bls):
                fails += run_doc(path, bls, make_sandbox(top), sys.stdout, db)
            elif not errs and bls:
                print(f"PASS {os.path.relpath(path, ROOT)} ({len(bls)} blocks, each says what it is, nothing run)")
    finally:
        shutil.rmtree(top, ignore_errors=True)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
