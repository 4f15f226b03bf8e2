"""Helpers for the tests of the games in games/: build a game's products once, read their
text back from the PDFs, and check that every value of the tables a sheet prints is on
paper."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import REPO, pdf_reader
from printshop.builder import build_project
from printshop.products.common import signed
from printshop.project import Project
from printshop.source.sheets import load_sheet

GAMES = REPO / "games"


def build_game(name: str, out: Path) -> Path:
    """Every product of games/NAME, strict (a WeasyPrint warning fails it), into `out`."""
    report = build_project(GAMES / name, out, None, strict=True)
    assert report.warnings == []
    return out


def squash(text: str) -> str:
    """Text as a PDF's text layer gives it back: no whitespace, no soft line-end hyphens,
    plain quotes, no Markdown emphasis."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"') \
        .replace("\u201d", '"').replace("\u00a0", " ")
    text = re.sub(r"[\u2010-]\n", "", text)         # a word hyphenated at a line's end
    text = re.sub(r"\*+", "", text)
    return re.sub(r"\s+", "", text)


def pdf_squashed(pdf: Path) -> str:
    return squash("\n".join(page.extract_text() or "" for page in pdf_reader(pdf).pages))


def cell_text(row, column) -> str | None:
    value = row.get(column.key)
    if value is None:
        return None
    if column.type == "signed":
        return signed(value)
    if column.type == "list":
        return ", ".join(value)
    return str(value)


def unprinted_cells(project: Project, sheet_ids: list[str], text: str) -> list[str]:
    """Every cell (and roll) of every table the sheets name that is not in `text`."""
    missing = []
    for sheet_id in sheet_ids:
        sheet = load_sheet(project.root / "sheets" / f"{sheet_id}.yaml")
        for table_id, _line, _ in sheet.table_refs():
            table = project.tables[table_id]
            for row in table.rows:
                if table.dice and squash(row.roll_text) not in text:
                    missing.append(f"{sheet_id}: {table_id} roll {row.roll_text}")
                for column in table.printed_columns:
                    value = cell_text(row, column)
                    if value is not None and squash(value) not in text:
                        missing.append(f"{sheet_id}: {table_id} {value!r}")
    return missing


def card_faces(deck, text: str, keys: list[str]) -> list[str]:
    """The `keys` fields of every card of `deck` that are not in `text`."""
    missing = []
    for card in deck.cards:
        fields = card.data.get("fields") or {}
        for key in keys:
            value = fields.get(key)
            if value and squash(str(value)) not in text:
                missing.append(f"{card.id}: {key} {value!r}")
    return missing
