#!/usr/bin/env python3
"""Golden-model mutation score: how much of golden/*.c the model's own tests
(the spec-rule tests and the hand vectors, not the lockstep, which compares
the model with the RTL) notice.

Each mutant changes one site of one file: a comparison (== != < <= > >=),
an arithmetic or bitwise operator (+ - & | ^ << >>), a logical one (&& ||),
a small constant (0 <-> 1), or deletes one assignment statement. It is
built into a scratch copy of the tree (only the golden library and its two
test programs are rebuilt) and run against tests/spec (spu-spec-tests) and
every hand vector through spu-csim. A mutant every test passes is built and
run once more under AddressSanitizer and UndefinedBehaviorSanitizer, so a
mutant that reads or writes out of bounds is decided by whether a test
reaches it, not by what happens to lie next to the array. Killed: a test
fails (or times out, or a sanitizer reports). Stillborn: it does not compile
(not counted). Survived: every test passes in both builds.

Equivalent mutants (no test can kill them: the program they make behaves the
same) are listed, with the argument, in tests/mutate_golden_equiv.txt, keyed
by file, function, the change and the line's text, so the key survives lines
moving. score = killed / (killed + survived - equivalent). An entry that
matches no mutant, or names a mutant that was killed, is an error: the list
cannot go stale.

usage: mutate_golden.py [--max N] [--seed S] [--jobs J] [--report FILE]
                        [--equiv FILE] [--min PERCENT] [--only REGEX]
Prints a progress line, the score and every survivor (its key, to paste into
the list when it is equivalent). Exit 1 below --min or on a bad list.
The scratch trees are git worktrees of HEAD with the working tree's golden/*.c
and tests copied in, so commit or stash other changes first.
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


# A function definition starts at column 0: "type name(" (not a preprocessor
# line, a comment or a closing brace).
FUNC_DEF = re.compile(r"^[A-Za-z_][\w\s\*]*?\b(\w+)\s*\(")


def keys(path, muts):
    """A key per mutant that does not name line numbers: (file, function,
    change, code). function is the enclosing definition, with @k when the same
    line text occurs k times in it; change is 'old' -> 'new' #n (n-th site of
    that change on the line) or 'statement deleted'; code is the stripped line."""
    lines = open(path).read().split("\n")
    func, seen = [], {}
    cur = "-"
    for i, line in enumerate(lines):
        m = FUNC_DEF.match(line)
        if m and not line.rstrip().endswith(";"):
            cur = m.group(1)
        func.append(cur)
    out, nth = [], {}
    for i, col, old, new in muts:
        code = lines[i].strip()
        occ = [j for j in range(len(lines)) if func[j] == func[i] and lines[j].strip() == code].index(i) + 1
        fn = func[i] + (f"@{occ}" if occ > 1 else "")
        if col == 0 and new.startswith(";"):
            change = "statement deleted"
        else:
            k = (i, old, new)
            nth[k] = nth.get(k, 0) + 1
            change = f"'{old}' -> '{new}' #{nth[k]}"
        out.append((path_rel(path), fn, change, code))
    return out


def path_rel(path):
    return os.path.relpath(path, ROOT)


def load_equiv(path):
    """{key: (reason, line number)} from the list; exits on a malformed line."""
    out = {}
    if not os.path.exists(path):
        return out
    for n, line in enumerate(open(path), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        f = [x.strip() for x in line.rstrip("\n").split(" :: ", 4)]
        if len(f) != 5 or not f[4]:
            sys.exit(f"mutate: {path}:{n}: want 'file :: function :: change :: code :: reason'")
        k = tuple(f[:4])
        if k in out:
            sys.exit(f"mutate: {path}:{n}: same mutant as line {out[k][1]}")
        out[k] = (f[4], n)
    return out


def show(key):
    return " :: ".join(key)


def apply(src, mutant):
    i, col, old, new = mutant
    lines = src.split("\n")
    if old == lines[i] and col == 0:
        lines[i] = new
    else:
        lines[i] = lines[i][:col] + new + lines[i][col + len(old):]
    return "\n".join(lines)


SAN_COPT = "COPT=-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"


def build(work, env, sub, extra=()):
    b = os.path.join(work, sub)
    return subprocess.run(["make", "-s", f"BUILD={b}", f"GEN={work}/build/gen", *extra, f"{b}/spu-spec-tests",
                           f"{b}/spu-csim"], cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          env=env).returncode


def run(work, env):
    """0 survived, 1 killed, 2 stillborn."""
    if build(work, env, "build"):
        return 2
    if tests(work, os.path.join(work, "build")):
        return 1
    # Every test passed: once more with the sanitizers.
    if build(work, env, "build-san", [SAN_COPT]):
        return 2
    return tests(work, os.path.join(work, "build-san"))


def tests(work, b):
    """1 when a test fails, 0 when all pass."""
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
    ap.add_argument("--equiv", default=os.path.join(ROOT, "tests/mutate_golden_equiv.txt"),
                    help="list of equivalent mutants (default tests/mutate_golden_equiv.txt)")
    ap.add_argument("--min", type=float, default=0.0, help="exit 1 when the score is below PERCENT")
    ap.add_argument("--only", default=None, metavar="REGEX",
                    help="only the mutants whose 'file :: function' matches REGEX (a change's own check), "
                         "e.g. 'spu_model.c :: (step_plain|spu_model_step)$'")
    a = ap.parse_args()
    files = sorted(f"golden/{f}" for f in os.listdir(os.path.join(ROOT, "golden")) if f.endswith(".c"))
    all_m, key_of = [], {}
    for p in files:
        ms = sites(os.path.join(ROOT, p))
        for m, k in zip(ms, keys(os.path.join(ROOT, p), ms)):
            all_m.append((p, m))
            key_of[(p, m)] = k
    equiv = load_equiv(a.equiv)
    stale = sorted(set(equiv) - set(key_of.values()), key=lambda k: equiv[k][1])
    if stale:
        sys.exit("mutate: entries of " + a.equiv + " that match no mutant (update or remove them):\n" +
                 "\n".join(f"  line {equiv[k][1]}: {show(k)}" for k in stale))
    if a.only:
        try:
            only = re.compile(a.only)
        except re.error as e:
            sys.exit(f"mutate: --only {a.only!r}: {e}")
        all_m = [(p, m) for p, m in all_m if only.search(" :: ".join(key_of[(p, m)][:2]))]
        if not all_m:
            sys.exit(f"mutate: --only {a.only!r} matches no mutant's 'file :: function'")
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
        for t in ("tests/spec", "tests/vectors"):  # the working tree's tests too
            shutil.rmtree(os.path.join(w, t))
            shutil.copytree(os.path.join(ROOT, t), os.path.join(w, t))
        works.append(w)
        if build(w, env, "build") or build(w, env, "build-san", [SAN_COPT]) or tests(w, f"{w}/build") \
                or tests(w, f"{w}/build-san"):
            sys.exit(f"mutate: the unmutated tree does not build or pass its tests in {w}")
    srcs = {p: open(os.path.join(ROOT, p)).read() for p in files}
    counts = [0, 0, 0]
    survivors, decided = [], []
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
                    decided.append((p, m, r))
                    if r == 0:
                        survivors.append((p, m))
    finally:
        for w in works:
            subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", w], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    killed, surv, still = counts[1], counts[0], counts[2]
    eq = [(p, m) for p, m in survivors if key_of[(p, m)] in equiv]
    real = [(p, m) for p, m in survivors if key_of[(p, m)] not in equiv]
    wrong = sorted(equiv[key_of[(p, m)]][1] for p, m, r in decided if r == 1 and key_of[(p, m)] in equiv)
    denom = killed + len(real)
    score = 100.0 * killed / max(1, denom)
    lines = [f"mutate: {len(all_m)} mutants of golden/*.c: {killed} killed, {surv} survived "
             f"({len(eq)} listed as equivalent), {still} did not compile",
             f"mutate: score {killed}/{denom} = {score:.1f} % of the non-equivalent mutants"]
    for p, m in sorted(real):
        lines.append(f"  survivor {p}:{m[0] + 1}: {show(key_of[(p, m)])}")
    for p, m in sorted(eq):
        lines.append(f"  equivalent {p}:{m[0] + 1}: {show(key_of[(p, m)])}")
    print("\n".join(lines))
    if a.report:
        os.makedirs(os.path.dirname(os.path.abspath(a.report)), exist_ok=True)
        with open(a.report, "w") as f:
            f.write("\n".join(lines) + "\n")
    if wrong:
        print(f"mutate: {a.equiv} lines {wrong} name mutants a test killed: they are not equivalent",
              file=sys.stderr)
        return 1
    if score < a.min:
        print(f"mutate: score {score:.1f} % is below {a.min:g} %", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
