"""The build cache: edit each kind of input of a small project and see exactly the products
that read it change; every other file keeps its bytes and its modification time."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, SMALL_DECK, pdf_text
from printshop.builder import build_project
from printshop.cache import CACHE_DIR
from printshop.errors import PrintshopError, display_path

MANIFEST = """\
title: Tiny Game
author: Someone
products:
  book:
    kind: guide
    chapters: guide
    print_every_table: false
  deck-a:
    kind: cards
    decks: [alpha]
  deck-b:
    kind: cards
    decks: [omens]
"""

OMENS_DECK = """\
title: Omens
code: OM
colour: "#4a1f1f"
accent: "#ddccaa"
back: {title: Omens, emblem: torch}
face: {title: omen, text: [meaning]}
deal: rows
tables: [omens]
"""

OMENS_TABLE = """\
title: Omens
columns:
  - {key: omen, label: Omen}
  - {key: meaning, label: Meaning}
rows:
  - {omen: Black Cat, meaning: Bad luck.}
  - {omen: White Dove, meaning: Good luck.}
"""

ARMOUR_TABLE = """\
title: Armour
columns:
  - {key: name, label: Armour}
  - {key: bonus, label: AC bonus, type: int}
rows:
  - {name: Leather, bonus: 2}
  - {name: Chain, bonus: 5}
"""

CHAPTER_1 = """\
# Welcome

Crawl the dungeon. Wear armour:

::table[armour]

![A map](map.png)
"""

CHAPTER_2 = """\
# Omens

Read the omens:

