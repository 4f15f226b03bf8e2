"""WeasyPrint 70 loses text after a `column-span: all` element that breaks across a page.

`columns_layout` lays a spanning child out like any block; when the child breaks, its
resume point is a skip stack relative to *its own* children ({7: None}: "go on at its
8th child"). The function kept that stack and, at its end, read it as if it were relative
to the multi-column box's children (`{index + skip: …}`), so the next page resumed at the
wrong sibling of the spanner, with the spanner's inner position applied to it: the rest of
the spanner and the siblings up to that index were never laid out, without a warning
(the Player's Guide lost the Weapons table's last rows and two paragraphs). On the way
in, a spanner that goes on at the top of a page was handed the multi-column box's stack
rebased for its columns ({0: …}) instead of its own.

Two lines of the function are changed: the spanner's resume point is kept relative to the
multi-column box (at the spanner's index), and a spanner that goes on is handed its own
stack. See ../shared/research/column-span-text-loss.md for the reproduction.
"""

from __future__ import annotations

from printshop.render.weasy.registry import Patch, SourceEdit

FUNCTION = "weasyprint.layout.column.columns_layout"

_IN = (
    """            new_child, resume_at, next_page, adjoining_margins, _, _ = (
                block_level_layout(
                    context, block, original_bottom_space, skip_stack, containing_block,
""",
    """            # printshop: a spanner going on from the last page gets its own skip stack
            # (render/weasy/column_span.py)
            new_child, resume_at, next_page, adjoining_margins, _, _ = (
                block_level_layout(
                    context, block, original_bottom_space,
                    skip_stack[0] if skip_stack else None, containing_block,
""")
_OUT = (
    """            if resume_at:
                last_loop = True
                break_page = True
                column_skip_stack = resume_at
                break
""",
    """            if resume_at:
                last_loop = True
                break_page = True
                # printshop: relative to this box's children, at the spanner's index
                column_skip_stack = {0: resume_at}
                break
""")

PATCH = Patch(
    name="column-span-resume",
    kind="fix",
    targets={FUNCTION: "7a05cce3272fc581"},
    why="a `column-span: all` element broken across a page resumed at the wrong sibling: "
        "the text between was lost without a warning",
    gain="no text lost (the guide's Weapons table, its note and two paragraphs)",
    edits=(SourceEdit(FUNCTION, (_IN, _OUT),
                      rebind=("weasyprint.layout.block.columns_layout",)),),
)
