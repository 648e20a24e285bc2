"""Par score and par contracts of each board, from its double-dummy table.

Par is computed by DDS (``DealerParBin`` through endplay's ``par``), which takes
the dealer into account: when both sides could reach the same par, the side that
gets to bid first takes it. Scores are from North-South's side, like every score
in bridgeproc.

Columns added by :func:`par` (see :data:`PAR_COLUMNS`):

- ``par_score`` (Int64): the par score, NS view (``-420`` when EW make 4H).
- ``par_contracts`` (string): the par contract(s), ``<side> <contract><result>``
  joined by ``, `` -- e.g. ``EW 4H``, ``NS 3NT+1``, ``EW 5SX-2`` (a doubled
  sacrifice), ``N 6NT, S 6NT`` when only one player of a side can declare, and
  ``Pass`` for a passed-out par.
- ``par_optimum_score`` (string): the par score as a PBN 2.1 ``OptimumScore`` tag
  value, ``NS <score>``, e.g. ``NS -100``. (io.pbn's ``optimum_score`` column holds
  the tag as read from the file; :func:`parse_optimum_score` turns it, and the other
  forms seen in files, into an NS score comparable with ``par_score``.)
"""
from __future__ import annotations

import re

import numpy as np
import pandas as pd

from bridgeproc.analysis.dd import DD_COLUMNS, DDError, endplay_module
from bridgeproc.core.boards import dealer_codes, vul_codes, vul_from_text
from bridgeproc.schema import SEATS, VULS

# DDS contractType codes: denom 0 NT, 1 S, 2 H, 3 D, 4 C; seats 0-3 = N E S W, 4 = NS, 5 = EW.
_DDS_DENOMS = ("NT", "S", "H", "D", "C")
_DDS_SEATS = ("N", "E", "S", "W", "NS", "EW")
# endplay.types.Vul codes, by schema vulnerability (None NS EW All).
_ENDPLAY_VUL = {"None": 0, "All": 1, "NS": 2, "EW": 3}
# endplay's ddTableResults.resTable is indexed [strain S H D C NT][player N E S W].
_RES_STRAIN = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": 4}

_SIDE_SCORE = re.compile(r"\b(NS|EW)\s*:?\s*([+-]?\d+)\b", re.IGNORECASE)
_CONTRACT_SCORE = re.compile(r";\s*([+-]?\d+)\s*$")

ParResult = tuple[int, str]


def parse_optimum_score(text: str) -> int:
    """The NS score given by a PBN ``OptimumScore`` value.

    Forms seen in files: ``NS 450``, ``NS +90``, ``NS -100`` and ``EW 620`` (score
    of the named side, so ``EW 620`` is -620 for NS), ``NS 450 EW -450`` (the NS
    part is used), and ``NS 7N; +1520`` / ``EW 4S; -620`` (side and contract, then
    the score from NS's side: EW making a vulnerable 4S is -620).

    Raises
    ------
    DDError
        if no score can be read.
    """
    contract_score = _CONTRACT_SCORE.search(text)
    if contract_score:
        return int(contract_score.group(1))
    pairs = {side.upper(): int(score) for side, score in _SIDE_SCORE.findall(text)}
    if "NS" in pairs:
        return pairs["NS"]
    if "EW" in pairs:
        return -pairs["EW"]
    raise DDError(f"OptimumScore {text!r}: expected 'NS <score>', 'EW <score>' or 'NS 4S; +620'")


_OPTIMUM_FORMS = re.compile(
    r"^\s*(?:(?P<side>NS|EW)\s*:?\s*(?P<score>[+-]?\d+)(?:\s+(?P<other>NS|EW)\s*:?\s*(?P<other_score>[+-]?\d+))?"
    r"|(?:NS|EW)\s+[^;]+;\s*(?P<contract_score>[+-]?\d+))\s*$",
    re.IGNORECASE,
)
#: No bridge score is larger: 7NT redoubled, vulnerable, 13 down.
_LARGEST_SCORE = 7600


def optimum_score_problem(text: object) -> str | None:
    """Why an ``OptimumScore`` value from a file is not a side and a score, or None if it is.

    Accepted: the forms :func:`parse_optimum_score` reads (``NS 420``, ``EW -100``, ``NS 420 EW -420``,
    ``NS 4S; +420``) with a score that a board can have (a multiple of 10, at most 7600 either way);
    ``100`` (no side), ``EW`` (no score) and ``NS 420 EW 420`` (the sides disagree) are not.
    """
    m = _OPTIMUM_FORMS.match(str(text))
    if m is None:
        return "is not a side and a score (such as 'NS 420' or 'EW 100')"
    numbers = [int(v) for v in (m["score"], m["other_score"], m["contract_score"]) if v is not None]
    if any(n % 10 or abs(n) > _LARGEST_SCORE for n in numbers):
        return "is not a score a board can have"
    if m["other"] is not None and (m["other"].upper() == m["side"].upper() or numbers[0] != -numbers[1]):
        return "gives two scores that disagree"
    return None


def _contract_text(level: int, denom: int, seats: int, under: int, over: int) -> str:
    if level == 0:
        return "Pass"
    result = f"X-{under}" if under else (f"+{over}" if over else "")
    return f"{_DDS_SEATS[seats]} {level}{_DDS_DENOMS[denom]}{result}"


