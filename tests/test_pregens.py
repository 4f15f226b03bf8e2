"""Pregen packs: the PDF (cover, sheets, backs), reproducibility, JSON, and bad input.

PDFs here are small (3–5 characters); big packs are measured in bench/pregens.py.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from conftest import RULES_SRC, folder_snapshot, own_pregens_css, pdf_colours, pdf_reader, run_cli
from printshop.builder import build_project
from printshop.errors import PrintshopError
from printshop.products.characters.pack import roll_characters_to_bytes

GOLDEN = Path(__file__).resolve().parent / "golden" / "characters-golden.json"


def roll(count=3, seed="test-pack", fmt="pdf", source=RULES_SRC, **options):
    return roll_characters_to_bytes(source, count=count, seed=seed, classes=options.pop(
        "classes", None), fmt=fmt, uncompressed=True, **options)


def page_texts(pdf: bytes) -> list[str]:
    return [page.extract_text() or "" for page in pdf_reader(pdf).pages]


@pytest.fixture(scope="module")
def small_pack():
    return roll(count=3)


@pytest.fixture(scope="module")
def small_pack_with_backs():
    return roll(count=3, backs=True)


# --- the pack --------------------------------------------------------------------------------

def test_a_pack_is_a_cover_then_one_page_per_character(small_pack):
    pages = page_texts(small_pack.data)
    assert len(pages) == 1 + 3
    cover = pages[0]
    assert "test-pack" in cover and "Adventurers" in cover
    characters = json.loads(roll(count=3, fmt="json").data)["characters"]
    for c in characters:   # the index lists number, class, HP and AC
        assert re.search(rf"{c['index']}\s*{re.escape(c['class_name'])}\s*{c['hp']}\s*{c['ac']}",
                         cover), c["id"]
    for c, sheet in zip(characters, pages[1:]):
        assert c["class_name"] in sheet
        assert f"test-pack #{c['index']}" in sheet        # the id re-rolls this character
        assert "named by the player on your left" in sheet
        for role in ("Party Leader", "Mapper", "Lootkeeper", "Timekeeper"):
            assert role in sheet
        for save in ("Area", "Body", "Death", "Luck", "Mind", "Rally"):
            assert save in sheet
        for skill in c["skills"]:
            assert skill["name"] in sheet
        for spell in c["spells"]:
            assert spell in sheet


def test_sheet_colours_are_the_palettes_and_print_as_they_always_did(small_pack, project_copy):
    # ink, sheet-dim, blood, sheet-faint on the cover; sheet-rule, sheet-box (the prime stat)
    # and white on the sheets too: the values css/pregens.css had before the palette held them
    assert pdf_colours(small_pack.data, 0) == {"#1d1a17", "#5e5345", "#7a1712", "#c9bba2"}
    sheets = set().union(*(pdf_colours(small_pack.data, n) for n in (1, 2, 3)))
    assert sheets == {"#1d1a17", "#5e5345", "#7a1712", "#8c7d68", "#c9bba2", "#f1eadc",
                      "#ffffff"}
    # a project's palette.yaml recolours them, in the PDF and the HTML edition
    (project_copy / "palette.yaml").write_text(
        'colours:\n  sheet-box: {srgb: "#dfe8f0", cmyk: "10 3 0 4"}\n')
    pdf = roll(count=1, source=project_copy).data
    assert "#dfe8f0" in pdf_colours(pdf, 1) and "#f1eadc" not in pdf_colours(pdf, 1)
    html = roll(count=1, source=project_copy, fmt="html").data.decode()
    assert "--sheet-box: #dfe8f0;" in html and "#f1eadc" not in html


def test_backs_add_a_tombstone_after_every_sheet_and_pad_the_cover(small_pack_with_backs):
    pages = page_texts(small_pack_with_backs.data)
    # the cover gets a blank back so every sheet and its tombstone share a leaf
    assert len(pages) == 2 + 3 * 2
    assert "left blank" in pages[1]
    for n in range(3):
        sheet, back = pages[2 + 2 * n], pages[3 + 2 * n]
        assert "Here Lies" not in sheet and "Here Lies" in back
        assert f"test-pack #{n + 1}" in sheet and f"test-pack #{n + 1}" in back


def test_the_pdf_has_a_bookmark_per_character(small_pack_with_backs):
    reader = pdf_reader(small_pack_with_backs.data)
    titles = [item.title for item in reader.outline]
    assert titles[0] == "Cover and index" and len(titles) == 4
    # each bookmark points at that character's sheet, not at its back
    pages = [reader.get_destination_page_number(item) for item in reader.outline]
    assert pages == [0, 2, 4, 6]


def test_the_same_seed_gives_a_byte_identical_pdf_on_any_number_of_cores(small_pack):
    again = roll(count=3, jobs=1)
    assert again.data == small_pack.data


def test_character_n_is_the_same_in_packs_of_any_size(small_pack):
    bigger = roll(count=5)
    small_pages, big_pages = page_texts(small_pack.data), page_texts(bigger.data)
    assert small_pages[1:4] == big_pages[1:4]
    small = json.loads(roll(count=3, fmt="json").data)["characters"]
    big = json.loads(roll(count=40, fmt="json").data)["characters"]
    assert big[:3] == small


def test_class_restriction_and_flat_table(tmp_path):
    data = json.loads(roll(count=30, fmt="json", classes="fighter,dwarf").data)
    assert {c["class"] for c in data["characters"]} == {"human-fighter", "dwarf-defender"}
    flat = json.loads(roll(count=60, fmt="json", class_table="flat").data)
    assert len({c["class"] for c in flat["characters"]}) == 8


def test_the_manifest_product_builds_strict_without_warnings(project_copy, tmp_path):
    manifest = project_copy / "printshop.yaml"
    text = manifest.read_text()
    text = text.replace("    count: 50\n", "    count: 2\n    formats: [pdf, json]\n")
    manifest.write_text(text)
    report = build_project(project_copy, tmp_path / "out", ["pregens"], strict=True,
                           uncompressed=True)
    assert report.warnings == []
    assert len(pdf_reader(tmp_path / "out" / "pregens.pdf").pages) == 3
    data = json.loads((tmp_path / "out" / "pregens.json").read_text())
    assert data["seed"] == "hammercrawl-1" and len(data["characters"]) == 2


def test_a_character_no_font_can_print_is_reported_once_and_fails_strict(project_copy,
                                                                          tmp_path):
    roles = project_copy / "tables" / "party-roles.yaml"
    roles.write_text(roles.read_text().replace("{role: Mapper,", "{role: Mapper 漢,"))
    (project_copy / "printshop.yaml").write_text(
        (project_copy / "printshop.yaml").read_text().replace("    count: 50\n",
                                                              "    count: 12\n"))
    pack = roll(count=12, source=project_copy, sheets_per_chunk=5)  # 3 chunks, one warning
    assert len(pack.warnings) == 1 and "U+6F22" in pack.warnings[0].message
    with pytest.raises(PrintshopError):
        build_project(project_copy, tmp_path / "out", ["pregens"], strict=True)
    assert not (tmp_path / "out" / "pregens.pdf").exists()


def test_a_sheet_stylesheet_reaching_outside_the_project_is_refused_before_rendering(
        project_copy, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    own_pregens_css(project_copy, before=f"@import url({secret.as_uri()});\n")
    result = run_cli("build", "pregens", "--source", str(project_copy),
                     "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "pregens.css" in result.output and "outside the project" in result.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_sheet_that_does_not_fit_is_an_error_naming_the_character(project_copy):
    own_pregens_css(project_copy, after="\n.abilities li { font-size: 30pt; }\n")
    with pytest.raises(PrintshopError) as exc:
        roll(count=2, source=project_copy)
    messages = [p.message for p in exc.value.problems]
    assert len(messages) == 2
    assert re.search(r"the sheet of #1 \(.+\) overflows its bottom by [\d.]+ mm", messages[0])


def test_sheets_that_all_overflow_are_said_in_a_few_lines_not_one_each(project_copy):
    """A stylesheet that makes every sheet overflow: the first sheets one by one, the rest
    in one line naming them, not a line a sheet."""
    from printshop.products.characters.pregens import LISTED

    own_pregens_css(project_copy, after="\n.abilities li { font-size: 30pt; }\n")
    with pytest.raises(PrintshopError) as exc:
        roll(count=14, source=project_copy)
    messages = [p.message for p in exc.value.problems]
    assert len(messages) == LISTED + 1
    assert all(re.search(r"the sheet of #\d+ \(.+\) overflows its bottom", m)
               for m in messages[:LISTED])
    said = [int(n) for m in messages[:LISTED] for n in re.findall(r"#(\d+)", m)]
    summary = re.fullmatch(r"(\d+) more boxes do not fit either, on the sheets of (.+) \(by "
                           r"up to [\d.]+ mm; seed .+\); shorten what they print or adjust "
                           r"pregens.html.j2", messages[-1])
    assert summary, messages[-1]
    named = set()
    for run in summary[2].split(", "):
        first, _, last = run.partition("–")
        named |= set(range(int(first[1:]), int((last or first)[1:]) + 1))
    assert int(summary[1]) == len(named) and not named & set(said)
    assert max(named) <= 14 and min(named) > min(said)


def test_ranges_of_sheet_numbers():
    from printshop.products.characters.pregens import _ranges

    assert _ranges([3, 5, 6, 7, 9, 12, 13]) == "#3, #5–#7, #9, #12–#13"
    assert _ranges([4]) == "#4"


def test_progress_is_reported_for_slow_packs(monkeypatch):
    import printshop.products.characters.pregens as pregens

    monkeypatch.setattr(pregens, "PROGRESS_AFTER_S", 0.0)
    said = []
    roll(count=2, progress=said.append)
    assert said[-1].startswith("characters: rendering: 2/2 sheets (")


def test_html_edition_is_one_self_contained_file():
    html = roll(count=2, fmt="html").data.decode()
    assert html.count('class="page sheet"') == 2
    assert "data:font/woff;base64," in html and "url(../fonts" not in html


# --- JSON ------------------------------------------------------------------------------------

def test_json_matches_the_golden_file():
    """Regenerate after a deliberate change to the tables or the roller with
    PRINTSHOP_UPDATE_GOLDEN=1 pytest tests/test_pregens.py -k golden (and review the diff)."""
    data = json.loads(roll(count=8, seed="golden", fmt="json").data)
    assert set(data) == {"seed", "printshop", "characters"}
    if os.environ.get("PRINTSHOP_UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(data["characters"], indent=2, ensure_ascii=False) + "\n")
    assert data["characters"] == json.loads(GOLDEN.read_text())


# --- bad input -------------------------------------------------------------------------------

def cli_fails(tmp_path, *args, source=RULES_SRC):
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    (out / "keep.txt").write_text("old")
    before = folder_snapshot(out)
    result = run_cli("roll", "characters", "--source", source, "--out", out / "pack.pdf",
                     *args)
    assert result.exit_code == 2, result.output
    assert folder_snapshot(out) == before          # nothing written
    assert "Traceback" not in result.output
    return result.output


@pytest.mark.parametrize("count", ["0", "-4"])
def test_count_below_one(tmp_path, count):
    output = cli_fails(tmp_path, "--count", count)
    assert f"--count: error: must be at least 1 (got {count})" in output


def test_a_huge_count_needs_yes(tmp_path):
    output = cli_fails(tmp_path, "--count", "10001")
    assert "--count: error: 10,001 characters is more than 10,000" in output and "--yes" in output


def test_unknown_class(tmp_path):
    output = cli_fails(tmp_path, "--count", "2", "--class", "fighter,necromancer")
    assert "--class: error: no class 'necromancer'" in output and "human-fighter" in output


def test_empty_skills_table(tmp_path, project_copy):
    path = project_copy / "tables" / "skills.yaml"
    head = path.read_text().split("rows:")[0]
    path.write_text(head + "rows: []\n")
    output = cli_fails(tmp_path, "--count", "2", source=project_copy)
    assert re.search(r"tables/skills\.yaml:\d+(:\d+)?: (error: )?rows: must not be empty",
                     output), output
    # one problem (with its source line and caret), then the summary line
    assert output.count(": error: ") == 1 and output.rstrip().endswith("nothing was written")


def test_malformed_skills_table(tmp_path, project_copy):
    path = project_copy / "tables" / "skills.yaml"
    text = path.read_text().replace("skill: Alchemy, stat: INT", "skill: Alchemy, stat: SMARTS")
    assert "SMARTS" in text
    path.write_text(text)
    output = cli_fails(tmp_path, "--count", "2", source=project_copy)
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "SMARTS" in row)
    assert f"tables/skills.yaml:{line}: error: stat 'SMARTS' is not one of STR, DEX, CON" in output


def test_a_skills_table_too_short_for_int_18(tmp_path, project_copy):
    path = project_copy / "tables" / "skills.yaml"
    path.write_text("title: Skills\ncolumns: [{key: skill, label: Skill}, {key: stat, "
                    "label: Stat}]\nrows:\n" + "".join(
                        f"  - {{skill: Skill {n}, stat: STR}}\n" for n in range(1, 6)))
    output = cli_fails(tmp_path, "--count", "2", source=project_copy)
    # 4 + INT mod, and INT 18 gives +3: the recipe's check works that out from the tables
    assert re.search(r"recipes/characters\.yaml:\d+:\d+: (error: )?steps\.skills\.count: "
                     r"this can ask for 7 different rows, but tables/skills\.yaml has only 5",
                     output), output


def test_a_kit_naming_armour_the_guide_does_not_have(tmp_path, project_copy):
    path = project_copy / "tables" / "kit-human-fighter.yaml"
    text = path.read_text().replace("armour: Splint", "armour: Mithril")
    path.write_text(text)
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "Mithril" in row)
    output = cli_fails(tmp_path, "--count", "2", source=project_copy)
    assert f"kit-human-fighter.yaml:{line}: error: armour 'Mithril' is not in tables/armour.yaml" \
        in output


def test_cli_writes_the_pack_and_says_where(tmp_path):
    out = tmp_path / "pack.json"
    result = run_cli("roll", "characters", "--count", "2", "--seed", "cli", "--format", "json",
                     "--out", out)
    assert result.exit_code == 0, result.output
    assert f"wrote {out} (2 characters, seed cli)" in result.output
    assert json.loads(out.read_text())["characters"][1]["id"] == "cli #2"


def test_first_starts_the_pack_at_character_n(tmp_path):
    """`--first 3 --count 2` rolls #3 and #4 exactly as a pack of four does: one lost sheet of
    a big pack (or a convention kit) is reprinted alone."""
    four = json.loads(roll(count=4, fmt="json").data)["characters"]
    two = json.loads(roll(count=2, first=3, fmt="json").data)["characters"]
    assert two == four[2:]
    pack = roll(count=2, first=3, backs=True)
    assert pack.default_name == "characters-test-pack-3-4.pdf"
    reader = pdf_reader(pack.data)
    marks = [(item.title, reader.get_destination_page_number(item)) for item in reader.outline]
    assert marks == [("Cover and index", 0), (f"#3 {four[2]['class_name']}", 2),
                     (f"#4 {four[3]['class_name']}", 4)]
    assert "test-pack #3" in reader.pages[2].extract_text()
    result = run_cli("roll", "characters", "--seed", "x", "--first", "0", "--format", "json",
                     "--out", "-")
    assert result.exit_code == 2 and "--first: error: must be at least 1" in result.output


def test_every_problem_of_a_pack_is_said_in_one_run(project_copy, tmp_path):
    """A pack too big, a sheet template that does not exist and a stylesheet that is not
    there: one build names all three, and writes nothing."""
    import yaml

    manifest = yaml.safe_load((project_copy / "printshop.yaml").read_text())
    manifest["products"] = {"pack": {"kind": "pregens", "seed": "s", "count": 20000,
                                     "template": "no-such-sheet.html.j2",
                                     "stylesheets": ["css/no-such.css"]}}
    (project_copy / "printshop.yaml").write_text(yaml.safe_dump(manifest))
    with pytest.raises(PrintshopError) as exc:
        build_project(project_copy, tmp_path / "out", strict=True)
    messages = " | ".join(p.message for p in exc.value.problems)
    assert "20,000 characters is more than" in messages
    assert "no-such-sheet.html.j2" in messages
    assert "no-such.css" in messages
    assert not (tmp_path / "out" / "pack.pdf").exists()
