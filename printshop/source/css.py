"""Checking stylesheets before rendering: what they load and which fonts they ask for.

WeasyPrint says nothing when a `font-family` names a font that does not exist (the text
silently falls back), and it only learns about a bad `url()` while rendering. Both are found
here, with the stylesheet's name and line, by `printshop check` and before every build.
"""

from __future__ import annotations

from pathlib import Path

import tinycss2

from printshop.errors import Problem
from printshop.safepath import UnsafePath, resolve_inside

GENERIC_FAMILIES = {"serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui",
                    "math", "emoji", "fangsong", "ui-serif", "ui-sans-serif", "ui-monospace",
                    "ui-rounded", "inherit", "initial", "unset", "revert", "revert-layer"}


def check_stylesheets(paths: list[Path], roots: list[Path]) -> tuple[list[Problem], list[Problem]]:
    """(errors, warnings) for a product's stylesheets, checked together."""
    errors: list[Problem] = []
    warnings: list[Problem] = []
    declared: set[str] = set()
    used: list[tuple[Path, int, int, str]] = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        rules = tinycss2.parse_stylesheet(text, skip_whitespace=True, skip_comments=True)
        for rule in rules:
            _walk_urls(rule, path, roots, errors)
            if rule.type == "at-rule" and rule.lower_at_keyword == "font-face" and rule.content:
                for declaration in _declarations(rule.content):
                    if declaration.lower_name == "font-family":
                        declared.update(_families(declaration.value))
            elif rule.type in ("qualified-rule", "at-rule") and rule.content:
                for declaration in _declarations(rule.content):
                    if declaration.lower_name == "font-family":
                        families = _families(declaration.value)
                    elif declaration.lower_name == "font":
                        families = _font_shorthand_families(declaration.value)
                    else:
                        continue
                    for family in families:
                        used.append((path, declaration.source_line, declaration.source_column,
                                     family))
    known = {f.casefold() for f in declared} | GENERIC_FAMILIES
    for path, line, column, family in used:
        if family.casefold() not in known and not family.startswith("var("):
            warnings.append(Problem(_shown(path), f"font-family '{family}' is not a bundled "
                                    "font (no @font-face declares it): the text would fall "
                                    "back to another font", line, column))
    return errors, warnings


def _shown(path: Path) -> str:
    from printshop.errors import display_path

    return display_path(path)


def _declarations(content):
    items = tinycss2.parse_blocks_contents(content, skip_whitespace=True, skip_comments=True)
    for item in items:
        if item.type == "declaration":
            yield item
        elif item.type == "qualified-rule" and item.content:  # nested rules in @page etc.
            yield from _declarations(item.content)
        elif item.type == "at-rule" and item.content:  # @top-left { … } margin boxes
            yield from _declarations(item.content)


def _families(tokens) -> list[str]:
    families: list[str] = []
    current: list[str] = []
    for token in list(tokens) + [None]:
        if token is None or (token.type == "literal" and token.value == ","):
            name = " ".join(current).strip()
            if name:
                families.append(name)
            current = []
        elif token.type == "string":
            current.append(token.value)
        elif token.type == "ident":
            current.append(token.value)
        elif token.type == "function":
            current.append(tinycss2.serialize([token]))
        elif token.type == "literal" and token.value == "!":
            break
    return families


def _font_shorthand_families(tokens) -> list[str]:
    tokens = [t for t in tokens if t.type != "whitespace" and t.type != "comment"]
    for index, token in enumerate(tokens):
        if token.type in ("dimension", "percentage") or (
                token.type == "ident" and token.lower_value in (
                    "xx-small", "x-small", "small", "medium", "large", "x-large", "xx-large",
                    "smaller", "larger")):
            rest = tokens[index + 1:]
            if rest and rest[0].type == "literal" and rest[0].value == "/":
                rest = rest[2:]
            return _families(rest)
    return []


def _walk_urls(node, path: Path, roots: list[Path], errors: list[Problem]) -> None:
    """Every url() / @import string in the stylesheet must name a file inside the project."""
    tokens = []
    if node.type == "at-rule":
        tokens = list(node.prelude or []) + list(node.content or [])
        if node.lower_at_keyword == "import":
            for token in node.prelude or []:
                if token.type == "string":
                    _check_url(token.value, token, path, roots, errors)
    elif node.type == "qualified-rule":
        tokens = list(node.prelude or []) + list(node.content or [])
    _check_tokens(tokens, path, roots, errors)


def _check_tokens(tokens, path, roots, errors) -> None:
    for token in tokens:
        if token.type == "url":
            _check_url(token.value, token, path, roots, errors)
        elif token.type == "function" and token.lower_name == "url":
            for arg in token.arguments:
                if arg.type == "string":
                    _check_url(arg.value, token, path, roots, errors)
        elif token.type in ("function", "() block", "[] block", "{} block"):
            inner = token.arguments if token.type == "function" else token.content
            _check_tokens(inner or [], path, roots, errors)


def _check_url(url: str, token, path: Path, roots: list[Path], errors: list[Problem]) -> None:
    target = url.strip()
    if not target or target.startswith(("data:", "#")):
        return
    lowered = target.lower()
    where = (_shown(path), token.source_line, token.source_column)
    if lowered.startswith("file:"):
        from urllib.parse import urlsplit

        target = urlsplit(target).path
        try:
            resolve_inside(target, roots, allow_absolute=True)
        except UnsafePath as exc:
            errors.append(Problem(where[0], f"url({url}): {exc}", where[1], where[2]))
        return
    if ":" in lowered.split("/")[0] or lowered.startswith("//"):
        errors.append(Problem(where[0], f"url({url}): only files inside the project can be "
                              "used (no network access)", where[1], where[2]))
        return
    try:
        resolve_inside(target, roots, base=path.parent)
    except UnsafePath as exc:
        errors.append(Problem(where[0], f"url({url}): {exc}", where[1], where[2]))
