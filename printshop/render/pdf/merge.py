"""Joining PDFs rendered in chunks into one file, byte-for-byte reproducibly. Every join is
pikepdf's: a deck's or a sheet's parts here, a pack's (layered_merge.py), a book's parts
(book_merge.py). And the other way: a PDF's pages each as a file, a blank page."""

from __future__ import annotations

import io
import re
from decimal import Decimal


def merge_pdfs(parts: list[bytes], title: str | None = None,
               outline: list[tuple[str, int]] | None = None) -> bytes:
    """`parts` in order; `outline` adds bookmarks (title, 0-based page index) after the
    parts' own (a reference sheet's sections, a deck's card titles), as pypdf made them.
    Joined with pikepdf (`layered_merge.LayeredJoin`: a font equal in every byte in
    several parts, as a deck's repeated backs have, is written once): a 12-sheet deck in
    0.02 s and 217 KB, where pypdf took 0.08 s (0.17 s with its import) and wrote 251 KB."""
    if len(parts) == 1 and not outline:
        return parts[0]
    from printshop.render.pdf.layered_merge import LayeredJoin

    with LayeredJoin() as join:
        bookmarks = []
        for part in parts:
            first = len(join.merged.pages)
            source = join.add(part)
            bookmarks += _bookmarks(source, first)
        return join.finish(title, outline, bookmarks=bookmarks)


def _bookmarks(source, offset: int) -> list:
    """A part's own bookmarks, nested as they are, pointing at its pages `offset` on (at
    the same spot of the page: WeasyPrint's are explicit [page /XYZ left top zoom])."""
    import pikepdf

    pages = {page.obj.objgen: number for number, page in enumerate(source.pages)}

    def number(value):
        return float(value) if isinstance(value, (int, float, Decimal)) else None

    def convert(item):
        target = item.destination
        if not (isinstance(target, pikepdf.Array) and len(target) >= 2 and
                isinstance(target[0], pikepdf.Dictionary) and target[0].objgen in pages):
            return None   # a named destination or an action: none of WeasyPrint's
        page = offset + pages[target[0].objgen]
        if target[1] == "/XYZ" and len(target) == 5:
            made = pikepdf.OutlineItem(str(item.title), page, pikepdf.PageLocation.XYZ,
                                       left=number(target[2]), top=number(target[3]),
                                       zoom=number(target[4]))
        else:
            made = pikepdf.OutlineItem(str(item.title), page)
        made.children.extend(child for child in map(convert, item.children)
                             if child is not None)
        return made

    with source.open_outline() as outline:
        return [made for made in map(convert, outline.root) if made is not None]


_ID_RE = re.compile(rb"/ID\s*\[\s*<[0-9A-Fa-f]*>\s*<[0-9A-Fa-f]*>\s*\]")


class PikeJoin:
    """A new PDF made of pages copied from others with pikepdf: `open` each part, copy its
    pages into `merged`, then `save` (reproducible bytes: a file id made from the content,
    the highest PDF version of the parts). The parts stay open until the end: pikepdf reads
    a copied page's streams from its source when saving."""

    def __enter__(self):
        import pikepdf

        self.merged = pikepdf.new()
        self.sources: list = []
        self.version = "1.4"
        return self

    def open(self, part: bytes):
        import pikepdf

        source = pikepdf.open(io.BytesIO(part))
        self.sources.append(source)
        self.version = max(self.version, source.pdf_version)
        return source

    def save(self) -> bytes:
        buffer = io.BytesIO()
        self.merged.save(buffer, deterministic_id=True, min_version=self.version)
        return buffer.getvalue()

    def __exit__(self, *exc):
        self.merged.close()
        for source in self.sources:
            source.close()


def split_pages(pdf: bytes) -> list[bytes]:
    """Each page of `pdf` as a PDF of its own (reproducibly: pikepdf's file identifier is
    made from the content)."""
    import pikepdf

    out = []
    with pikepdf.open(io.BytesIO(pdf)) as source:
        for page in source.pages:
            single = pikepdf.new()
            single.pages.append(page)
            buffer = io.BytesIO()
            single.save(buffer, deterministic_id=True)
            out.append(buffer.getvalue())
    return out


def blank_page(width_mm: float, height_mm: float) -> bytes:
    """A one-page PDF with nothing on it: the back of a part with an odd number of pages."""
    import pikepdf

    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(width_mm * 72 / 25.4, height_mm * 72 / 25.4))
    buffer = io.BytesIO()
    pdf.save(buffer, deterministic_id=True)
    return buffer.getvalue()
