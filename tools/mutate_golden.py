#!/usr/bin/env python3
"""Golden-model mutation score: how much of golden/*.c the model's own tests
(the spec-rule tests and the hand vectors, not the lockstep, which compares
the model with the RTL) notice.

Each mutant changes one site of one file: a comparison (== != < <= > >=),
an arithmetic or bitwise operator (+ - & | ^ << >>), a logical one (&& ||),
a small constant (0 <-> 1), or deletes one assignment statement. It is
built into a scratch copy of the tree (only the golden library and its two
test programs are rebuilt) and run against tests/spec (spu-spec-tests) and
every hand vector through spu-csim. Killed: a test fails (or times out).
Stillborn: it does not compile (not counted). Survived: every test passes.

usage: mutate_golden.py [--max N] [--seed S] [--jobs J] [--report FILE]
Prints a progress line, the score and every survivor (file:line, the change).
The scratch trees are git worktrees of HEAD with the working tree's golden/*.c
copied in, so commit or stash other changes first.
"""
import argparse
import concurrent.futures as cf
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWAPS = [("==", "!="), ("!=", "=="), ("<=", "<"), (">=", ">"), ("<", "<="), (">", ">="),
         ("&&", "||"), ("||", "&&"), ("+", "-"), ("-", "+"), ("&", "|"), ("|", "&"), ("^", "|"),
         ("<<", ">>"), (">>", "<<")]
# An operator token on its own (not part of a longer one, not ->, not ++).
TOKEN = {op: re.compile(r"(?<![=!<>&|+\-^*/%])" + re.escape(op) + r"(?![=<>&|+\-^])") for op, _ in SWAPS}


def sites(path):
    """(line index, column, old, new) of every mutation of one file."""
    out = []
    lines = open(path).read().split("\n")
    in_comment = False
    for i, line in enumerate(lines):
        code = line
        if in_comment:
            if "*/" not in code:
                continue
            code = " " * (code.index("*/") + 2) + code[code.index("*/") + 2:]
            in_comment = False
        if "/*" in code and "*/" not in code[code.index("/*"):]:
            code = code[:code.index("/*")]
            in_comment = True
        code = re.sub(r"/\*.*?\*/", lambda m: " " * len(m.group(0)), code)
        code = re.sub(r'"(\\.|[^"\\])*"', lambda m: " " * len(m.group(0)), code)
        if code.lstrip().startswith("#") or not code.strip():
            continue
        for op, new in SWAPS:
            for m in TOKEN[op].finditer(code):
                if op in ("-", "+") and code[m.end():m.end() + 1] in ("-", "+", ">"):
                    continue
                if op == "&" and (code[m.end():m.end() + 1].isalpha() or code[m.end():m.end() + 1] in "(_"):
                    if code[:m.start()].rstrip()[-1:] in "(,=" or code[:m.start()].strip() == "":
                        continue  # address-of
                if op in ("<", ">") and re.match(r"\s*#\s*include", code):
                    continue
                out.append((i, m.start(), op, new))
        for m in re.finditer(r"(?<![\w.])([01])(?![\w.x])", code):
            out.append((i, m.start(), m.group(1), "1" if m.group(1) == "0" else "0"))
        s = code.strip()
        if re.match(r"^[\w\[\]\.\->*() ]+\s*([+\-|&^]|<<|>>)?=\s*[^=].*;$", s) and not s.startswith(("return", "const ", "uint", "int ", "unsigned", "static")):
            out.append((i, 0, line, ";  /* mutant: statement deleted */"))
    return out


def apply(src, mutant):
    i, col, old, new = mutant
    lines = src.split("\n")
    if old == lines[i] and col == 0:
        lines[i] = new
    else:
        lines[i] = lines[i][:col] + new + lines[i][col + len(old):]
    return "\n".join(lines)


