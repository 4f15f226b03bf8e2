"""One loader for the data printshop ships that a project extends (source/builtin_data.py):
the palette, the print profiles and the card sizes each take the project's file of the
same name over printshop's own, adding entries or redefining one whole."""

from __future__ import annotations

import pytest
import yaml

from printshop.errors import PrintshopError
from printshop.profiles import PROFILES, get_profile, load_profiles
from printshop.source.builtin_data import DATA_DIR
from printshop.source.card_sizes import load_card_sizes, unknown_size_message
from printshop.source.palette import load_palette

OWN = {
    "palette.yaml": "colours:\n  ink: {srgb: '#102030', cmyk: 0 0 0 90}\n"
                    "  sea: {srgb: '#2060a0', cmyk: 80 40 0 10}\n",
    "card-sizes.yaml": "title: Card sizes\ncolumns:\n  - {key: id, label: Size}\n"
                       "  - {key: width, label: W, type: number}\n"
                       "  - {key: height, label: H, type: number}\n"
                       "rows:\n  - {id: poker, width: 60, height: 90}\n"
                       "  - {id: square, width: 70, height: 70}\n",
    "print-profiles.yaml": "profiles:\n  screen: {description: Our screen, links: false}\n"
                           "  zine: {description: A folded zine, bleed: 2mm}\n",
}


def shipped(name: str) -> dict:
    return yaml.safe_load((DATA_DIR / name).read_text(encoding="utf-8"))


@pytest.fixture
def project(tmp_path):
    for name, text in OWN.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def test_the_palette_takes_the_project_s_colours_over_printshop_s(project):
    builtin = shipped("palette.yaml")["colours"]
    alone, extended = load_palette(None), load_palette(project)
    assert set(alone) == set(builtin)
    assert set(extended) == set(builtin) | {"sea"}
    assert extended["ink"].srgb == "#102030" and extended["ink"].cmyk == (0, 0, 0, 90)
    assert extended["ink"].path == project / "palette.yaml"
    other = next(name for name in builtin if name != "ink")
    assert extended[other].srgb == builtin[other]["srgb"].lower()


def test_card_sizes_take_the_project_s_sizes_over_printshop_s(project):
    builtin = {row["id"]: row for row in shipped("card-sizes.yaml")["rows"]}
    sizes = load_card_sizes(project)
    assert set(sizes) == set(builtin) | {"square"}
    assert (sizes["poker"].width, sizes["poker"].height) == (60, 90)
    assert (sizes["bridge"].width, sizes["bridge"].height) == \
        (builtin["bridge"]["width"], builtin["bridge"]["height"])
    assert unknown_size_message("pokr", sizes).startswith(
        "unknown card size 'pokr' (did you mean 'poker'?); sizes: poker, ")


def test_print_profiles_take_the_project_s_profiles_over_printshop_s(project):
    builtin = shipped("print-profiles.yaml")["profiles"]
    profiles = load_profiles(project)
    assert set(profiles) == set(builtin) | {"zine"}
    assert profiles["screen"].description == "Our screen" and not profiles["screen"].links
    assert profiles["zine"].bleed == 2.0
    assert profiles["home"].description == builtin["home"]["description"]
    with pytest.raises(PrintshopError) as error:
        get_profile("zin", project)
    assert "unknown print profile 'zin' (did you mean 'zine'?)" in str(error.value)
    assert f"a project adds its own in {PROFILES.file_name}" in str(error.value)
