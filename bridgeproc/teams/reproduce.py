"""A teams file's published numbers reproduced: the VP scale they show, and how much agrees.

A teams export (TeamsScorer, EBUScoreTeams, Ruter) publishes board IMPs, match VPs, team totals
and places. They are the spec: when the director gave no ``--vp-scale``, the scale used is the
known one (:data:`bridgeproc.teams.vp_scales.KNOWN_SCALES`) that gives back the most published
VPs, the WBF scale first so a tie keeps the default; then every kind of published number is
compared with bridgeproc's, and one line says whose conventions ranked the event and how much
they reproduce (``Conventions: TeamsScorer's (EBU 20-VP (whole VPs) scale (ebu20), found from the
file's VPs; ...), reproducing board IMPs 120/120, VPs 80/80, totals 10/10, places 10/10``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.teams.matches import match_totals, totals_from_imps
from bridgeproc.teams.options import TeamsOptions
from bridgeproc.teams.vp_scales import KNOWN_SCALES, scale_covers, vp_agreement

__all__ = ["KIND_COLUMNS", "BAM_WINS", "SCORING_METHODS", "bam_from_scores", "board_agreement", "file_scoring", "points_agreement", "line_agreement", "pair_agreement", "reproducing_length", "reproducing_scale",
           "standings_agreement", "summary"]

#: One row per kind of published number: what it is, how many were compared, how many agree.
KIND_COLUMNS = ("kind", "compared", "agree")
#: Published and computed figures equal when within half the last published decimal (0.01).
TOLERANCE = 0.005


def reproducing_scale(boards: pd.DataFrame, published: pd.DataFrame, options: TeamsOptions,
                      adjustments: pd.DataFrame | None = None) -> tuple[TeamsOptions, pd.DataFrame, tuple[int, int]]:
    """(options with the scale kept, match totals on it, (VPs agreeing, VPs compared)).

    The director's scale (``options.scale_given``) is kept as is; else each known scale that
    covers the event's match lengths is tried on the board IMPs and the one reproducing the most
    published VPs is kept (the first, the WBF scale, on a tie).
    """
    matches = match_totals(boards, options, adjustments)
    best = (options, matches, vp_agreement(matches, published) if len(published) else (0, 0))
    if options.scale_given or options.scoring != "vp" or best[2][1] == 0 or best[2][0] == best[2][1]:
        return best
    lengths = np.full(len(matches), options.boards_per_match) if options.boards_per_match else \
        matches["boards"].to_numpy()
    for scale in KNOWN_SCALES.values():
        if scale == options.scale or not scale_covers(scale, lengths[lengths > 0]):
            continue
        trial = options.replace(scale=scale, found=(*options.found, "scale"))
        ours = match_totals(boards, trial, adjustments)
        agree = vp_agreement(ours, published)
        if agree[0] > best[2][0]:
            best = (trial, ours, agree)
    return best


#: Match lengths tried when a file of match totals does not say how long its matches were.
MATCH_LENGTHS = range(1, 65)


def reproducing_length(published: pd.DataFrame, options: TeamsOptions, adjustments: pd.DataFrame | None = None
                       ) -> tuple[TeamsOptions, pd.DataFrame, tuple[int, int], list[int]]:
    """(options with the match length kept, match totals, (VPs agreeing, compared), every length that
    reproduces as many) for a file of match totals without boards (Ruter's ``MatchDetails``).

    The published VPs fix the length: the scale's value at the published margins. Each length of
    MATCH_LENGTHS is tried on each known scale (the director's scale only, when given), and the
    shortest length reproducing the most published VPs is kept. Raises BridgeprocError (from
    :func:`~bridgeproc.teams.matches.totals_from_imps`) when nothing is published to fix it."""
    if options.boards_per_match or not len(published) or not published["vp_home"].notna().any():
        matches = totals_from_imps(published, options, adjustments)
        return options, matches, vp_agreement(matches, published), []
    scales = [options.scale] if options.scale_given else list(KNOWN_SCALES.values())
    best: tuple[TeamsOptions, pd.DataFrame, tuple[int, int]] | None = None
    equal: list[int] = []
    for scale in scales:
        for length in MATCH_LENGTHS:
            if not scale_covers(scale, np.array([length])):
                continue
            found = (*options.found, "boards_per_match", *(() if scale == options.scale else ("scale",)))
            trial = options.replace(scale=scale, boards_per_match=length, found=found)
            matches = totals_from_imps(published, trial, adjustments)
            agree = vp_agreement(matches, published)
            if best is None or agree[0] > best[2][0]:
                best, equal = (trial, matches, agree), [length]
            elif agree[0] == best[2][0] and scale == best[0].scale:
                equal.append(length)
    assert best is not None  # the WBF scale covers every length
    return (*best, equal)


#: USEBIO ``MATCH_SCORING_METHOD`` -> the scoring it names (anything else: the file's numbers decide).
SCORING_METHODS = {"VPS": "vp", "VP": "vp", "VICTORY_POINTS": "vp", "IMPS": "imps", "IMP": "imps",
                   "TOTAL_IMPS": "imps", "BAM": "bam", "BOARD_A_MATCH": "bam", "POINT_A_BOARD": "bam",
                   "POINTS_A_BOARD": "bam", "PAB": "bam", "BOARD_POINTS": "bam"}
#: Points for a board won tried in board-a-match: 1 / ½ / 0, then 2 / 1 / 0.
BAM_WINS = (1.0, 2.0)


def file_scoring(options: TeamsOptions, meta: dict) -> TeamsOptions:
    """``options`` with the scoring the file's ``MATCH_SCORING_METHOD`` names, unless the director chose one."""
    scoring = SCORING_METHODS.get(str(meta.get("match_scoring_method") or "").upper().replace(" ", "_").replace("-", "_"))
    if scoring is None or "scoring" in options.given or scoring == options.scoring:
        return options
    return options.replace(scoring=scoring, found=(*options.found, "scoring"))


def bam_from_scores(options: TeamsOptions, matches: pd.DataFrame, published: pd.DataFrame,
                    meta: dict) -> TeamsOptions:
    """``options`` with board-a-match scoring when the file does not name its method (``meta`` has no
    ``match_scoring_method``) and every published match score shares ``win`` points per board between the
    teams (2 / 1 / 0 and 1 / ½ / 0 alike), so it cannot be VPs; unchanged when the director chose a scoring."""
    if "scoring" in options.given or meta.get("match_scoring_method") or options.scoring != "vp" \
            or not len(published) or "points_home" not in published:
        return options
    pub = published[published["played"].to_numpy(dtype=bool)]
    boards = matches.drop_duplicates(subset=["round", "home", "away"]).set_index(["round", "home", "away"])["boards"]
    at = pd.MultiIndex.from_frame(pub[["round", "home", "away"]].astype({"round": "Int64"}))
    length = boards.reindex(at).to_numpy(dtype=np.float64)
    shared = pub["points_home"].to_numpy(dtype=np.float64) + pub["points_away"].to_numpy(dtype=np.float64)
    for win in BAM_WINS:
        if len(pub) and np.all(np.abs(shared - win * length) < TOLERANCE):
            return options.replace(scoring="bam", bam_win=win, found=(*options.found, "scoring", "bam_win"))
    return options


def points_agreement(matches: pd.DataFrame, published: pd.DataFrame, home: str, away: str) -> tuple[int, int]:
    """(published match scores equal to ours, compared): ``points_home``/``points_away`` of each played
    match against our columns ``home``/``away`` (board-a-match points, IMPs)."""
    if "points_home" not in published:
        return 0, 0
    pub = published[published["played"].to_numpy(dtype=bool) & published["points_home"].notna().to_numpy()]
    if not len(pub):
        return 0, 0
    keyed = matches.drop_duplicates(subset=["round", "home", "away"]).set_index(["round", "home", "away"])
    at = pd.MultiIndex.from_frame(pub[["round", "home", "away"]].astype({"round": "Int64"}))
    agree = 0
    for ours, theirs in ((home, "points_home"), (away, "points_away")):
        mine = keyed[ours].reindex(at).to_numpy(dtype=np.float64)
        agree += int(np.sum(np.abs(mine - pub[theirs].to_numpy(dtype=np.float64)) < TOLERANCE))
    return agree, 2 * len(pub)


def board_agreement(boards: pd.DataFrame, published: pd.DataFrame) -> tuple[int, int]:
    """(board IMPs agreeing, compared): the file's IMPs for the match's home team on each board
    (``round home away board imps``) against ``imps_home`` of :func:`bridgeproc.teams.matches.board_imps`."""
    pub = published.dropna(subset=["imps"])
    if not len(pub) or not len(boards):
        return 0, 0
    keyed = boards.drop_duplicates(subset=["round", "home", "away", "board"]).set_index(
        ["round", "home", "away", "board"])["imps_home"]
    at = pd.MultiIndex.from_arrays([pub["round"].astype("Int64"), pub["home"].astype("string"),
                                    pub["away"].astype("string"), pub["board"].astype("int64")])
    ours = keyed.reindex(at).to_numpy(dtype=np.float64)
    return int(np.sum(np.abs(ours - pub["imps"].to_numpy(dtype=np.float64)) < TOLERANCE)), len(pub)


def line_agreement(results: pd.DataFrame, published: pd.DataFrame) -> tuple[int, int]:
    """(pairwise cross-IMPs agreeing to 0.01, compared): each published line's NS and EW value
    (``source line ximp_ns ximp_ew``) against the results row read from that line."""
    if not len(published):
        return 0, 0
    keyed = results.drop_duplicates(subset=["source", "line"]).set_index(["source", "line"])
    at = pd.MultiIndex.from_arrays([published["source"].astype("string"), published["line"].astype("int64")])
    agree = 0
    for side in ("ns", "ew"):
        ours = np.round(keyed[f"ximp_{side}"].reindex(at).to_numpy(dtype=np.float64), 2)
        agree += int(np.sum(np.abs(ours - published[f"ximp_{side}"].to_numpy(dtype=np.float64)) < TOLERANCE))
    return agree, 2 * len(published)


def pair_agreement(pairs: pd.DataFrame, published: pd.DataFrame) -> tuple[int, int]:
    """(pair IMP totals agreeing to 0.01, compared): ``pair imps`` published against ours."""
    if not len(published):
        return 0, 0
    ours = pairs.drop_duplicates(subset=["pair"]).set_index("pair")["imps"].reindex(published["pair"].astype("string"))
    return int(np.sum(np.abs(ours.to_numpy(dtype=np.float64) - published["imps"].to_numpy(dtype=np.float64))
                      < TOLERANCE)), len(published)


def _place_key(text: pd.Series) -> pd.Series:
    """A place as its number and whether it is shared: ``7=`` and ``7 =`` alike, ``07`` as ``7``."""
    clean = text.astype("string").str.replace(r"\s", "", regex=True)
    number = pd.to_numeric(clean.str.rstrip("=").str.rstrip("."), errors="coerce")
    return number.astype("Float64").astype("string") + clean.str.endswith("=").map({True: "=", False: ""}).fillna("")


def standings_agreement(table: pd.DataFrame, teams: pd.DataFrame) -> list[tuple[str, int, int]]:
    """[("totals", agree, compared), ("places", agree, compared)] of the published team rows
    (``team total place``) against the standings (``team total rank``); kinds with nothing published
    are left out."""
    out: list[tuple[str, int, int]] = []
    ours = table.drop_duplicates(subset=["team"]).set_index("team")
    totals = teams.dropna(subset=["total"])
    if len(totals):
        mine = ours["total"].reindex(totals["team"].astype("string")).to_numpy(dtype=np.float64)
        theirs = pd.to_numeric(totals["total"], errors="coerce").to_numpy(dtype=np.float64)
        out.append(("totals", int(np.sum(np.abs(mine - theirs) < TOLERANCE)), len(totals)))
    places = teams.dropna(subset=["place"])
    if len(places):
        mine_place = _place_key(ours["rank"].reindex(places["team"].astype("string")))
        theirs_place = _place_key(places["place"])
        out.append(("places", int((mine_place.to_numpy() == theirs_place.to_numpy()).sum()), len(places)))
    return out


def summary(kinds: list[tuple[str, int, int]]) -> str:
    """``board IMPs 120/120, VPs 80/80``: each kind compared, in order."""
    return ", ".join(f"{kind} {agree}/{compared}" for kind, agree, compared in kinds if compared)
