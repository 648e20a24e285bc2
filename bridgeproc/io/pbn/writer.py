"""Games -> PBN 2.1 export format text, and files written all or nothing.

Export layout (PBN 2.1 chapter 3/5): ``% PBN 2.1`` and ``% EXPORT`` first; in each
game the mandatory tags in their fixed order, then the other tags alphabetically,
then the Auction (4 calls a line, notes after it), the Play (one trick a line), then
the table sections alphabetically; one empty line between games. Values are quoted
with ``\\"``/``\\\\`` escapes; table cells are quoted when they hold spaces (or
would otherwise not read back as one token). Text is UTF-8, which ``read_pbn``
detects. Commentary is not written.
"""
from __future__ import annotations

import os
import re
from typing import Iterable

from bridgeproc.io.atomic import atomic_path
from bridgeproc.io.pbn.model import MANDATORY_TAGS, Game, PbnFile, Tag

HEADER = ["% PBN 2.1", "% EXPORT", "%Content-type: text/x-pbn; charset=UTF-8", "%Creator: bridgeproc"]
_ORDER = {name: i for i, name in enumerate(MANDATORY_TAGS)}
_SECTIONS = ("Auction", "Play")
_CALL = re.compile(r"(?i)^(?:pass|p|x|xx|ap|[1-7](?:c|d|h|s|nt|n)|-|\*|\+|\^[IS]|[SHDC][AKQJT2-9]|\^[RL])$")
_AMBIGUOUS_BACKSLASH = re.compile(r'\\(?=["\\]|$)')
_BARE_CELL = re.compile(r'^[^\s"\\;{}\[\]%]+$')


def quote(value: str) -> str:
    """A PBN string token: ``"..."`` with ``"`` escaped as ``\\"``.

    A backslash is doubled only where a reader would take it for an escape (before
    ``"`` or ``\\``, or at the end): table headers keep ``Contract\\4L`` as every
    program writes it.
    """
    return '"' + _AMBIGUOUS_BACKSLASH.sub(r"\\\\", value).replace('"', '\\"') + '"'


def _cell(value: str) -> str:
    return value if _BARE_CELL.match(value) else quote(value)


def _tag_line(tag: Tag) -> str:
    return f"[{tag.name} {quote(tag.value)}]"


def _section_lines(tag: Tag) -> list[str]:
    """Calls or cards, four per line, each followed by its annotations (=n=, $n, !?)."""
    lines: list[list[str]] = []
    count = 4
    for token in tag.tokens or ():
        if _CALL.match(token):
            if count == 4:
                lines.append([])
                count = 0
            count += 1
        elif not lines:
            lines.append([])
        lines[-1].append(token)
    return [" ".join(line) for line in lines]


def _table_lines(tag: Tag, quoted: frozenset[str] = frozenset()) -> list[str]:
    """The rows, aligned to the column widths; the cells of the columns named in ``quoted`` always quoted
    (as the file being rewritten had them), the others only when they must be. Column by column, each
    distinct cell written once (a ScoreTable repeats its contracts, scores and pair numbers)."""
    rows = tag.rows or ()
    if not rows:
        return []
    columns = list(tag.columns or ())
    written: dict[str, str] = {}
    texts = []
    for i, cells in enumerate(zip(*rows, strict=True)):  # a table's rows have one cell per column
        column = columns[i] if i < len(columns) else None
        if column is not None and column.name in quoted:
            col = [_cell(c) if c == "-" else quote(c) for c in cells]
        else:
            col = [written[c] if c in written else written.setdefault(c, _cell(c)) for c in cells]
        width = max(max(map(len, col)), (column.width or 0) if column is not None else 0)
        texts.append([c.rjust(width) for c in col] if column is not None and column.align == "R"
                     else [c.ljust(width) for c in col])
    return [" ".join(cells).rstrip() for cells in zip(*texts)]


def tag_lines(tag: Tag, quoted: frozenset[str] = frozenset()) -> list[str]:
    """The lines of one tag in export layout: the tag, then its calls, cards and notes, or its rows
    (``quoted``: the table columns whose cells are always quoted)."""
    out = [_tag_line(tag)]
    if tag.tokens is not None:
        out.extend(_section_lines(tag))
        out.extend(_tag_line(note) for note in tag.notes or ())
    elif tag.columns is not None:
        out.extend(_table_lines(tag, quoted))
    return out


def game_lines(game: Game) -> list[str]:
    """The lines of one game in export order."""
    plain = [t for t in game.tags if t.tokens is None and t.columns is None]
    plain.sort(key=lambda t: (0, _ORDER[t.name], "") if t.name in _ORDER else (1, 0, t.name))
    out = [_tag_line(t) for t in plain]
    for name in _SECTIONS:
        for tag in game.tags:
            if tag.name == name and tag.tokens is not None:
                out.extend(tag_lines(tag))
    tables = sorted((t for t in game.tags if t.columns is not None), key=lambda t: t.name)
    for tag in tables:
        out.extend(tag_lines(tag))
    return out


def format_games(games: Iterable[Game]) -> str:
    """PBN 2.1 export text of ``games`` (header escape lines included)."""
    parts = ["\n".join(game_lines(game)) for game in games]
    return "\n".join(HEADER) + "\n" + "\n\n".join(parts) + "\n"


def write_games(games: Iterable[Game], path: str | os.PathLike) -> None:
    """Write ``games`` as a PBN file, atomically (nothing is left behind on error)."""
    text = format_games(games)
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8", newline="\n")


def format_pbn(pbn: PbnFile) -> str:
    """PBN 2.1 export text of a :class:`~bridgeproc.io.pbn.PbnFile`."""
    return format_games(pbn.games)
