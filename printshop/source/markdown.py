"""Markdown chapters → checked token streams → HTML fragments.

markdown-it-py (CommonMark, raw HTML off unless the project opts in) with mdit-py-plugins for
containers, footnotes, definition lists and front matter. printshop adds three small rules:

* `::name[argument]{key="value"}` on a line of its own: a directive (`::table[armour]`);
* `[[Section title]]` / `[[id|label]]`: a cross-reference, printed with its page number;
* `## Heading {#id}`: a chosen heading id; other headings get ids from their text,
  unique across the whole book.

Every problem (unknown table, missing section, forbidden link, image outside the project)
is reported with the chapter file and line.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from printshop.errors import Problems
from printshop.safepath import UnsafePath, resolve_inside
from printshop.source.images import ImageRefused, check_image_size
from printshop.source.yamlfile import read_text

CONTAINERS = ("note", "sidebar", "optional", "example")
_DIRECTIVE_RE = re.compile(
    r"^::([a-z][a-z0-9-]*)\[([^\]\n]*)\](?:\{([^}\n]*)\})?[ \t]*$")
_ATTR_RE = re.compile(r'([a-z][a-z0-9_-]*)="([^"]*)"')
_HEADING_ID_RE = re.compile(r"\s*\{#([A-Za-z][\w-]*)\}\s*$")
_SAFE_SCHEMES = ("http://", "https://", "mailto:")
MAX_CHAPTER_BYTES = 2_000_000


def slugify(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug or "section"


def github_slug(text: str) -> str:
    """The anchor GitHub (and many Markdown tools) would give a heading: foreign manuscripts
    link to those, so they are accepted as aliases of printshop's own ids."""
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@dataclass
class Heading:
    id: str
    title: str
    level: int
    path: Path
    line: int


@dataclass
class Chapter:
    """One `#` heading and everything up to the next one."""

    id: str
    title: str
    path: Path
    tokens: list[Token]
    headings: list[Heading] = field(default_factory=list)

    @property
    def sections(self) -> list[Heading]:
        return [h for h in self.headings if h.level == 2]


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


def build_parser(raw_html: bool = False) -> MarkdownIt:
    # HTML is always *parsed* (so comments can be dropped, as every Markdown viewer hides
    # them) but only passed through when the project opts in; otherwise it prints as text.
    md = MarkdownIt("commonmark", {"html": True, "typographer": True})
    md.enable(["table", "strikethrough", "replacements", "smartquotes"])
    md.use(front_matter_plugin)
    md.use(footnote_plugin)
    md.use(deflist_plugin)
    for name in CONTAINERS:
        md.use(container_plugin, name=name, render=_render_container)
    md.block.ruler.before("paragraph", "directive", _directive_rule,
                          {"alt": ["paragraph", "reference", "blockquote", "list"]})
    md.inline.ruler.before("link", "xref", _xref_rule)
    md.core.ruler.after("block", "heading_ids", _heading_id_rule)
    # Links are checked (and reported) by the reader, not silently dropped by the parser.
    md.validateLink = lambda url: True
    if not raw_html:
        md.add_render_rule("html_block", _render_html_as_text)
        md.add_render_rule("html_inline", _render_html_as_text)
    md.add_render_rule("xref", _render_xref)
    md.add_render_rule("directive", _render_directive)
    md.add_render_rule("link_open", _render_link_open)
    md.add_render_rule("link_close", _render_link_close)
    return md


def build_inline_parser() -> MarkdownIt:
    """For table cells and one-line texts from YAML: emphasis and code, nothing that fetches."""
    md = MarkdownIt("commonmark", {"html": False, "typographer": True})
    md.enable(["replacements", "smartquotes"])
    md.disable(["image", "link", "autolink", "html_inline"])
    return md


# --- parser rules ------------------------------------------------------------------------

def _directive_rule(state, start_line, end_line, silent):
    pos = state.bMarks[start_line] + state.tShift[start_line]
    maximum = state.eMarks[start_line]
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    line = state.src[pos:maximum]
    if not line.startswith("::") or line.startswith(":::"):
        return False
    match = _DIRECTIVE_RE.match(line)
    if not match:
        return False
    if silent:
        return True
    token = state.push("directive", "", 0)
    token.map = [start_line, start_line + 1]
    token.meta = {"name": match[1], "argument": match[2].strip(),
                  "attrs": dict(_ATTR_RE.findall(match[3] or ""))}
    token.content = line
    state.line = start_line + 1
    return True


