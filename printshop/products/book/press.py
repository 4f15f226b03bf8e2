"""The book's page settings for a press: a wider inside margin for binding (the profile's
gutter) and page numbers lifted into the profile's safe area."""

from __future__ import annotations

# book.css's inside margin (its @page :left margin-right, :right margin-left), which a
# profile's gutter widens for binding
BOOK_INSIDE_MARGIN_MM = 18.0
# a page number closer to the trim than this is lifted to the top of the bottom margin
PAGE_NUMBER_DEPTH_MM = 9.0


def book_press_css(profile) -> str:
    """The book for a press: a wider inside margin (gutter) and page numbers inside the
    profile's safe area."""
    rules = []
    if profile.gutter:
        inside = BOOK_INSIDE_MARGIN_MM + profile.gutter
        rules.append(f"@page :left {{ margin-right: {inside:.2f}mm; }}")
        rules.append(f"@page :right {{ margin-left: {inside:.2f}mm; }}")
    if profile.safe > PAGE_NUMBER_DEPTH_MM:
        rules.append("@page { @bottom-left { vertical-align: top; padding-top: 2mm; } "
                     "@bottom-right { vertical-align: top; padding-top: 2mm; } }")
    return "\n".join(rules) + "\n"


