"""Who made each picture: a `credits.yaml` next to the images (and icons) it names.

```yaml
# art/credits.yaml
"*": {licence: CC0 1.0}                 # for every file of the folder, unless it says more
cover.svg:
  title: The Hammer and the Gate
  author: the printshop project
  licence: MIT
  source: drawn for printshop
orc.png: {author: Jane Doe, licence: CC BY 4.0, source: "https://example.org/orc"}
```

Products that print a picture list it with its author and licence (the book's colophon,
a sheet's or a deck's credits line); a picture its folder's file does not credit is a
located warning, so nothing is printed without its credit by accident.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import Field

from printshop.errors import PrintshopError
from printshop.source.schema import Strict, validate
from printshop.source.yamlfile import load_yaml, read_text

CREDITS_FILE = "credits.yaml"


class CreditSpec(Strict):
    title: str | None = None
    author: str | None = Field(default=None, min_length=1)
    licence: str | None = Field(default=None, min_length=1)
    licence_url: str | None = None
    source: str | None = None


@dataclass(frozen=True)
class Credit:
    file: str            # the picture's path, as a reader of the project would say it
    title: str | None
    author: str | None
    licence: str | None
    licence_url: str | None
    source: str | None

    @property
    def complete(self) -> bool:
        return bool(self.author and self.licence)

    def line(self) -> str:
        """One line for a credits list: "Torch: Delapouite, CC BY 3.0 (game-icons.net)"."""
        text = self.title or Path(self.file).stem.replace("-", " ").replace("_", " ")
        text = text[:1].upper() + text[1:]
        who = ", ".join(part for part in (self.author, self.licence) if part)
        return f"{text}: {who}" + (f" ({self.source})" if self.source else "")


# folder → (the file's text, its entries): a file read again with the same text is reused
_read: dict[str, tuple[str, dict[str, CreditSpec]]] = {}


def folder_credits(folder: Path) -> dict[str, CreditSpec]:
    """The entries of `folder/credits.yaml` ({} if there is none); errors name its lines."""
    path = folder / CREDITS_FILE
    if not path.is_file():
        from printshop.deps import record_missing

        record_missing(path)
        return {}
    text = read_text(path)
    known = _read.get(str(path))
    if known is not None and known[0] == text:
        return known[1]
    doc = load_yaml(path, text=text)
    if not isinstance(doc.data, dict):
        raise PrintshopError.at(path, "a credits file maps each picture's file name to its "
                                "author, licence, title and source", 1)
    entries = {}
    for name, value in doc.data.items():
        entries[name] = validate(doc, CreditSpec, data=value or {}, loc=(name,))
    _read[str(path)] = (text, entries)
    return entries


def credit_for(path: Path, shown: str) -> Credit:
    """The credit of the picture at `path` (`shown`: its name in messages and lists)."""
    entries = folder_credits(path.parent)
    merged: dict = {}
    for key in ("*", path.name):
        if key in entries:
            merged.update(entries[key].model_dump(exclude_none=True))
    return Credit(file=shown, title=merged.get("title"), author=merged.get("author"),
                  licence=merged.get("licence"), licence_url=merged.get("licence_url"),
                  source=merged.get("source"))


def missing_credit_message(credit: Credit, folder_shown: str) -> str:
    lacking = " and ".join(part for part, value in (("author", credit.author),
                                                    ("licence", credit.licence))
                           if not value)
    return (f"{credit.file}: no {lacking} for this picture in {folder_shown}/{CREDITS_FILE} "
            f"(add '{Path(credit.file).name}: {{author: …, licence: …}}'; the credits print "
            "with the product)")
