"""Bridgemate ``.bws`` files (the Microsoft Access database Bridgemate Control Software writes).

Read with ``access-parser`` (pure Python; optional: ``pip install access-parser``).
Tables used (bridge-scoring-reference.md section 11):

``ReceivedData``
    one row per result sent by a table: ``Section`` (id), ``Table``, ``Round``,
    ``Board``, ``PairNS``, ``PairEW``, ``NS/EW`` (the declarer's seat letter),
    ``Contract`` (``4 D``, ``3 NT x``, ``PASS``), ``Result`` (relative: ``=``, ``+1``,
    ``-4``), ``LeadCard`` (``SQ``, ``D10``), ``Remarks``, ``DateLog``/``TimeLog``,
    ``Erased``, ``ID``. Erased rows are dropped. When a table sent a board more than
    once for the same pairs in the same round (a correction), the latest row wins: by
    ``DateLog`` + ``TimeLog``, then by ``ID``. Rows of the same table, round and board
    with *other* pairs are all kept (the sample file has such rows), so validate's
    table/round check and ``validate.movement.check_movement`` report them instead of one
    vanishing. The numeric ``Declarer`` column is not used: BCS files (the sample
    included) fill it with the NS pair whoever declared; ``NS/EW`` is the seat. A row
    with an empty contract and a remark (``Not played``) gets the remark as its
    contract cell, so validate reads ``NP`` or reports it.
``RoundData``
    the movement: who sits where in each round and which boards they play.
``Section``
    ``ID`` -> ``Letter``; the section column of every frame holds the letter.
``PlayerNumbers``/``PlayerNames``
    names at the start (``Round`` 0 or the first round), latest ``TimeLog`` per seat;
    a player number without a name is looked up in ``PlayerNames``. A table's N/S and
    E/W players are given to the pairs that sit there in the first round.
``HandRecord``
    16 rank strings per board -> the boards frame (PBN deal strings).
``Session``
    ``Name`` and ``Date`` -> ``meta`` (``event``, ``date``).

The raw results frame follows io.travellers (text cells), with ``source`` =
``<file>!ReceivedData`` and ``line`` = the row's ``ID``, so a problem reads
``club.bws!ReceivedData:1017: ...``.
"""
from __future__ import annotations

import contextlib
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import numpy as np
import pandas as pd

from bridgeproc.core.optional import require
from bridgeproc.errors import ParseError
from bridgeproc.io.text import file_bytes
from bridgeproc.io.usebio.reader import boards_from_hands, hand_text
from bridgeproc.schema import MOVEMENT_COLUMNS, NAMES_COLUMNS, records

__all__ = ["BwsFile", "read_bws", "parse_bws_tables"]

RAW_COLUMNS = ["section", "table", "round", "board", "ns", "ew", "contract", "declarer", "result", "lead", "remarks",
               "id"]
#: Access file signature at offset 4 (Jet 3/4 and ACE).
SIGNATURES = (b"Standard Jet DB", b"Standard ACE DB")
_SEATS = {"N": "N", "E": "E", "S": "S", "W": "W", "NORTH": "N", "EAST": "E", "SOUTH": "S", "WEST": "W"}


@dataclass
class BwsFile:
    """A read ``.bws`` database.

    results   raw text frame: RAW_COLUMNS, ``source`` (``file!ReceivedData``), ``line`` (the ID)
    boards    schema.BOARDS_COLUMNS from HandRecord (empty when the file has no hands)
    names     ``section, pair, direction, names, source, line`` (io.names layout; may be empty)
    movement  MOVEMENT_COLUMNS from RoundData
    meta      ``event``, ``date`` (``YYYY.MM.DD``) from the Session table
    dropped   rows not used: erased, or replaced by a later correction (``reason`` column)
    """

    results: pd.DataFrame
    boards: pd.DataFrame
    names: pd.DataFrame
    movement: pd.DataFrame
    meta: dict[str, str] = field(default_factory=dict)
    dropped: pd.DataFrame | None = None
    source: str = "<bws>"


