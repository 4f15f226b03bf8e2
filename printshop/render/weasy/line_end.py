"""WeasyPrint 70 breaks a line after its first word when the text fits but for its
trailing space.

`split_first_line` asks Pango to wrap the text at the available width. Pango lets a
line's trailing spaces hang past the width (as CSS does: collapsible spaces at the end of
a line are removed), so a text such as "A Cleric can … per level (see " followed by an
inline element comes back as one line that fits, but WeasyPrint measures that line with
its trailing space, finds it wider than the width, takes it for a line with no earlier
break and hyphenates its *first word*: the line ends after "A". The Player's Guide printed
"A" alone above "Cleric can turn away the unholy …" on Letter (06-playing.md, Turn
Unholy); any paragraph whose text before an inline element fits within a space's width
of the column could.

The fix: a text that Pango fits on one line, and that fits the width without its trailing
spaces, fits (the caller then looks for the break before the inline element that follows,
as it does for any line too long, and finds the last one).
"""

from __future__ import annotations

from printshop.render.weasy.registry import Patch, SourceEdit

FUNCTION = "weasyprint.text.line_break.split_first_line"

_FITS = (
    """    first_line_width, _ = line_size(first_line, style)
    if resume_index is None and first_line_width <= max_width:
        # The first line fits in the available width.
        return first_line_metrics(
            first_line, text, layout, resume_index, space_collapse, style)
""",
    """    first_line_width, _ = line_size(first_line, style)
    if resume_index is None and first_line_width <= max_width:
        # The first line fits in the available width.
        return first_line_metrics(
            first_line, text, layout, resume_index, space_collapse, style)
    if resume_index is None and space_collapse and text.endswith(' '):
        # printshop: it fits but for its trailing spaces, which hang at the end of a line
        # (render/weasy/line_end.py)
        trimmed = create_layout(
            text.rstrip(' '), style, context, max_width, justification_spacing)
        trimmed_line, trimmed_index = trimmed.get_first_line()
        if trimmed_index is None and line_size(trimmed_line, style)[0] <= max_width:
            return first_line_metrics(
                first_line, text, layout, resume_index, space_collapse, style)
""")

PATCH = Patch(
    name="trailing-space-fit",
    kind="fix",
    targets={FUNCTION: "39ad1016863ca34d"},
    why="a text that fits but for its trailing space was broken after its first word "
        "(\"A\" alone on a line of the guide)",
    gain="no line broken after its first word where the whole text fits",
    edits=(SourceEdit(FUNCTION, (_FITS,),
                      rebind=("weasyprint.layout.inline.split_first_line",
                              "weasyprint.layout.preferred.split_first_line")),),
)
