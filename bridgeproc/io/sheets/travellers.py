"""Traveller sheets (CSV, and XLSX via xlsx_travellers) -> the raw results frame.

The raw frame holds text cells plus where each came from (``source``, ``line``);
``validate`` turns them into typed columns, so a bad cell becomes a listed
problem instead of a silent NaN.

Header: the first of the first ``HEADER_SEARCH_ROWS`` non-empty rows in which
every required column is recognised (a title line above it is skipped). Headers
are compared lower-case without spaces, dots, underscores, slashes, ``#`` and
inner hyphens, and without accents, so ``Board no``, ``board_no`` and ``Board-No`` are
one spelling. Headers are accepted in English, German, French, Dutch, Swedish, Norwegian,
Danish and Russian (see HEADER_ALIASES). Columns that are not recognised (``MP NS``,
``%``) are not read, and a note names them; a missing declarer or result column that the
contract cells do not make up for is an error naming the accepted spellings (see
:func:`check_columns`).
"""
from __future__ import annotations

import csv
import itertools
import os
import re
import unicodedata
from typing import Iterator, Mapping, Sequence

import pandas as pd

from bridgeproc.core.notation import parse_contract, parse_unique
from bridgeproc.errors import ParseError, TooLargeError
from bridgeproc.io.text import csv_field_limit, read_text

#: Canonical column -> accepted header spellings (the first is shown in messages).
HEADER_ALIASES: dict[str, tuple[str, ...]] = {
    # English first, then German, French, Dutch, Swedish/Norwegian/Danish, Russian.
    "section": ("Section", "Sect", "Sec", "Sektion", "Secteur", "Sektor", "Секция"),
    "table": ("Table", "Tbl", "Table no", "Tisch", "Tafel", "Bord", "Стол"),
    "round": ("Round", "Rnd", "Rd", "Round no", "Runde", "Tour", "Ronde", "Rond", "Omgång", "Тур", "Раунд"),
    "board": ("Board", "Bd", "Brd", "Board no", "Board number", "Bd no", "Deal", "Deal no", "Spiel", "Brett",
              "Brett nr", "Donne", "Étui", "Spel", "Spelnummer", "Spel nr", "Bricka", "Giv", "Spill", "Spil",
              "Сдача", "№ сдачи", "Номер сдачи", "Сд"),
    "ns": ("NS", "NS pair", "Pair NS", "PairNS", "Pair id NS", "NS no", "NS pair no", "NS pair number", "N-S", "N/S",
           "Pair no NS", "Pairs NS", "Pair number NS", "Paar NS", "NS Paar", "Paire NS", "NZ", "Paar NZ",
           "NS par", "С-Ю", "Пара С-Ю", "Пары С-Ю"),
    "ew": ("EW", "EW pair", "Pair EW", "PairEW", "Pair id EW", "EW no", "EW pair no", "EW pair number",
           "E-W", "E/W", "OW", "EO", "Pair no EW", "Pairs EW", "Pair number EW", "Paar OW", "OW Paar", "Paar EW",
           "Paire EO", "ÖV", "ØV", "ØV par", "ÖV par", "З-В", "В-З", "Пара З-В", "Пара В-З", "Пары З-В", "Пары В-З"),
    "contract": ("Contract", "Contr", "Con", "Kontrakt", "Contrat", "Bid", "Контракт"),
    "declarer": ("Declarer", "Decl", "Dec", "By", "Declarer seat", "Alleinspieler", "Spieler", "Declarant", "NS/EW",
                 "Leider", "Door", "Spelförare", "Spillefører", "Spilfører", "Разыгрывающий", "Разыгр",
                 "Разыгрыв"),
    "result": ("Result", "Res", "Ergebnis", "Resultat", "Résultat", "Resultaat", "Uitslag", "Результат"),
    "tricks": ("Tricks", "Tr", "Tricks taken", "Stiche", "Plis", "Slagen", "Stick", "Stikk", "Stik", "Взятки",
               "Взяток"),
    "made": ("Made", "Made level", "Level made"),
    "down": ("Down", "Off", "Undertricks"),
    "lead": ("Lead", "Lead card", "Opening lead", "Ld", "Ausspiel", "Entame", "Uitkomst", "Utspel", "Utspill",
             "Udspil", "Заход", "Первый ход"),
    "fouled": ("Fouled", "Foul", "Fouled group", "Group", "Deal group"),
    # an arrow-switched result (EW-numbered pair sat NS): Y, yes, x, 1 or ↔ (core.pairs.SWITCHED_MARKS)
    "switched": ("Switched", "Switch", "Arrow", "Arrow switch", "Arrow switched", "Arrowswitch", "↔", "<->"),
    "score": ("Score", "NS score", "Score NS", "Points", "NS points", "Points NS", "NS+", "NS plus", "Plus", "Score+",
              "Score plus", "Punkte", "Punkte NS", "NS Punkte", "Marque", "Marque NS", "Счёт", "Счёт С-Ю"),
    "score_ew": ("EW score", "Score EW", "EW points", "Points EW", "EW+", "EW plus", "NS-", "NS minus", "Minus",
                 "Score-", "Score minus", "Punkte OW", "OW Punkte", "Marque EO", "Points EO", "Счёт З-В"),
    # The numbers a scoring program published beside each result (bridgeproc's scored CSV and workbook
    # Travellers sheet write them so): compared with bridgeproc's, never scored from (see published_method).
    "mp_ns": ("MP NS", "MPs NS", "Matchpoints NS", "NS MP"),
    "mp_ew": ("MP EW", "MPs EW", "Matchpoints EW", "EW MP"),
    "ximp_ns": ("X-IMP NS", "XIMP NS", "Cross-IMP NS", "Cross IMPs NS"),
    "ximp_ew": ("X-IMP EW", "XIMP EW", "Cross-IMP EW", "Cross IMPs EW"),
    "butler_ns": ("Butler NS", "Butler IMP NS", "IMP NS"),
    "butler_ew": ("Butler EW", "Butler IMP EW", "IMP EW"),
    "butlerdatum": ("Datum", "Butler datum"),
    "pct_ns": ("% NS", "Percentage NS", "Pct NS"),
    "pct_ew": ("% EW", "Percentage EW", "Pct EW"),
}
#: Published per-result columns: the raw column each becomes (as the PBN and USEBIO readers name them, for
#: rank.reproduce) and the Scoring tag its presence says (see :func:`published_method`).
PUBLISHED_RAW: dict[str, tuple[str, str]] = {
    "mp_ns": ("mp_ns", "MatchPoints"), "mp_ew": ("mp_ew", "MatchPoints"),
    "ximp_ns": ("imp_ns", "IMP;Cross"), "ximp_ew": ("imp_ew", "IMP;Cross"),
    "butler_ns": ("imp_ns", "IMP;Butler"), "butler_ew": ("imp_ew", "IMP;Butler"),
    "butlerdatum": ("butlerdatum", "IMP;Butler"), "pct_ns": ("pct_ns", ""), "pct_ew": ("pct_ew", ""),
}
#: Columns every traveller needs (``board`` may instead come from a per-board sheet's name).
REQUIRED = ("board", "ns", "ew", "contract")
#: Columns a played contract needs unless its cell holds them (``4SN=``): the declarer, and one of these for
#: the result (a written score is enough: the tricks are worked out from it). See :func:`check_columns`.
RESULT_SOURCES = ("result", "tricks", "made", "down", "score", "score_ew")
#: How many non-empty rows at the top are searched for the header row.
HEADER_SEARCH_ROWS = 10
EXAMPLE_HEADER = "Board,NS,EW,Contract,Declarer,Result,Lead"


