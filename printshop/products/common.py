"""What every product needs to compose HTML: the Jinja environment, stylesheets, fonts."""

from __future__ import annotations

import base64
import io
import os
import re
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path

from markupsafe import Markup

from printshop import __version__, deps
from printshop.errors import SPREADSHEET_PATH, PrintshopError, display_path
from printshop.project import Project
from printshop.render.jinja import make_environment
from printshop.render.job import Stylesheet
from printshop.safepath import UnsafePath, resolve_inside


def signed(value) -> str:
    """+1, 0, −1 (a real minus sign: hyphens look thin in print)."""
    if value is None or value == "":
        return ""
    number = int(value)
    return f"+{number}" if number > 0 else ("0" if number == 0 else f"\u2212{-number}")


def jinja_environment(project: Project, extra_filters: dict | None = None, colours=None):
    """`colours` (printshop.source.palette.Colours) is what templates call as colour("name"):
    sRGB unless a print profile asks for CMYK."""
    from printshop.products.markup import FieldMarkup
    from printshop.source.palette import Colours

    if colours is None:
        colours = Colours.for_project(project.root)
    # a field's Markdown, HTML, pictures and :icon[…]: rendered, or a located warning
    fields = FieldMarkup(project.root, colours)
    from printshop.roll.recipe.values import display

    filters = {"signed": signed, "md": fields.inline, "md_block": fields.block,
               "shown": display}   # a recipe's value as a sheet prints it
    filters.update(extra_filters or {})
    def class_icon(class_id: str, colour: str | None = None, size: str = "1em"):
        """The icon of a class of tables/classes.yaml (`icon:`), or nothing."""
        classes = None if project.is_foreign else project.classes
        found = next((c for c in classes.classes if c.id == class_id), None) \
            if classes else None
        if found is None or not found.icon:
            return Markup("")
        return fields.icon(found.icon, colour, size)

    def credits_so_far() -> str:
        """The credits of the pictures and icons printed so far in the sheet (or card)
        being composed: a footer's line."""
        from printshop.products.credits import credits_line
        from printshop.products.markup import innermost

        return credits_line(innermost(), project.root)

    def icon_credit(*names: str) -> str:
        """The credit line of these icons (a class card's own)."""
        from printshop.products.credits import credits_line
        from printshop.products.markup import Printed
        from printshop.source.icons import UnknownIcon, icon_set

        printed = Printed()
        for name in names:
            try:
                printed.icons[name] = icon_set(project.root).find(name).path
            except UnknownIcon:
                continue
        return credits_line(printed, project.root)

    def class_icons_credit() -> str:
        """The credits of every class's icon (a pack's cover: any class may be rolled)."""
        from printshop.products.credits import credits_line
        from printshop.products.markup import Printed
        from printshop.source.icons import UnknownIcon, icon_set

        classes = None if project.is_foreign else project.classes
        printed = Printed()
        for cls in classes.classes if classes else []:
            if cls.icon:
                try:
                    printed.icons[cls.icon] = icon_set(project.root).find(cls.icon).path
                except UnknownIcon:
                    continue    # reported where the class is loaded
        return credits_line(printed, project.root)

    return make_environment(project.template_dirs, filters=filters,
                            globals_={"printshop_version": __version__, "colour": colours,
                                      "icon": fields.icon, "class_icon": class_icon,
                                      "credits_so_far": credits_so_far,
                                      "icon_credit": icon_credit,
                                      "class_icons_credit": class_icons_credit})


def template_problem(env, name, exc) -> PrintshopError:
    """A template that cannot be loaded (its syntax, a missing file), as a problem."""
    import jinja2

    if isinstance(exc, jinja2.TemplateSyntaxError):
        return PrintshopError.at(exc.filename or name, f"template syntax: {exc.message}",
                                 exc.lineno)
    if isinstance(exc, jinja2.TemplateNotFound):
        return PrintshopError.at("templates", f"template not found: {name}")
    return PrintshopError.at(name, str(exc))


def stylesheet(project: Project, name: str) -> Stylesheet:
    """A CSS file from the project's templates (first) or printshop's own."""
    for folder in project.template_dirs:
        candidate = folder / name
        if candidate.exists():
            try:
                path = resolve_inside(candidate, [folder], allow_absolute=True)
            except UnsafePath as exc:
                raise PrintshopError.at(candidate, f"stylesheet {exc}") from None
            return Stylesheet(path=str(path))
        deps.record_missing(candidate)  # it would shadow the one found further on
    raise PrintshopError.at(project.template_dirs[0], f"stylesheet '{name}' not found in "
                            f"{', '.join(str(f) for f in project.template_dirs)}")


def check_stylesheets(ctx, project: Project, names: list[str]) -> None:
    """Before rendering: every url() inside the project, every font-family a bundled font."""
    from printshop.source.css import check_stylesheets as check

    paths = [Path(stylesheet(project, name).path or "") for name in names]   # (files)
    errors, warnings = check(paths, project.read_roots)
    if errors:
        raise PrintshopError(errors)
    for warning in warnings:
        ctx.warn(warning)


def page_size_css(project: Project, paper: str, landscape: bool = False) -> Stylesheet:
    width, height = project.paper_size_mm(paper)
    if landscape:
        width, height = height, width
    return Stylesheet(text=f"@page {{ size: {width:g}mm {height:g}mm; }}",
                      label=f"paper {paper}")


def base_url(project: Project) -> str:
    return project.root.as_uri() + "/"


