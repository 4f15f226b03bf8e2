"""Fonts: which fonts may reach a PDF, and which characters none of them can draw.

WeasyPrint asks fontconfig for fonts. Each render worker points fontconfig at a
configuration printshop writes (`fontconfig_file`):

* always printshop's bundled fonts;
* the project's own fonts (`fonts:` in printshop.yaml: files inside the project), tried in
  their order for any character the bundled fonts lack;
* the fonts installed on the machine only when the project allows it (`system_fonts`, the
  default for a manuscript without a game manifest). A game project's books then print the
  same on every machine (a missing arrow once came silently from the system's DejaVu).

Before rendering, compose steps check every character against exactly those fonts, and a
character none can draw is reported once per script, with a count and the fix.
"""

from __future__ import annotations

import bisect
import hashlib
import os
import subprocess
import tempfile
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

from printshop.resources import FONTS_DIR as BUNDLED_FONTS

BUNDLED_FAMILIES = ("Vollkorn", "Roboto Condensed", "Pirata One", "DejaVu Sans Mono")
# The machine's own configuration, as it was before a worker isolated itself.
SYSTEM_CONFIG = os.environ.get("FONTCONFIG_FILE") or "/etc/fonts/fonts.conf"

# script → Debian package that draws it (README and .ci/run name the same ones)
PACKAGES = {"CJK": "fonts-noto-cjk", "Hangul": "fonts-noto-cjk", "Thai": "fonts-thai-tlwg",
            "Emoji": "fonts-noto-color-emoji"}
_SCRIPT_WORDS = {"CJK": "CJK", "HIRAGANA": "CJK", "KATAKANA": "CJK", "IDEOGRAPHIC": "CJK",
                 "FULLWIDTH": "CJK", "HALFWIDTH": "CJK", "BOPOMOFO": "CJK", "KANGXI": "CJK",
                 "HANGUL": "Hangul", "THAI": "Thai", "LAO": "Lao", "KHMER": "Khmer",
                 "DEVANAGARI": "Devanagari", "BENGALI": "Bengali", "TAMIL": "Tamil",
                 "ARABIC": "Arabic", "HEBREW": "Hebrew", "GREEK": "Greek",
                 "CYRILLIC": "Cyrillic", "ARMENIAN": "Armenian", "GEORGIAN": "Georgian",
                 "ETHIOPIC": "Ethiopic", "TIBETAN": "Tibetan", "MYANMAR": "Myanmar"}


@dataclass(frozen=True)
class FontPolicy:
    """What a render may use beyond the bundled fonts (picklable: it travels with a job)."""

    files: tuple[str, ...] = ()   # the project's font files, in fallback order
    system: bool = False          # fonts installed on this machine may fill in

    @property
    def folders(self) -> list[Path]:
        seen: list[Path] = []
        for name in self.files:
            folder = Path(name).resolve().parent
            if folder not in seen:
                seen.append(folder)
        return seen


BUNDLED_ONLY = FontPolicy()


def fontconfig_file(policy: FontPolicy = BUNDLED_ONLY) -> str:
    """Write (once) the fontconfig file for `policy`; return its path."""
    folders = [BUNDLED_FONTS.resolve(), *policy.folders]
    families = project_families(policy)
    key_text = "\n".join([*map(str, folders), *families, str(policy.system), SYSTEM_CONFIG])
    key = hashlib.sha256(key_text.encode()).hexdigest()[:16]
    base = Path(tempfile.gettempdir()) / f"printshop-fontconfig-{os.getuid()}-{key}"
    config = base / "fonts.conf"
    if not config.exists():
        base.mkdir(parents=True, exist_ok=True)
        parts = []
        if policy.system:
            parts.append(f'<include ignore_missing="yes">{escape(SYSTEM_CONFIG)}</include>')
        parts += [f"<dir>{escape(str(folder))}</dir>" for folder in folders]
        parts.append(f"<cachedir>{escape(str(base / 'cache'))}</cachedir>")
        if families:  # the project's fonts come right after each bundled family, in order
            accept = "".join(f"<family>{escape(f)}</family>" for f in families)
            for family in (*BUNDLED_FAMILIES, "serif", "sans-serif", "monospace"):
                parts.append(f'<alias binding="weak"><family>{escape(family)}</family>'
                             f"<accept>{accept}</accept></alias>")
        text = ('<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">'
                f"<fontconfig>{''.join(parts)}</fontconfig>\n")
        temporary = base / f"fonts.conf.{os.getpid()}"
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, config)
    return str(config)


def isolate_fontconfig(policy: FontPolicy = BUNDLED_ONLY) -> str:
    """Point this process (a render worker) at the fontconfig file for `policy`."""
    config = fontconfig_file(policy)
    os.environ["FONTCONFIG_FILE"] = config
    return config


# --- what the fonts can draw --------------------------------------------------------------

