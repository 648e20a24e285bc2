"""Fonts, fills, number formats, page set-up and safe text shared by the workbook's sheets.

The workbook is written in openpyxl's write-only mode (fast for large events), so
styled cells are made with ``cell()`` and rows are appended once, with ``add_row()``.

Text from files (names, sections, the event, leads, notes) is written as text, never as a
formula: ``cell()`` and ``add_row()`` write every string as a string cell (openpyxl would
make ``=HYPERLINK(...)`` or ``=cmd|...`` a live formula and ``#N/A`` an error cell). What a
cell cannot hold is changed visibly and listed (:func:`changed_text`, shown on the
Conventions sheet): a control character becomes U+FFFD (``\ufffd``, the replacement
character; chosen over Excel's ``_x0007_`` escape, which Excel and LibreOffice decode back
into the character and which cannot be told from a name typed with ``_x0007_`` in it), text
over 32,767 characters is cut with a mark saying so, and a sheet title is made valid and
unique (:func:`new_sheet`).
"""
from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Iterable, Sequence

from openpyxl import Workbook
from openpyxl.cell import Cell
from openpyxl.cell.cell import ERROR_CODES
from openpyxl.compat.numbers import NUMERIC_TYPES
from openpyxl.styles import DEFAULT_FONT, Alignment, Border, Font, NamedStyle, PatternFill, Side

from bridgeproc._version import __version__
from bridgeproc.report.rows import RowSheet, RowWorkbook, Styled
from bridgeproc.report.xml_text import REPLACEMENT, UNWRITABLE

RED = "C00000"
TITLE = Font(bold=True, size=14)
SUBTITLE = Font(italic=True, color="555555")
BOLD = Font(bold=True)
HEADER = Font(bold=True, color="FFFFFF")
HEADER_FILL = PatternFill("solid", fgColor="305496")
BAND_FILL = PatternFill("solid", fgColor="D9E1F2")
RED_FONT = Font(color=RED)
RED_BOLD = Font(color=RED, bold=True)
CENTER = Alignment(horizontal="center")
RIGHT = Alignment(horizontal="right")
THIN = Side(style="thin", color="999999")
BOX = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)

#: Number formats: one decimal for matchpoints and IMPs, two for percentages. Whole
#: numbers (scores, tricks, boards) need none: Excel's General shows them as they are,
#: and an unstyled cell is much cheaper to write in a large event.
FORMATS = {"mp": "0.0", "imp": "0.0", "pct": "0.00", "score": None, "int": None, "factor": "0.000"}


#: The workbook's Creator property: bridgeproc's readers know their own workbook by it
#: (``io.sheets.xlsx`` reads only its Travellers sheet back).
CREATOR = "bridgeproc"


def new_workbook() -> Workbook:
    """A write-only workbook whose document properties say bridgeproc (and its version) wrote it; its
    rows are written one element each (:mod:`bridgeproc.report.rows`)."""
    wb = RowWorkbook()
    wb.properties.creator = f"{CREATOR} {__version__}"
    return wb


def excel_format(decimals: int) -> str:
    """The number format that shows ``decimals`` decimals (``0``, ``0.0``, ``0.00``)."""
    return "0" if decimals <= 0 else "0." + "0" * decimals


def cell(ws, value, font=None, fill=None, fmt=None, align=None, border=None):
    """A write-only cell with the given style (None leaves the default).

    Unstyled values are returned as they are (openpyxl writes them as plain cells).
    Each distinct style becomes one hidden named style of the workbook (``bridgeproc 1``,
    ``bridgeproc 2`` ...), registered once; a cell is made with a copy of its small style
    array: fast for large travellers and score cards (setting ``font``, ``fill`` ... on
    every cell costs several times more).
    """
    if isinstance(value, str):
        value = _fit(ws, value)
    if fmt is not None:
        fmt = FORMATS.get(fmt, fmt)
    if font is None and fill is None and fmt is None and align is None and border is None:
        if isinstance(value, str) and (value[:1] == "=" or value in ERROR_CODES):
            return _text_cell(Cell(ws, row=1, column=1, value=value))
        return value
    return _styled(ws, value, _style_array(ws, font, fill, fmt, align, border))


def styled(ws, font=None, fill=None, fmt=None, align=None, border=None) -> Callable[[object], object]:
    """A maker of cells of one style, each as :func:`cell` makes it, the style found once: for a column
    written row by row (the travellers and score cards of a large event)."""
    if font is None and fill is None and fmt is None and align is None and border is None:
        return lambda value: cell(ws, value)
    style = _style_array(ws, font, fill, FORMATS.get(fmt, fmt) if fmt is not None else None, align, border)

    def make(value):
        return _styled(ws, _fit(ws, value) if isinstance(value, str) else value, style)
    return make