def _xref_rule(state, silent):
    src, pos = state.src, state.pos
    if not src.startswith("[[", pos):
        return False
    end = src.find("]]", pos + 2)
    if end < 0:
        return False
    body = src[pos + 2:end]
    if not body.strip() or "\n\n" in body or "[" in body:
        return False
    if not silent:
        target, _, label = body.partition("|")
        token = state.push("xref", "", 0)
        token.meta = {"target": " ".join(target.split()), "label": " ".join(label.split()),
                      "line_offset": src[:pos].count("\n")}
    state.pos = end + 2
    return True


def _heading_id_rule(state):
    for i, token in enumerate(state.tokens):
        if token.type != "heading_open":
            continue
        inline = state.tokens[i + 1]
        match = _HEADING_ID_RE.search(inline.content)
        if match:
            inline.content = inline.content[: match.start()]
            token.meta = {**(token.meta or {}), "chosen_id": match[1]}


# --- renderers -----------------------------------------------------------------------------

def _render_container(self, tokens, idx, options, env):
    token = tokens[idx]
    if token.nesting == -1:
        return "</aside>\n" if token.meta.get("aside") else "</div>\n"
    kind, _, title = token.info.strip().partition(" ")
    escape = self.escape if hasattr(self, "escape") else _escape
    title = title.strip()
    label = {"optional": "Optional rule", "example": "Example"}.get(kind)
    heading = ""
    if kind == "optional":
        heading = f'<p class="box-label">{label}{": " + escape(title) if title else ""}</p>\n'
    elif title:
        heading = f'<p class="box-title">{escape(title)}</p>\n'
    elif label:
        heading = f'<p class="box-label">{label}</p>\n'
    tag = "aside" if kind == "sidebar" else "div"
    # the closing token of this container renders with the same tag
    depth = 0
    for close in tokens[idx + 1:]:
        if close.type == token.type:
            depth += 1
        elif close.type == token.type.replace("_open", "_close"):
            if depth == 0:
                close.meta = {"aside": tag == "aside"}
                break
            depth -= 1
    return f'<{tag} class="box {kind}">\n{heading}'


def _render_html_as_text(self, tokens, idx, options, env):
    content = tokens[idx].content
    if content.strip().startswith("<!--") and content.strip().endswith("-->"):
        return ""
    text = _escape(content)
    return f"<p class=\"raw-html\">{text}</p>\n" if tokens[idx].type == "html_block" else text


