"""Print profiles: what a file is made for (a home printer, a screen, a print-on-demand
press). Data in `printshop/data/print-profiles.yaml`; a project adds or redefines profiles
in its own `print-profiles.yaml` beside `printshop.yaml` (source/builtin_data.py).

A profile is plain data. Products read it to set the page boxes, margins, colours, PDF
variant, links and bookmarks; `printshop.preflight` reads it to check the file made.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator

from printshop.errors import PrintshopError, display_path
from printshop.resources import DATA_DIR
from printshop.source.builtin_data import BuiltInData
from printshop.source.schema import Strict, validate
from printshop.source.yamlfile import load_yaml

ICC_DIR = DATA_DIR / "icc"
PROJECT_PROFILES_NAME = "print-profiles.yaml"
DEFAULT_PROFILE = "home"
MM_PER_UNIT = {"mm": 1.0, "in": 25.4, "pt": 25.4 / 72}
_LENGTH_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(mm|in|pt)\s*$")
PDF_VARIANTS = ("plain", "pdf/x-1a", "pdf/x-3", "pdf/x-4")
POINTS_PER_MM = 72 / 25.4

# What render/pdf/press.py writes and preflight/ checks, so the two never disagree:
PDFX_KEYS = {
    # variant: (PDF version, GTS_PDFXVersion, GTS_PDFXConformance or None)
    "pdf/x-1a": ("1.4", "PDF/X-1:2003", "PDF/X-1a:2003"),
    "pdf/x-3": ("1.4", "PDF/X-3:2003", None),
    "pdf/x-4": ("1.6", "PDF/X-4", None),
}
# crop marks (marks: crop) sit beyond the bleed: a gap, the mark, a margin beyond its end
MARK_GAP_MM = 1.0
MARK_LENGTH_MM = 5.0
MARK_MARGIN_MM = 1.0


def marks_room_mm(bleed_mm: float) -> float:
    """How far the page reaches beyond the trim on every side with crop marks."""
    return bleed_mm + MARK_GAP_MM + MARK_LENGTH_MM + MARK_MARGIN_MM


def length_mm(text: str) -> float:
    """'0.125in' → 3.175; '3mm' → 3; '9pt' → 3.175."""
    match = _LENGTH_RE.match(str(text))
    if not match:
        raise ValueError(f"'{text}' is not a length: give a number and a unit (mm, in or pt),"
                         " e.g. 0.125in or 3mm")
    return float(match[1]) * MM_PER_UNIT[match[2]]


class PageRule(Strict):
    multiple_of: int = Field(default=1, ge=1, le=64)
    min: int = Field(default=1, ge=1, le=10_000)


class CardRule(Strict):
    layout: Literal["home", "foldover", "printshop"] = "printshop"
    order: Literal["front-back", "back-front"] = "front-back"
    files: Literal["pdf", "png"] = "pdf"
    one_file_per_deck: bool = False


def _mm(value) -> float:
    if isinstance(value, (int, float)):
        raise ValueError(f"{value}: give a unit (mm, in or pt), e.g. {value}mm")
    return length_mm(value)


class Barcode(Strict):
    """The clear box a vendor prints its barcode in, on the back cover's lower corner at
    the spine (mm)."""
    width: float
    height: float
    from_spine: float
    from_bottom: float

    @field_validator("width", "height", "from_spine", "from_bottom", mode="before")
    @classmethod
    def _length(cls, value):
        return _mm(value)


class CoverPaper(Strict):
    description: str
    pages_per_inch: float = Field(gt=50, le=2000)
    plus: float = 0.0               # mm added for the cover stock

    @field_validator("plus", mode="before")
    @classmethod
    def _length(cls, value):
        return _mm(value)


class CoverSpec(Strict):
    """A print-on-demand book's cover wrap (back, spine, front): the spine's width from the
    page count, `pages / pages_per_inch + plus`, for each paper the vendor offers; the pages
    a spine needs before it may carry text; the barcode box. `source` says where the
    numbers come from (printed by `printshop build --cover` and the README)."""
    papers: dict[str, CoverPaper]
    paper: str                      # the default paper (a key of papers)
    min_pages: int = Field(default=1, ge=1)
    spine_text_from: int = Field(ge=1)
    spine_margin: float             # spine text this far from each fold (mm)
    safe: float | None = None       # the cover's safe area (mm); default: the profile's
    barcode: Barcode
    source: str

    @field_validator("spine_margin", "safe", mode="before")
    @classmethod
    def _length(cls, value):
        return None if value is None else _mm(value)


class ProfileSpec(Strict):
    description: str
    trim: Literal["letter", "a4", "a5", "a3", "digest"] | None = None
    bleed: float = 0.0       # mm (written with a unit in YAML)
    safe: float = 0.0
    gutter: float = 0.0
    marks: Literal["none", "crop"] = "none"
    colour: Literal["srgb", "cmyk"] = "srgb"
    icc: str | None = None
    ink_limit: int | None = Field(default=None, ge=100, le=400)
    pdf: Literal["plain", "pdf/x-1a", "pdf/x-3", "pdf/x-4"] = "plain"
    links: bool = True
    bookmarks: bool = True
    pages: PageRule = PageRule()
    min_image_ppi: int | None = Field(default=None, ge=50, le=2400)
    max_file_mb: float | None = Field(default=None, gt=0)
    cards: CardRule | None = None
    # a paged product's pages for the hand (products/layouts.py): as they are, a folded
    # booklet or a one-sheet pocketmod zine; and the paper's thickness (a booklet's creep)
    layout: Literal["pages", "booklet", "pocketmod"] = "pages"
    paper_thickness: float = 0.1
    # a print-on-demand book: its cover is a separate file (products/book/cover.py); the
    # interior then has no cover of its own
    cover: CoverSpec | None = None

    @field_validator("bleed", "safe", "gutter", "paper_thickness", mode="before")
    @classmethod
    def _length(cls, value):
        if isinstance(value, (int, float)):
            raise ValueError(f"{value}: give a unit (mm, in or pt), e.g. {value}mm")
        mm = length_mm(value)
        if mm > 50:
            raise ValueError(f"'{value}' is more than 50 mm")
        return mm


class ProfilesFile(Strict):
    profiles: dict[str, ProfileSpec]


@dataclass(frozen=True)
class PrintProfile:
    name: str
    spec: ProfileSpec
    path: Path          # where it was declared (for messages)
    line: int | None

    def __getattr__(self, item):  # profile.bleed, profile.colour …
        return getattr(self.spec, item)

    @property
    def cmyk(self) -> bool:
        return self.spec.colour == "cmyk"

    def for_cover(self) -> "PrintProfile":
        """This profile for its cover wrap: one page, no page-count rule."""
        return PrintProfile(self.name, self.spec.model_copy(update={"pages": PageRule()}),
                            self.path, self.line)

    @property
    def for_press(self) -> bool:
        """Anything but today's home output: the PDF is finished for the profile."""
        spec = self.spec
        return (spec.pdf != "plain" or spec.colour != "srgb" or spec.bleed > 0
                or spec.marks != "none" or not spec.links or not spec.bookmarks
                or spec.pages.multiple_of > 1)

    def icc_path(self, project_root: Path | None = None) -> Path | None:
        if not self.spec.icc:
            return None
        for folder in ([project_root] if project_root else []) + [ICC_DIR]:
            candidate = folder / self.spec.icc
            if candidate.is_file():
                return candidate
        raise PrintshopError.at(self.path, f"profile '{self.name}': ICC profile "
                                f"'{self.spec.icc}' not found in the project or in "
                                f"{display_path(ICC_DIR)}", self.line)


