"""From files to chapters: the order a manuscript's files are read in (index files first,
front matter's `order`/`nav_order`/`weight`, folder notes before their folders), the book's
title from its opening file, and the split of a file's tokens into chapters at `#` headings
(a note with none gets its title from front matter or its file name)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from markdown_it.token import Token

from printshop.source.markdown.frontmatter import FrontMatter
from printshop.source.markdown.links import Heading, SourceFile
from printshop.source.markdown.slugs import Slugger, readable_name, unique_id

INDEX_NAMES = ("index", "readme", "_index", "home")


@dataclass
class Chapter:
    """One `#` heading and everything up to the next one."""

    id: str
    title: str
    path: Path
    tokens: list[Token]
    headings: list[Heading] = field(default_factory=list)
    source: SourceFile | None = None

    @property
    def sections(self) -> list[Heading]:
        return [h for h in self.headings if h.level == 2 and not h.no_toc]


def reading_order(path: Path, front: FrontMatter, root: Path):
    """Folders by name; in a folder its index file first, then `order`/`nav_order`/`weight`,
    then the file name."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        parts = path.parts
    key = [(1, 1, 0.0, p.casefold(), 1) for p in parts[:-1]]
    order = front.order
    key.append((0 if path.stem.casefold() in INDEX_NAMES else 1,
                0 if order is not None else 1, order or 0.0, path.stem.casefold(), 0))
    return key


def reading_keys(items, root: Path) -> dict:
    """A folder that has a page of the same name beside it (`rules.md` and `rules/`, as
    Jekyll and Obsidian folder notes do) is read right after that page."""
    keys = {}
    pages = {}
    for source, front, _ in items:
        keys[source.path] = reading_order(source.path, front, root)
        try:
            rel = source.path.relative_to(root)
        except ValueError:
            continue
        pages[rel.with_suffix("").as_posix().casefold()] = keys[source.path][-1]
    for path, key in keys.items():
        try:
            parts = path.relative_to(root).parts[:-1]
        except ValueError:
            continue
        for depth in range(len(parts)):
            page = pages.get("/".join(parts[:depth + 1]).casefold())
            if page is not None:
                key[depth] = (*page[:4], 1)
    return keys


def book_title(parsed) -> tuple[str | None, dict]:
    """The opening file (an index/README, or the only file) may name the book."""
    if not parsed:
        return None, {}
    source, front, tokens = parsed[0]
    opening = source.path.stem.casefold() in INDEX_NAMES or len(parsed) == 1
    data = {k: str(v) for k, v in front.data.items() if k in ("title", "subtitle", "author")
            and isinstance(v, str)}
    if not opening:
        return None, {k: v for k, v in data.items() if k != "title"}
    if front.title:
        return front.title, data
    for heading in source.headings:
        if heading.level == 1:
            return heading.title, data
    return None, data


def promote_first_heading(tokens: list[Token]) -> None:
    """A note with no `#` heading that opens with a heading (Obsidian's `## Barbarian`, a
    page whose title sits in `###`): that heading is the chapter's title."""
    if any(t.type == "heading_open" and t.tag == "h1" for t in tokens):
        return
    first = next((t for t in tokens if not t.hidden and t.type not in ("front_matter",)),
                 None)
    if first is None or first.type != "heading_open" or first.level != 0:
        return
    others = [t for t in tokens if t.type == "heading_open" and t is not first]
    if any(t.tag <= first.tag for t in others):
        return  # it has siblings at its level: a section among others, not the title
    first.tag = "h1"
    closing = next(t for t in tokens[tokens.index(first):] if t.type == "heading_close")
    closing.tag = "h1"


def split_chapters(source: SourceFile, front: FrontMatter, tokens: list[Token], headings,
                    used_ids) -> list[Chapter]:
    path = source.path
    chapters: list[Chapter] = []
    current: Chapter | None = None
    preamble: list[Token] = []
    for token in tokens:
        if token.type == "heading_open" and token.tag == "h1":
            heading = token.meta["heading"]
            current = Chapter(heading.id, heading.title, path, [], source=source)
            chapters.append(current)
        if current is None:
            preamble.append(token)
            continue
        current.tokens.append(token)
        if token.type == "heading_open":
            current.headings.append(token.meta["heading"])
    if not preamble or all(t.hidden for t in preamble):
        return chapters
    if chapters:
        chapters[0].tokens[3:3] = preamble  # after the chapter's own heading
        chapters[0].headings[1:1] = [t.meta["heading"] for t in preamble
                                     if t.type == "heading_open"]
        return chapters
    # no `#` heading: the front matter's title, else the file name made readable
    title = front.title or readable_name(path.stem)
    cid = unique_id(Slugger().slug(title), used_ids)
    heading = Heading(cid, title, 1, path, 1)
    headings[cid] = heading
    source.local_ids.setdefault(cid, heading)
    source.headings.insert(0, heading)
    opening = Token("heading_open", "h1", 1, attrs={"id": cid}, map=[0, 1])
    opening.meta = {"heading": heading}
    inline = Token("inline", "", 0, content=title, children=[Token("text", "", 0,
                                                                     content=title)])
    return [Chapter(cid, title, path, [opening, inline, Token("heading_close", "h1", -1)]
                    + preamble, [heading] + [t.meta["heading"] for t in preamble
                                             if t.type == "heading_open"], source=source)]
