"""A layered sheet's rolled lists stacked from stamps (products/characters/lists.py): pieces
placed as CSS stacks them, a template that stacks them some other way keeping its lists
laid out, and the values page laying none of them out when they are stamped."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from conftest import RULES_SRC, own_pregens_css
from printshop.products.characters import layers as pregen_layers
from printshop.products.characters.lists import ListsModel, kind_of
from printshop.render.checks import FitCheck
from printshop.render.pdf.layers import Slot
from test_pregen_layers import in_lines, pixels, words_and_boxes
from test_pregens import roll


@pytest.fixture(autouse=True)
def stack_small_packs(monkeypatch):
    """Packs here are small: stack their lists as a big pack's are."""
    monkeypatch.setattr(pregen_layers, "LISTS_FROM", 1)


def box(y, content_height, margin_top=0.0, margin_bottom=0.0, inner_top=0.0,
        inner_bottom=0.0, x=10.0, width=100.0, margin_width=None) -> Slot:
    """A laid-out box: its margin box starts at `y`."""
    border_y = y + margin_top
    height = inner_top + content_height + inner_bottom
    return Slot(x=x, y=border_y, width=width, height=height, top=y, margin_top=margin_top,
                margin_height=margin_top + height + margin_bottom, content_x=x,
                content_y=border_y + inner_top, content_width=width,
                content_height=content_height,
                margin_width=width if margin_width is None else margin_width)


def column_model():
    """A column at (10, 100): section a (a heading, a padded paragraph), then section b
    (a heading, a two-column list of 50 px items in a 100 px list)."""
    return ListsModel({
        "L0": box(100, 83, x=10),
        "L0.a": box(100, 28),
        "L0.a.h2.0": box(100, 10, margin_bottom=4),
        "L0.a.p.0": box(114 - 3, 12, margin_top=3, margin_bottom=2, inner_top=1,
                        inner_bottom=1),
        "L0.b": box(128, 47, margin_top=8),
        "L0.b.h2.0": box(136, 10, margin_bottom=4),
        "L0.b.ul": box(150, 33),
        "L0.b.li2.0": box(150, 10, margin_bottom=1.5, width=46, margin_width=50),
    })


def test_blocks_stack_with_their_margins_collapsed_and_list_items_in_lines():
    heights, placed = column_model().stack([
        ("L0.a.h2.0", 10), ("L0.a.p.0", 12), ("L0.b.h2.0", 10),
        ("L0.b.li2.0", 10), ("L0.b.li2.1", 20), ("L0.b.li2.2", 10)])
    where = {p.name: (p.x, p.y) for p in placed}
    assert where["L0.a.h2.0"] == (0, 0)
    # the heading's 4 px and the paragraph's 3 px margins collapse to 4; then its padding
    assert where["L0.a.p.0"] == (0, 10 + 4 + 1)
    # the paragraph's 2 px bottom margin and the next section's 8 px top margin: 8
    assert where["L0.b.h2.0"] == (0, 28 + 8)
    # two items a line, side by side; the line as tall as its tallest item with its margin
    assert where["L0.b.li2.0"] == (0, 50) and where["L0.b.li2.1"] == (50, 50)
    assert where["L0.b.li2.2"] == (0, 50 + 21.5)
    assert heights == [50 + 21.5 + 11.5]


def test_the_sample_checks_only_if_it_stacks_where_it_was_laid_out():
    model = column_model()
    sample = {"L0.a.h2.0": 0, "L0.a.p.0": 0, "L0.b.h2.0": 0, "L0.b.li2.0": 0}
    slots = dict(model.slots)
    slots["L0"] = box(100, 50 + 11.5, x=10)      # the column: one line of one item
    assert ListsModel(slots).check(list(sample))
    slots["L0.b.h2.0"] = box(137, 10, margin_bottom=4)   # laid out 1 px lower
    assert not ListsModel(slots).check(list(sample))


def test_a_piece_of_a_kind_the_sample_lacks_is_not_stacked():
    model = column_model()
    assert model.stack([("L0.a.h2.0", 10), ("L0.a.li.0", 12)]) is None   # no list in a
    assert model.stack([("L0.c.h2.0", 10)]) is None                      # no section c
    assert model.stack([("L1.a.h2.0", 10)]) is None                      # no column 1
    assert kind_of("L1.equipment.li2.12") == "L1.equipment.li2"
    assert kind_of("score-STR") is None


