"""The book's first pass (products/book/first_pass.py): the parts holding the one-digit
pages first, in book order, then the longest; each part made with the numbers known."""

from __future__ import annotations

from printshop.products.book.composed import parse
from printshop.products.book.first_pass import _best_numbers, _next_part
from printshop.products.book.job import BookPart, PartFound
from printshop.products.book.parts import placed
from printshop.render.job import RenderResult


def _part(kind: str, ids: list[str], links: list[str], size: int) -> str:
    body = "".join(f'<h2 id="{i}">x</h2>' for i in ids) + "".join(
        f'<a class="xref" href="#{link}">y</a>' for link in links)
    opening = "<section>" if kind == "front" else f'<section class="{kind}">'
    return f"{opening}{body}{'.' * size}</section>"


PARTS = parse("<html><body>" + "".join([
    _part("front", ["toc"], ["a", "b", "c", "z"], 300),
    _part("chapter", ["a"], ["b"], 1000),
    _part("chapter", ["b"], ["a", "z"], 2000),
    _part("chapter", ["c"], [], 30000),
    _part("chapter", ["y"], [], 1000),
    _part("chapter", ["z"], ["a"], 9000),
    _part("colophon", [], [], 100)]) + "</body></html>").parts


def _laid_out(pages: int, anchors: dict[str, int]) -> RenderResult:
    # a part's render has one page too many (the next part's empty element) but the last
    return RenderResult(b"", pages + 1, found={BookPart.name: PartFound(anchors)})


def test_parts_go_in_book_order_until_page_nine_then_the_longest_first():
    results = [None] * len(PARTS)
    started: set[int] = set()

    def take():
        index = _next_part(PARTS, results, started)
        started.add(index)
        return index

    assert (take(), take()) == (0, 1)        # nothing is known: the front of the book
    results[1] = _laid_out(2, {"a": 1})      # chapter a came back, the front not yet
    assert take() == 2
    results[0] = _laid_out(4, {"toc": 2})    # pages 1-6 known: page 7 onwards is not
    assert take() == 3
    results[2] = _laid_out(4, {"b": 1})      # pages 1-10 known
    assert take() == 5                       # the longest left, not the next in order
    assert (take(), take()) == (4, 6) and _next_part(PARTS, results, started) is None


def test_a_part_is_made_with_every_number_known_and_placeholders_as_long_as_the_rest():
    nothing = [None] * len(PARTS)
    assert set(_best_numbers(PARTS, nothing, {}).values()) == {"00"}
    results = [_laid_out(4, {"toc": 2}), _laid_out(2, {"a": 1})] + [None] * 5
    numbers = _best_numbers(PARTS, results, placed(PARTS, results)[1])
    assert numbers["a"] == "5"               # its part and all before it are laid out
    # 6 pages from 1,600 bytes: chapter b starts around page 7 (one digit), c around 14,
    # and z, after c's 30,000 bytes, past page 99
    assert (numbers["b"], numbers["c"], numbers["z"]) == ("0", "00", "000")
    assert set(numbers) == {"a", "b", "c", "z"}
