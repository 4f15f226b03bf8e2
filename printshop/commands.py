"""Commands printshop prints for a person to type: the reprint of a lost sheet on a pack's
or a kit's cover, in `kit.json`.

A command is its words and options (`Command`); it is printed as plain text (`shell()`,
what `kit.json` holds) or as HTML (`html()`) in which each option and its value is one
unbreakable run (`white-space: nowrap`): a command may wrap between options, never inside
one (`--first N --` / `count 1` read as two commands). Spaces stay plain spaces, not
no-break spaces, so the command copied from the PDF still runs in a shell.

Standard library (and markupsafe for `html()`): the builder imports `source_flag` to put what a
product prints of it into the product's cache key, before any product is loaded.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

# as printshop.project (not imported: the builder's fast path loads no project)
_MANIFEST = "printshop.yaml"
_RULES_FOLDER = "rules-src"
# kinds of product that print a command naming the project (builder.py keys them by it)
PRINTS_COMMANDS = frozenset({"pregens", "convention"})


@dataclass(frozen=True)
class Command:
    """`words` (printshop roll characters) and `options`: (flag, value or None) in order."""

    words: tuple[str, ...]
    options: tuple[tuple[str, str | None], ...] = field(default=())

    def with_options(self, *options: tuple[str, str | None]) -> Command:
        return Command(self.words, self.options + tuple(options))

    def _runs(self) -> list[str]:
        """The command's unbreakable runs: its words, then each option with its value."""
        runs = [" ".join(self.words)]
        for flag, value in self.options:
            runs.append(flag if value is None else f"{flag} {_quote(value)}")
        return runs

    def shell(self) -> str:
        return " ".join(self._runs())

    def html(self):
        """Each run in a `span.nowrap` (the stylesheets say `white-space: nowrap` for it;
        the span also carries it inline, so it holds in any stylesheet), as Markup."""
        from markupsafe import Markup, escape

        return Markup(" ").join(
            Markup('<span class="nowrap" style="white-space: nowrap">{}</span>').format(
                escape(run)) for run in self._runs())

    def __str__(self) -> str:
        return self.shell()


def _quote(value: str) -> str:
    """A value as a shell reads it; placeholders the reader replaces (N, n) stay bare."""
    import shlex

    return shlex.quote(value)


def source_flag(root: Path, cwd: Path | None = None) -> str | None:
    """The project folder `root` as `--source` takes it from `cwd` (default: the working
    folder), or None when it is the project printshop finds there by itself (as
    cli/options.locate_project looks: printshop.yaml here or in rules-src/, then in the
    folders above)."""
    here = (cwd or Path.cwd()).resolve()
    root = _rules_folder(Path(root).resolve())
    if root == _found_from(here):
        return None
    try:
        relative = os.path.relpath(root, here)
    except ValueError:   # another drive
        return root.as_posix()
    relative = Path(relative).as_posix()
    return relative if len(relative) <= len(root.as_posix()) else root.as_posix()


def _found_from(here: Path) -> Path:
    for folder in (here, *here.parents):
        for project in (folder, folder / _RULES_FOLDER):
            if (project / _MANIFEST).is_file():
                return project
    return here


def _rules_folder(folder: Path) -> Path:
    """The folder printshop reads for `--source folder` (as project.rules_folder)."""
    nested = folder / _RULES_FOLDER
    if not (folder / _MANIFEST).is_file() and nested.is_dir():
        return nested
    return folder