# --- the shipped template, end to end ----------------------------------------------------------

def layered_sheets(count: int, source=RULES_SRC):
    """A pack's LayeredSheets, its forms and stamps rendered on real workers."""
    from printshop.products.characters.pregens import Pregens, PregensOptions
    from printshop.products.common import base_url
    from printshop.project import Project
    from printshop.render.job import RenderJob
    from printshop.render.renderer import Renderer

    project = Project.load(source)
    options = PregensOptions(kind="pregens", seed="lists", count=count, layered=True)
    product = Pregens(project, "test", options, cli_flags={})
    characters = product.characters()
    pack = product.pack_info(characters, "letter")
    css = product._stylesheets("letter")
    roots = tuple(str(r) for r in project.read_roots)

    def make_job(html):
        return RenderJob(html=html, stylesheets=css, roots=roots, base_url=base_url(project),
                         source="test", extensions=(FitCheck(),))

    with Renderer(processes=2) as renderer:
        ctx = SimpleNamespace(renderer=renderer, warn=lambda problem: None)
        layers = product.layered_sheets(ctx, characters, "letter", pack, make_job)
    return layers, characters


@pytest.fixture(scope="module")
def shipped():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pregen_layers, "LISTS_FROM", 1)
        return layered_sheets(8)


def test_stacked_lists_read_and_look_as_whole_sheets_do(tmp_path):
    from PIL import ImageChops

    count = 8
    layered = roll(count=count, seed="lists", layered=True).data
    whole = roll(count=count, seed="lists", layered=False).data
    ours, theirs = words_and_boxes(layered, tmp_path), words_and_boxes(whole, tmp_path)
    for number, (a, b) in enumerate(zip(ours, theirs), start=1):
        a, b = in_lines(a), in_lines(b)
        assert [w for w, _, _ in a] == [w for w, _, _ in b], number
        worst = max(max(abs(xa - xb), abs(ya - yb)) for (_, xa, ya), (_, xb, yb) in zip(a, b))
        assert worst < 0.5, (number, worst)
    for page in range(1, count + 1):
        a, b = pixels(layered, page), pixels(whole, page)
        different = sum(ImageChops.difference(a, b).histogram()[64:])
        assert different < 0.004 * a.width * a.height, (page, different)


def test_every_form_of_the_shipped_sheet_stacks_its_lists(shipped):
    layers, characters = shipped
    assert layers.forms and all(form.lists is not None for form in layers.forms.values())
    assert all(layers.lists.get(c.index) for c in characters)


def test_a_values_page_lays_out_none_of_the_stamped_lists(shipped):
    layers, characters = shipped
    html = layers.job(characters[:2]).html
    for c in characters[:2]:
        assert c.personality and c.personality not in html and c.appearance not in html
    # no list, no item: each column is a spacer as tall as its stacked pieces
    assert "<li" not in html and "<ul" not in html and html.count('data-slot="L1"') == 2


def test_a_template_whose_lists_stack_otherwise_keeps_them_laid_out(project_copy, tmp_path):
    """Paragraphs of the flavour section side by side: not how the model stacks blocks, so
    the check refuses it, and the sheets keep their lists and read as whole sheets do."""
    own_pregens_css(project_copy,
                    after="\n.flavour p { display: inline-block; width: 45%; }\n")
    layers, _ = layered_sheets(3, source=project_copy)
    assert all(form.lists is None for form in layers.forms.values())
    assert not layers.lists
    layered = roll(count=3, seed="lists", layered=True, source=project_copy).data
    whole = roll(count=3, seed="lists", layered=False, source=project_copy).data
    ours, theirs = words_and_boxes(layered, tmp_path), words_and_boxes(whole, tmp_path)
    assert [[w for w, _, _ in in_lines(page)] for page in ours] == \
        [[w for w, _, _ in in_lines(page)] for page in theirs]


def test_lists_too_long_for_the_sheet_are_still_an_error_naming_the_character(project_copy):
    from printshop.errors import PrintshopError

    own_pregens_css(project_copy, after="\n.equipment li { font-size: 40pt; }\n")
    with pytest.raises(PrintshopError) as exc:
        roll(count=2, seed="lists", source=project_copy, layered=True)
    messages = [p.message for p in exc.value.problems]
    assert len(messages) == 2 and "the sheet of #1" in messages[0]
    assert "overflows its bottom" in messages[0]
