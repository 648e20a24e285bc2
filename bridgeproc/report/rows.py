"""A write-only worksheet that writes each appended row at once, openpyxl's XML byte for byte.

openpyxl's write-only sheet turns every value appended into a cell object, types it again, and
writes it through lxml's incremental writer one context per cell: about 10 µs a cell, most of a
large event's workbook (814,000 cells for 1,000 tables). bridgeproc's rows hold text, whole and
decimal numbers, booleans and the styled cells :func:`bridgeproc.report.styles.cell` makes, so
:class:`RowSheet` writes each appended row's ``<row>`` as text (each style's number looked up once),
a few hundred rows at a time, into the file lxml's incremental writer writes the rest of the sheet
to (flushed first, so that the two keep their order). The sheet's XML is the one openpyxl writes, byte for byte (``tests/report/test_rows.py``
compares the two on generated rows, the golden outputs on the real files); a row holding anything
else (a date, a hyperlink, a comment, a formula) is written by openpyxl's own code. Every string is
written as text, never as a formula (``styles.add_row`` says why); fitting text to a cell is
:func:`bridgeproc.report.styles.cell`'s job, before the row comes here.
"""
from __future__ import annotations

import datetime
from math import isinf, isnan
from typing import BinaryIO
from zipfile import ZIP_DEFLATED, ZipFile

from openpyxl import LXML, Workbook
from openpyxl import __version__ as openpyxl_version
from openpyxl.cell.cell import Cell
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet
from openpyxl.worksheet._writer import WorksheetWriter
from openpyxl.writer.excel import ExcelWriter
from openpyxl.xml.constants import SHEET_MAIN_NS
from openpyxl.xml.functions import xmlfile

from bridgeproc.report.xml_text import UNWRITABLE

#: How many rows' XML are written to the file at once.
_BATCH = 200
#: Column letters by index from 0 (A), made as a sheet needs them.
_LETTERS: list[str] = []
#: Cell types written here (openpyxl's data types); any other makes openpyxl write the row.
_WRITTEN = {"s": "inlineStr", "n": "n", "b": "b"}


def _letter(column: int) -> str:
    """The letter of 0-based ``column`` (``A``, ``B`` ... ``AA``)."""
    while len(_LETTERS) <= column:
        _LETTERS.append(get_column_letter(len(_LETTERS) + 1))
    return _LETTERS[column]


class Styled:
    """A value with its style for a :class:`RowSheet`: what a styled openpyxl cell holds, without the cell.

    ``code`` is openpyxl's data type (``s`` text, ``n`` number, ``b`` boolean); ``style`` is the
    workbook's named style array (one object per style, kept by :mod:`bridgeproc.report.styles`)."""

    __slots__ = ("value", "code", "style")

    def __init__(self, value, code: str, style: tuple) -> None:
        self.value, self.code, self.style = value, code, style


class _RowWriter(WorksheetWriter):
    """openpyxl's worksheet writer with lxml's incremental writer on a file of ours (``handle``), so that
    rows written as text can go to the same file between lxml's own writes."""

    handle: BinaryIO

    def get_stream(self):  # openpyxl's, but the file is opened here
        with open(self.out, "wb") as handle, xmlfile(handle) as xf:
            self.handle = handle
            with xf.element("worksheet", xmlns=SHEET_MAIN_NS):
                try:
                    while True:
                        element = yield
                        if element is True:
                            yield xf
                        elif element is not None:
                            xf.write(element)
                except GeneratorExit:
                    pass


