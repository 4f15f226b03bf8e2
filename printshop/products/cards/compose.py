"""Composing cards: each face rendered from its deck's template (cached: a deck's back is
rendered once, a front once at each text size), the faces laid out on the imposed sheets,
and the render job of a set of sheets (its HTML, stylesheets and page size)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from markupsafe import Markup, escape

from printshop.errors import PrintshopError
from printshop.products import BuildContext, markup
from printshop.products.cards.art import CardArt, art_frame, back_picture, card_picture
from printshop.products.cards.geometry import Box
from printshop.products.cards.imposition import DRIFT_MM, SAFE_MM, Imposition, Page
from printshop.products.cards.job import CardFaces
from printshop.products.cards.settings import DeckGroup, Settings
from printshop.products.common import base_url, jinja_environment, stylesheet, warn_missing_glyphs
from printshop.products.credits import credits_line
from printshop.products.printing import colours_for, palette_css
from printshop.render.checks import FitCheck
from printshop.render.jinja import render_template
from printshop.render.job import RenderJob, Stylesheet
from printshop.source.card_sizes import CardSize
from printshop.source.decks import Deck

if TYPE_CHECKING:
    from printshop.products.cards.fit import FitState

STYLESHEETS = ("css/fonts.css", "css/cards.css")
SHEET_TEMPLATE = "cards/sheet.html.j2"
FRAME_INSET_MM = 1.5        # the decorative frame: between the trim and the safe zone


# a face on a page of its own (render/pdf/impose.py places it on its sheet): every face of a
# job has the same ancestors, with the same styles; classed as its sheet is, so that a
# stylesheet's `.sheet-back .x` finds it as before
_FACE_PAGE = ('<div class="sheet sheet-{sheet} face-page" style="page: ps-face-{size}; '
              'break-before: page; position: relative; width: {width:.3f}mm; '
              'height: {height:.3f}mm;"><div class="face face-{side}"{attrs} style="left: 0.000mm; '
              'top: 0.000mm; width: {width:.3f}mm; height: {height:.3f}mm;">{html}</div>'
              '</div>\n')


def face_attributes(group: DeckGroup, face) -> str:
    """Where a face's words come from, for the words check (render/weasy/words.py): the
    deck file and the card's line, and how messages name the card."""
    if face.side == "front":
        card = group.cards[face.card]
        line = f' data-line="{card.line}"' if card.line else ""
        return (f' data-source="{escape(str(card.path))}"{line}'
                f' data-item="{escape(card.label)}"')
    return (f' data-source="{escape(str(group.deck.path))}"'
            f' data-item="the back of {escape(group.deck.id)}"')


def _box_style(box) -> str:
    if isinstance(box, dict):
        x, y, w, h = box["x"], box["y"], box["width"], box["height"]
    else:
        x, y, w, h = box.x, box.y, box.width, box.height
    return f"left: {x:.3f}mm; top: {y:.3f}mm; width: {w:.3f}mm; height: {h:.3f}mm;"


def _box_data(box: Box) -> dict:
    return {"x": box.x, "y": box.y, "width": box.width, "height": box.height}


def face_geometry(size: CardSize, bleed: float, safe: float = SAFE_MM,
                  drifts: bool = False) -> dict:
    """The face's own frame: (0, 0) is the bleed corner; the card is `trim`; text stays
    `safe` mm inside it. A face that `drifts` (a back on a home duplex sheet: it may land
    DRIFT_MM off its cut lines) keeps its frame further in, so a drift shows no edge of it.
    `art`: the layout's art frame (products/cards/art.py)."""
    trim = Box(bleed, bleed, size.width, size.height)
    inset = max(DRIFT_MM + 1.0, FRAME_INSET_MM) if drifts else min(FRAME_INSET_MM, safe / 2)
    return {"width": size.width + 2 * bleed, "height": size.height + 2 * bleed,
            "bleed": bleed, "card_width": size.width, "card_height": size.height,
            "full": _box_data(Box(0, 0, size.width + 2 * bleed, size.height + 2 * bleed)),
            "trim": _box_data(trim), "safe": _box_data(trim.inset(safe)),
            "frame": _box_data(trim.inset(inset)), "drifts": drifts,
            "art": art_frame(size, bleed, safe), "safe_margin": safe}


