"""Fonts, fills, number formats and page set-up shared by the workbook's sheets.

The workbook is written in openpyxl's write-only mode (fast for large events), so
styled cells are made with ``cell()`` and rows are appended once.
"""
from __future__ import annotations

import weakref
from collections.abc import Sequence

from openpyxl.cell import Cell
from openpyxl.styles import DEFAULT_FONT, Alignment, Border, Font, NamedStyle, PatternFill, Side

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


def cell(ws, value, font=None, fill=None, fmt=None, align=None, border=None):
    """A write-only cell with the given style (None leaves the default).

    Unstyled values are returned as they are (openpyxl writes them as plain cells).
    Each distinct style becomes one hidden named style of the workbook (``bridgeproc 1``,
    ``bridgeproc 2`` ...), registered once; a cell is made with a copy of its small style
    array: fast for large travellers and score cards (setting ``font``, ``fill`` ... on
    every cell costs several times more).
    """
    if fmt is not None:
        fmt = FORMATS.get(fmt, fmt)
    if font is None and fill is None and fmt is None and align is None and border is None:
        return value
    key = (id(font), id(fill), fmt, id(align), id(border))
    made = _NAMED.get(ws.parent)
    style = made.get(key) if made is not None else None
    if style is None:
        style = _add_named_style(ws.parent, key, font, fill, fmt, align, border)
    # a write-only cell (what openpyxl's WriteOnlyCell makes) with a copy of the named
    # style's array: what ``cell.style = name`` sets, without looking the name up per cell
    return Cell(ws, row=1, column=1, value=value, style_array=style)


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


def is_red(text) -> bool:
    """True for text showing a red suit (hearts or diamonds)."""
    return isinstance(text, str) and ("♥" in text or "♦" in text)
