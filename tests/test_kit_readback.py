"""Every product of the kit read back from its PDF file against its source text.

An independent check of the words check in the render workers (render/weasy/words.py): it
reads the finished files with pdfium, never WeasyPrint's boxes, and compares them with the
Markdown, YAML and rolled data they were made from (tests/readback.py says how).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import RULES_SRC, run_cli
from tests.readback import Printed, markdown_text, missing_units, norm, pdf_pages

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def kit(kit_in_two_worlds) -> Path:
    """The whole kit, built strict (conftest.py)."""
    return kit_in_two_worlds[0]


@pytest.fixture(scope="module")
def project():
    from printshop.project import Project

    return Project.load(RULES_SRC)


# --- the guide: every paragraph, list item, heading and table row of its source --------------

def _table_units(table, where: str) -> list[tuple[str, str]]:
    units = [(where, markdown_text(table.title))]
    if table.description:
        units.append((where, markdown_text(table.description)))
    columns = table.printed_columns
    for row in table.rows:
        cells = [row.roll_text] if table.dice else []
        for column in columns:
            value = row.get(column.key)
            if value is None:
                continue
            cells.append(", ".join(map(str, value)) if isinstance(value, list) else
                         markdown_text(str(value)))
        units.append((f"{where} row {row.line}", " ".join(cells)))
    units += [(where, markdown_text(note)) for note in table.notes]
    return units


def _class_units(cls, where: str) -> list[tuple[str, str]]:
    units = [(where, f"{cls.role} {' '.join(cls.prime_stats)}")]
    for ability in cls.abilities:
        units.append((where, ability.name))
        units.append((where, markdown_text(ability.rule)))
    return units


def guide_units(project) -> list[tuple[str, str]]:
    """(where, text) for each block of the guide's chapters, in book order."""
    from printshop.source.markdown.parser import build_parser

    md = build_parser("trusted")
    classes = {c.id: c for c in project.classes.classes}
    units: list[tuple[str, str]] = []
    for path in sorted((RULES_SRC / "guide").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        if text.startswith("---"):
            text = text.split("---", 2)[2]
        tokens = md.parse(text)
        for token in tokens:
            line = token.map[0] + 1 if token.map else 0
            where = f"{path.relative_to(RULES_SRC)}:{line}"
            if token.type == "directive":
                name, argument = token.meta["name"], token.meta["argument"]
                if name == "table":
                    units += _table_units(project.tables[argument], where)
                elif name == "class":
                    units += _class_units(classes[argument], where)
                continue
            if token.type != "inline":
                continue
            shown = []
            for child in token.children or ():
                if child.type in ("text", "code_inline"):
                    shown.append(child.content)
                elif child.type == "xref":
                    meta = child.meta
                    shown.append(meta.get("label") or meta.get("fragment") or
                                 meta.get("note") or meta.get("target") or "")
                elif child.type in ("softbreak", "hardbreak"):
                    shown.append(" ")
            units.append((where, "".join(shown)))
    return [(w, t) for w, t in units if norm(t)]


@pytest.mark.parametrize("variant", ["letter",
                                     # (a minute of guide builds: make test-slow)
                                     pytest.param("a4", marks=pytest.mark.slow),
                                     pytest.param("a5", marks=pytest.mark.slow),
                                     pytest.param("dtrpg-book", marks=pytest.mark.slow)])
def test_the_guide_prints_every_block_of_its_source(kit, project, tmp_path, variant):
    if variant == "letter":
        pdf = kit / "players-guide.pdf"
    else:
        option = ["--profile", variant] if variant == "dtrpg-book" else ["--paper", variant]
        for out in (tmp_path, tmp_path / "again"):
            result = run_cli("build", "players-guide", "--strict", "--quiet", *option,
                             "--source", RULES_SRC, "--out", out)
            assert result.exit_code == 0, result.output
        pdf = tmp_path / "players-guide.pdf"
        # the same bytes every build (the Letter kit's are compared in test_reproducible.py:
        # an A5 or press guide drew its sheet to copy under a random name)
        assert pdf.read_bytes() == (tmp_path / "again" / "players-guide.pdf").read_bytes()
    units = guide_units(project)
    assert len(units) > 600
    missing = missing_units(Printed.of(pdf_pages(pdf)), units)
    assert missing == [], "\n".join(missing[:20])
    # the rows the stock WeasyPrint lost (research/column-span-text-loss.md)
    text = norm(" ".join(pdf_pages(pdf)))
    for row in ("Staff", "Longbow", "Heavy crossbow", "A bow or crossbow needs both hands",
                "Blackjack. Use it as an ordinary melee weapon"):
        assert norm(row) in text, row


# --- decks: every card's text --------------------------------------------------------------

def _card_products() -> list[tuple[str, list[str]]]:
    manifest = yaml.safe_load((RULES_SRC / "printshop.yaml").read_text())["products"]
    return [(name, entry["decks"]) for name, entry in manifest.items()
            if entry.get("kind") == "cards" and "seed" not in entry]


@pytest.mark.parametrize("product,decks", _card_products())
def test_each_card_prints_its_text(kit, project, product, decks):
    from printshop.source.decks import load_deck

    printed = Printed.of(pdf_pages(kit / f"{product}.pdf"))
    missing = []
    for deck_id in decks:
        deck = load_deck(project, deck_id)
        face = deck.spec.face
        for card in deck.cards:
            data = card.data.get("fields") or {}
            keys = [k for k in [face.title, *face.text, *face.extra] if k]
            texts = [markdown_text(str(data[k])) for k in keys
                     if data.get(k) not in (None, "")]
            if card.data.get("kind") == "rules":
                texts = [markdown_text(str(card.data[k])) for k in ("title", "text")]
            # each card's text in order; its id anywhere (a face may print it first); a
            # sheet's cards need not be in deck order
            missing += missing_units(printed, [(card.label, " ".join(texts))], window=None)
            missing += missing_units(printed, [(card.label, card.id)], window=None)
    assert missing == [], "\n".join(missing[:20])


def test_each_hireling_card_prints_its_rolled_hireling(kit, tmp_path):
    entry = yaml.safe_load((RULES_SRC / "printshop.yaml").read_text())["products"]["hirelings"]
    printed = Printed.of(pdf_pages(kit / "hirelings.pdf"))
    out = tmp_path / "hirelings.json"
    subprocess.run(
        [sys.executable, "-m", "printshop", "roll", "hirelings", "--seed", entry["seed"],
         "--count", str(entry["count"]), "--format", "json", "--out", str(out), "--quiet",
         "--source", str(RULES_SRC)], check=True, capture_output=True)
    hirelings = json.loads(out.read_text())
    assert len(hirelings) == entry["count"]
    missing = []
    for hireling in hirelings:     # each text of a card wherever the layout puts it
        for key in ("name", "profession", "good_at", "quirk", "id"):
            missing += missing_units(printed, [(hireling["id"], markdown_text(hireling[key]))],
                                     window=None)
    assert missing == [], "\n".join(missing[:20])


# --- reference sheets and the screen: every table row and text they name ----------------------

@pytest.mark.parametrize("output", ["reference", "screen"])
def test_reference_sheets_print_their_tables_and_texts(kit, project, output):
    from printshop.source.sheets import load_sheet

    manifest = yaml.safe_load((RULES_SRC / "printshop.yaml").read_text())["products"]
    printed = Printed.of(pdf_pages(kit / f"{output}.pdf"))
    missing, units = [], []
    for sheet_id in manifest["reference"]["files"][output]:
        sheet = load_sheet(RULES_SRC / "sheets" / f"{sheet_id}.yaml", sheet_id)
        if sheet.is_cards:
            continue
        for _, block in sheet.blocks():
            for item in block.items:
                where = f"sheets/{sheet_id}.yaml {item.table or 'text'}"
                if item.text:
                    units.append((where, markdown_text(item.text)))
                    continue
                table = project.tables[item.table]
                table_units = _table_units(table, where)
                if not item.caption:
                    table_units = table_units[1:]
                if table.description and not item.description:
                    table_units = [u for u in table_units
                                   if u[1] != markdown_text(table.description)]
                if not item.notes:
                    notes = {markdown_text(n) for n in table.notes}
                    table_units = [u for u in table_units if u[1] not in notes]
                units += table_units
    # a sheet's columns are read column by column: each unit is looked for from the start
    for where, text in units:
        if missing_units(printed, [(where, text)]):
            missing.append(f"{where}: {text[:80]}")
    assert missing == [], "\n".join(missing[:20])


# --- packs and kits: every rolled character's sheet -----------------------------------------

def _rolled(seed: str, count: int, tmp: Path, *options: str) -> list[dict]:
    out = tmp / f"{seed}.json"
    subprocess.run([sys.executable, "-m", "printshop", "roll", "characters", "--seed", seed,
                    "--count", str(count), "--format", "json", "--out", str(out), "--quiet",
                    "--source", str(RULES_SRC), *options], check=True, capture_output=True)
    return json.loads(out.read_text())["characters"]


def _character_texts(character: dict) -> list[str]:
    texts = [character["id"], character["class_name"], character["alignment"]]
    texts += [s["name"] for s in character.get("skills", [])]
    texts += [e["name"] for e in character.get("equipment", [])]
    texts += [a["name"] for a in character.get("abilities", [])]
    texts += list(character.get("languages", []))
    texts += [character[k] for k in ("background", "personality", "appearance")
              if character.get(k)]
    return [markdown_text(t) for t in texts]


def _sheet_pages(pages: list[str], seed: str) -> dict[int, str]:
    """character number → the text of its sheet (the page that has its id and its
    abilities; the cover's index has ids too)."""
    found: dict[int, str] = {}
    for text in pages:
        if "abilities" not in text.lower():
            continue
        for match in re.finditer(rf"{re.escape(seed)} #(\d+)\b", text):
            found.setdefault(int(match[1]), text)
    return found


def _check_characters(characters: list[dict], sheets: dict[int, str]) -> list[str]:
    missing = []
    for character in characters:
        page = sheets.get(character["index"])
        if page is None:
            missing.append(f"{character['id']}: no sheet")
            continue
        # a sheet drawn in layers holds its form's text and its values in two streams:
        # each rolled text is looked for anywhere on its page
        text = norm(page)
        missing += [f"{character['id']}: {t}" for t in _character_texts(character)
                    if norm(t) not in text]
    return missing


def test_the_pack_prints_every_rolled_character(kit, tmp_path):
    characters = _rolled("hammercrawl-1", 50, tmp_path)
    sheets = _sheet_pages(pdf_pages(kit / "pregens.pdf"), "hammercrawl-1")
    assert _check_characters(characters, sheets) == []


def test_the_convention_kit_prints_every_seat_s_characters(kit, tmp_path):
    info = json.loads((kit / "con-kit" / "kit.json").read_text())
    total = info["tables"] * info["seats"] * info["characters_per_seat"]
    characters = _rolled(info["seed"], total, tmp_path)
    pages: list[str] = []
    for envelope in sorted((kit / "con-kit").glob("table-*.pdf")):
        pages += pdf_pages(envelope)
    assert _check_characters(characters, _sheet_pages(pages, info["seed"])) == []


def test_the_blank_sheet_prints_every_label_of_its_template(kit):
    """The blank sheet's words are its template's: each heading and label the template
    writes out (what Jinja does not compute) is on each paper's sheet."""
    template = (Path(__file__).resolve().parent.parent / "templates" /
                "blank-sheet.html.j2").read_text()
    labels = set(re.findall(r">([A-Z][A-Za-z ]+)</h2>", template))
    labels |= set(re.findall(r'class="num-label">([A-Z][A-Za-z ]+)<', template))
    assert len(labels) >= 8, labels
    for paper in ("letter", "a4"):
        text = norm(" ".join(pdf_pages(kit / f"blank-sheet-{paper}.pdf")))
        assert [label for label in labels if norm(label) not in text] == [], paper


def test_the_readback_sees_a_lost_row_and_a_lost_sentence(kit, project):
    """What the checks above would say of a guide that lost what WeasyPrint 70 lost: the
    PDF's text with the Weapons table's last rows and a paragraph's sentence taken out."""
    pages = pdf_pages(kit / "players-guide.pdf")
    lost = ("Heavy crossbow", "Blackjack. Use it as an ordinary melee weapon")
    cut = []
    for page in pages:
        for text in lost:
            page = page.replace(text, "")
        cut.append(page)
    missing = missing_units(Printed.of(cut), guide_units(project))
    assert any("weapons" in m.lower() or "Heavy crossbow" in m for m in missing), missing
    assert any("Blackjack" in m for m in missing), missing


def test_every_pdf_of_the_kit_names_each_font_subset_apart(kit):
    """A book's parts, a pack's chunks and a deck's sheets are each subset on their own and
    joined in one file: each subset must have a name of its own there (preflight's
    E-SUBSET, ISO 32000-1 9.6.4), or a press's software that merges fonts by name drops
    glyphs. Read from the files, not from WeasyPrint."""
    from printshop.preflight import preflight
    from printshop.profiles import get_profile

    pdfs = sorted(kit.rglob("*.pdf"))
    assert len(pdfs) > 12
    clashes = {pdf.relative_to(kit).as_posix(): [str(f) for f in preflight(
        pdf.read_bytes(), get_profile("home")) if f.code == "E-SUBSET"] for pdf in pdfs}
    assert {name: found for name, found in clashes.items() if found} == {}
