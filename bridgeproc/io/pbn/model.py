"""The in-memory shape of a PBN file: games made of tags, some of which carry a section.

Kept separate from the lexer and the frame builders so that the reader, the writer
and tests share one vocabulary (PBN 2.1 chapters 3 and 5).
"""
from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from operator import attrgetter

import pandas as pd

from bridgeproc.errors import ParseError

#: The mandatory tag set (PBN 2.1 section 3.1), in export order.
MANDATORY_TAGS = (
    "Event", "Site", "Date", "Board", "West", "North", "East", "South",
    "Dealer", "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result",
)
#: Tags followed by a section of call or card tokens.
TOKEN_SECTIONS = ("Auction", "Play")


#: Ends each row in a flat list of table cells (``Tag.cells``); never a cell itself.
ROW_END = "\x00"
#: Stands in a flat cell list for an empty cell (``""``), as None does for ``-``: the frame
#: builders find both ("no value") in one vectorised ``pandas.isna``.
EMPTY = float("nan")


def cell_rows(cells: list, ncols: int) -> list[list[str]]:
    """The rows of a flat cell list (each row of ``ncols`` cells followed by ``ROW_END``), as text."""
    # c != c only for a NaN: EMPTY, or a copy of it (pickled tags hold another NaN object)
    texts = ["-" if c is None else "" if c != c else c for c in cells]
    return [texts[i:i + ncols] for i in range(0, len(texts), ncols + 1)]


def is_table(name: str) -> bool:
    """True for supplemental table tags (``ScoreTable``, ``TotalScoreTable``, ``OptimumResultTable`` ...)."""
    return name.endswith("Table") and name != "Table"


@dataclass(slots=True, frozen=True)
class Column:
    """One column specifier of a table header: ``[+|-]Name[\\width[L|R]]``."""

    name: str
    order: str = ""  # "+" (descending), "-" (ascending) or ""
    width: int | None = None
    align: str = ""  # "L", "R" or ""

    def spec(self) -> str:
        """The specifier text as written in the table tag."""
        text = f"{self.order}{self.name}"
        if self.width is not None:
            text += f"\\{self.width}{self.align}"
        return text


class Tag:
    """A tag pair with its section, if any.

    ``tokens``/``token_lines`` hold an Auction or Play section (calls/cards with note
    references ``=n=``, NAGs ``$n``, suffixes, ``AP``, ``-``, ``*``, ``+``) and ``notes``
    the ``Note`` tags that follow it. Tables have ``columns`` and ``rows`` (lists of
    cells, unquoted, ``-``/``?``/``^`` markers kept as written), with the file line of
    each row in ``row_lines``. A plain class with class-level defaults: a file has
    hundreds of thousands of tags and most carry only name, value and line.
    """

    tokens: list[str] | None = None
    token_lines: list[int] | None = None
    notes: list["Tag"] | None = None
    columns: tuple[Column, ...] | None = None
    #: ``(first line, count)`` of rows on consecutive lines (the fast path): ``row_lines``
    #: is made from it when asked for.
    row_span: tuple[int, int] | None = None
    _row_lines: list[int] | None = None
    inherited: bool = False
    #: Rows read by the fast path, kept flat until asked for: the cells of each row
    #: (unquoted; None for ``-``, ``EMPTY`` for an empty cell) followed by ``ROW_END``.
    #: See :attr:`rows`.
    cells: list | None = None
    _rows: list[list[str]] | None = None

    def __init__(self, name: str, value: str, line: int, inherited: bool = False) -> None:
        self.name = name
        self.value = value
        self.line = line
        if inherited:
            self.inherited = True

    def copy(self) -> "Tag":
        """A copy that can be changed without changing this tag: its lists copied, its strings shared
        (what ``copy.deepcopy`` gives, at a fraction of its cost on a file of 24,000 results)."""
        other = Tag(self.name, self.value, self.line, self.inherited)
        for name in ("tokens", "token_lines", "_row_lines", "cells"):
            value = getattr(self, name)
            if value is not None:
                setattr(other, name, list(value))
        if self.notes is not None:
            other.notes = [note.copy() for note in self.notes]
        if self._rows is not None:
            other._rows = [list(row) for row in self._rows]
        if self.columns is not None:
            other.columns = self.columns  # a tuple of frozen Columns
        if self.row_span is not None:
            other.row_span = self.row_span
        return other

    def __repr__(self) -> str:
        extra = f", {self.row_count} rows" if self.columns is not None else ""
        extra += f", {len(self.tokens)} tokens" if self.tokens is not None else ""
        return f"Tag({self.name!r}, {self.value!r}, line={self.line}{extra})"

    @property
    def rows(self) -> list[list[str]] | None:
        """Table cells, one list per row (None for a tag that is not a table)."""
        if self._rows is None and self.cells is not None:
            self._rows = cell_rows(self.cells, len(self.columns or ()))
            self.cells = None
        return self._rows

    @rows.setter
    def rows(self, value: list[list[str]] | None) -> None:
        self._rows, self.cells = value, None

    @property
    def row_lines(self) -> list[int] | None:
        """The file line of each row (None for a tag that is not a table)."""
        if self._row_lines is None and self.row_span is not None:
            first, count = self.row_span
            self._row_lines, self.row_span = list(range(first, first + count)), None
        return self._row_lines

    @row_lines.setter
    def row_lines(self, value: list[int] | None) -> None:
        self._row_lines, self.row_span = value, None

    @property
    def row_count(self) -> int:
        """How many rows the table has (0 for a tag that is not a table)."""
        return self.row_span[1] if self.row_span is not None else len(self._row_lines or ())

    @property
    def is_table(self) -> bool:
        """True for a table tag (it has a column header)."""
        return self.columns is not None

    @property
    def column_names(self) -> list[str]:
        """Names of the table's columns (empty for a non-table tag)."""
        return [c.name for c in self.columns or ()]


