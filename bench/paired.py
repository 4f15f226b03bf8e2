"""This checkout against an earlier commit, the same printshop command in turn (A B A B).

    .venv/bin/python bench/paired.py REV [-n RUNS] -- build players-guide --strict --quiet

A is this checkout, B is REV (a git worktree of it under /tmp, made once). Each run is a
fresh process in an empty output folder, `--source` each side's own `rules-src/`, timed by
`farm-bench` (the workplace's timer: medians of user, system and wall time and the ratio
A/B pair by pair).

Both sides' modules are compiled to bytecode first, as `make` does for this checkout: a
side without it compiled every module it imported in each run (this machine sets
PYTHONDONTWRITEBYTECODE), which made every change look 5-10 % faster than it was.

Why a script: `PYTHONPATH=/tmp/old .venv/bin/python -m printshop …` run from this checkout
runs *this checkout's* code on both sides, since `python -m` puts the current folder
first on the path (two sessions' "paired" figures were of main against itself). Both
sides here run from a neutral folder, and the script checks which `printshop` each side
imports before it times anything.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PYTHON = REPO / ".venv" / "bin" / "python"


def worktree(rev: str) -> Path:
    """A checkout of REV under /tmp (made once per commit)."""
    commit = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=REPO,
                            check=True, capture_output=True, text=True).stdout.strip()
    place = Path(tempfile.gettempdir()) / f"printshop-at-{commit[:12]}"
    if not (place / "printshop" / "__init__.py").exists():
        subprocess.run(["git", "worktree", "add", "--force", "--detach", str(place), commit],
                       cwd=REPO, check=True, stdout=subprocess.DEVNULL)
    return place


def imported_from(root: Path) -> Path:
    """The printshop package a side's command line imports (run from a neutral folder)."""
    out = subprocess.run([str(PYTHON), "-c", "import printshop; print(printshop.__file__)"],
                         cwd=tempfile.gettempdir(), env={"PYTHONPATH": str(root)},
                         check=True, capture_output=True, text=True).stdout.strip()
    return Path(out).resolve().parent.parent


def side(root: Path, out: Path, args: list[str]) -> str:
    extra = [] if "--source" in args else ["--source", str(root / "rules-src")]
    command = [str(PYTHON), "-m", "printshop", *args, *extra, "--out", str(out)]
    return (f"cd {shlex.quote(tempfile.gettempdir())} && rm -rf {shlex.quote(str(out))} && "
            f"PYTHONPATH={shlex.quote(str(root))} exec {shlex.join(command)}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--" not in argv:
        print(__doc__, file=sys.stderr)
        return 2
    cut = argv.index("--")
    parser = argparse.ArgumentParser(prog="bench/paired.py")
    parser.add_argument("rev", help="the commit to compare with (B)")
    parser.add_argument("-n", "--runs", type=int, default=5)
    parser.add_argument("--timeout", type=int, default=1800)
    options = parser.parse_args(argv[:cut])
    args = argv[cut + 1:]
    if not shutil.which("farm-bench"):
        print("bench/paired.py needs farm-bench (the workplace's timer)", file=sys.stderr)
        return 2
    a, b = REPO, worktree(options.rev)
    for root in (a, b):
        # both sides' bytecode made before the runs (`make bytecode`): with
        # PYTHONDONTWRITEBYTECODE set (this machine sets it), a side without it compiled
        # every module it imported in every run, ~0.1-0.2 s of CPU that A never paid
        subprocess.run([str(PYTHON), "-m", "compileall", "-q", str(root / "printshop")],
                       check=True, stdout=subprocess.DEVNULL)
    for root in (a, b):
        if imported_from(root) != root.resolve():
            print(f"{root}: printshop is imported from {imported_from(root)}, not from it",
                  file=sys.stderr)
            return 1
    scratch = Path(tempfile.mkdtemp(prefix="printshop-paired-"))
    print(f"A: {a} (this checkout)\nB: {b} ({options.rev})", flush=True)
    return subprocess.run(
        ["farm-bench", "-n", str(options.runs), "--timeout", str(options.timeout),
         "--vs", f"sh -c {shlex.quote(side(b, scratch / 'b', args))}",
         "--", "sh", "-c", side(a, scratch / "a", args)]).returncode


if __name__ == "__main__":
    raise SystemExit(main())
