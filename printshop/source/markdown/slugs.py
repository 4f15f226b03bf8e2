"""Heading ids as other Markdown tools make them, so links written for them resolve.

GitHub (and most Markdown tools after it): lowercase, drop punctuation, spaces to hyphens,
`-1`, `-2` … for a repeated heading *within one file*. kramdown (Jekyll) differs a little
(leading digits dropped, ASCII only); its slugs are accepted as aliases. printshop's older
ids (ASCII, hyphens collapsed) are aliases too, so existing links keep working.
"""

from __future__ import annotations

import re
import unicodedata


def github_slug(text: str) -> str:
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def kramdown_slug(text: str) -> str:
    text = re.sub(r"^[^a-zA-Z]+", "", text)
    text = re.sub(r"[^a-zA-Z0-9 -]", "", text)
    return text.replace(" ", "-").lower()


def slugify(text: str) -> str:
    """printshop's own ASCII slug (kept as an alias and for product names)."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug or "section"


def aliases(title: str) -> list[str]:
    """Every id another tool (or an older printshop) would have given this heading."""
    out = []
    for slug in (github_slug(title), kramdown_slug(title), slugify(title)):
        if slug and slug not in out:
            out.append(slug)
    return out


class Slugger:
    """GitHub's repeat counting for one file: `intro`, `intro-1`, `intro-2`."""

    def __init__(self):
        self.seen: dict[str, int] = {}

    def slug(self, title: str, chosen: str | None = None) -> str:
        base = chosen or github_slug(title) or "section"
        if chosen:
            self.seen.setdefault(base, 0)
            return base
        if base not in self.seen:
            self.seen[base] = 0
            return base
        while True:
            self.seen[base] += 1
            candidate = f"{base}-{self.seen[base]}"
            if candidate not in self.seen:
                self.seen[candidate] = 0
                return candidate


def unique_id(local: str, used: set[str]) -> str:
    """A book-wide id for a heading whose slug within its own file is `local`."""
    hid, n = local, 1
    while hid in used:
        hid, n = f"{local}-{n}", n + 1
    used.add(hid)
    return hid


def readable_name(stem: str) -> str:
    """`03_arcane-eye` → `Arcane Eye`: a file or folder name as a title."""
    text = re.sub(r"^\d+[\s._-]+", "", stem.strip()) or stem
    text = re.sub(r"[_-]+", " ", text).strip()
    words = [w if any(c.isupper() for c in w) or not w.isalpha() else w.capitalize()
             for w in text.split()]
    return " ".join(words) or stem