_NAME = attrgetter("name")


@dataclass
class Game:
    """One PBN game: its tags in file order (first occurrence wins on lookup, as in import format)."""

    tags: list[Tag]
    line: int
    comments: list[str] = field(default_factory=list)
    _index: dict[str, Tag] | None = field(default=None, repr=False, compare=False)
    _tables: list[Tag] | None = field(default=None, repr=False, compare=False)

    def copy(self) -> "Game":
        """A copy whose tags can be changed, added and removed without changing this game."""
        return Game([t.copy() for t in self.tags], self.line, list(self.comments))

    def tag(self, name: str) -> Tag | None:
        """The first tag called ``name``, or None."""
        index = self._index
        if index is None:  # built in one go (later tags first, so that the first of a name wins)
            index = self._index = dict(zip(map(_NAME, reversed(self.tags)), reversed(self.tags)))
        return index.get(name)

    def get(self, name: str, default: str | None = None) -> str | None:
        """Value of the first tag called ``name`` (``default`` if absent)."""
        t = self.tag(name)
        return default if t is None else t.value

    def table_tags(self) -> list[Tag]:
        """Every table tag of this game, in file order."""
        if self._tables is None:
            self._tables = [t for t in self.tags if t.columns is not None]
        return self._tables

    def tables(self, name: str) -> list[Tag]:
        """Every table tag called ``name`` in this game, in file order."""
        return [t for t in self.table_tags() if t.name == name]


#: At most this many problems are listed in one ParseError.
MAX_PROBLEMS = 50


def raise_problems(source: str, problems: list[tuple[int, str]]) -> None:
    """Raise one ParseError for every collected ``(line, message)``; the first gives ``.line``.

    ``str()`` lists each problem as ``source:line: message`` on its own line; the list
    is also kept as ``.problems``.
    """
    if not problems:
        return
    ordered = sorted(problems, key=lambda p: p[0])
    hidden = len(ordered) - MAX_PROBLEMS
    ordered = ordered[:MAX_PROBLEMS]
    line, message = ordered[0]
    rest = "".join(f"\n{source}:{n}: {m}" for n, m in ordered[1:])
    if hidden > 0:
        rest += f"\n(and {hidden} more problems not shown; correct these first)"
    error = ParseError(source, line, message + rest)
    error.problems = ordered  # type: ignore[attr-defined]
    raise error


#: A line with its end, as the lexer counts lines (``\r\n``, ``\r`` or ``\n``).
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_BYTE_LINE = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF8, "utf-8"),
         (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))


@dataclass(frozen=True)
class Original:
    """The bytes of a PBN file, the codec its text was read with and that text (BOM removed)."""

    data: bytes
    encoding: str
    text: str

    @classmethod
    def of_text(cls, text: str) -> "Original":
        """A file given as text: written back as UTF-8."""
        return cls(text.encode("utf-8", errors="surrogateescape"), "utf-8", text)

    def bom(self) -> tuple[bytes, str]:
        """The byte-order mark the file starts with (or ``b""``) and the codec of its lines."""
        for mark, codec in _BOMS:
            if self.data.startswith(mark):
                return mark, codec
        return b"", self.encoding

    def byte_lines(self, encoding: str | None = None) -> tuple[bytes, list[bytes], str]:
        """``(bom, lines with their ends, codec)``: line ``k`` of the lexer is ``lines[k - 1]``; with
        ``encoding``, the text's lines in that encoding (no BOM)."""
        bom, codec = self.bom()
        body = self.data[len(bom):]
        if encoding is not None:
            bom, codec = b"", encoding
            lines = [line.encode(codec) for line in _LINE.findall(self.text)]
        elif codec.startswith(("utf-16", "utf-32")):  # not ASCII-compatible: split the text, encode each line
            lines = [line.encode(codec) for line in _LINE.findall(self.text)]
        else:
            lines = _BYTE_LINE.findall(body)
        return bom, lines, codec

    def text_lines(self) -> list[str]:
        """The text's lines without their ends, as the lexer numbers them (``\r\n``, ``\r`` or ``\n``)."""
        return [line.rstrip("\r\n") for line in _LINE.findall(self.text)]

    def newline(self) -> str:
        """The file's line end (its first one; ``\\n`` for a file of one line)."""
        m = re.search(r"\r\n|\r|\n", self.text)
        return m.group() if m else "\n"


@dataclass
class PbnFile:
    """A parsed PBN file: games as read plus the frames described in the module docstring."""

    games: list[Game]
    boards: pd.DataFrame
    results: pd.DataFrame
    totals: pd.DataFrame
    matches: pd.DataFrame
    byes: pd.DataFrame
    meta: dict[str, str] = field(default_factory=dict)
    source: str = "<string>"
    version: str | None = None
    escapes: list[str] = field(default_factory=list)
    #: ``(line, message)`` of every harmless quirk read liberally (a producer's habit, a
    #: game that is no board): nothing is wrong, but the director is told what was done.
    notes: list[tuple[int, str]] = field(default_factory=list)
    #: The file as read (bytes, codec, text): ``write_pbn`` writes it back with only what changed rewritten.
    original: Original | None = None