class CardComposer:
    """Renders faces (cached) and sheets to HTML."""

    def __init__(self, project, settings: Settings, title: str, name: str = "cards"):
        self.project = project
        self.settings = settings
        self.title = title
        self.title_file = f"{name}-credits.txt"
        self.colours = colours_for(project, settings.profile)
        self.env = jinja_environment(project, {"box": _box_style}, self.colours)
        self._faces: dict[tuple, str] = {}
        self._printed: dict[str, markup.Printed] = {}   # a face's HTML → what it printed
        self._themes: dict[str, dict] = {}
        profile = settings.profile
        self.art = CardArt(project, profile)
        self.cmyk_icc = (str(profile.icc_path(project.root)) if profile is not None
                         and profile.cmyk else None)
        # what templates read as `press`: flat = no transparency (PDF/X-1a and X-3)
        self.press = {"flat": profile is not None and profile.pdf in ("pdf/x-1a", "pdf/x-3"),
                      "profile": profile.name if profile is not None else "home"}

    def theme(self, deck: Deck) -> dict:
        if deck.id not in self._themes:
            self._themes[deck.id] = deck.theme(self.colours)
        return self._themes[deck.id]

    def front(self, group: DeckGroup, group_index: int, card_index: int, bleed: float,
              steps: dict[str, int], name: str | None = None) -> str:
        """A card's front; `name` (default: the card's) names its data-fit boxes."""
        name = name or fit_name(group_index, card_index)
        key = ("front", group_index, card_index, bleed, tuple(sorted(steps.items())), name)
        if key not in self._faces:
            card = group.cards[card_index]
            face = face_geometry(group.size, bleed, self.settings.safe)
            with markup.located(card.path, card.line, f"card {card.id} ({card.label})"), \
                    markup.capture() as printed:
                self._faces[key] = render_template(
                    self.env, card.template, card=card.data, deck=self.theme(group.deck),
                    face=face, fit={"name": name, "steps": steps}, press=self.press,
                    art=card_picture(self.art, group.deck, card, face))
            self._printed[self._faces[key]] = printed
        return self._faces[key]

    def back(self, group: DeckGroup, group_index: int, bleed: float,
             drifts: bool = False) -> str:
        key = ("back", group_index, bleed, drifts)
        if key not in self._faces:
            deck = group.deck
            face = face_geometry(group.size, bleed, self.settings.safe, drifts)
            with markup.located(deck.path, deck.line_of("back"),
                                f"the back of deck '{deck.id}'"), \
                    markup.capture() as printed:
                self._faces[key] = render_template(
                    self.env, deck.spec.back.template, deck=self.theme(deck), face=face,
                    press=self.press, art=back_picture(self.art, deck, face))
            self._printed[self._faces[key]] = printed
        return self._faces[key]

    def sheets(self, group: DeckGroup, group_index: int, pages: list[Page],
               fit: FitState, tries: list[tuple[int, dict[str, int], str]] | None = None,
               with_faces: bool = True) -> str:
        """The pages' HTML. With `tries` (card, steps, fit name), page i is a probe: the
        front of tries[i]'s card at those steps, its boxes named by the try. Without
        `with_faces`, only what the sheets draw themselves (`imposed_sheets`)."""
        imposition = group.imposition
        shown = []
        for number, page in enumerate(pages):
            faces = []
            for face in page.faces if with_faces else ():
                if tries is not None:
                    card, steps, name = tries[number]
                    html = self.front(group, group_index, card, face.bleed, steps, name)
                else:
                    html = self.face(group, group_index, face, fit)
                faces.append({"side": face.side, "box": _box_style(face.bleed_box),
                              "html": Markup(html),
                              "attrs": Markup(face_attributes(group, face)
                                              if tries is None else "")})
            shown.append({
                "width": page.width, "height": page.height, "side": page.side,
                "faces": faces, "bleed": imposition.bleed,
                "marks": page.cut_marks, "fold": page.fold,
                "note": _note(page, imposition) if page.note else None,
                "credits": self._page_credits(group, group_index, page, fit)
                if page.note else None,
                "guides": _guides(page) if self.settings.guides else [],
            })
        return render_template(self.env, SHEET_TEMPLATE, pages=shown, title=self.title,
                               deck=self.theme(group.deck),
                               language=self.project.manifest.language)

    def printed(self) -> markup.Printed:
        """Every picture and icon on the faces composed so far."""
        every = markup.Printed()
        for printed in self._printed.values():
            every.merge(printed)
        return every

    def _page_credits(self, group: DeckGroup, group_index: int, page: Page,
                      fit: FitState) -> dict | None:
        """The credits of the pictures and icons on a sheet (its fronts and their backs),
        in the margin opposite the printing note; where they are too long for it, where
        to find them."""
        printed = markup.Printed()
        for face in page.faces:
            html = self.face(group, group_index, face, fit)
            printed.merge(self._printed.get(html, markup.Printed()))
            if face.side == "front":
                back = self.back(group, group_index, 0.0)
                printed.merge(self._printed.get(back, markup.Printed()))
        if not printed:
            return None
        text = credits_line(printed, self.project.root)
        note = _note(page, group.imposition)
        assert page.note is not None    # (asked only of a page with a note)
        box = page.note.box
        length = box.height if page.note.rotated else box.width
        if len(text) * 1.0 > length:   # Roboto Condensed 5 pt: about 1 mm a character
            text = f"Credits for pictures and icons: {self.title_file}"
        mirrored = Box(page.width - box.right, page.height - box.bottom, box.width,
                       box.height)
        if note["rotated"]:
            cx, cy = mirrored.x + mirrored.width / 2, mirrored.y + mirrored.height / 2
            strip = Box(cx - mirrored.height / 2, cy - mirrored.width / 2, mirrored.height,
                        mirrored.width)
            return {"text": text, "style": _box_style(strip), "rotated": True}
        return {"text": text, "style": _box_style(mirrored), "rotated": False}

    def face(self, group: DeckGroup, group_index: int, face, fit: FitState) -> str:
        if face.side == "front":
            return self.front(group, group_index, face.card, face.bleed,
                              fit.of(group_index, face.card))
        return self.back(group, group_index, face.bleed, face.drifts)

    def imposed_sheets(self, group: DeckGroup, group_index: int, pages: list[Page],
                       fit: FitState) -> tuple[str, tuple, Stylesheet]:
        """The pages' HTML for render/pdf/impose.py: the sheets with only what they draw
        themselves, then each face on a page of its own (a face shown twice, once); where
        each face goes on each sheet, (face page, x, y, width, height) in mm; and the
        stylesheet sizing the face pages."""
        html = self.sheets(group, group_index, pages, fit, with_faces=False)
        sizes: dict[tuple[float, float], int] = {}
        found: dict[tuple, int] = {}
        face_pages: list = []
        placements: list = []
        for page in pages:
            placed = []
            for face in page.faces:
                box = face.bleed_box
                size = sizes.setdefault((round(box.width, 3), round(box.height, 3)),
                                        len(sizes))
                inner = self.face(group, group_index, face, fit)
                key = (page.side, face.side, size, inner)
                if key not in found:
                    found[key] = len(face_pages)
                    face_pages.append(_FACE_PAGE.format(
                        sheet=page.side, size=size, side=face.side, width=box.width,
                        height=box.height, html=inner, attrs=face_attributes(group, face)))
                shown = face.shown_box
                clip = None if shown == box else (shown.x, shown.y, shown.width,
                                                  shown.height)
                placed.append((found[key], box.x, box.y, box.width, box.height, clip))
            placements.append(tuple(placed))
        end = html.rfind("</body>")
        end = len(html) if end < 0 else end      # (a project's sheet template without it)
        html = html[:end] + "".join(face_pages) + html[end:]
        rules = "".join(f"@page ps-face-{n} {{ size: {w:.3f}mm {h:.3f}mm; margin: 0; "
                        f"bleed: 0; }}\n" for (w, h), n in sizes.items())
        return html, tuple(placements), Stylesheet(text=rules, label="card faces' pages")

    def page_css(self, imposition: Imposition) -> Stylesheet:
        page = imposition.pages[0]
        rule = f"@page {{ size: {page.width:.3f}mm {page.height:.3f}mm; margin: 0;"
        if imposition.bleed:
            rule += f" bleed: {imposition.bleed:g}mm;"
        return Stylesheet(text=rule + " }", label=f"card page {page.width:g}×{page.height:g}")


