"""Rows from spreadsheets: a deck's or a table's `rows: cards.xlsx` (CSV, XLSX or ODS).

Card designers keep their decks in spreadsheets. A spreadsheet's rows become the same rows a
YAML file would hold, checked by the same code (`tables.build_table`), and every problem is
named as a spreadsheet names its cells: `decks/events.xlsx!B7: …`.

* The header row (row 1, or `header_row: N`: rows above it are a title or notes) names the
  columns, by key or label (`effect` or `What happens`), plus `roll`, `copies`, `weight`
  and `then`. Without `columns:` in the YAML, every header is a text column. A header
  starting with `#` marks a column for the designer's own notes: it is not read.
* Empty rows (anywhere, and the empty rows a spreadsheet keeps at its end) are skipped. A
  cell with several lines prints them as lines; a list column splits on commas.
* Spreadsheets turn dice ranges into dates (`3-4` → 4 March, `1/6` → 6 January). A cell
  that holds a date or a time is refused, naming the date it became, so the designer can
  format the column as text.

CSV is read with the standard library; XLSX and ODS with python-calamine (calamine, in
Rust: no macros run, no formulas evaluated: a formula's last saved value is read).
"""

from __future__ import annotations

import calendar
import csv
import datetime
import difflib
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from printshop.deps import record_file
from printshop.errors import PrintshopError, Problems
from printshop.safepath import UnsafePath, resolve_inside
from printshop.source.tables import RESERVED_KEYS, BadValue, ColumnSpec, TableSpec
from printshop.source.yamlfile import YamlDoc, read_text

SUFFIXES = (".csv", ".xlsx", ".xlsm", ".ods")
MAX_BYTES = 16_000_000
MAX_CELLS = 200_000

_MONTHS = "jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec"
# what a CSV saved by a spreadsheet holds where a dice range had become a date
_TEXT_DATES = [re.compile(p, re.IGNORECASE) for p in (
    rf"^\d{{1,2}}[-/ .]({_MONTHS})[a-z]*([-/ .]\d{{2,4}})?$",
    rf"^({_MONTHS})[a-z]*[-/ .]\d{{1,2}}([-/ ,.]+\d{{2,4}})?$",
    r"^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?$",
    r"^\d{1,2}/\d{1,2}/\d{2,4}$",
)]


@dataclass
class Sheet:
    label: str                 # how problems name it: the file, with "!Sheet" when chosen
    cells: list[list[Any]]     # from A1, row by row: str, None (empty) or BadValue


def read_spreadsheet(path: Path, sheet: str | None = None) -> Sheet:
    """Every cell of one sheet of `path` as text (None when empty, a BadValue when it
    holds something a table cannot: a date, a time, an error)."""
    suffix = path.suffix.lower()
    label = str(path) + (f"!{sheet}" if sheet else "")
    if suffix == ".csv":
        if sheet:
            raise PrintshopError.at(path, f"sheet: '{sheet}': a CSV file has one sheet; "
                                    "remove 'sheet'")
        rows = _read_csv(path)
    else:
        rows = _read_workbook(path, sheet)
    if sum(len(row) for row in rows) > MAX_CELLS:
        raise PrintshopError.at(path, f"more than {MAX_CELLS} cells: split the sheet")
    return Sheet(label, [[cell_text(value) for value in row] for row in rows])


def _read_csv(path: Path) -> list[list[Any]]:
    text = read_text(path, MAX_BYTES)     # UTF-8 (a BOM is fine), recorded as read
    first = text.split("\n", 1)[0]
    try:   # Excel in many countries saves CSV with semicolons
        dialect = csv.Sniffer().sniff(first, delimiters=",;\t")
        delimiter = dialect.delimiter
    except csv.Error:
        delimiter = ","
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error as exc:
        raise PrintshopError.at(path, f"not a readable CSV file: {exc}") from None
    return [[_csv_value(value) for value in row] for row in rows]


def _csv_value(text: str) -> Any:
    if any(pattern.match(text.strip()) for pattern in _TEXT_DATES):
        return BadValue(f"'{text.strip()}' looks like a date a spreadsheet made of a dice "
                        "range (3-4 becomes 4-Mar, 1/6 becomes 6-Jan) before it saved this "
                        "CSV: format the column as Text in the spreadsheet, type the ranges "
                        "again and save the CSV again")
    return text


