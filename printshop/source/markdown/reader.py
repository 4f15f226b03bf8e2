"""The Markdown reader: chapter files → checked token streams → HTML fragments.

markdown-it-py (CommonMark, tables, footnotes, definition lists) with one small plugin per
dialect a manuscript may be written in:

* front matter (frontmatter.py): read, never printed; order, drafts, titles;
* reading order, the book's title, files split into chapters (chapters.py);
* ids and links (slugs.py, links.py): GitHub/kramdown heading ids, `#id`, `other.md#id`;
* kramdown attribute lines and `{:toc}` (kramdown.py);
* wikilinks, embeds, block ids (wikilinks.py), printshop's `[[Experience]]` among them;
* callouts (callouts.py) and `:::` containers with `::name[arg]` directives (containers.py);
* raw HTML escaped, sanitized or trusted (rawhtml.py).

A problem a reader can live with (a missing image, a dangling link) is a warning at the
chapter file and line, and the book still prints (a placeholder box, plain text); `--strict`
makes warnings errors. Problems the project must fix (an unknown table) are errors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import unquote

from markdown_it.token import Token

from printshop.errors import PrintshopError, Problems
from printshop.source.icons import UnknownIcon, icon_set
from printshop.source.markdown import booktools, containers, rawhtml
from printshop.source.markdown.chapters import (
    Chapter,
    book_title,
    promote_first_heading,
    reading_keys,
    split_chapters,
)
from printshop.source.markdown.frontmatter import FrontMatter, split_front_matter
from printshop.source.markdown.links import Heading, Links, SourceFile, summarise_missing_ids
from printshop.source.markdown.parser import build_parser
from printshop.source.markdown.slugs import Slugger, unique_id
from printshop.source.yamlfile import read_text

MAX_CHAPTER_BYTES = 2_000_000
_MISSING_FILE_RE = re.compile(r"no chapter '([^']*)' in the book")
_RAW_ID_RE = re.compile(r"""(\s(?:id|name)=)["']([^"'<>\s]+)["']""", re.I)


@dataclass
class Directive:
    name: str
    argument: str
    attrs: dict[str, str]
    path: Path
    line: int


@dataclass
class Manuscript:
    chapters: list[Chapter]
    headings: dict[str, Heading]
    directives: list[Directive]
    front_matter: dict[str, str]
    files: list[Path]
    warnings: list = field(default_factory=list)
    title: str | None = None  # from the opening file: its front matter, else its first `#`


# --- the reader -----------------------------------------------------------------------------

class MarkdownReader:
    """Reads chapter files into a checked Manuscript.

    `directive_check(name, argument, attrs) -> str | None` returns a problem message for a
    directive the project cannot satisfy (an unknown table), or None.
    """

    def __init__(self, root: Path, roots: list[Path], raw_html: bool = False,
                 directive_check: Callable[[str, str, dict], str | None] | None = None,
                 warn_file_links: bool = True, html: str | None = None):
        self.root = root
        self.roots = roots
        self.html = html or ("trusted" if raw_html else "escaped")
        self.warn_file_links = warn_file_links
        self.warnings: Problems = Problems()
        self.md = build_parser(self.html)
        self.directive_check = directive_check or (lambda *a: None)
        self.links: Links = None  # type: ignore[assignment]  # made by read(), first
        self.icons = icon_set(root)
        # what the chapters print that needs a credit, first use first: name → file
        self.pictures: dict[str, Path] = {}
        self.picture_lines: dict[str, tuple[Path, int]] = {}   # URL → (chapter, line)
        self.printed_icons: dict[str, Path] = {}
        # icons are drawn in the ink, or a palette colour they name (set by the product)
        self.colours = None
        self.ink = "#000000"
        self._texts: dict[Path, str] = {}   # each chapter's text: columns for problems

    def read(self, files: list[Path], problems: Problems) -> Manuscript:
        files, ordered = self._book_files(files)
        parsed: list[tuple[SourceFile, FrontMatter, list[Token]]] = []
        for path in files:
            try:
                text = read_text(path, MAX_CHAPTER_BYTES)
                front, text = split_front_matter(text, path)
            except PrintshopError as exc:  # keep reading the other chapters
                problems.items.extend(exc.problems)
                continue
            if front.draft:
                continue
            text, html_warnings = rawhtml.prescan(text)
            text, box_warnings = containers.prescan(text)
            for line, message in sorted(html_warnings + box_warnings):
                self.warnings.add(path, message, line)
            parsed.append((SourceFile(path, urls=front.urls), front, self.md.parse(text, {})))
            self._texts[path] = text
        if not ordered:
            keys = reading_keys(parsed, self.root)
            parsed.sort(key=lambda item: keys[item[0].path])

        used_ids: set[str] = set()
        headings: dict[str, Heading] = {}
        chapters: list[Chapter] = []
        directives: list[Directive] = []
        for source, front, tokens in parsed:
            self._assign_ids(source, tokens, used_ids, headings, front)
            new = split_chapters(source, front, tokens, headings, used_ids)
            if new:
                source.chapter_id = new[0].id
            chapters.extend(new)
            self._check_blocks(source.path, tokens, directives, problems)
        self.links = Links(self.root, self.roots, [s for s, _, _ in parsed], headings)
        for source, _, tokens in parsed:
            self._check_inline(source, tokens)
        title, front_matter = book_title(parsed)
        title = booktools.config_title(self.root) or title
        return Manuscript(chapters=chapters, headings=headings, directives=directives,
                          front_matter=front_matter, files=[s.path for s, _, _ in parsed],
                          warnings=self.warnings.items, title=title)

    def _book_files(self, files: list[Path]) -> tuple[list[Path], bool]:
        """The files that are the book, and whether they are in the book's order already:
        those SUMMARY.md lists (mdBook, GitBook), or an MkDocs site's pages in its nav's
        order (source/markdown/booktools.py); else all of them, to be ordered by name,
        front matter and folder (chapters.reading_keys)."""
        summary = booktools.summary_file(self.root, self.warnings.add)
        if summary is not None and summary.resolve() in {p.resolve() for p in files}:
            try:
                text = read_text(summary, MAX_CHAPTER_BYTES)
            except PrintshopError:
                text = ""
            order = booktools.summary_order(summary, self.md.parse(text, {}))
            listed = sorted((p for p in files if p.resolve() in order),
                            key=lambda p: order[p.resolve()])
            if listed:
                return listed, True
        mkdocs = booktools.mkdocs_book(self.root, files, self.warnings.add)
        if mkdocs is not None and mkdocs[0]:
            return mkdocs
        return files, False

    def render(self, chapter: Chapter, directive_renderer: Callable[[str, str, dict], str],
               edition: str = "print") -> str:
        source = chapter.source
        env = {"file_headings": source.headings if source else [], "edition": edition,
               "block_ids": source.block_ids if source else {}, "lines": True,
               "icons": self.icons, "colours": self.colours, "ink": self.ink}
        if self.html != "sanitized":
            env["directive_renderer"] = directive_renderer
            return self.md.renderer.render(chapter.tokens, self.md.options, env)
        # sanitized: directives (the project's own templates) and icons are kept out of
        # the cleaning
        produced: list[str] = []

        def kept(html: str) -> str:
            produced.append(html)
            return f"\ue000{len(produced) - 1}\ue001"

        def placeholder(name, argument, attrs):
            return kept(containers.with_line(directive_renderer(name, argument, attrs),
                                             env.get("directive_line")))

        env["directive_renderer"] = placeholder
        env["keep_from_cleaning"] = kept     # icons (_render_icon)
        html = self.md.renderer.render(chapter.tokens, self.md.options, env)
        html = rawhtml.sanitize(html, lambda tag, attr, value: self._raw_url(
            chapter, tag, value))
        for n, text in enumerate(produced):
            html = html.replace(f"\ue000{n}\ue001", text)
        return html

    def _raw_url(self, chapter: Chapter, tag: str, value: str) -> str | None:
        """A link or image inside raw HTML goes through the same rules as Markdown's own."""
        source = chapter.source
        assert source is not None    # (a chapter read from a file)
        if tag == "img":
            if value.startswith("file://"):
                from printshop.safepath import is_inside

                path = Path(unquote(value[len("file://"):]))
                return value if is_inside(path.resolve(), [r.resolve() for r in self.roots]) \
                    else None
            uri, problem = self.links.image(source, value)
            if problem:
                self.warnings.add(chapter.path, f"{problem} (in raw HTML); left out")
            return uri
        href, _ = self.links.href(source, value)
        return href

    # ids ------------------------------------------------------------------------------------
    def _assign_ids(self, source: SourceFile, tokens, used_ids, headings, front=None):
        slugger = Slugger()
        if front is None or not front.title:
            promote_first_heading(tokens)
        for i, token in enumerate(tokens):
            if token.type in ("html_block", "html_inline") or (
                    token.type == "inline" and "<" in token.content):
                self._raw_ids(source, token, used_ids)
            block_id = (token.meta or {}).get("block_id") if token.nesting == 1 else None
            if block_id:
                source.block_ids[block_id] = unique_id(f"block-{block_id}", used_ids)
            if token.type != "heading_open":
                continue
            inline = tokens[i + 1]
            title = _plain_text(inline)
            meta = token.meta or {}
            local = slugger.slug(title, meta.get("chosen_id"))
            hid = unique_id(local, used_ids)
            token.attrSet("id", hid)
            heading = Heading(hid, title, int(token.tag[1]), source.path,
                              (token.map or [0])[0] + 1, no_toc=bool(meta.get("no_toc")))
            token.meta = {**meta, "heading": heading}
            headings[hid] = heading
            source.local_ids.setdefault(local, heading)
            source.headings.append(heading)

    def _raw_ids(self, source: SourceFile, token, used_ids) -> None:
        """`<a id="x">` in raw HTML is a link target too; ids another file already used
        are renamed (in this file only), as headings are."""
        parts = [token] if token.type != "inline" else \
            [c for c in token.children or [] if c.type == "html_inline"]
        for part in parts:
            def rename(match):
                local = match[2]
                if local not in source.raw_ids:
                    source.raw_ids[local] = unique_id(local, used_ids)
                return f'{match[1]}"{source.raw_ids[local]}"'
            part.content = _RAW_ID_RE.sub(rename, part.content)

    # blocks: directives ---------------------------------------------------------------------
    def _check_blocks(self, path, tokens, directives, problems):
        for token in tokens:
            if token.type != "directive":
                continue
            line = token.map[0] + 1
            meta = token.meta
            directive = Directive(meta["name"], meta["argument"], meta["attrs"], path, line)
            message = self.directive_check(directive.name, directive.argument, directive.attrs)
            if message:
                problems.add(path, message, line, self._column(path, line, f"::{meta['name']}"))
            directives.append(directive)

    def _column(self, path, line: int, needle: str) -> int | None:
        """Where `needle` starts on a chapter's line (for the caret under a problem)."""
        lines = self._texts.get(path, "").splitlines()
        if 1 <= line <= len(lines):
            found = lines[line - 1].find(needle)
            return found + 1 if found >= 0 else None
        return None

    # inline: cross-references, links, images ---------------------------------------------------
    def _check_inline(self, source: SourceFile, tokens):
        path = source.path
        dangling: dict[str, list[tuple[int, str, int | None]]] = {}
        for block in tokens:
            if block.type != "inline" or not block.children:
                continue
            base_line = (block.map or [0])[0] + 1
            cursor = [0]  # where in the block the next link is looked for
            for i, child in enumerate(block.children):
                if child.type == "xref":
                    line = base_line + child.meta["line_offset"]
                    found, problem = self.links.xref(source, child.meta)
                    child.meta["resolved"] = found
                    if problem:
                        written = child.meta.get("written") or ""
                        self.warnings.add(path, f"{problem}; printed as plain text", line,
                                          self._column(path, line, written.split("\n")[0])
                                          if written else None)
                elif child.type == "link_open":
                    href = child.attrGet("href") or ""
                    label = block.children[i + 1].content if i + 1 < len(block.children) \
                        else ""
                    # an inline link names its target in the text; a reference link its label
                    line = base_line + _line_of(block.content, [href, "[" + label, label],
                                                cursor)
                    new, problem = self.links.href(source, href)
                    if new is None:
                        child.meta = {**(child.meta or {}), "unlinked": True}
                    else:
                        child.attrSet("href", new)
                    # a picture linked to its own file (a static site opens it full size):
                    # the picture prints, and says so if it is missing; the link is no news
                    own_picture = i + 1 < len(block.children) and \
                        block.children[i + 1].type == "image" and \
                        (block.children[i + 1].attrGet("src") or "") == href
                    if problem and not own_picture and \
                            (self.warn_file_links or "no chapter" not in problem):
                        missing = _MISSING_FILE_RE.search(problem)
                        key = f"file {missing[1]}" if missing else problem
                        column = self._column(path, line, f"]({href}") if href else None
                        dangling.setdefault(key, []).append(
                            (line, problem, column + 2 if column else None))
                elif child.type == "icon":
                    line = base_line + _line_of(block.content, [":icon[" + child.meta["name"]],
                                                cursor)
                    try:
                        child.meta["icon"] = self.icons.find(child.meta["name"])
                        self.printed_icons.setdefault(child.meta["name"],
                                                      child.meta["icon"].path)
                    except UnknownIcon as exc:
                        self.warnings.add(path, f"{exc}; a placeholder prints instead", line,
                                          self._column(path, line,
                                                       ":icon[" + child.meta["name"]))
                elif child.type == "image":
                    src = child.attrGet("src") or ""
                    embed = (child.meta or {}).get("embed")
                    offset = child.meta["line_offset"] if embed else _line_of(block.content,
                                                                               [src], cursor)
                    uri, problem = self.links.image(source, src, embed=bool(embed))
                    if uri:
                        child.attrSet("src", uri)
                        # where it is placed (a picture too coarse where it prints is
                        # named there once the book is laid out)
                        self.picture_lines.setdefault(uri, (path, base_line + offset))
                        if uri.startswith("file://"):
                            picture = Path(unquote(uri[len("file://"):]))
                            self.pictures.setdefault(_shown(picture, self.root), picture)
                    else:
                        block.children[i] = Token("missing_image", "", 0,
                                                  meta={"src": src})
                        line = base_line + offset
                        self.warnings.add(path, f"{problem}; a placeholder box is printed "
                                          "instead", line,
                                          self._column(path, line, src) if src else None)
        # one warning per missing target (a manuscript cut from a bigger site links to the
        # rest of the site many times), naming every line
        summarise_missing_ids(dangling)
        for key, misses in dangling.items():
            lines = sorted({line for line, _, _ in misses})
            if len(misses) == 1 or not key.startswith("file "):
                message = misses[0][1]
            else:
                message = (f"{len(misses)} links to '{key[5:]}': no chapter '{key[5:]}' in the "
                           "book; printed as plain text")
            also = f" (also line{'s' if len(lines) > 2 else ''} " \
                   f"{', '.join(map(str, lines[1:]))})" if len(lines) > 1 else ""
            column = next((c for line, _, c in misses if line == lines[0]), None)
            self.warnings.add(path, message + also, lines[0], column)


def _shown(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.name


def _line_of(content: str, needles: list[str], cursor: list[int]) -> int:
    """Line (from 0) of the first of `needles` found in a block after the previous find."""
    for needle in needles:
        for form in (needle, unquote(needle)):
            index = content.find(form, cursor[0]) if form else -1
            if index >= 0:
                cursor[0] = index + len(form)
                return content[:index].count("\n")
    return content[:cursor[0]].count("\n")


def _plain_text(inline: Token) -> str:
    if not inline.children:
        return inline.content.strip()
    parts = []
    for child in inline.children:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "xref":
            parts.append(child.meta["label"] or child.meta["target"])
    return "".join(parts).strip()
