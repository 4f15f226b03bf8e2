"""The Player's Guide, built once for the session and checked as a reader would check it."""

import json
import os
import re
from html.parser import HTMLParser

import pytest

from conftest import FIXTURES, RULES_SRC, pdf_reader
from printshop.builder import build_project
from printshop.project import Project
from printshop.source.tables import load_tables


@pytest.fixture(scope="session")
def guide_builds(kit_in_two_worlds):
    """The guide built twice, at once, by the command line, in two different worlds:
    another folder, file times, hash seed, time zone and working directory (with the rest
    of the kit: conftest.py)."""
    return kit_in_two_worlds


@pytest.fixture(scope="session")
def guide(guide_builds):
    return guide_builds[0]


def test_the_same_inputs_give_byte_identical_pdf_and_html(guide_builds):
    first, second = guide_builds
    for name in ("players-guide.pdf", "players-guide.html"):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


@pytest.fixture(scope="session")
def reader(guide):
    return pdf_reader(guide / "players-guide.pdf")


@pytest.fixture(scope="session")
def text(reader):
    return "\n".join(page.extract_text() for page in reader.pages)


def outline(reader, items=None, depth=0):
    """(depth, title, 1-based page) for every bookmark."""
    found = []
    for item in reader.outline if items is None else items:
        if isinstance(item, list):
            found += outline(reader, item, depth + 1)
        else:
            found.append((depth, item.title, reader.get_destination_page_number(item) + 1))
    return found


def test_bookmarks_are_the_chapters_and_their_sections(reader):
    project = Project.load(RULES_SRC)
    from printshop.products.book.guide import Guide
    manuscript, _ = Guide(project, "players-guide", Guide.Options(kind="guide")).read()
    top = [title for depth, title, _ in outline(reader) if depth == 0]
    assert top == ["Contents"] + [c.title for c in manuscript.chapters] + [
        "Colophon", "Character Sheet (to copy)"]
    second = [title for depth, title, _ in outline(reader) if depth == 1]
    assert second == [s.title for c in manuscript.chapters for s in c.sections]


def test_the_book_ends_with_the_blank_character_sheet(reader):
    marks = outline(reader)
    assert marks[-1] == (0, "Character Sheet (to copy)", len(reader.pages))
    sheet = reader.pages[-1].extract_text()
    assert "Name — chosen by the player on your left" in sheet and "SAVES" in sheet
    assert re.findall(r"\d+", sheet) == ["100"]         # nothing rolled
    assert not reader.get_fields()                        # the print-only sheet: no form
    assert len(reader.pages) % 2 == 1                     # a recto: a leaf of its own


def test_every_contents_entry_shows_the_page_its_heading_is_on(reader):
    marks = outline(reader)
    contents = next(page for depth, title, page in marks if title == "Contents")
    first_chapter = min(page for depth, title, page in marks if page > contents)
    toc = "\n".join(reader.pages[i].extract_text() for i in range(contents - 1, first_chapter - 1))
    entries = {}
    for line in toc.splitlines():
        match = re.match(r"^(.*?)[ .]*\s(\d+)$", line.strip())
        if match and ". ." in line:
            entries[" ".join(match[1].split())] = int(match[2])
    checked = 0
    for depth, title, page in outline(reader):
        if depth > 1 or title in ("Contents", "Colophon", "Character Sheet (to copy)"):
            continue
        key = " ".join(title.split())
        assert key in entries, f"{title!r} missing from the contents"
        assert entries[key] == page, \
            f"contents says {title!r} is on p. {entries[key]}, it is on p. {page}"
        checked += 1
    assert checked > 60


def test_cross_references_print_the_page_of_their_target(reader, text):
    from printshop.products.book.guide import Guide

    project = Project.load(RULES_SRC)
    manuscript, _ = Guide(project, "players-guide", Guide.Options(kind="guide")).read()
    pages = {" ".join(t.split()): p for _, t, p in outline(reader)}
    flat = squash(text)
    checked = 0
    for chapter in manuscript.chapters:
        for token in chapter.tokens:
            for child in token.children or []:
                if child.type != "xref" or child.meta["resolved"] is None:
                    continue
                target = child.meta["resolved"]
                if target.title not in pages:  # below the bookmarked levels
                    continue
                label = child.meta["label"] or target.title
                expected = f"{squash(label)}(p.{pages[target.title]})"
                assert expected in flat, f"[[{child.meta['target']}]] should print {expected}"
                checked += 1
    assert checked > 20