def _escape(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def _render_link_open(self, tokens, idx, options, env):
    token = tokens[idx]
    if (token.meta or {}).get("unlinked"):
        for close in tokens[idx + 1:]:
            if close.type == "link_close" and close.level == token.level:
                close.meta = {"unlinked": True}
                break
        return ""
    return self.renderToken(tokens, idx, options, env)


def _render_link_close(self, tokens, idx, options, env):
    if (tokens[idx].meta or {}).get("unlinked"):
        return ""
    return self.renderToken(tokens, idx, options, env)


def _render_xref(self, tokens, idx, options, env):
    meta = tokens[idx].meta
    target = meta.get("resolved")
    label = meta["label"] or (target.title if target else meta["target"])
    if target is None:
        return _escape(label)
    return f'<a class="xref" href="#{target.id}">{_escape(label)}</a>'


def _render_directive(self, tokens, idx, options, env):
    renderer = env.get("directive_renderer")
    meta = tokens[idx].meta
    if renderer is None:
        return ""
    return renderer(meta["name"], meta["argument"], meta["attrs"]) + "\n"


# --- the reader -----------------------------------------------------------------------------

class MarkdownReader:
    """Reads chapter files into a checked Manuscript.

    `directive_check(name, argument, attrs) -> str | None` returns a problem message for a
    directive the project cannot satisfy (an unknown table), or None.
    """

    def __init__(self, root: Path, roots: list[Path], raw_html: bool = False,
                 directive_check: Callable[[str, str, dict], str | None] | None = None,
                 warn_file_links: bool = True):
        self.root = root
        self.warn_file_links = warn_file_links
        self.warnings: Problems = Problems()
        self.roots = roots
        self.md = build_parser(raw_html)
        self.directive_check = directive_check or (lambda *a: None)

    def read(self, files: list[Path], problems: Problems) -> Manuscript:
        used_ids: set[str] = set()
        chapters: list[Chapter] = []
        headings: dict[str, Heading] = {}
        directives: list[Directive] = []
        front: dict[str, str] = {}
        parsed: list[tuple[Path, list[Token]]] = []
        for path in files:
            try:
                text = read_text(path, MAX_CHAPTER_BYTES)
            except Exception as exc:  # PrintshopError: keep reading the other chapters
                problems.items.extend(getattr(exc, "problems", []))
                continue
            env: dict = {}
            tokens = self.md.parse(text, env)
            parsed.append((path, tokens))
            for token in tokens:
                if token.type == "front_matter" and not front:
                    front = _front_matter(token.content)
        for path, tokens in parsed:
            self._assign_ids(path, tokens, used_ids, headings)
            chapters.extend(_split_chapters(path, tokens, headings))
            self._check_blocks(path, tokens, directives, problems)
        first_heading = {}
        for chapter in chapters:
            first_heading.setdefault(chapter.path.resolve(), chapter.id)
        for path, tokens in parsed:
            self._check_inline(path, tokens, headings, problems, first_heading)
        return Manuscript(chapters=chapters, headings=headings, directives=directives,
                          front_matter=front, files=list(files), warnings=self.warnings.items)

    def render(self, chapter: Chapter, directive_renderer: Callable[[str, str, dict], str]) -> str:
        env = {"directive_renderer": directive_renderer}
        return self.md.renderer.render(chapter.tokens, self.md.options, env)

    # ids ------------------------------------------------------------------------------------
    def _assign_ids(self, path, tokens, used_ids, headings):
        for i, token in enumerate(tokens):
            if token.type != "heading_open":
                continue
            inline = tokens[i + 1]
            title = _plain_text(inline)
            chosen = (token.meta or {}).get("chosen_id")
            base = chosen or slugify(title)
            hid, n = base, 2
            while hid in used_ids:
                hid, n = f"{base}-{n}", n + 1
            used_ids.add(hid)
            token.attrSet("id", hid)
            level = int(token.tag[1])
            heading = Heading(hid, title, level, path, (token.map or [0])[0] + 1)
            token.meta = {**(token.meta or {}), "heading": heading}
            headings[hid] = heading

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
                problems.add(path, message, line)
            directives.append(directive)

    # inline: cross-references, links, images ---------------------------------------------------
    def _check_inline(self, path, tokens, headings, problems, first_heading):
        by_title: dict[str, list[Heading]] = {}
        for heading in headings.values():
            by_title.setdefault(heading.title.casefold(), []).append(heading)
        for block in tokens:
            if block.type != "inline" or not block.children:
                continue
            base_line = (block.map or [0])[0] + 1
            for child in block.children:
                if child.type == "xref":
                    line = base_line + child.meta["line_offset"]
                    target = child.meta["target"]
                    found = headings.get(target) or headings.get(slugify(target))
                    candidates = by_title.get(target.casefold(), [])
                    if found is None and len(candidates) == 1:
                        found = candidates[0]
                    if found is None:
                        hint = "" if not candidates else " (several sections have that title: " \
                            "use the id, e.g. [[" + candidates[0].id + "]])"
                        problems.add(path, f"cross-reference [[{target}]]: no section with "
                                     f"that title or id{hint}", line)
                    child.meta["resolved"] = found
                elif child.type == "link_open":
                    href = child.attrGet("href") or ""
                    line = base_line + _line_of(block.content, href)
                    self._check_link(path, line, child, href, headings, problems, first_heading)
                elif child.type == "image":
                    src = child.attrGet("src") or ""
                    line = base_line + _line_of(block.content, src)
                    self._check_image(path, line, child, src, problems)

    def _check_link(self, path, line, token, href, headings, problems, first_heading):
        if href.startswith("#"):
            wanted = unquote(href[1:])
            if wanted in headings:
                return
            alias = self._aliases(headings).get(wanted)
            if alias:
                token.attrSet("href", "#" + alias)
                return
            problems.add(path, f"link to '{href}': no section has that id", line)
            return
        lowered = href.strip().lower()
        if lowered.startswith(_SAFE_SCHEMES):
            return
        if ":" in lowered.split("/")[0]:
            scheme = lowered.split(":")[0]
            problems.add(path, f"link '{href}': {scheme}: links are not allowed (use http(s), "
                         "mailto or #section)", line)
            token.attrSet("href", "#")
            return
        target, _, fragment = href.partition("#")
        fragment = unquote(fragment)
        fragment = fragment if fragment in headings else self._aliases(headings).get(fragment)
        if fragment:
            token.attrSet("href", "#" + fragment)
            return
        chapter_id = first_heading.get((path.parent / unquote(target)).resolve()) \
            if target else None
        if chapter_id:
            token.attrSet("href", "#" + chapter_id)
            return
        # a link to a file that is not part of the book: keep the words, drop the link
        token.attrSet("href", "")
        token.meta = {**(token.meta or {}), "unlinked": True}
        if self.warn_file_links:
            self.warnings.add(path, f"link '{href}' points to a file outside the book; "
                              "it is printed as plain text", line)

    def _aliases(self, headings) -> dict[str, str]:
        if getattr(self, "_alias_map", None) is None or self._alias_source is not headings:
            aliases: dict[str, str] = {}
            for heading in headings.values():
                aliases.setdefault(github_slug(heading.title), heading.id)
            self._alias_map, self._alias_source = aliases, headings
        return self._alias_map

    def _check_image(self, path, line, token, src, problems):
        lowered = src.strip().lower()
        if lowered.startswith(("http://", "https://", "//")):
            problems.add(path, f"image '{src}': printshop never fetches from the network; "
                         "save the image inside the project", line)
            token.attrSet("src", "")
            return
        if ":" in lowered.split("/")[0]:
            problems.add(path, f"image '{src}': only files inside the project can be used", line)
            token.attrSet("src", "")
            return
        try:
            resolved = resolve_inside(src, self.roots, base=path.parent)
            check_image_size(resolved, resolved.name)
        except (UnsafePath, ImageRefused) as exc:
            problems.add(path, f"image '{src}': {exc}", line)
            token.attrSet("src", "")
            return
        token.attrSet("src", resolved.as_uri())


def _line_of(content: str, needle: str) -> int:
    index = content.find(needle)
    if index < 0:
        index = content.find(unquote(needle))
    return content[:index].count("\n") if index >= 0 else 0


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


def _split_chapters(path: Path, tokens: list[Token], headings) -> list[Chapter]:
    chapters: list[Chapter] = []
    current: Chapter | None = None
    preamble: list[Token] = []
    for token in tokens:
        if token.type == "front_matter":
            continue
        if token.type == "heading_open" and token.tag == "h1":
            heading = token.meta["heading"]
            current = Chapter(heading.id, heading.title, path, [])
            chapters.append(current)
        if current is None:
            preamble.append(token)
            continue
        current.tokens.append(token)
        if token.type == "heading_open":
            current.headings.append(token.meta["heading"])
    if preamble and any(t.type != "front_matter" for t in preamble):
        if chapters:
            chapters[0].tokens[3:3] = preamble  # after the chapter's own heading
        else:
            title = path.stem.split("-", 1)[-1].replace("-", " ").replace("_", " ").title()
            cid = slugify(title)
            while cid in headings:
                cid += "-x"
            heading = Heading(cid, title, 1, path, 1)
            headings[cid] = heading
            opening = Token("heading_open", "h1", 1, attrs={"id": cid}, map=[0, 1])
            opening.meta = {"heading": heading}
            inline = Token("inline", "", 0, content=title, children=[
                Token("text", "", 0, content=title)])
            chapters.append(Chapter(cid, title, path, [opening, inline,
                                                       Token("heading_close", "h1", -1)]
                                    + preamble, [heading]))
    return chapters


def _front_matter(content: str) -> dict[str, str]:
    """Title/subtitle/author from a manuscript's front matter, read as plain `key: value`."""
    found = {}
    for line in content.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() in ("title", "subtitle", "author"):
            found[key.strip()] = value.strip().strip("\"'")
    return found
