"""Section contents: table headers and rows, Auction and Play tokens (PBN 2.1 chapters 3-5).

Table rows are the bulk of a results file, so they have a fast path: when no token
of a block needs the quote-aware regex (no escapes, comments, brackets or quoted
values with spaces), ``str.split`` gives exactly the regex's cells at a fraction of
the cost. Each distinct token is checked and unquoted once (``CellCache``), and
every later copy of it is the same string object: a million cells then point at
a few hundred strings, which keeps every later pass over them cache friendly.
Every other block goes through the regex, which also finds the problems.
"""
from __future__ import annotations

import re
from functools import lru_cache

from bridgeproc.io.pbn.model import EMPTY, ROW_END, Column, cell_rows

_COLUMN = re.compile(r"^([+-]?)([A-Za-z][A-Za-z0-9_]*)(?:\\(\d+)([LR]?))?$")
#: A cell: a quoted string (with \" and \\ escapes) or a bare token; ``;`` ends the row text.
_CELL = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"|([^\s"{};\[\]]+)|(;.*)|(\{[^}]*\})|(\S)')
#: Said of a ``;`` comment at the end of a row (PBN 2.1 section 5.1: a table row holds no comment).
ROW_COMMENT = "a ';' comment at the end of a table row: PBN allows no comment inside a row; it is ignored"
#: Said of an unquoted cell holding ``%`` (``50%``: an average as earlier bridgeproc versions wrote it).
_BARE_PERCENT = re.compile(r"^\d{1,3}(?:[.,]\d{1,4})?%$")
ROW_PERCENT = "an unquoted table cell holds '%' (PBN quotes such a value: \"50%\"); read as written"
_ESCAPE = re.compile(r'\\(["\\])')

_CALL = re.compile(r"(?i)^(?:pass|p|x|xx|ap|[1-7](?:c|d|h|s|nt|n)|-|\*|\+|\^[IS])$")
_CARD = re.compile(r"(?i)^(?:[SHDC][AKQJT2-9]|-|\*|\+|\^[RL])$")
_ANNOTATION = re.compile(r"^(?:=\d{1,2}=|\$\d{1,3}|!!|\?\?|!\?|\?!|!|\?)$")
#: Splits ``1S!=1=`` into ``1S``, ``!``, ``=1=``.
_PIECES = re.compile(r"=\d{1,2}=|\$\d{1,3}|!!|\?\?|!\?|\?!|!|\?|[^=$!?]+|.")


def unescape(value: str) -> str:
    """Undo the ``\\"`` and ``\\\\`` escapes of a PBN string."""
    if "\\" not in value or ('\\"' not in value and "\\\\" not in value):
        return value
    return _ESCAPE.sub(r"\1", value)


@lru_cache(maxsize=1024)
def parse_columns(value: str) -> tuple[tuple[Column, ...], tuple[str, ...]]:
    """Column specifiers of a table tag (``Name\\4R;+Rank``); returns ``(columns, problems)``."""
    columns: list[Column] = []
    problems: list[str] = []
    for spec in value.split(";"):
        spec = spec.strip()
        m = _COLUMN.match(spec)
        if not m:
            problems.append(f"bad column {spec!r} in the table header: write Name, Name\\width or "
                            "Name\\widthL/R, separated by ';' (e.g. Contract\\4L;Score_NS\\5R)")
            columns.append(Column(spec))  # still a column, so that the rows are not reported as well
            continue
        order, name, width, align = m.groups()
        columns.append(Column(name, order, int(width) if width is not None else None, align or ""))
    return tuple(columns), tuple(problems)


def _cells_slow(line: str, percent: list[bool] | None = None) -> tuple[list[str], str | None, bool]:
    """Quote-aware cells of one row line; returns ``(cells, problem or None, ends in a ; comment)``.
    An unquoted percentage (``50%``) is read as written, and ``percent`` (when given) gets ``True``;
    any other unquoted ``%`` is a problem (PBN forbids it in a table row)."""
    cells: list[str] = []
    for quoted, bare, comment, brace, bad in _CELL.findall(line):
        if bare:
            if "%" in bare:
                if not _BARE_PERCENT.match(bare):  # '%' is not a PBN cell character: only a percentage is forgiven
                    return cells, "unexpected '%' in a table row; quote values that contain '%'", False
                if percent is not None:
                    percent.append(True)
            cells.append(bare)
        elif comment or brace:
            if comment:
                return cells, None, bool(cells)
        elif bad:
            if bad == '"':
                return cells, ("unbalanced quote: a quoted value is not closed on this line; "
                               'add the closing " (write \\" for a quote inside a value)'), False
            if bad == "{":
                return cells, "brace comment inside a table row is not closed on the same line; add '}'", False
            if bad == "[":
                return cells, "a tag inside a table row: start each [Name \"value\"] on its own line", False
            return cells, f"unexpected {bad!r} in a table row; quote values that contain {bad!r}", False
        else:
            cells.append(unescape(quoted))
    return cells, None, False


