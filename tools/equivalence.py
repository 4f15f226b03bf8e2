"""`make equivalence`: printshop's speed patches of WeasyPrint change no page of the kit.

Builds, each in a fresh output folder, once with every patch of render/weasy/registry.py
and once with every *speed* patch switched off (`PRINTSHOP_WEASYPRINT_PATCHES=<their
names>`; the fixes stay on: without the column-span fix the words check fails the guide,
by design):

* the kit: every product of rules-src/;
* a foreign manuscript: tests/fixtures/foreign-manuscript, a folder of Markdown that is
  not a game (its own fonts policy, its own book; built without --strict, its links to
  chapters the fixture leaves out being warnings);
* a print profile: the Player's Guide for DriveThruRPG (`--profile dtrpg-book --cover`).

Every file of the two builds must be the same bytes; a PDF whose bytes differ must have the
same text (pdftotext, page by page) and the same pixels at 100 dpi (pdftoppm), page by
page. Prints what it compared and every difference; exit status 1 on any.

    .venv/bin/python tools/equivalence.py [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRINTSHOP = Path(sys.executable).with_name("printshop")
BUILDS = {
    "kit": ["--strict"],
    # (not --strict: its links to the chapters of its project that are not in the fixture
    # are warnings, printed as plain text)
    "foreign-manuscript": ["--source", str(ROOT / "tests" / "fixtures" / "foreign-manuscript")],
    "dtrpg-book": ["--strict", "players-guide", "--profile", "dtrpg-book", "--cover"],
}
CACHE = ".printshop-cache"


def speed_patches() -> list[str]:
    sys.path.insert(0, str(ROOT))
    from printshop.render.weasy import registry

    return [patch.name for patch in registry.patches() if patch.kind == "speed"]


def build(name: str, args: list[str], out: Path, patches: str) -> float:
    """One build (a fresh process, an empty folder); its CPU time (user + sys)."""
    env = dict(os.environ, PRINTSHOP_WEASYPRINT_PATCHES=patches)
    before = os.times()
    done = subprocess.run([str(PRINTSHOP), "build", "--quiet", *args,
                           "--out", str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    after = os.times()
    if done.returncode:
        raise SystemExit(f"{name} ({'patches on' if not patches else 'speed patches off'}) "
                         f"failed:\n{done.stdout}{done.stderr}")
    return (after.children_user - before.children_user) + \
        (after.children_system - before.children_system)


def files(folder: Path) -> dict[str, Path]:
    return {str(p.relative_to(folder)): p for p in sorted(folder.rglob("*"))
            if p.is_file() and CACHE not in p.relative_to(folder).parts}


def pdf_pages_text(pdf: Path) -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          check=True).stdout.decode("utf-8", "replace")
    return text.split("\f")


# Pixels of a page at 100 dpi that may differ, as anti-aliased glyph edges: the book laid
# out whole (`carried-strings` off) embeds the same glyphs as the book laid out in parts, but
# WeasyPrint takes a font's advance widths from where each glyph is first drawn in a
# document, so a glyph may sit a hundredth of a point apart (the text and the content
# streams are the same). Measured: 15 pixels on one page of the Letter guide, 105 and 144
# on two pages of the CMYK dtrpg-book guide. Each such page is named in the report with its
# count; more than this (0.02 % of a Letter page) is a difference.
ANTI_ALIASED_PIXELS = 200


def pdf_pixels(pdf: Path, folder: Path) -> list:
    """Each page's RGB image at 100 dpi."""
    from PIL import Image

    folder.mkdir(parents=True)
    subprocess.run(["pdftoppm", "-r", "100", "-png", str(pdf), str(folder / "page")],
                   check=True)
    return [Image.open(page).convert("RGB") for page in sorted(folder.glob("page*.png"))]