def test_all_fonts_are_bundled_and_embedded(reader):
    seen = set()
    for page in reader.pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            font = font.get_object()
            name = str(font["/BaseFont"]).split("+")[-1]
            seen.add(name)
            descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"] \
                if "/DescendantFonts" in font else font["/FontDescriptor"]
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), name
    assert seen <= {"Vollkorn", "Vollkorn-Bold", "Vollkorn-Italic", "Vollkorn-Bold-Italic",
                    "Roboto-Condensed,", "Roboto-Condensed,-Bold", "Roboto-Condensed,-Italic",
                    "Roboto-Condensed,-Bold-Italic", "Pirata-One", "DejaVu-Sans-Mono",
                    "DejaVu-Sans-Mono-Bold"}, seen


def squash(value) -> str:
    """Text as extracted: no spaces or hyphens, typographic quotes made plain."""
    value = str(value).translate(str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"',
                                                "–": "-", "—": "-", "−": "-"}))
    value = value.replace("…", "...")
    return re.sub(r"[\s\-‐­]+", "", value).casefold()


def test_every_yaml_table_is_printed_with_its_values(text):
    flat = squash(text)
    tables = load_tables(RULES_SRC / "tables")
    for table_id, table in tables.items():
        assert squash(table.title) in flat, f"table {table_id} ({table.title}) is not printed"
        first = table.printed_columns[0]
        for row in table.rows:
            value = row.get(first.key)
            if first.type == "signed":
                value = f"{'+' if value > 0 else ''}{value}".replace("-", "−")
            if isinstance(value, (str, int)) and len(str(value)) < 40:
                plain = re.sub(r"[*_`]", "", str(value))
                assert squash(plain) in flat, f"{table_id}: row '{plain}' is not printed"


def test_every_class_and_ability_is_printed(text):
    flat = squash(text)
    classes = Project.load(RULES_SRC).classes
    for cls in classes.classes:
        assert squash(cls.name) in flat
        for ability in cls.abilities:
            assert squash(ability.name) in flat, f"{cls.id}: {ability.name}"


def test_the_book_never_says_tbd(text):
    assert not re.search(r"\bTBD\b|work in progress|\bpending\b", text, re.IGNORECASE)


def test_colophon_names_the_version_and_no_date(text):
    assert "printshop 0.1.0" in text
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b", text)


def test_what_is_meant_for_the_author_stays_out_of_the_players_book(guide, text):
    """No shell commands, no file names, no list of source files: that record is the build
    manifest next to the PDF."""
    assert not re.search(r"printshop (roll|build)|\.(pdf|yaml|md|png)\b|SHA-256", text)
    record = json.loads((guide / "players-guide.manifest.json").read_text())
    paths = {item["path"] for item in record["inputs"]}
    assert {"guide/01-welcome.md", "tables/armour.yaml", "printshop.yaml"} <= paths
    assert {o["file"] for o in record["outputs"]} == {"players-guide.pdf",
                                                       "players-guide.html"}


def test_the_cover_is_one_page_and_chapter_openers_carry_no_running_head(reader):
    cover, back = reader.pages[0].extract_text(), reader.pages[1].extract_text()
    assert "HAMMERCRAWL!" in cover and "N. Phillip Cole" in cover.title()
    assert "HAMMER-" not in cover and not back.strip()
    tops = [(title, page) for depth, title, page in outline(reader) if depth == 0]
    # (pypdf reads a page's running head and folio last: "… Combat 33")
    for (title, page), (_, after) in zip(tops[1:-2], tops[2:]):   # each chapter
        opener = " ".join(reader.pages[page - 1].extract_text().split())
        assert opener.startswith(title) and opener.endswith(f" {page}"), title
        assert not opener.endswith((f"{title} {page}", f"HAMMERCRAWL! {page}")), title
        if page + 2 < after:   # the chapter's next right-hand page has its name as its head
            text = " ".join(reader.pages[page + 1].extract_text().split())
            assert text.endswith(f"{title} {page + 2}"), title


