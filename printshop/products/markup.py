"""Markdown and HTML in a field (a card's, a sheet's, a table cell's): rendered, or a
located warning; never printed as literal markup.

The `md` and `md_block` filters of every product's templates come here:

* emphasis, code, `:icon[NAME]` (printshop.source.icons), typographic quotes;
* `![caption](art/key.png)`: a picture, its path relative to the project folder, read
  through the URL fetcher's rules (inside the project only). A missing one is a warning
  naming the field's place, and a placeholder box prints;
* a link prints as its text (a card is paper);
* inline HTML from an allow-list (b, i, em, strong, br, sup, sub, small, span, u, s …);
  any other tag is left out with a warning.

Where a field comes from is set by the product around what it renders (`located`: a card's
row, a sheet file); what a product prints (pictures, icons) is gathered for its credits
(`collecting`). Warnings go to the product's build (`ctx.warn`), so `--strict` fails on them.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from printshop.errors import PrintshopError, Problem, display_path
from printshop.safepath import UnsafePath, project_url, resolve_inside
from printshop.source.icons import UnknownIcon, icon_set, use_icons

FIELD_TAGS = {"b", "i", "em", "strong", "br", "sup", "sub", "small", "span", "u", "s",
              "del", "ins", "mark", "code", "abbr", "q", "wbr", "kbd", "var", "cite"}
FIELD_BLOCK_TAGS = FIELD_TAGS | {"p", "ul", "ol", "li", "div", "blockquote", "hr", "dl", "dt",
                                 "dd"}
_TAG = re.compile(r"<\s*/?\s*([A-Za-z][A-Za-z0-9-]*)")
# what markdown-it itself writes for a field's Markdown
MARKDOWN_TAGS = {"strong", "em", "code", "br", "s", "p", "ul", "ol", "li", "blockquote", "hr",
                 "pre", "h1", "h2", "h3", "h4", "h5", "h6"}
DEFAULT_INK = "#000000"


@dataclass
class Where:
    path: object
    line: int | None = None
    label: str | None = None     # "card EV-07 (7 of hearts)"


@dataclass
class Printed:
    """What a product printed that needs a credit: pictures and icons, first use first."""

    pictures: dict[str, Path] = field(default_factory=dict)   # shown name → file
    icons: dict[str, Path] = field(default_factory=dict)      # icon name → file


    def merge(self, other: "Printed") -> None:
        for name, path in other.pictures.items():
            self.pictures.setdefault(name, path)
        for name, path in other.icons.items():
            self.icons.setdefault(name, path)

    def __bool__(self) -> bool:
        return bool(self.pictures or self.icons)


class Collector:
    def __init__(self, warn, where: Where):
        self.warn = warn
        self.where = where
        self.printed = Printed()


_collector: contextvars.ContextVar[Collector | None] = contextvars.ContextVar(
    "printshop_markup_collector", default=None)
_where: contextvars.ContextVar[Where | None] = contextvars.ContextVar(
    "printshop_markup_where", default=None)


@contextlib.contextmanager
def collecting(warn, path, line: int | None = None, label: str | None = None):
    """Field problems inside go to `warn` (a product's ctx.warn), at `path` unless a
    `located` inside says better; yields the Collector (what was printed, for credits)."""
    collector = Collector(warn, Where(path, line, label))
    token = _collector.set(collector)
    try:
        yield collector
    finally:
        _collector.reset(token)


@contextlib.contextmanager
def located(path, line: int | None = None, label: str | None = None):
    token = _where.set(Where(path, line, label))
    try:
        yield
    finally:
        _where.reset(token)


def current() -> Collector | None:
    return _collector.get()


_captures: contextvars.ContextVar[tuple[Printed, ...]] = contextvars.ContextVar(
    "printshop_markup_captures", default=())


@contextlib.contextmanager
def capture():
    """What is printed inside, as well as into the product's whole: one card's, one
    chapter's (for the credits printed with it)."""
    printed = Printed()
    token = _captures.set(_captures.get() + (printed,))
    try:
        yield printed
    finally:
        _captures.reset(token)


def innermost() -> Printed:
    """What the innermost `capture` has gathered so far (nothing outside one)."""
    captures = _captures.get()
    return captures[-1] if captures else Printed()


def _into(kind: str, name: str, path: Path) -> None:
    collector = _collector.get()
    targets = list(_captures.get()) + ([collector.printed] if collector else [])
    for printed in targets:
        getattr(printed, kind).setdefault(name, path)


def report(message: str) -> None:
    """A field's problem, at the field's place. Outside any build, an error: never lost."""
    collector = _collector.get()
    where = _where.get() or (collector.where if collector else None)
    text = f"{where.label}: {message}" if where and where.label else message
    if collector is None:
        raise PrintshopError.at(where.path if where else "template", text,
                                where.line if where else None)
    assert where is not None    # (a collector always has its place)
    collector.warn(Problem(display_path(where.path), text, where.line))


def printed_icon(name: str, path: Path) -> None:
    _into("icons", name, path)


def printed_picture(shown: str, path: Path) -> None:
    _into("pictures", shown, path)


def printed_icon_or_picture(printed: Printed) -> None:
    """What a cached rendering printed, printed again (the same face on another sheet)."""
    for name, path in printed.icons.items():
        printed_icon(name, path)
    for name, path in printed.pictures.items():
        printed_picture(name, path)


# --- the parser -----------------------------------------------------------------------------

def _field_parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True, "typographer": True})
    md.enable(["replacements", "smartquotes", "strikethrough"])
    md.disable(["autolink"])
    use_icons(md)
    md.validateLink = lambda url: True  # type: ignore[method-assign]  # (as its docs say)
    md.add_render_rule("icon", lambda self, tokens, idx, options, env:
                       env["events"].icon(tokens[idx].meta))
    md.add_render_rule("image", lambda self, tokens, idx, options, env:
                       env["events"].image(tokens[idx], self.renderInlineAsText(
                           tokens[idx].children or [], options, env)))
    md.add_render_rule("link_open", lambda *a: "")
    md.add_render_rule("link_close", lambda *a: "")
    md.add_render_rule("html_inline", lambda self, tokens, idx, options, env:
                       env["events"].html(tokens[idx].content, FIELD_TAGS))
    md.add_render_rule("html_block", lambda self, tokens, idx, options, env:
                       env["events"].html(tokens[idx].content, FIELD_BLOCK_TAGS))
    return md


