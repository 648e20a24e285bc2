"""Team standings for Swiss and round-robin events, with a configurable tie-break chain.

The total is the sum of a team's VPs (``scoring="vp"``), IMP margins (``"imps"``)
or board-a-match points (``"bam"``) over the matches it played, minus VP penalties
given without a round. Matches ``not played`` count for neither team (they are
listed on the match cards).

Tie-breaks (``TeamsOptions.tie_breaks``; default by format, see
``teams.options``), applied in order to teams equal on the total:

``head-to-head-vp``
    VPs (or the scoring's points) won in the matches among the teams tied on the
    total (CBAI rule 1 for two teams, and for more than two). Meant for round
    robins: in a Swiss the tied teams have rarely all met, so it is not a default there.
``head-to-head-imps``
    IMP margin in those matches.
``imp-quotient``
    IMPs won / IMPs lost over all matches (IMPs lost 0: infinite).
``imp-difference``
    IMPs won - IMPs lost over all matches.
``imps-for``
    IMPs won over all matches.

Teams equal on the total and every tie-break share a rank (``3=``). The WBF's own
order is not verified (reference section 9), which is why the chain is an option.
The ``decided_by`` column names what separated a team from those it tied with.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.errors import BridgeprocError
from bridgeproc.schema import TEAM_STANDINGS_COLUMNS
from bridgeproc.teams.options import ROUND_ROBIN_TIE_BREAKS, SWISS_TIE_BREAKS, TIE_BREAKS, TeamsOptions

_POINTS = {"vp": "vp", "imps": "margin", "bam": "bam"}
_DECIMALS = 6


def long_matches(matches: pd.DataFrame, points: str = "vp") -> pd.DataFrame:
    """One row per (team, match) that counts: ``team opponent round match points margin imps_for imps_against boards``.

    A match counts when it was played, or when it was not but carries points
    (``unplayed="average"``); a match not played without points is left out.
    """
    column = _POINTS.get(points, points)
    counts = (matches["status"] == "played") | (matches[f"{column}_home"].notna() & matches[f"{column}_away"].notna())
    played = matches[counts]
    sides = []
    for side, other in (("home", "away"), ("away", "home")):
        sides.append(pd.DataFrame({
            "team": played[side], "opponent": played[other], "round": played["round"], "match": played["match"],
            "points": played[f"{column}_{side}"], "margin": played[f"margin_{side}"],
            "imps_for": played[f"imps_{side}"], "imps_against": played[f"imps_{other}"],
            "boards": played["played"],
        }))
    return pd.concat(sides, ignore_index=True)


def event_format(matches: pd.DataFrame) -> str:
    """``round-robin`` when every two teams met exactly once, else ``swiss``."""
    played = matches
    teams = pd.unique(pd.concat([played["home"], played["away"]]).dropna())
    n = len(teams)
    if n < 2:
        return "round-robin"
    low = played["home"].where(played["home"] <= played["away"], played["away"])
    high = played["away"].where(played["home"] <= played["away"], played["home"])
    pairs = pd.DataFrame({"a": low, "b": high}).drop_duplicates()
    return "round-robin" if len(pairs) == len(played) == n * (n - 1) // 2 else "swiss"


def tie_break_chain(matches: pd.DataFrame, options: TeamsOptions) -> tuple[str, ...]:
    """The tie-breaks used: ``options.tie_breaks``, else the default of the (detected) format."""
    if options.tie_breaks is not None:
        unknown = [t for t in options.tie_breaks if t not in TIE_BREAKS]
        if unknown:
            raise BridgeprocError(f"unknown tie-break {', '.join(unknown)}; use {', '.join(TIE_BREAKS)}")
        return tuple(options.tie_breaks)
    fmt = options.format if options.format != "auto" else event_format(matches)
    return ROUND_ROBIN_TIE_BREAKS if fmt == "round-robin" else SWISS_TIE_BREAKS


def standings(matches: pd.DataFrame, options: TeamsOptions = TeamsOptions(),
              adjustments: pd.DataFrame | None = None, names: dict[str, str] | None = None,
              teams: list[str] | None = None, through_round: int | None = None) -> pd.DataFrame:
    """Rank the teams.

    Parameters
    ----------
    matches : DataFrame
        From :func:`bridgeproc.teams.matches.match_totals` (plus ``bam_home``/
        ``bam_away`` for ``scoring="bam"``).
    options : TeamsOptions
        Uses ``scoring``, ``format`` and ``tie_breaks``.
    adjustments : DataFrame, optional
        Rows with ``team``, ``vp`` and no ``round``: VP penalties on the total.
    names : dict, optional
        Team -> roster text for the ``names`` column.
    teams : list, optional
        Every team entered; a team without a played match is ranked with 0.
    through_round : int, optional
        Standings after this round (matches of later rounds and VP penalties given
        with a later round are left out), e.g. to pair the next Swiss round.

    Returns
    -------
    DataFrame
        TEAM_STANDINGS_COLUMNS sorted by rank: ``total`` is the ranking total,
        ``vp`` the VPs (NaN unless scoring is vp), ``imp_quotient`` IMPs won / lost.
    """
    if through_round is not None:
        matches = matches[matches["round"].fillna(0) <= through_round]
    long = long_matches(matches, options.scoring)
    all_teams = pd.unique(pd.concat([matches["home"], matches["away"], pd.Series(teams or [], dtype="string")]).dropna())
    g = long.groupby("team", sort=False)
    per = pd.DataFrame(index=pd.Index(all_teams, name="team", dtype="string"))
    per["matches"] = g.size().reindex(per.index).fillna(0).astype("int64")
    per["boards"] = g["boards"].sum().reindex(per.index).fillna(0).astype("int64")
    per["points"] = g["points"].sum().reindex(per.index).fillna(0.0)
    per["imps_for"] = g["imps_for"].sum().reindex(per.index).fillna(0.0)
    per["imps_against"] = g["imps_against"].sum().reindex(per.index).fillna(0.0)
    penalty = _total_penalties(adjustments).reindex(per.index).fillna(0.0)
    per["penalty_vp"] = penalty
    per["total"] = per["points"] - penalty
    per["imp_difference"] = per["imps_for"] - per["imps_against"]
    with np.errstate(divide="ignore", invalid="ignore"):
        quotient = per["imps_for"] / per["imps_against"]
    per["imp_quotient"] = quotient.where(per["imps_against"] > 0, np.where(per["imps_for"] > 0, np.inf, 1.0))
    chain = tie_break_chain(matches, options)
    keys = {"total": per["total"].round(_DECIMALS)}
    tied_group = keys["total"]
    for name in chain:
        keys[name] = _tie_key(name, per, long, tied_group).round(_DECIMALS)
    ranked = _rank(per, keys)
    ranked["vp"] = ranked["points"] if options.scoring == "vp" else np.nan
    ranked["names"] = pd.Series([(names or {}).get(t) for t in ranked["team"]], dtype="string")
    return ranked[list(TEAM_STANDINGS_COLUMNS)].astype(TEAM_STANDINGS_COLUMNS)


def _total_penalties(adjustments: pd.DataFrame | None) -> pd.Series:
    if adjustments is None or "vp" not in adjustments or not len(adjustments):
        return pd.Series(dtype="float64")
    rows = adjustments[adjustments["round"].isna()] if "round" in adjustments else adjustments
    return rows.astype({"team": "string"}).groupby("team")["vp"].sum()


def _tie_key(name: str, per: pd.DataFrame, long: pd.DataFrame, tied_group: pd.Series) -> pd.Series:
    if name == "imp-quotient":
        return per["imp_quotient"]
    if name == "imp-difference":
        return per["imp_difference"]
    if name == "imps-for":
        return per["imps_for"]
    # head to head: matches between two teams of the same total
    group_of = tied_group.to_dict()
    same = long["team"].map(group_of).to_numpy() == long["opponent"].map(group_of).to_numpy()
    among = long[same]
    column = "points" if name == "head-to-head-vp" else "margin"
    return among.groupby("team")[column].sum().reindex(per.index).fillna(0.0)


def _rank(per: pd.DataFrame, keys: dict[str, pd.Series]) -> pd.DataFrame:
    """Sort by every key (descending), give competition ranks, mark ties and what broke them."""
    frame = per.assign(**{f"_k{i}": k for i, k in enumerate(keys.values())})
    cols = [f"_k{i}" for i in range(len(keys))]
    frame = frame.sort_values(cols, ascending=False, kind="stable").reset_index()
    n = len(frame)
    position = np.arange(1, n + 1)
    same_as_prev = np.zeros(n, dtype=bool)
    if n > 1:
        same_as_prev[1:] = np.all([frame[c].to_numpy()[1:] == frame[c].to_numpy()[:-1] for c in cols], axis=0)
    block = np.cumsum(~same_as_prev)
    first = pd.Series(position).groupby(block).transform("min").to_numpy()
    size = pd.Series(position).groupby(block).transform("size").to_numpy()
    frame["rank"] = pd.Series([f"{r}=" if s > 1 else str(r) for r, s in zip(first, size)], dtype="string")
    names = list(keys)
    decided = np.full(n, "", dtype=object)
    for level in range(1, len(cols)):
        prefix = frame[cols[:level]].astype("float64")
        group_size = prefix.groupby(cols[:level], dropna=False)[cols[0]].transform("size").to_numpy()
        full = frame[cols[:level + 1]].astype("float64")
        sub_size = full.groupby(cols[:level + 1], dropna=False)[cols[0]].transform("size").to_numpy()
        newly = (group_size > 1) & (sub_size == 1) & (decided == "")
        decided[newly] = names[level]
    tied_total = frame.groupby(cols[0])[cols[0]].transform("size").to_numpy() > 1
    decided[(decided == "") & tied_total & (size > 1)] = "tied"
    frame["decided_by"] = pd.Series(decided, dtype="string")
    return frame