def _frame(table: dict | None) -> pd.DataFrame:
    """access-parser's ``{column: [values]}`` (empty tables give ``''`` per column) -> frame."""
    if not table:
        return pd.DataFrame()
    if any(not isinstance(v, list) for v in table.values()):
        return pd.DataFrame({k: pd.Series([], dtype="object") for k in table})
    return pd.DataFrame({k: pd.Series(v, dtype="object") for k, v in table.items()})


def _text(frame: pd.DataFrame, column: str) -> pd.Series:
    """A column as stripped text (``None``/empty -> NA; ``3.0`` -> ``3``)."""
    if column not in frame:
        return pd.Series(pd.array([pd.NA] * len(frame), dtype="string"), index=frame.index)
    values = [None if v is None or (isinstance(v, float) and np.isnan(v)) else
              str(int(v)) if isinstance(v, float) and v.is_integer() else str(v).strip() for v in frame[column]]
    return pd.Series(pd.array([v or None for v in values], dtype="string"), index=frame.index)


def _truthy(frame: pd.DataFrame, column: str) -> np.ndarray:
    if column not in frame:
        return np.zeros(len(frame), dtype=bool)
    return np.array([str(v).strip().lower() in ("true", "1", "-1", "yes") for v in frame[column]], dtype=bool)


def _letters(section: pd.DataFrame) -> dict[str, str]:
    ids, letters = _text(section, "ID"), _text(section, "Letter")
    return {i: (letter or i) for i, letter in zip(ids.fillna(""), letters.fillna("")) if i}


def _stamp(received: pd.DataFrame) -> pd.Series:
    """DateLog's day plus TimeLog's time of day (NaT where unknown)."""
    date = pd.to_datetime(_text(received, "DateLog"), errors="coerce")
    time = pd.to_datetime(_text(received, "TimeLog"), errors="coerce")
    return date.dt.normalize() + (time - time.dt.normalize()).fillna(pd.Timedelta(0))


def _order(stamp: pd.Series) -> np.ndarray:
    """Sortable int64 of timestamps; unknown ones first."""
    values = stamp.to_numpy(dtype="datetime64[ns]").view("int64")
    return np.where(stamp.isna().to_numpy(), np.iinfo(np.int64).min, values)


