"""Double-dummy trick tables for hand records, solved in batches and cached.

The 20 trick counts of a deal are stored as one column per (declarer, strain):
``dd_<declarer>_<strain>`` with declarer ``N E S W`` and strain ``C D H S NT``,
e.g. ``dd_N_NT`` is the number of tricks North makes as declarer in notrump
(``Int8``, 0-13, NA when the deal is not complete). :data:`DD_COLUMNS` lists them
in that order (declarer-major, strains in schema order).

Tables already known from the input are reused: complete ``dd_*`` rows (io.pbn
fills them from ``OptimumResultTable``; see :func:`parse_optimum_result_table`) and
the ``double_dummy_tricks`` column (the ``DoubleDummyTricks`` hex text; see
:func:`decode_dd_hex`), unless they cannot be the deal's (:func:`implausible_tables`:
the "1 below 7" export quirk, counts the cards make impossible, two tags that
disagree); those deals are solved like unknown ones. Unknown deals
are solved with endplay's ``calc_all_tables`` (DDS, multi-threaded), all of them
in one call per 40 deals -- 40 is DDS's limit for one call with all five strains
(``MAXNOOFTABLES``). Solved tables are cached by the normalized deal for the rest
of the process.

endplay is a dependency, imported only when a deal actually has to be solved; when it
cannot be loaded (DDS is a compiled library) :class:`DDUnavailableError` says so, and the
pipeline writes everything else with a note.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, MutableMapping
from types import ModuleType
from typing import SupportsInt

import numpy as np
import pandas as pd

from bridgeproc.core.deal import RANKS, DealError, parse_deal
from bridgeproc.core.optional import require
from bridgeproc.errors import BridgeprocError, SetupError
from bridgeproc.schema import DD_COLUMNS, SEATS, STRAINS

#: ``dd_<declarer>_<strain>`` for declarer N E S W and strain C D H S NT (Int8 tricks).
DD_DTYPE = "Int8"

#: Column of the boards frame holding the raw PBN ``DoubleDummyTricks`` text (io.pbn).
HEX_COLUMN = "double_dummy_tricks"

#: Deals per ``calc_all_tables`` call: DDS solves at most MAXNOOFTABLES = 40 tables
#: (x 5 strains = MAXNOOFBOARDS 200) per call and raises "Too many DD tables" above.
BATCH = 40
#: Deals per call when someone follows the progress: small enough for the bar to move every
#: second or so, and (measured in bench/bench_dd.py) as fast as 40 on two cores: DDS shares
#: the 5 strains x deals of one call among its threads.
PROGRESS_BATCH = 4

#: Order of the ``DoubleDummyTricks`` hex string (bridge-scoring-reference.md 4.6):
#: seats N, S, E, W, each with strains NT, S, H, D, C.
HEX_ORDER: tuple[str, ...] = tuple(
    f"dd_{seat}_{strain}" for seat in "NSEW" for strain in ("NT", "S", "H", "D", "C")
)

_RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}
_STRAIN_ALIASES = {"C": "C", "D": "D", "H": "H", "S": "S", "NT": "NT", "N": "NT"}

Table = tuple[int, ...]  # 20 trick counts in DD_COLUMNS order
Progress = Callable[[int, int], object]

#: Solved tables of this process, keyed by :func:`normalize_deal`.
_CACHE: dict[str, Table] = {}


class DDError(BridgeprocError, ValueError):
    """A double-dummy value from the input (hex string, result table, optimum score) is malformed."""


class DDUnavailableError(SetupError):
    """Double-dummy analysis was asked for but endplay (DDS) cannot be loaded."""


def endplay_module() -> ModuleType:
    """Import endplay's solver (lazily), or raise :class:`DDUnavailableError` with the install hint."""
    try:
        return require("endplay", "double-dummy tables and par")
    except SetupError as exc:
        raise DDUnavailableError(str(exc)) from None


def clear_cache() -> None:
    """Forget every table solved so far in this process."""
    _CACHE.clear()


# --------------------------------------------------------------------------- deals


