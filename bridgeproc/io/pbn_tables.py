"""Section contents: table headers and rows, Auction and Play tokens (PBN 2.1 chapters 3-5).

Table rows are the bulk of a results file, so they have a fast path: when a block of
rows has no escapes, comments or quoted values with spaces, ``str.split`` per line
gives exactly the tokens the quote-aware regex would, at a fraction of the cost.
Every other block goes through the regex, which also finds the problems.
"""
from __future__ import annotations

import re
from functools import lru_cache

from .pbn_model import Column

_COLUMN = re.compile(r"^([+-]?)([A-Za-z][A-Za-z0-9_]*)(?:\\(\d+)([LR]?))?$")
#: A cell: a quoted string (with \" and \\ escapes) or a bare token; ``;`` ends the row text.
_CELL = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"|([^\s"{};\[\]]+)|(;.*)|(\{[^}]*\})|(\S)')
_SIMPLE_QUOTED = re.compile(r'"[^"\s]+"')
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


def _cells_slow(line: str) -> tuple[list[str], str | None]:
    """Quote-aware cells of one row line; returns ``(cells, problem or None)``."""
    cells: list[str] = []
    for quoted, bare, comment, brace, bad in _CELL.findall(line):
        if bare:
            cells.append(bare)
        elif comment or brace:
            if comment:
                break
        elif bad:
            if bad == '"':
                return cells, ("unbalanced quote: a quoted value is not closed on this line; "
                               'add the closing " (write \\" for a quote inside a value)')
            if bad == "{":
                return cells, "brace comment inside a table row is not closed on the same line; add '}'"
            if bad == "[":
                return cells, "a tag inside a table row: start each [Name \"value\"] on its own line"
            return cells, f"unexpected {bad!r} in a table row; quote values that contain {bad!r}"
        else:
            cells.append(unescape(quoted))
    return cells, None


def _fast_rows(joined: str) -> str | None:
    """The rows as text with the quotes removed when the fast path applies, else None.

    It applies when the block has no escapes, comments or brackets and every quote
    belongs to a quoted token without spaces standing between spaces (``"420"``):
    then dropping the quotes and splitting on whitespace gives the regex's cells.
    """
    if "\\" in joined or ";" in joined or "{" in joined or "}" in joined or "[" in joined \
            or "]" in joined or "\x00" in joined:
        return None
    quotes = joined.count('"')
    if quotes:
        # every quote must belong to a "token" without spaces, standing between whitespace
        pairs = len(_SIMPLE_QUOTED.findall(joined))
        if quotes != 2 * pairs:
            return None
        opened = joined.count(' "') + joined.count('\t"') + joined.count('\n"') + (joined[0] == '"')
        closed = joined.count('" ') + joined.count('"\t') + joined.count('"\n') + (joined[-1] == '"')
        if opened != pairs or closed != pairs:
            return None
        joined = joined.replace('"', "")
    return joined


def split_rows(text: str, first_line: int, ncols: int, table: str
               ) -> tuple[list[list[str]] | str, list[int], list[tuple[int, str]]]:
    """Rows of a table section (its lines joined with newlines): one row per line, quote-aware.

    Returns ``(rows, row_lines, problems)``; a row with the wrong number of cells is
    reported and left out. On the fast path ``rows`` is the checked text itself (see
    ``Tag.text``): splitting it later, all at once, is faster than a list per row.
    """
    fast = _fast_rows(text)
    problems: list[tuple[int, str]] = []
    if fast is not None:
        lines = fast.split("\n")
        if set(map(len, map(str.split, lines))) == {ncols}:
            return fast, list(range(first_line, first_line + len(lines))), problems
    block = text.split("\n")
    lines = range(first_line, first_line + len(block))
    rows: list[list[str]] = []
    row_lines: list[int] = []
    for n, line in zip(lines, block):
        cells, problem = _cells_slow(line)
        if problem:
            problems.append((n, problem))
        elif len(cells) != ncols:
            problems.append((n, f"{table} row has {len(cells)} cell(s) but the header has {ncols} column(s); "
                                'quote values that contain spaces ("Jean Luc") and write - for an empty cell'))
        else:
            rows.append(cells)
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