def _read_workbook(path: Path, sheet: str | None) -> list[list[Any]]:
    from python_calamine import CalamineWorkbook

    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise PrintshopError.at(path, f"cannot read: {exc.strerror}") from None
    if len(raw) > MAX_BYTES:
        raise PrintshopError.at(path, f"file is larger than {MAX_BYTES // 1_000_000} MB")
    record_file(path, raw)
    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(raw))
        names = list(book.sheet_names)
    except Exception as exc:   # noqa: BLE001 - calamine's errors are its own classes
        raise PrintshopError.at(path, f"not a readable {path.suffix[1:].upper()} workbook "
                                f"({_first_line(exc)})") from None
    if not names:
        raise PrintshopError.at(path, "the workbook has no sheets")
    if sheet is not None and sheet not in names:
        close = difflib.get_close_matches(sheet, names, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise PrintshopError.at(path, f"sheet: no sheet '{sheet}' in the workbook{hint}; "
                                f"sheets: {', '.join(names)}")
    try:
        return book.get_sheet_by_name(sheet or names[0]).to_python(skip_empty_area=False)
    except Exception as exc:   # noqa: BLE001
        raise PrintshopError.at(path, f"cannot read sheet '{sheet or names[0]}' "
                                f"({_first_line(exc)})") from None


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [exc.__class__.__name__])[0][:160]


def cell_text(value: Any) -> Any:
    """A cell as a table reads it: text, None when empty, or a BadValue saying why not."""
    if value is None or isinstance(value, BadValue):
        return value
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"      # as the spreadsheet shows it
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.15g}"
    if isinstance(value, datetime.datetime):
        return _date_value(value.date(), value.time())
    if isinstance(value, datetime.date):
        return _date_value(value, None)
    if isinstance(value, (datetime.time, datetime.timedelta)):
        shown = value.strftime("%H:%M") if isinstance(value, datetime.time) else str(value)
        return BadValue(f"the spreadsheet holds a time ({shown}) here, not text: format the "
                        "column as Text (or type an apostrophe first) and type it again")
    text = str(value).replace("\r\n", "\n").replace("\r", "\n").strip()
    return text or None


def _date_value(date: datetime.date, time: datetime.time | None) -> BadValue:
    shown = f"{date.day} {calendar.month_name[date.month]} {date.year}"
    if time is not None and time != datetime.time(0):
        shown += f" {time.strftime('%H:%M')}"
    m, d = date.month, date.day
    return BadValue(f"the spreadsheet turned this cell into a date ({shown}), not text: "
                    f"spreadsheets turn dice ranges such as 3-4 or 1/6 into dates (was it "
                    f"{m}-{d} or {d}-{m}?). Format the column as Text, or type an apostrophe "
                    f"first ('{m}-{d}), and type it again")


# --- the spreadsheet's rows as a table's rows -------------------------------------------------

class SheetRowsDoc:
    """A table written in YAML whose rows are in a spreadsheet: `where(loc)` names the cell
    for a place among the rows, the YAML file's line for anything else."""

    def __init__(self, doc: YamlDoc, base: tuple, label: str,
                 places: dict[tuple, tuple[int, int | None]]):
        self.yaml = doc
        self.path = doc.path
        self.data = doc.data
        self.base = base
        self.label = label
        self.places = places          # ("rows", i[, key]) → (row, column) in the sheet

    def where(self, loc: tuple, key: bool = False) -> tuple:
        inner = tuple(loc[len(self.base):])
        if inner[:1] == ("rows",) and len(inner) >= 2:
            place = self.places.get(inner[:3]) or self.places.get(inner[:2])
            if place is not None:
                return (self.label, place[0], place[1])
        return self.yaml.where(loc, key)

    def pos(self, loc: tuple, key: bool = False):
        return self.yaml.pos(loc, key)


def rows_from_spreadsheet(spec: TableSpec, doc: YamlDoc, base: tuple, root: Path
                          ) -> tuple[TableSpec, SheetRowsDoc, list[Path]]:
    """`spec` with its rows (and, when it declares none, its columns) read from the
    spreadsheet `spec.rows` names, relative to the YAML file and inside `root`."""
    name = spec.rows
    assert isinstance(name, str)    # (the caller's: rows from a file)
    rows_at = doc.where(base + ("rows",))
    problems = Problems()
    if not name.lower().endswith(SUFFIXES):
        problems.at(rows_at, f"rows: '{name}' is not a spreadsheet (give a .csv, .xlsx or "
                    ".ods file, or the rows themselves as a list)")
        problems.raise_if_any()
    try:
        path = resolve_inside(name, [root], base=doc.path.parent)
    except UnsafePath as exc:
        problems.at(rows_at, f"rows: '{name}' {exc} (a path relative to "
                    f"{Path(doc.path).name}, inside the project)")
        problems.raise_if_any()
    sheet = read_spreadsheet(path, spec.sheet)
    columns, keys = _header(spec, sheet, problems)
    rows, places = _rows(spec, sheet, keys, columns, problems)
    if not rows and not problems:
        problems.add(sheet.label, f"no rows under the header (row {spec.header_row})",
                     spec.header_row)
    problems.raise_if_any()
    new_spec = spec.model_copy(update={"columns": columns, "rows": rows})
    return new_spec, SheetRowsDoc(doc, base, sheet.label, places), [path]


