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

MkDocs (Python-Markdown's meta-data) also takes `key: value` lines at the very top with no
fences, up to the first blank line: the 5th Edition SRD opens each page with `description:
…`, which printed as the chapter's first paragraph. Those are read as front matter when the
first line names one of the keys MkDocs and its themes use (`title`, `description`,
`summary`, `authors`, `date`, `template`, `hide`, `tags`, `status`, `search`, `keywords`, in
lower case, as written for it), so that prose opening with "Note: …" stays prose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from printshop.errors import PrintshopError, Problem

_OPEN = {"---": "---", "+++": "+++"}
ORDER_KEYS = ("order", "nav_order", "weight")
URL_KEYS = ("permalink", "redirect_from", "url", "aliases")
_MKDOCS_META = re.compile(r"^(title|description|summary|authors?|date|template|hide|tags|"
                          r"status|search|keywords):(\s|$)")
_META_LINE = re.compile(r"^([A-Za-z0-9_-]+):\s*(.*)$")


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
    if fence not in _OPEN and _MKDOCS_META.match(fence):
        return _mkdocs_meta(lines)
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


def _mkdocs_meta(lines: list[str]) -> tuple[FrontMatter, str]:
    """Python-Markdown's meta-data: `key: value` lines up to the first blank line, a line
    indented four spaces or more going on with the key before it (a list, in MkDocs)."""
    data: dict = {}
    key = None
    end = 0     # the first line that is not meta-data
    while end < len(lines) and lines[end].strip():
        line = lines[end]
        match = _META_LINE.match(line)
        if match and not line.startswith(" "):
            key = match[1].lower()
            data[key] = match[2].strip()
        elif key is not None and line.startswith("    "):
            previous = data[key]
            data[key] = (previous if isinstance(previous, list) else
                         [previous] if previous else []) + [line.strip()]
        else:
            break    # not meta-data after all: the text starts here
        end += 1
    return FrontMatter(data), "\n" * end + "\n".join(lines[end:])


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
