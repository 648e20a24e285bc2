"""PBN 2.1 files: read deals, results and published scores; write them back.

``read_pbn``/``parse_pbn`` return a :class:`PbnFile`: the games exactly as read
(for the writer and for round trips) plus frames ready for the pipeline.

Frames
------
boards
    ``schema.BOARDS_COLUMNS`` (one row per board number; the first game with a Deal
    wins) plus, when the file has them, ``double_dummy_tricks`` (the raw 20-digit hex
    ``DoubleDummyTricks`` tag, seats N S E W x strains NT S H D C), ``optimum_score``
    and ``optimum_contract`` (tag text) and ``dd_<seat>_<strain>`` (Int8 tricks from
    ``OptimumResultTable``; seats N E S W, strains C D H S NT, e.g. ``dd_N_NT``).
results
    Raw text cells like ``io.travellers``: ``section board ns ew contract declarer
    result lead score`` then every other ScoreTable column lower-cased (``table``,
    ``round``, ``mp_ns``, ``mp_ew``, ``percentage_ns``, ``imp_ns``, ``butlerdatum``,
    ``playerid_north`` ...), then ``source line``. ``result`` is PBN's trick count;
    ``score`` is NS's score (``Score_NS``, else minus ``Score_EW``); ``-`` is NA.
    Artificial scores keep their text: when Contract is ``-`` the contract cell
    becomes ``<Score_NS>/<Score_EW>`` (``A+/A+``, ``A-/A+``) for
    ``notation.parse_adjusted``. Individual events fill ``ns``/``ew`` with
    ``<north>+<south>`` and ``<east>+<west>``. A game without ScoreTable but with a
    Contract tag (one game per room) gives one row from its tags: ``ns``/``ew``
    from PairNS/PairEW, else HomeTeam/VisitTeam (RealBridge writes the team sitting
    North-South as HomeTeam), else ``"<North> - <South>"`` names; ``score`` from the
    Score tag (NS view); extra columns from the tags present among ``table room
    hometeam visitteam round scoreimp scoremp scorepercentage north south east
    west``. When the file gives played boards a Score tag, a ``Pass`` game with
    neither Score nor Auction was not played: its contract is ``NP``.
    Sit-out rows (``"Bye"``) are not results: they are in ``byes`` (same columns).
totals
    TotalScoreTable rows, columns lower-cased (``rank``, ``pairid``, ``totalscoremp``,
    ``totalpercentage``, ``names`` ...), text, plus ``source line``.
matches
    Team ScoreTables without a Contract column (``teamid_home``, ``vp_home`` ...).

Games keep every tag in file order (``Game.tags``; lookups take the first of a
repeated tag, as PBN's import format says), Auction/Play tokens with their notes,
and tables with their column specifiers and rows; see ``pbn_model``.
"""
from __future__ import annotations

import gc
import os
import re
from contextlib import contextmanager
from typing import Iterator, TextIO

from bridgeproc.errors import ParseError
from bridgeproc.io.atomic import atomic_path
from bridgeproc.io.pbn.frames import BOARD_TAGS, board_rows, boards_frame
from bridgeproc.io.pbn.game_rows import collect
from bridgeproc.io.pbn.lexer import lex
from bridgeproc.io.pbn.model import Game, Original, PbnFile, is_table, raise_problems
from bridgeproc.io.pbn.results import results_frames, table_frame
from bridgeproc.io.pbn.splice import splice
from bridgeproc.io.pbn.tags import check_games, check_names, check_repeats, check_sections, check_tags, pbn_version
from bridgeproc.io.pbn.writer import format_games, write_games
from bridgeproc.io.text import decode, read_source

__all__ = ["PbnFile", "format_pbn", "parse_pbn", "pbn_bytes", "read_pbn", "write_pbn"]


def _meta(games: list[Game]) -> dict[str, str]:
    if not games:
        return {}
    out: dict[str, str] = {}
    for tag in games[0].tags:
        if tag.name not in BOARD_TAGS and not is_table(tag.name) and tag.name not in out:
            out[tag.name] = tag.value
    return out


