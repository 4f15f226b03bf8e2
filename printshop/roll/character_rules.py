"""Everything the character roller reads, loaded from the project and checked once per pack.

The roller itself (`characters.py`) trusts this: every table it uses exists, has the columns
it reads, and refers only to things that exist (a kit's armour is in the armour table, a
class's spell list exists, …). Each problem names the file and line to fix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from printshop.dice import parse_dice
from printshop.errors import PrintshopError, Problems, display_path
from printshop.project import Project
from printshop.source.classes import SAVES, STATS, CharacterClass
from printshop.source.tables import Row, Table

# The tables the roller reads (ids = file names in rules-src/tables/) and the columns it needs.
REQUIRED_COLUMNS = {
    "stat-modifiers": ["mod"],
    "alignments": ["alignment"],
    "skills": ["skill", "stat"],
    "languages": ["language"],
    "sub-stats": ["id", "base", "minimum", "always"],
    "attack-ranks": ["rank", "divisor"],
    "save-qualities": ["quality", "divisor"],
    "saving-throws": ["save", "stat"],
    "armour": ["name", "type", "bonus"],
    "shields": ["name", "bonus"],
    "weapons": ["weapon", "size", "use", "ammo", "note", "tags"],
    "armour-spell-failure": ["class"],
    "backgrounds": ["background"],
    "personality-traits": ["trait"],
    "appearances": ["appearance"],
    "kit-basics": ["item", "quantity", "classes"],
    "kit-light": ["item", "quantity"],
    "kit-oddments": ["item"],
    "party-roles": ["role"],   # printed as tick boxes on every sheet
}
KIT_COLUMNS = ["weapons", "armour", "shield"]
SPELL_COLUMNS = ["spell", "summary"]
THIEF_SKILL_COLUMNS = ["skill", "stat"]
SUB_STATS = ("level", "tier", "hp", "ac", "skills", "languages", "xp", "xp-next")
NO_STAT = {"—", "-", ""}
MAX_THEN_DEPTH = 5  # a class roll may send you on to another table, and that to another
_PERCENT_RE = re.compile(r"^(\d{1,3})\s*%$")


@dataclass
class CharacterRules:
    tables: dict[str, Table]
    classes: dict[str, CharacterClass]   # by id, in the order of classes.yaml
    class_table: Table
    sub_stats: dict[str, Row]

    def table(self, table_id: str) -> Table:
        return self.tables[table_id]

    def reachable_classes(self) -> list[str]:
        """Class ids the class table can produce (following `then:` rolls)."""
        found: list[str] = []
        for _, row in _final_rows(self.class_table, self.tables):
            if row["id"] not in found:
                found.append(row["id"])
        return found


def _final_rows(table: Table, tables: dict[str, Table], depth: int = 0) \
        -> list[tuple[Table, Row]]:
    """(table, row) for every row a roll on `table` can end on, following `then:`."""
    rows = []
    for row in table.rows:
        if row.then and depth < MAX_THEN_DEPTH:
            rows += _final_rows(tables[row.then], tables, depth + 1)
        else:
            rows.append((table, row))
    return rows


def load_character_rules(project: Project, class_table: str = "class-roll") -> CharacterRules:
    tables = project.tables
    classes_file = project.classes
    problems = Problems()
    classes_path = project.root / "tables" / "classes.yaml"
    if classes_file is None:
        raise PrintshopError.at(classes_path, "not found: the character roller needs the "
                                "classes")
    classes = {c.id: c for c in classes_file.classes}

    def missing_table(table_id: str, why: str) -> bool:
        if table_id in tables:
            return False
        problems.add(project.root / "tables" / f"{table_id}.yaml",
                     f"not found: the character roller needs this table ({why})")
        return True

    def need_columns(table: Table, keys: list[str]) -> bool:
        have = {c.key for c in table.columns}
        lacking = [k for k in keys if k not in have]
        if lacking:
            problems.add(table.path, f"the character roller needs column"
                         f"{'s' if len(lacking) > 1 else ''} {', '.join(lacking)} in this "
                         f"table (it has {', '.join(sorted(have))})", 1)
        return not lacking

    ok = {}
    for table_id, columns in REQUIRED_COLUMNS.items():
        ok[table_id] = not missing_table(table_id, "see docs/authoring.md") and \
            need_columns(tables[table_id], columns)

    # the class roll and what it can lead to
    if not missing_table(class_table, "the class roll") and \
            need_columns(tables[class_table], ["id"]):
        table = tables[class_table]
        if table.dice is None:
            problems.add(table.path, "the class table needs dice (it is rolled on)", 1)
        for owner, row in _final_rows(table, tables):
            if "id" not in {c.key for c in owner.columns}:
                problems.add(owner.path, "the class roll leads here, so this table needs an "
                             "'id' column of class ids", 1)
                break
            if row["id"] not in classes:
                problems.add(owner.path, f"'{row['id']}' is not a class in "
                             f"tables/classes.yaml ({', '.join(classes)})", row.line)

    sub_stats: dict[str, Row] = {}
    if ok["sub-stats"]:
        sub_stats = {row["id"]: row for row in tables["sub-stats"].rows}
        for key in SUB_STATS:
            if key not in sub_stats:
                problems.add(tables["sub-stats"].path, f"no row with id '{key}' (the "
                             "character roller reads its numbers)", 1)
        for key, field in (("level", "base"), ("tier", "base"), ("ac", "base"),
                           ("hp", "minimum"), ("skills", "base"), ("skills", "minimum"),
                           ("languages", "base"), ("languages", "minimum"), ("xp", "base"),
                           ("xp-next", "base")):
            row = sub_stats.get(key)
            if row is not None and row.get(field) is None:
                problems.add(tables["sub-stats"].path, f"row '{key}' needs a {field} "
                             "number", row.line)

    if ok["stat-modifiers"]:
        table = tables["stat-modifiers"]
        if table.dice is None or table.dice.outcomes()[0] > 3 or table.dice.outcomes()[-1] < 18:
            problems.add(table.path, "stat modifiers must be a dice table covering every "
                         "score from 3 to 18", 1)

    if ok["skills"]:
        _check_skills(tables["skills"], sub_stats, problems)
    if ok["alignments"]:
        names = {row["alignment"] for row in tables["alignments"].rows}
        for cls in classes.values():
            for barred in cls.forbidden_alignments:
                if barred not in names:
                    problems.add(classes_path, f"{cls.id}: forbidden alignment '{barred}' is "
                                 f"not in tables/alignments.yaml")
            if not names - set(cls.forbidden_alignments):
                problems.add(classes_path, f"{cls.id}: every alignment is forbidden")
    if ok["attack-ranks"]:
        ranks = {row["rank"] for row in tables["attack-ranks"].rows}
        for cls in classes.values():
            if cls.attack_rank not in ranks:
                problems.add(tables["attack-ranks"].path, f"no row for rank "
                             f"{cls.attack_rank} ({cls.name})", 1)
    if ok["save-qualities"]:
        qualities = {row["quality"].lower() for row in tables["save-qualities"].rows}
        for quality in ("good", "okay", "bad"):
            if quality not in qualities:
                problems.add(tables["save-qualities"].path, f"no row for quality "
                             f"{quality.title()}", 1)
    if ok["saving-throws"]:
        saves = {row["save"]: row for row in tables["saving-throws"].rows}
        for save in SAVES:
            if save not in saves:
                problems.add(tables["saving-throws"].path, f"no row for the {save} save", 1)
            elif saves[save]["stat"] not in NO_STAT and saves[save]["stat"] not in STATS:
                problems.add(tables["saving-throws"].path, f"stat '{saves[save]['stat']}' "
                             f"is not one of {', '.join(STATS)} (or — for none)",
                             saves[save].line)
    for table_id, column in (("kit-basics", "quantity"),):
        if ok[table_id]:
            for row in tables[table_id].rows:
                if not _is_quantity(row[column]):
                    problems.add(tables[table_id].path, f"quantity '{row[column]}' is neither "
                                 "a number nor dice (3, 3d6)", row.line)
                for class_id in row.get("classes") or []:
                    if class_id not in classes:
                        problems.add(tables[table_id].path, f"'{class_id}' is not a class id",
                                     row.line)
    failure_rows = {}
    if ok["armour-spell-failure"]:
        failure_rows = {row["class"]: row for row in tables["armour-spell-failure"].rows}
        for class_id, row in failure_rows.items():
            if class_id not in classes:
                problems.add(tables["armour-spell-failure"].path, f"'{class_id}' is not a "
                             "class id", row.line)

    for cls in classes.values():
        _check_class(cls, tables, ok, failure_rows, classes_path, problems, missing_table,
                     need_columns)
    problems.raise_if_any()
    return CharacterRules(tables=tables, classes=classes, class_table=tables[class_table],
                          sub_stats=sub_stats)


def _check_skills(table: Table, sub_stats: dict[str, Row], problems: Problems) -> None:
    seen: dict[str, int] = {}
    for row in table.rows:
        if row["stat"] not in STATS:
            problems.add(table.path, f"stat '{row['stat']}' is not one of "
                         f"{', '.join(STATS)}", row.line)
        name = str(row["skill"]).casefold()
        if name in seen:
            problems.add(table.path, f"skill '{row['skill']}' is listed twice (also on line "
                         f"{seen[name]})", row.line)
        seen.setdefault(name, row.line)
    skills = sub_stats.get("skills")
    if skills is not None and skills.get("base") is not None:
        most = skills["base"] + 3  # an INT of 18 gives +3
        if len(table.rows) < most:
            problems.add(table.path, f"only {len(table.rows)} skills: a character with INT 18 "
                         f"needs {most} different ones", 1)


def _check_class(cls, tables, ok, failure_rows, classes_path, problems, missing_table,
                 need_columns) -> None:
    where = display_path(classes_path)
    if cls.spellbook and not missing_table(cls.spellbook.table, f"{cls.id}'s spells") and \
            need_columns(tables[cls.spellbook.table], SPELL_COLUMNS):
        spells = {row["spell"] for row in tables[cls.spellbook.table].rows}
        for name in cls.spellbook.always:
            if name not in spells:
                problems.add(where, f"{cls.id}: spell '{name}' is not in "
                             f"tables/{cls.spellbook.table}.yaml")
    if cls.thief_skills and not missing_table(cls.thief_skills.table,
                                              f"{cls.id}'s thief skills"):
        table = tables[cls.thief_skills.table]
        need_columns(table, THIEF_SKILL_COLUMNS)
        if cls.thief_skills.bailiwick and len(table.rows) < 2:
            problems.add(table.path, "a Bailiwick and a different Failing need at least two "
                         "skills", 1)
    if cls.starting_kit is None:
        problems.add(where, f"{cls.id}: no starting_kit (the table id of the class's kit)")
        return
    if missing_table(cls.starting_kit, f"{cls.id}'s starting kit") or \
            not need_columns(tables[cls.starting_kit], KIT_COLUMNS):
        return
    kit = tables[cls.starting_kit]
    if kit.dice is None:
        problems.add(kit.path, "a kit table needs dice (it is rolled on)", 1)
    weapons = {row["weapon"]: row for row in tables["weapons"].rows} if ok["weapons"] else None
    armour = {row["name"]: row for row in tables["armour"].rows} if ok["armour"] else None
    shields = {row["name"]: row for row in tables["shields"].rows} if ok["shields"] else None
    failure = failure_rows.get(cls.id)
    for row in kit.rows:
        if not row["weapons"]:
            problems.add(kit.path, "every kit needs a weapon", row.line)
        for name in row["weapons"]:
            if weapons is not None and name not in weapons:
                problems.add(kit.path, f"weapon '{name}' is not in tables/weapons.yaml",
                             row.line)
        if row.get("armour") is not None and armour is not None:
            suit = armour.get(row["armour"])
            if suit is None:
                problems.add(kit.path, f"armour '{row['armour']}' is not in "
                             "tables/armour.yaml", row.line)
            elif failure is not None and spell_failure_percent(failure, suit["type"]) is None:
                problems.add(kit.path, f"{cls.name}s may not wear {suit['type']} armour "
                             f"({row['armour']}; see tables/armour-spell-failure.yaml)",
                             row.line)
        if row.get("shield") is not None and shields is not None and \
                row["shield"] not in shields:
            problems.add(kit.path, f"shield '{row['shield']}' is not in tables/shields.yaml",
                         row.line)


def spell_failure_percent(failure_row: Row, armour_type: str | None) -> int | None:
    """0–100 for the armour type (no armour: 0); None when the class may not wear it."""
    if armour_type is None:
        return 0
    text = str(failure_row.get(armour_type.lower(), "—")).strip()
    if text in NO_STAT:
        return 0
    match = _PERCENT_RE.match(text)
    if match:
        return int(match[1])
    return None


def _is_quantity(text) -> bool:
    text = str(text).strip()
    if text.isdigit():
        return True
    try:
        parse_dice(text)
    except ValueError:
        return False
    return True
