"""Pictures in the book: the cover (`cover:` in the guide's manifest entry: full bleed on a
print profile), chapter-opener art and spot art placed by a chapter, each with its caption
and credit, and the colophon's list of every picture and icon with author and licence.

    ::art[art/torch.png]{caption="A torch gutters" place=right width=40%}

`place`: `column` (the default: the column's width), `left` or `right` (beside the text,
`width` of the column, 40% unless given), `opener` (under the chapter's title, across the
page, before the columns). Paths are relative to the project folder, inside it. A missing
picture is a warning at its line (an error under --strict) and a placeholder prints.
"""

from __future__ import annotations

import re
from pathlib import Path

from markupsafe import Markup, escape

from printshop.errors import Problem
from printshop.products import markup
from printshop.products.credits import icon_credits, picture_credits, shown
from printshop.safepath import UnsafePath, project_url, resolve_inside
from printshop.source.credits import credit_for, missing_credit_message

PLACES = ("column", "left", "right", "opener")
_WIDTH = re.compile(r"^(\d{1,3})%$")


def art_path(project, argument: str) -> tuple[Path | None, str]:
    """(the file, or None; why not)."""
    try:
        return resolve_inside(argument, [project.root], base=project.root), ""
    except UnsafePath as exc:
        return None, str(exc)


def check_art(ctx, project, manuscript) -> None:
    """Every `::art` of the manuscript: its place, its file, its credit (warnings at its
    line)."""
    for directive in manuscript.directives:
        if directive.name != "art":
            continue
        place = directive.attrs.get("place", "column")
        if place not in PLACES:
            ctx.warn(Problem(str(directive.path), f"::art: place={place} is not one of "
                             f"{', '.join(PLACES)}; printed in the column", directive.line))
        width = directive.attrs.get("width")
        if width is not None and not _WIDTH.match(width):
            ctx.warn(Problem(str(directive.path), f"::art: width={width}: give a share of "
                             "the column, such as 40%", directive.line))
        path, why = art_path(project, directive.argument)
        if path is None:
            ctx.warn(Problem(str(directive.path), f"::art: picture '{directive.argument}' "
                             f"{why} (a path relative to the project folder); a placeholder "
                             "prints instead", directive.line))
            continue
        credit = credit_for(path, shown(path, project.root))
        if not credit.complete:
            ctx.warn(Problem(str(directive.path), missing_credit_message(
                credit, shown(path.parent, project.root)), directive.line))


def art_figure(project, argument: str, attrs: dict, md) -> Markup:
    """A `::art` as printed: the picture, its caption (Markdown, through `md`) and its
    credit."""
    place = attrs.get("place", "column")
    place = place if place in PLACES else "column"
    width = attrs.get("width", "40%" if place in ("left", "right") else "")
    style = f' style="width: {width};"' if _WIDTH.match(width or "") else ""
    path, _ = art_path(project, argument)
    caption = attrs.get("caption", "")
    if path is None:
        picture = (f'<span class="missing-image" role="img">Missing image: '
                   f"<code>{escape(argument)}</code></span>")
        credit_line = ""
    else:
        name = shown(path, project.root)
        markup.printed_picture(name, path)
        credit = credit_for(path, name)
        picture = f'<img src="{project_url(path, project.root)}" alt="{escape(caption)}">'
        who = ", ".join(p for p in (credit.author, credit.licence) if p)
        credit_line = f'<span class="art-credit">{escape(who)}</span>' if who else ""
    text = md(caption) if caption else ""
    figcaption = f"<figcaption>{text} {credit_line}</figcaption>" if caption or credit_line \
        else ""
    return Markup(f'<figure class="art art-{place}"{style}>{picture}{figcaption}</figure>')


def cover(project, name: str | None, width_mm: float, height_mm: float,
          bleed_mm: float) -> dict | None:
    """The cover picture, covering the page and its bleed (None without one)."""
    if not name:
        return None
    path, why = art_path(project, name)
    style = (f"left: {-bleed_mm:g}mm; top: {-bleed_mm:g}mm; width: {width_mm + 2 * bleed_mm:g}mm;"
             f" height: {height_mm + 2 * bleed_mm:g}mm;")
    if path is None:
        markup.report(f"cover: picture '{name}' {why} (a path relative to the project "
                      "folder); a placeholder prints instead")
        return {"src": None, "name": name, "style": style}
    shown_name = shown(path, project.root)
    markup.printed_picture(shown_name, path)
    credit = credit_for(path, shown_name)
    if not credit.complete:
        markup.report(missing_credit_message(credit, shown(path.parent, project.root)))
    return {"src": project_url(path, project.root), "name": name, "style": style,
            "credit": ", ".join(p for p in (credit.author, credit.licence) if p)}


