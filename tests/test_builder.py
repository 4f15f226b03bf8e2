"""`build_project`: the render workers start first, and stop when loading fails."""

from __future__ import annotations

import multiprocessing

import pytest

from printshop.builder import build_project
from printshop.errors import PrintshopError


def test_workers_started_before_loading_are_stopped_when_loading_fails(project_copy,
                                                                       tmp_path):
    manifest = project_copy / "printshop.yaml"
    manifest.write_text(manifest.read_text().replace("decks: [event]", "decks: [evnt]"))
    with pytest.raises(PrintshopError) as failed:
        build_project(project_copy, tmp_path / "out", ["event-deck"])
    assert "no deck 'evnt'" in failed.value.problems[0].message
    assert multiprocessing.active_children() == []


def test_workers_are_stopped_when_a_product_entry_is_bad(project_copy, tmp_path):
    manifest = project_copy / "printshop.yaml"
    manifest.write_text(manifest.read_text().replace(
        "decks: [event]", "decks: [event]\n    layout: diagonal"))
    with pytest.raises(PrintshopError) as failed:
        build_project(project_copy, tmp_path / "out", ["event-deck"])
    problem = failed.value.problems[0]
    assert problem.path.endswith("printshop.yaml") and problem.line and "layout" in \
        problem.message
    assert multiprocessing.active_children() == []


def test_a_kit_is_built_after_the_deck_it_holds_and_takes_its_pages_from_it(
        project_copy, tmp_path, monkeypatch):
    """Products build two at a time, but a kit waits for the Event Deck it holds (were they
    built at once, both would render the deck): the deck's sheets and card fits are then
    rendered once, for both (as many jobs as the kit alone)."""
    from printshop.products.cards.product import CardsProduct as Cards
    from printshop.products.characters.convention import Convention

    events = []
    for cls in (Cards, Convention):
        def build(self, ctx, output, original=cls.build):
            events.append(("start", self.name))
            original(self, ctx, output)
            events.append(("end", self.name))
        monkeypatch.setattr(cls, "build", build)
    alone = build_project(project_copy, tmp_path / "alone", ["con-kit"], strict=True)
    events.clear()
    both = build_project(project_copy, tmp_path / "both", ["con-kit", "event-deck"],
                         strict=True)
    assert events.index(("end", "event-deck")) < events.index(("start", "con-kit"))
    assert both.chunks_rendered == alone.chunks_rendered
    for name in ("con-kit.pdf", "con-kit/table-01.pdf"):
        assert (tmp_path / "both" / name).read_bytes() == \
            (tmp_path / "alone" / name).read_bytes()
