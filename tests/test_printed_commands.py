"""Every command printshop prints on paper for a person, found in the PDFs and run as printed:
a pack's cover and a kit's envelope reprint exactly the sheet asked for (its text where it
stood, and its page's drawing to the byte where both were laid out the same way), with the
options that made it (class filter, class table, paper, backs, the project folder), the kit's
table and seat, and nothing else; a command wraps only between options. One small pack and
one kit (layered: 12 sheets), built once for the module."""

from __future__ import annotations

import json
import re
import shlex
import shutil

import pytest

from conftest import RULES_SRC, run_cli
from printshop.builder import build_project

PRODUCTS = """
  pack:
    kind: pregens
    seed: ux-con
    count: 3
    classes: [fighter, thief]
    backs: true
  kit:
    kind: convention
    seed: con-test
    tables: 2
    seats: 2
    characters_per_seat: 3
    class_table: flat
    paper: a4
    player_reference: null
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("printed")
    project = root / "project"
    shutil.copytree(RULES_SRC, project)
    manifest = project / "printshop.yaml"
    manifest.write_text(manifest.read_text() + PRODUCTS)
    out = root / "out"
    build_project(project, out, names=["pack", "kit"], strict=True)
    return root, project, out


def page_texts(path) -> list[str]:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    return [page.get_textpage().get_text_range() for page in document]


def printed_commands(text: str, words: str) -> list[str]:
    """The commands starting with `words` in a page's text, their lines joined (pdfium
    ends a line with \\r\\n)."""
    flat = re.sub(r"\s*\r?\n\s*", " ", text)
    return re.findall(re.escape(words) + r"(?: [a-z][\w-]*)?(?: --[a-z-]+(?: (?!--)\S+)?)*",
                      flat)


def placed_characters(path, index: int) -> list[tuple[str, float, float]]:
    """Page `index`'s visible characters with the centre of each (pt)."""
    import pypdfium2 as pdfium

    text = pdfium.PdfDocument(str(path))[index].get_textpage()
    out = []
    for i in range(text.count_chars()):
        char = text.get_text_range(i, 1)
        if char.strip():
            left, bottom, right, top = text.get_charbox(i)
            out.append((char, (left + right) / 2, (bottom + top) / 2))
    return out


def same_characters_in_place(a, b, tolerance: float = 0.75) -> list[str]:
    """What differs between two pages' placed characters: a character missing, extra or
    moved by more than `tolerance` pt (a layered sheet's stamps sit a fraction of a point
    from where a sheet laid out whole puts them)."""
    differences = []
    by_char: dict[str, list] = {}
    for char, x, y in b:
        by_char.setdefault(char, []).append((x, y))
    for char, x, y in a:
        spots = by_char.get(char, [])
        near = next((s for s in spots if abs(s[0] - x) <= tolerance and
                     abs(s[1] - y) <= tolerance), None)
        if near is None:
            differences.append(f"{char!r} at ({x:.1f}, {y:.1f})")
        else:
            spots.remove(near)
    differences += [f"extra {char!r} at ({x:.1f}, {y:.1f})"
                    for char, spots in by_char.items() for x, y in spots]
    return differences


def page_drawing(path, index: int) -> bytes:
    """Page `index`'s content stream, each resource name replaced by the order it is first
    used in (the same drawing in two files names its patterns p1 or p3)."""
    import pikepdf

    pdf = pikepdf.open(path)
    contents = pdf.pages[index].obj.Contents
    data = b"".join(s.read_bytes() for s in contents) if isinstance(contents, pikepdf.Array) \
        else contents.read_bytes()
    names: dict[bytes, bytes] = {}
    return re.sub(rb"/[A-Za-z]+\d+\b", lambda m: names.setdefault(
        m[0], b"/R%d" % len(names)), data)


def run_printed(command: str, out, placeholder: str, number: int):
    words = shlex.split(command.replace(f"--first {placeholder}", f"--first {number}"))
    assert words[:3] == ["printshop", "roll", "characters"]
    result = run_cli(*words[1:], "--out", out)
    assert result.exit_code == 0, result.output
    return out


