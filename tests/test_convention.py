"""Convention kits: envelopes per table, characters numbered across the kit (and the same in a
kit of any size), table and seat marks, kit.json against the PDFs' text, duplex padding, and
bad counts as located errors. Kits here are tiny (2–3 tables of 2–3 seats)."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from conftest import RULES_SRC, pdf_colours, pdf_reader, run_cli
from printshop.builder import build_project, check_project
from printshop.errors import PrintshopError

KIT = """
  kit:
    kind: convention
    seed: con-test
    tables: {tables}
    seats: {seats}
    characters_per_seat: {per_seat}
{extra}"""


def make_kit(tmp_path, name, tables, seats, extra="", per_seat=2):
    import shutil

    project = tmp_path / name / "project"
    shutil.copytree(RULES_SRC, project)
    manifest = project / "printshop.yaml"
    manifest.write_text(manifest.read_text() + KIT.format(tables=tables, seats=seats,
                                                          per_seat=per_seat, extra=extra))
    return project


def build_kit(tmp_path, name, tables, seats, extra=""):
    project = make_kit(tmp_path, name, tables, seats, extra)
    out = tmp_path / name / "out"
    build_project(project, out, names=["kit"], strict=True, uncompressed=True)
    kit = json.loads((out / "kit" / "kit.json").read_text())
    texts = {entry["table"]: [p.extract_text() or "" for p in
                              pdf_reader(out / entry["file"]).pages]
             for entry in kit["envelopes"]}
    return out, kit, texts


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """2 tables × 2 seats × 2 characters, tombstone backs, a player reference per seat, and
    the Hammersmith Reference (a sheets/ layout) in each envelope."""
    return build_kit(tmp_path_factory.mktemp("small"), "small", 2, 2,
                     "    include: [hammersmith-reference]\n")


@pytest.fixture(scope="module")
def grown(tmp_path_factory):
    """The same seed, a bigger kit, no backs (a blank page behind each sheet), no reference."""
    return build_kit(tmp_path_factory.mktemp("grown"), "grown", 3, 3,
                     "    backs: false\n    player_reference: null\n")


def characters(kit):
    return [(t["table"], s["seat"], c) for t in kit["envelopes"] for s in t["seats"]
            for c in s["characters"]]


def test_files_and_numbering_across_the_kit(small):
    out, kit, _ = small
    # the table cover in the palette's colours, as css/pregens.css printed them before
    assert pdf_colours(out / "kit.pdf", 0) == {"#1d1a17", "#5e5345", "#7a1712", "#c9bba2",
                                               "#f1eadc"}
    assert sorted(p.name for p in (out / "kit").iterdir()) == \
        ["kit.json", "table-01.pdf", "table-02.pdf"]
    assert (out / "kit.pdf").is_file()
    seated = characters(kit)
    # numbered 1…N across the kit, in table and seat order, each once
    assert [c["index"] for _, _, c in seated] == list(range(1, 2 * 2 * 2 + 1))
    assert len({c["id"] for _, _, c in seated}) == len(seated)
    assert [(t, s) for t, s, _ in seated] == [(1, 1), (1, 1), (1, 2), (1, 2),
                                              (2, 1), (2, 1), (2, 2), (2, 2)]
    assert all(c["id"] == f"con-test #{c['index']}" for _, _, c in seated)


def test_each_sheet_is_where_kit_json_says_with_its_table_and_seat(small, grown):
    for _, kit, texts in (small, grown):
        for table, seat, c in characters(kit):
            page = texts[table][c["page"] - 1]
            assert c["id"] in page, (table, seat, c)
            # a long class name wraps in the sheet's title (its words on two lines)
            assert c["class_name"] in " ".join(page.split())
            assert re.search(rf"TABLE {table}\s*·\s*SEAT {seat}", page), (table, seat, c)
            # and no other table's or seat's mark
            assert len(re.findall(r"TABLE \d+\s*·\s*SEAT \d+", page)) == 1


def test_kit_json_matches_the_pdfs(small, grown):
    for out, kit, texts in (small, grown):
        total = 0
        for entry in kit["envelopes"]:
            assert entry["pages"] == len(texts[entry["table"]])
            assert entry["first_page_in_kit"] == total + 1
            total += entry["pages"]
        whole = pdf_reader(out / "kit.pdf")
        assert len(whole.pages) == total
        # the whole kit is the envelopes in table order
        last = kit["envelopes"][-1]
        assert whole.pages[last["first_page_in_kit"] - 1].extract_text() == texts[last["table"]][0]


def test_every_part_starts_on_a_new_leaf(small, grown):
    _, kit, texts = small
    for entry in kit["envelopes"]:
        parts = [p["part"] for p in entry["contents"]]
        assert parts == ["Table cover", f"Seat 1: #{entry['seats'][0]['characters'][0]['index']}"
                         f"–#{entry['seats'][0]['characters'][1]['index']}",
                         parts[2], "Player Reference, seat 1", "Player Reference, seat 2",
                         "Hammersmith Reference"]
        assert all(p["first_page"] % 2 == 1 for p in entry["contents"])
        pages = texts[entry["table"]]
        assert pages[1].strip() == ""                       # the cover's blank back
        for seat in entry["seats"]:
            for c in seat["characters"]:                    # sheet, then its tombstone
                assert "Here Lies" in pages[c["page"]] and c["id"] in pages[c["page"]]
    _, kit, texts = grown
    for entry in kit["envelopes"]:
        for seat in entry["seats"]:
            for c in seat["characters"]:   # without backs, a blank page behind every sheet
                assert c["page"] % 2 == 1 and texts[entry["table"]][c["page"]].strip() == ""


def test_character_n_is_the_same_in_a_bigger_kit(small, grown):
    def sheets(built):
        out, kit, _ = built
        files = {entry["table"]: out / entry["file"] for entry in kit["envelopes"]}

        def text(table, page):   # poppler reads a page in its reading order, whatever
            return subprocess.run(    # order the PDF draws it in (a big kit's sheets are
                ["pdftotext", "-f", str(page), "-l", str(page), str(files[table]), "-"],
                capture_output=True, text=True, check=True).stdout   # drawn in layers)
        return {c["id"]: (c["class"], re.sub(r"TABLE \d+\s*·\s*SEAT \d+", "",
                                             text(t, c["page"])))
                for t, _, c in characters(kit)}

    few, many = sheets(small), sheets(grown)
    assert set(few) < set(many)
    for cid, (cls, text) in few.items():
        assert many[cid][0] == cls, cid
        # the same sheet, word for word (pdftotext may read a layered sheet's parts in
        # another order: the words are compared, not their order)
        assert sorted(many[cid][1].split()) == sorted(text.split()), cid


def test_the_cover_says_what_is_in_the_envelope_and_how_to_reprint(small):
    _, kit, texts = small
    cover = texts[2][0]
    assert "Table 2" in cover and "of 2" in cover
    assert "2 seats" in cover and "seed con-test" in cover
    for seat in kit["envelopes"][1]["seats"]:
        for c in seat["characters"]:
            assert f"#{c['index']} {c['class_name']}" in cover
    assert "Player Reference ×2" in cover and "Hammersmith Reference" in cover
    assert kit["reprint"].startswith("printshop roll characters --source ")
    assert kit["reprint"].endswith(" --seed con-test --paper letter --backs --seats 2 "
                                   "--per-seat 2 --no-cover --first N --count 1")
    assert kit["reprint"] in re.sub(r"\s+", " ", cover)   # (tests/test_printed_commands.py
    assert "printshop build kit" in cover                # runs them)


def test_the_reprint_command_rolls_the_same_character(small, tmp_path):
    _, kit, texts = small
    table, _, c = characters(kit)[-2]
    command = kit["reprint"].replace("N", str(c["index"])).split()
    assert command[:2] == ["printshop", "roll"]
    result = run_cli(*command[1:], "--format", "json", "--out", "-", "--source", RULES_SRC)
    assert result.exit_code == 0, result.output
    rolled, = json.loads(result.stdout)["characters"]
    assert (rolled["id"], rolled["class"]) == (c["id"], c["class"])
    # and as a PDF: that sheet alone (and its tombstone), word for word the kit's sheet,
    # with its table and seat
    result = run_cli(*command[1:], "--out", tmp_path / "one.pdf", "--source", RULES_SRC)
    assert result.exit_code == 0, result.output
    pages = [p.extract_text() for p in pdf_reader(tmp_path / "one.pdf").pages]
    assert len(pages) == 2              # the sheet, its back
    assert re.sub(r"\s+", " ", pages[0]) == re.sub(r"\s+", " ", texts[table][c["page"] - 1])


@pytest.mark.parametrize("option, value, message", [
    ("tables", "0", "greater than or equal to 1"),
    ("seats", "10000", "less than or equal to 12"),
    ("characters_per_seat", "0", "greater than or equal to 1"),
])
def test_bad_counts_are_located_errors(tmp_path, option, value, message):
    counts = {"tables": 2, "seats": 2, "per_seat": 2,
              {"characters_per_seat": "per_seat"}.get(option, option): value}
    project = make_kit(tmp_path, "bad", counts["tables"], counts["seats"],
                       per_seat=counts["per_seat"])
    lines = (project / "printshop.yaml").read_text().splitlines()
    line = len(lines) - lines[::-1].index(f"    {option}: {value}")
    with pytest.raises(PrintshopError) as caught:
        check_project(project, names=["kit"])
    problem, = caught.value.problems
    assert problem.path.endswith("printshop.yaml") and problem.line == line
    assert message in problem.message


def test_too_many_characters_and_unknown_includes_are_located(tmp_path):
    project = make_kit(tmp_path, "big", 500, 12, "    include: [event-dekc]\n")
    manifest = project / "printshop.yaml"
    # both problems in one run, each once, in the manifest's line order
    with pytest.raises(PrintshopError) as caught:
        check_project(project, names=["kit"])
    size, problem = caught.value.problems
    assert "12,000 characters, more than 10,000" in size.message
    assert size.line < problem.line and size.path == problem.path
    assert "include.0: 'event-dekc' is neither a product" in problem.message
    assert problem.line == manifest.read_text().splitlines().index(
        "    include: [event-dekc]") + 1
    assert problem.path.endswith("printshop.yaml")


def test_a_long_cover_runs_onto_another_page_and_loses_nothing(tmp_path):
    """12 seats of 10 characters: the checklist is long; the commands at its end must print."""
    from printshop.products import BuildContext, load_products
    from printshop.project import Project
    from printshop.render.renderer import Renderer

    project = Project.load(make_kit(tmp_path, "long", 1, 12, per_seat=10))
    kit, = load_products(project, ["kit"])
    ctx = BuildContext(project=project, strict=True, uncompressed=True)
    with Renderer(processes=1) as renderer:
        ctx.renderer = renderer
        (pdf, pages), = kit._render_covers(ctx, kit.seating(), "letter", None, [])
    assert ctx.warnings == []
    text = "\n".join(p.extract_text() for p in pdf_reader(pdf).pages)
    assert pages == len(pdf_reader(pdf).pages) >= 1
    assert "#120 " in text and "Seat 12" in text
    flat = re.sub(r"\s+", " ", text).rstrip()
    assert kit.reprint_command("letter").shell() in flat
    assert kit.rebuild_command(ctx).shell() == f"printshop build kit --source {project.root}"
    assert kit.rebuild_command(ctx).shell() in flat


def test_a_paper_the_sheets_are_not_laid_out_for_checks_the_kit_on_its_own(tmp_path):
    """`build --paper a5` of a manifest with a kit: the kit prints on Letter (its sheets are
    laid out for Letter and A4) and so do its player references; checked on A5 they stopped
    the build as `products.player-reference: … not 'a5'`, a product nobody named."""
    project = make_kit(tmp_path, "a5", 1, 2)
    report = check_project(project, names=["kit"], paper="a5")
    assert not [w for w in report.warnings if "player-reference" in str(w)]
    whole = check_project(project, paper="a5")
    said = [str(w) for w in whole.warnings if "laid out for" in str(w)]
    assert said == ["reference: the reference sheets are laid out for letter or a4 "
                    "paper, not a5; they print on letter"], said
