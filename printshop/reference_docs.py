"""The manifest reference and the editors' JSON Schemas, generated from the pydantic schemas
that read the files, so that neither can drift from what printshop accepts:

* docs/manifest-reference.md: every key of printshop.yaml and of every product kind, its
  type, default and what it does (the comment next to the field in its model);
* printshop/data/schemas/*.schema.json: printshop.yaml, tables, decks and sheet layouts,
  for editors that read JSON Schema (yaml-language-server: VS Code's YAML extension,
  Neovim, Helix, JetBrains).

`python -m printshop.reference_docs` writes them; tests/test_reference_docs.py fails when
the committed files are not what this makes.
"""

from __future__ import annotations

import inspect
import io
import json
import re
import tokenize
from pathlib import Path

from pydantic import BaseModel

from printshop.resources import DATA_DIR

SCHEMAS_DIR = DATA_DIR / "schemas"
REFERENCE = Path(__file__).resolve().parent.parent / "docs" / "manifest-reference.md"


# --- what each key does: the comments next to the fields ----------------------------------------
def field_notes(model: type[BaseModel]) -> dict[str, str]:
    """Field → the comment on its line, or the comment lines just above it (a base class's
    first, a subclass's replacing them)."""
    notes: dict[str, str] = {}
    for cls in reversed(model.__mro__):
        if not (isinstance(cls, type) and issubclass(cls, BaseModel)) or \
                cls.__module__.startswith("pydantic") or "model_fields" not in dir(cls):
            continue
        try:
            source = inspect.getsource(cls)
        except (OSError, TypeError):
            continue
        notes.update(_notes_in(source, set(getattr(cls, "__annotations__", {}))))
    return notes


def _notes_in(source: str, fields: set[str]) -> dict[str, str]:
    comments: dict[int, str] = {}
    alone: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.string.lstrip("#").strip()
            if not token.line[:token.start[1]].strip():
                alone.add(token.start[0])
    notes: dict[str, str] = {}
    for number, line in enumerate(source.splitlines(), start=1):
        match = re.match(r"    (\w+)\s*:", line)
        if not match or match[1] not in fields:
            continue
        above: list[str] = []
        n = number - 1
        while n in alone:
            above.insert(0, comments[n])
            n -= 1
        trailing = comments.get(number) if number not in alone else None
        text = " ".join(part for part in above + [trailing] if part)
        if text:
            notes[match[1]] = text
    return notes


# --- the schemas --------------------------------------------------------------------------------
def _with_notes(schema: dict, model: type[BaseModel]) -> dict:
    """`model`'s JSON Schema with each property's note as its description (nested models'
    too), and no pydantic titles (the key says it)."""
    schema = json.loads(json.dumps(schema))
    models = {model.__name__: model}
    for sub in _submodels(model):
        models[sub.__name__] = sub

    def annotate(node: dict, owner: type[BaseModel] | None) -> None:
        node.pop("title", None)
        notes = field_notes(owner) if owner else {}
        for name, prop in (node.get("properties") or {}).items():
            prop.pop("title", None)
            if name in notes and "description" not in prop:
                prop["description"] = notes[name]
    annotate(schema, model)
    for name, definition in (schema.get("$defs") or {}).items():
        annotate(definition, models.get(name))
    return schema


def _submodels(model: type[BaseModel]):
    seen = set()
    todo = [model]
    while todo:
        current = todo.pop()
        for field in current.model_fields.values():
            for sub in _models_in(field.annotation):
                if sub not in seen:
                    seen.add(sub)
                    todo.append(sub)
                    yield sub


def _models_in(annotation):
    import typing

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
    for arg in typing.get_args(annotation):
        yield from _models_in(arg)


def product_kinds() -> dict[str, type[BaseModel]]:
    from printshop.products import PRODUCT_MODULES, product_class

    return {kind: product_class(kind).Options for kind in sorted(PRODUCT_MODULES)}


def manifest_schema() -> dict:
    """printshop.yaml: its keys, and under `products` an entry of any kind (by `kind`)."""
    from printshop.project import Manifest

    schema = _with_notes(Manifest.model_json_schema(), Manifest)
    defs = schema.setdefault("$defs", {})
    choices = []
    for kind, model in product_kinds().items():
        part = _with_notes(model.model_json_schema(ref_template="#/$defs/{model}"), model)
        defs.update(part.pop("$defs", {}))
        name = f"product-{kind}"
        part["description"] = f"A product of kind {kind} (docs/manifest-reference.md)."
        defs[name] = part
        choices.append({"if": {"properties": {"kind": {"const": kind}},
                               "required": ["kind"]},
                        "then": {"$ref": f"#/$defs/{name}"}})
    kinds = list(product_kinds())
    schema["properties"]["products"] = {
        "description": "The products `printshop build` makes, by name (the name of their "
                       "files).",
        "type": "object",
        "additionalProperties": {
            "type": "object", "required": ["kind"],
            "properties": {"kind": {"enum": kinds}},
            "allOf": choices}}
    return _top(schema, "printshop.yaml: a game's manifest")


def file_schemas() -> dict[str, dict]:
    from printshop.source.deck_spec import DeckSpec
    from printshop.source.sheets import SheetLayout
    from printshop.source.tables import TableSpec

    schemas = {"printshop": manifest_schema()}
    for name, model, title in (("table", TableSpec, "tables/ID.yaml: a table"),
                               ("deck", DeckSpec, "decks/ID.yaml: a deck of cards"),
                               ("sheet", SheetLayout, "sheets/ID.yaml: a sheet's layout")):
        schemas[name] = _top(_with_notes(model.model_json_schema(), model), title)
    return schemas