class RowSheet(WriteOnlyWorksheet):
    """openpyxl's write-only worksheet whose rows are written as text (see the module docstring)."""

    def _get_writer(self):
        if self._writer is None:
            self._writer = _RowWriter(self)
            self._writer.write_top()

    def _write_rows(self):  # openpyxl's generator of the sheet's rows: sent each appended row
        try:
            xf = self._writer.xf.send(True)
        except StopIteration:
            self._already_saved()
        styles: dict = {}  # a style array's bytes (a cell's) or the array's id (a Styled's) -> its number
        pending: list[str] = []  # rows' XML not yet written
        with xf.element("sheetData"):
            number = 1
            try:
                while True:
                    values = yield
                    row = self._row_xml(values, number, styles)
                    if row is None:
                        self._write_pending(xf, pending)
                        self._writer.write_row(xf, self._values_to_row(self._as_cells(values), number), number)
                    else:
                        pending.append(row)
                        if len(pending) == _BATCH:
                            self._write_pending(xf, pending)
                    number += 1
            except GeneratorExit:
                self._write_pending(xf, pending)
        self._writer.xf.send(None)

    def _as_cells(self, values) -> list:
        """``values`` for openpyxl's own writer: a :class:`Styled` value as the cell it stands for (text
        stays text), anything else as it is."""
        out = []
        for value in values:
            if type(value) is Styled:
                made = Cell(self, row=1, column=1, value=value.value, style_array=StyleArray(value.style))
                if value.code == "s" and value.value is not None:
                    made.data_type = "s"
                value = made
            out.append(value)
        return out

    def _write_pending(self, xf, pending: list[str]) -> None:
        """Write the rows of ``pending`` (their XML) to the sheet's file after what lxml has written, and
        empty it. lxml writes ASCII with character references (``&#233;``), and so do these rows."""
        if pending:
            xf.flush()
            self._writer.handle.write("".join(pending).encode("ascii", "xmlcharrefreplace"))
            pending.clear()

    def _row_xml(self, values, number: int, styles: dict) -> str | None:
        """Row ``number``'s XML as openpyxl writes it, or None when a value is not one :class:`RowSheet` writes.

        A style gets its number the first time a sheet writes it, as openpyxl numbers them."""
        at = str(number)
        parts = ['<row r="', at, '"']
        for name, setting in self.row_dimensions.get(number, {}):
            parts.append(f' {name}="{_attribute(setting)}"')
        parts.append(">")
        if len(values) > len(_LETTERS):
            _letter(len(values))
        letters = _LETTERS
        for column, value in enumerate(values):
            if value is None:
                continue
            kind = type(value)
            style = None
            if kind is Styled:
                style = styles.get(id(value.style))
                if style is None:
                    style = styles[id(value.style)] = str(self.parent._cell_styles.add(StyleArray(value.style)))
                code = value.code
                value = value.value
            elif kind is Cell:
                if value._hyperlink is not None or value._comment is not None or value.data_type not in _WRITTEN:
                    return None
                array = value._style
                if array is not None and any(array):
                    key = array.tobytes()
                    style = styles.get(key)
                    if style is None:
                        style = styles[key] = str(value.style_id)
                code = value.data_type
                value = value._value
                if value is None and style is None:
                    continue
            elif kind is str:
                code = "s"
            elif kind is int or kind is float:
                code = "n"
            elif kind is bool:
                code = "b"
            else:
                return None
            start = (f'<c r="{letters[column]}{at}" s="{style}" t="{_WRITTEN[code]}">' if style else
                     f'<c r="{letters[column]}{at}" t="{_WRITTEN[code]}">')
            if value is None or value == "":
                parts.append(start + "</c>")  # <c ...></c>, as openpyxl writes an empty cell
            elif code == "s":
                space = ' xml:space="preserve"' if value != value.strip() else ""
                parts.append(f"{start}<is><t{space}>{_escaped(value)}</t></is></c>")
            else:
                parts.append(f'{start}<v>{"" if isnan(value) or isinf(value) else "%.16g" % value}</v></c>')
        parts.append("</row>")
        return "".join(parts)


def _escaped(text: str) -> str:
    """``text`` as lxml writes it as an element's text: ``&``, ``<`` and ``>`` escaped, a carriage return as
    ``&#13;``. A character XML cannot hold (a control character, a lone surrogate) is refused as lxml
    refuses it: :func:`bridgeproc.report.styles.cell` replaces those before a row comes here."""
    if UNWRITABLE.search(text) is not None:
        raise ValueError("All strings must be XML compatible: Unicode or ASCII, no NULL bytes or control characters")
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    if "\r" in text:
        text = text.replace("\r", "&#13;")
    return text


def _attribute(text: str) -> str:
    """``text`` as lxml writes it as an attribute's value."""
    return _escaped(text).replace('"', "&quot;").replace("\n", "&#10;").replace("\t", "&#9;")


#: The openpyxl releases whose write-only internals :class:`RowSheet` takes part in (``_write_rows``,
#: ``_get_writer``, ``WorksheetWriter.get_stream``, ``_values_to_row``), checked against openpyxl's own
#: output by tests/report/test_rows.py. Under any other release a workbook is written by openpyxl's own
#: write-only sheets: the same file, more slowly, until a test run says RowSheet still matches.
OPENPYXL_RELEASES = ("3.1.",)


def row_sheets(version: str = openpyxl_version, lxml: bool = LXML) -> bool:
    """Whether workbooks are written with :class:`RowSheet` under this openpyxl (with lxml, as it needs)."""
    return lxml and version.startswith(OPENPYXL_RELEASES)


#: zlib's level for the workbook's parts: its fastest. A club night's workbook is 91 kB instead of 71 kB at
#: zlib's default (6), deflated in 2.0 ms instead of 5.5; a national event's saves a third of a second.
COMPRESSION_LEVEL = 1


class RowWorkbook(Workbook):
    """A write-only workbook whose sheets are :class:`RowSheet` (openpyxl's own under another openpyxl
    release, :data:`OPENPYXL_RELEASES`, or without lxml), saved with its parts deflated at
    :data:`COMPRESSION_LEVEL`."""

    def __init__(self) -> None:
        super().__init__(write_only=True)

    def save(self, filename) -> None:
        if not row_sheets():
            return super().save(filename)
        if not self.worksheets:
            self.create_sheet()
        # openpyxl's save_workbook, the archive deflated at our level
        archive = ZipFile(filename, "w", ZIP_DEFLATED, allowZip64=True, compresslevel=COMPRESSION_LEVEL)
        self.properties.modified = datetime.datetime.now(tz=datetime.timezone.utc).replace(tzinfo=None)
        ExcelWriter(self, archive).save()
        return None

    def create_sheet(self, title=None, index=None):
        if not row_sheets():
            return super().create_sheet(title, index)
        sheet = RowSheet(parent=self, title=title)
        self._add_sheet(sheet=sheet, index=index)
        return sheet
