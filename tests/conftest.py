"""Shared test helpers. Tests build into temporary folders, strict, with small inputs."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from printshop.cli import cli

REPO = Path(__file__).resolve().parent.parent
RULES_SRC = REPO / "rules-src"
FIXTURES = Path(__file__).resolve().parent / "fixtures"

# A two-card deck file (decks/NAME.yaml) for tests of deck loading and card rendering. Tests
# that assert line numbers count on this layout: `code` on line 2, `face` on 6, the second
# row on 12.
SMALL_DECK = """\
title: Tiny Deck
code: TD
colour: "#1f4a8a"
accent: "#ddccaa"
back: {title: Tiny, emblem: torch}
face: {title: name, text: [effect]}
columns:
  - {key: name, label: Name}
  - {key: effect, label: Effect}
rows:
  - {name: First Card, effect: The first card's text.}
  - {name: Second Card, effect: The second card's text.}
"""


@pytest.fixture(autouse=True)
def _printshop_settings_restored():
    """Each test leaves printshop's settings in the environment (PRINTSHOP_*) as it found
    them. A command run in this process (run_cli) with `--serial` sets PRINTSHOP_SERIAL for
    its children; left set, every later pool ran its tasks in pytest itself, and a test's
    worker that kills itself killed the whole run. (Not the rest of the environment: a
    render in this process points fontconfig at the bundled fonts, and fontconfig, loaded
    once, must keep finding that file.)"""
    saved = {k: v for k, v in os.environ.items() if k.startswith("PRINTSHOP_")}
    yield
    for name in [k for k in os.environ if k.startswith("PRINTSHOP_")]:
        if name not in saved:
            del os.environ[name]
    os.environ.update(saved)


@pytest.fixture
def project_copy(tmp_path) -> Path:
    """A private copy of rules-src/ that a test may edit."""
    target = tmp_path / "project"
    shutil.copytree(RULES_SRC, target)
    return target


def own_pregens_css(project: Path, after: str = "", before: str = "") -> None:
    """Give a project copy its own templates/css/pregens.css: the shipped one with `before`
    and `after` around it (a rule that makes sheets overflow, an @import to refuse ...)."""
    own = project / "templates" / "css"
    own.mkdir(parents=True, exist_ok=True)
    css = (REPO / "templates" / "css" / "pregens.css").read_text()
    (own / "pregens.css").write_text(before + css + after)


def run_cli(*args, cwd: Path | None = None):
    """Run `printshop ARGS` in-process; returns click's Result (exit_code, output)."""
    import os

    runner = CliRunner()
    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        return runner.invoke(cli, [str(a) for a in args], catch_exceptions=False)
    finally:
        os.chdir(old)


def pdf_reader(path_or_bytes):
    from pypdf import PdfReader

    if isinstance(path_or_bytes, (bytes, bytearray)):
        return PdfReader(io.BytesIO(path_or_bytes))
    return PdfReader(str(path_or_bytes))


def pdf_text(path_or_bytes) -> str:
    reader = pdf_reader(path_or_bytes)
    return "\n".join(page.extract_text() or "" for page in reader.pages)


def folder_snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes: for 'nothing changed' assertions."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def pdf_colours(path_or_bytes, page: int = 0) -> set[str]:
    """The colours a page draws with, from its content stream and the forms and patterns it
    uses: '#rrggbb' for DeviceRGB, 'cmyk C M Y K' (per cent) for DeviceCMYK, 'gray G'."""
    import pikepdf

    doc = pikepdf.open(io.BytesIO(path_or_bytes) if isinstance(path_or_bytes, bytes)
                       else path_or_bytes)
    found: set[str] = set()

    def walk(obj, resources, depth=0):
        for instruction in pikepdf.parse_content_stream(obj):
            op = str(instruction.operator)
            numeric = op in ("rg", "RG", "k", "K", "g", "G") or (
                op in ("scn", "SCN", "sc", "SC") and len(instruction.operands) == 4)
            values = [float(v) for v in instruction.operands] if numeric else []
            if op in ("rg", "RG"):
                found.add("#" + "".join(f"{round(v * 255):02x}" for v in values))
            elif op in ("k", "K") or (op in ("scn", "SCN", "sc", "SC")
                                      and len(instruction.operands) == 4):
                found.add("cmyk " + " ".join(f"{round(v * 100):g}" for v in values))
            elif op in ("g", "G"):
                found.add(f"gray {values[0]:g}")
            elif op == "Do" and depth < 8:
                xobject = resources.XObject[instruction.operands[0]]
                if xobject.get("/Subtype") == "/Form":
                    walk(xobject, xobject.get("/Resources", resources), depth + 1)
            if op in ("scn", "SCN") and len(instruction.operands) == 1 and depth < 8:
                pattern = resources.Pattern[instruction.operands[0]]
                if int(pattern.get("/PatternType", 0)) == 1:   # a tiling pattern draws
                    walk(pattern, pattern.get("/Resources", resources), depth + 1)

    target = doc.pages[page]
    walk(target, target.Resources)
    return found


# --- the whole kit, built once for the session in two different worlds ------------------------
WORLDS = [("1", "UTC", 1_700_000_000, "world 0"),
          ("4242", "America/Lima", 978_307_200, "world 1 ü%")]


@pytest.fixture(scope="session")
def kit_in_two_worlds(tmp_path_factory) -> list[Path]:
    """Every product of rules-src/ built twice, at once, by the command line (strict, one
    worker each), from copies of rules-src/ in different folders with different file
    times, hash seeds, time zones and working folders: the two output folders. Tests
    compare the two (same inputs, same bytes: tests/test_reproducible.py) and read the
    first (tests/test_products_guide.py, tests/test_kit_readback.py)."""
    import os
    import subprocess
    import sys

    runs = []
    for hash_seed, zone, mtime, name in WORLDS:
        world = tmp_path_factory.mktemp("worlds") / name
        source = world / "rules-src"
        shutil.copytree(RULES_SRC, source)
        for path in [source, *source.rglob("*")]:
            os.utime(path, (mtime, mtime))
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "TZ": zone}
        env.pop("SOURCE_DATE_EPOCH", None)
        process = subprocess.Popen(
            [sys.executable, "-m", "printshop", "build", "--strict", "-j", "1",
             "--source", str(source), "--out", str(world / "out")],
            cwd=world, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        runs.append((process, world / "out"))
    outs = []
    for process, out in runs:
        _, stderr = process.communicate(timeout=1800)
        assert process.returncode == 0, stderr
        assert "warning" not in stderr
        outs.append(out)
    return outs
