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
