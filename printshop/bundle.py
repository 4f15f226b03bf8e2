"""`printshop bundle`: a game's print-and-play files in one folder and one zip, for a
convention table or a store page: the books as folded booklets (or a book's own layout,
such as the quick start's pocketmod), the card decks, the reference sheets and the blank
character sheet, on one paper, with PRINTING.txt saying how to print each file (paper,
sides and which edge to flip, 100 %).

The products are built as `printshop build` builds them, books with `layout: booklet`,
into OUT/.print-and-play/ (with its own build cache, so OUT's own files are never
replaced by a booklet's smaller pages); the chosen files are then copied into
OUT/SLUG-print-and-play/ and OUT/SLUG-print-and-play.zip. The zip is reproducible: its
entries in name order, each dated SOURCE_DATE_EPOCH (else 1980-01-01), mode 0644. Both are
written only when everything was built, each to a temporary name first.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from printshop.errors import PrintshopError, Problems

KINDS = ("guide", "cards", "reference", "blank-sheet")   # what a print-and-play game needs
WORK = ".print-and-play"
FIXED_ZIP_DATE = (1980, 1, 1, 0, 0, 0)   # the earliest a zip can say


@dataclass
class Entry:
    file: str          # the file's name in the bundle
    what: str          # one line: what it is
    how: list[str]     # the print settings, a line each


@dataclass
class BundleReport:
    folder: Path
    zip: Path
    entries: list[Entry] = field(default_factory=list)
    warnings: list = field(default_factory=list)
    seconds: float = 0.0


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "game"


def make_bundle(source: Path, out: Path, paper: str | None = None, strict: bool = False,
                jobs: int | None = None, progress=None, before_render=None) -> BundleReport:
    from printshop.builder import build_project
    from printshop.products import BuildContext, load_products
    from printshop.project import Project

    started = time.monotonic()
    project = Project.load(source)
    products = [p for p in load_products(project) if p.kind in KINDS]
    if not products:
        raise PrintshopError.at(project.manifest_path or project.root, "nothing to bundle: "
                                f"the manifest has no product of the kinds {', '.join(KINDS)}")
    paper = paper or project.manifest.paper
    overrides = {}
    for product in products:
        if product.kind == "guide":
            own = getattr(product.options, "layout", "pages")
            overrides[product.name] = {"formats": ["pdf"],
                                       "layout": own if own != "pages" else "booklet"}
    work = Path(out) / WORK
    build = build_project(source, work, [p.name for p in products], paper=paper,
                          strict=strict, jobs=jobs, progress=progress, overrides=overrides,
                          before_render=before_render)
    products = load_products(project, [p.name for p in products], overrides={
        name: {**project.manifest.products[name], **change}
        for name, change in overrides.items()})
    ctx = BuildContext(project=project, paper=paper)
    entries = []
    problems = Problems()
    for product in products:
        try:
            entries += _entries(product, ctx, work, paper)
        except PrintshopError as exc:
            problems.extend(exc)
    problems.raise_if_any()
    name = f"{slug(project.manifest.title or project.title)}-print-and-play"
    files = {entry.file: (work / entry.file).read_bytes() for entry in entries}
    files["PRINTING.txt"] = printing_text(project, paper, entries).encode("utf-8")
    folder, archive = Path(out) / name, Path(out) / f"{name}.zip"
    _write_folder(folder, files)
    _write_atomic(archive, zip_bytes(files, name))
    return BundleReport(folder, archive, entries, build.warnings,
                        time.monotonic() - started)


def _pages(path: Path) -> int:
    import pikepdf

    with pikepdf.open(path) as doc:
        return len(doc.pages)


def _entries(product, ctx, work: Path, paper: str) -> list[Entry]:
    from printshop.products import layouts

    papers = ctx.project.papers
    if product.kind == "guide":
        manifest = ctx.project.manifest
        title = product.options.title or manifest.title or product.name
        subtitle = product.options.subtitle or manifest.subtitle
        if subtitle:
            title += f": {subtitle}"
        layout = layouts.layout_for(ctx, product, paper)
        assert layout is not None    # (a bundle builds its books with a layout)
        file = f"{product.name}-{layout.kind}.pdf"
        sheet = papers[layout.sheet]["name"]
        if layout.kind == "pocketmod":
            return [Entry(file, f"{title}: an eight-page zine on one sheet",
                          [f"{sheet}, page 1 only, one-sided.",
                           "Cut once and fold: page 2 of the file shows how."])]
        sides = _pages(work / file) - 1      # the last page is the instructions
        return [Entry(file, f"{title}: a folded booklet, {sides // 2} sheets",
                      [f"{sheet}, pages 1-{sides} double-sided, flip on the short edge.",
                       f"Fold, nest and staple: page {sides + 1} (the last) shows how."])]
    if product.kind == "cards":
        from printshop.products.cards.settings import resolve_settings
        from printshop.source.decks import load_deck

        settings = resolve_settings(product, ctx, Problems())
        sheet = papers[settings.paper]["name"]
        files = [f"{product.name}.pdf"]   # the home and foldover layouts: one file
        how = {"home": f"{sheet}, double-sided, flip on the {settings.flip} edge; cut on the "
                       "marks.",
               "foldover": f"{sheet}, one-sided; fold each sheet in half, glue, cut on the "
                           "marks.",
               "printshop": "one card a page, for a card printer."}[settings.layout]
        title = product.options.title or ", ".join(
            load_deck(ctx.project, deck_id).spec.title for deck_id in product.options.decks)
        return [Entry(file, f"{title}: {_pages(work / file)} pages of cards", [how])
                for file in files]
    if product.kind == "reference":
        return [_reference_entry(product, stem, ids, product.paper(ctx))
                for stem, ids in product.options.files.items()]
    sheet_paper = paper if paper in ("letter", "a4") else "letter"
    file = f"{product.name}-{sheet_paper}.pdf"
    return [Entry(file, "the blank character sheet (a fillable PDF form)",
                  [f"{papers[sheet_paper]['name']}, one-sided."])]


def _reference_entry(product, stem: str, ids: list[str], paper: str) -> Entry:
    sheets = product.load_sheets()
    sheet = product.project.papers[paper]["name"]
    how, first = [], 1
    for sheet_id in ids:
        layout = sheets[sheet_id].layout
        count = (_card_sheet_pages(product, sheets[sheet_id], paper)
                 if sheets[sheet_id].is_cards else len(layout.pages))
        last = first + count - 1
        pages = f"page {first}" if count == 1 else f"pages {first}-{last}"
        if not sheets[sheet_id].is_cards and count == 2:
            edge = "short" if layout.orientation == "landscape" else "long"
            how.append(f"{layout.title}: {pages} double-sided, flip on the {edge} edge.")
        else:
            how.append(f"{layout.title}: {pages} one-sided.")
        first = last + 1
    return Entry(f"{stem}.pdf", ", ".join(sheets[i].layout.title for i in ids),
                 [f"{sheet}."] + how)


def _card_sheet_pages(product, sheet, paper: str) -> int:
    from printshop.products.sheets.layout import card_pages

    width, height = product.project.paper_size_mm(paper)
    return card_pages(sheet, product.project, width, height)[2]


def printing_text(project, paper: str, entries: list[Entry]) -> str:
    title = project.manifest.title or project.title
    lines = [f"{title}: print and play ({project.papers[paper]['name']})", "",
             "Print every file at 100 % (\"actual size\"), never \"fit to page\".",
             "Double-sided files say which edge the printer flips on.", ""]
    for entry in entries:
        lines.append(entry.file)
        lines.append(f"  {entry.what}")
        lines += [f"  {line}" for line in entry.how]
        lines.append("")
    return "\n".join(lines)


def zip_bytes(files: dict[str, bytes], folder: str) -> bytes:
    """A zip of `files` under `folder/`, the same bytes for the same files."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = FIXED_ZIP_DATE
    if epoch and epoch.isdigit() and int(epoch) >= 315532800:   # zip dates start in 1980
        when = time.gmtime(int(epoch))[:6]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(f"{folder}/{name}", date_time=when)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name], compresslevel=9)
    return buffer.getvalue()


def _write_atomic(target: Path, data: bytes) -> None:
    from printshop.output import write_atomic

    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, data)


def _write_folder(folder: Path, files: dict[str, bytes]) -> None:
    """The folder holds `files` and nothing else, replaced as a whole (a new folder beside
    it, then renamed over it)."""
    temporary = folder.with_name(f".{folder.name}.tmp-{os.getpid()}")
    shutil.rmtree(temporary, ignore_errors=True)
    temporary.mkdir(parents=True)
    for name, data in files.items():
        (temporary / name).write_bytes(data)
    old = folder.with_name(f".{folder.name}.old-{os.getpid()}")
    if folder.exists():
        folder.rename(old)
    temporary.rename(folder)
    shutil.rmtree(old, ignore_errors=True)