def _styled(ws, value, style: tuple):
    """``value`` with the named style whose array is ``style``: a :class:`Styled` for a
    :class:`RowSheet`, else a write-only cell (what openpyxl's WriteOnlyCell makes) with a copy of the
    array (what ``cell.style = name`` sets, without looking the name up per cell); text stays text."""
    if isinstance(ws, RowSheet):
        if isinstance(value, str):
            return Styled(value, "s", style)
        if isinstance(value, bool):
            return Styled(value, "b", style)
        if value is None or isinstance(value, NUMERIC_TYPES):
            return Styled(value, "n", style)
    made_cell = Cell(ws, row=1, column=1, value=value, style_array=style)
    return _text_cell(made_cell) if isinstance(value, str) else made_cell


def _style_array(ws, font, fill, fmt, align, border):
    """The array of the workbook's named style for this combination, made the first time it is asked for."""
    key = (id(font), id(fill), fmt, id(align), id(border))
    made = _NAMED.get(ws.parent)
    style = made.get(key) if made is not None else None
    return style if style is not None else _add_named_style(ws.parent, key, font, fill, fmt, align, border)


def add_row(ws, values: Iterable) -> None:
    """Append one row to a write-only sheet, every string written as text (see the module docstring).

    Every writer appends through this, so no text from a file becomes a formula."""
    ws.append([cell(ws, v) if isinstance(v, str) else v for v in values])


#: The most characters a cell holds (Excel's limit; openpyxl cuts silently).
MAX_CELL_TEXT = 32_767
#: Characters Excel does not allow in a sheet title (openpyxl's INVALID_TITLE_REGEX), and its length limit.
_TITLE_FORBIDDEN = re.compile(r"[\\*?:/\[\]]")
MAX_TITLE = 31
#: Text changed to fit the workbook, per workbook: what was changed and why (see :func:`changed_text`).
_CHANGED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _text_cell(made: Cell) -> Cell:
    """The cell as a string cell: openpyxl types ``=...`` as a formula and ``#N/A`` as an error."""
    made.data_type = "s"
    return made


def _preview(text: str) -> str:
    """The start of ``text`` quoted, control characters as escapes (``'Anna\\x07'``)."""
    return repr(text[:40] + ("..." if len(text) > 40 else ""))


def _record(wb, change: str, sheet: str | None = None) -> None:
    """Remember ``change`` (once, with every sheet it was made on) for :func:`changed_text`."""
    sheets = _CHANGED.setdefault(wb, {}).setdefault(change, {})
    if sheet is not None:
        sheets[sheet] = None


def _fit(ws, text: str) -> str:
    """``text`` as a cell can hold it: control characters (and U+FFFE, U+FFFF, lone surrogates, which XML
    cannot hold either) replaced, cut at the cell's limit; each change recorded for :func:`changed_text`."""
    if UNWRITABLE.search(text) is None and len(text) <= MAX_CELL_TEXT:
        return text
    fitted = text
    unwritable = UNWRITABLE.findall(text)
    if unwritable:
        fitted = UNWRITABLE.sub(REPLACEMENT, text)
        first = UNWRITABLE.search(text).start()  # type: ignore[union-attr]
        around = ("..." if first > 20 else "") + text[max(first - 20, 0):]
        what = "control character(s)" if all(c < " " for c in unwritable) else "character(s) XML cannot hold"
        _record(ws.parent, f"{len(unwritable)} {what} in {_preview(around)} shown as {REPLACEMENT}: "
                           "a worksheet cannot hold them; correct the input file", ws.title)
    if len(fitted) > MAX_CELL_TEXT:
        mark = f" [... cut: {len(fitted):,} characters, a cell holds {MAX_CELL_TEXT:,}]"
        fitted = fitted[:MAX_CELL_TEXT - len(mark)] + mark
        _record(ws.parent, f"text of {len(text):,} characters starting {_preview(text)} cut to "
                           f"{MAX_CELL_TEXT:,}, the most a cell holds", ws.title)
    return fitted


def new_sheet(wb, title: str, wanted: str | None = None):
    """A new write-only sheet named ``title`` made valid and unique: characters Excel refuses in a title
    (``\\ / * ? : [ ]``, control characters) become ``-``, leading and trailing apostrophes go, the
    title is cut at 31 characters and a duplicate (compared as Excel does, ignoring case) gets
    `` (2)``, `` (3)`` ...; a changed title is recorded for :func:`changed_text`, as a change of
    ``wanted`` when given (the title before the caller shortened it)."""
    name = UNWRITABLE.sub("-", _TITLE_FORBIDDEN.sub("-", title)).strip().strip("'").strip()
    name = name[:MAX_TITLE].rstrip().rstrip("'") or "Sheet"
    taken = {t.lower() for t in wb.sheetnames} | {"history"}  # Excel reserves History
    number = 1
    unique = name
    while unique.lower() in taken:
        number += 1
        suffix = f" ({number})"
        unique = name[:MAX_TITLE - len(suffix)].rstrip() + suffix
    wanted = title if wanted is None else wanted
    if unique != wanted:
        _record(wb, f"sheet {wanted[:80]!r} is named {unique!r}: a sheet title has at most {MAX_TITLE} "
                    "characters, none of \\ / * ? : [ ], and differs from every other")
    return wb.create_sheet(unique)