_PARSER = _field_parser()


class _Events:
    """What rendering one text found: problems and printed things, replayed on each use
    of the cached HTML (the same text in another card is another card's problem)."""

    def __init__(self, fields: "FieldMarkup", ink: str):
        self.fields = fields
        self.ink = ink
        self.found: list[tuple] = []
        self.kept: list[str] = []
        self.refused: set[str] = set()

    def keep(self, html: str) -> str:
        """`html` (printshop's own: an icon, a picture) kept out of the HTML cleaning."""
        self.kept.append(html)
        return f"\ue000{len(self.kept) - 1}\ue001"

    def icon(self, meta: dict) -> str:
        name = meta["name"]
        try:
            icon = self.fields.icons.find(name)
        except UnknownIcon as exc:
            self.found.append(("warn", f"{exc}; a placeholder prints instead"))
            return self.keep(f'<span class="missing-icon">[{escape(name)}?]</span>')
        self.found.append(("icon", name, icon.path))
        asked = meta["attrs"].get("colour") or meta["attrs"].get("color")
        colour = self.fields.colour(asked, self.found) if asked else self.ink
        return self.keep(str(self.fields.icons.html(icon, colour,
                                                    meta["attrs"].get("size", "1.15em"))))

    def image(self, token, alt: str) -> str:
        root = self.fields.root
        src = token.attrGet("src") or ""
        try:
            path = resolve_inside(src, [root], base=root)
        except UnsafePath as exc:
            self.found.append(("warn", f"picture '{src}' {exc} (a path relative to the "
                               "project folder); a placeholder prints instead"))
            return self.keep(f'<span class="missing-image" role="img">Missing image: '
                             f"<code>{escape(src)}</code></span>")
        shown = path.relative_to(root.resolve()).as_posix() \
            if root.resolve() in path.parents else src
        self.found.append(("picture", shown, path))
        return self.keep(f'<img class="field-image" src="{project_url(path, root)}" '
                         f'alt="{escape(alt)}" '
                         'style="max-width: 100%; max-height: 2.6em; vertical-align: middle;">')

    def html(self, content: str, allowed: set[str]) -> str:
        """Raw HTML: passed on whole (cleaned once, with the rest of the field, so a <b> and
        its </b> in two pieces still hold their words); a tag not allowed is named once."""
        for tag in sorted({tag.lower() for tag in _TAG.findall(content)} - allowed):
            if tag in self.refused:
                continue
            self.refused.add(tag)
            hint = " (write ![caption](path) for a picture)" if tag == "img" else ""
            self.found.append(("warn", f"HTML <{tag}> is not printed in a field: left out"
                               f"{hint}; allowed: {', '.join(sorted(FIELD_TAGS))}"))
        return content

    def finish(self, html: str, block: bool) -> str:
        import nh3

        if self.refused or "<" in html:
            tags = (FIELD_BLOCK_TAGS if block else FIELD_TAGS) | MARKDOWN_TAGS
            html = nh3.clean(html, tags=tags, attributes={"span": {"class"}},
                             strip_comments=True, link_rel=None)
        for number, kept in enumerate(self.kept):
            html = html.replace(f"\ue000{number}\ue001", kept)
        return html


