"""Card imposition: pure geometry, checked without rendering anything."""

from __future__ import annotations

import pytest

from printshop.products.cards.geometry import Box
from printshop.products.cards.imposition import (
    BLEED_MM,
    DEFAULT_MARGIN_MM,
    SAFE_MM,
    DoesNotFit,
    flip_axis,
    impose,
    impose_foldover,
    impose_home,
    impose_printshop,
)
from printshop.source.card_sizes import load_card_sizes

PAPERS = {"letter": (215.9, 279.4), "a4": (210.0, 297.0), "a3": (297.0, 420.0)}
SIZES = {s.id: (s.width, s.height) for s in load_card_sizes().values()}
EPS = 1e-6


def boxes_equal(a: Box, b: Box) -> bool:
    return all(abs(x - y) < 1e-6 for x, y in zip(a.rounded(6), b.rounded(6)))


def test_the_builtin_card_sizes_are_the_usual_ones():
    assert SIZES["poker"] == (63.5, 88.9)
    assert SIZES["bridge"] == (57.2, 88.9)
    assert SIZES["tarot"] == (70, 120)
    assert SIZES["mini"] == (44, 63)
    assert SIZES["a8"] == (52, 74)
    assert SIZES["a7"] == (74, 105)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("layout", ["home", "foldover"])
def test_every_card_is_inside_the_printable_area(paper, size, layout):
    width, height = SIZES[size]
    imposition = impose(layout, 40, width, height, *PAPERS[paper])
    printable = imposition.printable
    assert printable == Box(DEFAULT_MARGIN_MM, DEFAULT_MARGIN_MM,
                            imposition.paper_width - 2 * DEFAULT_MARGIN_MM,
                            imposition.paper_height - 2 * DEFAULT_MARGIN_MM)
    faces = [face for page in imposition.pages for face in page.faces]
    assert len([f for f in faces if f.side == "front"]) == 40
    assert len([f for f in faces if f.side == "back"]) == 40
    for face in faces:
        assert printable.contains(face.trim), (face, printable)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("size", SIZES)
