"""`printshop bundle` (printshop/bundle.py) on the scaffold's small game: the folder and the
zip hold the booklet, the deck, the reference sheet and PRINTING.txt, the zip is the same
bytes every time, and the build folder's own files are left alone."""

from __future__ import annotations

import io
import zipfile

import pytest

from printshop.scaffold import new_project
from tests.conftest import run_cli

NAME = "tunnel-rats-print-and-play"


@pytest.fixture(scope="module")
def bundled(tmp_path_factory):
    base = tmp_path_factory.mktemp("bundle")
    new_project(base / "game", "Tunnel Rats")
    (base / "game" / "build").mkdir()
    (base / "game" / "build" / "rules.pdf").write_bytes(b"the user's own build")
    result = run_cli("bundle", "--source", base / "game", "--paper", "a4", "--strict")
    assert result.exit_code == 0, result.output
    return base / "game" / "build", result


def test_the_folder_holds_the_booklet_the_deck_the_sheet_and_the_settings(bundled):
    out, result = bundled
    folder = out / NAME
    assert sorted(p.name for p in folder.iterdir()) == [
        "PRINTING.txt", "omen-deck.pdf", "reference.pdf", "rules-booklet.pdf"]
    text = (folder / "PRINTING.txt").read_text()
    assert "Tunnel Rats: print and play (A4)" in text
    assert 'Print every file at 100 % ("actual size")' in text
    booklet = text.split("rules-booklet.pdf\n")[1].split("\n\n")[0]
    assert "A4, pages 1-" in booklet and "double-sided, flip on the short edge" in booklet
    deck = text.split("omen-deck.pdf\n")[1].split("\n\n")[0]
    assert "A4, double-sided, flip on the long edge" in deck
    assert "reference.pdf\n" in text and "one-sided" in text.split("reference.pdf\n")[1]
    assert (out / "rules.pdf").read_bytes() == b"the user's own build"   # left alone


def test_the_booklets_pages_are_a5_on_a4_sheets(bundled):
    import pikepdf

    out, _ = bundled
    with pikepdf.open(out / NAME / "rules-booklet.pdf") as doc:
        width, height = (float(v) for v in doc.pages[0].MediaBox[2:])
    assert (round(width), round(height)) == (842, 595)   # A4 landscape


def test_the_zip_holds_the_same_files_and_is_reproducible(bundled):
    out, _ = bundled
    data = (out / f"{NAME}.zip").read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = archive.namelist()
        assert names == sorted(names)
        assert {name.split("/", 1)[1] for name in names} == \
            {p.name for p in (out / NAME).iterdir()}
        for info in archive.infolist():
            assert info.date_time == (1980, 1, 1, 0, 0, 0)
            assert archive.read(info) == (out / info.filename).read_bytes()
    again = run_cli("bundle", "--source", out.parent, "--paper", "a4", "-q")
    assert again.exit_code == 0, again.output
    assert (out / f"{NAME}.zip").read_bytes() == data