def _top(schema: dict, title: str) -> dict:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title,
            **{k: v for k, v in schema.items() if k != "title"}}


def schema_texts() -> dict[str, str]:
    """File name → its text, as committed."""
    return {f"{name}.schema.json": json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
            for name, schema in file_schemas().items()}


# --- the reference ------------------------------------------------------------------------------
def _type_words(prop: dict, defs: dict) -> str:
    if "$ref" in prop:
        return _type_words(defs[prop["$ref"].split("/")[-1]], defs)
    if "anyOf" in prop:
        kinds = [_type_words(p, defs) for p in prop["anyOf"] if p.get("type") != "null"]
        return " or ".join(dict.fromkeys(kinds))
    if "const" in prop:
        return f"`{prop['const']}`"
    if "enum" in prop:
        return "one of " + ", ".join(f"`{v}`" for v in prop["enum"])
    kind = prop.get("type")
    bounds = ""
    if "minimum" in prop or "maximum" in prop:
        low, high = prop.get("minimum"), prop.get("maximum")
        bounds = (f" from {low} to {high:,}" if low is not None and high is not None
                  else f" ≥ {low}" if low is not None else f" ≤ {high}")
    if kind == "integer":
        return "whole number" + bounds
    if kind == "number":
        return "number" + bounds
    if kind == "boolean":
        return "`true` or `false`"
    if kind == "string":
        return "text" + (" (a pattern)" if "pattern" in prop else "")
    if kind == "array":
        items = prop.get("items", {})
        if "enum" in items:
            return "list, each one of " + ", ".join(f"`{v}`" for v in items["enum"])
        return "list of " + _plural(_type_words(items, defs))
    if kind == "object":
        if "properties" in prop:
            return "mapping (" + ", ".join(f"`{k}`" for k in prop["properties"]) + ")"
        values = prop.get("additionalProperties")
        if isinstance(values, dict) and values:
            return "mapping of names to " + _plural(_type_words(values, defs))
        return "mapping"
    return "any"


def _plural(words: str) -> str:
    return {"text": "texts", "whole number": "whole numbers", "text (a pattern)": "names",
            "mapping": "mappings"}.get(words, words)


def _default(prop: dict, required: bool) -> str:
    if required:
        return "**required**"
    if "default" not in prop:
        return ""
    value = prop["default"]
    if value is None:
        return "—"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, list):
        return "`[" + ", ".join(str(v) for v in value) + "]`" if value else "`[]`"
    if isinstance(value, dict):
        return "`{" + ", ".join(f"{k}: {v}" for k, v in value.items()) + "}`" if value \
            else "`{}`"
    return f"`{value}`"


def _table(schema: dict, defs: dict, skip=()) -> list[str]:
    required = set(schema.get("required", []))
    lines = ["| Key | Value | Default | What it does |", "|---|---|---|---|"]
    for key, prop in schema.get("properties", {}).items():
        if key in skip:
            continue
        note = prop.get("description", "").replace("|", "\\|")
        lines.append(f"| `{key}` | {_type_words(prop, defs)} | "
                     f"{_default(prop, key in required)} | {note} |")
    return lines


def reference_text() -> str:
    schema = manifest_schema()
    defs = schema["$defs"]
    out = ["<!-- Generated by `python -m printshop.reference_docs` from the schemas that read "
           "the files; do not edit: tests/test_reference_docs.py fails when it is stale. -->",
           "", "# printshop.yaml: every key", "",
           "The manifest, `printshop.yaml`, names the game and the products `printshop build` "
           "makes. Each product is an entry under `products:`: its name (the name of its "
           "files) and a `kind`. A key that is not listed here is an error (with a \"did you "
           "mean\"); values of a closed set (papers, layouts, kinds) are read whatever their "
           "case. Editors can check the file as you type: see "
           "[the command line](command-line.md#editors-check-the-yaml-as-you-type).", "",
           "## The manifest's own keys", ""]
    out += _table(schema, defs, skip=("products",))
    out += ["", "`products`: a mapping of product names to entries, each with one of the "
            "kinds below.", ""]
    for kind in product_kinds():
        part = defs[f"product-{kind}"]
        out += [f"## kind: {kind}", ""]
        doc = _kind_summary(kind)
        if doc:
            out += [doc, ""]
        out += _table(part, defs, skip=("kind",)) + [""]
    return "\n".join(out).rstrip() + "\n"


def _kind_summary(kind: str) -> str:
    """The first paragraph of the kind's module docstring: what the product is."""
    import importlib

    from printshop.products import PRODUCT_MODULES

    doc = importlib.import_module(PRODUCT_MODULES[kind]).__doc__ or ""
    first = doc.strip().split("\n\n")[0]
    return " ".join(first.split())


def write_all() -> list[Path]:
    SCHEMAS_DIR.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in schema_texts().items():
        (SCHEMAS_DIR / name).write_text(text, encoding="utf-8")
        written.append(SCHEMAS_DIR / name)
    REFERENCE.write_text(reference_text(), encoding="utf-8")
    written.append(REFERENCE)
    return written


if __name__ == "__main__":
    for path in write_all():
        print(f"wrote {path}")
