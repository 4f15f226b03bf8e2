"""Problems as people and editors read them: one format everywhere (build, check, roll, kit,
serve's terminal and its browser overlay):

    tables/weapons.yaml:6:4: error: this item is indented 3 spaces; the items above it 2
      6 |    - roll: 4-6
        |    ^

The first line is what editors' problem matchers read (`file:line:col: error|warning:
message`, the column left out when it is not known); an error in a text file is followed by
its source line and a caret under the column. Colour only on a terminal, never with
NO_COLOR (https://no-color.org) or when the output is piped.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from printshop.errors import Problem, display_path, unique_sorted

ERROR, WARNING = "error", "warning"
# files whose lines are worth showing: what a user writes
TEXT_SUFFIXES = {".yaml", ".yml", ".md", ".markdown", ".j2", ".html", ".htm", ".css", ".toml",
                 ".txt", ".json"}
MAX_SHOWN = 110     # a longer source line is cut around the caret
# the regular expression an editor's problem matcher needs (documented in docs/)
MATCHER = r"^(.+?):(\d+)(?::(\d+))?: (error|warning): (.*)$"

_STYLES = {"bold": "1", "error": "1;31", "warning": "1;35", "gutter": "34", "caret": "1;32",
           "note": "36"}


def use_colour(stream) -> bool:
    """Colour on a terminal; none when piped, with NO_COLOR, or on a dumb terminal.
    FORCE_COLOR (as many tools read it) turns it on anyway."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return interactive(stream)


def interactive(stream) -> bool:
    """A terminal a person watches (not a pipe, a file or a dumb terminal)."""
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _paint(text: str, style: str, colour: bool) -> str:
    return f"\x1b[{_STYLES[style]}m{text}\x1b[0m" if colour and text else text


def headline(problem: Problem, severity: str = ERROR, colour: bool = False) -> str:
    """`file:line:col: error: message`."""
    where = problem.path
    if problem.line is not None:
        where += f":{problem.line}"
        if problem.column is not None:
            where += f":{problem.column}"
    return (f"{_paint(where + ':', 'bold', colour)} {_paint(severity + ':', severity, colour)} "
            f"{problem.message}")


def render(problem: Problem, severity: str = ERROR, colour: bool = False,
           excerpt: bool | None = None, lines=None) -> str:
    """The headline, and for an error in a text file its source line with a caret.
    `lines(path) -> list[str] | None` reads a file's lines (cached by the caller)."""
    text = headline(problem, severity, colour)
    if excerpt is None:
        excerpt = severity == ERROR
    if excerpt and problem.line is not None:
        shown = source_excerpt(problem, colour, lines or read_lines)
        if shown:
            text += "\n" + shown
    return text


def render_all(errors=(), warnings=(), colour: bool = False) -> list[str]:
    """Errors and warnings together, each once, sorted by file, line and column (a warning
    before an error at the same place: it is usually the cause)."""
    cache: dict[str, list[str] | None] = {}

    def lines(path: str):
        if path not in cache:
            cache[path] = read_lines(path)
        return cache[path]

    # each file as seen from here (some are made with the absolute path): sorted and said
    # once however they were made
    errors, warnings = [_shown(p) for p in errors], [_shown(p) for p in warnings]
    items = [(p, ERROR) for p in unique_sorted(errors)]
    items += [(p, WARNING) for p in unique_sorted(warnings) if p not in set(errors)]
    items.sort(key=lambda item: (item[0].path, item[0].line or 0, item[0].column or 0,
                                 item[1] == ERROR))
    return [render(problem, severity, colour, lines=lines) for problem, severity in items]


def _shown(problem: Problem) -> Problem:
    shown = display_path(problem.path)
    return problem if shown == problem.path else replace(problem, path=shown)


def read_lines(path: str) -> list[str] | None:
    file = Path(path)
    if file.suffix.lower() not in TEXT_SUFFIXES:
        return None
    try:
        if not file.is_file() or file.stat().st_size > 4_000_000:
            return None
        return file.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None


def source_excerpt(problem: Problem, colour: bool = False, lines=read_lines) -> str | None:
    """`  6 |    - roll: 4-6` and, when the column is known, a caret under it."""
    source = lines(problem.path)
    if problem.line is None or not source or not 1 <= problem.line <= len(source):
        return None
    raw = source[problem.line - 1]
    if not raw.strip():
        return None
    column = problem.column if problem.column and problem.column <= len(raw) + 1 else None
    # tabs shown as four spaces, the caret moved to match
    shown = raw.replace("\t", "    ")
    caret_at = None
    if column is not None:
        caret_at = len(raw[: column - 1].replace("\t", "    "))
    if len(shown) > MAX_SHOWN:
        start = 0 if caret_at is None else max(0, caret_at - MAX_SHOWN // 2)
        cut = shown[start: start + MAX_SHOWN]
        if caret_at is not None:
            caret_at -= start - (1 if start else 0)
        shown = ("…" if start else "") + cut + ("…" if start + MAX_SHOWN < len(shown) else "")
    number = str(problem.line)
    gutter = " " * len(number)
    out = [f"  {_paint(number + ' |', 'gutter', colour)} {shown}"]
    if caret_at is not None:
        out.append(f"  {_paint(gutter + ' |', 'gutter', colour)} "
                   f"{' ' * caret_at}{_paint('^', 'caret', colour)}")
    return "\n".join(out)


def summary(errors: int, warnings: int) -> str:
    parts = [f"{errors} error{'s' if errors != 1 else ''}"] if errors else []
    if warnings:
        parts.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
    return ", ".join(parts) or "no problems"
