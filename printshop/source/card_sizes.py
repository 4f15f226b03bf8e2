"""Card sizes: printshop's own (`printshop/data/card-sizes.yaml`) plus the project's
(`card-sizes.yaml` beside `printshop.yaml`), which may add sizes or redefine one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from printshop.errors import PrintshopError, Problems
from printshop.source.builtin_data import BuiltInData
from printshop.source.tables import load_table

PROJECT_SIZES_NAME = "card-sizes.yaml"
NEEDED_COLUMNS = ("id", "width", "height")


@dataclass(frozen=True)
class CardSize:
    id: str
    name: str
    width: float   # mm
    height: float  # mm
    path: Path     # where it was declared (for messages)
    line: int


def load_card_sizes(project_root: Path | None = None) -> dict[str, CardSize]:
    return CARD_SIZES.load(project_root)


def _read(path: Path) -> dict[str, CardSize]:
    table = load_table(path, "card-sizes")
    problems = Problems()
    keys = {c.key: c for c in table.columns}
    for key in NEEDED_COLUMNS:
        if key not in keys:
            problems.add(path, f"a card-sizes file needs a column '{key}' (columns: id, name, "
                         "width, height)", 1)
    for key in ("width", "height"):
        if key in keys and keys[key].type != "number":
            problems.add(path, f"column '{key}' must have type: number", 1)
    problems.raise_if_any()
    sizes: dict[str, CardSize] = {}
    for row in table.rows:
        size_id = str(row["id"])
        width, height = row["width"], row["height"]
        if not (5 <= width <= 1000 and 5 <= height <= 1000):
            problems.add(path, f"card size '{size_id}': {width:g} × {height:g} mm is not a "
                         "card (each side 5 to 1000 mm)", row.line)
        if size_id in sizes:
            problems.add(path, f"card size '{size_id}' is declared twice (first on line "
                         f"{sizes[size_id].line})", row.line)
        sizes[size_id] = CardSize(size_id, str(row.get("name") or size_id), width, height,
                                  path, row.line)
    problems.raise_if_any()
    return sizes


CARD_SIZES = BuiltInData(PROJECT_SIZES_NAME, _read, "card size", "sizes")


def unknown_size_message(name: str, sizes: dict[str, CardSize]) -> str:
    return CARD_SIZES.unknown(name, sizes)


def card_size(name: str, sizes: dict[str, CardSize], where: Path | str,
              line: int | None = None, column: int | None = None) -> CardSize:
    from printshop.source.choices import fold_case

    name = fold_case(name, sizes)   # Poker is poker
    if name not in sizes:
        raise PrintshopError.at(where, unknown_size_message(name, sizes), line, column)
    return sizes[name]