def fit_name(group_index: int, card_index: int) -> str:
    """Templates add ':BOX' (text, name …) to make each text box's data-fit name."""
    return f"card-{group_index}-{card_index}"


def _note(page: Page, imposition: Imposition) -> dict:
    note = page.note
    assert note is not None    # (asked only of a page with a note)
    length = note.box.height if note.rotated else note.box.width
    if imposition.layout == "home":
        long_text = (f"Print at 100 % (actual size, no scaling), double-sided, flip on "
                     f"{imposition.flip} edge")
        short_text = f"Print at 100 %, duplex: flip on {imposition.flip} edge"
    else:
        long_text = "Print at 100 % (actual size, no scaling), fold on the dashed line"
        short_text = "Print at 100 %, fold on the line"
    # Roboto Condensed at 5.5 pt sets about 1.1 mm per character
    text = long_text if len(long_text) * 1.1 <= length else short_text
    box = note.box
    if note.rotated:  # a horizontal strip, turned about its centre to run up the margin
        cx, cy = box.x + box.width / 2, box.y + box.height / 2
        strip = Box(cx - box.height / 2, cy - box.width / 2, box.height, box.width)
        return {"text": text, "style": _box_style(strip), "rotated": True}
    return {"text": text, "style": _box_style(box), "rotated": False}