@lru_cache(maxsize=None)
def _font_file_info(path: str) -> tuple[frozenset[int], str]:
    """(code points, family name) of a font file; every font of a collection (.ttc). Kept
    in the user's cache by the file's bytes (printshop/user_cache.py): fontTools' import
    and the bundled fonts' cmaps were 0.16 s of every build's parent before its first
    render."""
    import json

    from printshop import user_cache

    raw = Path(path).read_bytes()

    def made() -> bytes:
        covered, family = _read_font_file_info(path)
        return json.dumps([family, sorted(covered)]).encode("utf-8")

    try:
        family, points = json.loads(user_cache.made_from("font-info-1", raw, made,
                                                         lambda data: data[:2] == b'["'))
        return frozenset(int(point) for point in points), str(family)
    except (ValueError, TypeError):   # a damaged cache file: read the font itself
        return _read_font_file_info(path)


def _read_font_file_info(path: str) -> tuple[frozenset[int], str]:
    from fontTools.ttLib import TTCollection, TTFont

    covered: set[int] = set()
    family = ""

    def read(font) -> None:
        nonlocal family
        covered.update(font.getBestCmap() or {})
        if not family:
            names = font["name"]
            family = names.getDebugName(16) or names.getDebugName(1) or Path(path).stem

    if path.lower().endswith(".ttc"):
        with TTCollection(path, lazy=True) as collection:
            for font in collection.fonts:
                read(font)
    else:
        with TTFont(path, lazy=True) as font:
            read(font)
    return frozenset(covered), family


def project_families(policy: FontPolicy) -> list[str]:
    families: list[str] = []
    for name in policy.files:
        family = _font_file_info(str(Path(name).resolve()))[1]
        if family not in families:
            families.append(family)
    return families


@lru_cache(maxsize=None)
def font_codepoints(path: str) -> frozenset[int]:
    """The code points a font file maps: read from its cmap table (render/fonts/cmap.py), or by
    fontTools for a font that reader does not know."""
    from printshop.render.fonts.cmap import cmap_codepoints

    found = cmap_codepoints(path)
    return found if found is not None else _font_file_info(path)[0]


@lru_cache(maxsize=None)
def _bundled_codepoints(folder: str) -> frozenset[int]:
    covered: set[int] = set()
    for path in sorted(Path(folder).rglob("*.[ot]tf")):
        covered.update(font_codepoints(str(path)))
    return frozenset(covered)


@lru_cache(maxsize=None)
def _system_ranges(config: str) -> tuple[list[int], list[int]]:
    """Every code point range some installed font covers (fc-list's charsets), merged."""
    try:
        listing = subprocess.run(["fc-list", "--format", "%{charset}\n"], capture_output=True,
                                 text=True, timeout=60,
                                 env={**os.environ, "FONTCONFIG_FILE": config}).stdout
    except (OSError, subprocess.SubprocessError):
        return [], []
    ranges: list[tuple[int, int]] = []
    for line in listing.splitlines():
        for part in line.split():
            first, _, last = part.partition("-")
            try:
                ranges.append((int(first, 16), int(last or first, 16)))
            except ValueError:
                continue
    ranges.sort()
    starts: list[int] = []
    ends: list[int] = []
    for low, high in ranges:
        if ends and low <= ends[-1] + 1:
            ends[-1] = max(ends[-1], high)
        else:
            starts.append(low)
            ends.append(high)
    return starts, ends


class Coverage:
    """Which code points the fonts a policy allows can draw."""

    def __init__(self, policy: FontPolicy = BUNDLED_ONLY, folder: Path = BUNDLED_FONTS):
        self.own = set(_bundled_codepoints(str(folder)))
        for name in policy.files:
            self.own |= font_codepoints(str(Path(name).resolve()))
        self.starts, self.ends = _system_ranges(SYSTEM_CONFIG) if policy.system else ([], [])

    def __contains__(self, code: int) -> bool:
        if code in self.own:
            return True
        i = bisect.bisect_right(self.starts, code) - 1
        return i >= 0 and code <= self.ends[i]


@lru_cache(maxsize=16)
def _coverage(policy: FontPolicy, folder: str) -> Coverage:
    return Coverage(policy, Path(folder))


def script_of(char: str) -> str:
    name = unicodedata.name(char, "")
    first = name.split(" ", 1)[0]
    if first in _SCRIPT_WORDS:
        return _SCRIPT_WORDS[first]
    if "EMOJI" in name or 0x1F300 <= ord(char) <= 0x1FAFF:
        return "Emoji"
    if first == "LATIN":
        return "Latin"
    return "symbol"


def missing_by_script(text: str, policy: FontPolicy = BUNDLED_ONLY,
                      folder: Path = BUNDLED_FONTS) -> dict[str, Counter]:
    """Characters of `text` no allowed font can draw, counted, grouped by script."""
    coverage = _coverage(policy, str(folder))
    found: dict[str, Counter] = {}
    for char, count in Counter(text).items():
        if char.isspace() or ord(char) < 0x20 or ord(char) in coverage:
            continue
        if unicodedata.category(char) in ("Cf", "Mn") and ord(char) in (0x200B, 0x200C,
                                                                         0x200D, 0xFE0F):
            continue  # zero-width joiners and variation selectors draw nothing anyway
        found.setdefault(script_of(char), Counter())[char] = count
    return found