def colophon_credits(project, reader, printed: markup.Printed) -> dict:
    """Every picture and icon the book prints, with author and licence."""
    every = markup.Printed()
    every.merge(printed)
    for name, path in reader.pictures.items():
        every.pictures.setdefault(name, path)
    for name, path in reader.printed_icons.items():
        every.icons.setdefault(name, path)
    # a Markdown picture without a credit is listed as such, not warned about: books
    # brought from elsewhere keep building
    pictures = picture_credits(every, project.root, warn=False)
    return {"pictures": [{"file": c.file, "line": c.line(), "complete": c.complete}
                         for c in pictures],
            "icons": icon_credits(every, project.root)}


def embed_images(html: str, roots) -> str:
    """The screen edition is one file: project images become data URLs (already checked)."""
    import base64
    import mimetypes
    import re
    from urllib.parse import unquote, urlsplit

    from printshop.safepath import resolve_inside
    from printshop.source.icons import inked, split_ink

    def data_url(path: Path, ink: str | None) -> str:
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        content = path.read_bytes()
        if ink and mime == "image/svg+xml":   # a project icon in the colour asked
            content = inked(content, ink)
        return f"data:{mime};base64,{base64.b64encode(content).decode('ascii')}"

    def inline(match):
        parts = urlsplit(match[2])
        path = resolve_inside(unquote(parts.path), roots, allow_absolute=True)
        ink = split_ink("?" + parts.query)[1] if parts.query else None
        return f'{match[1]}"{data_url(path, ink)}"'

    def inline_project(match):     # project:art/x.png (safepath.project_url)
        name, ink = split_ink(match[2][len("project:"):])
        path = resolve_inside(unquote(name), list(roots)[:1], base=Path(list(roots)[0]))
        return f'{match[1]}"{data_url(path, ink)}"'

    html = re.sub(r'(<img[^>]*?\ssrc=)"(project:[^"]+)"', inline_project, html)
    return re.sub(r'(<img[^>]*?\ssrc=)"(file://[^"]+)"', inline, html)


def coarse_picture_problems(project, manuscript, reader, cover_image: str | None,
                            pictures: list, profile) -> list[Problem]:
    """A located warning for each picture the book prints under the press profile's
    resolution (render/weasy/pictures.py found them): at the `::art` or Markdown image
    that places it, or the manifest for the cover."""
    from urllib.parse import unquote

    from printshop.errors import display_path
    from printshop.safepath import project_url

    where: dict[str, tuple[str, int | None]] = {
        uri: (str(path), line) for uri, (path, line) in reader.picture_lines.items()}
    for directive in manuscript.directives:
        placed = art_path(project, directive.argument)[0] if directive.name == "art" else None
        if placed is not None:
            where.setdefault(project_url(placed, project.root),
                             (str(directive.path), directive.line))
    manifest = str(project.manifest_path) if project.manifest_path else "printshop.yaml"
    problems = []
    for picture in sorted(pictures, key=lambda p: (p.page, p.src)):
        source, line = where.get(picture.src, (manifest, None))
        if picture.src.startswith("project:"):
            name = unquote(picture.src.removeprefix("project:"))
        elif picture.src.startswith("file://"):
            name = shown(Path(unquote(picture.src.removeprefix("file://"))), project.root)
        else:
            name = picture.src
        what = "the cover picture" if cover_image and name == cover_image else \
            f"picture '{name}'"
        problems.append(Problem(display_path(source), f"{what} prints at "
                                f"{picture.ppi:.0f} ppi on page "
                                f"{picture.page} ({picture.width_mm:.0f} × "
                                f"{picture.height_mm:.0f} mm), under the "
                                f"{profile.spec.min_image_ppi} ppi the {profile.name} profile "
                                "asks for: give it more pixels or print it smaller", line))
    return problems