def _results(received: pd.DataFrame, letters: dict[str, str], source: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    erased = _truthy(received, "Erased")
    ids = pd.to_numeric(_text(received, "ID"), errors="coerce").fillna(-1).astype("int64")
    # A correction is the same board sent again by the same table in the same round for the
    # same pairs. Rows with other pairs are kept: dropping one would lose a result silently,
    # keeping both lets validate (table/round check) and validate.movement report them.
    keys = ["Section", "Table", "Round", "Board", "PairNS", "PairEW"]
    order = pd.DataFrame({k: _text(received, k) for k in keys}).assign(
        _stamp=_order(_stamp(received)), _id=ids.to_numpy(), _erased=erased)
    live = order[~order["_erased"]].sort_values(["_stamp", "_id"], kind="stable")
    latest = live.drop_duplicates(subset=keys, keep="last").sort_values("_id", kind="stable").index
    superseded = live.index.difference(latest)
    contract = _text(received, "Contract")
    remarks = _text(received, "Remarks")
    contract = contract.where(contract.notna(), remarks)
    raw = pd.DataFrame({
        "section": _text(received, "Section").map(lambda s: letters.get(s, s) if s is not pd.NA else s).astype("string"),
        "table": _text(received, "Table"), "round": _text(received, "Round"), "board": _text(received, "Board"),
        "ns": _text(received, "PairNS"), "ew": _text(received, "PairEW"), "contract": contract,
        "declarer": _text(received, "NS/EW"), "result": _text(received, "Result"), "lead": _text(received, "LeadCard"),
        "remarks": remarks, "id": _text(received, "ID"),
        "source": pd.array([f"{source}!ReceivedData"] * len(received), dtype="string"),
        "line": pd.array(ids.where(ids >= 0).to_numpy(), dtype="Int64"),
    })
    reason = pd.Series(pd.NA, index=raw.index, dtype="string")
    reason[erased] = "erased"
    reason[superseded] = "replaced by a later result of the same pairs, table, round and board"
    dropped = raw.assign(reason=reason)[reason.notna()].reset_index(drop=True)
    return raw.loc[latest].reset_index(drop=True), dropped


def _movement(rounds: pd.DataFrame, letters: dict[str, str]) -> pd.DataFrame:
    data = {
        "section": _text(rounds, "Section").map(lambda s: letters.get(s, s) if s is not pd.NA else s),
        "table": _text(rounds, "Table"), "round": _text(rounds, "Round"),
        "ns": _text(rounds, "NSPair"), "ew": _text(rounds, "EWPair"),
        "low_board": _text(rounds, "LowBoard"), "high_board": _text(rounds, "HighBoard"),
    }
    frame = pd.DataFrame(data, index=rounds.index)
    for column in ("table", "round", "low_board", "high_board"):
        frame[column] = pd.to_numeric(frame[column], errors="coerce")
    return frame.astype(MOVEMENT_COLUMNS).reset_index(drop=True)


def _names(players: pd.DataFrame, lookup: pd.DataFrame, movement: pd.DataFrame, letters: dict[str, str],
           source: str) -> pd.DataFrame:
    if players.empty or movement.empty:
        return pd.DataFrame({c: pd.Series([], dtype=t) for c, t in NAMES_COLUMNS.items()})
    by_id = {}
    for key in ("strID", "ID"):
        if key in lookup:
            by_id.update(dict(zip(_text(lookup, key).fillna(""), _text(lookup, "Name").fillna(""))))
    seats = pd.DataFrame({
        "section": _text(players, "Section").map(lambda s: letters.get(s, s) if s is not pd.NA else s),
        "table": pd.to_numeric(_text(players, "Table"), errors="coerce"),
        "seat": _text(players, "Direction").str.upper().map(_SEATS),
        "round": pd.to_numeric(_text(players, "Round"), errors="coerce").fillna(0),
        "name": _text(players, "Name"), "number": _text(players, "Number"),
        "stamp": _order(pd.to_datetime(_text(players, "TimeLog"), errors="coerce")),
    })
    seats["name"] = seats["name"].fillna(seats["number"].map(lambda n: by_id.get(n) or None if n is not pd.NA else None))
    seats = seats.dropna(subset=["name", "seat", "table"])
    seats = seats.sort_values(["round", "stamp"], ascending=[True, False], kind="stable")
    seats = seats.drop_duplicates(subset=["section", "table", "seat"], keep="first")  # first round, latest entry
    first = movement[movement["round"] == movement.groupby("section")["round"].transform("min")]
    rows = []
    for m in records(first):
        at = seats[(seats["section"] == m.section) & (seats["table"] == m.table)].set_index("seat")["name"]
        for direction, pair, pair_seats in (("NS", m.ns, "NS"), ("EW", m.ew, "EW")):
            names = " & ".join(str(at[s]) for s in pair_seats if s in at.index)
            if names and pair is not pd.NA:
                rows.append({"section": m.section, "pair": pair, "direction": direction, "names": names,
                             "source": f"{source}!PlayerNumbers", "line": f"table {m.table}"})
    return pd.DataFrame(rows, columns=list(NAMES_COLUMNS)).astype(NAMES_COLUMNS)


def _boards(hands: pd.DataFrame, source: str) -> pd.DataFrame:
    found: dict[int, dict] = {}
    seats = {"N": "North", "E": "East", "S": "South", "W": "West"}
    for row in hands.to_dict("records"):
        try:
            board = int(float(row.get("Board")))
        except (TypeError, ValueError):
            continue
        if board < 1 or board in found:
            continue
        hand = {s: ".".join(hand_text(None if row.get(f"{name}{suit}") is None else str(row.get(f"{name}{suit}")))
                            for suit in ("Spades", "Hearts", "Diamonds", "Clubs")) for s, name in seats.items()}
        found[board] = {s: h for s, h in hand.items() if h != "..."}
    return boards_from_hands(found, f"{source}!HandRecord")


def _meta(session: pd.DataFrame) -> dict[str, str]:
    if session.empty:
        return {}
    meta = {"event": _text(session, "Name").iloc[0]}
    date = pd.to_datetime(_text(session, "Date"), errors="coerce").iloc[0]
    if not pd.isna(date):
        meta["date"] = date.strftime("%Y.%m.%d")
    return {k: str(v) for k, v in meta.items() if v is not None and v is not pd.NA}


def parse_bws_tables(tables: dict[str, dict], source: str = "<bws>", catalog: list[str] | None = None) -> BwsFile:
    """Build the frames from tables already read (``{table: {column: [values]}}``, as access-parser gives them).

    ``ReceivedData`` is required (ParseError naming the tables of ``catalog``, else of
    ``tables``, otherwise); the other tables may be missing or empty.
    """
    if "ReceivedData" not in tables:
        found = ", ".join(sorted(catalog if catalog is not None else tables)) or "none"
        raise ParseError(source, "ReceivedData", f"the database has no ReceivedData table (tables: {found}); "
                         "this is not a Bridgemate results file: give the .bws file of the session")
    if not tables["ReceivedData"]:
        raise ParseError(source, "ReceivedData", "the ReceivedData table has no columns: its pages are missing, "
                         "the file is cut short or damaged; copy it again after closing Bridgemate Control Software")
    received = _frame(tables["ReceivedData"])
    missing = [c for c in ("Board", "PairNS", "PairEW", "Contract") if c not in received]
    if missing:
        raise ParseError(source, "ReceivedData", f"ReceivedData lacks the column(s) {', '.join(missing)}; "
                         "the file was not written by Bridgemate Control Software")
    letters = _letters(_frame(tables.get("Section")))
    results, dropped = _results(received, letters, source)
    movement = _movement(_frame(tables.get("RoundData")), letters)
    names = _names(_frame(tables.get("PlayerNumbers")), _frame(tables.get("PlayerNames")), movement, letters, source)
    boards = _boards(_frame(tables.get("HandRecord")), source)
    return BwsFile(results, boards, names, movement, _meta(_frame(tables.get("Session"))), dropped, source)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """access-parser logs every damaged page it skips; the ParseError we raise says it once."""
    logger = logging.getLogger("access_parser")
    before = logger.disabled
    logger.disabled = True
    try:
        yield
    finally:
        logger.disabled = before


def _check_header(data: bytes, source: str) -> None:
    if not data:
        raise ParseError(source, None, "the file is empty; copy the .bws file again from the scoring computer")
    if data[4:19] not in SIGNATURES:
        raise ParseError(source, "offset 4", f"not a Microsoft Access database (it starts with {data[:19]!r}); "
                         "give the .bws file Bridgemate Control Software writes")
    page = 2048 if len(data) > 0x14 and data[0x14] == 0 else 4096  # Jet 3 has 2 KB pages, later versions 4 KB
    if len(data) % page or len(data) < 3 * page:
        why = f"not on a {page}-byte page boundary" if len(data) % page else "too short for the table catalog"
        raise ParseError(source, f"offset {len(data)}", f"the database ends after {len(data)} bytes, {why}: the "
                         "file is cut short; copy it again after closing Bridgemate Control Software")


def read_bws(path: str | os.PathLike) -> BwsFile:
    """Read a Bridgemate ``.bws`` file; see the module docstring and :class:`BwsFile`.

    Raises
    ------
    ParseError
        Not an Access file, a truncated or damaged file, no ReceivedData table.
    SetupError
        access-parser cannot be loaded (with the install command).
    """
    source = Path(path).name
    data = file_bytes(path)
    _check_header(data, source)
    AccessParser = require("access_parser", "reading Bridgemate .bws files", package="access-parser").AccessParser
    tables: dict[str, dict] = {}
    catalog: list[str] = []
    name = "catalog"
    with _quiet():
        try:
            db = AccessParser(str(path))
            catalog = [t for t in db.catalog if not t.startswith("MSys")]
            for name in ("ReceivedData", "RoundData", "Section", "PlayerNumbers", "PlayerNames", "HandRecord",
                         "Session"):
                if name in db.catalog:
                    tables[name] = db.parse_table(name)
        # access-parser raises whatever its byte parsing hits (KeyError, AttributeError,
        # construct errors) on a damaged file; all of them mean the same to the user.
        except Exception as exc:  # noqa: BLE001
            raise ParseError(source, name, f"the database is damaged ({type(exc).__name__} reading {name}); "
                             "copy the .bws file again, or open and compact it in Access") from None
    return parse_bws_tables(tables, source, catalog)
