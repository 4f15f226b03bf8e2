"""YAML syntax errors in plain words.

PyYAML says `while parsing a block collection expected <block end>, but found '<block
sequence start>'` for one space too many. What the author needs is where, and what is wrong
with the line in front of them: "this item is indented 3 spaces; the items above it 2". The
mistakes people make by hand (indentation, a tab, a quote never closed, a colon inside a
value, a line with no colon, a list never closed) are recognised from PyYAML's error and the
text; anything else keeps PyYAML's words, in one sentence.
"""

from __future__ import annotations

import re

import yaml


def explain(text: str, exc: yaml.MarkedYAMLError) -> tuple[int | None, int | None, str]:
    """(line, column, message), both 1-based, for a PyYAML syntax error in `text`."""
    lines = text.splitlines()
    mark = exc.problem_mark or exc.context_mark
    context = exc.context_mark
    line = mark.line + 1 if mark else None
    column = mark.column + 1 if mark else None
    problem = exc.problem or ""
    where = exc.context or ""
    try:
        hint = _hint(lines, problem, where, mark, context)
    except (IndexError, ValueError):   # a mark past the text: PyYAML's words
        hint = None
    if hint is not None:
        return hint
    words = " ".join(part for part in (where, problem) if part)
    return line, column, f"YAML syntax: {words}"


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _content_indent(line: str) -> int:
    """Where a line's keys start: `  - roll: 1` → 4 (the key after the dash)."""
    stripped = line.lstrip(" ")
    indent = _indent(line)
    while stripped.startswith("- ") or stripped == "-":
        stripped = stripped[1:].lstrip(" ")
        indent = len(line) - len(stripped)
    return indent


def _previous(lines: list[str], index: int) -> int | None:
    """The index of the nearest line above `index` that holds something."""
    for i in range(index - 1, -1, -1):
        stripped = lines[i].strip()
        if stripped and not stripped.startswith("#"):
            return i
    return None


def _spaces(n: int) -> str:
    return f"{n} space{'s' if n != 1 else ''}"


def _hint(lines, problem, where, mark, context):
    line = mark.line
    text = lines[line] if line < len(lines) else ""

    if "'\\t'" in problem:   # a tab where YAML expects spaces
        tab = text.find("\t")
        return (line + 1, (tab if tab >= 0 else mark.column) + 1,
                "a tab character: YAML indents with spaces only (replace the tab with spaces; "
                "editors can be set to insert spaces)")

    if "quoted scalar" in where and context is not None:
        opened = lines[context.line]
        quote = opened[context.column] if context.column < len(opened) else '"'
        return (context.line + 1, context.column + 1,
                f"this quote ({quote}) is never closed: end the value with {quote} on the "
                "same line")

    if "<stream end>" in problem and "flow" in where:   # the file ends inside [ or {
        opened = _unclosed_bracket(lines)
        if opened is not None:
            at_line, at_column, bracket = opened
            closing, what = ("]", "list") if bracket == "[" else ("}", "mapping")
            return (at_line + 1, at_column + 1, f"this {bracket} is never closed: the file ends "
                    f"before its {closing} (end the {what} with {closing} on the same line)")

    if "flow sequence" in where or "flow mapping" in where:
        bracket, closing, what = (("[", "]", "list") if "sequence" in where
                                  else ("{", "}", "mapping"))
        if context is not None and context.line != line:
            return (context.line + 1, context.column + 1,
                    f"this {bracket} is never closed: end the {what} with {closing} on the same "
                    f"line (line {line + 1} is read as part of it)")
        return (line + 1, mark.column + 1,
                f"a ',' or '{closing}' is missing before this (inside {bracket} … {closing}, "
                "separate the values with commas; quote a value that holds ':' or ',')")

    if "cannot start any token" in problem:
        char = re.search(r"'(.+?)'", problem)
        shown = char[1] if char else text[mark.column:mark.column + 1]
        return (line + 1, mark.column + 1,
                f"a value cannot start with '{shown}': put the value in quotes")

    if "could not find expected ':'" in problem and context is not None:
        return (context.line + 1, context.column + 1,
                "this line has no ':' after its key: write 'key: value' (or start a list item "
                "with '- ')")

    if "mapping values are not allowed" in problem:
        before = text[:mark.column]
        if re.search(r":(\s|$)", before.lstrip(" -")):
            return (line + 1, mark.column + 1,
                    "a second ':' in this line: put the value in quotes (title: \"Note: this\")")
        return _indentation(lines, line, mark.column + 1)

    if "expected <block end>" in problem:
        found = re.search(r"found '(.+?)'", problem)
        found = found[1] if found else ""
        if found == "<scalar>":   # text after a quoted value: `title: "Hello" world`
            before = text[:mark.column].rstrip()
            if before.endswith(("'", '"')):
                return (line + 1, mark.column + 1,
                        "text after the closing quote: put the whole value in quotes")
        if "collection" in where and context is not None:
            items = _indent(lines[context.line])
            here = _indent(text)
            is_item = text.lstrip(" ").startswith("-")
            if is_item and here != items:
                return (line + 1, here + 1, f"this item is indented {_spaces(here)}; the items "
                        f"above it {items}")
            if not is_item and here == items:
                return (line + 1, here + 1,
                        "this line is not a list item but is indented like the items above it "
                        f"({_spaces(items)}): start it with '- ', or indent it under the item "
                        "above")
        return _indentation(lines, line, None)
    return None


def _unclosed_bracket(lines):
    """(line, column, bracket) of the last [ or { never closed (quotes and comments
    skipped), or None."""
    stack = []
    for number, line in enumerate(lines):
        quote = None
        for column, char in enumerate(line):
            if quote:
                if char == quote:
                    quote = None
            elif char in "'\"" and (column == 0 or line[column - 1] in " [{,:"):
                quote = char
            elif char == "#" and (column == 0 or line[column - 1] == " "):
                break
            elif char in "[{":
                stack.append((number, column, char))
            elif char in "]}" and stack:
                stack.pop()
    return stack[-1] if stack else None


def _indentation(lines, index: int, column):
    """A line indented unlike the lines around it."""
    text = lines[index]
    here = _indent(text)
    above = _previous(lines, index)
    if above is None:
        return (index + 1, here + 1, f"this line is indented {_spaces(here)}, but it is the "
                "first line: start it at the left edge")
    expected = _content_indent(lines[above])
    if here in (expected, _indent(lines[above])):
        return None    # lined up with the line above: something else is wrong
    why = ""
    if here > expected and re.match(r"\s*(- )*[^\s#][^:]*:\s+[^\s#]", lines[above]):
        why = " (it has its value already: what is under a key replaces a value after it)"
    return (index + 1, here + 1,
            f"this line is indented {_spaces(here)}; the line above it {expected}{why}")
