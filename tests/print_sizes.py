"""What size text a PDF prints, read back from the PDF (pypdfium2): for the readability
tests of reference sheets (nothing below 8 pt) and cards (no card text below 7 pt)."""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

# Labels for reprinting and printing, not text to play from: a card's id ("EV-07 · The
# Event Deck", "HI · SEED brightwater #3 · Hirelings") and the printer's note in a sheet's
# margin ("Print at 100 % …", and the credits of the pictures and icons it prints).
ID_OR_NOTE = re.compile(r"^([A-Z][A-Z0-9]{0,5}(-[A-Z0-9]+)? · |Print at 100 %|"
                        r"(Icons|Art|Pictures?) by |see \S+-credits\.txt)")


def text_runs(pdf: Path) -> list[tuple[int, float, str]]:
    """(page, size in pt, text) for each run of characters of one size, in page order. The
    size is the font size times the text's scale on the page (WeasyPrint writes CSS pixels
    under a 0.75 matrix)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    document = pdfium.PdfDocument(str(pdf))
    runs: list[tuple[int, float, str]] = []
    try:
        for number in range(len(document)):
            page = document[number]
            text = page.get_textpage()
            current: list | None = None
            for index in range(text.count_chars()):
                matrix = raw.FS_MATRIX()
                raw.FPDFText_GetMatrix(text, index, ctypes.byref(matrix))
                scale = abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5
                size = round(raw.FPDFText_GetFontSize(text, index) * scale, 2)
                char = chr(raw.FPDFText_GetUnicode(text, index))
                if current is not None and current[1] == size:
                    current[2].append(char)
                else:
                    current = [number + 1, size, [char]]
                    runs.append(current)
            text.close()
            page.close()
    finally:
        document.close()
    return [(p, s, "".join(c).strip()) for p, s, c in runs if "".join(c).strip()]


def smaller_than(pdf: Path, points: float, skip: re.Pattern | None = None
                 ) -> list[tuple[int, float, str]]:
    """Every run of text below `points`, leaving out the runs `skip` matches (a card's id
    is one run: "EV-07" and " · The Event Deck" are the same size)."""
    return [(page, size, text[:60]) for page, size, text in text_runs(pdf)
            if size < points - 0.01 and not (skip and skip.search(text))]