class FieldMarkup:
    """The `md` / `md_block` filters of one Jinja environment: a project's folder (pictures,
    its own icons) and colours (the ink an icon is drawn in, by default)."""

    MAX_CACHED = 16384

    def __init__(self, root: Path, colours=None):
        self.root = Path(root)
        self.icons = icon_set(self.root)
        self.colours = colours
        self.ink = _ink(colours)
        self._cache: dict[tuple, tuple[str, tuple]] = {}

    def colour(self, name: str, found: list) -> str:
        """A colour an icon asks for: a palette name or #rrggbb."""
        try:
            if self.colours is not None:
                return self.colours(name)
            if re.fullmatch(r"#[0-9a-fA-F]{6}", name):
                return name
        except Exception:  # noqa: BLE001 - palette.UnknownColour and the like
            pass
        found.append(("warn", f"icon colour '{name}' is not a palette colour or #rrggbb; "
                      "the ink is used"))
        return self.ink

    def render(self, text, block: bool = False, colour: str | None = None) -> Markup:
        if text is None:
            return Markup("")
        key = (str(text), block, colour)
        cached = self._cache.get(key)
        if cached is None:
            events = _Events(self, colour or self.ink)
            env = {"events": events}
            html = _PARSER.render(key[0], env) if block else _PARSER.renderInline(key[0], env)
            cached = (events.finish(html, block), tuple(events.found))
            if len(self._cache) < self.MAX_CACHED:
                self._cache[key] = cached
        html, found = cached
        for event in found:
            if event[0] == "warn":
                report(event[1])
            elif event[0] == "icon":
                printed_icon(event[1], event[2])
            else:
                printed_picture(event[1], event[2])
        return Markup(html)

    def inline(self, text, colour: str | None = None) -> Markup:
        """`{{ x|md }}`; `{{ x|md(deck.colour) }}` where the text is not in the ink (icons
        are drawn in `colour`)."""
        return self.render(text, colour=colour)

    def block(self, text, colour: str | None = None) -> Markup:
        return self.render(text, block=True, colour=colour)

    def icon(self, name: str, colour: str | None = None, size: str = "1.15em") -> Markup:
        """A template's `icon("torch", deck.colour)`."""
        try:
            found = self.icons.find(name)
        except UnknownIcon as exc:
            report(f"{exc}; a placeholder prints instead")
            return Markup(f'<span class="missing-icon">[{escape(name)}?]</span>')
        printed_icon(name, found.path)
        return self.icons.html(found, colour or self.ink, size)


def _ink(colours) -> str:
    if colours is None:
        return DEFAULT_INK
    try:
        return colours("ink")
    except Exception:  # noqa: BLE001 - a palette without ink
        return DEFAULT_INK
