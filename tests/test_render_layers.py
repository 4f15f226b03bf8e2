"""Drawing layers over values pages (render/pdf/layers.py): the forms' and stamps' PDFs a
worker keeps open between chunks give the same file as opening them afresh."""

from __future__ import annotations

import io

import pikepdf

from printshop.render.pdf.layers import SHARED_PREFIX, FormArt, Overlay, PageArt, Sources, compose


def pdf_of(pages: list[bytes]) -> bytes:
    """A PDF whose pages draw the given content streams (distinct, so copies can be told
    apart)."""
    pdf = pikepdf.new()
    for content in pages:
        pdf.add_blank_page(page_size=(200, 300))
        pdf.pages[-1].contents_add(pikepdf.Stream(pdf, content))
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True)
    return out.getvalue()


FORM = FormArt(pdf=pdf_of([b"0 0 m 100 100 l S", b"0 0 m 50 10 l S"]), band_top_px=10)
STAMPS = {0: pdf_of([b"1 1 m 2 2 l S", b"3 3 m 4 4 l S"]),
          1: pdf_of([b"5 5 m 6 6 l S"])}


def chunk(stamps: list[tuple]) -> tuple[bytes, Overlay]:
    values = pdf_of([b"%% values %d" % n for n in range(len(stamps))])
    pages = [PageArt(form="f", band_dy_px=5, stamps=[(source, page, 10, 20)
                                                     for source, page in used])
             for used in stamps]
    return values, Overlay(forms={"f": FORM}, stamps=STAMPS, pages=pages)


def drawn(pdf: bytes) -> list[set[bytes]]:
    """What each page draws: the content of every shared XObject it names."""
    document = pikepdf.open(io.BytesIO(pdf))
    return [{bytes(x.read_bytes()).strip() for name, x in page.Resources.XObject.items()
             if name.startswith(SHARED_PREFIX)} for page in document.pages]


def test_kept_sources_give_the_same_bytes_as_fresh_ones():
    chunks = [chunk([[(0, 0), (1, 0)], [(0, 1)]]), chunk([[(0, 1), (1, 0)]]),
              chunk([[(0, 0)], [(1, 0)], [(0, 1)]])]
    fresh = [compose(values, overlay) for values, overlay in chunks]
    sources = Sources()
    kept = [compose(values, overlay, sources=sources) for values, overlay in chunks]
    assert kept == fresh
    assert len(sources.kept) == 3          # the form's PDF and both stamps PDFs, open
    assert drawn(kept[0])[0] == {b"0 0 m 100 100 l S", b"0 0 m 50 10 l S",
                                 b"1 1 m 2 2 l S", b"5 5 m 6 6 l S"}


def test_sources_over_their_budget_are_let_go_between_chunks_least_recent_first():
    sources = Sources(budget=1)            # nothing fits: all but the last one used go
    values, overlay = chunk([[(0, 0), (1, 0)]])
    first = compose(values, overlay, sources=sources)
    assert len(sources.kept) == 1          # let go after the save, never during it
    assert compose(values, overlay, sources=sources) == first   # opened again as needed
    assert drawn(first)[0] >= {b"1 1 m 2 2 l S", b"5 5 m 6 6 l S"}
