"""Teams of four: board IMPs from the two rooms of a match, then match totals and VPs.

Rooms. In each match the *open* room has the home team North-South and the *closed*
room has it East-West. The home team's swing on a board is (NS score in the open
room) - (NS score in the closed room); board IMPs = IMP(swing) (Law 78B, reference
section 9), the away team gets the negative.

Conventions (each explicit; the status column says which one applied):

``played``
    Both rooms have a real result: IMPs as above.
``adjusted``
    A room has an artificial score (``A+``, ``A``, ``A-``, ``60/40`` ...): the board
    is decided by the award, not by the other room. Each team gets its own award:
    A+ = +``ave_plus_imps`` (3, Law 86A), A = 0, A- = -3; a percentage p gives
    (p - 50)/10 x 3. If both rooms are artificial the awards add up. Awards need not
    balance (A+/A+ gives both teams +3).
``one room``
    One room has a result and the other has none (missing, or ``NP``): 0 IMPs to
    both, and the board is listed. To score it otherwise the director enters an
    artificial score in the empty room.
``not played``
    Neither room has a result: 0 IMPs. A match whose boards are all ``not played``
    is a match not played (see :func:`match_totals`).

Everything is whole-column work: the two rooms are merged on (match, board), IMPs
come from :func:`bridgeproc.rank.to_imps` on the swing column, totals are groupby sums.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.errors import BridgeprocError
from bridgeproc.rank import Conventions, artificial_imps, played_masks, to_imps
from bridgeproc.schema import TEAM_BOARD_COLUMNS, TEAM_MATCH_COLUMNS, TEAM_RESULTS_COLUMNS, check
from bridgeproc.teams.options import TeamsOptions

ROOMS = ("open", "closed")



_KEYS = ["match", "round", "home", "away", "board"]


def match_id(round_: pd.Series, home: pd.Series, away: pd.Series) -> pd.Series:
    """``R3 Home v Away`` (``Home v Away`` without a round): the text id of a match."""
    text = home.astype("string") + " v " + away.astype("string")
    prefix = ("R" + round_.astype("Int64").astype("string") + " ").fillna("")
    return (prefix + text).astype("string")


def board_imps(results: pd.DataFrame, options: TeamsOptions = TeamsOptions()) -> pd.DataFrame:
    """IMPs per board of every match, from the two rooms' results.

    Parameters
    ----------
    results : DataFrame
        Scored results with ``match round home away room board score_ns adjusted``
        (``room`` ``open``: home sits NS; ``closed``: home sits EW).
    options : TeamsOptions
        Uses ``ave_plus_imps``.

    Returns
    -------
    DataFrame
        TEAM_BOARD_COLUMNS, one row per (match, board) present in either room, sorted by
        round, match, board: the two NS scores, the home ``swing`` (Int64, NA unless
        both rooms have a real result), ``imps_home``/``imps_away`` (float64) and
        ``status`` (``played``, ``adjusted``, ``one room``, ``not played``).

    Raises
    ------
    BridgeprocError
        A room of a match has two results on one board (the message gives both lines).
    """
    check(results, {**TEAM_RESULTS_COLUMNS, "board": "int64", "score_ns": "Int64", "adjusted": "string"})
    _check_duplicates(results)
    real, artificial, _ = played_masks(results)
    ns_award, ew_award = artificial_imps(results, Conventions(imp_ave_plus=options.ave_plus_imps))
    is_open = (results["room"] == "open").fillna(False).to_numpy(dtype=bool)
    frame = pd.DataFrame({
        **{k: results[k] for k in _KEYS},
        "room": results["room"],
        "score": results["score_ns"].where(real),
        "adjusted": results["adjusted"],
        "real": real, "artificial": artificial,
        "award_home": np.where(artificial, np.where(is_open, ns_award, ew_award), 0.0),
        "award_away": np.where(artificial, np.where(is_open, ew_award, ns_award), 0.0),
    })
    open_, closed = (frame[frame["room"] == r].drop(columns="room") for r in ROOMS)
    both = open_.merge(closed, on=_KEYS, how="outer", suffixes=("_open", "_closed"), sort=False)
    real_o = both["real_open"].fillna(False).to_numpy(dtype=bool)
    real_c = both["real_closed"].fillna(False).to_numpy(dtype=bool)
    art = both["artificial_open"].fillna(False).to_numpy(dtype=bool) | both["artificial_closed"].fillna(False).to_numpy(dtype=bool)
    swing = (both["score_open"] - both["score_closed"]).astype("Int64").where(real_o & real_c)
    imps = to_imps(swing.to_numpy(dtype=np.float64, na_value=0.0))
    awards_home = both["award_home_open"].fillna(0.0).to_numpy() + both["award_home_closed"].fillna(0.0).to_numpy()
    awards_away = both["award_away_open"].fillna(0.0).to_numpy() + both["award_away_closed"].fillna(0.0).to_numpy()
    played = real_o & real_c & ~art
    status = np.select([art, played, real_o | real_c], ["adjusted", "played", "one room"], "not played")
    out = pd.DataFrame({
        **{k: both[k] for k in _KEYS},
        "score_open": both["score_open"], "score_closed": both["score_closed"],
        "adjusted_open": both["adjusted_open"], "adjusted_closed": both["adjusted_closed"],
        "swing": swing,
        "imps_home": np.where(art, awards_home, np.where(played, imps, 0.0)) + 0.0,
        "imps_away": np.where(art, awards_away, np.where(played, -imps, 0.0)) + 0.0,
        "status": status,
    })
    out = out.astype(TEAM_BOARD_COLUMNS)
    return out.sort_values(["round", "match", "board"], kind="stable", na_position="first").reset_index(drop=True)


def _check_duplicates(results: pd.DataFrame) -> None:
    dup = results.duplicated(subset=["match", "room", "board"], keep="first")
    if not dup.any():
        return
    at = int(np.flatnonzero(dup.to_numpy())[0])
    row = results.iloc[at]
    same = results[(results["match"] == row["match"]) & (results["room"] == row["room"]) & (results["board"] == row["board"])]
    where = f"{row['source']}:{row['line']}: " if "source" in results else ""
    first = f" (first at {same['source'].iloc[0]}:{same['line'].iloc[0]})" if "source" in results else ""
    raise BridgeprocError(f"{where}board {row['board']} has a second result in the {row['room']} room of "
                          f"{row['match']}{first}; delete one, or correct the room or board")


def result_imps(results: pd.DataFrame, boards: pd.DataFrame) -> pd.DataFrame:
    """``results`` plus ``imp_ns``/``imp_ew``: the board IMPs seen from each table's NS and EW.

    In the open room NS is the home team (``imp_ns`` = ``imps_home``); in the closed
    room NS is the away team. This is what PBN ``ScoreIMP`` publishes per room.
    """
    keyed = boards.set_index(["match", "board"])[["imps_home", "imps_away"]]
    at = pd.MultiIndex.from_arrays([results["match"], results["board"]])
    home = keyed["imps_home"].reindex(at).to_numpy()
    away = keyed["imps_away"].reindex(at).to_numpy()
    is_open = (results["room"] == "open").fillna(False).to_numpy(dtype=bool)
    return results.assign(imp_ns=np.where(is_open, home, away), imp_ew=np.where(is_open, away, home))


def match_totals(boards: pd.DataFrame, options: TeamsOptions = TeamsOptions(),
                 adjustments: pd.DataFrame | None = None, schedule: pd.DataFrame | None = None) -> pd.DataFrame:
    """Match scores: IMPs, carry-over and penalties, the margin, and VPs.

    Parameters
    ----------
    boards : DataFrame
        From :func:`board_imps`.
    options : TeamsOptions
        Uses ``scale``, ``boards_per_match`` and ``unplayed``.
    adjustments : DataFrame, optional
        Columns ``team``, ``round`` (Int64) and any of ``carry`` (IMPs added to the
        team's score in that round's match: carry-over), ``imps`` (an IMP penalty,
        deducted from the team's score before the VPs) and ``vp`` (a VP penalty,
        deducted after). Rows without a round are applied by :func:`standings`.
    schedule : DataFrame, optional
        ``round home away`` of matches that should have been played; a scheduled
        match with no board in ``boards`` is reported as ``not played``.

    Returns
    -------
    DataFrame
        TEAM_MATCH_COLUMNS, one row per match. ``imps_home``/``imps_away``: IMPs each team
        won on the boards (sum of its positive board IMPs) plus its carry-over.
        ``margin_home`` = sum of the home board IMPs + carry_home - carry_away -
        penalty_imps_home (and the mirror for away). ``vp_home`` = scale(margin_home,
        N) - penalty_vp_home, where N is ``boards_per_match`` or the boards of the
        match. ``played``: boards with a result in both rooms (or an award).
        ``status``: ``played``, or ``not played`` (no result at either table on any
        board: IMPs and VPs NaN, or half the VP total each with
        ``unplayed="average"``).
    """
    check(boards, TEAM_BOARD_COLUMNS)
    b = boards.assign(
        won_home=boards["imps_home"].clip(lower=0), won_away=boards["imps_away"].clip(lower=0),
        scored=boards["status"].isin(["played", "adjusted"]), has_play=(boards["status"] != "not played"),
    )
    keys = ["match", "round", "home", "away"]
    g = b.groupby(keys, sort=False, dropna=False)
    m = g.agg(boards=("board", "size"), played=("scored", "sum"), any_play=("has_play", "any"), net_home=("imps_home", "sum"),
              net_away=("imps_away", "sum"), won_home=("won_home", "sum"), won_away=("won_away", "sum")).reset_index()
    if schedule is not None and len(schedule):
        m = _add_scheduled(m, schedule)
    return _finish(m, options, adjustments)


def totals_from_imps(matches: pd.DataFrame, options: TeamsOptions, adjustments: pd.DataFrame | None = None) -> pd.DataFrame:
    """Match scores from match-level IMP totals only (no boards), as :func:`match_totals` returns.

    Parameters
    ----------
    matches : DataFrame
        ``round home away imps_home imps_away`` (IMPs each team scored; NaN for a
        match not played), e.g. from :func:`bridgeproc.teams.load.published_matches`.
    options : TeamsOptions
        ``boards_per_match`` is required: the file does not say how long a match was.
    """
    if not options.boards_per_match:
        raise BridgeprocError("these results are match totals without boards: give the match length "
                              "(boards_per_match, --boards-per-match N) so IMP margins can become VPs")
    played = matches["imps_home"].notna() & matches["imps_away"].notna()
    home, away = matches["imps_home"].fillna(0.0), matches["imps_away"].fillna(0.0)
    rnd = matches["round"].astype("Int64")
    m = pd.DataFrame({
        "match": match_id(rnd, matches["home"], matches["away"]), "round": rnd,
        "home": matches["home"].astype("string"), "away": matches["away"].astype("string"),
        "boards": np.where(played, options.boards_per_match, 0), "played": np.where(played, options.boards_per_match, 0),
        "any_play": played.to_numpy(), "net_home": home - away, "net_away": away - home,
        "won_home": home, "won_away": away,
    })
    return _finish(m, options, adjustments)


def _finish(m: pd.DataFrame, options: TeamsOptions, adjustments: pd.DataFrame | None) -> pd.DataFrame:
    _check_adjustments(m, adjustments)
    for side in ("home", "away"):
        for column in ("carry", "imps", "vp"):
            m[f"{column}_{side}"] = _per_match(m, adjustments, side, column)
    n = np.full(len(m), options.boards_per_match) if options.boards_per_match else m["boards"].to_numpy()
    played = m["any_play"].to_numpy(dtype=bool)
    margin_home = m["net_home"] + m["carry_home"] - m["carry_away"] - m["imps_home"]
    margin_away = m["net_away"] + m["carry_away"] - m["carry_home"] - m["imps_away"]
    unplayed_vp = options.scale.total / 2 if options.unplayed == "average" else np.nan
    vp_home = np.where(played, options.scale.convert(margin_home.to_numpy(), np.maximum(n, 1)), unplayed_vp)
    vp_away = np.where(played, options.scale.convert(margin_away.to_numpy(), np.maximum(n, 1)), unplayed_vp)
    out = pd.DataFrame({
        "match": m["match"], "round": m["round"], "home": m["home"], "away": m["away"],
        "boards": n.astype(np.int64), "played": m["played"].astype(np.int64),
        "imps_home": (m["won_home"] + m["carry_home"]).where(played),
        "imps_away": (m["won_away"] + m["carry_away"]).where(played),
        "carry_home": m["carry_home"], "carry_away": m["carry_away"],
        "penalty_imps_home": m["imps_home"], "penalty_imps_away": m["imps_away"],
        "margin_home": margin_home.where(played), "margin_away": margin_away.where(played),
        "vp_home": vp_home - m["vp_home"].to_numpy(), "vp_away": vp_away - m["vp_away"].to_numpy(),
        "penalty_vp_home": m["vp_home"], "penalty_vp_away": m["vp_away"],
        "status": np.where(played, "played", "not played"),
    })
    return out.astype(TEAM_MATCH_COLUMNS).reset_index(drop=True)


def _add_scheduled(m: pd.DataFrame, schedule: pd.DataFrame) -> pd.DataFrame:
    s = schedule.astype({"round": "Int64", "home": "string", "away": "string"})
    ids = match_id(s["round"], s["home"], s["away"])
    flipped = match_id(s["round"], s["away"], s["home"])
    known = set(m["match"])
    new = ~(ids.isin(known) | flipped.isin(known))
    if not new.any():
        return m
    extra = pd.DataFrame({"match": ids[new], "round": s["round"][new], "home": s["home"][new], "away": s["away"][new],
                          "boards": 0, "played": 0, "any_play": False, "net_home": 0.0, "net_away": 0.0, "won_home": 0.0, "won_away": 0.0})
    return pd.concat([m, extra], ignore_index=True)


def _per_match(m: pd.DataFrame, adjustments: pd.DataFrame | None, side: str, column: str) -> np.ndarray:
    """Sum of ``adjustments[column]`` for the ``side`` team of each match, by (round, team)."""
    if adjustments is None or column not in adjustments or not len(adjustments):
        return np.zeros(len(m))
    adj = adjustments.dropna(subset=["round"]) if "round" in adjustments else adjustments.iloc[:0]
    if not len(adj):
        return np.zeros(len(m))
    per = adj.astype({"round": "Int64", "team": "string"}).groupby(["round", "team"])[column].sum(min_count=1)
    at = pd.MultiIndex.from_arrays([m["round"].astype("Int64"), m[side].astype("string")])
    return per.reindex(at).fillna(0.0).to_numpy(dtype=np.float64)


def _check_adjustments(m: pd.DataFrame, adjustments: pd.DataFrame | None) -> None:
    """Every adjustment with a round must name a team that played a match in that round, and one on the
    total a team of the event."""
    if adjustments is None or not len(adjustments):
        return
    teams = set(m["home"]) | set(m["away"])
    total = adjustments[adjustments["round"].isna()] if "round" in adjustments else adjustments
    strangers = sorted(set(total["team"].astype("string").dropna()) - teams)
    if strangers:
        raise BridgeprocError(f"adjustment for team {strangers[0]}, which plays no match of the event; correct the "
                              f"team's name (the teams are {', '.join(sorted(map(str, teams))[:8])}"
                              f"{' ...' if len(teams) > 8 else ''})")
    if "round" not in adjustments:
        return
    adj = adjustments.dropna(subset=["round"]).astype({"round": "Int64", "team": "string"})
    known = set(zip(m["round"], m["home"])) | set(zip(m["round"], m["away"]))
    stray = [(r, t) for r, t in zip(adj["round"], adj["team"]) if (r, t) not in known]
    if stray:
        r, t = stray[0]
        raise BridgeprocError(f"adjustment for team {t} in round {r}, but {t} has no match in round {r}; "
                              "correct the team or round (leave the round empty for a VP penalty on the total)")
