"""`printshop kit`: a convention kit from the command line, its envelopes checked against the
rolled characters, its manifest entry kept and built again to the same bytes."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from conftest import RULES_SRC, pdf_text, run_cli
from printshop.cli import kit_command
from printshop.products.characters import convention
from printshop.source.yamlfile import load_yaml

KIT = ["kit", "--tables", "2", "--seats", "1", "--per-seat", "1", "--seed", "desk-7",
       "--reference", "none", "--class", "fighter,thief"]


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    """A tiny kit built once from a copy of the game (the entry is pasted into it later)."""
    project = tmp_path_factory.mktemp("kit") / "game"
    shutil.copytree(RULES_SRC, project)
    out = project.parent / "desk"
    result = run_cli(*KIT, "--source", project, "--out", out)
    assert result.exit_code == 0, result.output
    return project, out, result.output


def test_it_prints_where_each_envelope_went(kit):
    project, out, output = kit
    assert f"table 1: {out}/kit-desk-7/table-01.pdf (1 seat, character #1, " in output
    assert f"table 2: {out}/kit-desk-7/table-02.pdf (1 seat, character #2, " in output
    assert f"whole kit: {out}/kit-desk-7.pdf" in output
    for name in ("kit-desk-7.pdf", "kit-desk-7/table-01.pdf", "kit-desk-7/table-02.pdf",
                 "kit-desk-7/kit.json", "kit-desk-7/manifest-entry.yaml"):
        assert (out / name).is_file(), name
    assert not (project / "build").exists()   # --out: nothing in the project


def test_each_envelope_holds_its_seats_characters(kit):
    _, out, _ = kit
    listing = json.loads((out / "kit-desk-7" / "kit.json").read_text())
    for envelope in listing["envelopes"]:
        text = pdf_text(out / envelope["file"])
        for seat in envelope["seats"]:
            for character in seat["characters"]:
                assert "fighter" in character["class"] or "thief" in character["class"]
                assert character["class_name"] in text
                assert f"desk-7 #{character['index']}" in text
        assert f"Table {envelope['table']} · Seat 1" in text


def test_the_manifest_entry_builds_the_same_kit(kit):
    project, out, _ = kit
    entry_file = out / "kit-desk-7" / "manifest-entry.yaml"
    entry = load_yaml(entry_file).data
    assert entry == {"kit-desk-7": {
        "kind": "convention", "seed": "desk-7", "tables": "2", "seats": "1",
        "characters_per_seat": "1", "classes": ["fighter", "thief"],
        "player_reference": None}}
    manifest = project / "printshop.yaml"
    pasted = "\n".join("  " + line for line in entry_file.read_text().splitlines())
    manifest.write_text(manifest.read_text() + "\n" + pasted + "\n")
    result = run_cli("build", "kit-desk-7", "--source", project, "--out", project / "again")
    assert result.exit_code == 0, result.output
    for name in ("kit-desk-7.pdf", "kit-desk-7/table-01.pdf", "kit-desk-7/table-02.pdf",
                 "kit-desk-7/kit.json"):
        assert (project / "again" / name).read_bytes() == (out / name).read_bytes(), name


@pytest.mark.parametrize("args, message", [
    (["--include", "event-dek"], "--include: error: 'event-dek' is neither a product of the "
     "manifest nor a layout in sheets/ (did you mean 'event-deck'?)"),
    (["--reference", "player-refrence"], "--reference: error: 'player-refrence' is neither"),
    (["--class", "wizzard"], "--class: error: no class 'wizzard'"),
    (["--seed", "no spaces"], "--seed: error:"),
    (["--name", "../up"], "--name: error: '../up' cannot be used as a file name"),
])
def test_a_mistake_names_the_option_and_writes_nothing(tmp_path, args, message):
    result = run_cli("kit", "--tables", "1", "--seats", "1", "--per-seat", "1", *args,
                     "--source", RULES_SRC, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not (tmp_path / "out").exists()


def test_counts_are_bounded_as_in_the_manifest():
    assert (kit_command.MAX_TABLES, kit_command.MAX_SEATS, kit_command.MAX_PER_SEAT) == (
        convention.MAX_TABLES, convention.MAX_SEATS, convention.MAX_PER_SEAT)
    result = run_cli("kit", "--tables", "501", "--source", RULES_SRC)
    assert result.exit_code == 2 and "501 is not in the range 1<=x<=500" in result.output


def test_a_new_game_without_classes_rolls_its_kit_from_its_recipe(tmp_path):
    """`printshop new` writes a character recipe (delvers, no classes): a kit works on day
    one, and asking it for classes says there are none."""
    from printshop.scaffold import new_project

    new_project(tmp_path / "game", "Game")
    result = run_cli("kit", "--tables", "1", "--class", "fighter", cwd=tmp_path / "game")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert re.search(r"--class: error: .*has no classes", result.output), result.output
    result = run_cli("kit", "--tables", "1", "--seats", "2", "--per-seat", "1", "--seed",
                     "day-one", cwd=tmp_path / "game")
    assert result.exit_code == 0, result.output
    kit = json.loads((tmp_path / "game" / "build" / "kit-day-one" / "kit.json").read_text())
    seated = [c for seat in kit["envelopes"][0]["seats"] for c in seat["characters"]]
    assert [c["id"] for c in seated] == ["day-one #1", "day-one #2"]
    assert kit["recipe"] == "characters" and kit["class_table"] is None
