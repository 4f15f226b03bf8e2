"""Data printshop ships in `printshop/data/` that a project may extend: a file of the same
name beside the project's `printshop.yaml` adds entries, or redefines one whole. The palette
(`palette.yaml`), the print profiles (`print-profiles.yaml`) and the card sizes
(`card-sizes.yaml`) all load this one way; each says how to read one of its files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Generic, TypeVar

from printshop.resources import DATA_DIR

Entry = TypeVar("Entry")


@dataclass(frozen=True)
class BuiltInData(Generic[Entry]):
    file_name: str                                    # in printshop/data/ and the project
    read: Callable[[Path], dict[str, Entry]]          # one file's entries, by name
    what: str = "entry"                               # for messages: "print profile"
    listed: str = "entries"                           # "profiles: home, screen …"

    @property
    def builtin(self) -> Path:
        return DATA_DIR / self.file_name

    def load(self, project_root: Path | None = None) -> dict[str, Entry]:
        """printshop's entries, then the project's over them (added, or redefined)."""
        entries = self.read(self.builtin)
        own = project_root / self.file_name if project_root is not None else None
        if own is not None and own.is_file():
            entries.update(self.read(own))
        return entries

    def unknown(self, name: str, entries: dict[str, Entry]) -> str:
        """The message for a name that is none of `entries`, with the closest one."""
        from printshop.source.choices import close_match

        close = close_match(name, entries)
        hint = f" (did you mean '{close}'?)" if close else ""
        return (f"unknown {self.what} '{name}'{hint}; {self.listed}: {', '.join(entries)} "
                f"(a project adds its own in {self.file_name})")