def _guides(page: Page) -> list[dict]:
    lines = []
    for face in page.faces:
        if face.bleed:
            lines.append({"kind": "bleed", **_box_data(face.shown_box.inset(0.1))})
        lines.append({"kind": "trim", **_box_data(face.trim)})
        lines.append({"kind": "safe", **_box_data(face.safe_box)})
    return lines


def sheet_job(ctx: BuildContext, composer: CardComposer, group: DeckGroup, group_index: int,
              pages: list[Page], fit: FitState, tries=None) -> RenderJob:
    """The render job of a group's `pages` (with `tries`: probes, see CardComposer.sheets),
    each data-fit box checked for overflow."""
    project = composer.project
    extra: tuple[Stylesheet, ...]
    if tries is None:   # sheets to print: each face laid out on a page of its own
        html, placements, faces_css = composer.imposed_sheets(group, group_index, pages, fit)
        extra = (faces_css,)
    else:               # probes, only laid out: a card alone on each page already
        html, placements, extra = composer.sheets(group, group_index, pages, fit, tries), (), ()
    warn_missing_glyphs(ctx, html, str(group.deck.path))
    return RenderJob(
        html=html,
        stylesheets=(palette_css(composer.colours),)
        + tuple(stylesheet(project, s) for s in STYLESHEETS)
        + (composer.page_css(group.imposition),) + extra,
        roots=tuple(str(r) for r in project.read_roots), base_url=base_url(project),
        source=f"{SHEET_TEMPLATE} ({group.deck.id})", uncompressed=ctx.uncompressed,
        cmyk_icc=composer.cmyk_icc,
        extensions=(FitCheck(),) + ((CardFaces(placements),) if placements else ()))


def check_templates(project, groups: list[DeckGroup]) -> None:
    """Compile every template the build will use, so syntax errors show up in `check`."""
    import jinja2

    env = jinja_environment(project, {"box": _box_style})
    names = {SHEET_TEMPLATE}
    for group in groups:
        names.add(group.deck.spec.back.template)
        names.update(card.template for card in group.cards)
    for name in sorted(names):
        try:
            env.get_template(name)
        except jinja2.TemplateSyntaxError as exc:
            raise PrintshopError.at(exc.filename or name, f"template syntax: {exc.message}",
                                    exc.lineno) from None
        except jinja2.TemplateNotFound:
            raise PrintshopError.at("templates", f"template not found: {name}") from None
    for sheet in STYLESHEETS:
        stylesheet(project, sheet)