#: Texts of this many characters or more are parsed with the cyclic garbage collector paused.
GC_PAUSE_FROM = 1_000_000


@contextmanager
def _collector_paused(pause: bool) -> Iterator[None]:
    """Pause the cyclic garbage collector for one large parse, then switch it back on.

    A parse makes millions of small objects and no reference cycles; with the collector
    on, its full collections walk them all. ``bench/bench_pbn.py`` (CPython 3.11): 10 MB
    0.54 s paused against 0.72 s collecting, 1 MB 0.065 s against 0.080 s CPU, under
    1 MB no measurable difference -- so smaller texts leave the collector alone. The
    switch is process-wide: it is left off if it was off, and switched back on even when
    the parse raises.
    """
    if not pause or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def parse_pbn(text: str, source: str = "<string>") -> PbnFile:
    """Parse PBN text (import format: any layout the PBN 2.1 spec allows).

    Parameters
    ----------
    text : str
        The decoded file.
    source : str
        Name used in error messages (``source:line: message``).

    Returns
    -------
    PbnFile
        ``games`` as read; ``boards``, ``results`` (raw text cells), ``totals``,
        ``matches``, ``byes`` frames; ``meta`` (event tags of the first game).

    Raises
    ------
    ParseError
        Listing every problem found (line by line): malformed tags, unbalanced quotes,
        bad Deal/Vulnerable/Dealer, table rows with the wrong number of cells,
        unclosed brace comments, empty or binary input.
    """
    with _collector_paused(len(text) >= GC_PAUSE_FROM):
        return _parse(text, source)


def _parse(text: str, source: str) -> PbnFile:
    if text.startswith("\ufeff"):  # a byte-order mark left by a reader that did not expect one
        text = text[1:]
    if "\x00" in text[:4096]:
        raise ParseError(source, 1, "this is a binary file, not PBN text; export the results as PBN")
    if not text.strip():
        raise ParseError(source, 1, "the file is empty; a PBN file holds games of [Tag \"value\"] lines")
    games, escapes, problems, notes = lex(text, source)
    if not games and not problems:
        raise ParseError(source, 1, "no games found: expected [Tag \"value\"] lines such as [Board \"1\"]")
    _no_boards(games, problems)
    check_repeats(games, problems, notes)
    check_names(games, notes)
    result_groups, total_groups, match_groups, has_results = collect(games, notes, problems)
    rows = board_rows(games, has_results, problems, notes)
    check_tags(games, problems)
    check_games(games, problems, notes)
    check_sections(games, problems, notes)
    try:
        raise_problems(source, problems)
    except ParseError as exc:
        exc.notes = sorted(notes)  # type: ignore[attr-defined]
        raise
    results, byes = results_frames(result_groups, source, notes)
    return PbnFile(
        games=games,
        boards=boards_frame(rows, source),
        results=results,
        totals=table_frame(total_groups, source),
        matches=table_frame(match_groups, source),
        byes=byes,
        meta=_meta(games),
        source=source,
        version=pbn_version(escapes),
        escapes=escapes,
        notes=sorted(notes),
        original=Original.of_text(text),
    )


#: Tags that make a game part of a hand record or of the results (any table tag does too).
_CONTENT_TAGS = frozenset({"Board", "Deal", "Contract", "Result", "Auction", "Play"})


def _no_boards(games: list[Game], problems: list[tuple[int, str]]) -> None:
    """Refuse a file whose games hold no board, deal, result or table (say, only an [Event]):
    it is not a hand record of 0 boards but the wrong file, or an export that failed."""
    if not games:
        return
    for game in games:
        if any(t.name in _CONTENT_TAGS or t.columns is not None for t in game.tags):
            return
    names = sorted({t.name for g in games for t in g.tags})
    problems.append((games[0].line, f"no boards: the file's {len(games)} game(s) hold only "
                                    f"{', '.join(names)} tags, no Board, Deal, result or table; "
                                    "export the hand record or the results as PBN"))


