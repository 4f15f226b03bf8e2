"""Rendering cards: the imposed sheets in chunks on the renderer's workers, every text box
fitting (card_sheets, card_fit), then merged into PDF files or rasterised into one PNG per
face."""

from __future__ import annotations

from dataclasses import dataclass

from printshop.errors import PrintshopError
from printshop.output import BuildOutput
from printshop.products import BuildContext
from printshop.products.cards.art import COARSE
from printshop.products.cards.compose import CardComposer
from printshop.products.cards.fit import FitState
from printshop.products.cards.imposition import Page, impose_printshop
from printshop.products.cards.settings import DeckGroup, Settings
from printshop.products.cards.sheets import SheetRun
from printshop.products.printing import finish_for_profile

# A job is one page of a sheet (its fronts, or its backs; a fold-over sheet is one page):
# one edited card renders its own page again and the others come from the chunk cache
# (render/chunks.py), a card set smaller is rendered again with only its page, and the
# backs, the same page on every full sheet, are rendered once (the renderer renders
# identical jobs once). The printshop layout (one card a page) takes three cards a job.
# Chunks never depend on the number of cores: same bytes everywhere.
PAGES_PER_JOB = {"home": 1, "foldover": 1, "printshop": 6}
PNG_DPI = 300


@dataclass
class Chunk:
    group_index: int
    pages: list[Page]
    first_page: int        # index of its first page in the whole document
    cards: set[int]        # cards whose fronts it shows


def chunks_of(groups: list[DeckGroup]) -> list[Chunk]:
    chunks, page_no = [], 0
    for gi, group in enumerate(groups):
        pages = group.imposition.pages
        step = PAGES_PER_JOB.get(group.imposition.layout, 6)
        for start in range(0, len(pages), step):
            part = pages[start:start + step]
            cards = {f.card for p in part for f in p.faces if f.side == "front"}
            chunks.append(Chunk(gi, part, page_no, cards))
            page_no += len(part)
    return chunks


def render_cards(ctx: BuildContext, composer: CardComposer, groups: list[DeckGroup],
                 fit: FitState, what: str) -> list[list[bytes]]:
    """Each group's PDF chunks, every text box fitting (card_sheets: a card whose text
    overflows is fitted while the other sheets render, and its sheet rendered again)."""
    chunks = chunks_of(groups)
    pdfs = SheetRun(ctx, composer, groups, fit, chunks, what).run()
    by_group: list[list[bytes]] = [[] for _ in groups]
    for chunk, pdf in zip(chunks, pdfs):
        by_group[chunk.group_index].append(pdf)
    return by_group


def build_cards(ctx: BuildContext, output: BuildOutput, name: str, title: str,
                groups: list[DeckGroup], settings: Settings, project) -> None:
    from printshop.render.pdf.merge import merge_pdfs  # pikepdf: not needed before the merge

    composer = CardComposer(project, settings, title, name)
    fit = FitState()
    profile = settings.profile
    bookmarks = profile is None or profile.bookmarks
    if "pdf" in settings.formats:
        parts = render_cards(ctx, composer, groups, fit, name)
        if settings.one_file_per_deck and len(groups) > 1:
            # a card printer takes one deck per file: NAME-DECK.pdf
            files = [(f"{name}-{group.deck.id}.pdf", group.deck.spec.title, [group], [part])
                     for group, part in zip(groups, parts)]
        else:
            files = [(f"{name}.pdf", title, groups, parts)]
        for file_name, file_title, file_groups, file_parts in files:
            outline, page = [], 0
            for group in file_groups:
                outline.append((group.deck.spec.title, page))
                page += len(group.imposition.pages)
            pdf = merge_pdfs([p for ps in file_parts for p in ps], title=file_title,
                             outline=outline if bookmarks else None)
            if profile is not None:
                sizes = {(g.size.width, g.size.height) for g in file_groups}
                trim = next(iter(sizes)) if settings.layout == "printshop" and \
                    len(sizes) == 1 else None
                try:
                    pdf = finish_for_profile(ctx, project, profile, pdf, trim, file_title,
                                             file_name)
                except PrintshopError as exc:
                    # the pictures preflight finds too coarse, named at their cards
                    coarse = [w for w in ctx.warnings if COARSE in w.message]
                    raise PrintshopError(coarse + exc.problems) from None
            output.add(file_name, pdf)
    if "png" in settings.formats:
        output.add_tree(name, export_png(ctx, composer, groups, fit, settings, name))
    printed = composer.printed()
    if printed:   # beside the cards, whatever the layout (a card printer's pages have no
        # margin to print them in): every picture and icon with its author and licence
        output.add(f"{name}-credits.txt", credits_text(title, printed, project.root))


def export_png(ctx, composer: CardComposer, groups: list[DeckGroup], fit: FitState,
               settings: Settings, name: str) -> dict[str, bytes]:
    """One PNG per card front, and one per deck back (a deck's backs are all the same)."""
    from printshop.products.cards.raster import pages_to_png
    from printshop.render.pdf.merge import merge_pdfs

    png_groups = []
    for group in groups:
        imposition = impose_printshop(len(group.cards), group.size.width, group.size.height,
                                      settings.bleed)
        imposition.pages = [p for p in imposition.pages
                            if p.side == "front" or p.faces[0].card == 0]
        png_groups.append(DeckGroup(group.deck, group.cards, group.size, group.size_where,
                                    imposition))
    parts = render_cards(ctx, composer, png_groups, fit, f"{name} (PNG)")
    files: dict[str, bytes] = {}
    for group_parts, group in zip(parts, png_groups):
        part = merge_pdfs(group_parts)
        pages = group.imposition.pages
        sizes = [(group.size.width, group.size.height, settings.bleed)] * len(pages)
        images = pages_to_png(part, sizes, PNG_DPI, keep_bleed=settings.png_bleed)
        for page, image in zip(pages, images):
            card = group.cards[page.faces[0].card]
            file_name = (f"{card.file_stem or card.id}-front.png" if page.side == "front"
                         else f"{group.deck.spec.code}-back.png")
            files[_file_safe(file_name)] = image
    return files


def credits_text(title: str, printed, root) -> str:
    from printshop.products.credits import icon_credits, picture_credits

    lines = [f"{title}: credits", ""]
    pictures = picture_credits(printed, root)
    if pictures:
        lines.append("Pictures")
        lines += [f"  {credit.file}: {credit.line()}" for credit in pictures]
    for group in icon_credits(printed, root):
        lines.append(f"Icons ({', '.join(p for p in (group['source'], group['licence']) if p)})")
        lines.append(f"  by {', '.join(group['authors']) or 'uncredited'}: "
                     f"{', '.join(group['names'])}")
    return "\n".join(lines) + "\n"


def _file_safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "._-" else "-" for c in name)
