"""Icons: `:icon[NAME]` in Markdown, table cells, card fields and sheets.

An icon is an SVG file named NAME.svg: the project's own in its `icons/` folder first,
then printshop's bundled ones (`templates/icons/`: a subset of game-icons.net, CC BY 3.0,
and printshop's die faces `die-1` … `die-6`). Each folder's `credits.yaml` says who drew
them; a product that prints an icon credits it.

Bundled icons are drawn in one colour (`currentColor` in the file): printed inline in the
colour asked for (the text's ink by default; `:icon[torch]{colour=event-gold}` or a
template's `icon("torch", deck.colour)`), sized to the text around them. A project's own
SVG is printed through the URL fetcher as a picture, in its own colours; where it draws in
`currentColor` (as icon sets made for the web do), that is the colour asked for: the URL
carries it (`project:icons/x.svg?ink=%23aa0000`) and the fetcher, or the HTML edition's
embedding, writes it into the file's text (`inked`). A picture never takes the colour of
the text around it, so without this it printed black whatever was asked.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote

from markupsafe import Markup, escape

from printshop.deps import record_file, record_missing
from printshop.resources import TEMPLATES_DIR
from printshop.safepath import project_url

ICONS_FOLDER = "icons"                 # a project's own, in its folder
BUNDLED = [TEMPLATES_DIR / "icons" / "printshop", TEMPLATES_DIR / "icons" / "game-icons"]
NAME_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
# :icon[name] or :icon[name]{colour=gold size=1.4em}
ICON_RE = re.compile(r":icon\[([^\]\n]*)\](?:\{([^}\n]*)\})?")
_ATTR_RE = re.compile(r"([a-z]+)\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"']+)")
_SVG_OPEN = re.compile(r"<svg\b[^>]*>", re.S)
_VIEWBOX = re.compile(r'viewBox="([^"]+)"')
_SIZE_RE = re.compile(r"^\d+(\.\d+)?(em|pt|mm|px|%)$")
INK_QUERY = "?ink="
_INK_RE = re.compile(r"^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20})$")   # a hex colour or a CSS name
_CURRENT_COLOUR = re.compile(rb"currentcolor", re.IGNORECASE)


def split_ink(url: str) -> tuple[str, str | None]:
    """A project SVG's URL without its ink query, and the colour it asks for (None: none,
    or not a colour)."""
    base, sep, query = url.partition(INK_QUERY)
    if not sep:
        return url, None
    colour = unquote(query)
    return base, colour if _INK_RE.match(colour) else None


def inked(data: bytes, colour: str | None) -> bytes:
    """An SVG's text with `currentColor` drawn in `colour` (as it is, without one)."""
    if not colour or not _INK_RE.match(colour):
        return data
    return _CURRENT_COLOUR.sub(colour.encode("ascii"), data)


class UnknownIcon(ValueError):
    pass


@dataclass(frozen=True)
class Icon:
    name: str
    path: Path
    bundled: bool


def parse_attrs(text: str | None) -> dict[str, str]:
    return {key: value.strip("\"'") for key, value in _ATTR_RE.findall(text or "")}


class IconSet:
    """The icons a project can print, its own first."""

    def __init__(self, project_root: Path | None):
        self.root = project_root
        self.folders = ([(project_root / ICONS_FOLDER, False)] if project_root else []) + \
            [(folder, True) for folder in BUNDLED]
        self._bodies: dict[Path, tuple[str, str]] = {}
        # a project SVG (by its path, size and time) → whether it draws in currentColor
        self._inkable: dict[tuple[Path, int, int], bool] = {}

    def find(self, name: str) -> Icon:
        if not NAME_RE.match(name or ""):
            raise UnknownIcon(f"'{name}' is not an icon name (lower-case letters, digits "
                              "and '-', as in crossed-swords)")
        for folder, bundled in self.folders:
            path = folder / f"{name}.svg"
            if path.is_file():
                record_file(path)
                return Icon(name, path, bundled)
            if not bundled:
                record_missing(path)   # adding it later changes what prints
        raise UnknownIcon(self.unknown_message(name))

    def names(self) -> list[str]:
        found: set[str] = set()
        for folder, _ in self.folders:
            if folder.is_dir():
                found.update(p.stem for p in folder.glob("*.svg"))
        return sorted(found)

    def unknown_message(self, name: str, what: str = "icon") -> str:
        names = self.names()
        close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
        hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
        return (f"no {what} '{name}'{hint}: add {ICONS_FOLDER}/{name}.svg to the project, or "
                f"use one of: {', '.join(names)}")

    def _body(self, path: Path) -> tuple[str, str]:
        """(viewBox, inner SVG) of a bundled icon."""
        if path not in self._bodies:
            text = path.read_text(encoding="utf-8")
            opening = _SVG_OPEN.search(text)
            box = _VIEWBOX.search(opening[0]) if opening else None
            inner = text[opening.end():text.rfind("</svg>")] if opening else ""
            self._bodies[path] = (box[1] if box else "0 0 512 512", inner)
        return self._bodies[path]

    def _draws_in_current_colour(self, path: Path) -> bool:
        stat = path.stat()
        key = (path, stat.st_size, stat.st_mtime_ns)
        if key not in self._inkable:
            self._inkable[key] = bool(_CURRENT_COLOUR.search(path.read_bytes()))
        return self._inkable[key]

    def html(self, icon: Icon, colour: str, size: str = "1.15em", label: str = "") -> Markup:
        """The icon inline in text: its height `size`, its baseline a little below the
        text's, so it sits on the line as a capital does."""
        if not _SIZE_RE.match(size):
            size = "1.15em"
        style = f"width: {size}; height: {size}; vertical-align: -0.2em;"
        title = escape(label or icon.name)
        if not icon.bundled:
            src = project_url(icon.path, self.root) if self.root else icon.path.as_uri()
            if self._draws_in_current_colour(icon.path) and _INK_RE.match(colour):
                src += INK_QUERY + quote(colour)
            return Markup(f'<img class="icon icon-{icon.name}" src="{src}"'
                          f' alt="{title}" style="{style}">')
        box, inner = self._body(icon.path)
        inner = inner.replace("currentColor", str(escape(colour)))
        return Markup(f'<svg class="icon icon-{icon.name}" xmlns="http://www.w3.org/2000/svg" '
                      f'viewBox="{box}" style="{style}" role="img" aria-label="{title}">'
                      f"{inner}</svg>")


_sets: dict[str, IconSet] = {}


def icon_set(project_root: Path | None) -> IconSet:
    key = str(project_root)
    if key not in _sets:
        _sets[key] = IconSet(project_root)
    return _sets[key]


def _icon_rule(state, silent: bool) -> bool:
    if not state.src.startswith(":icon[", state.pos):
        return False
    match = ICON_RE.match(state.src, state.pos)
    if not match:
        return False
    if not silent:
        token = state.push("icon", "", 0)
        token.meta = {"name": match[1].strip(), "attrs": parse_attrs(match[2])}
    state.pos = match.end()
    return True


def use_icons(md) -> None:
    """A markdown-it parser reads `:icon[NAME]` (and `:icon[NAME]{colour=… size=…}`) as an
    inline token `icon` (meta: name, attrs); the caller renders it."""
    md.inline.ruler.before("emphasis", "icon", _icon_rule)
