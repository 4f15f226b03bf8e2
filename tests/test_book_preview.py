"""A chapter rendered alone for `serve`'s preview: the same pages as in the whole book
(folios, running heads, "see X (p. N)"), from the page map the last whole build kept."""

from __future__ import annotations

import pytest

from conftest import pdf_reader
from printshop import deps
from printshop.builder import build_project
from printshop.cache import entry_extra
from printshop.products import BuildContext, load_products
from printshop.products.book.preview import PageMap
from printshop.project import Project
from printshop.render.renderer import Renderer
from test_cache import make_project

LORE = "# Lore\n\nAs the first chapter says, see [[Welcome]].\n\n" + "\n\n".join(
    f"Paragraph {n} of the lore, long enough to fill the columns of a few pages in a row."
    for n in range(1, 120)) + "\n\n## Deep Lore\n\nThe end; omens are in [[Omens]].\n"


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    project = make_project(tmp_path_factory.mktemp("preview") / "project")
    (project / "guide" / "03-lore.md").write_text(LORE)
    build_project(project, project / "build", names=["book"], strict=True)
    return project


def pages_text(pdf) -> list[str]:
    return [" ".join((page.extract_text() or "").split()) for page in pdf_reader(pdf).pages]


def preview(project, source: str, pages: PageMap):
    with Renderer(processes=1) as renderer:
        project_ = Project.load(project)
        product, = load_products(project_, ["book"])
        ctx = BuildContext(project=project_, renderer=renderer)
        with deps.recording(deps.Recorder()):
            return product.chapter_preview(ctx, source, pages)


def test_the_last_build_keeps_where_each_chapter_is(book):
    pages = PageMap.from_json(entry_extra(book / "build", "book")["page_map"])
    sources = [c["source"] for c in pages.chapters]
    assert sources == ["guide/01-welcome.md", "guide/02-omens.md", "guide/03-lore.md"]
    lore = pages.chapter("guide/03-lore.md")
    assert lore["last"] - lore["first"] >= 2     # several pages: a left and a right one
    assert pages.anchors["deep-lore"] > lore["first"]
    assert PageMap.from_json(None) is None and PageMap.from_json({"anchors": {}}) is None


@pytest.mark.parametrize("source", ["guide/03-lore.md", "guide/02-omens.md"])
def test_a_chapter_alone_prints_the_pages_it_has_in_the_book(book, source):
    pages = PageMap.from_json(entry_extra(book / "build", "book")["page_map"])
    known = pages.chapter(source)
    alone = preview(book, source, pages)
    assert (alone.first_page, alone.replaces) == (known["first"], (known["first"],
                                                                    known["last"]))
    whole = pages_text((book / "build" / "book.pdf").read_bytes())
    shown = pages_text(alone.pdf)
    assert len(shown) == alone.pages >= 1
    # page for page the same text: folios, running heads (the book's title on left pages,
    # the chapter's on right ones) and the page numbers of references
    assert shown == whole[known["first"] - 1:known["first"] - 1 + alone.pages]
    if source.endswith("lore.md"):
        assert alone.number == 3 and alone.title == "Lore"
        assert f"see Welcome (p. {pages.anchors['welcome']})" in shown[0]
        assert "Tiny Game" in " ".join(shown)    # the running head on its left pages
        assert not alone.warnings               # links elsewhere are no warning here


def test_an_edited_chapter_keeps_its_page_numbers(book, tmp_path):
    import shutil

    project = tmp_path / "project"
    shutil.copytree(book, project)
    pages = PageMap.from_json(entry_extra(project / "build", "book")["page_map"])
    chapter = project / "guide" / "03-lore.md"
    chapter.write_text(LORE.replace("Paragraph 3 of", "Paragraph THREE of"))
    alone = pages_text(preview(project, "guide/03-lore.md", pages).pdf)
    assert "Paragraph THREE of the lore" in alone[0]
    first = pages.chapter("guide/03-lore.md")["first"]
    # its opener has a folio and no running head; then a right page's head and a left one's
    assert alone[0].endswith(f" {first}") and not alone[0].endswith(f"Tiny Game {first}")
    assert alone[1].endswith(f"Lore {first + 1}")
    assert alone[2].endswith(f"Tiny Game {first + 2}")


def test_the_chapter_alone_is_composed_as_in_the_whole_book(book, tmp_path):
    # the preview composes only its chapter's tables; a table printed again (no anchor
    # the second time) and one printed first there must come out as in the book
    import shutil

    from printshop.products.book.composed import parse

    project = tmp_path / "project"
    shutil.copytree(book, project)
    (project / "guide" / "03-lore.md").write_text(
        LORE + "\n\n::table[armour]\n\n::table[omens]\n")
    (project / "guide" / "02-omens.md").write_text("# Omens\n\nNone printed here.\n")
    loaded = Project.load(project)
    product, = load_products(loaded, ["book"])
    ctx = BuildContext(project=loaded)
    with deps.recording(deps.Recorder()) as recorder:
        product._recorder = recorder
        product._composed_inputs = product.read()
        chapters = [part.body for part in parse(product.compose(ctx, "print")).parts
                    if part.kind == "chapter"]
        for n, source in enumerate(["guide/01-welcome.md", "guide/02-omens.md",
                                    "guide/03-lore.md"]):
            alone = [part.body for part in
                     parse(product.compose(ctx, "print", only=source)).parts
                     if part.kind == "chapter"]
            assert alone[n] == chapters[n]
    lore = chapters[2]
    assert 'id="table-omens"' in lore and 'id="table-armour"' not in lore
    assert lore.count('class="table') >= 2


def test_a_chapter_set_tighter_in_the_book_is_previewed_at_its_step(book, monkeypatch):
    """The page map keeps each chapter's fit step (products/book/fit.py), and the preview
    lays the chapter out at it: its pages as the book prints them, not a near-empty last
    page the book took in."""
    from printshop.render.renderer import Renderer

    pages = PageMap.from_json(entry_extra(book / "build", "book")["page_map"])
    assert all(c["step"] in (0, 1, 2) for c in pages.chapters)
    laid_out = []
    render = Renderer.render

    def recorded(self, jobs, **kwargs):
        laid_out.extend(job.html for job in jobs)
        return render(self, jobs, **kwargs)

    monkeypatch.setattr(Renderer, "render", recorded)
    pages.chapter("guide/03-lore.md")["step"] = 2
    preview(book, "guide/03-lore.md", pages)
    assert laid_out and all("fit-2" in html for html in laid_out)
    laid_out.clear()
    pages.chapter("guide/03-lore.md")["step"] = 0
    preview(book, "guide/03-lore.md", pages)
    assert laid_out and not any("fit-" in html for html in laid_out)
