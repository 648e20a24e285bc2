"""Column names and dtypes of every frame, declared once.

Seats, strains and vulnerability are categoricals with fixed categories, so that
codes are small integers (fast to score) and the frame still reads as text.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping

import pandas as pd

SEATS = ("N", "E", "S", "W")
STRAINS = ("C", "D", "H", "S", "NT")
#: The boards frame's double-dummy columns: ``dd_<declarer>_<strain>`` (Int8 tricks), declarer-major.
DD_COLUMNS: tuple[str, ...] = tuple(f"dd_{seat}_{strain}" for seat in SEATS for strain in STRAINS)
VULS = ("None", "NS", "EW", "All")

SEAT = pd.CategoricalDtype(list(SEATS))
STRAIN = pd.CategoricalDtype(list(STRAINS), ordered=True)
VUL = pd.CategoricalDtype(list(VULS))

BOARDS_COLUMNS: dict[str, object] = {
    "board": "int64",
    "dealer": SEAT,
    "vul": VUL,
    "deal": "string",
    "source": "string",
    "line": "Int64",
}

#: Results after parsing and scoring. ``level`` 0 is a passed-out board.
RESULTS_COLUMNS: dict[str, object] = {
    "section": "string",
    "board": "int64",
    "ns": "string",
    "ew": "string",
    "level": "Int8",
    "strain": STRAIN,
    "doubled": "Int8",
    "declarer": SEAT,
    "tricks": "Int8",
    "lead": "string",
    "adjusted": "string",
    "score_ns": "Int64",
    "source": "string",
    "line": "Int64",
}

#: Optional in a results frame: a PBN game's legal Play, the cards in the order they were played,
#: space-separated (``C3 C9 CT CA D6 ...``; validate.records.played_cards), NA where none was given.
#: Archived with the results; the profile's defence after the lead reads it (analysis.profile).
PLAY = "play"
PLAY_COLUMN: dict[str, object] = {PLAY: "string"}

STANDINGS_COLUMNS: dict[str, object] = {
    "group": "string",
    "rank": "string",
    "pair": "string",
    "names": "string",
    "boards": "int64",
    "total": "float64",
    "pct": "float64",
}

#: One row per problem found in the input (see errors.ValidationError).
PROBLEM_COLUMNS: dict[str, object] = {
    "source": "string",
    "line": "string",
    "column": "string",
    "value": "string",
    "message": "string",
}

#: Columns of the scored-results CSV (design.md), before the per-method columns.
SCORED_CSV_COLUMNS = ["section", "board", "ns", "ew", "contract", "declarer", "tricks", "lead", "score_ns"]


#: Names lists (io.sheets.names, the BWS PlayerNames table).
NAMES_COLUMNS: dict[str, object] = {"section": "string", "pair": "string", "names": "string", "direction": "string",
                                 "source": "string", "line": "string"}
#: Optional in a names frame: the players' member numbers, ``964263 & 1066307`` (names lists with
#: member-id columns, USEBIO's NATIONAL_ID_NUMBER), and their clubs' numbers (``club_ids``, CLUB_ID_NUMBER); written to USEBIO.
NAMES_ID_COLUMNS: dict[str, object] = {"ids": "string", "club_ids": "string"}
#: A Bridgemate movement (BWS RoundData): who sat where in which round.
MOVEMENT_COLUMNS: dict[str, object] = {"section": "string", "table": "Int64", "round": "Int64", "ns": "string",
                                    "ew": "string", "low_board": "Int64", "high_board": "Int64"}
#: Optional in a movement: True on a round arrow-switched (``bridgeproc movement --arrow-switch``; the pair in
#: ``ns`` is then the EW-numbered one).
MOVEMENT_SWITCHED_COLUMNS: dict[str, object] = {"switched": "boolean"}
PAR_COLUMNS: dict[str, object] = {"par_score": "Int64", "par_contracts": "string", "par_optimum_score": "string"}
#: Columns added by :func:`matchpoints`.
MP_COLUMNS: dict[str, object] = {"mp_ns": "float64", "mp_ew": "float64", "pct_ns": "float64", "pct_ew": "float64",
              "top": "float64", "mp_factor": "float64"}
#: Columns added by :func:`cross_imps`.
CROSS_COLUMNS: dict[str, object] = {"ximp_ns": "float64", "ximp_ew": "float64", "ximp_comparisons": "Int64"}
#: Columns added by :func:`butler`.
BUTLER_COLUMNS: dict[str, object] = {"butler_ns": "float64", "butler_ew": "float64", "datum": "Int64"}
#: Columns a teams results frame carries on top of schema.RESULTS_COLUMNS.
TEAM_RESULTS_COLUMNS: dict[str, object] = {
    "round": "Int64", "match": "string", "home": "string", "away": "string", "room": "string",
}
#: One row per (match, board), from :func:`board_imps`.
TEAM_BOARD_COLUMNS: dict[str, object] = {
    "match": "string", "round": "Int64", "home": "string", "away": "string", "board": "int64",
    "score_open": "Int64", "score_closed": "Int64", "adjusted_open": "string", "adjusted_closed": "string",
    "swing": "Int64", "imps_home": "float64", "imps_away": "float64", "status": "string",
}
#: One row per match, from :func:`match_totals`.
TEAM_MATCH_COLUMNS: dict[str, object] = {
    "match": "string", "round": "Int64", "home": "string", "away": "string", "boards": "int64",
    "played": "int64", "imps_home": "float64", "imps_away": "float64", "carry_home": "float64",
    "carry_away": "float64", "penalty_imps_home": "float64", "penalty_imps_away": "float64",
    "margin_home": "float64", "margin_away": "float64", "vp_home": "float64", "vp_away": "float64",
    "penalty_vp_home": "float64", "penalty_vp_away": "float64", "status": "string",
}
#: Pair totals of the pairwise cross-IMPs inside a teams event (:func:`bridgeproc.teams.pairwise.pair_imps`).
PAIR_IMPS_COLUMNS: dict[str, object] = {"pair": "string", "team": "string", "boards": "int64", "imps": "float64"}
#: Columns of the teams standings frame.
TEAM_STANDINGS_COLUMNS: dict[str, object] = {
    "rank": "string", "team": "string", "names": "string", "matches": "int64", "boards": "int64",
    "total": "float64", "vp": "float64", "imps_for": "float64", "imps_against": "float64",
    "imp_difference": "float64", "imp_quotient": "float64", "penalty_vp": "float64", "decided_by": "string",
}
#: The typed frame ``read_sheet`` returns (``level`` 0 = passed out; ``side`` NS/EW).
RUBBER_SHEET_COLUMNS: dict[str, object] = {
    "deal": "Int64", "declarer": "string", "side": "string", "level": "int8", "strain": "string",
    "doubled": "int8", "tricks": "Int8", "honours_side": "string", "honours": "int64",
    "hcp_ns": "Int8", "source": "string", "line": "int64",
}
#: A Chicago score sheet.
CHICAGO_COLUMNS: dict[str, object] = {
    "chicago": "int64", "deal": "Int64", "round_deal": "Int64", "dealer": "string", "vul": "string",
    "declarer": "string", "contract": "string", "tricks": "Int8", "result": "string", "ns_points": "int64",
    "ew_points": "int64", "ns_total": "int64", "ew_total": "int64", "note": "string",
}
#: A Chicago score sheet with HCP targets (imps per deal).
CHICAGO_HCP_COLUMNS: dict[str, object] = {
    "chicago": "int64", "deal": "Int64", "round_deal": "Int64", "dealer": "string", "vul": "string",
    "declarer": "string", "contract": "string", "tricks": "Int8", "result": "string", "hcp_ns": "Int8",
    "target_side": "string", "target": "Int64", "score_ns": "Int64", "imps_ns": "int64", "imps_ew": "int64",
    "ns_total": "int64", "ew_total": "int64", "note": "string",
}
#: Columns of the classic rubber sheet (points are those scored on that row).
RUBBER_COLUMNS: dict[str, object] = {
    "rubber": "int64", "deal": "Int64", "declarer": "string", "contract": "string", "tricks": "Int8",
    "result": "string", "vulnerable": "boolean", "ns_below": "int64", "ns_above": "int64", "ew_below": "int64",
    "ew_above": "int64", "ns_total": "int64", "ew_total": "int64", "games_ns": "int64", "games_ew": "int64",
    "note": "string",
}
#: Columns of the simplified rubber sheet.
SIMPLIFIED_RUBBER_COLUMNS: dict[str, object] = {
    "rubber": "int64", "deal": "Int64", "declarer": "string", "contract": "string", "tricks": "Int8",
    "result": "string", "vulnerable": "boolean", "ns_points": "int64", "ew_points": "int64", "ns_total": "int64",
    "ew_total": "int64", "games_ns": "int64", "games_ew": "int64", "note": "string",
}
#: A director's corrections file as read (io.corrections): text cells, and where each row was written.
#: ``problem`` is what the reader found wrong with the row itself (a stray cell, an unknown key), else NA.
CORRECTIONS_FILE_COLUMNS: dict[str, object] = {
    "section": "string", "board": "string", "ns": "string", "ew": "string", "field": "string", "value": "string",
    "reason": "string", "problem": "string", "source": "string", "line": "Int64",
}
#: Corrections applied to the raw results (validate.corrections), one row per corrected cell: the result
#: corrected (section, board and pairs as the results frame writes them, before the correction), the field,
#: its text before and after, the reason, where the correction was written (``source``, ``line``) and where
#: the result was read (``result_source``, ``result_line``).
CORRECTIONS_COLUMNS: dict[str, object] = {
    "section": "string", "board": "int64", "ns": "string", "ew": "string", "field": "string", "was": "string",
    "now": "string", "reason": "string", "source": "string", "line": "Int64", "result_source": "string",
    "result_line": "Int64",
}
#: A player's history across archived sessions.
HISTORY_COLUMNS: dict[str, object] = {
    "date": "string", "event": "string", "session_id": "string", "version": "int64", "method": "string",
    "group": "string", "pair": "string", "partner": "string", "names": "string", "rank": "string",
    "boards": "Int64", "pct": "float64", "imps": "float64", "total": "float64",
}


def empty(columns: dict[str, object]) -> pd.DataFrame:
    """An empty frame with the declared columns and dtypes (built once per contract, then a shallow
    copy each time: a run reading a thousand clubs' files asks for the same empty frames again and again)."""
    try:
        return _empty(tuple(columns.items())).copy(deep=False)
    except TypeError:  # a dtype that cannot be a cache key
        return pd.DataFrame({name: pd.Series([], dtype=dtype) for name, dtype in columns.items()})


@functools.lru_cache(maxsize=256)
def _empty(columns: tuple) -> pd.DataFrame:
    return pd.DataFrame({name: pd.Series([], dtype=dtype) for name, dtype in columns})


def problems_frame(rows: list[dict]) -> pd.DataFrame:
    """Build a problems frame from dicts with (a subset of) PROBLEM_COLUMNS keys: a missing or NA value is
    empty text, any other is its text. Column by column into string arrays (a frame of records cast
    afterwards costs a millisecond a call, and a run makes a dozen, most of them empty)."""
    if not rows:
        return empty(PROBLEM_COLUMNS)

    def text(value: object) -> object:
        return "" if value is None or (pd.api.types.is_scalar(value) and pd.isna(value)) else value

    return pd.DataFrame({name: pd.array([text(row.get(name)) for row in rows], dtype=dtype)
                         for name, dtype in PROBLEM_COLUMNS.items()})


def typed(frame: pd.DataFrame, columns: Mapping[str, object]) -> pd.DataFrame:
    """``frame`` with the declared dtypes, converting only the columns that have another (a cast of a column
    already of its dtype still costs a copy; ``"string"`` is compared as the dtype it names, which the
    ``str`` dtype is not)."""
    other = {c: d for c, d in columns.items() if frame[c].dtype != pd.api.types.pandas_dtype(d)}
    return frame.astype(other) if other else frame


def check(frame: pd.DataFrame, columns: Mapping[str, object]) -> None:
    """Raise TypeError if ``frame`` lacks a declared column or holds it with another dtype (a
    programming error, not bad input: a step's entry says what it takes)."""
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise TypeError(f"frame lacks columns {missing}")
    wrong = [f"{c} is {frame[c].dtype}, not {expected}" for c, expected in columns.items()
             if frame[c].dtype != pd.api.types.pandas_dtype(expected)]
    if wrong:
        raise TypeError("frame has other dtypes than declared: " + "; ".join(wrong))


def records(frame: pd.DataFrame):
    """Rows as objects with one attribute per column, for writers that lay out a few rows
    one by one (never for scoring or ranking, which work on whole columns)."""
    from types import SimpleNamespace

    return (SimpleNamespace(**row) for row in frame.to_dict("records"))


#: One row per pair per session of an event (rank.event): the session's standings row, the pair's
#: member ids, its ``top`` (the matchpoints it could have scored; NaN for IMPs), the event ``key``
#: it was matched by, and ``imputed`` when the row stands for a session the pair missed.
EVENT_SESSION_COLUMNS: dict[str, object] = {
    "session": "int64", "group": "string", "rank": "string", "pair": "string", "names": "string",
    "ids": "string", "boards": "int64", "total": "float64", "pct": "float64", "top": "float64",
    "key": "string", "imputed": "bool",
}
#: The event ranking (rank.event): Ruter's cumulative columns; ``session_*`` are the last session's.
EVENT_STANDINGS_COLUMNS: dict[str, object] = {
    "group": "string", "rank": "string", "pair": "string", "names": "string", "sessions": "int64",
    "boards": "int64", "carry": "float64", "total": "float64", "pct": "float64", "session_boards": "Int64",
    "session_total": "float64", "session_pct": "float64", "session_rank": "string", "key": "string",
}
#: A simultaneous event's field frame (pipeline.sim) on top of RESULTS_COLUMNS and the method's columns:
#: the club, the section as the club named it (``section`` is ``club/section``, unique in the field).
SIM_COLUMNS: dict[str, object] = {"club": "string", "club_section": "string"}
#: The method's columns scored within each club (``club_mp_ns`` ...), beside the field's (``mp_ns`` ...).
SIM_CLUB_COLUMNS: dict[str, object] = {f"club_{name}": dtype for columns in (MP_COLUMNS, CROSS_COLUMNS, BUTLER_COLUMNS)
                                       for name, dtype in columns.items()}
#: Standings of a simultaneous event: the club and its own section, then STANDINGS_COLUMNS.
SIM_STANDINGS_COLUMNS: dict[str, object] = {"club": "string", "club_section": "string", **STANDINGS_COLUMNS}
#: The field's frequency table: one row per board and score (artificial codes apart), how many
#: results of the field have it, and the field's points for it (the method's NS/EW points, % when MPs).
SIM_FREQUENCY_COLUMNS: dict[str, object] = {"board": "int64", "score_ns": "Int64", "adjusted": "string",
                                            "results": "int64", "points_ns": "float64", "points_ew": "float64",
                                            "pct_ns": "float64", "pct_ew": "float64"}
#: A Swiss draw (teams.swiss): one row per table, then the bye (``table`` and ``away`` NA); ``home`` is the
#: better placed (pairs: North-South), ``rematch`` the times the two met before, ``note`` float/rematch/bye.
SWISS_DRAW_COLUMNS: dict[str, object] = {"round": "Int64", "table": "Int64", "home": "string", "away": "string",
                                         "home_total": "float64", "away_total": "float64", "rematch": "int64",
                                         "note": "string"}
#: Swiss pairs (teams.swiss_pairs): one row per pair and round; ``opponent`` NA for a bye or an absence,
#: ``imps`` the pair's net IMPs, ``status`` played / bye / absent.
SWISS_PAIRS_MATCH_COLUMNS: dict[str, object] = {"round": "Int64", "pair": "string", "opponent": "string",
                                                "boards": "int64", "imps": "float64", "imps_for": "float64",
                                                "imps_against": "float64", "vp": "float64", "status": "string"}
#: Swiss pairs standings, best first: ``total`` the VPs (byes included), ``imps`` the net IMPs (the tie-break).
SWISS_PAIRS_STANDINGS_COLUMNS: dict[str, object] = {"rank": "string", "pair": "string", "names": "string",
                                                    "matches": "int64", "byes": "int64", "boards": "int64",
                                                    "total": "float64", "imps": "float64", "imps_for": "float64",
                                                    "imps_against": "float64"}
#: A season ladder from the archive (archive.ladder): one row per pair or player, ranked by ``pct``,
#: the average of its ``counted`` best session percentages of ``sessions`` played; ``rank`` is
#: empty for those with fewer sessions than the minimum (listed after the ranked ones).
LADDER_COLUMNS: dict[str, object] = {"rank": "string", "names": "string", "ids": "string", "sessions": "int64",
                                     "counted": "int64", "pct": "float64", "best": "float64"}
#: A player on the club's site (archive.club_site): one row per player and archived pairs evening, the
#: player's ``key`` (as archive history knows players) and ``name``, the partner(s), the evening's rank,
#: percentage (NaN by IMPs) and masterpoints awarded (NaN when none).
CLUB_PLAYER_COLUMNS: dict[str, object] = {"key": "string", "name": "string", "date": "string", "event": "string",
                                          "session_id": "string", "partner": "string", "rank": "string",
                                          "pct": "float64", "total": "float64", "masterpoints": "float64"}
#: A season's profile against double dummy (archive.profile): one row per player (``key`` as archive history
#: knows players: ``id:...`` or ``name:...``). ``declared`` results as
#: declarer, ``declarer_gain`` their mean tricks above double dummy with its 95 % interval (``_low``,
#: ``_high``) and ``field_gain`` how many tricks more than the same boards' other declarers in that strain
#: and seat (over the contracts where there were others); ``suit_leads``
#: and ``nt_leads`` the opening leads against suit and notrump contracts, ``*_lead_cost`` their mean cost
#: in double-dummy tricks against the best lead, with its interval, beside the club's (``club_*``);
#: ``defended`` the results defended whose play is known (schema.PLAY), ``defence_cost`` the mean tricks the
#: defence gave away after the lead against double dummy, with its interval, beside the club's;
#: ``boards_bid`` every result of the player's partnerships, ``par_imps`` the contract's distance from par
#: from their side (double dummy, in IMPs) with its interval, and how often they ``underbid`` or
#: ``overbid`` as the declaring side, or missed a double as the defenders (``missed_double``). A
#: figure is NaN below the sample that says anything (analysis.profile.MIN_SAMPLE).
PROFILE_COLUMNS: dict[str, object] = {
    "key": "string", "name": "string", "id": "string", "sessions": "int64",
    "declared": "int64", "declarer_gain": "float64", "declarer_low": "float64", "declarer_high": "float64",
    "field_gain": "float64",
    "suit_leads": "int64", "suit_lead_cost": "float64", "suit_lead_low": "float64", "suit_lead_high": "float64",
    "club_suit_lead_cost": "float64",
    "nt_leads": "int64", "nt_lead_cost": "float64", "nt_lead_low": "float64", "nt_lead_high": "float64",
    "club_nt_lead_cost": "float64",
    "defended": "int64", "defence_cost": "float64", "defence_low": "float64", "defence_high": "float64",
    "club_defence_cost": "float64",
    "boards_bid": "int64", "par_imps": "float64", "par_low": "float64", "par_high": "float64",
    "underbid": "int64", "overbid": "int64", "missed_double": "int64",
}
#: The open rating (archive.ratings): one row per player, best first; ``handicap`` is minus half the rating
#: (a pair's handicap, the sum of its players', is then minus its strength); ``last`` the last change explained.
RATINGS_COLUMNS: dict[str, object] = {"rank": "string", "name": "string", "id": "string", "rating": "float64",
                                      "sessions": "int64", "handicap": "float64", "last": "string"}
#: Every change of a rating, oldest first, explained in one line.
RATING_CHANGE_COLUMNS: dict[str, object] = {"session_id": "string", "date": "string", "name": "string",
                                            "before": "float64", "after": "float64", "why": "string"}
#: Optional in a ladder: each entry's season total of masterpoints (when the sessions awarded any).
LADDER_MASTERPOINTS: dict[str, object] = {"masterpoints": "float64"}
#: Optional in a results frame: ``switched`` True on an arrow-switched result (the EW-numbered pair sat
#: NS; core.pairs): ``ns``/``ew`` and the scores stay by seat, the pairs are credited by their numbers.
SWITCHED_COLUMNS: dict[str, object] = {"switched": "boolean"}
#: The archive rescored under other conventions (archive.rescore): each session's new standings rows
#: (``group`` ... ``pct`` as STANDINGS_COLUMNS) with the archived ``was_*`` of the same pair and group.
RESCORE_COLUMNS: dict[str, object] = {"session_id": "string", "event": "string", "date": "string",
                                      "version": "int64", "group": "string", "rank": "string", "pair": "string",
                                      "names": "string", "boards": "int64", "total": "float64", "pct": "float64",
                                      "was_rank": "string", "was_total": "float64", "was_pct": "float64"}
#: A teams session's diff (archive.teams_diff): table results changed, added or removed (``before``/``after``
#: as text), boards and matches whose IMPs/VPs moved, teams whose rank, total or VPs moved (NaN: not there).
TEAMS_DIFF_RESULT_COLUMNS: dict[str, object] = {"round": "Int64", "match": "string", "room": "string",
                                                "board": "int64", "change": "string", "before": "string",
                                                "after": "string"}
TEAMS_DIFF_BOARD_COLUMNS: dict[str, object] = {"round": "Int64", "match": "string", "board": "int64",
                                               "home": "string", "away": "string", **{
                                                   f"imps_{side}_{when}": "float64" for when in ("before", "after")
                                                   for side in ("home", "away")},
                                               "status_before": "string", "status_after": "string"}
TEAMS_DIFF_MATCH_COLUMNS: dict[str, object] = {"round": "Int64", "match": "string", "home": "string",
                                               "away": "string", **{f"{what}_{side}_{when}": "float64"
                                                                    for what in ("imps", "vp")
                                                                    for when in ("before", "after")
                                                                    for side in ("home", "away")}}
TEAMS_DIFF_STANDING_COLUMNS: dict[str, object] = {"team": "string", "rank_before": "string", "rank_after": "string",
                                                  "total_before": "float64", "total_after": "float64",
                                                  "vp_before": "float64", "vp_after": "float64"}


#: A movement's seating (``movements``): one row per section, round and table, the pairs in the NS and EW
#: seats (pair numbers as the movement numbers them: a Mitchell's NS and EW pairs apart), the board set
#: played there, and ``switched`` when the EW pair sits NS that round (an arrow switch: ``ns`` then holds
#: the EW pair's number).
SEATING_COLUMNS = {"section": "string", "round": "int64", "table": "int64", "ns": "int64", "ew": "int64",
                   "board_set": "int64", "switched": "bool"}
#: An individual movement's seats: the player at each seat of each table and round.
INDIVIDUAL_SEATING_COLUMNS = {"section": "string", "round": "int64", "table": "int64", "north": "int64",
                              "south": "int64", "east": "int64", "west": "int64"}