def pixels_differing(a, b) -> int:
    """How many pixels of two pages differ (all of them if their sizes do)."""
    from PIL import ImageChops

    if a.size != b.size:
        return a.width * a.height
    return sum(ImageChops.difference(a, b).convert("L").point(
        lambda v: 255 if v else 0).histogram()[255:])


def _record(path: Path) -> dict:
    """A build manifest (NAME.manifest.json) without its outputs' digests."""
    record = json.loads(path.read_text(encoding="utf-8"))
    for output in record.get("outputs", []):
        output.pop("sha256", None)
    return record


def compare(name: str, ours: Path, theirs: Path, scratch: Path) -> tuple[list[str], list[str]]:
    """(what was found the same, the differences)."""
    same, differ = [], []
    a, b = files(ours), files(theirs)
    for missing in sorted(a.keys() ^ b.keys()):
        differ.append(f"{name}/{missing}: only {'with' if missing in a else 'without'} "
                      "the speed patches")
    for path in sorted(a.keys() & b.keys()):
        if a[path].read_bytes() == b[path].read_bytes():
            same.append(f"{name}/{path}: same bytes")
            continue
        if path.endswith(".manifest.json") and _record(a[path]) == _record(b[path]):
            # a build's record names each output's sha256: where a PDF's bytes differ
            # (with the same text and pixels, judged on its own line) so does its record
            same.append(f"{name}/{path}: the same but for the outputs' sha256")
            continue
        if a[path].suffix != ".pdf":
            differ.append(f"{name}/{path}: bytes differ")
            continue
        text_a, text_b = pdf_pages_text(a[path]), pdf_pages_text(b[path])
        pixels_a = pdf_pixels(a[path], scratch / name / path / "with")
        pixels_b = pdf_pixels(b[path], scratch / name / path / "without")
        problems = []
        if len(pixels_a) != len(pixels_b):
            problems.append(f"{len(pixels_a)} pages with the speed patches, "
                            f"{len(pixels_b)} without")
        problems += [f"page {n}: text differs" for n, (x, y) in
                     enumerate(zip(text_a, text_b), start=1) if x != y]
        edges = []
        for n, (x, y) in enumerate(zip(pixels_a, pixels_b), start=1):
            count = pixels_differing(x, y)
            if count > ANTI_ALIASED_PIXELS:
                problems.append(f"page {n}: {count} pixels differ at 100 dpi")
            elif count:
                edges.append(f"page {n}: {count}")
        if problems:
            differ += [f"{name}/{path}: {problem}" for problem in problems]
        else:
            same.append(f"{name}/{path}: bytes differ; same text and pixels at 100 dpi "
                        f"({len(pixels_a)} pages)" + (
                            f" but for anti-aliased glyph edges ({', '.join(edges)} "
                            "pixels)" if edges else ""))
    return same, differ


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="build into DIR and keep it")
    options = parser.parse_args()
    off = ",".join(speed_patches())
    work = options.keep or Path(tempfile.mkdtemp(prefix="printshop-equivalence-"))
    started = time.monotonic()
    cpu = {"on": 0.0, "off": 0.0}
    same, differ = [], []
    shutil.rmtree(work / "pixels", ignore_errors=True)
    try:
        for name, args in BUILDS.items():
            ours, theirs = work / name / "with", work / name / "without"
            for folder in (ours, theirs):
                shutil.rmtree(folder, ignore_errors=True)
            cpu["on"] += build(name, args, ours, "")
            cpu["off"] += build(name, args, theirs, off)
            found_same, found_differ = compare(name, ours, theirs, work / "pixels")
            same += found_same
            differ += found_differ
    finally:
        if options.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    print(f"speed patches switched off for the comparison: {off}")
    for line in same:
        print(f"  {line}")
    for line in differ:
        print(f"  DIFFERS {line}")
    print(f"{len(same)} files the same, {len(differ)} differences; "
          f"{time.monotonic() - started:.0f} s; CPU of the builds {cpu['on']:.1f} s with the "
          f"speed patches, {cpu['off']:.1f} s without")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
