"""The fonts a book's PDF holds: the bundled families and the fallbacks that draw what they
cannot, predicted before rendering (the colophon names them) and checked after."""

from __future__ import annotations

import re

# The bundled families every book uses (body, tables and page numbers, headings, the
# colophon's file list), in the order the colophon names them.
BOOK_FAMILIES = ("Vollkorn", "Roboto Condensed", "Pirata One", "DejaVu Sans Mono")
MONOSPACED = "DejaVu Sans Mono"


def predicted_fonts(bodies: list[tuple[str, str]], policy, language: str) -> list[str]:
    """The families the PDF will hold: the bundled ones and the fallbacks that draw what
    they cannot (checked against the PDF after rendering)."""
    from printshop.products.common import html_text
    from printshop.render.fonts import fallback_families

    html = "".join(body for _, body in bodies)
    code = " ".join(re.findall(r"<(?:code|pre)[^>]*>(.*?)</(?:code|pre)>", html, re.S))
    # the monospaced family sets only code and raw HTML shown as text (book.css): a book
    # without either would otherwise name a font it does not hold, and be rendered again
    mono = bool(html_text(code).strip()) or 'class="raw-html"' in html
    bundled = [f for f in BOOK_FAMILIES if f != MONOSPACED or mono]
    return order_fonts([*bundled, *fallback_families(html_text(html), policy, language,
                                                     html_text(code))])


def order_fonts(families) -> list[str]:
    """Bundled families first in their usual order, then the others alphabetically."""
    families = set(families)
    return [f for f in BOOK_FAMILIES if f in families] + \
        sorted(f for f in families if f not in BOOK_FAMILIES)