def header_key(header: str) -> str:
    """Spelling-insensitive key of a header cell (``"Board no."`` -> ``"boardno"``, ``"Résultat"`` ->
    ``"resultat"``, ``"Счёт"`` -> ``"счет"``: accents are dropped, ``№`` reads ``No``)."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", str(header)) if not unicodedata.combining(c))
    return re.sub(r"[\s._/#]|-(?!$)", "", folded.strip().lower())


_ALIAS_TO_COLUMN = {header_key(a): col for col, aliases in HEADER_ALIASES.items() for a in aliases}


def canonical_header(header: str) -> str | None:
    """Canonical column for a header cell, or None if it is not recognised."""
    return _ALIAS_TO_COLUMN.get(header_key(header))


def accepted_spellings(column: str) -> str:
    """``board: Board, Bd, Brd, ...`` for messages."""
    return f"{column}: {', '.join(HEADER_ALIASES[column])}"


def find_header(
    rows: Sequence[Sequence[str]], where: Sequence, source: str, required: Sequence[str] = REQUIRED,
) -> tuple[int, dict[str, int], int]:
    """Locate the header among the first rows; return ``(row index, {column: position}, rows it spans)``.

    A two-row header (``Pair no`` over ``NS | EW``, ``Score`` over ``NS | EW``, as
    paper-traveller templates merge them) is read as ``Pair no NS``, ``Score EW`` ...
    ``where`` gives the position shown in messages for each row (line or Excel row).
    Raises ParseError naming the missing columns and their accepted spellings.
    """
    best: tuple[int, int, dict[str, int]] | None = None
    for index, row in enumerate(rows[:HEADER_SEARCH_ROWS]):
        recognised = _recognised(row)
        if all(c in recognised for c in required):
            return index, _columns(row, where[index], source), 1
        if index + 1 < len(rows) and _looks_like_subheader(rows[index + 1]):
            combined = two_row_header(row, rows[index + 1])
            if all(c in _recognised(combined) for c in required):
                return index, _columns(combined, where[index], source), 2
        if best is None or len(recognised) > best[1]:
            best = (index, len(recognised), recognised)
    if best is None or best[1] == 0:
        first = where[0] if len(where) else 1
        raise ParseError(source, first, f"no header row found in the first {HEADER_SEARCH_ROWS} rows; "
                         f"expected a header such as {EXAMPLE_HEADER}")
    index, _, recognised = best
    row = rows[index]
    missing = [c for c in required if c not in recognised]
    unknown = [c.strip() for c in row if c and c.strip() and canonical_header(c) is None]
    raise ParseError(source, where[index], _missing_message(missing, row, unknown))


def _missing_message(missing: Sequence[str], row: Sequence[str], unknown: Sequence[str]) -> str:
    extra = f"; not recognised: {', '.join(repr(_cut(u)) for u in unknown[:20])}" if unknown else ""
    spellings = "; ".join(accepted_spellings(c) if c != "result" else
                          " | ".join(accepted_spellings(r) for r in RESULT_SOURCES) for c in missing)
    cells = [_cut(c.strip()) for c in row if c and c.strip()]
    shown = ", ".join(cells[:30]) + (f" ... ({len(cells)} cells)" if len(cells) > 30 else "")
    return f"missing column {', '.join(missing)} in header {shown}{extra}; accepted spellings: {spellings}"


def _cut(cell: str, limit: int = 60) -> str:
    """A header cell as a message quotes it: a long one cut, with its length."""
    return cell if len(cell) <= limit else f"{cell[:limit]}... ({len(cell):,} characters)"


def header_cells(rows: Sequence[Sequence[str]], index: int, span: int) -> list[str]:
    """The header's cells as :func:`find_header` read them (a two-row header joined)."""
    return list(rows[index]) if span == 1 else two_row_header(rows[index], rows[index + 1])


