"""The one door to WeasyPrint's internals (render/weasy/registry.py): every patch is active on
the pinned WeasyPrint (a version bump that changes a target fails here, naming what must be
ported), a patch whose target differs is skipped and WeasyPrint's own code runs, and the
switch turns patches off."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from importlib.metadata import version

import pytest

from printshop.render.weasy import registry


def test_every_patch_is_active_on_the_pinned_weasyprint():
    assert version("weasyprint").split(".")[0] == "70"     # pyproject.toml's pin
    statuses = registry.apply_all()
    not_active = [f"{s.name}: {s.state} ({s.reason})" for s in statuses if s.state != "active"]
    assert not not_active, "patches to port to this WeasyPrint:\n" + "\n".join(not_active)
    assert len(statuses) == len(registry.names()) >= 10


def test_each_target_digest_is_the_source_it_names_and_each_patch_says_why():
    for patch in registry.patches():
        assert patch.kind in ("fix", "speed") and patch.why and patch.gain, patch.name
        assert patch.targets, patch.name
        for dotted, digest in patch.targets.items():
            assert registry.digest_of(registry.original(dotted)) == digest, (patch.name, dotted)
        # what it changes is one of the three ways (or asked for by name: `active`)
        for edit in patch.edits:
            assert edit.function in patch.targets, (patch.name, edit.function)


def test_a_targets_source_is_read_from_the_cache_until_its_file_changes(tmp_path, monkeypatch):
    import importlib
    import inspect

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for patch in registry.patches():     # each target as inspect reads it, cached or not
        for dotted in patch.targets:
            target = registry.original(dotted)
            assert registry.source_of(target) == registry.source_of(target) == \
                inspect.getsource(target), dotted
    assert list((tmp_path / "cache" / "printshop" / "source-1").iterdir())
    module = tmp_path / "some_module.py"
    module.write_text("def f():\n    return 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    imported = importlib.import_module("some_module")
    assert registry.source_of(imported.f) == "def f():\n    return 1\n"
    module.write_text("def f():\n    return 2  # another WeasyPrint\n")
    imported = importlib.reload(imported)
    assert registry.source_of(imported.f) == "def f():\n    return 2  # another WeasyPrint\n"


def _target_changed(name: str):
    """The patch `name` as the registry sees it on a WeasyPrint whose source of its first
    target differs from the one it was written against; that target."""
    patch = registry._REGISTRY.patches[name]
    first = next(iter(patch.targets))
    return dataclasses.replace(patch, targets={**patch.targets, first: "0" * 16}), first


def test_a_patch_whose_target_differs_is_skipped_and_weasyprints_own_code_runs():
    from weasyprint.layout import inline, preferred

    registry.apply_all()
    assert inline.split_first_line is not registry.original(
        "weasyprint.text.line_break.split_first_line")
    changed, target = _target_changed("line-splits")
    # (the fix trailing-space-fit edits the same function: off too, so that what runs is
    # WeasyPrint's own)
    with registry.switched({"trailing-space-fit"}, [changed]) as decided:
        status = decided["line-splits"]
        assert status.state == "skipped"
        assert status.reason == f"{target} differs from the source it was written against"
        own = registry.original(target)
        assert inline.split_first_line is own and preferred.split_first_line is own
        assert not registry.active("line-splits") and registry.active("pango-setups")
    assert registry.active("line-splits")          # and back as the process had it
    assert inline.split_first_line is not registry.original(target)


def test_a_patch_written_on_top_of_a_skipped_one_is_skipped_too():
    with registry.switched((), [_target_changed("column-balance")[0]]) as decided:
        assert decided["column-balance"].state == "skipped"
        assert decided["column-trial"].state == "skipped"
        assert decided["column-trial"].reason == "needs column-balance, which is not active"
        assert decided["column-span-resume"].state == "active"


def test_source_edits_whose_lines_are_not_found_leave_that_patch_out():
    from weasyprint.layout import block, column

    balance = registry._REGISTRY.patches["column-balance"]
    edit = balance.edits[0]
    broken = dataclasses.replace(edit, edits=(("no such line\n", "x\n"),) + edit.edits[1:])
    with registry.switched((), [dataclasses.replace(balance, edits=(broken,))]) as decided:
        assert decided["column-balance"].state == "skipped"
        assert "not found once" in decided["column-balance"].reason
        # the other patches of the same function are still compiled into it
        assert decided["column-span-resume"].state == "active"
        assert column.columns_layout is block.columns_layout
        assert column.columns_layout is not registry.original(
            "weasyprint.layout.column.columns_layout")


def test_switched_off_patches_leave_weasyprints_own_objects_in_place():
    from weasyprint import css, layout
    from weasyprint.layout import column
    from weasyprint.text.line_break import Layout

    registry.apply_all()
    patched = (column.columns_layout, Layout.setup, css.find_style_attributes,
               layout.make_margin_boxes)
    with registry.switched(registry.names()) as decided:
        assert {s.state for s in decided.values()} == {"off"}
        assert column.columns_layout is registry.original(
            "weasyprint.layout.column.columns_layout")
        assert Layout.setup is registry.original("weasyprint.text.line_break.Layout.setup")
        assert css.find_style_attributes is registry.original(
            "weasyprint.css.find_style_attributes")
        assert layout.make_margin_boxes is registry.original(
            "weasyprint.layout.page.make_margin_boxes")
    assert (column.columns_layout, Layout.setup, css.find_style_attributes,
            layout.make_margin_boxes) != patched   # compiled again, but patched again
    assert column.columns_layout is not registry.original(
        "weasyprint.layout.column.columns_layout")


@pytest.mark.parametrize("value, off, unknown", [
    ("", set(), []),
    ("on", set(), []),
    ("off", "all", []),
    ("column-balance, line-splits", {"column-balance", "line-splits"}, []),
    ("line-splits,no-such-patch", {"line-splits"}, ["no-such-patch"]),
])
def test_the_environment_switch(value, off, unknown):
    found, strange = registry.switched_off({registry.ENV: value})
    assert found == (set(registry.names()) if off == "all" else off)
    assert strange == unknown


def test_version_lists_every_patch_with_its_state_and_the_switch():
    import os

    env = {"PRINTSHOP_WEASYPRINT_PATCHES": "line-splits,pango-setup"}
    out = subprocess.run([sys.executable, "-m", "printshop", "--version"],
                         capture_output=True, text=True, env={**os.environ, **env},
                         check=True).stdout
    lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ")}
    assert set(registry.names()) <= set(lines)
    assert lines["line-splits"].split()[1:] == ["speed", "off:", registry.ENV]
    assert lines["column-span-resume"].split()[1:] == ["fix", "active"]
    assert "pango-setup: not a patch" in out
    assert f"{len(registry.names()) - 1} of {len(registry.names())} active" in out