def normalize_deal(text: object) -> str | None:
    """The deal as ``N:<north> <east> <south> <west>`` with ranks in order, or None.

    Accepts any first seat (``E:...``), no seat (North first), lower-case ranks and ranks
    in any order. Returns None (the deal cannot be solved) when a hand is unknown (``-``)
    or the text is not a complete deal of 52 distinct cards, 13 per hand (the check of
    :func:`core.deal.parse_deal`; saying what is wrong is the validator's job).
    """
    if not isinstance(text, str):
        return None
    text = text.strip().upper()
    try:
        hands = parse_deal(text if ":" in text else f"N:{text}")
    except DealError:
        return None
    if any(hand is None for hand in hands.values()):
        return None
    return "N:" + " ".join(".".join("".join(sorted(ranks, key=_RANK_INDEX.__getitem__))
                                    for ranks in str(hands[seat]).split(".")) for seat in SEATS)


# --------------------------------------------------------------------------- known tables


def decode_dd_hex(hex20: str) -> dict[str, int]:
    """Decode a PBN ``DoubleDummyTricks`` string into ``{dd_N_NT: 13, ...}`` (20 entries).

    The string has 20 hex digits: seats N, S, E, W, each giving NT, S, H, D, C
    (bridge-scoring-reference.md 4.6), e.g. ``d8ddad8dda0500105001``.

    Raises
    ------
    DDError
        if the text is not 20 hex digits of at most 13 (``d``).
    """
    text = hex20.strip()
    try:
        values = [int(ch, 16) for ch in text]
    except ValueError:
        values = []
    if len(values) != 20 or max(values) > 13:
        raise DDError(
            f"DoubleDummyTricks {hex20!r} is not 20 hex digits 0-d "
            "(tricks for N, S, E, W, each NT S H D C); correct or remove the tag"
        )
    return dict(zip(HEX_ORDER, values))


def encode_dd_hex(tricks: Mapping[str, SupportsInt] | pd.Series | Iterable[int]) -> str:
    """Encode 20 trick counts as a ``DoubleDummyTricks`` string (inverse of :func:`decode_dd_hex`).

    ``tricks`` is a mapping or row with the ``dd_*`` keys, or 20 integers in
    :data:`DD_COLUMNS` order. Lower-case digits, as BridgeComposer writes them.
    """
    if isinstance(tricks, (Mapping, pd.Series)):
        values = {col: int(tricks[col]) for col in DD_COLUMNS}
    else:
        values = dict(zip(DD_COLUMNS, (int(v) for v in tricks)))
    if len(values) != 20 or any(not 0 <= v <= 13 for v in values.values()):
        raise DDError("a double-dummy table needs 20 trick counts from 0 to 13")
    return "".join(format(values[col], "x") for col in HEX_ORDER)


def parse_optimum_result_table(rows: str | Iterable[str]) -> dict[str, int]:
    """Parse ``OptimumResultTable`` rows (``N NT 13``, ``W  S 7`` ...) into ``{dd_N_NT: 13, ...}``.

    Rows may come in any seat order (files differ); ``rows`` is the section text or
    its lines. Quotes around values are tolerated; ``N`` is accepted for NT.

    Raises
    ------
    DDError
        if a row is malformed, a (seat, strain) repeats, or one of the 20 is missing.
    """
    lines = rows.splitlines() if isinstance(rows, str) else list(rows)
    table: dict[str, int] = {}
    for line in lines:
        fields = line.replace('"', " ").split()
        if not fields:
            continue
        seat, denomination, tricks = fields if len(fields) == 3 else ("", "", "")
        seat, strain = seat.upper(), _STRAIN_ALIASES.get(denomination.upper())
        if seat not in SEATS or strain is None or not tricks.isdigit() or int(tricks) > 13:
            raise DDError(f"OptimumResultTable row {line.strip()!r}: expected '<seat> <strain> <tricks>', "
                          "e.g. 'N NT 13'")
        column = f"dd_{seat}_{strain}"
        if column in table:
            raise DDError(f"OptimumResultTable gives {seat} {strain} twice")
        table[column] = int(tricks)
    missing = [c[3:].replace("_", " ") for c in DD_COLUMNS if c not in table]
    if missing:
        raise DDError(f"OptimumResultTable lacks {', '.join(missing)}; it needs all 20 declarer/strain rows")
    return {col: table[col] for col in DD_COLUMNS}


