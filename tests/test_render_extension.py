"""A render job's extensions (render/extension.py): their hooks run by the worker in order
around the layout and the PDF, what they found coming back typed, through the chunk cache
too, and their own part of the cache's key."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from printshop.products.book.job import BookPart, PartFound
from printshop.render.checks import FitCheck
from printshop.render.chunks import ChunkCache, job_key
from printshop.render.extension import JobExtension
from printshop.render.job import RenderJob, RenderResult, Stylesheet, render_job
from printshop.render.weasy.fit import Overflow
from tests.conftest import pdf_reader

PAGE = Stylesheet(text="@page { size: 60mm 40mm; margin: 5mm } body { font: 10pt serif }")


@dataclass(frozen=True)
class _Recording(JobExtension):
    """Records the hooks it sees; with `instead`, lays that HTML out instead of the job's;
    with `stamp`, adds it to the PDF's end (a comment), as an after-PDF step would."""

    name = "test-recording"
    label: str = ""
    instead: str = ""
    stamp: bytes = b""

    def around_layout(self, run):
        run.kept.setdefault("calls", []).append(f"{self.label}:around")
        return super().around_layout(run)

    def lay_out(self, run):
        run.kept["calls"].append(f"{self.label}:lay_out")
        return run.layout(self.instead) if self.instead else None

    def after_layout(self, run, document) -> None:
        run.kept["calls"].append(f"{self.label}:after_layout")
        run.found[self.name] = {"pages": len(document.pages), "calls": run.kept["calls"]}

    def after_pdf(self, run, pdf: bytes) -> bytes:
        run.kept["calls"].append(f"{self.label}:after_pdf")
        return pdf + self.stamp


def _job(html: str, *extensions) -> RenderJob:
    return RenderJob(html=html, stylesheets=(PAGE,), roots=("/nonexistent",),
                     base_url="file:///nonexistent/", source="test", extensions=extensions)


def test_hooks_run_in_order_and_the_first_extension_that_lays_out_wins():
    result = render_job(_job("<p>The job's own text</p>",
                             _Recording("a"), _Recording("b", instead="<p>Stamped text</p>",
                                                         stamp=b"%b"),
                             _Recording("c", instead="<p>Never laid out</p>")))
    assert pdf_reader(result.pdf).pages[0].extract_text().strip() == "Stamped text"
    assert result.pdf.endswith(b"%b")
    calls = result.found["test-recording"]["calls"]
    assert calls[:5] == ["a:around", "b:around", "c:around", "a:lay_out", "b:lay_out"]
    assert "c:lay_out" not in calls
    assert calls[5:] == ["a:after_layout", "b:after_layout", "c:after_layout",
                         "a:after_pdf", "b:after_pdf", "c:after_pdf"]


def test_a_box_that_overflows_is_the_products_and_skips_the_words_check():
    html = ("<div data-fit='box' style='height: 5mm; overflow: hidden'>" +
            "<p>Far too many words for so small a box. </p>" * 6 + "</div>")
    plain = render_job(_job(html))
    assert plain.lost      # the words hidden by the box: lost
    fitted = render_job(_job(html, FitCheck()))
    overflow, = FitCheck.overflows(fitted)
    assert (overflow.name, overflow.page) == ("box", 1) and not fitted.lost
    assert FitCheck.overflows(plain) == []     # nothing asked, nothing found


def test_what_extensions_found_comes_back_from_the_chunk_cache_typed(tmp_path):
    found = PartFound(anchors={"one": 2}, strings={"head": [(1, "Title")]}, kept_by=99,
                      resumed=True)
    result = RenderResult(pdf=b"%PDF-1.7 x", pages=2, found={
        BookPart.name: found, FitCheck.name: [Overflow("card", 1, "bottom")]})
    cache = ChunkCache(tmp_path)
    cache.put("k", result)
    cache.commit()
    again = ChunkCache(tmp_path).get("k")
    # where a layout was kept is not stored: a cached result was not laid out anywhere
    assert BookPart.found_in(again) == PartFound({"one": 2}, {"head": [(1, "Title")]})
    assert FitCheck.overflows(again) == [Overflow("card", 1, "bottom")]
    # an entry with findings of an extension this process does not know is a miss
    text = (tmp_path / "k").read_bytes().replace(b'"fit"', b'"gone"')
    (tmp_path / "k").write_bytes(text)
    assert ChunkCache(tmp_path).get("k") is None


def test_each_extension_gives_its_own_part_of_the_cache_key():
    plain = _job("<p>x</p>")
    part = _job("<p>x</p>", BookPart(first=3, strings=(("head", "A"),)))
    assert len({job_key(plain), job_key(plain.extended(FitCheck())), job_key(part),
                job_key(part.extended(BookPart(first=5)))}) == 4
    # where and how a part is laid out (kept, finished, by which worker) never changes it
    elsewhere = part.extended(replace(part.get(BookPart), keep="1:2", resume="3:4",
                                      worker=1234))
    assert job_key(elsewhere) == job_key(part) == job_key(replace(part, epoch=7))
    assert elsewhere.worker == 1234 and part.worker == 0 and part.first_page == 3


def test_an_extension_name_is_one_familys():
    with pytest.raises(TypeError, match="taken"):
        @dataclass(frozen=True)
        class _Other(JobExtension):
            name = "fit"
