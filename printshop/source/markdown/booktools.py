"""What other book tools say about a manuscript: its reading order and its title.

* mdBook (`book.toml`, chapters in `src/`, or the folder its `src` names) and GitBook keep
  the reading order in `SUMMARY.md`: the chapter files it links, in the order it links them,
  are the book, as those tools build it (a file it does not link is not in their book and
  is left out here too; `SUMMARY.md` itself is a contents page, not a chapter). A draft
  entry (`[Title]()`) has no file and is skipped.
* The book's title: `title` under `[book]` in `book.toml`, or `site_name` in `mkdocs.yml`,
  when the manuscript's folder holds one (printshop.yaml's `title` still comes first).

Only files inside the manuscript's folder are read.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote

from printshop.deps import record_file, record_missing

SUMMARY = "SUMMARY.md"


def summary_file(root: Path) -> Path | None:
    """The manuscript's SUMMARY.md: mdBook's (in `src`, or the folder book.toml names), or
    GitBook's (in the manuscript's folder)."""
    folders = []
    book = _book_toml(root)
    if book is not None:
        source = book.get("book", {}).get("src", "src") if isinstance(book.get("book"), dict) \
            else "src"
        if isinstance(source, str):
            folders.append(root / source)
    folders.append(root)
    for folder in folders:
        candidate = folder / SUMMARY
        try:
            inside = candidate.resolve().is_relative_to(root.resolve())
            # the name exactly: on a file system that ignores case, a chapter called
            # summary.md must not become the book's order
            named = SUMMARY in os.listdir(folder)
        except OSError:
            continue
        if inside and named and candidate.is_file():
            return candidate
    return None


def summary_order(summary: Path, tokens) -> dict[Path, int]:
    """Each chapter file SUMMARY.md links (resolved), with its place in the book."""
    order: dict[Path, int] = {}
    for block in tokens:
        if block.type != "inline" or not block.children:
            continue
        for child in block.children:
            if child.type != "link_open":
                continue
            href = unquote((child.attrGet("href") or "").split("#")[0]).strip()
            if not href or "://" in href or not href.lower().endswith(".md"):
                continue     # a draft chapter, or a link out of the book
            path = (summary.parent / href.lstrip("/")).resolve()
            order.setdefault(path, len(order))
    return order


def config_title(root: Path) -> str | None:
    """The book's title as book.toml or mkdocs.yml gives it, if either is in `root`."""
    book = _book_toml(root)
    if book is not None and isinstance(book.get("book"), dict):
        title = book["book"].get("title")
        if isinstance(title, str) and title.strip():
            return title.strip()
    mkdocs = root / "mkdocs.yml"
    text = _read(mkdocs)
    if text is not None:
        for line in text.splitlines():
            # (read line by line: MkDocs' files carry !!python tags a safe loader refuses)
            if line.startswith("site_name:"):
                name = line[len("site_name:"):].strip().strip("'\"")
                return name or None
    return None


def _book_toml(root: Path) -> dict | None:
    text = _read(root / "book.toml")
    if text is None:
        return None
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None     # (mdBook says what is wrong with it; the book is built without it)


def _read(path: Path) -> str | None:
    """The file's text, recorded as an input of the build (its absence too: a book.toml
    added later changes the book)."""
    try:
        data = path.read_bytes()
    except OSError:
        record_missing(path)
        return None
    record_file(path, data)
    return data.decode("utf-8", errors="replace")
