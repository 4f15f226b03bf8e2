"""Pictures on cards: each card's (its row's `image` column, else the deck's `art.image`),
and the back's (`back.image`), as the templates read them (`card.art`, `deck.back_art`).

A picture is a file inside the project (the URL fetcher's rules: no `..` out of it, no
network), named relative to the project folder. A missing one is a warning at the card's
row (an error under --strict) and the card prints a placeholder box where the picture
would be; on a press profile, a picture too coarse for where it is placed (below the
profile's `min_image_ppi`, 300) is a warning naming its effective resolution. Every
picture printed is credited from the `credits.yaml` beside it.
"""

from __future__ import annotations

from pathlib import Path

from printshop.products import markup
from printshop.safepath import UnsafePath, project_url, resolve_inside
from printshop.source.images import ImageRefused, check_image_size

# where a template's art frame is, as a share of the card: its height, and its top below
# the safe zone's top (under the head band of result cards)
ART_FRAME_HEIGHT = 0.40
ART_FRAME_TOP_MM = 10.5
COARSE = "ppi where it prints"   # in the message of a picture too coarse for the profile


def art_frame(size, bleed: float, safe: float) -> dict:
    """The art frame of a face (mm, from the bleed corner): the card's whole width and on
    into the bleed, under the head band."""
    top = bleed + safe + ART_FRAME_TOP_MM
    return {"x": 0.0, "y": top, "width": size.width + 2 * bleed,
            "height": size.height * ART_FRAME_HEIGHT}


class CardArt:
    """Resolves, checks and credits the pictures of one card product."""

    def __init__(self, project, profile):
        self.root = project.root
        self.min_ppi = profile.spec.min_image_ppi if profile is not None and \
            profile.for_press else None
        self._checked: dict[tuple, dict] = {}

    def picture(self, name: str | None, width_mm: float, height_mm: float,
                place: str) -> dict | None:
        """What a template reads for one picture placed in a `width_mm` × `height_mm` box
        (cropped to it), or None when there is none; problems at the current card."""
        if name is None or str(name).strip() == "":
            return None
        name = str(name).strip()
        key = (name, round(width_mm, 2), round(height_mm, 2))
        if key not in self._checked:
            self._checked[key] = self._check(name, width_mm, height_mm)
        found = self._checked[key]
        for message in found["problems"]:
            markup.report(message)
        if found["path"] is not None:
            markup.printed_picture(found["shown"], found["path"])
        return {"src": found["src"], "missing": found["src"] is None, "name": name,
                "place": place}

    def _check(self, name: str, width_mm: float, height_mm: float) -> dict:
        problems = []
        try:
            path = resolve_inside(name, [self.root], base=self.root)
        except UnsafePath as exc:
            problems.append(f"picture '{name}' {exc} (a path relative to the project "
                            "folder); a placeholder prints instead")
            return {"src": None, "path": None, "shown": name, "problems": problems}
        shown = path.relative_to(self.root.resolve()).as_posix() \
            if self.root.resolve() in path.parents else name
        if path.suffix.lower() != ".svg":
            try:
                pixels = check_image_size(path, shown)
            except ImageRefused as exc:
                problems.append(f"{exc}; a placeholder prints instead")
                return {"src": None, "path": None, "shown": shown, "problems": problems}
            ppi = effective_ppi(pixels, width_mm, height_mm)
            if self.min_ppi is not None and ppi < self.min_ppi:
                problems.append(f"picture '{shown}' is {pixels[0]}×{pixels[1]} pixels: "
                                f"{ppi:.0f} {COARSE} ({width_mm:.1f} × "
                                f"{height_mm:.1f} mm), under the {self.min_ppi} ppi the "
                                "print profile asks for; it will print soft")
        return {"src": project_url(path, self.root), "path": path, "shown": shown,
                "problems": problems}


def effective_ppi(pixels: tuple[int, int], width_mm: float, height_mm: float) -> float:
    """Pixels per inch of a picture scaled to cover a box (and cropped to it)."""
    width_in, height_in = width_mm / 25.4, height_mm / 25.4
    return min(pixels[0] / width_in, pixels[1] / height_in) if width_in and height_in \
        else float("inf")


def card_picture(art: CardArt, deck, card, face: dict) -> dict | None:
    """A front's picture: its row's column, else the deck's default."""
    spec = deck.spec.art
    fields = card.data.get("fields") or {}
    name = fields.get(spec.column)
    if name is None or str(name).strip() == "":
        name = spec.image
    if name is None or card.data.get("kind") not in ("row", "playing-card"):
        return None
    if spec.place == "full":
        box = face["full"]
    else:
        box = face["art"]
    return art.picture(name, box["width"], box["height"], spec.place)


def back_picture(art: CardArt, deck, face: dict) -> dict | None:
    name = deck.spec.back.image
    if name is None:
        return None
    return art.picture(name, face["full"]["width"], face["full"]["height"], "full")


def shown_path(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)