::table[omens]
"""


def _png() -> bytes:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (40, 20), (120, 30, 30)).save(buffer, format="PNG")
    return buffer.getvalue()


def make_project(root: Path) -> Path:
    (root / "guide").mkdir(parents=True)
    (root / "tables").mkdir()
    (root / "decks").mkdir()
    (root / "printshop.yaml").write_text(MANIFEST)
    (root / "guide" / "01-welcome.md").write_text(CHAPTER_1)
    (root / "guide" / "02-omens.md").write_text(CHAPTER_2)
    (root / "guide" / "map.png").write_bytes(_png())
    (root / "tables" / "armour.yaml").write_text(ARMOUR_TABLE)
    (root / "tables" / "omens.yaml").write_text(OMENS_TABLE)
    (root / "decks" / "alpha.yaml").write_text(SMALL_DECK)
    (root / "decks" / "omens.yaml").write_text(OMENS_DECK)
    return root


def build(project: Path, **options):
    return build_project(project, project / "build", strict=True, uncompressed=True,
                         **options)


def outputs(project: Path) -> dict[str, tuple[bytes, int]]:
    """Every built file (not the cache) with its bytes and modification time."""
    out = project / "build"
    return {p.relative_to(out).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(out.rglob("*")) if p.is_file() and CACHE_DIR not in p.parts}


FILES = {"book": ["book.pdf", "book.html", "book.manifest.json"], "deck-a": ["deck-a.pdf"],
         "deck-b": ["deck-b.pdf"]}


@pytest.fixture(scope="module")
def built_once(tmp_path_factory) -> Path:
    project = make_project(tmp_path_factory.mktemp("cache") / "project")
    report = build(project)
    assert sorted(report.built) == ["book", "deck-a", "deck-b"]
    return project


@pytest.fixture
def project(built_once, tmp_path) -> Path:
    """A private copy of the built project, file times kept (copy2)."""
    target = tmp_path / "project"
    shutil.copytree(built_once, target)
    return target


def assert_only_rebuilt(project: Path, before: dict, expected: set[str]) -> None:
    after = outputs(project)
    for product, names in FILES.items():
        for name in names:
            if product in expected:
                assert after[name][0] != before[name][0], f"{name} should have changed"
            else:
                assert after[name] == before[name], f"{name} was rewritten"


def test_nothing_changed_nothing_is_built_or_written(project):
    before = outputs(project)
    report = build(project)
    assert report.built == [] and sorted(report.up_to_date) == ["book", "deck-a", "deck-b"]
    assert report.written == []
    assert outputs(project) == before


@pytest.mark.parametrize("edit, expected", [
    (("guide/02-omens.md", "Read the omens:", "Read the omens aloud:"), {"book"}),
    (("decks/alpha.yaml", "The first card's text.", "A new first card."), {"deck-a"}),
    (("decks/omens.yaml", "#4a1f1f", "#1f4a1f"), {"deck-b"}),
    (("tables/omens.yaml", "Bad luck.", "Very bad luck."), {"book", "deck-b"}),
    (("tables/armour.yaml", "bonus: 5", "bonus: 6"), {"book"}),
    (("printshop.yaml", "decks: [alpha]", "decks: [alpha]\n    guides: true"), {"deck-a"}),
    (("printshop.yaml", "title: Tiny Game", "title: Tiny Game Two"), {"book"}),
])
def test_an_edit_rebuilds_exactly_the_products_that_read_it(project, edit, expected):
    path, old, new = edit
    before = outputs(project)
    file = project / path
    assert old in file.read_text()
    file.write_text(file.read_text().replace(old, new))
    report = build(project)
    assert set(report.built) == expected | ({"deck-a", "deck-b"} if "title" in old else set())
    assert_only_rebuilt(project, before, set(report.built) & expected)


def test_a_changed_image_rebuilds_the_book_only(project):
    from PIL import Image

    before = outputs(project)
    Image.new("RGB", (40, 20), (30, 30, 120)).save(project / "guide" / "map.png")
    assert build(project).built == ["book"]
    assert_only_rebuilt(project, before, {"book"})


def test_a_project_stylesheet_or_template_rebuilds_its_users(project):
    builtin = REPO / "templates"
    before = outputs(project)
    (project / "templates" / "css").mkdir(parents=True)
    css = (builtin / "css" / "cards.css").read_text() + "\n.card { letter-spacing: 0.5pt; }\n"
    (project / "templates" / "css" / "cards.css").write_text(css)
    assert sorted(build(project).built) == ["deck-a", "deck-b"]
    assert_only_rebuilt(project, before, {"deck-a", "deck-b"})

    before = outputs(project)
    template = (builtin / "guide.html.j2").read_text().replace("Colophon", "Afterword")
    (project / "templates" / "guide.html.j2").write_text(template)
    assert build(project).built == ["book"]
    assert "Afterword" in pdf_text(project / "build" / "book.pdf")
    assert_only_rebuilt(project, before, {"book"})


def test_a_new_chapter_rebuilds_the_book(project):
    (project / "guide" / "03-more.md").write_text("# More\n\nA third chapter.\n")
    assert build(project).built == ["book"]
    assert "A third chapter." in pdf_text(project / "build" / "book.pdf")


def test_the_build_manifest_lists_only_what_the_book_was_built_from(project):
    """The book's record of its sources is a file next to it, not a page of the book."""
    record = json.loads((project / "build" / "book.manifest.json").read_text())
    inputs = {item["path"]: item for item in record["inputs"]}
    for used in ("guide/01-welcome.md", "guide/02-omens.md", "guide/map.png",
                 "tables/armour.yaml", "tables/omens.yaml", "printshop.yaml"):
        assert used in inputs
    assert "decks/alpha.yaml" not in inputs and "decks/omens.yaml" not in inputs
    assert inputs["printshop.yaml"]["product"] == "book"
    assert {o["file"] for o in record["outputs"]} == {"book.pdf", "book.html"}
    assert "armour.yaml" not in pdf_text(project / "build" / "book.pdf")   # not in the book
    # a table it prints shows up with its new hash
    (project / "tables" / "armour.yaml").write_text(ARMOUR_TABLE.replace("5", "7"))
    build(project)
    again = json.loads((project / "build" / "book.manifest.json").read_text())
    assert {i["path"]: i["sha256"] for i in again["inputs"]}["tables/armour.yaml"] != \
        inputs["tables/armour.yaml"]["sha256"]


