"""Card sizes: printshop's own (`printshop/data/card-sizes.yaml`) plus the project's
(`card-sizes.yaml` beside `printshop.yaml`), which may add sizes or redefine one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from printshop.errors import PrintshopError, Problems
from printshop.source.tables import load_table

BUILTIN_SIZES = Path(__file__).resolve().parent.parent / "data" / "card-sizes.yaml"
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
    sizes = _load(BUILTIN_SIZES)
    if project_root is not None and (project_root / PROJECT_SIZES_NAME).is_file():
        sizes.update(_load(project_root / PROJECT_SIZES_NAME))
    return sizes


def _load(path: Path) -> dict[str, CardSize]:
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


def unknown_size_message(name: str, sizes: dict[str, CardSize]) -> str:
    from printshop.source.choices import close_match

    close = close_match(name, sizes)
    hint = f" (did you mean '{close}'?)" if close else ""
    return (f"unknown card size '{name}'{hint}; sizes: {', '.join(sizes)} (a project adds "
            f"its own in {PROJECT_SIZES_NAME})")


def card_size(name: str, sizes: dict[str, CardSize], where: Path | str,
              line: int | None = None, column: int | None = None) -> CardSize:
    from printshop.source.choices import fold_case

    name = fold_case(name, sizes)   # Poker is poker
    if name not in sizes:
        raise PrintshopError.at(where, unknown_size_message(name, sizes), line, column)
    return sizes[name]
