"""The palette: every printed colour, defined once with its sRGB and its CMYK value.

`printshop/data/palette.yaml` holds printshop's own colours; a project's `palette.yaml` adds
or redefines colours (its decks name them): source/builtin_data.py loads both. `Colours` is
the palette in one colour mode: what a stylesheet variable, a template's `colour("name")` or
a deck colour prints as. In CMYK mode a colour the palette does not define is an error,
never a silent conversion.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from pydantic import Field, field_validator

from printshop.errors import PrintshopError
from printshop.source.builtin_data import BuiltInData
from printshop.source.schema import Strict, validate
from printshop.source.yamlfile import load_yaml

PROJECT_PALETTE_NAME = "palette.yaml"
HEX_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
NAME_RE = re.compile(r"^[a-z][a-z0-9-]{0,40}$")


class ColourSpec(Strict):
    srgb: str = Field(pattern=HEX_RE.pattern)
    cmyk: tuple[float, float, float, float]
    use: str | None = None

    @field_validator("cmyk", mode="before")
    @classmethod
    def _cmyk(cls, value):
        parts = str(value).split()
        if len(parts) != 4:
            raise ValueError(f"'{value}': give four per cents, C M Y K (e.g. 0 66 51 70)")
        try:
            numbers = tuple(float(p) for p in parts)
        except ValueError:
            raise ValueError(f"'{value}': C M Y K are numbers from 0 to 100") from None
        if not all(0 <= n <= 100 for n in numbers):
            raise ValueError(f"'{value}': C M Y K are numbers from 0 to 100")
        return numbers


class PaletteFile(Strict):
    colours: dict[str, ColourSpec]


@dataclass(frozen=True)
class Colour:
    name: str
    srgb: str
    cmyk: tuple[float, float, float, float]
    path: Path
    line: int | None

    @property
    def ink(self) -> float:
        return sum(self.cmyk)


def load_palette(project_root: Path | None = None) -> dict[str, Colour]:
    return PALETTE.load(project_root)


def _read(path: Path) -> dict[str, Colour]:
    doc = load_yaml(path, keep_going=True)
    parsed = validate(doc, PaletteFile)
    out = {}
    for name, spec in parsed.colours.items():
        pos = doc.pos(("colours", name), key=True)
        if not NAME_RE.match(name):
            raise PrintshopError.at(path, f"colour name '{name}': use lower-case letters, "
                                    "digits and '-'", pos.line, pos.column)
        out[name] = Colour(name, spec.srgb.lower(), spec.cmyk, path, pos.line)
    return out


PALETTE = BuiltInData(PROJECT_PALETTE_NAME, _read, "colour", "colours")
BUILTIN_PALETTE = PALETTE.builtin


class UnknownColour(ValueError):
    pass


class Colours:
    """The palette in one mode ('srgb' or 'cmyk')."""

    def __init__(self, palette: dict[str, Colour], mode: str = "srgb"):
        self.palette = palette
        self.mode = mode
        self.by_srgb: dict[str, Colour] = {}
        for colour in palette.values():
            self.by_srgb.setdefault(colour.srgb, colour)

    @classmethod
    def for_project(cls, project_root: Path | None, mode: str = "srgb") -> "Colours":
        return cls(load_palette(project_root), mode)

    def lookup(self, value: str) -> Colour | None:
        """The palette colour named `value`, or (a #rrggbb) the one with that sRGB value."""
        value = str(value).strip()
        if value in self.palette:
            return self.palette[value]
        if HEX_RE.match(value):
            return self.by_srgb.get(value.lower())
        return None

    def _unknown(self, value: str) -> UnknownColour:
        if HEX_RE.match(str(value)):
            return UnknownColour(f"colour '{value}' is not in the palette, so it has no CMYK "
                                 f"value: name a palette colour, or add it to "
                                 f"{PROJECT_PALETTE_NAME} with its cmyk")
        close = difflib.get_close_matches(str(value), list(self.palette), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        return UnknownColour(f"no colour '{value}' in the palette{hint} (add it to "
                             f"{PROJECT_PALETTE_NAME}, or give #rrggbb)")

    def cmyk_of(self, value: str) -> tuple[float, float, float, float]:
        colour = self.lookup(value)
        if colour is None:
            raise self._unknown(value)
        return colour.cmyk

    def srgb_of(self, value: str) -> str:
        colour = self.lookup(value)
        if colour is not None:
            return colour.srgb if value in self.palette else str(value)
        if HEX_RE.match(str(value)):
            return str(value)
        raise self._unknown(value)

    def css(self, value: str) -> str:
        """How the colour is written in CSS, SVG and inline styles in this mode."""
        if self.mode == "cmyk":
            return device_cmyk(self.cmyk_of(value))
        return self.srgb_of(value)

    __call__ = css

    def mix(self, value: str, other: str, amount: float) -> str:
        """`value` moved `amount` of the way towards `other`, mixed in this mode's space."""
        if self.mode == "cmyk":
            a, b = self.cmyk_of(value), self.cmyk_of(other)
            return device_cmyk(tuple(x + (y - x) * amount for x, y in zip(a, b)))
        rgb_a = [int(self.srgb_of(value)[i:i + 2], 16) for i in (1, 3, 5)]
        rgb_b = [int(self.srgb_of(other)[i:i + 2], 16) for i in (1, 3, 5)]
        return "#" + "".join(f"{round(x + (y - x) * amount):02x}"
                             for x, y in zip(rgb_a, rgb_b))

    def variables_css(self) -> str:
        """`:root { --name: value; … }` for stylesheets written with var(--name)."""
        lines = [f"  --{name}: {self.css(name)};" for name in sorted(self.palette)]
        return ":root {\n" + "\n".join(lines) + "\n}\n"


def device_cmyk(cmyk) -> str:
    return "device-cmyk(" + " ".join(f"{round(v / 100, 4):g}" for v in cmyk) + ")"
