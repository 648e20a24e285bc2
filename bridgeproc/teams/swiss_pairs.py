"""Swiss pairs: pairs play short matches (3-12 boards) against one other pair, scored in IMPs and VPs.

How a match is scored (the way EBU and most club Swiss pairs are run; EBUScore's Swiss
Pairs scorer offers cross-IMPs as an option, as Cambridge and Waikato-Bays describe it):

* **IMPs against the datum** (default): every result of a board is IMPed against the
  datum of the whole field on that board (the Butler datum of
  :func:`bridgeproc.rank.butler`: the mean NS score after dropping
  ``Conventions.datum_drop`` results at each end, rounded to 10). A pair's match IMPs
  are the sum over the boards of its match; its opponents, at the same table, get
  the negative.
* **Cross-IMPs** (``imps="cross"``): each result is IMPed against every other result
  of the board, and averaged over the comparisons (so a board is worth as much as
  against a datum).

The pair's net match IMPs go to VPs on the scale given (default: the WBF 2013
continuous 20-VP scale of :mod:`bridgeproc.teams.vp`) for the match length: the boards
of the round (each board is in one round), or ``boards_per_match``. An artificial
score is worth ``Conventions.imp_ave_plus`` per board (A+ 3, A 0, A- -3) to each side
on its own, so the two sides of such a match need not share 20 VPs.

Rounds: each result's round is its traveller's Round cell, else the board's round from
``boards_per_round`` (boards 1..N round 1, N+1..2N round 2, ...). A board is compared
within its round, so a club that re-deals boards 1-7 each round can keep the numbers.

A bye: in a round with one pair of an odd field missing, that pair had the bye and
gets ``bye_vp`` (an option: conditions of contest differ; 12 of 20 is common). Any
other pair missing from a round gets 0 VP, with a note.

Standings: VPs (byes included), then net IMPs; pairs equal on both share a rank (``3=``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from bridgeproc.errors import ValidationError
from bridgeproc.rank import Conventions, butler, cross_imps
from bridgeproc.schema import SWISS_PAIRS_MATCH_COLUMNS, SWISS_PAIRS_STANDINGS_COLUMNS, problems_frame
from bridgeproc.teams.vp import WBF2013, VpScale

#: The bye award when the conditions of contest say nothing (VPs of the 20-VP scale).
BYE_VP = 12.0
_ROUND = re.compile(r"^\s*(\d{1,4})(?:\.0+)?\s*$")


@dataclass(frozen=True)
class SwissPairsOptions:
    """How a Swiss pairs event is scored (see the module docstring)."""

    imps: str = "datum"
    scale: VpScale = WBF2013
    boards_per_match: int | None = None
    boards_per_round: int | None = None
    bye_vp: float = BYE_VP
    conventions: Conventions = field(default_factory=Conventions)

    def __post_init__(self) -> None:
        if self.imps not in ("datum", "cross"):
            raise ValueError(f"imps={self.imps!r}; use 'datum' or 'cross'")


@dataclass(frozen=True)
class SwissPairsEvent:
    """A Swiss pairs event scored so far.

    results    the scored results with ``round``, ``imps_ns``, ``imps_ew`` (and ``datum``)
    matches    SWISS_PAIRS_MATCH_COLUMNS: one row per pair and round (byes and absences too)
    standings  SWISS_PAIRS_STANDINGS_COLUMNS, best first
    notes      what the director should see (byes, absences, a board in several rounds)
    """

    results: pd.DataFrame
    matches: pd.DataFrame
    standings: pd.DataFrame
    options: SwissPairsOptions
    notes: tuple[str, ...] = ()

    @property
    def rounds(self) -> int:
        """The last round scored."""
        return int(self.matches["round"].max()) if len(self.matches) else 0

    @property
    def meetings(self) -> pd.DataFrame:
        """``home``, ``away``: one row per match played, for the draw."""
        played = self.matches[(self.matches["status"] == "played") & (self.matches["pair"] < self.matches["opponent"])]
        return pd.DataFrame({"home": played["pair"].to_numpy(), "away": played["opponent"].to_numpy()})

    @property
    def byes(self) -> set[str]:
        """Pairs that have had a bye."""
        return set(self.matches.loc[self.matches["status"] == "bye", "pair"])


def pair_ids(results: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """The NS and EW pair of each result as one id: the section letter in front when there are sections."""
    section = results["section"].astype("string").fillna("") if "section" in results else ""
    return (section + results["ns"].astype("string")), (section + results["ew"].astype("string"))


def assign_rounds(results: pd.DataFrame, boards_per_round: int | None = None) -> pd.Series:
    """The round (Int64) of each result: its ``round`` text cell, else from ``boards_per_round``.

    Raises
    ------
    ValidationError
        Every result with a round cell that is not a round number, or with no round at all.
    """
    text = results["round"].astype("string") if "round" in results else pd.Series(pd.NA, index=results.index,
                                                                                   dtype="string")
    blank = text.isna() | (text.str.strip() == "")
    found = text.str.extract(_ROUND, expand=False)
    number = pd.to_numeric(found, errors="coerce").astype("Int64")
    bad = ~blank & (number.isna() | (number < 1))
    if boards_per_round is not None:
        by_board = ((results["board"].astype("int64") - 1) // boards_per_round + 1).astype("Int64")
        number = number.where(~blank, by_board)
    missing = number.isna() & ~bad
    problems = [{"source": s, "line": str(n), "column": "round", "value": v,
                 "message": "not a round number; write the round (1, 2, ...) this board was played in"}
                for s, n, v in zip(results["source"][bad], results["line"][bad], text[bad])]
    problems += [{"source": s, "line": str(n), "column": "round", "value": "",
                  "message": "no round for this result; add a Round column to the traveller or give "
                             "--boards-per-round"}
                 for s, n in zip(results["source"][missing], results["line"][missing])]
    if problems:
        raise ValidationError(problems_frame(problems))
    return number


def _board_imps(results: pd.DataFrame, options: SwissPairsOptions) -> pd.DataFrame:
    """Each result's IMPs for NS and EW, the board compared within its round (across sections)."""
    by_round = results.assign(section=("R" + results["round"].astype("string")).astype("string"))
    conventions = options.conventions.replace(across_field=False)
    if options.imps == "datum":
        scored = butler(by_round, conventions)
        return results.assign(imps_ns=scored["butler_ns"], imps_ew=scored["butler_ew"], datum=scored["datum"])
    scored = cross_imps(by_round, conventions)
    comparisons = scored["ximp_comparisons"].astype("float64").to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        ns = np.where(comparisons > 0, scored["ximp_ns"].to_numpy() / comparisons, 0.0)
        ew = np.where(comparisons > 0, scored["ximp_ew"].to_numpy() / comparisons, 0.0)
    np_row = scored["ximp_ns"].isna().to_numpy()
    return results.assign(imps_ns=np.where(np_row, np.nan, ns), imps_ew=np.where(np_row, np.nan, ew))


