"""Named strings (CSS `string-set`, read by `string()` in running heads) across documents
laid out one part at a time (products/book/parts.py).

In a whole book, a page where no element sets a string shows the last value set before it,
perhaps in an earlier chapter. A part laid out alone has no earlier pages, so the values
the parts before it ended with are handed to it (`carried`) and used where WeasyPrint finds
no value set so far in the part; `assignments` reads what a laid-out part sets, page by
page, for the parts after it.

Carrying them is the patch `carried-strings` of render/weasy/registry.py. Where it is
skipped (another WeasyPrint), a job with values to carry says so
(`RenderResult.strings_carried`) and the book is laid out whole instead of in parts
(products/book/parts.py): slower, the same pages.
"""

from __future__ import annotations

from contextlib import contextmanager

from printshop.render.weasy.registry import Patch

_carried: dict[str, str] = {}


def _install():
    """`string()` falls back on the carried values (none outside `carried`)."""
    from weasyprint.layout import LayoutContext

    original = LayoutContext.get_string_set_for

    def get_string_set_for(self, page, name, keyword="first"):
        found = original(self, page, name, keyword)
        if not found and name in _carried and keyword != "all-once" and \
                not any(number <= self.current_page
                        for number in self.string_set.get(name, ())):
            return (_carried[name],)
        return found

    return [(LayoutContext, "get_string_set_for", get_string_set_for)]


CARRIED_STRINGS = Patch(
    name="carried-strings",
    kind="speed",
    # what `string()` asks, and where the values it finds are gathered (`string_set`)
    targets={"weasyprint.layout.LayoutContext.get_string_set_for": "192682fffbc08fa2",
             "weasyprint.layout.LayoutContext.get_string_or_element_for":
                 "f40ec28ae3470c6e"},
    why="a part of the book laid out alone has no earlier pages to take its running heads' "
        "named strings from",
    gain="32.6 % of the guide's cold-build CPU: the book laid out in parts on every "
         "core, not whole on one (products/book/parts.py)",
    install=_install,
)


@contextmanager
def carried(values: dict[str, str]):
    _carried.clear()
    _carried.update(values)
    try:
        yield
    finally:
        _carried.clear()


def assignments(document) -> dict[str, list[tuple[int, str]]]:
    """name → [(page, the last value set on it)] for every page that sets the string."""
    found: dict[str, dict[int, str]] = {}
    for number, page in enumerate(document.pages, start=1):
        for box in page._page_box.descendants():
            values = getattr(box, "string_set", None)
            if values and values != "none":
                for name, text in values:
                    found.setdefault(name, {})[number] = text
    return {name: sorted(pages.items()) for name, pages in found.items()}
