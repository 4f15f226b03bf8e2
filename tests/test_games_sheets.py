"""The games' characters on paper: each game's pack on Letter and A4, its blank sheet, a
convention kit, the Red Hack's retainer cards; the PDFs' text read against the JSON of the
same seed (tests/test_games_characters.py checks the rolls against the rules)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import pdf_reader, pdf_text
from printshop.builder import build_project
from printshop.products.characters.pack import roll_characters_to_bytes

GAMES = Path(__file__).resolve().parent.parent / "games"
ALL = ["chainmail", "dice-and-danger", "red-hack"]


def roll(game, fmt="pdf", **options):
    return roll_characters_to_bytes(GAMES / game, count=options.pop("count", 2),
                                     seed=options.pop("seed", "paper"), classes=None, fmt=fmt,
                                     uncompressed=True, **options)


def words(text: str) -> str:
    """Spaces as one, and the typographer's quotes as the tables write them."""
    return " ".join(text.replace("\u2019", "'").replace("\u2018", "'").split())


@pytest.fixture(scope="module", params=ALL)
def pack(request):
    game = request.param
    data = json.loads(roll(game, fmt="json").data)["characters"]
    pages = {paper: [words(p.extract_text()) for p in pdf_reader(roll(game, paper=paper,
                                                                      backs=True).data).pages]
             for paper in ("letter", "a4")}
    return game, data, pages


def test_each_sheet_prints_its_character(pack):
    game, characters, pages = pack
    for paper, texts in pages.items():
        # the cover (and its blank back, for duplex), then each sheet and its tombstone
        assert len(texts) == 2 + 2 * len(characters), paper
        cover = texts[0]
        assert "paper" in cover and "printshop roll characters --source games/" in cover
        for n, c in enumerate(characters):
            sheet, back = texts[2 + 2 * n], texts[3 + 2 * n]
            assert c["id"] in sheet and c["id"] in back and "Here Lies" in back
            if game == "chainmail":
                expected = [c["background"]["background"], c["expertise"], c["vow"]]
                expected += [f"{a} {v}" for a, v in c["attributes"].items()]
            elif game == "dice-and-danger":
                expected = [c["title"]] + [i["name"] for i in c["inventory"]]
                expected += [f"{a} {v}" for a, v in c["attributes"].items()]
                expected += [f"LUCK {c['luck']}"]
            else:
                expected = [c["name"], c["trade"], c["relationship"], c["kit"]]
                expected += [f"{a} {v}" for a, v in c["attributes"].items()]
            for text in expected:
                assert words(text) in sheet, (paper, text, sheet)


def test_a_big_pack_of_a_generic_sheet_is_not_drawn_in_layers():
    """Layers are for templates that declare them (HAMMERCRAWL!'s): a game on the generic
    sheet renders each sheet whole, whatever the pack's size."""
    from printshop.products.characters.pregens import LAYERED_FROM, Pregens, PregensOptions
    from printshop.project import Project

    project = Project.load(GAMES / "chainmail")
    product = Pregens(project, "pack", PregensOptions(kind="pregens", seed="big", count=40))
    assert not product._layered(product.characters())
    assert len(product.characters()) >= LAYERED_FROM


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Each game's blank sheet (in its manifest) and a one-table kit added to it, built."""
    out = {}
    for game in ALL:
        root = tmp_path_factory.mktemp(game) / game
        shutil.copytree(GAMES / game, root)
        manifest = root / "printshop.yaml"
        recipe = "retainers" if game == "red-hack" else "characters"
        manifest.write_text(manifest.read_text() + f"""
  small-kit:
    kind: convention
    recipe: {recipe}
    seed: small
    tables: 1
    seats: 2
    characters_per_seat: 1
    player_reference: null
""")
        names = ["blank-sheet", "small-kit"] + (["retainer-cards"] if game == "red-hack"
                                                else [])
        report = build_project(root, root / "build", names=names, strict=True,
                               uncompressed=True)
        assert sorted(report.built) == sorted(names)
        out[game] = root / "build"
    return out


@pytest.mark.parametrize("game", ALL)
def test_blank_sheets_on_letter_and_a4(built, game):
    for paper, size in (("letter", (612, 792)), ("a4", (595, 842))):
        reader = pdf_reader(built[game] / f"blank-sheet-{paper}.pdf")
        [page] = reader.pages
        assert tuple(round(float(v)) for v in page.mediabox[2:]) == size
        fields = reader.get_fields() or {}
        assert "name" in fields or game == "red-hack"   # retainers come with a name
        text = words(pdf_text(built[game] / f"blank-sheet-{paper}.pdf"))
        for label in {"chainmail": ["STR", "CHA", "DEFENCE VALUE", "VOW"],
                      "dice-and-danger": ["REFL", "LUCK", "READIED SLOTS", "INVENTORY"],
                      "red-hack": ["STR", "CHA", "SLOTS", "MORALE"]}[game]:
            assert label in text.upper(), (game, label)


@pytest.mark.parametrize("game", ALL)
def test_a_convention_kit_in_every_game(built, game):
    kit = json.loads((built[game] / "small-kit" / "kit.json").read_text())
    seated = [c for seat in kit["envelopes"][0]["seats"] for c in seat["characters"]]
    assert [c["index"] for c in seated] == [1, 2]
    text = words(pdf_text(built[game] / "small-kit" / "table-01.pdf"))
    assert kit["reprint"] in text and "--source" in kit["reprint"]
    recipe = "retainers" if game == "red-hack" else "characters"
    again = json.loads(roll(game, fmt="json", seed="small", first=2, count=1,
                            recipe=recipe).data)["characters"][0]
    assert again["id"] == seated[1]["id"] == "small #2"
    assert seated[1]["class_name"] in text


def test_retainer_cards_are_a8_and_print_the_rolled_retainers(built):
    reader = pdf_reader(built["red-hack"] / "retainer-cards.pdf")
    text = words(" ".join(p.extract_text() for p in reader.pages))
    retainers = json.loads(roll("red-hack", fmt="json", seed="tavern", count=9,
                                recipe="retainers").data)["characters"]
    for r in retainers:
        assert f"RT · {r['id']}" in text and r["name"] in text and r["trade"] in text
        assert f"difficulty {r['slots']}" in text
    assert "A PC has as many retainer slots as CHA" in text   # the rules card