def html_text(html: str) -> str:
    import html as html_module
    import re

    return html_module.unescape(re.sub(r"<[^>]+>", " ", html))


def warn_missing_glyphs(ctx, html, source: str = "", policy=None) -> set[str]:
    """Characters no allowed font can draw would print as empty boxes: say so once per
    script, with a count and the fix, at the first file where the script appears.

    `html` is one document or a list of (source, html) parts; returns the scripts reported.
    """
    from collections import Counter

    from printshop.errors import Problem
    from printshop.render.fonts import BUNDLED_ONLY, describe_missing, missing_by_script

    policy = policy or BUNDLED_ONLY
    parts = [(source, html)] if isinstance(html, str) else html
    totals: dict[str, Counter] = {}
    first: dict[str, str] = {}
    for where, part in parts:
        for script, counter in missing_by_script(html_text(part), policy).items():
            totals.setdefault(script, Counter()).update(counter)
            first.setdefault(script, where)
    reported = getattr(ctx, "reported_scripts", None)
    if reported is not None:
        reported.update(totals)
    for script, counter in sorted(totals.items()):
        line, column = first_place(first[script], counter) or (None, None)
        ctx.warn(Problem(display_path(first[script]) if first[script] else first[script],
                         describe_missing(script, counter, policy.system), line, column))
    return set(totals)


def first_place(path: str, chars) -> tuple[int, int] | None:
    """(line, column) of the first of `chars` in the text file `path`, so that a message
    about them points at one the author can see; None for a spreadsheet (its rows and
    columns are not the file's lines), a file that is not text, or none of them in it
    (a character that came from a table the chapter prints)."""
    if not path or SPREADSHEET_PATH.search(path):
        return None
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    at = min((i for i in (text.find(char) for char in chars) if i >= 0), default=-1)
    if at < 0:
        return None
    start = text.rfind("\n", 0, at) + 1
    return text.count("\n", 0, at) + 1, len(text[start:at]) + 1


def build_date() -> str | None:
    """The build date only when SOURCE_DATE_EPOCH asks for one (reproducible builds)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        return None
    try:
        return datetime.fromtimestamp(int(epoch), tz=timezone.utc).strftime("%Y-%m-%d")
    except (ValueError, OverflowError, OSError):
        raise PrintshopError.at("SOURCE_DATE_EPOCH", f"'{epoch}' is not a Unix timestamp") \
            from None


@lru_cache(maxsize=None)
def font_as_data_url(path: str) -> str:
    """A bundled TTF as a WOFF data URL, so the HTML edition is one self-contained file.

    WOFF (zlib), not WOFF2: Brotli takes ~1.5 s a font, zlib a tenth of that. The tables
    are written in fontTools' own order (reorderTables=None): keeping the source font's
    order or sorting them writes the whole font twice, 0.44 s for the bundled fonts
    against 0.19 s, for the same bytes in another order. Kept in the user's cache by the
    font's bytes (printshop/user_cache.py).
    """
    from printshop import user_cache

    raw = Path(path).read_bytes()

    def woff() -> bytes:
        from fontTools.ttLib import TTFont

        # recalcTimestamp=False: fontTools would stamp the font with the time of the build
        font = TTFont(io.BytesIO(raw), recalcTimestamp=False)
        font.flavor = "woff"
        buffer = io.BytesIO()
        font.save(buffer, reorderTables=None)
        return buffer.getvalue()

    # (made once a machine: 0.16 s of a build's parent for the bundled fonts, every build)
    data = user_cache.made_from("woff-1", raw, woff, lambda data: data[:4] == b"wOFF")
    return "data:font/woff;base64," + base64.b64encode(data).decode("ascii")


# Character and reference sheets are laid out for these papers only (their boxes and
# columns are measured in millimetres of the page): asked for another, they keep their own
SHEET_PAPERS = ("letter", "a4")


def sheet_paper(asked: str, own: str | None = None) -> str:
    """The paper a sheet prints on when `asked` is wanted: it, if the sheet is laid out for
    it, else the product's `own` paper, else Letter."""
    return asked if asked in SHEET_PAPERS else (own or "letter")


_CSS_URL = re.compile(r"url\((['\"]?)([^'\")]+)\1\)")


def fonts_for_screen(sheets: list[Stylesheet], roots: list[Path]) -> None:
    """Make the data URLs of the fonts `sheets` name (`font_as_data_url`, cached per
    process) ahead of the HTML edition's composition (a book's is composed on a thread while
    the parent waits for the workers: products/book/guide.py). Problems are left for the
    composition to report."""
    for sheet in sheets:
        try:
            inline_css_for_screen(sheet, roots)
        except Exception:   # noqa: BLE001 (reported when the edition is composed)
            continue


def inline_css_for_screen(sheet: Stylesheet, roots: list[Path]) -> str:
    """The stylesheet's text with its fonts as data URLs; any other url() is refused."""
    css_path = Path(sheet.path or "")   # (a file's stylesheet)
    css_text = css_path.read_text(encoding="utf-8")

    def replace(match):
        target = match[2].strip()
        if target.startswith("data:"):
            return match[0]
        try:
            path = resolve_inside(target, roots, base=css_path.parent)
        except UnsafePath as exc:
            raise PrintshopError.at(css_path, f"url({target}): {exc}") from None
        if path.suffix.lower() not in (".ttf", ".otf"):
            raise PrintshopError.at(css_path, f"url({target}): only fonts can be inlined "
                                    "into the HTML edition")
        return f"url({font_as_data_url(str(path))})"

    return _CSS_URL.sub(replace, css_text)