def load_profiles(project_root: Path | None = None) -> dict[str, PrintProfile]:
    return PROFILES.load(project_root)


def _read(path: Path) -> dict[str, PrintProfile]:
    doc = load_yaml(path, keep_going=True)
    parsed = validate(doc, ProfilesFile)
    out = {}
    for name, spec in parsed.profiles.items():
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,40}", name):
            pos = doc.pos(("profiles", name), key=True)
            raise PrintshopError.at(path, f"profile name '{name}': use lower-case letters, "
                                    "digits and '-'", pos.line, pos.column)
        problems = []
        if spec.colour == "cmyk" and not spec.icc:
            problems.append(("colour", "a cmyk profile needs icc: (its output profile)"))
        if spec.pdf != "plain" and spec.colour != "cmyk":
            # sRGB is written as DeviceRGB, which no PDF/X file may hold under its (CMYK)
            # output intent: the build would always fail its own preflight
            problems.append(("pdf", f"{spec.pdf} needs colour: cmyk (and icc:); an sRGB "
                             "file is pdf: plain"))
        if spec.marks == "crop" and spec.colour == "cmyk":
            # printshop's marks (render/pdf/press.py) are for a copy shop's sRGB file: a press
            # that takes CMYK wants none and adds its own, in registration colour
            problems.append(("marks", "crop marks are for sRGB copy-shop files: presses "
                             "that take CMYK want none and add their own; use marks: none"))
        if spec.cover is not None and spec.cover.paper not in spec.cover.papers:
            problems.append(("cover", f"cover.paper '{spec.cover.paper}' is not one of "
                             f"cover.papers ({', '.join(spec.cover.papers)})"))
        if problems:
            key, _ = problems[0]
            line = (doc.pos(("profiles", name, key)) if key in doc.data["profiles"][name]
                    else doc.pos(("profiles", name))).line
            raise PrintshopError.at(path, f"profile '{name}': "
                                    f"{'; '.join(m for _, m in problems)}", line)
        out[name] = PrintProfile(name, spec, path, doc.pos(("profiles", name)).line)
    return out


PROFILES = BuiltInData(PROJECT_PROFILES_NAME, _read, "print profile", "profiles")


def unknown_profile_message(name: str, profiles: dict[str, PrintProfile]) -> str:
    return PROFILES.unknown(name, profiles)


def get_profile(name: str | None, project_root: Path | None = None,
                where: tuple[Path | str, int | None] | None = None) -> PrintProfile:
    profiles = load_profiles(project_root)
    from printshop.source.choices import fold_case

    name = fold_case(name or DEFAULT_PROFILE, profiles)   # DTRPG-Book is dtrpg-book
    if name not in profiles:
        place, line = where or ("--profile", None)
        raise PrintshopError.at(place, unknown_profile_message(name, profiles), line)
    return profiles[name]