def describe_missing(script: str, counter: Counter, system: bool) -> str:
    """One message for a script: how many characters, which, and how to get a font."""
    total = sum(counter.values())
    distinct = len(counter)
    chars = sorted(counter, key=lambda c: (-counter[c], c))
    sample = ", ".join(f"{c} U+{ord(c):04X}" for c in chars[:4]) + (", …" if distinct > 4
                                                                    else "")
    plural = "s" if total != 1 else ""
    verb = "have" if total != 1 else "has"
    if script in ("symbol", "Latin"):
        what = f"{total} character{plural} ({sample})"
    else:
        what = f"{total} {script} character{plural} " + \
            (f"({distinct} different, e.g. {sample})" if distinct > 1 else f"({sample})")
    return f"{what} {verb} no font and would print as empty boxes: {font_fix(script, system)}"


def font_fix(script: str, system: bool | None) -> str:
    """How to get a font for `script`'s characters; `system`: whether the project allows
    system fonts (None: not known here, a render worker's summary)."""
    if script in ("symbol", "Latin"):
        return "use other characters or add a font that has them to fonts/ (listed under " \
               "fonts: in printshop.yaml)"
    package = PACKAGES.get(script, "fonts-noto-core")
    install = {True: f"install {package}",
               False: f"install {package} and allow system_fonts: true in printshop.yaml",
               None: f"install {package} (with system_fonts: true in printshop.yaml)"}[system]
    return f"{install}, or add {_article(script)} {script} font to fonts/ and list it " \
           "under fonts: in printshop.yaml"


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


_LANGS = {"Thai": "th", "Hangul": "ko", "Cyrillic": "ru", "Greek": "el", "Arabic": "ar",
          "Hebrew": "he", "Devanagari": "hi", "Lao": "lo", "Khmer": "km"}
# The bundled stacks as the book's CSS names them: body text (serif), headings and tables
# (no generic: fontconfig's default), code.
_STACKS = ("Vollkorn,serif", "Roboto Condensed", "DejaVu Sans Mono,monospace")


def fallback_families(text: str, policy: FontPolicy, language: str = "en",
                      code: str = "") -> list[str]:
    """The families, beyond the bundled ones, that will draw characters of `text` (and of
    `code`, set in the monospaced stack): the project's fonts that cover any of them, then
    what fontconfig picks on this machine for each stack, in the script's language."""
    bundled = _bundled_codepoints(str(BUNDLED_FONTS))

    def beyond(chars: str) -> set[str]:
        return {c for c in set(chars) if ord(c) >= 0x20 and not c.isspace()
                and ord(c) not in bundled}

    wanted, wanted_code = beyond(text), beyond(code)
    families: list[str] = []
    for name in policy.files:
        covered, family = _font_file_info(str(Path(name).resolve()))
        hits = {c for c in wanted | wanted_code if ord(c) in covered}
        if hits and family not in families:
            families.append(family)
        wanted -= hits
        wanted_code -= hits
    if not (wanted or wanted_code) or not policy.system:
        return families
    config = fontconfig_file(policy)
    coverage = _coverage(policy, str(BUNDLED_FONTS))
    for chars, stacks in ((wanted, _STACKS[:2]), (wanted_code, _STACKS[2:])):
        by_script: dict[str, set[str]] = {}
        for char in chars:
            if ord(char) in coverage:
                by_script.setdefault(script_of(char), set()).add(char)
        for script in sorted(by_script):
            lang = _LANGS.get(script)
            if script == "CJK":
                lang = language if language.split("-")[0] in ("ja", "zh", "ko") else "ja"
            sample = sorted(by_script[script])[:8]
            pattern = ":charset=" + " ".join(f"{ord(c):x}" for c in sample) + \
                (f":lang={lang.lower()}" if lang else "")
            for stack in stacks:
                family = _fc_match(stack + pattern, config)
                if family and family not in families and family not in BUNDLED_FAMILIES:
                    families.append(family)
    return families


@lru_cache(maxsize=256)
def _fc_match(pattern: str, config: str) -> str:
    try:
        return subprocess.run(["fc-match", "--format", "%{family[0]}", pattern],
                              capture_output=True, text=True, timeout=30,
                              env={**os.environ, "FONTCONFIG_FILE": config}).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def missing_glyphs(text: str, folder: Path = BUNDLED_FONTS) -> list[str]:
    """Characters of `text` that no bundled font can draw (they would print as boxes)."""
    from printshop import deps

    if deps.active():  # which fonts there are decides what is reported
        deps.record_listing(folder, "tf", recursive=True)
        for path in sorted(Path(folder).rglob("*.[ot]tf")):
            deps.record_file(path)
    covered = _bundled_codepoints(str(folder))
    return sorted({c for c in text if ord(c) not in covered and not c.isspace()
                   and ord(c) >= 0x20})
