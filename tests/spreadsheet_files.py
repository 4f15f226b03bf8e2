"""Spreadsheet files for tests, written the way spreadsheet programs write them: XLSX with
openpyxl (dates as numbers with a date format, as Excel stores them), ODS as a zip of
OpenDocument XML (one <text:p> per line of a cell, dates as office:date-value), CSV with the
standard library. No spreadsheet program is needed."""

from __future__ import annotations

import csv
import datetime
import io
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

Cell = "str | int | float | bool | datetime.date | None"


def write_csv(path: Path, rows: list[list], delimiter: str = ",") -> Path:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n")
    for row in rows:
        writer.writerow(["" if cell is None else cell for cell in row])
    path.write_text(buffer.getvalue(), encoding="utf-8", newline="")
    return path


def write_xlsx(path: Path, sheets: dict[str, list[list]]) -> Path:
    import openpyxl

    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for r, row in enumerate(rows, start=1):
            for c, cell in enumerate(row, start=1):
                if cell is not None:
                    sheet.cell(row=r, column=c, value=cell)
                    if isinstance(cell, str) and "\n" in cell:
                        sheet.cell(row=r, column=c).alignment = openpyxl.styles.Alignment(
                            wrap_text=True)
    book.save(path)
    return path


_ODS_MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" \
manifest:version="1.2">
 <manifest:file-entry manifest:full-path="/" manifest:version="1.2" \
manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>
 <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
</manifest:manifest>
"""


def _ods_cell(cell) -> str:
    if cell is None:
        return "<table:table-cell/>"
    if isinstance(cell, bool):
        return (f'<table:table-cell office:value-type="boolean" office:boolean-value='
                f'"{str(cell).lower()}"><text:p>{str(cell).upper()}</text:p></table:table-cell>')
    if isinstance(cell, (int, float)):
        return (f'<table:table-cell office:value-type="float" office:value="{cell}">'
                f'<text:p>{cell}</text:p></table:table-cell>')
    if isinstance(cell, datetime.date):
        return (f'<table:table-cell office:value-type="date" office:date-value='
                f'"{cell.isoformat()}"><text:p>{cell.isoformat()}</text:p></table:table-cell>')
    lines = "".join(f"<text:p>{escape(line)}</text:p>" for line in str(cell).split("\n"))
    return f'<table:table-cell office:value-type="string">{lines}</table:table-cell>'


def write_ods(path: Path, sheets: dict[str, list[list]]) -> Path:
    tables = []
    for name, rows in sheets.items():
        body = "".join("<table:table-row>" + "".join(_ods_cell(c) for c in row)
                       + "</table:table-row>" for row in rows)
        tables.append(f'<table:table table:name="{escape(name)}">{body}</table:table>')
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
        f'<office:body><office:spreadsheet>{"".join(tables)}</office:spreadsheet>'
        '</office:body></office:document-content>')
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"),
                         "application/vnd.oasis.opendocument.spreadsheet",
                         compress_type=zipfile.ZIP_STORED)
        archive.writestr("META-INF/manifest.xml", _ODS_MANIFEST,
                         compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
    return path