#: Characters that make a token need the quote-aware regex (escapes, comments, brackets).
_SPECIAL = re.compile(r'[\\;{}\[\]%\x00]')


class CellCache(dict):
    """Token as written -> cell, filled on first sight: every copy of a token gives the same object.

    Cells are as in ``Tag.cells``: text, or None for ``-`` and ``EMPTY`` for ``""``. A
    token the fast path cannot take (``"Jean`` of ``"Jean Luc"``, ``a;b``, ``x\\"``) is
    not stored: each sight sets ``failed``, and the block goes through the regex.
    """

    failed = False

    def __init__(self) -> None:
        super().__init__({ROW_END: ROW_END})

    def __missing__(self, token: str) -> str | float | None:
        if _SPECIAL.search(token) is None:
            if '"' not in token:
                cell = token
            elif len(token) >= 2 and token[0] == token[-1] == '"' and token.count('"') == 2:
                cell = token[1:-1]
            else:
                self.failed = True
                return token
            value = self[token] = None if cell == "-" else EMPTY if cell == "" else cell
            return value
        self.failed = True
        return token


def table_cells(text: str, ncols: int, cache: CellCache) -> list | None:
    """Cells of a block of rows (lines joined by newlines, maybe one at the end), each row followed by ``ROW_END``.

    None when the fast path does not apply: a token needs the regex, or a row does
    not have ``ncols`` cells (``split_rows`` then finds the problems).
    """
    if ROW_END in text:
        return None
    if text[-1:] != "\n":
        text += "\n"
    cache.failed = False
    cells = list(map(cache.__getitem__, text.replace("\n", " \x00 ").split()))
    rows = text.count("\n")
    # every row has ncols cells exactly when the cell count is right and each row end sits after ncols cells
    if cache.failed or len(cells) != rows * (ncols + 1) or cells[ncols::ncols + 1].count(ROW_END) != rows:
        return None
    return cells


def split_rows(text: str, first_line: int, ncols: int, table: str, cache: CellCache | None = None,
               notes: list[tuple[int, str]] | None = None
               ) -> tuple[list[list[str]], list[int], list[tuple[int, str]]]:
    """Rows of a table section (its lines joined with newlines): one row per line, quote-aware.

    Returns ``(rows, row_lines, problems)``; a row with the wrong number of cells is
    reported and left out. A ``;`` comment ending a row is ignored with a note (to ``notes``), and so
    is the first unquoted cell holding ``%`` of a table (read as written).
    """
    cells = table_cells(text, ncols, CellCache() if cache is None else cache)
    if cells is not None:
        fast = cell_rows(cells, ncols)
        return fast, list(range(first_line, first_line + len(fast))), []
    problems: list[tuple[int, str]] = []
    block = text.split("\n")
    lines = range(first_line, first_line + len(block))
    rows: list[list[str]] = []
    row_lines: list[int] = []
    percent: list[bool] = []
    noted = False
    for n, line in zip(lines, block):
        row, problem, commented = _cells_slow(line, percent)
        if commented and notes is not None:
            notes.append((n, ROW_COMMENT))
        if percent and not noted and notes is not None:
            notes.append((n, ROW_PERCENT))  # at the table's first such cell only
            noted = True
        if problem:
            problems.append((n, problem))
        elif len(row) != ncols:
            problems.append((n, f"{table} row has {len(row)} cell(s) but the header has {ncols} column(s); "
                                'quote values that contain spaces ("Jean Luc") and write - for an empty cell'))
        else:
            rows.append(row)
            row_lines.append(n)
    return rows, row_lines, problems


def section_tokens(words: list[str], section: str) -> tuple[list[str], list[str]]:
    """Split Auction/Play words into tokens (calls or cards, ``=n=``, ``$n``, suffixes).

    Returns ``(tokens, problems)``.
    """
    tokens: list[str] = []
    problems: list[str] = []
    valid = _CALL if section == "Auction" else _CARD
    for word in words:
        pieces = [word] if valid.match(word) else _PIECES.findall(word)
        for piece in pieces:
            if valid.match(piece) or _ANNOTATION.match(piece):
                tokens.append(piece)
            elif section == "Auction":
                problems.append(f"bad call {piece!r} in the Auction: write Pass, X, XX, AP or a bid "
                                "such as 1C or 3NT (notes as =1=, NAGs as $1)")
            else:
                problems.append(f"bad card {piece!r} in the Play: write suit then rank, e.g. SA, HT, "
                                "D2, or - for an unknown card")
    return tokens, problems