def read_pbn(path_or_file: str | os.PathLike | TextIO, encoding: str | None = None) -> PbnFile:
    """Read a PBN file from a path or an open file (text or binary).

    Bytes are decoded with ``io.text.decode`` (UTF-8 with or without BOM, else
    Windows-1252/ISO-8859-1) unless ``encoding`` is given. See :func:`parse_pbn`.
    """
    data, source = read_source(path_or_file)
    if isinstance(data, str):
        return parse_pbn(data, source)
    if b"\x00" in data[:4096] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ParseError(source, 1, "this is a binary file, not PBN text; export the results as PBN")
    try:
        text = decode(data, source, encoding)
    except ParseError as exc:
        raise ParseError(source, 1, exc.message) from None
    pbn = parse_pbn(text, source)
    pbn.original = Original(data, _codec(data, encoding), pbn.original.text if pbn.original else text)
    return pbn


#: Text only UTF-8 decoding gives (a character beyond ASCII that is not an escaped byte).
_UTF8_ONLY = re.compile("[^\x00-\x7f\udc80-\udcff]")


def _codec(data: bytes, encoding: str | None) -> str:
    """The codec to write a file's changed lines in: the one given, UTF-8 for a UTF-8 file (stray
    Windows-1252 bytes or not, as ``io.text.decode`` reads it), else Windows-1252."""
    if encoding:
        return encoding
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        return "utf-8" if _UTF8_ONLY.search(data.decode("utf-8", errors="surrogateescape")) else "cp1252"


def format_pbn(pbn: PbnFile) -> str:
    """PBN 2.1 export text of a parsed file (see :func:`write_pbn`)."""
    return format_games(pbn.games)


def pbn_bytes(pbn: PbnFile, encoding: str | None = None) -> bytes:
    """The file as read with only the changed tags rewritten (see ``io.pbn.splice``): byte for byte the
    same when nothing changed. In ``encoding`` when given, else the file's own; a new text the file's
    encoding cannot hold (a Cyrillic name in a Windows-1252 file) makes the whole file UTF-8."""
    if pbn.original is None:
        return format_pbn(pbn).encode(encoding or "utf-8")
    old_games, _, _, _ = lex(pbn.original.text, pbn.source)
    try:
        return splice(pbn.original, pbn.games, old_games, encoding)
    except UnicodeEncodeError:
        return splice(pbn.original, pbn.games, old_games, "utf-8")


def write_pbn(pbn: PbnFile, path: str | os.PathLike, *, export: bool = False, encoding: str | None = None) -> None:
    """Write a :class:`PbnFile` back, atomically (``io.atomic.atomic_path``).

    By default the file as read, with only what changed rewritten (:func:`pbn_bytes`): commentary,
    ``%`` lines, quoting, layout, encoding and line ends kept. ``export=True`` writes PBN 2.1 export
    format instead (UTF-8): mandatory tags in order, then the others alphabetically, Auction, Play,
    tables. Scored frames (a Session) are written by ``bridgeproc.report.pbn.write_scored_pbn``."""
    if export or pbn.original is None:
        write_games(pbn.games, path)
        return
    data = pbn_bytes(pbn, encoding)
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


#: ``% <META name=Generator content="Ruter i Norge">`` (Ruter, Magic Contest): the program that wrote the file.
_META_GENERATOR = re.compile(r"<\s*META\s+name\s*=\s*\"?generator\"?\s+content\s*=\s*\"([^\"]+)\"", re.IGNORECASE)


def pbn_program(escapes: list[str], games: list[Game] | None = None) -> str | None:
    """The scoring program a PBN names in its ``%`` lines (``%Creator: Bridgewebs``, an HTML-style
    Generator META written by Ruter and Magic Contest), else ``BBO`` when its games carry BBO's
    ``DealId`` (``20712832.lin``: the games were taken from BBO's LIN records, as pbntools does), else
    None; its conventions are looked up by name (rank.conventions.producer)."""
    for line in escapes:
        found = _META_GENERATOR.search(line)
        if found:
            return found.group(1).strip()
        name, _, value = line.lstrip("%").partition(":")
        if name.strip().lower() == "creator" and value.strip():
            return value.strip()
    if games and any((game.get("DealId") or "").strip().lower().endswith(".lin") for game in games):
        return "BBO"
    return None
