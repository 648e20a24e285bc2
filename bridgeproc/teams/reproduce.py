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

from dataclasses import dataclass

import numpy as np
import pandas as pd

from bridgeproc.errors import BridgeprocError
from bridgeproc.teams.matches import match_totals, totals_from_imps
from bridgeproc.teams.options import TeamsOptions
from bridgeproc.teams.vp import WBF2013
from bridgeproc.teams.vp_scales import EBU20, KNOWN_SCALES, scale_covers, vp_agreement

__all__ = ["TEAMS_PRODUCERS", "TeamsProducer", "producer_options", "teams_producer", "KIND_COLUMNS", "BAM_WINS", "SCORING_METHODS", "bam_from_scores", "board_agreement", "file_scoring", "points_agreement", "line_agreement", "pair_agreement", "reproducing_length", "reproducing_scale",
           "standings_agreement", "summary"]

#: One row per kind of published number: what it is, how many were compared, how many agree.
KIND_COLUMNS = ("kind", "compared", "agree")
#: Published and computed figures equal when within half the last published decimal (0.01).
TOLERANCE = 0.005


def reproducing_scale(boards: pd.DataFrame, published: pd.DataFrame, options: TeamsOptions,
                      adjustments: pd.DataFrame | None = None) -> tuple[TeamsOptions, pd.DataFrame, tuple[int, int]]:
    """(options with the scale kept, match totals on it, (VPs agreeing, VPs compared)).

    The director's scale (``options.scale_given``) is kept as is; else the scale of ``options`` (the
    producer's, or the default) unless it reproduces fewer published VPs than another known scale that
    covers the event's match lengths (the one reproducing the most is kept, the first on a tie).
    """
    try:
        matches = match_totals(boards, options, adjustments)
    except BridgeprocError:
        if options.scale_given:
            raise
        options = options.replace(scale=WBF2013)  # a producer's scale without a table for these lengths
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


@dataclass(frozen=True)
class TeamsProducer:
    """A program that writes teams files: the spellings it names itself by (as
    :data:`bridgeproc.rank.conventions.PRODUCER_TABLE`), the teams conventions its files show, and the
    real file or report that shows them. A run on its file starts from these; the published numbers
    still decide (a scale or tie rule they do not bear out is searched past)."""

    name: str
    spellings: tuple[str, ...]
    changes: tuple[tuple[str, object], ...]
    shown_by: str


#: Every teams producer seen (first match wins), next to the readers of its files.
TEAMS_PRODUCERS: tuple[TeamsProducer, ...] = (
    TeamsProducer("TeamsScorer", ("teamsscorer",), (("scale", EBU20), ("tie_breaks", ())),
                  "eng-usebio-sample-2015-10-22-teams-vp-teamsscorer.usebio.xml (EBU 20-VP whole-VP scale, places "
                  "shared 7=, pairwise cross-IMPs per comparison)"),
    TeamsProducer("EBUScoreTeams", ("ebuscoreteams", "ebuscore teams"), (("bam_win", 2.0), ("tie_breaks", ())),
                  "issue 25: point-a-board 2 / 1 / 0 per board, totals twice 1 / ½ / 0 (files kept aside; "
                  "tests/teams/test_teams_bam_published.py)"),
    TeamsProducer("Ruter", ("ruter",), (),
                  "fin-salo-joukkue-2013-09-15-teams-vp.pbn, nor-ostfold-follo-2022-km-a-teams-vp.pbn (WBF 2013 "
                  "continuous scale; the match length only in the VPs)"),
    TeamsProducer("RealBridge", ("realbridge",), (), "ebl-2021-online-qual-open-r2-teams.pbn (ScoreIMP per room)"),
)


def teams_producer(program: str | None) -> TeamsProducer | None:
    """The teams producer a file names (``PROGRAM_NAME``, a Generator META), else None."""
    name = (program or "").strip().lower().replace(" ", "")
    return next((p for p in TEAMS_PRODUCERS if name and any(name.startswith(s.replace(" ", "")) for s in p.spellings)),
                None)


def producer_options(options: TeamsOptions, program: str | None) -> TeamsOptions:
    """``options`` with the teams producer's conventions where the director chose none."""
    maker = teams_producer(program)
    if maker is None:
        return options
    return options.replace(**{name: value for name, value in maker.changes if name not in options.given})


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


def score_imp_agreement(results: pd.DataFrame, boards: pd.DataFrame) -> tuple[int, int]:
    """(board IMPs agreeing, compared): each room game's published ``ScoreIMP`` (``NS 4 EW -4``: the NS
    team's IMPs on the board, PBN 2.1) against ``imp_ns``, for the rooms of boards played at both tables
    (a board with a result in one room scores 0 by bridgeproc's convention, whatever the file says)."""
    played = boards.loc[boards["status"] == "played", ["match", "board"]]
    both = pd.MultiIndex.from_frame(results[["match", "board"]]).isin(pd.MultiIndex.from_frame(played))
    results = results[both]
    published = results["scoreimp"].astype("string").str.extract(r"NS\s*(-?\d+(?:\.\d+)?)", expand=False)
    value = pd.to_numeric(published, errors="coerce").to_numpy(dtype=np.float64)
    ours = results["imp_ns"].to_numpy(dtype=np.float64, na_value=np.nan)
    compared = ~np.isnan(value) & ~np.isnan(ours)
    return int(np.sum(np.abs(ours[compared] - value[compared]) < TOLERANCE)), int(compared.sum())


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
