"""What a render job says: WeasyPrint's warnings collected while it renders, each turned
into a Problem (with its stylesheet's line and column where WeasyPrint gives one), a flood
of "no font draws this character" summarised to one line per script, and the warnings of
several jobs said once each."""

from __future__ import annotations

import logging
import re

from printshop.errors import Problem

LINE_COL = re.compile(r" at (\d+):(\d+)")


class Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        try:
            self.messages.append(record.getMessage())
        except Exception:
            self.messages.append(str(record.msg))


def capture():
    handler = Collect()
    logger = logging.getLogger("weasyprint")
    logger.addHandler(handler)
    logger.setLevel(logging.WARNING)
    logger.propagate = False
    return handler, logger


def as_problem(origin: str, message: str) -> Problem:
    match = LINE_COL.search(message)
    if match:
        return Problem(origin, message.replace(match[0], ""), int(match[1]), int(match[2]))
    return Problem(origin, message)


NOTDEF = re.compile(r'^\.notdef glyph rendered for Unicode string unsupported by fonts: '
                        r'"(.*)" \(U\+[0-9A-F]+\)$', re.S)


EMPTY_BOXES = re.compile(r"\d+ different (\S+) characters? printed as empty boxes")


def empty_boxes_script(message: str) -> str | None:
    """The script a summary of `summarise_notdef` is about (None: another message)."""
    match = EMPTY_BOXES.match(message)
    return match[1] if match else None


def summarise_notdef(origin: str, messages: list[str]) -> tuple[list[str], list[Problem]]:
    """WeasyPrint warns once per character it cannot draw: a flood. One line per script."""
    from printshop.render.fonts import font_fix, script_of

    kept: list[str] = []
    missing: set[str] = set()
    for message in messages:
        match = NOTDEF.match(message)
        if match:
            missing.update(match[1])
        else:
            kept.append(message)
    by_script: dict[str, set[str]] = {}
    for char in missing:
        by_script.setdefault(script_of(char), set()).add(char)
    def sample(chars) -> str:
        first = sorted(chars)[:4]
        return ", ".join(f"{c} U+{ord(c):04X}" for c in first) + \
            (", …" if len(chars) > 4 else "")

    problems = [Problem(origin, f"{len(chars)} different {script} character"
                        f"{'s' if len(chars) != 1 else ''} printed as empty boxes: no font "
                        f"has them (e.g. {sample(chars)}): {font_fix(script, None)}")
                for script, chars in sorted(by_script.items())]
    return kept, problems


def unique(problems: list[Problem]) -> list[Problem]:
    seen, out = set(), []
    for problem in problems:
        if problem not in seen:
            seen.add(problem)
            out.append(problem)
    return out


def collect_warnings(results) -> list[Problem]:
    return unique([w for r in results for w in r.warnings])