# --------------------------------------------------------------------------- checking given tables

#: The convention of BridgeWebs and Dealmaster Pro exports: every double-dummy count below 7 is
#: written as 1 (tests/data/realdata/README.md: Winchester, Lexington). A real deal's table does not
#: look like that: of 3,200 random deals solved with DDS, none had its 20 counts all 1 or 7-13
#: (every one had at least 10 counts of 0-6; 1 is 3% of all counts).
ONE_BELOW_SEVEN = "every trick count below 7 is written as 1"
#: A card's rank by its letter, 0 for the ace.
_RANK_AT = {rank: at for at, rank in enumerate(RANKS)}


def _sure_tricks(hands: dict[str, list[str]]) -> tuple[Table, Table]:
    """Bounds that every double-dummy table of the deal obeys, in DD_COLUMNS order: (lowest, highest).

    Two facts that need no solver, each true of every deal:

    * In a trump strain a trump higher than every trump the other side holds wins the trick it is
      played to, and every card is played: a side takes at least as many tricks as one of its hands
      holds such master trumps (and the declarer's side at most 13 less the defenders' masters).
    * The opening leader (declarer's LHO) may lead out the cards of a suit that are higher than
      every other card of it, one by one, in notrump: declarer takes at most 13 less that run.
    """
    ranks = {seat: [sorted(_RANK_AT[r] for r in hand[suit]) for suit in range(4)] for seat, hand in hands.items()}
    top = {seat: [held[0] if held else len(RANKS) for held in suits] for seat, suits in ranks.items()}

    def higher(seat: str, suit: int, others: Iterable[str]) -> int:
        """How many of ``seat``'s cards of ``suit`` are higher than every card of it that ``others`` hold."""
        best = min(top[o][suit] for o in others)
        return sum(1 for r in ranks[seat][suit] if r < best)

    low: list[int] = []
    high: list[int] = []
    for i, seat in enumerate(SEATS):
        partner, lho, rho = SEATS[(i + 2) % 4], SEATS[(i + 1) % 4], SEATS[(i + 3) % 4]
        for strain in STRAINS:
            if strain == "NT":
                low.append(0)
                high.append(13 - max(higher(lho, suit, (seat, partner, rho)) for suit in range(4)))
                continue
            suit = ("S", "H", "D", "C").index(strain)
            low.append(max(higher(seat, suit, (lho, rho)), higher(partner, suit, (lho, rho))))
            high.append(13 - max(higher(lho, suit, (seat, partner)), higher(rho, suit, (seat, partner))))
    return tuple(low), tuple(high)


def table_problem(deal: str | None, table: Iterable[int]) -> str | None:
    """Why a double-dummy table from a file cannot be the deal's, or None if it is plausible.

    ``table`` is 20 counts in DD_COLUMNS order; ``deal`` a normalized deal (None: only the
    counts are checked). A table is implausible when it has the "1 below 7" signature
    (:data:`ONE_BELOW_SEVEN`), a count outside 0-13, or a count the deal makes impossible
    (see :func:`_sure_tricks`). A plausible table may still be wrong; it is not solved again.
    """
    return _table_problem(deal, tuple(int(v) for v in table))


@functools.lru_cache(maxsize=4096)
def _table_problem(deal: str | None, values: tuple[int, ...]) -> str | None:
    """:func:`table_problem`, kept per (deal, table): a run checks each given table when it reads the hand
    record and again when it takes the tables for double dummy."""
    if len(values) != 20 or any(not 0 <= v <= 13 for v in values):
        return "a trick count is not 0-13"
    if 1 in values and all(v == 1 or v >= 7 for v in values):
        return ONE_BELOW_SEVEN
    if deal is None:
        return None
    hands = {seat: hand.split(".") for seat, hand in zip(SEATS, deal[2:].split(" "))}
    low, high = _sure_tricks(hands)
    for column, value, least, most in zip(DD_COLUMNS, values, low, high):
        if not least <= value <= most:
            _, seat, strain = column.split("_")
            return (f"{seat} declaring {strain} takes {value} tricks, but the cards give "
                    f"{f'at least {least}' if value < least else f'at most {most}'}")
    return None