class Anchors(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.hrefs = set(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href", "").startswith("#"):
            self.hrefs.append(attrs["href"][1:])


def test_html_edition_is_self_contained_with_working_links(guide):
    html = (guide / "players-guide.html").read_text(encoding="utf-8")
    parser = Anchors()
    parser.feed(html)
    assert len(parser.hrefs) > 100
    assert set(parser.hrefs) <= parser.ids
    assert "data:font/woff;base64," in html
    assert not re.search(r"""(src|href)=["'](?!#|data:|https?:|mailto:)""", html)
    assert "url(../fonts" not in html


def test_html_edition_has_every_chapter_of_the_pdf(guide, reader):
    """The PDF ends with the character sheet to copy; the HTML edition has that chapter too,
    as a download of the fillable sheet."""
    import base64
    import io

    from pypdf import PdfReader

    html = (guide / "players-guide.html").read_text(encoding="utf-8")
    titles = re.findall(r'<h1 class="(?:chapter-title|toc-title|colophon-title)"[^>]*>(.*?)</h1>',
                        html)
    top = [title for depth, title, _ in outline(reader) if depth == 0]
    assert [t.replace("&amp;", "&") for t in titles] == top[:-2] + top[-1:] + top[-2:-1]
    link = re.search(r'<a class="download" href="data:application/pdf;base64,([^"]+)" '
                     r'download="character-sheet-letter.pdf">', html)
    sheet = PdfReader(io.BytesIO(base64.b64decode(link[1])))
    assert len(sheet.pages) == 1 and len(sheet.get_fields()) > 20   # a form to fill in
    assert 'href="#character-sheet"' in html                         # in the contents


def test_html_edition_fonts_load_in_a_browser(guide):
    """Each embedded font (a WOFF data URL) loads in Chromium: a font it refuses would
    show the reader a fallback face without saying so."""
    from test_serve import CHROMIUM, CHROMIUM_ARGS

    if not os.path.exists(CHROMIUM):
        pytest.skip("chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto((guide / "players-guide.html").as_uri())
            faces = page.evaluate("""async () => {
                await Promise.allSettled([...document.fonts].map(face => face.load()));
                return [...document.fonts].map(face => [face.family.replace(/"/g, ""),
                                                        face.status]);
            }""")
        finally:
            browser.close()
    families = {family for family, _ in faces}
    assert {"Vollkorn", "Roboto Condensed", "Pirata One"} <= families, faces
    assert all(status == "loaded" for _, status in faces), faces


def test_foreign_manuscript_builds_as_a_book(tmp_path):
    """Markdown not written for printshop (Node.js API docs): TOC, bookmarks, A4/A5."""
    for paper, width_mm in (("a4", 210), ("a5", 148)):
        out = tmp_path / paper
        report = build_project(FIXTURES / "foreign-manuscript", out, paper=paper)
        # it links to the rest of the Node.js docs: one warning per missing file, not per link
        links = [w for w in report.warnings if "no chapter '" in w.message]
        assert len(links) == 6 and all("printed as plain text" in w.message for w in links)
        # the rest is the page-flow report (a layout not made for printshop's pages), each
        # at its chapter with the book's page
        for warning in report.warnings:
            if warning not in links:
                assert re.match(r"page \d+: the heading \".+\" is stranded", warning.message)
                assert warning.path.endswith(".md") and warning.line
        pdf = pdf_reader(out / "foreign-manuscript.pdf")
        assert abs(float(pdf.pages[0].mediabox.width) * 25.4 / 72 - width_mm) < 0.5
        titles = [t for d, t, _ in outline(pdf) if d == 0]
        assert titles == ["Contents", "TTY", "UDP/datagram sockets", "Colophon"]
        assert len([t for d, t, _ in outline(pdf) if d == 1]) >= 5
        assert (out / "foreign-manuscript.html").exists()


def test_a_builds_editions_render_each_table_and_class_once(monkeypatch):
    # the HTML edition takes the print edition's tables and class boxes (the same HTML)
    from printshop import deps
    from printshop.products import BuildContext, load_products
    from printshop.products.book import guide as guide_module

    project = Project.load(RULES_SRC)
    guide, = load_products(project, ["players-guide"])
    rendered = []
    real = guide_module.render_template

    def counting(env, name, **context):
        rendered.append(name)
        return real(env, name, **context)

    monkeypatch.setattr(guide_module, "render_template", counting)
    guide._composed_inputs, guide._recorder = guide.read(), deps.Recorder()
    guide._shared = (guide_module.jinja_environment(project), {})
    ctx = BuildContext(project=project)
    editions = [guide.compose(ctx, "print")]
    in_print = [name for name in rendered if name.startswith("partials/")]
    editions.append(guide.compose(ctx, "screen"))
    partials = [name for name in rendered if name.startswith("partials/")]
    assert partials == in_print
    assert partials.count("partials/class.html.j2") == len(project.classes.classes)
    tables = [len(re.findall(r'<figure class="table', html)) for html in editions]
    assert tables[0] == tables[1] > 20


def _count_book_renders(monkeypatch) -> list[int]:
    from printshop.products.book import guide as guide_module

    calls, real = [], guide_module.render_book

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(guide_module, "render_book", counting)
    return calls


def test_a_book_whose_pages_name_no_font_is_rendered_once(tmp_path, monkeypatch):
    """The quick start prints no colophon: fonts other than predicted (it sets nothing in
    DejaVu Sans Mono) change none of its pages, so it is not rendered again for them."""
    calls = _count_book_renders(monkeypatch)
    build_project(RULES_SRC, tmp_path / "out", ["quickstart"], strict=True)
    assert len(calls) == 1
    assert pdf_reader(tmp_path / "out" / "quickstart.pdf").pages[0].extract_text().strip()


def test_a_colophon_names_the_fonts_used_when_the_prediction_was_wrong(tmp_path,
                                                                       monkeypatch):
    from printshop.products.book import guide as guide_module

    calls = _count_book_renders(monkeypatch)
    real = guide_module.predicted_fonts
    monkeypatch.setattr(guide_module, "predicted_fonts",
                        lambda *args: real(*args) + ["Imaginary Sans"])
    out = tmp_path / "out"
    build_project(FIXTURES / "manuscripts" / "kramdown", out, strict=True)
    assert len(calls) == 2    # the colophon named a font the PDF does not hold
    colophon = " ".join(pdf_reader(next(out.glob("*.pdf"))).pages[-1].extract_text().split())
    assert "Vollkorn" in colophon and "Imaginary" not in colophon


def test_a_manuscript_without_code_is_rendered_once(tmp_path, monkeypatch):
    """The monospaced family sets only code: a book without any holds no DejaVu Sans Mono,
    and its colophon was composed naming it, then the whole book rendered again."""
    calls = _count_book_renders(monkeypatch)
    source = tmp_path / "plain"
    source.mkdir()
    (source / "01-rules.md").write_text("# Rules\n\nRoll a d20 and add your bonus.\n")
    build_project(source, tmp_path / "out", strict=True)
    assert len(calls) == 1
    colophon = " ".join(pdf_reader(tmp_path / "out" / "plain.pdf").pages[-1]
                        .extract_text().split())
    assert "Vollkorn" in colophon and "DejaVu" not in colophon


def test_a_chapter_of_many_sections_runs_on_in_the_contents_rather_than_leave_a_hole(tmp_path):
    """A contents entry is kept whole in a column, but one of more than 24 sections (a
    bestiary) that does not fit left most of a column empty before it (Cairn's Warden's
    Guide: 63 % of page 4). Now it runs on, its first and last entries kept together."""
    source = tmp_path / "monsters"
    source.mkdir()
    for number in range(1, 8):        # the contents' first page nearly full, then ...
        (source / f"0{number}-rules.md").write_text(
            f"# Rules {number}\n\n" + "".join(f"## Rule {number}.{i}\n\nText.\n\n"
                                              for i in range(10)))
    (source / "08-bestiary.md").write_text(
        "# Bestiary\n\n" + "".join(f"## Monster {i}\n\nIt bites.\n\n" for i in range(45)))
    report = build_project(source, tmp_path / "out", paper="letter")
    contents = [w.message for w in report.warnings if "Contents" in w.message]
    assert contents == []
    pages = [" ".join(page.extract_text().split())
             for page in pdf_reader(tmp_path / "out" / "monsters.pdf").pages]
    contents = next(i for i, text in enumerate(pages) if text.startswith("Contents"))
    first, second = pages[contents], pages[contents + 1]
    assert "Bestiary" in first and "Monster 0 " in first   # it starts where there is room
    assert "Monster 44 " in second


def test_a_run_of_short_sections_starts_under_its_chapter_title_on_a5(tmp_path):
    """`### Name` and one short paragraph, a dozen times (Cairn's Overview & Principles):
    each paragraph kept the next heading with it, so the run had no place to break and
    went to the next page whole, leaving the chapter's first page 93 % empty."""
    source = tmp_path / "tome"
    source.mkdir()
    (source / "01-principles.md").write_text("# Principles\n\n## Overview\n\n" + "".join(
        f"### Principle {i}\n\nA sentence or two about this principle, long enough to run "
        "over one line of the page.\n\n" for i in range(14)))
    (source / "02-more.md").write_text("# More\n\nThe end.\n")   # (the book is "Tome")
    report = build_project(source, tmp_path / "out", paper="a5")
    assert [w.message for w in report.warnings if "short of its foot" in w.message] == []
    pages = [" ".join(page.extract_text().split())
             for page in pdf_reader(tmp_path / "out" / "tome.pdf").pages]
    opener = next(text for text in pages if text.startswith("Principles"))
    assert "PRINCIPLE 0" in opener.upper()


def test_a_run_of_one_bullet_items_breaks_where_a_page_ends(tmp_path):
    """`## Item` and its one bullet, as a list of magic items is written (Cairn's
    Reliquary): `avoid` after a list's first item was `avoid` after its only one, which
    kept it with the next heading, and the end of the run went to a new page whole."""
    source = tmp_path / "tome"
    source.mkdir()
    (source / "01-items.md").write_text("# Items\n\n" + "".join(
        f"## Item {i}, 1 use\n\n- What item {i} does when it is used, in a sentence that "
        "runs over one line of the page.\n\n" for i in range(40)))
    (source / "02-more.md").write_text("# More\n\nThe end.\n")
    report = build_project(source, tmp_path / "out", paper="a5")
    assert [w.message for w in report.warnings if "short of its foot" in w.message] == []


def test_a_heading_its_lead_in_and_a_markdown_table_go_to_the_next_column_together(tmp_path):
    """`## Monster Appearance`, "Roll 1d20 for each column…" and a 20-row table (Cairn's
    Warden's Guide): the table's wrapper (div.md-table) was not among what a heading's
    first paragraph keeps with it, so the heading and its one line stayed at a column's
    foot and the table began in the next (four times in Cairn 2e)."""
    source = tmp_path / "tome"
    source.mkdir()
    filler = ("Monsters in the deep places are strange, and a Warden rolls for them at the "
              "table rather than writing each one out beforehand. ")
    sections = []
    for n in range(16):   # (one of these headings fell at a column's foot: "Table 11")
        rows = "".join(f"| {r} | Trait {n}-{r} | Feature {n}-{r} |\n" for r in range(1, 21))
        sections.append(f"{filler * (1 + n % 9)}\n\n## Table {n}\n\nRoll 1d20 for each "
                        f"column and combine the results.\n\n| d20 | Trait | Feature |\n"
                        f"|--|--|--|\n{rows}\n")
    (source / "01-monsters.md").write_text("# Monsters\n\n" + "\n".join(sections))
    (source / "02-more.md").write_text("# More\n\nThe end.\n")
    report = build_project(source, tmp_path / "out")
    assert [w.message for w in report.warnings if "stranded" in w.message] == []
    pages = [" ".join(page.extract_text().split())
             for page in pdf_reader(tmp_path / "out" / "tome.pdf").pages]
    body = [text for text in pages if not text.startswith("Contents")]
    for n in range(16):   # each table starts on the page its heading is on
        heading = next(text for text in body if f"Table {n} Roll" in text)
        assert f"Table {n} Roll 1d20 for each column and combine the results. d20 Trait " \
            f"Feature 1 Trait {n}-1 " in heading, (n, heading)


def test_a_wide_tables_heading_spans_the_page_with_it_and_is_never_left_at_its_foot(
        tmp_path):
    """A table too wide for a column spans the page, and so did its heading, as a block of
    its own: WeasyPrint does not move a spanning heading on with what it keeps with, so
    "Seasonal Weather" (Cairn) stayed at a page's foot and its table began on the next."""
    from printshop.source.markdown.parser import build_parser

    source = tmp_path / "tome"
    source.mkdir()
    filler = ("Weather in the wild is fickle, and a Warden rolls for it each season rather "
              "than deciding it beforehand. ")
    head = "| d6 | " + " | ".join(f"Season {c} of the year" for c in range(6)) + " |\n|" + \
        "--|" * 7 + "\n"
    sections = []
    for n in range(14):   # (one of these headings fell at a page's foot: "Wide 5")
        rows = "".join(f"| {r} | " + " | ".join(f"W{n}r{r}c{c} and breezy" for c in range(6))
                       + " |\n" for r in range(1, 7))
        sections.append(f"{filler * (1 + (n * 3) % 13)}\n\n## Wide {n}\n\n{head}{rows}\n")
    (source / "01-weather.md").write_text("# Weather\n\n" + "\n".join(sections))
    (source / "02-more.md").write_text("# More\n\nThe end.\n")
    # the heading is in the table's spanning box
    html = build_parser().render(f"## Wide 0\n\n{head}| 1 |{' a |' * 6}\n")
    assert html.startswith('<div class="md-table wide">\n<h2>Wide 0</h2>\n<table')
    build_project(source, tmp_path / "out", strict=True)
    text = " ".join(" ".join(page.extract_text().split()) + " |"
                    for page in pdf_reader(tmp_path / "out" / "tome.pdf").pages)
    for n in range(14):
        assert f"Wide {n} d6 Season 0 of the year" in text, n


def test_a_rule_under_a_heading_keeps_with_it_and_what_follows(tmp_path):
    """`### Second Wind`, `- - -`, then the feature (the 5th Edition SRD sets every class
    feature so): a break was allowed between the rule and the text, and twelve headings
    of its classes stayed at a column's foot with their rule."""
    source = tmp_path / "tome"
    source.mkdir()
    body = ("Starting at 2nd level, you can push yourself beyond your normal limits for a "
            "moment, and take one more action on your turn. ")
    (source / "01-fighter.md").write_text("# The Fighter\n\n" + "".join(
        f"### Feature {n}\n- - -\n{body * (1 + (n * 5) % 9)}\n\n" for n in range(40)))
    (source / "02-more.md").write_text("# More\n\nThe end.\n")
    report = build_project(source, tmp_path / "out")   # (three were, before)
    assert [w.message for w in report.warnings if "stranded" in w.message] == []


def test_a_chapter_title_over_a_wide_table_stays_the_chapters_own(tmp_path):
    """`# The Bard` and at once the class table, too wide for a column (the 5th Edition
    SRD): the title went into the table's spanning box, and its anchor was defined twice."""
    source = tmp_path / "tome"
    source.mkdir()
    row = "| " + " | ".join(f"Spell slots {c}" for c in range(10)) + " |\n"
    (source / "01-bard.md").write_text("# The Bard\n" + row + "|" + "--|" * 10 + "\n" +
                                       row * 5 + "\n## Class Features\n\nAs a bard.\n")
    (source / "02-more.md").write_text("# More\n\nThe end.\n")
    build_project(source, tmp_path / "out", strict=True)   # (no "Anchor defined twice")
    assert "The Bard" in pdf_reader(tmp_path / "out" / "tome.pdf").pages[3].extract_text()


def test_a_heading_with_a_rule_its_lead_in_and_a_subsection_keep_together(tmp_path):
    """`### Spellcasting`, `- - -`, one sentence, then `#### Cantrips` (the 5th Edition
    SRD's druid and paladin): the lead-in keeps the next heading with it, rule or not."""
    source = tmp_path / "tome"
    source.mkdir()
    body = ("At 1st level, you know two cantrips of your choice from the druid spell list, "
            "and learn more at higher levels. ")
    (source / "01-druid.md").write_text("# The Druid\n\n" + "".join(
        f"### Feature {n}\n- - -\nDrawing on the essence of nature itself, you shape it to "
        f"your will.\n\n#### Part {n}\n{body * (1 + (n * 5) % 7)}\n\n" for n in range(30)))
    (source / "02-more.md").write_text("# More\n\nThe end.\n")
    report = build_project(source, tmp_path / "out")   # (two were, before)
    assert [w.message for w in report.warnings if "stranded" in w.message] == []
