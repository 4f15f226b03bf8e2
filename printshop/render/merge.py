"""Joining PDFs rendered in chunks into one file, byte-for-byte reproducibly."""

from __future__ import annotations

import hashlib
import io

from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, ByteStringObject


def merge_pdfs(parts: list[bytes], title: str | None = None,
               outline: list[tuple[str, int]] | None = None) -> bytes:
    """`parts` in order; `outline` adds bookmarks (title, 0-based page index)."""
    if len(parts) == 1 and not outline:
        return parts[0]
    writer = PdfWriter()
    for part in parts:
        writer.append(PdfReader(io.BytesIO(part)))
    for label, page in outline or []:
        writer.add_outline_item(title=label, page_number=page)
    if title:
        writer.add_metadata({"/Title": title})
    # pypdf would make a random file identifier; derive it from the content instead
    digest = hashlib.md5(b"".join(hashlib.md5(p).digest() for p in parts)).digest()
    writer._ID = ArrayObject([ByteStringObject(digest), ByteStringObject(digest)])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
