"""Declared schemas (pydantic) for YAML files, with errors that point at the file's lines."""

from __future__ import annotations

import difflib
import re
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from printshop.errors import Problems
from printshop.source.yamlfile import Loc, YamlDoc

M = TypeVar("M", bound=BaseModel)


class Strict(BaseModel):
    """Base for every file schema: unknown fields are errors, values never mutate."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True,
                              hide_input_in_errors=True)


def validate(doc: YamlDoc, model: type[M], data: Any = None, loc: Loc = ()) -> M:
    """Validate `doc.data` (or `data` found at `loc` inside it) against `model`. A value
    of a closed set (a Literal: papers, layouts, kinds …) is taken whatever its case."""
    if data is None and not loc:
        data = doc.data
    problems = Problems()
    problems.items.extend(doc.problems.items)
    try:
        result = validate_folding_case(model, data)
    except ValidationError as exc:
        add_validation_problems(problems, doc, exc, model, data, loc)
        problems.raise_if_any()
    problems.raise_if_any()
    return result


def validate_folding_case(model: type[M], data: Any) -> M:
    """`model.model_validate(data)`, with `A4` read as `a4` where a Literal expects it
    (only when exactly one choice matches: nothing is lost)."""
    for _ in range(20):   # one value fixed a round: a file rarely has more
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            fixed = None
            for error in exc.errors(include_url=False):
                choice = _folded_choice(error)
                if choice is not None:
                    fixed = (_data_loc(data, error["loc"]), choice)
                    break
            if fixed is None or not fixed[0]:
                raise
            data = _replaced(data, *fixed)
    return model.model_validate(data)


def _choices(error: Mapping) -> list[str]:
    expected = (error.get("ctx") or {}).get("expected", "")
    return [m.replace("''", "'") for m in re.findall(r"'((?:[^']|'')*)'", str(expected))]


def _folded_choice(error: Mapping) -> str | None:
    got = error.get("input")
    if error["type"] != "literal_error" or not isinstance(got, str):
        return None
    same = [c for c in _choices(error) if c.casefold() == got.strip().casefold()]
    return same[0] if len(same) == 1 and same[0] != got else None


def _replaced(data: Any, loc: Loc, value: Any) -> Any:
    """A copy of `data` with the value at `loc` replaced."""
    if not loc:
        return value
    head, rest = loc[0], loc[1:]
    if isinstance(data, dict):
        return {**data, head: _replaced(data[head], rest, value)}
    copy = list(data)
    copy[head] = _replaced(copy[head], rest, value)
    return copy


def add_validation_problems(problems: Problems, doc: YamlDoc, exc: ValidationError,
                            model: type[BaseModel], data: Any, base: Loc = ()) -> None:
    for error in exc.errors(include_url=False):
        loc = _data_loc(data, error["loc"])
        full = base + loc
        kind = error["type"]
        if kind == "extra_forbidden":
            pos = doc.pos(full, key=True)
            field = loc[-1]
            allowed = _fields_at(model, loc[:-1])
            message = f"unknown field '{field}'"
            close = difflib.get_close_matches(str(field), allowed, n=1)
            if close:
                message += f" (did you mean '{close[0]}'?)"
            elif allowed:
                message += f" (expected one of: {', '.join(sorted(allowed))})"
        else:
            pos = doc.pos(full)
            message = f"{_dotted(full) or 'file'}: {_friendly(error)}"
        problems.add(doc.path, message, pos.line, pos.column)


def _friendly(error: Mapping) -> str:
    kind, got = error["type"], error.get("input")
    shown = f"'{got}'" if isinstance(got, str) else _kind_name(got)
    if kind == "missing":
        return "missing (this field is required)"
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return f"expected a whole number, got {shown}"
    if kind in ("float_parsing", "float_type"):
        return f"expected a number, got {shown}"
    if kind in ("bool_parsing", "bool_type"):
        return f"expected true or false, got {shown}"
    if kind == "string_type":
        return f"expected text, got {shown}"
    if kind in ("list_type", "tuple_type"):
        return f"expected a list, got {shown}"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"expected a mapping (key: value lines), got {shown}"
    if kind == "literal_error":
        hint = ""
        if isinstance(got, str):
            from printshop.source.choices import close_match

            guess = close_match(got, _choices(error))
            hint = f" (did you mean '{guess}'?)" if guess else ""
        return f"{error['msg'][0].lower()}{error['msg'][1:]}, got {shown}{hint}"
    if kind == "too_short" and isinstance(got, (list, dict)) and not got:
        return "must not be empty"
    if kind == "value_error":
        return str(error["ctx"]["error"]) if error.get("ctx") else error["msg"]
    return error["msg"][0].lower() + error["msg"][1:]


def _kind_name(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return repr(value)


def _dotted(loc: Loc) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _data_loc(data: Any, loc: tuple) -> Loc:
    """pydantic adds union/type tags to locations; keep only the parts that walk the data."""
    out: list = []
    node = data
    for part in loc:
        if isinstance(node, dict) and part in node:
            out.append(part)
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            out.append(part)
            node = node[part]
        elif isinstance(node, dict) and isinstance(part, str) and not _looks_like_tag(part):
            out.append(part)  # a missing field: point at its parent, name the field
            node = None
    return tuple(out)


def _looks_like_tag(part: str) -> bool:
    return "[" in part or part in ("str", "int", "float", "bool", "list", "dict", "none")


def _fields_at(model: Any, loc: Loc) -> list[str]:
    """Field names of the model that describes the data at `loc`."""
    tp: Any = model
    for part in loc:
        tp = _unwrap(tp)
        if isinstance(part, int):
            args = typing.get_args(tp)
            tp = args[0] if args else Any
        elif isinstance(tp, type) and issubclass(tp, BaseModel) and part in tp.model_fields:
            tp = tp.model_fields[part].annotation
        else:
            args = typing.get_args(tp)
            tp = args[-1] if args else Any
    tp = _unwrap(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return list(tp.model_fields)
    return []


def _unwrap(tp: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(tp) if a is not type(None)]
        models = [a for a in members if isinstance(a, type) and issubclass(a, BaseModel)]
        return models[0] if models else (members[0] if members else tp)
    if origin is typing.Annotated:
        return typing.get_args(tp)[0]
    return tp
