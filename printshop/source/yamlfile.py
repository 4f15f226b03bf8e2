"""Strict YAML: the small, safe subset printshop reads, with every position kept.

PyYAML alone accepts duplicate keys, expands aliases without limit, builds Python objects
from tags and turns `NO` into False. Here the pure-Python composer builds a node tree (no
constructor runs), and we convert it ourselves:

* anchors, aliases and explicit tags are refused (no "billion laughs", no `!!python/...`);
* nesting depth, node count and file size are bounded (no crash on 100,000-deep input);
* every scalar stays a string (`NO`, `010`, `12:30` keep their text); the schema that reads
  the file decides what is a number. Only an empty value, `~` and `null` mean "nothing";
* duplicate keys are errors naming both lines; all problems of a file come out together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.events import AliasEvent, MappingStartEvent, ScalarEvent, SequenceStartEvent
from yaml.nodes import MappingNode, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import BaseResolver
from yaml.scanner import Scanner

from printshop.deps import record_file
from printshop.errors import PrintshopError, Problems

MAX_BYTES = 4_000_000
MAX_DEPTH = 50
MAX_NODES = 200_000
NULLS = {"", "~", "null", "Null", "NULL"}

Loc = tuple  # a path into the data: ("rows", 3, "bonus")


@dataclass(frozen=True)
class Pos:
    line: int
    column: int


@dataclass
class YamlDoc:
    """Plain data (dict / list / str / None) plus where each piece came from."""

    path: Path
    data: Any
    value_pos: dict[Loc, Pos] = field(default_factory=dict)
    key_pos: dict[Loc, Pos] = field(default_factory=dict)
    problems: Problems = field(default_factory=lambda: Problems())

    def pos(self, loc: Loc, key: bool = False) -> Pos:
        """Position of the value at `loc` (or of its key), else of the nearest ancestor."""
        loc = tuple(loc)
        if key and loc in self.key_pos:
            return self.key_pos[loc]
        while loc:
            if loc in self.value_pos:
                return self.value_pos[loc]
            loc = loc[:-1]
        return self.value_pos.get((), Pos(1, 1))

    def where(self, loc: Loc, key: bool = False) -> tuple:
        """(file, line, column) of the value at `loc`, for a problem about it."""
        pos = self.pos(loc, key)
        return (self.path, pos.line, pos.column)


class _RefusedConstruct(Exception):
    def __init__(self, message: str, mark):
        super().__init__(message)
        self.message = message
        self.mark = mark


class _Refusals:
    """Composes nodes only; refuses what printshop never needs."""

    _depth = 0
    _nodes = 0

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, AliasEvent):
            raise _RefusedConstruct("aliases (*name) are not allowed", event.start_mark)
        if isinstance(event, (ScalarEvent, SequenceStartEvent, MappingStartEvent)):
            if event.anchor is not None:
                raise _RefusedConstruct(
                    f"anchors (&{event.anchor}) are not allowed: write the value out",
                    event.start_mark)
            if event.tag is not None and event.tag != "!":
                raise _RefusedConstruct(f"tags ({event.tag}) are not allowed", event.start_mark)
        self._nodes += 1
        if self._nodes > MAX_NODES:
            raise _RefusedConstruct(f"too many values (more than {MAX_NODES})", event.start_mark)
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise _RefusedConstruct(f"nesting deeper than {MAX_DEPTH} levels", event.start_mark)
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class _StrictComposer(_Refusals, Reader, Scanner, Parser, Composer, BaseResolver):
    """PyYAML's own scanner and parser, in Python: the one whose error messages printshop
    reports (the same on every machine)."""

    def __init__(self, text: str):
        Reader.__init__(self, text)
        Scanner.__init__(self)
        Parser.__init__(self)
        Composer.__init__(self)
        BaseResolver.__init__(self)


try:
    from yaml.cyaml import CParser
except ImportError:   # PyYAML built without libyaml
    CParser = None

if CParser is not None:
    class _FastComposer(_Refusals, Composer, CParser, BaseResolver):
        """libyaml's scanner and parser (C) under the same composer and refusals: the same
        nodes and positions, several times faster (a project's tables are read by every
        command). A document it finds a problem in is read again by `_StrictComposer`, so
        the message is always PyYAML's."""

        def __init__(self, text: str):
            CParser.__init__(self, text)
            Composer.__init__(self)
            BaseResolver.__init__(self)