def test_the_pack_cover_reprints_one_sheet_exactly(built):
    root, project, out = built
    texts = page_texts(out / "pack.pdf")
    command, = printed_commands(texts[0], "printshop roll characters")
    assert command == (f"printshop roll characters --source {project} --seed ux-con "
                       "--class fighter,thief --paper letter --backs --no-cover --first n "
                       "--count 1")
    reprint = run_printed(command, root / "pack-2.pdf", "n", 2)
    again = page_texts(reprint)
    assert len(again) == 2     # the sheet and its tombstone, no cover
    # the pack: its cover, the cover's blank back, then a sheet and its back each
    for mine, theirs in ((0, 4), (1, 5)):
        assert again[mine] == texts[theirs]
        assert "ux-con #2" in again[mine]
        assert page_drawing(reprint, mine) == page_drawing(out / "pack.pdf", theirs)


def test_the_kit_cover_reprints_a_sheet_with_its_table_and_seat_on_the_kit_paper(built):
    root, project, out = built
    kit = json.loads((out / "kit" / "kit.json").read_text())
    table = kit["envelopes"][1]
    envelope = out / table["file"]
    texts = page_texts(envelope)
    command, = printed_commands(texts[0], "printshop roll characters")
    assert command == kit["reprint"] == (
        f"printshop roll characters --source {project} --seed con-test --class-table flat "
        "--paper a4 --backs --seats 2 --per-seat 3 --no-cover --first N --count 1")
    character = table["seats"][1]["characters"][1]      # table 2, seat 2: #11
    assert character["index"] == 11
    reprint = run_printed(command, root / "kit-11.pdf", "N", 11)
    again = page_texts(reprint)
    assert len(again) == 2
    assert "TABLE 2 · SEAT 2" in again[0] and "con-test #11" in again[0]
    import pypdfium2 as pdfium

    assert pdfium.PdfDocument(str(reprint))[0].get_size() == \
        pdfium.PdfDocument(str(envelope))[0].get_size() == pytest.approx((595.28, 841.89),
                                                                         abs=0.5)
    for mine, theirs in ((0, character["page"] - 1), (1, character["page"])):
        # the kit draws its sheets in layers (a form, the rolled values over it); the
        # reprint lays its one sheet out whole: the same characters in the same places
        assert same_characters_in_place(placed_characters(reprint, mine),
                                        placed_characters(envelope, theirs)) == []


def test_the_kit_cover_rebuilds_the_same_kit(built):
    root, project, out = built
    cover = page_texts(out / "kit" / "table-01.pdf")[0]
    command, = printed_commands(cover, "printshop build")
    assert command == f"printshop build kit --source {project}"
    # as printed, from where the kit was built (it builds into the project's build/), with
    # the renders the first build kept, so that it takes a second
    shutil.copytree(out / ".printshop-cache" / "chunks",
                    project / "build" / ".printshop-cache" / "chunks")
    result = run_cli(*shlex.split(command)[1:], "--strict", "--quiet")
    assert result.exit_code == 0, result.output
    assert (project / "build" / "kit.pdf").read_bytes() == (out / "kit.pdf").read_bytes()


def test_a_command_wraps_only_between_options(built):
    """On A4 the kit's reprint command takes two lines: the second starts with an option."""
    _, _, out = built
    cover = page_texts(out / "kit" / "table-01.pdf")[0]
    start = cover.index("printshop roll characters")
    lines = cover[start:cover.index("--count 1", start)].splitlines()
    assert len(lines) > 1
    for line in lines[1:]:
        assert line.lstrip().startswith("--"), lines


def test_seats_and_per_seat_come_together():
    result = run_cli("roll", "characters", "--seed", "x", "--seats", "4", "--format", "json",
                     "--out", "-", "--source", RULES_SRC)
    assert result.exit_code == 2
    assert result.output.startswith("--seats: ") and "needs --per-seat too" in result.output