def check_columns(header: Sequence[str], columns: Mapping[str, int], body: Sequence[Sequence[str]], where: int | str,
                  source: str, notes: list[dict] | None = None) -> None:
    """Check a found header against the rows below it, so that no column is lost silently.

    Raises ParseError (naming the accepted spellings) when the declarer or every result column is
    missing and some played contract's cell does not hold it either (``4SN=`` does): otherwise each
    such row would fail on its own. Columns whose header is not recognised (``MP NS``, ``%``, a
    spelling bridgeproc does not know) are not read; they are named in one note added to ``notes``.
    """
    read = set(columns.values())
    unknown = [cell.strip() for position, cell in enumerate(header)
               if cell and cell.strip() and position not in read]
    missing = []
    has_result = any(c in columns for c in RESULT_SOURCES)
    if ("declarer" not in columns or not has_result) and "contract" in columns:
        at = columns["contract"]
        parsed = parse_unique([row[at] if at < len(row) else "" for row in body], parse_contract)
        played = parsed.ints("level") > 0
        if "declarer" not in columns and bool((played & (parsed.ints("declarer") < 0)).any()):
            missing.append("declarer")
        if not has_result and bool((played & pd.isna(parsed.texts("result"))).any()):
            missing.append("result")
    if missing:
        raise ParseError(source, where, _missing_message(missing, header, unknown))
    if unknown and notes is not None:
        notes.append({"source": source, "line": str(where), "column": "", "value": ", ".join(unknown),
                      "message": f"{'columns' if len(unknown) > 1 else 'column'} "
                                 f"{', '.join(repr(u) for u in unknown)} not read: not a header bridgeproc knows "
                                 f"(it reads {', '.join(a[0] for c, a in HEADER_ALIASES.items() if c not in PUBLISHED_RAW)}); "
                                 "rename a column that should be read"})


def _recognised(row: Sequence[str]) -> dict[str, int]:
    recognised: dict[str, int] = {}
    for position, cell in enumerate(row):
        name = canonical_header(cell) if cell else None
        if name is not None and name not in recognised:
            recognised[name] = position
    return recognised


