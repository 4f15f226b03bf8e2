"""The credits a product prints for the pictures and icons it printed (products/markup.py
gathers them), from the `credits.yaml` beside each file (source/credits.py).

A picture placed by printshop's own art features (card art, a field's picture, the book's
cover and `::art`) whose folder does not credit it is a warning at that credits file.
"""

from __future__ import annotations

from pathlib import Path

from printshop.errors import Problem, display_path
from printshop.products.markup import Printed, current
from printshop.source.credits import CREDITS_FILE, Credit, credit_for, missing_credit_message


def shown(path: Path, root: Path) -> str:
    try:
        return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return Path(path).name


def picture_credits(printed: Printed, root: Path, warn: bool = True) -> list[Credit]:
    """Each picture's credit, in the order first printed; an incomplete one warned about."""
    out = []
    for name, path in printed.pictures.items():
        credit = credit_for(Path(path), name)
        if warn and not credit.complete:
            _warn(Path(path), credit, root)
        out.append(credit)
    return out


def icon_credits(printed: Printed, root: Path) -> list[dict]:
    """The icons printed, grouped by where they come from: [{"names", "authors", "licence",
    "source"}], e.g. torch and hood by Delapouite and Lorc, game-icons.net, CC BY 3.0."""
    groups: dict[tuple, dict] = {}
    for name, path in sorted(printed.icons.items()):
        credit = credit_for(Path(path), name)
        key = (credit.licence, credit.source)
        group = groups.setdefault(key, {"names": [], "authors": [], "licence": credit.licence,
                                        "source": credit.source,
                                        "licence_url": credit.licence_url})
        group["names"].append(name)
        if credit.author and credit.author not in group["authors"]:
            group["authors"].append(credit.author)
        if not credit.complete:
            _warn(Path(path), credit, root)
    return list(groups.values())


def credits_line(printed: Printed, root: Path) -> str:
    """One line for a sheet's margin or footer: every picture and every icon's authors."""
    parts = [credit.line() for credit in picture_credits(printed, root)]
    for group in icon_credits(printed, root):
        who = ", ".join(group["authors"]) or "uncredited"
        text = f"Icons by {who}"
        extra = ", ".join(p for p in (group["source"], group["licence"]) if p)
        parts.append(text + (f" ({extra})" if extra else ""))
    return "; ".join(parts)


def _warn(path: Path, credit: Credit, root: Path) -> None:
    collector = current()
    if collector is None:
        return
    folder = shown(path.parent, root)
    collector.warn(Problem(display_path(path.parent / CREDITS_FILE),
                           missing_credit_message(credit, folder)))