def test_what_the_book_records_is_what_its_cache_key_covers(project, tmp_path):
    """Another product's entry changes: the book is not built again, and what it records of
    printshop.yaml is what a clean build records (it was the whole file's hash)."""
    manifest = project / "printshop.yaml"
    manifest.write_text(manifest.read_text().replace("decks: [omens]", "decks: [omens]\n"
                                                     "    guides: true"))
    assert build(project).built == ["deck-b"]
    clean = tmp_path / "clean"
    shutil.copytree(project, clean, ignore=shutil.ignore_patterns("build"))
    build_project(clean, clean / "build", strict=True, uncompressed=True)
    mine = json.loads((project / "build" / "book.manifest.json").read_text())
    theirs = json.loads((clean / "build" / "book.manifest.json").read_text())
    assert mine["inputs"] == theirs["inputs"]


def test_deleted_or_edited_outputs_are_built_again(project):
    (project / "build" / "deck-a.pdf").unlink()
    (project / "build" / "book.html").write_text("edited by hand")
    report = build(project)
    assert sorted(report.built) == ["book", "deck-a"]
    assert (project / "build" / "deck-a.pdf").exists()
    assert "edited by hand" not in (project / "build" / "book.html").read_text()


def test_deleting_the_cache_is_safe_and_force_ignores_it(project):
    # built here first: WeasyPrint names an image by its URL, so a PDF with an image
    # differs by a few bytes from one built in another folder
    assert sorted(build(project, force=True).built) == ["book", "deck-a", "deck-b"]
    before = outputs(project)
    shutil.rmtree(project / "build" / CACHE_DIR)
    report = build(project)
    assert sorted(report.built) == ["book", "deck-a", "deck-b"]
    assert outputs(project) == before  # same bytes: the files were not even rewritten
    assert build(project).built == []


def test_options_that_change_output_are_part_of_the_key(project):
    report = build(project, paper="a4")
    assert sorted(report.built) == ["book", "deck-a", "deck-b"]
    assert build(project, paper="a4").built == []
    assert build(project, names=["deck-a"],
                 context_options={"card_options": {"layout": "foldover"}}).built == ["deck-a"]


def test_a_failed_build_leaves_no_entry_claiming_success(project):
    chapter = project / "guide" / "02-omens.md"
    chapter.write_text(CHAPTER_2 + "\nA new paragraph.\n")
    deck = project / "decks" / "alpha.yaml"
    deck.write_text(SMALL_DECK.replace("code: TD", "code: TD\ncode: XX"))  # duplicate key
    entry = project / "build" / CACHE_DIR / "products" / "book.json"
    stored = entry.read_bytes()
    with pytest.raises(PrintshopError):
        build(project)
    assert entry.read_bytes() == stored
    deck.write_text(SMALL_DECK)
    report = build(project)
    assert report.built == ["book"]
    assert "A new paragraph." in pdf_text(project / "build" / "book.pdf")


def test_strict_replays_the_warnings_of_an_up_to_date_product(project):
    manifest = project / "printshop.yaml"
    manifest.write_text(MANIFEST.replace("print_every_table: false", "print_every_table: true")
                        + "")
    (project / "tables" / "unused.yaml").write_text(ARMOUR_TABLE.replace("Armour", "Unused"))
    report = build_project(project, project / "build", uncompressed=True)
    assert any("unused" in w.message for w in report.warnings)
    again = build_project(project, project / "build", uncompressed=True)
    assert again.built == [] and any("unused" in w.message for w in again.warnings)
    with pytest.raises(PrintshopError, match="unused"):
        build(project)


def test_replayed_warnings_name_their_file_from_where_the_build_is_run(project, monkeypatch):
    """A warning is said again while its product is up to date: from another folder (or
    after the project moved) it must still name the file it is about."""
    (project / "tables" / "unused.yaml").write_text(ARMOUR_TABLE.replace("Armour", "Unused"))
    manifest = project / "printshop.yaml"
    manifest.write_text(MANIFEST.replace("print_every_table: false", "print_every_table: true"))
    monkeypatch.chdir(project)
    first = [w for w in build_project(project, project / "build").warnings
             if "unused" in w.message]
    assert [display_path(w.path) for w in first] == ["tables/unused.yaml"]
    moved = project.parent / "moved"
    project.rename(moved)
    monkeypatch.chdir(moved / "tables")
    again = build_project(moved, moved / "build")
    assert again.built == []
    replayed = [w for w in again.warnings if "unused" in w.message]
    assert [display_path(w.path) for w in replayed] == ["unused.yaml"]
    assert all(Path(w.path).is_file() for w in replayed)


