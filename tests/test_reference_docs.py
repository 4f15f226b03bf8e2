"""The manifest reference and the JSON Schemas are generated from the schemas that read the
files: the committed ones must be what the generator makes now, every key must say what it
does, and the schemas must accept the real files and refuse what printshop refuses."""

from __future__ import annotations

import json

import jsonschema
import pytest

from conftest import REPO, RULES_SRC
from printshop import reference_docs
from printshop.resources import DATA_DIR

REGENERATE = "run `python -m printshop.reference_docs` and commit the result"


def test_the_committed_reference_is_up_to_date():
    committed = (REPO / "docs" / "manifest-reference.md").read_text(encoding="utf-8")
    assert committed == reference_docs.reference_text(), REGENERATE


@pytest.mark.parametrize("name", ["printshop", "table", "deck", "sheet"])
def test_the_committed_schemas_are_up_to_date(name):
    path = DATA_DIR / "schemas" / f"{name}.schema.json"
    assert path.read_text(encoding="utf-8") == reference_docs.schema_texts()[path.name], \
        REGENERATE


def test_every_key_of_every_kind_is_in_the_reference_with_what_it_does():
    text = reference_docs.reference_text()
    from printshop.project import Manifest

    models = {"manifest": Manifest, **reference_docs.product_kinds()}
    for kind, model in models.items():
        notes = reference_docs.field_notes(model)
        for field in model.model_fields:
            if field in ("kind", "products"):
                continue
            assert f"| `{field}` |" in text, (kind, field)
            assert notes.get(field), f"{model.__name__}.{field}: say what it does in a " \
                "comment next to the field (the reference is made from it)"
    for kind in reference_docs.product_kinds():
        assert f"## kind: {kind}\n" in text


def schema(name):
    return json.loads((DATA_DIR / "schemas" / f"{name}.schema.json").read_text())


def plain(path):
    """A YAML file as an editor's language server reads it (numbers and booleans typed)."""
    import yaml

    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name, pattern", [("printshop", "printshop.yaml"),
                                           ("deck", "decks/*.yaml"),
                                           ("sheet", "sheets/*.yaml")])
def test_the_schemas_accept_the_games_own_files(name, pattern):
    validator = jsonschema.Draft202012Validator(schema(name))
    files = sorted(RULES_SRC.glob(pattern))
    assert files
    for path in files:
        data = plain(path)
        if name == "deck" and "cards" not in data and "rows" not in data and \
                "table" not in data and "tables" not in data and "deal" not in data:
            continue   # a data file beside the decks, not a deck
        errors = [e.message for e in validator.iter_errors(data)]
        assert not errors, (path.name, errors[:3])


def test_the_table_schema_accepts_the_games_tables():
    validator = jsonschema.Draft202012Validator(schema("table"))
    from printshop.source.tables import SPECIAL_FILES

    for path in sorted((RULES_SRC / "tables").glob("*.yaml")):
        if path.stem in SPECIAL_FILES:
            continue
        errors = [e.message for e in validator.iter_errors(plain(path))]
        assert not errors, (path.name, errors[:3])


@pytest.mark.parametrize("entry, wrong", [
    ({"kind": "cards", "decks": ["omens"], "papr": "a4"}, "papr"),
    ({"kind": "cards"}, "decks"),
    ({"kind": "card", "decks": ["omens"]}, "card"),
    ({"kind": "convention", "seed": "x", "tables": 501}, "501"),
    ({"kind": "guide", "formats": ["docx"]}, "docx"),
])
def test_the_manifest_schema_refuses_what_printshop_refuses(entry, wrong):
    manifest = {"title": "T", "products": {"thing": entry}}
    errors = [e.message for e in
              jsonschema.Draft202012Validator(schema("printshop")).iter_errors(manifest)]
    assert errors and any(wrong in message for message in errors), errors


def test_the_yaml_language_server_line_in_the_docs_names_a_schema_that_exists():
    docs = (REPO / "docs" / "command-line.md").read_text(encoding="utf-8")
    assert "yaml-language-server" in docs
    for name in ("printshop", "table", "deck", "sheet"):
        assert f"{name}.schema.json" in docs