def _normal(text: str) -> str:
    return " ".join(text.casefold().split())


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "_", text.casefold()).strip("_")
    return slug if re.match(r"^[a-z]", slug or "") else f"c_{slug}"


def _header(spec: TableSpec, sheet: Sheet, problems: Problems
            ) -> tuple[list[ColumnSpec], dict[int, str]]:
    """The columns, and which key each spreadsheet column (0-based) holds."""
    row_number = spec.header_row
    cells = sheet.cells[row_number - 1] if row_number <= len(sheet.cells) else []
    declared = list(spec.columns) if spec.columns is not None else None
    names: dict[str, str] = {}       # a header as written (normalised) → key
    for reserved in sorted(RESERVED_KEYS):
        names[reserved] = reserved
    for label in (spec.roll_label, spec.dice, "roll"):
        if label and spec.dice:      # a dice table's roll column may be headed `d6`
            names[_normal(label)] = "roll"
    for column in declared or []:
        names.setdefault(_normal(column.key), column.key)
        names.setdefault(_normal(column.label), column.key)
    columns = declared or []
    keys: dict[int, str] = {}
    seen: dict[str, int] = {}
    for index, cell in enumerate(cells):
        if isinstance(cell, BadValue):
            problems.add(sheet.label, f"a header cell: {cell.message}", row_number, index + 1)
            continue
        if cell is None or cell.startswith("#"):
            continue
        key = names.get(_normal(cell))
        if key is None and declared is None:
            key = _slug(cell)
            columns.append(ColumnSpec(key=key, label=" ".join(cell.split()), optional=True))
            names[_normal(cell)] = key
        if key is None:
            declared = declared or []   # (a deck with columns of its own)
            known = sorted({c.key for c in declared} | {c.label for c in declared})
            close = difflib.get_close_matches(cell, known, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            problems.add(sheet.label, f"unknown column '{cell}'{hint}; the deck's columns: "
                         f"{', '.join(c.key for c in declared)} (keys or labels), and roll, "
                         "copies, weight, then; start a header with # to keep a column of "
                         "notes", row_number, index + 1)
            continue
        if key in seen:
            problems.add(sheet.label, f"column '{cell}' is also in "
                         f"{_letters(seen[key] + 1)}{row_number}: which one is it?",
                         row_number, index + 1)
            continue
        seen[key] = index
        keys[index] = key
    if not cells or not any(isinstance(c, str) and not c.startswith("#") for c in cells):
        problems.add(sheet.label, f"row {row_number} should name the columns (the header "
                     "row; header_row: N if it is further down)", row_number)
    for column in declared or []:
        if column.key not in seen and not column.optional and cells:
            problems.add(sheet.label, f"no column '{column.label}' (or '{column.key}') in "
                         "the header row", row_number)
    if spec.dice and "roll" not in seen and cells:
        problems.add(sheet.label, "no 'roll' column in the header row (this is a dice "
                     "table)", row_number)
    return columns, keys


def _letters(number: int) -> str:
    from printshop.errors import column_letters

    return column_letters(number)


def _rows(spec: TableSpec, sheet: Sheet, keys: dict[int, str], columns: list[ColumnSpec],
          problems: Problems) -> tuple[list[dict], dict[tuple, tuple[int, int | None]]]:
    types = {c.key: c.type for c in columns}
    rows: list[dict] = []
    places: dict[tuple, tuple[int, int | None]] = {}
    for number, cells in enumerate(sheet.cells[spec.header_row:], start=spec.header_row + 1):
        if all(cell is None for cell in cells):
            continue
        row: dict[str, Any] = {}
        index = len(rows)
        places[("rows", index)] = (number, None)
        for column, cell in enumerate(cells):
            key = keys.get(column)
            if key is None:
                if cell is not None and _unheaded(sheet, spec.header_row, column):
                    problems.add(sheet.label, "a value in a column without a header: name "
                                 "the column in the header row (or start its header with #)",
                                 number, column + 1)
                continue
            places[("rows", index, key)] = (number, column + 1)
            if isinstance(cell, str):
                cell = _split_list(cell) if types.get(key) == "list" else _lines(cell)
            row[key] = cell
        rows.append(row)
    return rows, places


def _unheaded(sheet: Sheet, header_row: int, column: int) -> bool:
    cells = sheet.cells[header_row - 1] if header_row <= len(sheet.cells) else []
    header = cells[column] if column < len(cells) else None
    return header is None


def _split_list(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"[,;\n]", text) if part.strip()]


def _lines(text: str) -> str:
    """A cell's lines stay lines on the card: each line break a Markdown hard break."""
    return "\\\n".join(line.rstrip() for line in text.split("\n")) if "\n" in text else text
