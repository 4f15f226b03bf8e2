"""Shared test helpers. Tests build into temporary folders, strict, with small inputs."""

from __future__ import annotations

import io
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


@pytest.fixture
def project_copy(tmp_path) -> Path:
    """A private copy of rules-src/ that a test may edit."""
    target = tmp_path / "project"
    shutil.copytree(RULES_SRC, target)
    return target


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