def _looks_like_subheader(row: Sequence[str]) -> bool:
    cells = [c.strip() for c in row if c and c.strip()]
    return bool(cells) and not any(re.fullmatch(r"[+\-]?\d+([.,]\d+)?", c) for c in cells)


def two_row_header(top: Sequence[str], sub: Sequence[str]) -> list[str]:
    """Join a header row with the sub-header row below it; a top cell spans the empty cells to its right."""
    width = max(len(top), len(sub))
    out, spanning = [], ""
    for position in range(width):
        above = top[position].strip() if position < len(top) else ""
        below = sub[position].strip() if position < len(sub) else ""
        spanning = above or (spanning if below else "")
        out.append(f"{spanning} {below}".strip() if below else above)
    return out


def _columns(row: Sequence[str], where, source: str) -> dict[str, int]:
    columns: dict[str, int] = {}
    for position, cell in enumerate(row):
        name = canonical_header(cell) if cell else None
        if name is None:
            continue
        if name in columns:
            raise ParseError(source, where, f"two columns mean {name} ({row[columns[name]]!r} and {cell!r}); "
                             "delete or rename one")
        columns[name] = position
    return columns


def published_method(raw: pd.DataFrame) -> tuple[pd.DataFrame, str | None]:
    """The raw frame with its published columns named as the other readers name them (``butler_ns`` ->
    ``imp_ns``), and the Scoring tag they say (a traveller of Butler IMPs was ranked in Butler IMPs), or None.
    Two methods' columns in one sheet say nothing of the method."""
    present = [c for c in PUBLISHED_RAW if c in raw]
    if not present:
        return raw, None
    scorings = {PUBLISHED_RAW[c][1] for c in present} - {""}
    renamed = raw.rename(columns={c: PUBLISHED_RAW[c][0] for c in present})
    if renamed.columns.duplicated().any():
        return raw.drop(columns=present), None  # e.g. both X-IMP and Butler columns: compare neither
    return renamed, (scorings.pop() if len(scorings) == 1 else None)


#: The most characters a traveller cell holds (a section name of a few hundred is kept), and the most
#: text all the cells read hold together (the travellers of 1,000 tables hold under 1 MB): a 75 KB
#: workbook whose 3,000 leads share one 32,000-character string took 661 MB. Bounds of the read, for
#: CSV and workbooks alike.
MAX_CELL, MAX_TEXT = 1_000, 32_000_000


def raw_frame(columns: dict[str, int], rows: Sequence[Sequence[str]], lines: Sequence[int], source: str,
              extra: Mapping[str, Sequence] | None = None) -> pd.DataFrame:
    """Rows of text cells -> the raw frame (``string`` columns, ``source``, ``line``); a ParseError when a
    cell read holds more than :data:`MAX_CELL` characters (every such cell named) or all of them more
    than :data:`MAX_TEXT`."""
    cells = {name: [r[pos] if pos < len(r) else "" for r in rows] for name, pos in columns.items()}
    _check_lengths(cells, lines, source)
    data = {name: pd.array(values, dtype="string") for name, values in cells.items()}
    for name, values in (extra or {}).items():
        data[name] = pd.array(list(values), dtype="string")
    frame = pd.DataFrame(data, index=pd.RangeIndex(len(rows)))
    return frame.assign(
        source=pd.array([source] * len(rows), dtype="string"),
        line=pd.array(list(lines), dtype="Int64"),
    )


def _check_lengths(cells: Mapping[str, list[str]], lines: Sequence[int], source: str) -> None:
    lengths = {name: list(map(len, values)) for name, values in cells.items()}
    long = sorted((lines[i], name, n) for name, counts in lengths.items() for i, n in enumerate(counts) if n > MAX_CELL)
    if long:
        line, name, n = long[0]
        listed = ", ".join(str(at) for at, _, _ in long[1:6])
        more = f"; also line{'s' if len(long) > 2 else ''} {listed}" if len(long) > 1 else ""
        more += f" and {len(long) - 6:,} more" if len(long) > 6 else ""
        raise TooLargeError(source, line, f"the {name} cell holds {n:,} characters; no traveller cell (a board, pair, "
                         f"contract, result, lead, score or section) holds more than {MAX_CELL:,}{more}: correct "
                         "the cells, or export the travellers again")
    total = sum(map(sum, lengths.values()))
    if total > MAX_TEXT:
        raise TooLargeError(source, None, f"the travellers hold {total:,} characters of text, more than any session's "
                         f"({MAX_TEXT:,}; 1,000 tables hold under 1,000,000): not a traveller file bridgeproc reads")