def test_entries_name_the_files_read(project):
    entry = json.loads((project / "build" / CACHE_DIR / "products" / "deck-b.json")
                       .read_text())
    files = entry["files"]
    assert files["project:decks/omens.yaml"] != "absent"
    assert files["project:tables/omens.yaml"] != "absent"
    assert "project:tables/armour.yaml" not in files
    assert files["project:templates/css/cards.css"] == "absent"   # could shadow the built-in
    assert any(k.startswith("templates:fonts/") for k in files)  # fonts, via the fetcher
    assert any(k.startswith("templates:cards/") for k in files)  # templates, via Jinja
    assert entry["outputs"].keys() == {"deck-b.pdf"}


def test_products_built_at_once_make_what_one_at_a_time_makes(project, monkeypatch):
    """Products build on threads sharing the workers: the files and each product's cache
    entry (what it read, what it wrote) are what a build of one product at a time makes."""
    from printshop import product_threads

    def entries():
        folder = project / "build" / CACHE_DIR / "products"
        return {p.name: {k: v for k, v in json.loads(p.read_text()).items()
                         if k in ("files", "outputs", "listings")}
                for p in sorted(folder.glob("*.json"))}

    build(project, force=True)
    together, recorded = outputs(project), entries()
    assert product_threads.PRODUCTS_AT_ONCE > 1
    monkeypatch.setattr(product_threads, "PRODUCTS_AT_ONCE", 1)
    build(project, force=True)
    assert {n: data for n, (data, _) in outputs(project).items()} == \
        {n: data for n, (data, _) in together.items()}
    assert entries() == recorded
    assert "project:decks/alpha.yaml" not in recorded["book.json"]["files"]
    assert "project:guide/01-welcome.md" not in recorded["deck-a.json"]["files"]


def test_a_product_failing_while_another_builds_fails_the_build_and_writes_nothing(project):
    before = outputs(project)
    (project / "guide" / "02-omens.md").write_text(CHAPTER_2 + "\nAnother paragraph.\n")
    # checked fine; found only when rendered (no size of its text fits the card)
    (project / "decks" / "alpha.yaml").write_text(SMALL_DECK.replace(
        "The first card's text.", "Far too long. " * 400))
    with pytest.raises(PrintshopError) as failed:
        build(project)
    assert outputs(project) == before
    assert [p.message for p in failed.value.problems if "First Card" in p.message]


def test_a_product_renders_while_the_later_ones_are_still_checked(project, monkeypatch):
    """Every check passes before anything is written, but the book need not wait for the
    decks' checks to render."""
    import threading
    import time

    from printshop.products.book.guide import Guide
    from printshop.products.cards.product import CardsProduct

    events, lock = [], threading.Lock()
    slow_check, guide_build = CardsProduct.check, Guide.build

    def check(self, ctx):
        if self.name == "deck-b":
            time.sleep(1.0)
            with lock:
                events.append("deck-b checked")
        return slow_check(self, ctx)

    def build_book(self, ctx, output):
        with lock:
            events.append("book started")
        return guide_build(self, ctx, output)

    monkeypatch.setattr(CardsProduct, "check", check)
    monkeypatch.setattr(Guide, "build", build_book)
    build(project, force=True)
    assert events == ["book started", "deck-b checked"]


def test_a_failing_check_fails_the_build_even_once_others_have_started(project, monkeypatch):
    from printshop.errors import Problem
    from printshop.products.cards.product import CardsProduct

    before = outputs(project)
    checked = CardsProduct.check

    def check(self, ctx):
        if self.name == "deck-b":
            raise PrintshopError([Problem("decks/omens.yaml", "the omens are wrong", 3)])
        return checked(self, ctx)

    monkeypatch.setattr(CardsProduct, "check", check)
    with pytest.raises(PrintshopError) as failed:
        build(project, force=True)
    assert [p.message for p in failed.value.problems] == ["the omens are wrong"]
    assert outputs(project) == before