def _sides(results: pd.DataFrame) -> pd.DataFrame:
    """One row per result and side: ``round board pair opponent imps source line``."""
    ns, ew = pair_ids(results)
    common = {"round": results["round"], "board": results["board"], "source": results["source"],
              "line": results["line"]}
    return pd.concat([pd.DataFrame({**common, "pair": ns, "opponent": ew, "imps": results["imps_ns"]}),
                      pd.DataFrame({**common, "pair": ew, "opponent": ns, "imps": results["imps_ew"]})],
                     ignore_index=True)


def _one_opponent(sides: pd.DataFrame) -> None:
    """Refuse a pair that meets more than one pair in a round (a Swiss match is against one pair)."""
    count = sides.groupby(["round", "pair"])["opponent"].transform("nunique")
    wrong = sides[count > 1]
    if not len(wrong):
        return
    opponents = wrong.groupby(["round", "pair"])["opponent"].agg(lambda s: ", ".join(sorted(set(s))))
    problems = [{"source": source, "line": str(line), "column": "round", "value": str(rnd),
                 "message": f"pair {pair} meets {opponents[(rnd, pair)]} in round {rnd}; a Swiss "
                            "match is against one pair: correct the Round, NS or EW cell"}
                for source, line, rnd, pair in zip(wrong["source"], wrong["line"], wrong["round"], wrong["pair"])]
    raise ValidationError(problems_frame(problems))


def score_swiss_pairs(results: pd.DataFrame, options: SwissPairsOptions = SwissPairsOptions(),
                      names: dict[str, str] | None = None) -> SwissPairsEvent:
    """Score a Swiss pairs event from its checked results.

    Parameters
    ----------
    results : DataFrame
        Scored results (``bridgeproc.validate.validate_results``: section, board, ns, ew,
        score_ns, adjusted, source, line) with a ``round`` column (Int64, or the traveller's
        text cells: see :func:`assign_rounds`).
    options : SwissPairsOptions
        IMPs against the datum or cross-IMPs, the VP scale, match length, bye award.
    names : dict, optional
        Pair id -> names, for the standings.

    Raises
    ------
    ValidationError
        A round cell that is not a round, a result without a round, a pair meeting two pairs in one round.
    """
    rounds = assign_rounds(results, options.boards_per_round)
    scored = _board_imps(results.assign(round=rounds), options)
    sides = _sides(scored)
    _one_opponent(sides)
    notes = _board_notes(scored)
    match_length = scored.groupby("round")["board"].nunique()
    sides = sides.assign(won=sides["imps"].clip(lower=0), lost=(-sides["imps"]).clip(lower=0))
    g = sides.groupby(["round", "pair"], sort=True)
    matches = pd.DataFrame({
        "opponent": g["opponent"].first(), "boards": g["imps"].count(), "imps": g["imps"].sum(min_count=0),
        "imps_for": g["won"].sum(), "imps_against": g["lost"].sum(),
    }).reset_index()
    length = (np.full(len(matches), options.boards_per_match) if options.boards_per_match
              else matches["round"].map(match_length).to_numpy())
    matches["vp"] = options.scale.convert(matches["imps"].to_numpy(), length)
    matches["status"] = "played"
    absent, bye_notes = _byes(matches, options)
    notes += bye_notes
    matches = pd.concat([matches, absent], ignore_index=True) if len(absent) else matches
    matches = matches.sort_values(["round", "pair"], kind="stable", key=_natural_key).reset_index(drop=True)
    matches = matches[list(SWISS_PAIRS_MATCH_COLUMNS)].astype(SWISS_PAIRS_MATCH_COLUMNS)
    return SwissPairsEvent(results=scored, matches=matches, standings=swiss_pairs_standings(matches, names),
                           options=options, notes=tuple(notes))