def changed_text(wb) -> list[str]:
    """What :func:`cell`, :func:`add_row` and :func:`new_sheet` changed in ``wb`` so far, one line each
    (``Score cards, Travellers: 1 control character(s) in 'Anna\\x07Berg' shown as ...``)."""
    return [f"{', '.join(sheets)}: {change}" if sheets else change for change, sheets in _CHANGED.get(wb, {}).items()]


def add_changed_text(ws) -> None:
    """Append to ``ws`` (the Conventions sheet, written last) what was changed to fit the workbook, so
    that nothing is changed silently: a heading, then one line per change (nothing when none was)."""
    changes = changed_text(ws.parent)
    if not changes:
        return
    add_row(ws, [])
    add_row(ws, [cell(ws, "Text changed to fit the workbook", font=RED_BOLD)])
    for change in changes:
        add_row(ws, [cell(ws, change)])


#: The named styles made by :func:`cell`, per workbook: style key -> the style's array.
_NAMED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
#: The objects each key was made of: kept alive, so that their ids (the key) cannot pass to other objects.
_KEPT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _add_named_style(wb, key: tuple, font, fill, fmt, align, border):
    """Add the named style ``bridgeproc <n>`` for this combination to ``wb``; its style array."""
    made = _NAMED.setdefault(wb, {})
    _KEPT.setdefault(wb, []).append((font, fill, align, border))
    style = NamedStyle(name=f"bridgeproc {len(made) + 1}", font=font or DEFAULT_FONT, fill=fill, border=border,
                       alignment=align, number_format=fmt, hidden=True)
    wb.add_named_style(style)
    made[key] = style.as_tuple()
    return made[key]


def header_row(ws, titles: list[str]) -> list:
    """A row of white-on-blue header cells."""
    return [cell(ws, t, font=HEADER, fill=HEADER_FILL, align=CENTER) for t in titles]


def set_widths(ws, widths: Sequence[float]) -> None:
    """Column widths in characters, from column A on."""
    from openpyxl.utils import get_column_letter

    for index, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(index)].width = width


def a4(ws, title_rows: str | None = None, landscape: bool = False) -> None:
    """Print on A4, fitted to the page width, repeating ``title_rows`` (e.g. ``"5:5"``)."""
    ws.page_setup.paperSize = 9  # A4 (openpyxl Worksheet.PAPERSIZE_A4)
    ws.page_setup.orientation = "landscape" if landscape else "portrait"
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_options.gridLines = False
    ws.page_margins.left = ws.page_margins.right = 0.5
    if title_rows:
        ws.print_title_rows = title_rows


#: Default rows (15 pt) an A4 portrait page holds at 100 % within the margins :func:`fit_rows` sets
#: (LibreOffice prints 50; a little spare for Excel's taller rows).
ROWS_PER_A4 = 47
#: Characters of column width an A4 portrait page holds at 100 % (LibreOffice: about 76).
WIDTH_PER_A4 = 70


def fit_rows(ws, rows: int, width: float = 0) -> None:
    """Print ``ws`` (set up by :func:`a4`) at a fixed scale at which ``rows`` rows and columns ``width``
    characters wide fit one page, so that the manual page breaks (a score card or four hand records per
    page) fall where they are set: fitting to the width alone would print a narrow sheet at full size
    and cut its blocks."""
    ws.sheet_properties.pageSetUpPr.fitToPage = False
    high, wide = (ROWS_PER_A4, WIDTH_PER_A4) if ws.page_setup.orientation != "landscape" else \
        (ROWS_PER_A4 * 2 // 3, WIDTH_PER_A4 * 3 // 2)  # A4 turned: 31 rows, 105 characters
    scale = min(100 * high // max(rows, 1), int(100 * wide // max(width, 1)))
    ws.page_setup.scale = max(10, min(100, scale))
    ws.page_margins.top = ws.page_margins.bottom = 0.6
    ws.page_margins.header = ws.page_margins.footer = 0.3


def break_before(ws, rows) -> None:
    """Start a new printed page at each of ``rows`` (1-based sheet rows; row 1 never breaks)."""
    from openpyxl.worksheet.pagebreak import Break, RowBreak

    # set once: openpyxl checks the whole list again on each append (2,000 score cards: 0.1 s)
    ws.row_breaks = RowBreak(brk=[*ws.row_breaks.brk, *(Break(id=row - 1) for row in rows if row > 1)])


def is_red(text) -> bool:
    """True for text showing a red suit (hearts or diamonds)."""
    return isinstance(text, str) and ("♥" in text or "♦" in text)


def numbers(values: list) -> list:
    """Pair and board numbers written as numbers where they are whole numbers (so Excel sorts 1, 2 ...
    10, not 1, 10, 2); ``12A``, ``1NS`` or names stay text."""
    return [int(v) if isinstance(v, str) and v.isdigit() and len(v) < 10 else v for v in values]