def _compose(text: str):
    if CParser is not None:
        try:
            return _FastComposer(text).get_single_node()
        except Exception:   # noqa: BLE001 - any problem: the strict reader says what it is
            pass
    return _StrictComposer(text).get_single_node()


def decode_text(raw: bytes, path) -> str:
    """UTF-8 (a BOM is accepted); a bad byte is reported with its offset and line."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise PrintshopError.at(
            path, f"not valid UTF-8: byte 0x{raw[exc.start]:02x} at offset {exc.start}"
                  " (save the file as UTF-8)", line) from None


def read_text(path: Path, limit: int = MAX_BYTES) -> str:
    try:
        with open(path, "rb") as handle:
            raw = handle.read(limit + 1)
    except FileNotFoundError:
        raise PrintshopError.at(path, "file not found") from None
    except IsADirectoryError:
        raise PrintshopError.at(path, "is a directory, expected a file") from None
    except OSError as exc:
        raise PrintshopError.at(path, f"cannot read: {exc.strerror}") from None
    if len(raw) > limit:
        raise PrintshopError.at(path, f"file is larger than {limit // 1_000_000} MB")
    record_file(path, raw)
    return decode_text(raw, path)


def load_yaml(path: Path, text: str | None = None, keep_going: bool = False) -> YamlDoc:
    """Read one YAML document strictly. Raises PrintshopError with every problem found.

    With `keep_going`, structural problems that still leave usable data (duplicate keys)
    are kept in `doc.problems` so the schema check can report them together with its own.
    """
    path = Path(path)
    if text is None:
        text = read_text(path)
    if not text.strip():
        raise PrintshopError.at(path, "file is empty", 1)
    try:
        node = _compose(text)
    except _RefusedConstruct as exc:
        raise PrintshopError.at(path, exc.message, exc.mark.line + 1, exc.mark.column + 1) \
            from None
    except yaml.MarkedYAMLError as exc:
        from printshop.source.yaml_hints import explain

        line, column, message = explain(text, exc)   # in plain words where it can
        raise PrintshopError.at(path, message, line, column) from None
    except yaml.reader.ReaderError as exc:
        line = text[: exc.position].count("\n") + 1
        raise PrintshopError.at(path, f"character U+{exc.character:04X} is not allowed in YAML",
                                line) from None
    except yaml.YAMLError as exc:
        raise PrintshopError.at(path, f"YAML: {exc}") from None
    except RecursionError:
        raise PrintshopError.at(path, "nesting too deep") from None
    if node is None:
        raise PrintshopError.at(path, "file holds no data", 1)
    doc = YamlDoc(path=path, data=None)
    doc.data = _to_data(node, (), doc, doc.problems)
    if not keep_going:
        doc.problems.raise_if_any()
    return doc


def _pos(node) -> Pos:
    return Pos(node.start_mark.line + 1, node.start_mark.column + 1)


def _to_data(node, loc: Loc, doc: YamlDoc, problems: Problems):
    doc.value_pos[loc] = _pos(node)
    if isinstance(node, ScalarNode):
        if not node.style and node.value in NULLS:   # plain: None (PyYAML), "" (libyaml)
            return None
        return node.value
    if isinstance(node, SequenceNode):
        return [_to_data(item, loc + (i,), doc, problems) for i, item in enumerate(node.value)]
    if isinstance(node, MappingNode):
        result: dict[str, Any] = {}
        first_line: dict[str, int] = {}
        for key_node, value_node in node.value:
            pos = _pos(key_node)
            if not isinstance(key_node, ScalarNode):
                problems.add(doc.path, "a key must be a plain word, not a list or mapping",
                             pos.line, pos.column)
                continue
            key = key_node.value
            if key == "<<":
                problems.add(doc.path, "merge keys (<<) are not allowed", pos.line, pos.column)
                continue
            if key in first_line:
                problems.add(doc.path, f"duplicate key '{key}' (first given on line "
                             f"{first_line[key]})", pos.line, pos.column)
                continue
            first_line[key] = pos.line
            doc.key_pos[loc + (key,)] = pos
            result[key] = _to_data(value_node, loc + (key,), doc, problems)
        return result
    raise AssertionError(f"unexpected YAML node {node!r}")
