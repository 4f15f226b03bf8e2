"""Joining chunk PDFs: pages in order, bookmarks, title, and the same bytes every time."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from pypdf import PdfWriter

from conftest import pdf_reader
from printshop.render.pdf.layered_merge import merge_layered_pdfs, merge_many_pdfs


def blank_pdf(widths: list[int]) -> bytes:
    """Blank pages whose widths (in points) tell them apart."""
    writer = PdfWriter()
    for width in widths:
        writer.add_blank_page(width=width, height=400)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


PARTS = [blank_pdf([100]), blank_pdf([201, 202, 203]), blank_pdf([300, 301])]


def test_many_parts_keep_their_pages_in_order():
    reader = pdf_reader(merge_many_pdfs(PARTS))
    assert [round(float(p.mediabox.width)) for p in reader.pages] == \
        [100, 201, 202, 203, 300, 301]


def test_bookmarks_and_title():
    merged = merge_many_pdfs(PARTS, title="Pack: seed ä-1",
                             outline=[("Cover", 0), ("#1 Elf Exemplar", 1), ("#2 Ünïcode", 4)])
    reader = pdf_reader(merged)
    assert reader.metadata.title == "Pack: seed ä-1"
    assert [(item.title, reader.get_destination_page_number(item)) for item in reader.outline] \
        == [("Cover", 0), ("#1 Elf Exemplar", 1), ("#2 Ünïcode", 4)]
    # another reader (pdfium, as a viewer would) agrees
    document = pdfium.PdfDocument(merged)
    assert len(document) == 6
    titles = [b.get_title() for b in document.get_toc()]
    assert titles == ["Cover", "#1 Elf Exemplar", "#2 Ünïcode"]
    document.close()


def test_the_same_parts_give_the_same_bytes():
    outline = [("a", 0), ("b", 3)]
    first = merge_many_pdfs(PARTS, title="t", outline=outline)
    assert merge_many_pdfs(PARTS, title="t", outline=outline) == first
    assert merge_many_pdfs(PARTS[::-1], title="t", outline=outline) != first
    assert b"CreationDate" not in first    # no clock in a reproducible file


def layered_part(names: list[str], content: bytes, pages: int = 2) -> bytes:
    """A part as render/pdf/layers.py makes them: pages drawing form XObjects by name."""
    import pikepdf

    pdf = pikepdf.new()
    for n in range(pages):
        pdf.add_blank_page(page_size=(200 + n, 300))
        page = pdf.pages[-1]
        xobjects = pikepdf.Dictionary()
        for name in names:
            xobjects[name] = pikepdf.Stream(pdf, content + name.encode(),
                                            Type=pikepdf.Name.XObject,
                                            Subtype=pikepdf.Name.Form,
                                            BBox=[0, 0, 10, 10])
        page.obj.Resources = pikepdf.Dictionary(XObject=xobjects)
        page.contents_add(pikepdf.Stream(pdf, b" ".join(
            b"%s Do" % name.encode() for name in names)))
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_layered_parts_share_their_forms_once():
    import pikepdf

    parts = [layered_part(["/PsXaaaa_0", "/PsXbbbb_3"], b"0 0 m 5 5 l S % ")
             for _ in range(3)] + [layered_part(["/PsXcccc_0"], b"1 1 m 2 2 l S % ")]
    merged = merge_layered_pdfs(parts, title="Pack", outline=[("#1", 0), ("#4", 6)])
    pdf = pikepdf.open(io.BytesIO(merged))
    assert len(pdf.pages) == 8
    objects: dict[str, set] = {}
    for page in pdf.pages:
        for name, xobject in page.Resources.XObject.items():
            objects.setdefault(name, set()).add(xobject.objgen)
            assert xobject.read_bytes().endswith(name.encode())   # never another's
    # six pages draw aaaa and bbbb: one object each; cccc is its own
    assert {name: len(found) for name, found in objects.items()} == \
        {"/PsXaaaa_0": 1, "/PsXbbbb_3": 1, "/PsXcccc_0": 1}
    reader = pdf_reader(merged)
    assert reader.metadata.title == "Pack"
    assert [reader.get_destination_page_number(i) for i in reader.outline] == [0, 6]
    assert merge_layered_pdfs(parts, title="Pack", outline=[("#1", 0), ("#4", 6)]) == merged


def test_many_layered_parts_are_joined_in_groups(monkeypatch):
    from printshop.render.pdf import layered_merge

    monkeypatch.setattr(layered_merge, "LAYERED_GROUP", 2)
    parts = [layered_part(["/PsXaaaa_0"], b"0 0 m 5 5 l S % ", pages=1) for _ in range(5)]
    merged = merge_layered_pdfs(parts, outline=[("last", 4)])
    reader = pdf_reader(merged)
    assert len(reader.pages) == 5
    assert [reader.get_destination_page_number(i) for i in reader.outline] == [4]


def test_a_pack_holds_each_font_once_however_many_chunks_copied_it(monkeypatch):
    """Every chunk copies the fonts of the stamps it draws: the merged pack keeps one copy
    of each (fonts equal in every byte linked to one object), and reads the same."""
    import pikepdf

    from printshop.products.characters import layers as pregen_layers
    from test_pregens import roll

    monkeypatch.setattr(pregen_layers, "LISTS_FROM", 1)   # its lists stamped too
    pack = roll(count=8, seed="fonts", layered=True, sheets_per_chunk=2).data
    pdf = pikepdf.open(io.BytesIO(pack))
    files = [obj.read_raw_bytes() for obj in pdf.objects
             if isinstance(obj, pikepdf.Stream) and "/Length1" in obj]
    assert files and len(files) == len(set(files))
    texts = [page.extract_text() for page in pdf_reader(pack).pages]
    # the stamped lists are there on every sheet: their headings and their lines
    assert all("WHO YOU WERE" in t.upper() and "Background:" in t for t in texts[1:])


def test_parts_added_one_by_one_make_the_same_file_and_leave_no_folder(monkeypatch, tmp_path):
    import tempfile

    from printshop.render.pdf import layered_merge
    from printshop.render.pdf.layered_merge import LayeredMerge

    monkeypatch.setattr(layered_merge, "LAYERED_GROUP", 2)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    parts = [layered_part(["/PsXaaaa_0"], b"0 0 m 5 5 l S % ", pages=1) for _ in range(5)]
    whole = merge_layered_pdfs(parts, title="Pack", outline=[("last", 4)])
    joined = LayeredMerge(len(parts))
    for index in (3, 0, 4, 1, 2):    # in the order the workers finish them
        joined.add(index, parts[index])
    assert list(tmp_path.iterdir())   # waiting on disk, not in memory
    assert joined.result(title="Pack", outline=[("last", 4)]) == whole
    assert not list(tmp_path.iterdir())
    missing = LayeredMerge(2)
    missing.add(0, parts[0])
    with pytest.raises(ValueError):
        missing.result()
    assert not list(tmp_path.iterdir())


def test_a_small_pack_is_joined_as_its_parts_come_in(monkeypatch, tmp_path):
    """Parts that come in order are joined at once (none left waiting on disk); one that
    comes early waits until its turn. The file is the one merge_layered_pdfs makes."""
    import tempfile

    from printshop.render.pdf.layered_merge import LayeredMerge

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    parts = [layered_part(["/PsXaaaa_0"], b"0 0 m 5 5 l S % ", pages=1) for _ in range(5)]
    whole = merge_layered_pdfs(parts, title="Pack", outline=[("first", 0), ("last", 4)])
    joined = LayeredMerge(len(parts))
    waiting = lambda: sorted(p.name for p in tmp_path.rglob("*.pdf"))   # noqa: E731
    joined.add(0, parts[0])
    joined.add(1, parts[1])
    assert waiting() == []
    joined.add(3, parts[3])
    assert waiting() == ["000003.pdf"]
    joined.add(2, parts[2])         # 2 joined, then 3 from its file
    assert waiting() == []
    with pytest.raises(ValueError):
        joined.add(2, parts[2])     # twice
    joined.add(4, parts[4])
    assert joined.result(title="Pack", outline=[("first", 0), ("last", 4)]) == whole
    assert not list(tmp_path.iterdir())


def test_a_few_parts_over_one_group_are_joined_whole(monkeypatch):
    """One group and a little more is one join, not a second stage: each form is in the
    file once (pdfium's second stage keeps one copy a group)."""
    import pikepdf

    from printshop.render.pdf import layered_merge

    joins = []
    entered = layered_merge.LayeredJoin.__enter__
    monkeypatch.setattr(layered_merge.LayeredJoin, "__enter__",
                        lambda self: joins.append(self) or entered(self))
    monkeypatch.setattr(layered_merge, "LAYERED_GROUP", 4)   # one stage: up to 5 parts
    parts = [layered_part(["/PsXaaaa_0"], b"0 0 m 5 5 l S % ", pages=1) for _ in range(5)]
    pdf = pikepdf.open(io.BytesIO(merge_layered_pdfs(parts, title="Pack",
                                                     outline=[("last", 4)])))
    assert len(joins) == 1
    assert len({page.Resources.XObject["/PsXaaaa_0"].objgen for page in pdf.pages}) == 1
    parts.append(parts[0])          # six: two groups, a copy each
    pdf = pikepdf.open(io.BytesIO(merge_layered_pdfs(parts, title="Pack",
                                                     outline=[("last", 5)])))
    assert len(joins) == 1 + 2 and len(pdf.pages) == 6
    assert len({page.Resources.XObject["/PsXaaaa_0"].objgen for page in pdf.pages}) == 2
    assert str(pdf.docinfo["/Title"]) == "Pack"
    with pdf.open_outline() as outline:
        assert [(item.title, pdf.pages.index(pikepdf.Page(item.destination[0])))
                for item in outline.root] == [("last", 5)]


def _headed_pdf(headings: list[list[str]]) -> bytes:
    """A page per list of headings, each heading a bookmark WeasyPrint makes."""
    from printshop.render.job import RenderJob, render_job

    body = "".join(f"<section style='break-after: page'>{''.join(f'<h2>{h}</h2>' for h in page)}"
                   "</section>" for page in headings)
    result = render_job(RenderJob(html=f"<html><body>{body}</body></html>", stylesheets=(),
                                  roots=(), base_url=None, source="test"))
    return result.pdf


def test_joined_sheets_keep_their_own_bookmarks_then_the_ones_given():
    """A reference sheet's sections stay in the joined file's outline, each on its page,
    before the product's own entries (as pypdf joined them)."""
    from printshop.render.pdf.merge import merge_pdfs

    parts = [_headed_pdf([["Combat", "Morale"], ["Camp"]]), _headed_pdf([["Spells"]])]
    merged = pdf_reader(merge_pdfs(parts, title="Reference",
                                   outline=[("Player Reference", 0), ("Magic", 2)]))
    marks = [(item.title, merged.get_destination_page_number(item))
             for item in merged.outline]
    assert marks == [("Combat", 0), ("Morale", 0), ("Camp", 1), ("Spells", 2),
                     ("Player Reference", 0), ("Magic", 2)]
    assert merged.metadata.title == "Reference"
    assert merge_pdfs(parts, title="Reference", outline=[("Player Reference", 0)]) == \
        merge_pdfs(parts, title="Reference", outline=[("Player Reference", 0)])
