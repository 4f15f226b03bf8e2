"""Card decks: `decks/ID.yaml`, one deck per file. A deck is data; its cards come from a
table (inline, a table file inside `decks/`, or guide tables by id) dealt in one of four
ways:

* `rows`: one card per row;
* `dice`: one card per way the dice can fall (2d6 → 36 cards), each showing the row of
  every listed dice table for that total, so drawing a card stands in for rolling;
* `playing-cards`: the 52 cards of a standard deck; each row names its `suits` and
  `ranks` (`A-8`, `9-10`, `J-Q`, `K`), proven on load to cover every card exactly once;
* `hirelings`: rolled by `printshop.roll.hirelings` (the deck file sets the look and the
  roller's settings).

Every deck may add rules cards (title + Markdown text), printed with the deck's back.
"""
from __future__ import annotations

import difflib
import re
from pathlib import Path, PurePosixPath

from printshop.dice import parse_dice
from printshop.errors import PrintshopError, Problems
from printshop.safepath import UnsafePath, resolve_inside
from printshop.source.card_sizes import load_card_sizes, unknown_size_message
from printshop.source.choices import fold_case
from printshop.source.deck_dealing import _deal_dice, _deal_playing_cards, _deal_rows, parse_ranks
from printshop.source.deck_spec import (
    DECKS_FOLDER,
    DEFAULT_TEMPLATES,
    RANKS,
    SUITS,
    Card,
    Deck,
    DeckSpec,
    HirelingSettings,
)
from printshop.source.schema import validate
from printshop.source.tables import TABLE_ID_RE, Table, TableSpec, load_table, table_from_spec
from printshop.source.yamlfile import load_yaml

__all__ = ["Card", "Deck", "DeckSpec", "HirelingSettings", "RANKS", "SUITS", "card_id",
           "deck_ids", "load_deck", "parse_ranks"]


