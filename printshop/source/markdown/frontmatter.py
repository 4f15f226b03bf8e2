"""Front matter: YAML between `---` lines (or Hugo's TOML between `+++`) at the top of a
chapter. Read, never printed. Keys printshop uses:

* `title`: the chapter's title when the file has no `#` heading (and the book's title when
  it is the manuscript's opening file);
* `order`, `nav_order` (Jekyll's just-the-docs), `weight` (Hugo): reading order, before the
  file name;
* `draft: true`: the file is left out;
* `subtitle`, `author`: the book's, from the opening file;
* `permalink`, `redirect_from` (Jekyll), `url`, `aliases` (Hugo): other addresses the site
  serves the page at, so that a link to one of them (`/cairn-srd/`) finds the chapter.

Other keys (layout, parent, tags …) are ignored. Broken front matter is an error at its line.
The front matter is replaced by blank lines, so Markdown line numbers stay the file's own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from printshop.errors import PrintshopError, Problem

_OPEN = {"---": "---", "+++": "+++"}
ORDER_KEYS = ("order", "nav_order", "weight")
URL_KEYS = ("permalink", "redirect_from", "url", "aliases")


@dataclass
class FrontMatter:
    data: dict = field(default_factory=dict)

    @property
    def title(self) -> str | None:
        return _text(self.data.get("title"))

    @property
    def draft(self) -> bool:
        return str(self.data.get("draft", "")).strip().lower() in ("true", "yes", "1")

    @property
    def order(self) -> float | None:
        for key in ORDER_KEYS:
            value = self.data.get(key)
            if value is None or value == "":
                continue
            try:
                return float(str(value).strip())
            except ValueError:
                return None
        return None

    def get(self, key: str) -> str | None:
        return _text(self.data.get(key))

    @property
    def urls(self) -> list[str]:
        """The site addresses the page says it is (also) served at."""
        found: list[str] = []
        for key in URL_KEYS:
            value = self.data.get(key)
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, str) and item.strip() and ":" not in item:
                    found.append(item.strip())
        return found


def _text(value) -> str | None:
    if value is None or isinstance(value, (dict, list)):
        return None
    text = str(value).strip()
    return text or None


def split_front_matter(text: str, path: Path) -> tuple[FrontMatter, str]:
    """(front matter, the text with the front matter blanked out)."""
    lines = text.split("\n")
    fence = lines[0].rstrip() if lines else ""
    if fence not in _OPEN or len(lines) < 2:
        return FrontMatter(), text
    for end in range(1, len(lines)):
        if lines[end].rstrip() in (fence, "..." if fence == "---" else fence):
            break
    else:
        raise PrintshopError.at(path, f"front matter opened with '{fence}' on line 1 is never "
                                f"closed (add a '{fence}' line after it)", 1)
    body = "\n".join(lines[1:end])
    data = _parse(body, fence, path) if body.strip() else {}
    blanked = "\n" * end + "\n" + "\n".join(lines[end + 1:])
    return FrontMatter(data), blanked


def _parse(body: str, fence: str, path: Path) -> dict:
    if fence == "+++":
        import tomllib

        try:
            data = tomllib.loads(body)
        except tomllib.TOMLDecodeError as exc:
            match = re.search(r"at line (\d+)", str(exc))
            line = int(match[1]) + 1 if match else 1
            raise PrintshopError.at(path, f"front matter (TOML): {exc}", line) from None
        return {k: v for k, v in data.items()}
    from printshop.source.yamlfile import load_yaml

    try:
        doc = load_yaml(path, text=body)
    except PrintshopError as exc:
        raise PrintshopError([Problem(p.path, f"front matter: {p.message}",
                                      (p.line + 1) if p.line else 1, p.column)
                              for p in exc.problems]) from None
    if not isinstance(doc.data, dict):
        raise PrintshopError.at(path, "front matter must be 'key: value' lines", 2)
    return doc.data
