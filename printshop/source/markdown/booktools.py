"""What other book tools say about a manuscript: which files are the book, in what order,
and its title.

* mdBook (`book.toml`, chapters in `src/`, or the folder its `src` names) and GitBook keep
  the reading order in `SUMMARY.md`: the chapter files it links, in the order it links them,
  are the book, as those tools build it (a file it does not link is not in their book and
  is left out here too; `SUMMARY.md` itself is a contents page, not a chapter). A draft
  entry (`[Title]()`) has no file and is skipped.
* MkDocs (`mkdocs.yml`): the book is the pages in its `docs_dir` (`docs/`; not the
  repository's README beside it), in the order of its `nav` when it has one (a folder in the
  nav, as the literate-nav plugin allows, stands for its pages by file name), the
  pages the nav leaves out left out.
* The book's title: `title` under `[book]` in `book.toml`, or `site_name` in `mkdocs.yml`,
  when the manuscript's folder holds one (printshop.yaml's `title` still comes first).

Only files inside the manuscript's folder are read. A `book.toml` or `mkdocs.yml` that
cannot be read is a warning at its line, and the book is read without it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Callable
from urllib.parse import unquote

from printshop.deps import record_file, record_missing

SUMMARY = "SUMMARY.md"
Warn = Callable[..., None]     # (path, message, line): the reader's warnings.add


def summary_file(root: Path, warn: Warn | None = None) -> Path | None:
    """The manuscript's SUMMARY.md: mdBook's (in `src`, or the folder book.toml names), or
    GitBook's (in the manuscript's folder)."""
    folders = []
    book = _book_toml(root, warn)
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


def mkdocs_book(root: Path, files: list[Path], warn: Warn | None = None
                ) -> tuple[list[Path], bool] | None:
    """(the pages of an MkDocs manuscript, whether they are in the nav's order), or None
    for a manuscript without an mkdocs.yml."""
    config = _mkdocs_yml(root, warn)
    if config is None:
        return None
    docs = config.get("docs_dir", "docs")
    docs_dir = (root / docs).resolve() if isinstance(docs, str) else root.resolve()
    if not docs_dir.is_relative_to(root.resolve()) or not docs_dir.is_dir():
        docs_dir = root.resolve()
    pages = [p for p in files if p.resolve().is_relative_to(docs_dir)]
    nav = config.get("nav")
    if not isinstance(nav, list):
        return pages, False
    by_path = {p.resolve(): p for p in pages}
    ordered: list[Path] = []

    def walk(items) -> None:
        for item in items:
            values = item.values() if isinstance(item, dict) else [item]
            for value in values:
                if isinstance(value, list):
                    walk(value)
                elif isinstance(value, str) and "://" not in value:
                    target = (docs_dir / value).resolve()
                    if target in by_path and by_path[target] not in ordered:
                        ordered.append(by_path[target])
                    elif value.endswith("/") or target.is_dir():   # a folder's pages
                        ordered.extend(p for p in pages if p not in ordered and
                                       p.resolve().is_relative_to(target))
    walk(nav)
    return (ordered, True) if ordered else (pages, False)


def config_title(root: Path) -> str | None:
    """The book's title as book.toml or mkdocs.yml gives it, if either is in `root`."""
    book = _book_toml(root)
    if book is not None and isinstance(book.get("book"), dict):
        title = book["book"].get("title")
        if isinstance(title, str) and title.strip():
            return title.strip()
    name = (_mkdocs_yml(root) or {}).get("site_name")
    return name.strip() if isinstance(name, str) and name.strip() else None


def _mkdocs_yml(root: Path, warn: Warn | None = None) -> dict | None:
    """mkdocs.yml's settings (its `!!python/name:` and `!ENV` tags read as nothing)."""
    path = root / "mkdocs.yml"
    text = _read(path)
    if text is None:
        return None
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    try:
        data = yaml.load(text, Loader=Loader)   # noqa: S506 (a SafeLoader)
    except yaml.YAMLError as exc:
        if warn is not None:
            mark = getattr(exc, "problem_mark", None)
            warn(path, f"cannot be read ({getattr(exc, 'problem', None) or exc}); the book "
                 "is read without it", mark.line + 1 if mark is not None else None)
        return None
    return data if isinstance(data, dict) else None


def _book_toml(root: Path, warn: Warn | None = None) -> dict | None:
    path = root / "book.toml"
    text = _read(path)
    if text is None:
        return None
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        if warn is not None:
            found = re.search(r"\(at line (\d+)", str(exc))
            message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
            warn(path, f"cannot be read ({message}); the book is read without it",
                 int(found[1]) if found else None)
        return None


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