#: A quoted cell: a ``"`` at the start of a line or after a candidate delimiter (spaces
#: allowed between), up to its closing quote (``""`` inside is a quote) or the end of the line.
_QUOTED_CELL = re.compile(r'(?:^|(?<=[,;\t])) *"(?:[^"]|"")*(?:"|$)')


def sniff_delimiter(lines: Sequence[str]) -> str:
    """The most frequent of comma, semicolon and tab in the first lines (comma if none).

    Delimiters inside quoted cells are not counted: ``1;"Smith, Ann & Lee, Bo"`` is
    one semicolon, not two commas.
    """
    unquoted = [_QUOTED_CELL.sub("", line) for line in lines]
    counts = {d: sum(line.count(d) for line in unquoted) for d in (",", ";", "\t")}
    return max(counts, key=lambda d: counts[d]) if max(counts.values()) else ","


def parse_travellers_csv(text: str, source: str = "<string>", notes: list[dict] | None = None) -> pd.DataFrame:
    """Parse traveller CSV text (comma, semicolon or tab separated) into the raw results frame.

    ``notes``: a list to which notes about the file are added (columns not read; see
    :func:`check_columns`), as rows of the problems frame.

    Returns
    -------
    DataFrame
        Text (``string``) columns for every recognised header (see HEADER_ALIASES),
        ``source`` and ``line`` (the file line where the row starts).

    Raises
    ------
    ParseError
        Empty file, no recognisable header, a missing required column (or a declarer or
        result column the contract cells do not make up for), a row with more cells than
        the header, an unbalanced quote, or no results at all.
    """
    columns, body, lines = travellers_rows(text, source, notes)
    return raw_frame(columns, body, lines, source)


def travellers_rows(text: str, source: str = "<string>",
                    notes: list[dict] | None = None) -> tuple[dict[str, int], list[list[str]], list[int]]:
    """:func:`parse_travellers_csv` up to the frame: ``({column: position}, result rows, their
    lines)``, every check made and every note added; a caller reading many files builds one frame."""
    if not text.strip():
        raise ParseError(source, 1, f"the file is empty; expected a header such as {EXAMPLE_HEADER} and one row per result")
    top = list(itertools.islice((line for line in _lines(text) if line.strip()), HEADER_SEARCH_ROWS))
    delimiter = sniff_delimiter(top)
    reader = csv.reader(_lines(text), delimiter=delimiter)  # not a StringIO: that holds 4 bytes a character
    rows: list[list[str]] = []
    starts: list[int] = []
    previous_end = 0
    try:
        with csv_field_limit(len(text)):  # a long cell is read, not a crash (the text is in memory already)
            for row in reader:
                start, previous_end = previous_end + 1, reader.line_num
                if any("\n" in cell or "\r" in cell for cell in row):
                    raise ParseError(source, start, f"a quoted cell opened on line {start} runs to line "
                                     f"{reader.line_num}; check this line for an unbalanced quote (\")")
                if any(cell.strip() for cell in row):
                    rows.append(row)
                    starts.append(start)
    except csv.Error as exc:
        raise ParseError(source, reader.line_num, f"broken CSV: {exc}; check the quotes on this line") from None
    index, columns, span = find_header(rows, starts, source)
    header_line = starts[index]
    body, lines = rows[index + span:], starts[index + span:]
    if not body:
        raise ParseError(source, header_line, "the file has a header but no results below it")
    width = max(_filled_width(row) for row in rows[index:index + span])
    for row, line in zip(body, lines):
        if len(row) > width and any(cell.strip() for cell in row[width:]):
            shown = delimiter.replace("\t", "\\t")
            raise ParseError(source, line, f"{len(row)} cells but the header has {width}; "
                             f"check for a stray {shown!r} (or quote a cell that contains one)")
    check_columns(header_cells(rows, index, span), columns, body, header_line, source, notes)
    return columns, body, lines


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text`` with their ends, as ``open(newline="")`` gives them to the csv module (a line
    ends at CR, LF or CRLF only), one at a time: no copy of the whole text."""
    for match in _LINE.finditer(text):
        yield match.group(0)


def _filled_width(row: Sequence[str]) -> int:
    width = len(row)
    while width and not row[width - 1].strip():
        width -= 1
    return width


def read_travellers_csv(path: str | os.PathLike, encoding: str | None = None,
                        notes: list[dict] | None = None) -> pd.DataFrame:
    """Read a traveller CSV file (comma, semicolon or tab; UTF-8/UTF-16/Windows-1252); ``notes`` as
    :func:`parse_travellers_csv`."""
    text, source = read_text(path, encoding)  # a byte the --encoding does not fit: its line and the fix
    return parse_travellers_csv(text, source, notes)
