"""`make weasyprint-suite`: WeasyPrint's own test suite as the judge of printshop's patches.

The WeasyPrint sdist on PyPI carries its tests. This fetches it once with pip (`pip
download --no-binary :all: --no-deps weasyprint==VERSION`, the version installed) into
.venv/weasyprint-suite/ (git-ignored, kept between runs), takes only its `tests/` (so the
tests import the installed WeasyPrint), and runs them twice against the installed
WeasyPrint, through tools/weasyprint_suite_plugin.py:

* with every patch applied as a render worker applies them;
* with `PRINTSHOP_WEASYPRINT_PATCHES=off` (nothing else differs).

Each test's outcome must be the same in both runs: a test that passes without the patches
and fails with them (or the reverse) is printed, and the exit status is 1, except a test
that fails without the patches and passes with printshop's *fix* patches alone (every speed
patch off, run again for those tests): a WeasyPrint bug a fix patch fixes, printed as such
(render/weasy/line_end.py fixes WeasyPrint's own test_breaking_linebox_regression_13 where
Pango hangs a trailing space). Tests that fail
in both runs (this machine lacks a font or Ghostscript) say nothing about the patches;
their count is printed.

    .venv/bin/python tools/weasyprint_suite.py [PYTEST ARGS ...]   # e.g. tests/layout
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".venv" / "weasyprint-suite"


def suite() -> Path:
    """The folder holding the installed WeasyPrint's `tests/`, fetched once."""
    wanted = version("weasyprint")
    folder = CACHE / wanted
    if (folder / "tests" / "conftest.py").exists() and (folder / "pytest.ini").exists():
        return folder
    CACHE.mkdir(parents=True, exist_ok=True)
    archive = CACHE / f"weasyprint-{wanted}.tar.gz"
    if not archive.exists():
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-binary",
                        ":all:", "--no-deps", f"weasyprint=={wanted}", "-d", str(CACHE)],
                       check=True)
    prefix = f"weasyprint-{wanted}/tests/"
    with tarfile.open(archive) as tar:
        members = [m for m in tar.getmembers() if m.name.startswith(prefix)]
        for member in members:
            member.name = member.name[len(f"weasyprint-{wanted}/"):]
        tar.extractall(folder, members=members, filter="data")
    # its own rootdir: no setting of printshop's (filterwarnings = error) applies to it
    (folder / "pytest.ini").write_text("[pytest]\n")
    return folder


def run(folder: Path, patches: str, args: list[str], label: str = ""
        ) -> tuple[dict[str, str], float]:
    """Each test's outcome, and the CPU time the run took (user + sys)."""
    outcomes = CACHE / f"outcomes-{label or patches or 'on'}.json"
    env = dict(os.environ, PRINTSHOP_WEASYPRINT_PATCHES=patches,
               PRINTSHOP_SUITE_OUTCOMES=str(outcomes),
               PYTHONPATH=os.pathsep.join([str(ROOT / "tools"), str(ROOT)]))
    before = os.times()
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                    "-p", "weasyprint_suite_plugin", *(args or ["tests"])],
                   cwd=folder, env=env, stdout=subprocess.DEVNULL)
    after = os.times()
    cpu = (after.children_user - before.children_user) + \
        (after.children_system - before.children_system)
    return json.loads(outcomes.read_text()), cpu


def main(args: list[str]) -> int:
    folder = suite()
    started = time.monotonic()
    ours, our_cpu = run(folder, "", args)
    theirs, their_cpu = run(folder, "off", args)
    wall = time.monotonic() - started
    differ = sorted(name for name in ours.keys() | theirs.keys()
                    if ours.get(name) != theirs.get(name))
    # a test that fails without the patches and passes with them may be one printshop's
    # fix patches fix: run again with the fixes alone (every speed patch off), and it is
    # fixed by them if it passes there too; the speed patches must change no outcome
    failing = [name for name in differ
               if theirs.get(name) in ("failed", "error") and ours.get(name) == "passed"]
    fixed = []
    if failing:
        from equivalence import speed_patches

        alone, _ = run(folder, ",".join(speed_patches()), failing, label="fixes")
        fixed = [name for name in failing if alone.get(name) == "passed"]
        differ = [name for name in differ if name not in fixed]
    counts = {}
    for outcome in ours.values():
        counts[outcome] = counts.get(outcome, 0) + 1
    both_failed = sum(1 for name, outcome in theirs.items()
                      if outcome in ("failed", "error") and ours.get(name) == outcome)
    print(f"WeasyPrint {version('weasyprint')}'s own tests, {len(ours)} run with printshop's "
          f"patches and without: {', '.join(f'{n} {k}' for k, n in sorted(counts.items()))} "
          f"with them")
    print(f"  {both_failed} fail with and without the patches (this machine, not the patches)"
          + ("" if shutil.which("gs") else "; Ghostscript is not installed: the drawing "
             "tests drew with pdftoppm, and most of them fail both ways"))
    print(f"  time: {wall:.0f} s wall for both runs; CPU {our_cpu:.0f} s with the patches, "
          f"{their_cpu:.0f} s without")
    for name in fixed:
        print(f"  FIXED {name}: fails without the patches, passes with printshop's fix "
              "patches alone (and with all of them)")
    for name in differ:
        print(f"  DIFFERS {name}: {ours.get(name, 'not run')} with the patches, "
              f"{theirs.get(name, 'not run')} without")
    if differ:
        print(f"{len(differ)} tests differ with printshop's patches")
        return 1
    print(("every other test" if fixed else "every test")
          + " has the same outcome with printshop's patches")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