def deck_ids(project) -> list[str]:
    folder = project.root / DECKS_FOLDER
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def load_deck(project, deck_id: str, where: tuple | None = None) -> Deck:
    """The deck `decks/DECK_ID.yaml`, checked, with its cards dealt. `where` names who asked
    for it: (file, line) or (file, line, column)."""
    path = project.root / DECKS_FOLDER / f"{deck_id}.yaml"
    if not TABLE_ID_RE.match(deck_id) or not path.is_file():
        known = deck_ids(project)
        close = difflib.get_close_matches(deck_id, known, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        place, line, column = (tuple(where) + (None,))[:3] if where else (project.root, None,
                                                                            None)
        raise PrintshopError.at(place, f"no deck '{deck_id}' in {DECKS_FOLDER}/{hint}; "
                                f"decks: {', '.join(known) or 'none'}", line, column)
    doc = load_yaml(path, keep_going=True)
    if not isinstance(doc.data, dict):
        raise PrintshopError.at(path, "a deck file is a mapping (title, code, back, cards …)",
                                1)
    spec = validate(doc, DeckSpec)
    problems = Problems()
    sizes = load_card_sizes(project.root)
    size = sizes.get(fold_case(spec.size, sizes))   # Poker is poker
    if size is None:
        pos = doc.pos(("size",))
        problems.add(path, f"size: {unknown_size_message(spec.size, sizes)}", pos.line,
                     pos.column)
    deck = Deck(deck_id, path, spec, doc, size)  # type: ignore[arg-type]
    _check_templates(project, deck, problems)
    _check_sources(deck, problems)
    problems.raise_if_any()
    if spec.deal == "hirelings":
        _check_hireling_settings(project, deck, problems)
    elif spec.deal == "characters":
        _check_character_deal(project, deck, problems)
    else:
        deck.tables = _source_tables(project, deck, problems)
        if spec.results_from is not None:
            deck.results = _table_named(project, deck, spec.results_from, ("results_from",),
                                        problems)
            if deck.results is not None and deck.results.dice is None:
                problems.add(deck.path, f"results_from: '{spec.results_from}' has no dice",
                             deck.line_of("results_from"))
        problems.raise_if_any()
        _check_face(deck, problems)
        problems.raise_if_any()
        deal = {"rows": _deal_rows, "dice": _deal_dice, "playing-cards": _deal_playing_cards}
        deal[spec.deal](deck, problems)
    problems.raise_if_any()
    add_rules_cards(deck, project, problems)
    problems.raise_if_any()
    return deck


def card_id(code: str, number: int, total: int) -> str:
    return f"{code}-{number:0{max(2, len(str(total)))}d}"


def add_rules_cards(deck: Deck, project, problems: Problems) -> None:
    """The deck's rules cards, after its other cards. Rolled decks number them R1, R2 …
    (their other cards are numbered by the roll)."""
    rolled = deck.spec.deal in ROLLED
    start = 0 if rolled else len(deck.cards)
    total = start + len(deck.spec.rules_cards)
    for i, rules in enumerate(deck.spec.rules_cards):
        number = start + i + 1
        table = None
        if rules.table is not None:
            found = _table_named(project, deck, rules.table, ("rules_cards", i, "table"),
                                 problems)
            table = None
            if found and rules.columns is not None:
                keys = [c.key for c in found.columns]
                missing = [(j, key) for j, key in enumerate(rules.columns) if key not in keys]
                for j, key in missing:   # (each of them: the table is not used then)
                    pos = deck.doc.pos(("rules_cards", i, "columns", j))
                    problems.add(deck.path, f"rules_cards[{i}].columns: no column '{key}' "
                                 f"in '{rules.table}' (columns: {', '.join(keys)})",
                                 pos.line, pos.column)
                if missing:
                    found = None
            if found:
                table = _compact_table(found, rules.columns)
        deck.cards.append(Card(
            number=number, id=f"{deck.spec.code}-R{i + 1}" if rolled else "",
            template=deck.spec.rules_template,
            data={"kind": "rules", "title": rules.title, "text": rules.text, "table": table},
            path=deck.path, line=deck.line_of("rules_cards", i),
            label=f"rules card '{rules.title}'"))
    for card in deck.cards:
        if not rolled:  # padded to the deck's final size: EV-01 … EV-53
            card.id = card_id(deck.spec.code, card.number, total)
        card.data["id"] = card.id
        card.data["number"] = card.number


def _compact_table(table: Table, keys: list[str] | None = None) -> dict:
    columns = table.printed_columns if keys is None else \
        [next(c for c in table.columns if c.key == key) for key in keys]
    return {"title": table.title, "dice": table.dice.text if table.dice else None,
            "reroll": table.reroll_text or None,
            "labels": [c.label for c in columns],
            "rows": [{"roll": row.roll_text, "cells": [row.get(c.key) for c in columns]}
                     for row in table.rows]}


# --- checks ------------------------------------------------------------------------------

def check_template_name(project, name: str) -> str | None:
    """None if `name` is a template inside the template folders, else why not."""
    parts = PurePosixPath(name).parts
    if not name or name.startswith(("/", "\\")) or ".." in parts or "\\" in name or \
            re.match(r"^[A-Za-z]:", name):
        return (f"template '{name}' is outside the project: give a path inside templates/ "
                "(such as cards/my-card.html.j2)")
    for folder in project.template_dirs:
        candidate = folder / name
        if candidate.exists():
            try:
                resolve_inside(candidate, [folder], allow_absolute=True)
            except UnsafePath as exc:
                return f"template '{name}' {exc}"
            return None
    return (f"template '{name}' not found in "
            f"{' or '.join(_shown_folder(project, f) for f in project.template_dirs)}")


def _shown_folder(project, folder: Path) -> str:
    try:
        return folder.relative_to(project.root).as_posix() + "/"
    except ValueError:
        return "printshop's templates/"


def _check_templates(project, deck: Deck, problems: Problems) -> None:
    spec = deck.spec
    template = spec.template or DEFAULT_TEMPLATES[spec.deal]
    checks = [(("template",), template), (("rules_template",), spec.rules_template),
              (("back", "template"), spec.back.template)]
    for loc, name in checks:
        why = check_template_name(project, name)
        if why:
            pos = deck.doc.pos(loc)
            problems.add(deck.path, f"{'.'.join(loc)}: {why}", pos.line, pos.column)
    why = _check_emblem(project, deck)
    if why:
        pos = deck.doc.pos(("back", "emblem"))
        problems.add(deck.path, f"back.emblem: {why}", pos.line, pos.column)


def emblem_names(project) -> list[str]:
    """The emblems drawn for card backs: templates/cards/emblems/*.svg (the project's and
    printshop's)."""
    names: set[str] = set()
    for folder in project.template_dirs:
        emblems = folder / "cards" / "emblems"
        if emblems.is_dir():
            names.update(p.stem for p in emblems.glob("*.svg"))
    return sorted(names)


def _check_emblem(project, deck: Deck) -> str | None:
    """An emblem is an emblem template or, failing that, any icon (icons/NAME.svg of the
    project, or a bundled one)."""
    from printshop.source.icons import UnknownIcon, icon_set

    name = deck.spec.back.emblem
    template = f"cards/emblems/{name}.svg"
    if check_template_name(project, template) is None:
        deck.emblem_template = template
        return None
    try:
        icon_set(project.root).find(name)
        return None
    except UnknownIcon:
        icons = icon_set(project.root).names()
        known = emblem_names(project)
        close = difflib.get_close_matches(name, known + icons, n=3, cutoff=0.5)
        hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
        return (f"no emblem '{name}'{hint}: the emblems are {', '.join(known)}; any icon "
                f"may be one too ({', '.join(icons)}); a project adds its own as "
                f"templates/cards/emblems/{name}.svg or icons/{name}.svg")


ROLLED = ("hirelings", "characters")   # decks whose cards are rolled, not dealt


def _check_sources(deck: Deck, problems: Problems) -> None:
    spec = deck.spec
    given = [name for name, value in (("rows", spec.rows), ("table", spec.table),
                                      ("tables", spec.tables)) if value is not None]
    if spec.characters is not None and spec.deal != "characters":
        problems.add(deck.path, "'characters:' is only for deal: characters",
                     deck.line_of("characters"))
    if spec.deal in ROLLED:
        if given or spec.columns is not None:
            problems.add(deck.path, f"deal: {spec.deal} rolls its cards; remove "
                         f"{', '.join(given or ['columns'])}", deck.line_of(given[0]
                                                                             if given else
                                                                             "columns"))
        if spec.deal == "characters":
            return
        if spec.hirelings is None:
            problems.add(deck.path, "deal: hirelings needs a 'hirelings:' section (tables, "
                         "hit_die, zero_hd_hit_points, morale)", 1)
        return
    if spec.hirelings is not None:
        problems.add(deck.path, "'hirelings:' is only for deal: hirelings",
                     deck.line_of("hirelings"))
    if len(given) != 1:
        problems.add(deck.path, "a deck needs its cards' data from exactly one of: rows "
                     "(with columns), table (a table file in decks/), tables (guide tables "
                     f"by id); found {', '.join(given) or 'none'}", 1)
        return
    if isinstance(spec.rows, list) and spec.columns is None:
        problems.add(deck.path, "rows need 'columns' (as in a table file)",
                     deck.line_of("rows"))
    if spec.rows is None and (spec.columns is not None or spec.dice is not None
                              or spec.sheet is not None):
        key = "columns" if spec.columns is not None else "dice" if spec.dice is not None \
            else "sheet"
        problems.add(deck.path, f"'{key}' goes with inline rows; the table file or guide "
                     "table declares its own", deck.line_of(key))
    if spec.tables is not None and spec.deal == "rows" and len(spec.tables) != 1:
        problems.add(deck.path, "deal: rows takes one table (deal: dice may combine several)",
                     deck.line_of("tables"))
    if spec.tables is not None and spec.deal == "playing-cards":
        problems.add(deck.path, "deal: playing-cards needs rows with suits and ranks, not "
                     "guide tables", deck.line_of("tables"))


def _source_tables(project, deck: Deck, problems: Problems) -> list[Table]:
    spec = deck.spec
    if spec.rows is not None:
        table_spec = TableSpec(title=spec.title, description=spec.description, dice=spec.dice,
                               roll_label=spec.roll_label, columns=spec.columns,
                               rows=spec.rows, sheet=spec.sheet, header_row=spec.header_row)
        try:
            return [table_from_spec(deck.id, table_spec, deck.doc, root=project.root)]
        except PrintshopError as exc:
            problems.extend(exc)
            return []
    if spec.table is not None:
        found = _table_named(project, deck, spec.table, ("table",), problems, file_only=True)
        return [found] if found else []
    tables = []
    for i, table_id in enumerate(spec.tables or []):
        found = _table_named(project, deck, table_id, ("tables", i), problems,
                             guide_only=True)
        if found:
            tables.append(found)
    return tables


def _table_named(project, deck: Deck, name: str, loc: tuple, problems: Problems,
                 file_only: bool = False, guide_only: bool = False) -> Table | None:
    """A table file inside decks/ (`tables/x.yaml`, relative to the deck file) or a guide
    table by id (`tables/ID.yaml` of the project)."""
    pos = deck.doc.pos(loc)
    label = ".".join(str(part) if not isinstance(part, int) else f"[{part}]" for part in loc)
    label = label.replace(".[", "[")
    if name.endswith((".yaml", ".yml")) and not guide_only:
        decks_folder = deck.path.parent
        try:
            path = resolve_inside(name, [decks_folder], base=decks_folder)
        except UnsafePath as exc:
            problems.add(deck.path, f"{label}: '{name}' {exc} (a deck's own table file lives "
                         f"inside {DECKS_FOLDER}/)", pos.line, pos.column)
            return None
        try:
            return load_table(path, Path(name).stem, root=project.root)
        except PrintshopError as exc:
            problems.extend(exc)
            return None
    if file_only:
        problems.add(deck.path, f"{label}: give a table file inside {DECKS_FOLDER}/ (such as "
                     f"tables/my-table.yaml); for a guide table use 'tables: [{name}]'",
                     pos.line, pos.column)
        return None
    guide_tables = project.tables
    if name not in guide_tables:
        close = difflib.get_close_matches(name, list(guide_tables), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        problems.add(deck.path, f"{label}: no table '{name}' in tables/{hint}", pos.line,
                     pos.column)
        return None
    return guide_tables[name]


def _check_face(deck: Deck, problems: Problems) -> None:
    face = deck.spec.face
    if not deck.tables:
        return
    keys = {c.key for t in deck.tables for c in t.columns}
    slots: list[tuple[str | tuple[str, int], str | None]] = [
        ("corner", face.corner), ("title", face.title), ("note", face.note), ("icon", face.icon)]
    slots += [(("text", i), key) for i, key in enumerate(face.text)]
    slots += [(("extra", i), key) for i, key in enumerate(face.extra)]
    for slot, key in slots:
        if key is not None and key not in keys:
            loc = ("face",) + (slot if isinstance(slot, tuple) else (slot,))
            pos = deck.doc.pos(loc)
            close = difflib.get_close_matches(key, sorted(keys), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            problems.add(deck.path, f"face: no column '{key}' in the deck's table{hint}; "
                         f"columns: {', '.join(sorted(keys))}", pos.line, pos.column)
    column = deck.spec.art.column
    if "column" in (deck.doc.data.get("art") or {}) and column not in keys:
        pos = deck.doc.pos(("art", "column"))
        close = difflib.get_close_matches(column, sorted(keys), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        problems.add(deck.path, f"art.column: no column '{column}' in the deck's table{hint}; "
                     f"columns: {', '.join(sorted(keys))}", pos.line, pos.column)


def _check_character_deal(project, deck: Deck, problems: Problems) -> None:
    """A deck of rolled characters names a recipe that exists (the card product loads and
    checks it: products/cards/characters.py; the sources do not know the rollers)."""
    deal = deck.spec.characters
    recipe_id = deal.recipe if deal is not None else "characters"
    if not (project.root / "recipes" / f"{recipe_id}.yaml").is_file():
        line = deck.line_of("characters", "recipe") if deal is not None else 1
        problems.add(deck.path, f"characters.recipe: no recipe '{recipe_id}' in recipes/",
                     line)


def _check_hireling_settings(project, deck: Deck, problems: Problems) -> None:
    settings = deck.spec.hirelings
    tables = project.tables
    for key in ("tiers", "professions", "first_names", "family_names", "quirks"):
        table_id = getattr(settings, key)
        if table_id not in tables:
            pos = deck.doc.pos(("hirelings", key))
            problems.add(deck.path, f"hirelings.{key}: no table '{table_id}' in tables/",
                         pos.line, pos.column)
    for key in ("hit_die", "zero_hd_hit_points"):
        try:
            parse_dice(getattr(settings, key))
        except ValueError as exc:
            pos = deck.doc.pos(("hirelings", key))
            problems.add(deck.path, f"hirelings.{key}: {exc}", pos.line, pos.column)