def test_products_holding_each_other_are_still_built(project, monkeypatch):
    """A product waits for the products it holds pages of; two that hold each other (no
    kind does today) must not wait for each other for ever."""
    import threading

    from printshop.products.cards.product import CardsProduct

    monkeypatch.setattr(CardsProduct, "includes",
                        lambda self: ["deck-b"] if self.name == "deck-a" else ["deck-a"])
    finished = []
    thread = threading.Thread(target=lambda: finished.append(build(project, force=True)),
                              daemon=True)
    thread.start()
    thread.join(300)
    assert finished and sorted(finished[0].built) == ["book", "deck-a", "deck-b"]


def test_a_no_op_build_imports_no_weasyprint(project):
    script = ("import sys; from pathlib import Path; from printshop.builder import build_project;"
              f"r = build_project(Path({str(project)!r}), Path({str(project / 'build')!r}),"
              " strict=True, uncompressed=True);"
              "assert r.built == [], r.built;"
              "print(sorted(m for m in ('weasyprint', 'jinja2', 'markdown_it', 'pydantic')"
              " if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)}, check=True)
    assert result.stdout.strip() == "[]"


KITS = """\
title: Kits
products:
  fumble-deck:
    kind: cards
    decks: [fumbles]
  kit-1:
    kind: convention
    seed: one
    tables: 1
    seats: 1
    characters_per_seat: 1
    player_reference: null
    include: [fumble-deck]
  kit-2:
    kind: convention
    seed: two
    tables: 1
    seats: 1
    characters_per_seat: 1
    player_reference: null
    include: [fumble-deck]
"""


def test_products_that_include_others_follow_them(project_copy):
    """A kit holds another product's pages: it depends on that product's files and manifest
    entry, even when the pages were made once for another kit in the same build."""
    (project_copy / "printshop.yaml").write_text(KITS)
    assert sorted(build(project_copy).built) == ["fumble-deck", "kit-1", "kit-2"]
    deck = project_copy / "decks" / "fumbles.yaml"
    deck.write_text("# edited\n" + deck.read_text())
    assert sorted(build(project_copy).built) == ["fumble-deck", "kit-1", "kit-2"]
    manifest = project_copy / "printshop.yaml"
    manifest.write_text(KITS.replace("decks: [fumbles]", "decks: [fumbles]\n    guides: true"))
    assert sorted(build(project_copy).built) == ["fumble-deck", "kit-1", "kit-2"]
    manifest.write_text(manifest.read_text().replace("seed: two", "seed: three"))
    assert build(project_copy).built == ["kit-2"]


# --- per-page cache: one edited card renders its own page again ------------------------------
BIG_DECK = SMALL_DECK.split("rows:")[0] + "rows:\n" + "".join(
    f"  - {{name: Card {n}, effect: The text of card {n}.}}\n" for n in range(1, 21))


def test_one_edited_card_renders_only_its_page_and_the_deck_is_the_same_as_cold(tmp_path):
    project = make_project(tmp_path / "project")
    (project / "decks" / "alpha.yaml").write_text(BIG_DECK)   # 20 cards: three sheets
    # six pages, a job each: three of fronts, three of backs, the first two sheets' backs
    # the same page (nine backs each), rendered once
    report = build(project, names=["deck-a"])
    assert (report.chunks_reused, report.chunks_rendered) == (1, 5)
    chunks = project / "build" / CACHE_DIR / "chunks"
    # the five pages, and the probe of the deck's wordiest card (laid out alone first; not
    # counted as a chunk, but kept: a kit holding the deck fits its cards from it)
    assert len(list(chunks.iterdir())) == 6
    first = (project / "build" / "deck-a.pdf").read_bytes()

    deck = project / "decks" / "alpha.yaml"
    deck.write_text(BIG_DECK.replace("card 14.", "card fourteen (edited)."))  # the 2nd sheet
    report = build(project, names=["deck-a"])
    assert report.built == ["deck-a"]
    assert (report.chunks_reused, report.chunks_rendered) == (5, 1)    # its fronts alone
    edited = (project / "build" / "deck-a.pdf").read_bytes()
    assert edited != first and "card fourteen (edited)." in pdf_text(project / "build" /
                                                                      "deck-a.pdf")
    # a cold build of the same inputs (no cache at all) gives the same bytes
    cold = build_project(project, project / "cold", names=["deck-a"], strict=True,
                         uncompressed=True)
    assert (cold.chunks_reused, cold.chunks_rendered) == (1, 5)
    assert (project / "cold" / "deck-a.pdf").read_bytes() == edited

    # a torn entry (a build killed while writing, a disk error) is never taken as rendered
    for entry in chunks.iterdir():
        entry.write_bytes(entry.read_bytes()[:-100])
    deck.write_text(BIG_DECK)
    report = build(project, names=["deck-a"])
    assert (report.chunks_reused, report.chunks_rendered) == (1, 5)
    assert (project / "build" / "deck-a.pdf").read_bytes() == first
    # --force renders every sheet, whatever the cache holds
    report = build(project, names=["deck-a"], force=True)
    assert (report.chunks_reused, report.chunks_rendered) == (1, 5)


def test_an_edited_stylesheet_is_a_miss_even_when_the_sheets_html_is_the_same(project):
    css = project / "templates" / "css" / "cards.css"
    css.parent.mkdir(parents=True)
    from printshop.resources import TEMPLATES_DIR

    css.write_text((TEMPLATES_DIR / "css" / "cards.css").read_text())
    report = build(project, names=["deck-a"])      # the project's copy shadows the built-in
    assert report.built == ["deck-a"]
    css.write_text(css.read_text() + "\n.card { outline: 1px solid red; }\n")
    report = build(project, names=["deck-a"])
    assert report.built == ["deck-a"] and report.chunks_reused == 0


PACK = """\
title: Packs
products:
  pack:
    kind: pregens
    seed: chunky
    count: 4
    sheets_per_chunk: 2
"""


def test_a_pack_reuses_the_chunks_of_sheets_it_rendered_before(project_copy):
    """Two more characters: the sheets already rendered come from the cache (chunk
    boundaries depend only on the pack), and the pack is the cold one."""
    (project_copy / "printshop.yaml").write_text(PACK)
    report = build(project_copy, jobs=1)
    assert report.chunks_reused == 0
    (project_copy / "printshop.yaml").write_text(PACK.replace("count: 4", "count: 6"))
    report = build(project_copy, jobs=1)
    # a small pack is all tail: one sheet a chunk (products/characters/chunks.py)
    assert report.built == ["pack"] and report.chunks_reused == 4   # sheets #1 to #4
    assert report.chunks_rendered == 3    # the cover (its index), #5, #6
    cold = build_project(project_copy, project_copy / "cold", strict=True, uncompressed=True,
                         jobs=1)
    assert cold.chunks_reused == 0
    assert (project_copy / "cold" / "pack.pdf").read_bytes() == \
        (project_copy / "build" / "pack.pdf").read_bytes()


def test_two_builds_racing_into_one_folder_both_end_cleanly(project):
    """`serve` building while the author types `printshop build`: both write the outputs
    and the build cache at once (printshop/output.py), and both succeed; the file is one
    build's whole file. The writes themselves are raced many times in tests/test_output.py."""
    command = [sys.executable, "-m", "printshop", "build", "deck-a", "--force", "--strict",
               "--source", str(project), "--out", str(project / "build")]
    racing = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True) for _ in range(2)]
    ended = [(build.wait(120), build.communicate()[1]) for build in racing]
    assert [status for status, _ in ended] == [0, 0], ended
    assert not any("error" in stderr for _, stderr in ended)
    assert not list((project / "build").rglob(".printshop-tmp-*"))
    text = pdf_text(project / "build" / "deck-a.pdf")
    assert "First Card" in text and "Second Card" in text
    again = build_project(project, project / "build", ["deck-a"], strict=True)
    assert again.built == [] and again.up_to_date == ["deck-a"]   # the cache holds


def test_data_the_project_keeps_is_named_by_every_product_that_reads_it(project):
    """The paper sizes are loaded once for the project and kept; only the product that
    asked first recorded reading them, so which product's entry named papers.yaml depended
    on which thread came first (a build of products at once differed, now and then, from
    one at a time)."""
    build(project, force=True)
    for name in ("book", "deck-a", "deck-b"):
        entry = json.loads((project / "build" / CACHE_DIR / "products" / f"{name}.json")
                           .read_text())
        assert "printshop:data/papers.yaml" in entry["files"], name
