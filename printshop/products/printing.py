"""What a print profile changes in a product's PDF, shared by the book and the cards: the
palette written for the profile's colour mode, the CSS of bleed, marks and bookmarks, and
the finished file checked by preflight before anything is written."""

from __future__ import annotations

from printshop.errors import PrintshopError, Problem
from printshop.render.job import Stylesheet
from printshop.source.palette import Colours


def colours_for(project, profile) -> Colours:
    mode = "cmyk" if profile is not None and profile.cmyk else "srgb"
    return Colours.for_project(project.root, mode)


def palette_css(colours: Colours) -> Stylesheet:
    return Stylesheet(text=colours.variables_css(), label=f"palette ({colours.mode})")


def sheet_palette_css(project, profile=None) -> Stylesheet:
    """The palette for the character sheet's stylesheets (css/pregens.css and those on top of
    it name only palette colours): sRGB, or CMYK for a CMYK `profile`."""
    return palette_css(colours_for(project, profile))


def profile_css(profile, bookmarks_css: bool = True) -> str:
    """Bleed, marks and bookmarks: the page rules every product of the profile shares."""
    rules = []
    page = []
    if profile.bleed:
        page.append(f"bleed: {profile.bleed:.3f}mm;")
    # crop marks are drawn when the PDF is finished (render/pdf/press.py), outside the bleed:
    # WeasyPrint's own lie inside it, in black, unseen on a dark background
    page.append("marks: none;")
    rules.append("@page { " + " ".join(page) + " }")
    if not profile.bookmarks and bookmarks_css:
        rules.append("* { bookmark-level: none !important; }")
    return "\n".join(rules) + "\n"


def finish_for_profile(ctx, project, profile, pdf: bytes, trim_mm, title: str | None,
                       what: str) -> bytes:
    """The rendered `pdf` finished for `profile` and preflighted against it; a failed check
    is a PrintshopError naming `what`, so the build writes nothing."""
    from printshop.preflight import preflight
    from printshop.render.pdf.press import finish

    if not profile.for_press:
        return pdf
    icc = profile.icc_path(project.root)
    finished, added = finish(pdf, profile, icc, title=title, uncompressed=ctx.uncompressed)
    if added and ctx.progress:
        ctx.progress(f"{what}: added {added} blank page{'s' if added != 1 else ''} at the end "
                     f"for the '{profile.name}' page-count rule")
    findings = preflight(finished, profile, trim_mm, icc.read_bytes() if icc else None)
    errors = [f for f in findings if f.error]
    for finding in findings:
        if not finding.error:
            ctx.warn(Problem(what, f"preflight ({profile.name}): {finding}"))
    if errors:
        raise PrintshopError([Problem(what, f"preflight ({profile.name}) fails: {f}")
                              for f in errors])
    return finished