def dd_values(boards: pd.DataFrame) -> np.ndarray:
    """The ``dd_*`` columns as one float array (a row per board, NaN where unknown), read column by column:
    the frame holds them as twenty nullable blocks, which a frame-wide cast would walk block by block."""
    return np.column_stack([boards[column].to_numpy(dtype=np.float64, na_value=np.nan) for column in DD_COLUMNS]) \
        if len(boards) else np.zeros((0, len(DD_COLUMNS)))


def _given_tables(boards: pd.DataFrame) -> tuple[list[Table | None], list[Table | None]]:
    """Per row: the complete ``dd_*`` table (OptimumResultTable) and the decoded hex table, or None."""
    rows = len(boards)
    result: list[Table | None] = [None] * rows
    hexed: list[Table | None] = [None] * rows
    if all(col in boards.columns for col in DD_COLUMNS):
        given = dd_values(boards)
        complete = ~np.isnan(given).any(axis=1)
        values = np.where(complete[:, None], given, 0).astype(np.int64).tolist()
        result = [tuple(v) if ok else None for v, ok in zip(values, complete)]
    if HEX_COLUMN in boards.columns:
        for i, text in enumerate(boards[HEX_COLUMN].astype("object").tolist()):
            if isinstance(text, str):
                try:
                    table = decode_dd_hex(text)
                except DDError:
                    continue
                hexed[i] = tuple(table[col] for col in DD_COLUMNS)
    return result, hexed


def implausible_tables(boards: pd.DataFrame) -> pd.Series:
    """Per row of ``boards``, why the double-dummy table it gives cannot be right (NA: none given, or plausible).

    Reads the ``dd_*`` columns and ``double_dummy_tricks`` as :func:`dd_tables` does, and checks
    each with :func:`table_problem` against the row's ``deal``; a row whose two tables disagree
    is implausible too. No solver is needed.
    """
    keys: list[str | None] = ([normalize_deal(d) for d in boards["deal"].tolist()] if "deal" in boards
                              else [None] * len(boards))
    return _implausible(boards.index, keys, *_given_tables(boards))


def _implausible(index: pd.Index, keys: list[str | None], result: list[Table | None],
                 hexed: list[Table | None]) -> pd.Series:
    """:func:`implausible_tables` from each row's normalized deal and its given tables (:func:`_given_tables`)."""
    reasons: list[str | None] = []
    for key, table, text in zip(keys, result, hexed):
        if table is not None and text is not None and table != text:
            reasons.append("its DoubleDummyTricks and OptimumResultTable disagree")
            continue
        given = table if table is not None else text
        reasons.append(None if given is None else table_problem(key, given))
    return pd.Series(pd.array(reasons, dtype="string"), index=index)


def without_tables(boards: pd.DataFrame, rows: pd.Series) -> pd.DataFrame:
    """``boards`` with the given double-dummy tables, and the optimum score and contract worked out
    from them, blanked on ``rows`` (a boolean mask), so that those deals are solved afresh."""
    columns = [c for c in (*DD_COLUMNS, HEX_COLUMN, "optimum_score", "optimum_contract") if c in boards.columns]
    mask = rows.to_numpy(dtype=bool)
    if not mask.any() or not columns:
        return boards
    return boards.assign(**{c: boards[c].mask(mask) for c in columns})


# --------------------------------------------------------------------------- solving


def _known_tables(keys: list[str | None], result: list[Table | None], hexed: list[Table | None],
                  rejected: list[bool]) -> dict[str, Table]:
    """Tables the frame already gives (:func:`_given_tables`), by normalized deal: complete ``dd_*`` rows
    first, then valid ``double_dummy_tricks`` hex strings (a malformed one is ignored: the deal
    is solved instead, and saying it is malformed is the reader's job). Tables on the
    ``rejected`` rows (:func:`implausible_tables`) are not known either: their deals are solved."""
    known: dict[str, Table] = {}
    for key, table, text, bad in zip(keys, result, hexed, rejected):
        given = table if table is not None else text
        if key is not None and given is not None and not bad:
            known.setdefault(key, given)
    return known


