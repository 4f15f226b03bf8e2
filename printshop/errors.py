"""The one error type users see: problems located in their files."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    path: str
    message: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        where = self.path
        if self.line is not None and SPREADSHEET_PATH.search(where):
            # a spreadsheet's problems are named as a spreadsheet names its cells
            if self.column is not None:
                return f"{where}!{column_letters(self.column)}{self.line}: {self.message}"
            return f"{where}, row {self.line}: {self.message}"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.message}"


# a spreadsheet file, or one sheet of a workbook ("decks/events.xlsx!Cards")
SPREADSHEET_PATH = re.compile(r"\.(csv|tsv|xlsx|xlsm|ods)(![^!/\\]+)?$", re.IGNORECASE)


def column_letters(number: int) -> str:
    """1 → A, 26 → Z, 27 → AA: a spreadsheet's name for its column `number`."""
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


class PrintshopError(Exception):
    """Bad input: one or more problems, each with a file and (where known) a line.

    `warnings` are what the same run found that does not stop a build: reported with the
    errors, so that one run shows everything. An error with no problems means "stop here:
    the cause is reported already" (a table that failed to load, looked up by a product)."""

    def __init__(self, problems: list[Problem] | Problem, warnings=()):
        if isinstance(problems, Problem):
            problems = [problems]
        self.problems = list(problems)
        self.warnings: list[Problem] = list(warnings)
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def at(cls, path, message: str, line: int | None = None, column: int | None = None):
        return cls(Problem(display_path(path), message, line, column))


class Problems:
    """Collects problems so a file's mistakes are reported together, not one per run."""

    def __init__(self):
        self.items: list[Problem] = []

    def add(self, path, message: str, line: int | None = None, column: int | None = None):
        self.items.append(Problem(display_path(path), message, line, column))

    def at(self, where: tuple, message: str):
        """`where`: (path, line, column), as `YamlDoc.where` gives it."""
        self.add(where[0], message, where[1], where[2])

    def extend(self, error: PrintshopError):
        self.items.extend(error.problems)

    def __bool__(self):
        return bool(self.items)

    def raise_if_any(self, warnings=()):
        if self.items:
            raise PrintshopError(unique_sorted(self.items), warnings)


def unique_sorted(problems) -> list[Problem]:
    """Each problem once, by file, line and column: products that share a file (every product
    loads tables/) would otherwise report the same mistake once each."""
    return sorted(dict.fromkeys(problems), key=_order)


def _order(problem: Problem):
    return (problem.path, problem.line or 0, problem.column or 0)


def display_path(path) -> str:
    """Paths relative to the working directory when inside it: shorter and clickable."""
    if isinstance(path, Path) or (isinstance(path, str) and os.sep in path):
        try:
            rel = os.path.relpath(path)
        except ValueError:
            return str(path)
        return str(path) if rel.startswith("..") else rel
    return str(path)
