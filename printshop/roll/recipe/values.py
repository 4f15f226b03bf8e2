"""The values a recipe makes: numbers, texts, lists, records (a table's row, a class, a
`{name: …}`), rolls (a number that remembers its dice), and the rolled `Character`.

Sheets read them through Jinja (`c.stats.STR`, `c.armour.name`), the JSON export through
`to_json`."""

from __future__ import annotations

from fractions import Fraction
from typing import Any


class Record(dict):
    """A mapping whose keys read as attributes too (`row.skill`). A table's row keeps where it
    came from (`table`, `line`) for messages and for telling rows apart."""

    __slots__ = ("table", "line", "rolls")

    def __init__(self, *args, table: str | None = None, line: int | None = None,
                 rolls: tuple = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.table, self.line, self.rolls = table, line, rolls

    def __getattr__(self, name: str):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __reduce__(self):
        return (_record, (dict(self), self.table, self.line, self.rolls))

    def __eq__(self, other):
        if isinstance(other, Record) and (self.table or other.table):
            return self.table == other.table and self.line == other.line and \
                dict.__eq__(self, other)
        return dict.__eq__(self, other)

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = None


def _record(values, table, line, rolls):
    return Record(values, table=table, line=line, rolls=rolls)


class Roll(int):
    """A rolled total that remembers its dice: `faces` (every die thrown, in order, rerolls
    included), `kept` (those that count) and the dice text."""

    faces: tuple[int, ...]
    kept: tuple[int, ...]
    dice: str

    def __new__(cls, total: int, faces=(), kept=None, dice: str = ""):
        roll = super().__new__(cls, total)
        roll.faces = tuple(faces)
        roll.kept = tuple(faces if kept is None else kept)
        roll.dice = dice
        return roll

    @property
    def total(self) -> int:
        return int(self)

    def __reduce__(self):
        return (Roll, (int(self), self.faces, self.kept, self.dice))

    def __repr__(self):
        return f"Roll({int(self)}, {self.dice} {list(self.faces)})"

    def __str__(self):
        return str(int(self))


class Pool(int):
    """A dice pool counted against a DC: the number of hits, with `faces` and `crits`."""

    faces: tuple[int, ...]
    crits: int
    dc: int

    def __new__(cls, hits: int, faces=(), crits: int = 0, dc: int = 0):
        pool = super().__new__(cls, hits)
        pool.faces, pool.crits, pool.dc = tuple(faces), crits, dc
        return pool

    @property
    def hits(self) -> int:
        return int(self)

    def __reduce__(self):
        return (Pool, (int(self), self.faces, self.crits, self.dc))

    def __str__(self):
        return str(int(self))


def plain(value: Any) -> Any:
    """JSON-ready: records become objects, rolls their totals, whole fractions integers."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return str(value)


def display(value: Any) -> str:
    """A value as a sheet prints it: none as a dash, a roll as its total, an item as its name
    and quantity ("Torch ×3"), a row as its first column, a list joined with commas."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float, Fraction)):
        return str(plain(value))
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        if "name" in value:
            quantity = value.get("quantity")
            text = display(value["name"])
            if isinstance(quantity, int) and not isinstance(quantity, bool) and quantity != 1:
                text += f" ×{quantity}"
            return text
        if isinstance(value, Record) and value.table and value:
            return display(next(iter(value.values())))
        return " · ".join(f"{k} {display(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(display(v) for v in value) if value else "—"
    return str(value)


def describe(value: Any) -> str:
    """A value as messages name it: 'a list of 3', 'the text "Chain"'."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, Fraction)):
        return f"the number {plain(value)}"
    if isinstance(value, str):
        return f"the text '{value[:40]}'"
    if isinstance(value, Record) and value.table:
        return f"a row of tables/{value.table}.yaml"
    if isinstance(value, dict):
        return f"a record ({', '.join(list(value)[:6])})"
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)}"
    return type(value).__name__


class Character:
    """One rolled character: the recipe's values by name (`c.hp`, `c.stats`), its number in
    the pack and the pack's seed. `label` names it (index, bookmarks); `kind` is its class
    id (None in a game without classes): sheets of one kind share a form."""

    __slots__ = ("pack_seed", "index", "values", "label", "kind", "_json")

    def __init__(self, pack_seed: str, index: int, values: dict, label: str,
                 kind: str | None, json_values: dict | None = None):
        self.pack_seed, self.index, self.values = pack_seed, index, values
        self.label, self.kind, self._json = label, kind, json_values

    @property
    def id(self) -> str:
        """What the sheet prints: `--seed SEED --first n --count 1` rolls it again."""
        return f"{self.pack_seed} #{self.index}"

    # the names every sheet template of the past used for these
    @property
    def class_id(self) -> str | None:
        return self.kind

    @property
    def class_name(self) -> str:
        return self.label

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self.values[name]
        except KeyError:
            raise AttributeError(f"the recipe makes no value '{name}'") from None

    def __getitem__(self, name: str):
        return self.values[name]

    def __eq__(self, other):
        return isinstance(other, Character) and (self.pack_seed, self.index, self.values) == \
            (other.pack_seed, other.index, other.values)

    __hash__ = None   # type: ignore[assignment]

    def __getstate__(self):
        return (self.pack_seed, self.index, self.values, self.label, self.kind, self._json)

    def __setstate__(self, state):
        (self.pack_seed, self.index, self.values, self.label, self.kind, self._json) = state

    def shown(self) -> dict:
        """The values a generic sheet and a default export show (not `_private` ones)."""
        return {k: v for k, v in self.values.items() if not k.startswith("_")}

    def to_json(self) -> dict:
        if self._json is not None:
            return plain(self._json)
        head = {"id": self.id, "index": self.index}
        if self.kind is not None:
            head.update({"class": self.kind, "class_name": self.label})
        shown = {k: v for k, v in self.shown().items() if k != "class"}
        return {**head, **plain(shown)}