def run(work, env):
    """0 survived, 1 killed, 2 stillborn."""
    b = os.path.join(work, "build")
    r = subprocess.run(["make", "-s", f"BUILD={b}", f"{b}/spu-spec-tests", f"{b}/spu-csim"], cwd=work,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    if r.returncode:
        return 2
    try:
        if subprocess.run([f"{b}/spu-spec-tests"], cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          timeout=60).returncode:
            return 1
        for f in sorted(os.listdir(os.path.join(work, "tests/vectors"))):
            if not f.endswith(".spt"):
                continue
            spt = os.path.join(work, "tests/vectors", f)
            got = subprocess.run([f"{b}/spu-csim", spt], cwd=work, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 timeout=60)
            if got.returncode or got.stdout != open(spt[:-4] + ".spl", "rb").read():
                return 1
    except subprocess.TimeoutExpired:
        return 1
    return 0


def worker(args):
    work, path, src, mutant, env = args
    with open(os.path.join(work, path), "w") as f:
        f.write(apply(src, mutant))
    try:
        return run(work, env)
    finally:
        with open(os.path.join(work, path), "w") as f:
            f.write(src)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max", type=int, default=0, help="mutants at most, sampled with --seed (default: all)")
    ap.add_argument("--seed", type=int, default=1, help="sampling seed (default 1)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="parallel scratch trees (default: cores)")
    ap.add_argument("--report", default=None, help="also write the survivors to FILE")
    a = ap.parse_args()
    files = sorted(f"golden/{f}" for f in os.listdir(os.path.join(ROOT, "golden")) if f.endswith(".c"))
    all_m = [(p, m) for p in files for m in sites(os.path.join(ROOT, p))]
    if a.max and a.max < len(all_m):
        all_m = random.Random(a.seed).sample(all_m, a.max)
    if not all_m:
        sys.exit("mutate: no mutation sites found")
    env = dict(os.environ, MAKEFLAGS="")
    works = []
    for j in range(a.jobs):
        w = tempfile.mkdtemp(prefix="spu-mut-")
        subprocess.run(["git", "-C", ROOT, "worktree", "add", "-q", "--detach", w, "HEAD"], check=True)
        for p in files:  # the working tree's golden, not HEAD's
            shutil.copy(os.path.join(ROOT, p), os.path.join(w, p))
        subprocess.run(["make", "-s", f"BUILD={w}/build", f"{w}/build/spu-spec-tests", f"{w}/build/spu-csim"],
                       cwd=w, stdout=subprocess.DEVNULL, check=True, env=env)
        works.append(w)
    srcs = {p: open(os.path.join(ROOT, p)).read() for p in files}
    counts = [0, 0, 0]
    survivors = []
    try:
        # Each scratch tree runs its share in turn (a tree holds one mutant at a time).
        shares = [all_m[j::len(works)] for j in range(len(works))]

        import threading
        lock = threading.Lock()
        done = [0, 0]  # mutants decided, survivors so far

        def run_share(j):
            res = []
            for p, m in shares[j]:
                r = worker((works[j], p, srcs[p], m, env))
                res.append((p, m, r))
                with lock:
                    done[0] += 1
                    done[1] += r == 0
                    if sys.stderr.isatty() or done[0] % 50 == 0:
                        print(f"\rmutate: {done[0]}/{len(all_m)} decided, {done[1]} survived so far   ",
                              end="" if sys.stderr.isatty() else "\n", file=sys.stderr, flush=True)
            return res

        with cf.ThreadPoolExecutor(len(works)) as ex:
            for res in ex.map(run_share, range(len(works))):
                for p, m, r in res:
                    counts[r] += 1
                    if r == 0:
                        survivors.append((p, m))
    finally:
        for w in works:
            subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", w], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    killed, surv, still = counts[1], counts[0], counts[2]
    lines = [f"mutate: {len(all_m)} mutants of golden/*.c: {killed} killed, {surv} survived, {still} did not compile",
             f"mutate: score {killed}/{killed + surv} = {100.0 * killed / max(1, killed + surv):.1f} % "
             f"(survivors not yet classified as equivalent count against it)"]
    for p, (i, col, old, new) in sorted(survivors):
        shown = "statement deleted" if col == 0 and new.startswith(";") else f"'{old}' -> '{new}' at column {col + 1}"
        lines.append(f"  survivor {p}:{i + 1}: {shown}: {srcs[p].split(chr(10))[i].strip()[:90]}")
    print("\n".join(lines))
    if a.report:
        with open(a.report, "w") as f:
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