#: One par contract as DDS gives it: (level, denom, seats, underTricks, overTricks), codes as above.
RawContract = tuple[int, int, int, int, int]


def _dds_par(table: tuple[int, ...], dealer: int, vul: str) -> tuple[int, list[RawContract]]:
    """DDS's dealer-aware par (``DealerParBin``) of a double-dummy table: NS score and raw contracts.

    The one place that uses endplay's private API (0.5.12), because its public API cannot
    do this: a ``DDTable`` is made only by solving a deal (``calc_dd_table``), not from
    known trick counts, so the table is filled in as ``endplay._dds.ddTableResults``; and
    iterating the public ``ParList`` rewrites a contract for a side (seats 4/5, NS or EW)
    into one per player, in place, so "NS 3NT" would read as "N 3NT, S 3NT": the raw DDS
    result is read from ``ParList._data``. tests/analysis/test_par_endplay.py fails
    loudly if endplay changes either.
    """
    endplay_module()
    from endplay import _dds
    from endplay.dds import par as dds_par
    from endplay.dds.ddtable import DDTable
    from endplay.types import Player, Vul

    res = _dds.ddTableResults()
    for column, tricks in zip(DD_COLUMNS, table):
        _, seat, strain = column.split("_")
        res.resTable[_RES_STRAIN[strain]][SEATS.index(seat)] = tricks
    data = dds_par(DDTable(res), Vul(_ENDPLAY_VUL[vul]), Player(dealer))._data
    contracts = [data.contracts[i] for i in range(data.number)]
    return int(data.score), [(c.level, c.denom, c.seats, c.underTricks, c.overTricks) for c in contracts]


def _par_one(table: tuple[int, ...], dealer: int, vul: str) -> ParResult:
    score, contracts = _dds_par(table, dealer, vul)
    texts = [_contract_text(*c) for c in contracts]
    texts = list(dict.fromkeys(t for t in texts if t != "Pass")) or ["Pass"]
    return score, ", ".join(texts)


def _board_codes(boards: pd.DataFrame) -> tuple[list[int | None], list[str | None]]:
    """Dealer code (0-3 = N E S W) and vulnerability text per row; board number fills gaps."""
    n = len(boards)
    dealers: list[int | None] = [None] * n
    vuls: list[str | None] = [None] * n
    if "dealer" in boards.columns:
        dealers = [SEATS.index(d.upper()) if isinstance(d, str) and d.upper() in SEATS else None
                   for d in boards["dealer"].astype("object").tolist()]
    if "vul" in boards.columns:
        vuls = [vul_from_text(v) for v in boards["vul"].astype("object").tolist()]
    if "board" in boards.columns and (None in dealers or None in vuls):
        numbers = pd.to_numeric(boards["board"], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        usable = np.nan_to_num(numbers, nan=0.0) >= 1
        board = np.where(usable, numbers, 1).astype(np.int64)
        cycle_dealers, cycle_vuls = dealer_codes(board).tolist(), vul_codes(board).tolist()  # one call each
        for i in np.flatnonzero(usable).tolist():
            if dealers[i] is None:
                dealers[i] = cycle_dealers[i]
            if vuls[i] is None:
                vuls[i] = VULS[cycle_vuls[i]]
    return dealers, vuls


def par(boards_with_dd: pd.DataFrame) -> pd.DataFrame:
    """Add the par score and par contract(s) of every board with a double-dummy table.

    Parameters
    ----------
    boards_with_dd : DataFrame
        Reads the 20 ``dd_*`` columns (see :func:`bridgeproc.dd.dd_tables`),
        ``dealer`` (``N E S W``) and ``vul`` (``None NS EW All``); where either is
        missing it is derived from ``board``.

    Returns
    -------
    DataFrame
        ``boards_with_dd`` plus ``par_score`` (Int64, NS view), ``par_contracts``
        and ``par_optimum_score`` (string); NA where the table, dealer or
        vulnerability is unknown.

    Raises
    ------
    DDUnavailableError
        if a par has to be computed and endplay is not installed.
    """
    missing = [c for c in DD_COLUMNS if c not in boards_with_dd.columns]
    if missing:
        raise TypeError(f"frame lacks double-dummy columns {missing[:3]}...; run dd_tables() first")
    dd = boards_with_dd[list(DD_COLUMNS)]
    complete = dd.notna().all(axis=1).tolist()
    tables = map(tuple, dd.astype("Int64").astype("object").to_numpy().tolist())  # one tuple per board
    dealers, vuls = _board_codes(boards_with_dd)
    memo: dict[tuple, ParResult] = {}
    scores: list[object] = []
    contracts: list[object] = []
    for ok, table, dealer, vul in zip(complete, tables, dealers, vuls):
        if not ok or dealer is None or vul is None:
            scores.append(pd.NA)
            contracts.append(pd.NA)
            continue
        key = (tuple(int(t) for t in table), dealer, vul)
        if key not in memo:
            memo[key] = _par_one(*key)
        score, text = memo[key]
        scores.append(score)
        contracts.append(text)
    index = boards_with_dd.index
    score_series = pd.Series(scores, index=index, dtype="Int64")
    optimum = ("NS " + score_series.astype("string")).astype("string")
    return boards_with_dd.assign(
        par_score=score_series,
        par_contracts=pd.Series(contracts, index=index, dtype="string"),
        par_optimum_score=optimum,
    )