def _solve(deals: list[str], progress: Progress | None) -> list[Table]:
    """Solve normalized deals with endplay, in batches of :data:`BATCH`."""
    endplay_module()
    from endplay.dds import calc_all_tables
    from endplay.types import Deal

    # endplay's to_list() is indexed [Denom S H D C NT][Player N E S W].
    pick = [("S", "H", "D", "C", "NT").index(strain) * 4 + SEATS.index(seat) for seat in SEATS for strain in STRAINS]
    solved: list[Table] = []
    step = BATCH if progress is None else PROGRESS_BATCH
    if progress is not None:
        progress(0, len(deals))
    for start in range(0, len(deals), step):
        batch = deals[start:start + step]
        for table in calc_all_tables([Deal(deal) for deal in batch]):
            flat = [tricks for row in table.to_list() for tricks in row]
            solved.append(tuple(flat[i] for i in pick))
        if progress is not None:
            progress(len(solved), len(deals))
    return solved


def dd_tables(
    boards: pd.DataFrame,
    progress: Progress | None = None,
    *,
    cache: MutableMapping[str, Table] | None = None,
) -> pd.DataFrame:
    """Add the double-dummy trick table of every board with a complete deal.

    Parameters
    ----------
    boards : DataFrame
        Reads ``deal`` (PBN deal string, any first seat; ``-`` for an unknown hand),
        and where present the ``dd_*`` columns (a row with all 20 filled is taken as
        known) and ``double_dummy_tricks`` (the PBN ``DoubleDummyTricks`` hex text,
        used for rows without a complete ``dd_*`` table). A known deal is not solved
        again, nor is any other board with the same deal.
    progress : callable, optional
        Called as ``progress(0, total)`` before solving and ``progress(done, total)`` after
        each batch of :data:`PROGRESS_BATCH` deals, ``total`` being the number of distinct
        deals that need solving (not called when none do).
    cache : mutable mapping, optional
        Normalized deal -> table; defaults to this process's cache (see
        :func:`clear_cache`). Newly solved tables are added to it.

    Returns
    -------
    DataFrame
        ``boards`` plus the 20 :data:`DD_COLUMNS` (``Int8``; NA where the deal is
        missing, has an unknown hand or is not a valid 52-card deal, unless the
        row itself gives a complete table).

    Raises
    ------
    DDUnavailableError
        if a deal needs solving and endplay is not installed.
    """
    cache = _CACHE if cache is None else cache
    if "deal" not in boards.columns:
        raise TypeError("frame lacks column 'deal'")
    keys = [normalize_deal(d) for d in boards["deal"].tolist()]
    result, hexed = _given_tables(boards)  # each table the file gives read once, for both uses
    rejected = _implausible(boards.index, keys, result, hexed).notna()
    known = _known_tables(keys, result, hexed, rejected.tolist())
    unique = dict.fromkeys(k for k in keys if k is not None)
    todo = [k for k in unique if k not in known and k not in cache]
    if todo:
        cache.update(zip(todo, _solve(todo, progress)))

    missing: Table = (None,) * 20  # type: ignore[assignment]
    rows = [known.get(k) or cache.get(k, missing) if k is not None else missing for k in keys]
    tricks = np.array(rows, dtype=object).reshape(len(rows), len(DD_COLUMNS))  # one row per board
    unknown = pd.isna(tricks)
    tricks = np.where(unknown, 0, tricks).astype(np.int8)
    if all(col in boards.columns for col in DD_COLUMNS):
        # A complete, plausible table given on a row stays, even if its deal cannot be solved.
        given = dd_values(boards)
        complete = ~np.isnan(given).any(axis=1) & ~rejected.to_numpy(dtype=bool)
        tricks[complete] = given[complete].astype(np.int8)
        unknown[complete] = False
    # each column its own contiguous values and mask (a nullable Int8 array made without a copy)
    tricks, unknown = np.ascontiguousarray(tricks.T), np.ascontiguousarray(unknown.T)
    added = {col: pd.Series(pd.arrays.IntegerArray(tricks[i], unknown[i]), index=boards.index)
             for i, col in enumerate(DD_COLUMNS)}
    # The file's text of a rejected table (and its optimum) is not written back: the output encodes the new table.
    return without_tables(boards, rejected).assign(**added)