def test_no_two_cards_overlap_and_the_grid_is_the_largest(paper, size):
    width, height = SIZES[size]
    paper_w, paper_h = PAPERS[paper]
    imposition = impose_home(100, width, height, paper_w, paper_h)
    fronts = [f.trim for f in imposition.pages[0].faces]
    for i, a in enumerate(fronts):
        for b in fronts[i + 1:]:
            assert (a.right <= b.x + EPS or b.right <= a.x + EPS or a.bottom <= b.y + EPS
                    or b.bottom <= a.y + EPS), (a, b)
    # brute force: no orientation holds more
    best = max(int((w - 12 + EPS) // width) * int((h - 12 + EPS) // height)
               for w, h in ((paper_w, paper_h), (paper_h, paper_w)))
    assert imposition.per_sheet == best


def test_poker_cards_on_letter_and_a4_are_nine_a_sheet_in_portrait():
    for paper in ("letter", "a4"):
        imposition = impose_home(9, 63.5, 88.9, *PAPERS[paper])
        assert imposition.per_sheet == 9
        assert not imposition.landscape


def test_mini_cards_turn_the_sheet_to_landscape_when_that_holds_more():
    imposition = impose_home(18, 44, 63, *PAPERS["letter"])
    assert imposition.landscape and imposition.per_sheet == 18
    assert imposition.paper_width > imposition.paper_height


def physical_back(box: Box, page_w: float, page_h: float, flip: str) -> Box:
    """Where a duplex printer puts the back of `box`, derived the way a printer does it:
    a landscape page is turned onto portrait paper, the paper is flipped about its long
    (or short) edge, and the back page is turned the same way."""
    landscape = page_w > page_h
    if landscape:
        paper_w, paper_h = page_h, page_w

        def to_paper(x, y):
            return y, page_w - x

        def from_paper(px, py):
            return page_w - py, px
    else:
        paper_w, paper_h = page_w, page_h

        def to_paper(x, y):
            return x, y

        def from_paper(px, py):
            return px, py

    def flipped(px, py):
        return (paper_w - px, py) if flip == "long" else (px, paper_h - py)

    corners = [(box.x, box.y), (box.right, box.bottom)]
    points = [from_paper(*flipped(*to_paper(x, y))) for x, y in corners]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("size", ["poker", "mini", "a8", "tarot"])
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_each_back_lands_behind_its_front_under_duplex(flip, size, paper):
    width, height = SIZES[size]
    imposition = impose_home(23, width, height, *PAPERS[paper], flip=flip)
    pages = imposition.pages
    assert [p.side for p in pages] == ["front", "back"] * (len(pages) // 2)
    for fronts, backs in zip(pages[0::2], pages[1::2]):
        back_of = {face.card: face.trim for face in backs.faces}
        assert sorted(back_of) == sorted(face.card for face in fronts.faces)
        for face in fronts.faces:
            expected = physical_back(face.trim, fronts.width, fronts.height, flip)
            assert boxes_equal(back_of[face.card], expected), (face.card, flip)


def test_long_edge_mirrors_left_right_on_portrait_and_short_edge_top_bottom():
    assert flip_axis(landscape=False, flip="long") == "vertical"
    assert flip_axis(landscape=False, flip="short") == "horizontal"
    assert flip_axis(landscape=True, flip="long") == "horizontal"
    assert flip_axis(landscape=True, flip="short") == "vertical"
    imposition = impose_home(2, 63.5, 88.9, *PAPERS["letter"], flip="long")
    front, back = imposition.pages
    first_front = front.faces[0].trim
    first_back = back.faces[0].trim
    assert first_back.y == first_front.y                       # same row
    assert abs(first_back.right - (215.9 - first_front.x)) < EPS  # other side


def test_cut_marks_stand_at_every_card_edge_in_the_margin():
    imposition = impose_home(9, 63.5, 88.9, *PAPERS["letter"])
    page = imposition.pages[0]
    grid = [f.trim for f in page.faces]
    xs = sorted({round(b.x, 4) for b in grid} | {round(b.right, 4) for b in grid})
    ys = sorted({round(b.y, 4) for b in grid} | {round(b.bottom, 4) for b in grid})
    assert len(xs) == 4 and len(ys) == 4
    vertical = [m for m in page.cut_marks if m.x1 == m.x2]
    horizontal = [m for m in page.cut_marks if m.y1 == m.y2]
    assert sorted({round(m.x1, 4) for m in vertical}) == xs
    assert sorted({round(m.y1, 4) for m in horizontal}) == ys
    top, bottom = min(ys), max(ys)
    left, right = min(xs), max(xs)
    for mark in vertical:  # outside the cards, inside the paper
        assert max(mark.y1, mark.y2) <= top or min(mark.y1, mark.y2) >= bottom
        assert 0 < mark.y1 < 279.4 and 0 < mark.y2 < 279.4
    for mark in horizontal:
        assert max(mark.x1, mark.x2) <= left or min(mark.x1, mark.x2) >= right
    assert imposition.pages[1].cut_marks == []  # backs: nothing to cut by


def test_the_print_at_actual_size_note_sits_in_the_margin_between_marks():
    imposition = impose_home(9, 63.5, 88.9, *PAPERS["letter"])
    page = imposition.pages[0]
    note = page.note.box
    for face in page.faces:
        overlap = not (note.right <= face.trim.x or face.trim.right <= note.x
                       or note.bottom <= face.trim.y or face.trim.bottom <= note.y)
        assert not overlap
    for mark in page.cut_marks:
        inside_x = note.x < mark.x1 < note.right or note.x < mark.x2 < note.right
        inside_y = note.y < mark.y1 < note.bottom or note.y < mark.y2 < note.bottom
        assert not (inside_x and inside_y), mark
    assert 0 <= note.x and note.right <= page.width and 0 <= note.y


@pytest.mark.parametrize("size", ["poker", "mini", "tarot"])
def test_foldover_backs_mirror_their_fronts_about_the_fold(size):
    width, height = SIZES[size]
    imposition = impose_foldover(11, width, height, *PAPERS["letter"])
    for page in imposition.pages:
        fold = page.fold
        fronts = {f.card: f.trim for f in page.faces if f.side == "front"}
        backs = {f.card: f.trim for f in page.faces if f.side == "back"}
        assert fronts.keys() == backs.keys()
        for card, front in fronts.items():
            back = backs[card]
            if fold.x1 == fold.x2:   # vertical fold: folding maps x to 2*fold - x
                assert abs((front.x + back.right) / 2 - fold.x1) < EPS
                assert front.y == back.y
                assert front.right <= fold.x1 - 4 + EPS  # the fold never crosses a card
            else:
                assert abs((front.y + back.bottom) / 2 - fold.y1) < EPS
                assert front.x == back.x
                assert front.bottom <= fold.y1 - 4 + EPS
        for mark in page.cut_marks:  # marks stay on the fronts' half
            if fold.x1 == fold.x2:
                assert max(mark.x1, mark.x2) < fold.x1
            else:
                assert max(mark.y1, mark.y2) < fold.y1


def test_printshop_pages_are_the_trim_with_bleed_front_then_back():
    imposition = impose_printshop(3, 63.5, 88.9)
    assert [(p.side, p.faces[0].card) for p in imposition.pages] == [
        ("front", 0), ("back", 0), ("front", 1), ("back", 1), ("front", 2), ("back", 2)]
    face = imposition.pages[0].faces[0]
    assert imposition.bleed == BLEED_MM == 3.0
    assert face.trim == Box(0, 0, 63.5, 88.9)
    assert face.bleed_box == Box(-3, -3, 69.5, 94.9)
    assert face.safe_box == Box(SAFE_MM, SAFE_MM, 63.5 - 6, 88.9 - 6)


def test_a_card_bigger_than_the_paper_does_not_fit():
    with pytest.raises(DoesNotFit, match="300 × 400 mm card does not fit"):
        impose_home(1, 300, 400, *PAPERS["letter"])
    with pytest.raises(DoesNotFit):
        impose_foldover(1, 150, 200, *PAPERS["letter"])  # fits the sheet, not half of it
    assert impose_home(1, 150, 200, *PAPERS["letter"]).per_sheet == 1