def _natural_key(column: pd.Series) -> pd.Series:
    """Pair ids in number order (2 before 10); rounds as they are."""
    if column.name != "pair":
        return column
    digits = column.astype("string").str.extract(r"(\d+)$", expand=False)
    return pd.to_numeric(digits, errors="coerce").fillna(np.inf) + 0.0


def _board_notes(scored: pd.DataFrame) -> list[str]:
    """A board played in more than one round: compared within each round (re-dealt, or a Round cell wrong?)."""
    spread = scored.groupby("board")["round"].nunique()
    return [f"board {b} is in rounds {', '.join(str(r) for r in sorted(scored.loc[scored['board'] == b, 'round'].unique()))}; "
            "it is compared within each round (check the Round cells unless the boards were re-dealt)"
            for b in spread[spread > 1].index]


def _byes(matches: pd.DataFrame, options: SwissPairsOptions) -> tuple[pd.DataFrame, list[str]]:
    """Rows for the pairs missing from a round: the bye of an odd field, or absent (0 VP)."""
    pairs = pd.unique(matches["pair"])
    rounds = np.sort(pd.unique(matches["round"]))
    full = pd.MultiIndex.from_product([rounds, pairs], names=["round", "pair"])
    missing = full.difference(pd.MultiIndex.from_frame(matches[["round", "pair"]])).to_frame(index=False)
    if not len(missing):
        return missing, []
    per_round = missing.groupby("round")["pair"].transform("size")
    bye = (per_round == 1).to_numpy() & (len(pairs) % 2 == 1)
    missing = missing.assign(opponent=pd.NA, boards=0, imps=0.0, imps_for=0.0, imps_against=0.0,
                             vp=np.where(bye, options.bye_vp, 0.0), status=np.where(bye, "bye", "absent"))
    notes = [f"round {r}: pair {p} had the bye ({options.bye_vp:g} VP)" if s == "bye"
             else f"round {r}: pair {p} did not play (0 VP); if it had a bye, give it the bye VPs by hand"
             for r, p, s in zip(missing["round"], missing["pair"], missing["status"])]
    return missing, notes


def swiss_pairs_standings(matches: pd.DataFrame, names: dict[str, str] | None = None) -> pd.DataFrame:
    """SWISS_PAIRS_STANDINGS_COLUMNS from the match rows: VPs, then net IMPs; equal on both shares a rank."""
    g = matches.groupby("pair", sort=False)
    table = pd.DataFrame({
        "matches": (matches["status"] == "played").groupby(matches["pair"], sort=False).sum(),
        "byes": (matches["status"] == "bye").groupby(matches["pair"], sort=False).sum(),
        "boards": g["boards"].sum(), "total": g["vp"].sum(), "imps": g["imps"].sum(),
        "imps_for": g["imps_for"].sum(), "imps_against": g["imps_against"].sum(),
    }).reset_index()
    table["_number"] = _natural_key(table["pair"])
    total, imps = table["total"].round(6), table["imps"].round(6)
    table = table.assign(_t=total, _i=imps).sort_values(["_t", "_i", "_number"], ascending=[False, False, True],
                                                         kind="stable").reset_index(drop=True)
    first = table.groupby(["_t", "_i"], sort=False).cumcount() == 0
    position = pd.Series(np.arange(1, len(table) + 1)).where(first).ffill().astype("int64")
    tied = table.duplicated(subset=["_t", "_i"], keep=False)
    table["rank"] = position.astype("string") + pd.Series(np.where(tied, "=", ""), dtype="string")
    table["names"] = table["pair"].map(names or {})
    return table[list(SWISS_PAIRS_STANDINGS_COLUMNS)].astype(SWISS_PAIRS_STANDINGS_COLUMNS)
