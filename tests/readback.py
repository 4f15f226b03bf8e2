"""Reading built PDFs back against their source text, without WeasyPrint.

The PDF's text comes from pdfium (pypdfium2); the source's from the Markdown and YAML the
product was made from. Both are compared as letters and digits only, case-folded (spaces,
punctuation, inserted hyphens and line breaks cannot make a difference). A source unit (a
paragraph, a list item, a table row, a card's text) is found when its words appear in
order, each within `MAX_GAP` letters of the one before it: room for a running head and a
folio where a page breaks a paragraph, or a page number after a cross-reference, but not
for a lost row or sentence.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

_KEEP = re.compile(r"[^\W_]+")
MAX_GAP = 90


def norm(text: str) -> str:
    return "".join(_KEEP.findall(unicodedata.normalize("NFKC", text).casefold()))


def words(text: str) -> list[str]:
    return [w for w in (norm(part) for part in text.split()) if w]


def pdf_pages(path: Path | bytes) -> list[str]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(path if isinstance(path, bytes) else str(path))
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


@dataclass
class Printed:
    """A PDF's text as one stream of letters and digits, with each page's start."""
    text: str
    starts: list[int]

    @classmethod
    def of(cls, pages: list[str]) -> "Printed":
        starts, parts, at = [], [], 0
        for page in pages:
            starts.append(at)
            part = norm(page)
            parts.append(part)
            at += len(part)
        return cls("".join(parts), starts)

    def find(self, unit: list[str], start: int = 0, max_gap: int = MAX_GAP,
             window: int | None = None) -> int | None:
        """Where `unit` (normalised words) ends, found in order from `start`; None if it
        is not there. Candidates start where its first two words stand together (where a
        page break parts them, where its first word is)."""
        if not unit:
            return start
        for head in ([unit[0] + unit[1]] if len(unit) > 1 else []) + [unit[0]]:
            at = start
            while (first := self.text.find(head, at)) >= 0:
                if window is not None and first > start + window:
                    break
                end = self._rest(unit, first + len(unit[0]), max_gap)
                if end is not None:
                    return end
                at = first + 1
        return None

    def _rest(self, unit: list[str], end: int, max_gap: int) -> int | None:
        for word in unit[1:]:
            found = self.text.find(word, end, end + max_gap + len(word))
            if found >= 0:
                end = found + len(word)
                continue
            end = self._split_word(word, end, max_gap)
            if end is None:
                return None
        return end

    def _split_word(self, word: str, end: int, max_gap: int) -> int | None:
        """A word hyphenated across a page break: its start, the running head and folio,
        then its end."""
        for cut in range(2, len(word) - 1):
            head = self.text.find(word[:cut], end, end + max_gap + cut)
            if head < 0:
                continue
            tail = self.text.find(word[cut:], head + cut, head + cut + max_gap + len(word))
            if tail >= 0 and self.text.find(word, end, tail) < 0:
                return tail + len(word) - cut
        return None


# how far past the last unit found the next one may start (a few pages): a short unit
# found much further on (a heading's words in a later chapter) would skip what lies between
WINDOW = 40_000


def missing_units(printed: Printed, units: list[tuple[str, str]],
                  max_gap: int = MAX_GAP, window: int | None = WINDOW) -> list[str]:
    """The units ((where, text)) not found in order in `printed`."""
    missing, cursor = [], 0
    for where, text in units:
        unit = words(text)
        end = printed.find(unit, cursor, max_gap, window)
        if end is None:
            missing.append(f"{where}: {text[:100]}")
        else:
            cursor = end
    return missing


def markdown_text(source: str) -> str:
    """Markdown as the words it prints (list markers, link targets and markup left out)."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable("table")
    tokens = [t for t in md.parse(source) if t.type == "inline"]
    out = []
    for token in tokens:
        for child in token.children or ():
            if child.type in ("text", "code_inline"):
                out.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                out.append(" ")
            elif child.type == "image":
                out.append(" ")
        out.append(" ")
    return "".join(out).strip()
