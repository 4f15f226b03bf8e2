"""What serve publishes to its pages (the event stream's state) and the small facts it is
made of: files' versions, PDFs' page counts, products' titles."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class State:
    build: int = 0                      # completed steps (a file or a problem changed)
    building: bool = False
    products: list[str] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)      # output name → version
    outputs: dict[str, list[str]] = field(default_factory=dict)  # product → its files
    problems: dict[str, list[str]] = field(default_factory=dict)  # product or "" → lines
    warnings: dict[str, list[str]] = field(default_factory=dict)  # product → lines
    previews: dict[str, dict] = field(default_factory=dict)   # book → its chapter preview
    titles: dict[str, str] = field(default_factory=dict)      # product → its title
    pages: dict[str, int] = field(default_factory=dict)       # PDF → its page count
    jobs: list[dict] = field(default_factory=list)             # the form page's packs, kits

    def as_json(self) -> dict:
        lines: list[str] = []
        for product_problems in self.problems.values():
            lines += [p for p in product_problems if p not in lines]
        return {"build": self.build, "building": self.building, "products": self.products,
                "files": self.files, "outputs": self.outputs, "problems": lines,
                "warnings": {name: list(w) for name, w in self.warnings.items() if w},
                "titles": self.titles, "pages": self.pages, "previews": self.previews,
                "jobs": self.jobs}


def product_title(project, product) -> str:
    """What the index calls a product: its own title, else the game's (a book), else its
    name."""
    own = getattr(product.options, "title", None)
    if own:
        return own
    if product.kind == "guide":
        return project.title
    return product.name.replace("-", " ").capitalize()


def page_count(path: Path) -> int | None:
    try:   # pikepdf, not pdfium: the server's thread renders pages with pdfium meanwhile
        import pikepdf

        with pikepdf.open(path) as document:
            return len(document.pages)
    except Exception:   # noqa: BLE001 - a file replaced meanwhile: counted next time
        return None


def count_phrase(errors, warnings) -> str:
    from printshop.diagnostics import summary

    return summary(len(set(errors)), len(set(warnings) - set(errors)))


def version_of(path: Path) -> str | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return hashlib.sha256(f"{stat.st_mtime_ns}:{stat.st_size}:{stat.st_ino}".encode()) \
        .hexdigest()[:12]


def mtime_of(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return 0


def shown_path(path: str, root: Path) -> str:
    try:
        return Path(path).relative_to(root).as_posix()
    except ValueError:
        return path


def internal_error(exc: BaseException) -> str:
    return f"printshop: internal error: {exc.__class__.__name__}: {exc}"
