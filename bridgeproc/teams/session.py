"""A teams event computed: read, check and score the rooms, IMPs, VPs, standings
(``bridgeproc.pipeline.teams.process_teams`` adds the outputs: what ``bridgeproc teams`` runs)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from bridgeproc.errors import BridgeprocError, ValidationError
from bridgeproc.io.pbn.model import PbnFile
from bridgeproc.io.pbn.reader import pbn_program, read_pbn
from bridgeproc.schema import TEAM_RESULTS_COLUMNS, problems_frame
from bridgeproc.scoring.results import score_results
from bridgeproc.teams.bam import add_bam
from bridgeproc.teams.load import (
    assign_matches,
    from_pbn_results,
    from_usebio,
    pbn_places,
    published_matches,
    read_team_travellers,
    read_team_usebio,
    room_games,
    unplayed_rooms,
    usebio_board_imps,
    usebio_cross_imps,
    usebio_members,
    usebio_names,
    usebio_pair_imps,
    usebio_places,
    usebio_published,
)
from bridgeproc.teams.matches import board_imps, result_imps
from bridgeproc.teams.options import TeamsOptions
from bridgeproc.teams.pairwise import pair_cross_imps, pair_imps
from bridgeproc.teams.reproduce import (
    BAM_WINS,
    bam_from_scores,
    file_scoring,
    points_agreement,
    producer_options,
    reproducing_length,
    reproducing_scale,
    standings_agreement,
)
from bridgeproc.teams.standings import standings, tie_break_chain
from bridgeproc.validate.given import check_given
from bridgeproc.validate.records import fill_from_records
from bridgeproc.validate.results import check_scored, type_results

#: Raw columns kept on the scored results for the reports (published figures, pair ids); ``game``
#: is the PBN room game a row was read from (every tag, for the teams PBN export), None otherwise.
_KEEP = ("scoreimp", "table", "ns_team", "ew_team", "game")
#: check_given's reason for not solving names the pairs command's --no-dd; a teams run never solves.
_NOT_SOLVED = ("(double dummy is not solved: --no-dd)", "(a teams run does not solve double dummy)")


#: USEBIO ``PAIRWISE_SCORING_METHOD`` values that give each pair cross-IMPs inside the teams event.
PAIRWISE_CROSS_IMPS = ("CROSS_IMPS", "CROSS_IMP", "CROSSIMPS")


@dataclass(frozen=True)
class TeamsScore:
    """A teams event computed by :func:`score_teams`: the scored part of a ``model.TeamsSession``
    (``pipeline.teams`` adds what was read with it and makes the session). Fields as the session's."""

    results: pd.DataFrame
    boards: pd.DataFrame
    matches: pd.DataFrame
    standings: pd.DataFrame
    options: TeamsOptions
    meta: dict = field(default_factory=dict)
    published: pd.DataFrame = field(default_factory=pd.DataFrame)
    tie_breaks: tuple[str, ...] = ()
    names: dict = field(default_factory=dict)


def match_notices(matches: pd.DataFrame, boards: pd.DataFrame) -> list[str]:
    """Human-readable list of matches not played and boards scored by convention."""
    out = [f"{m}: not played; not counted" for m in matches.loc[matches["status"] == "not played", "match"]]
    odd = boards[boards["status"].isin(["one room", "adjusted"])] if len(boards) else boards
    for match, board, status in zip(odd.get("match", []), odd.get("board", []), odd.get("status", [])):
        what = "result in one room only: 0 IMPs" if status == "one room" else "artificial score: IMPs awarded"
        out.append(f"{match} board {board}: {what}")
    return out


def pair_totals(results: pd.DataFrame) -> pd.DataFrame:
    """Pair totals of the pairwise cross-IMPs (:func:`bridgeproc.teams.pairwise.pair_imps`); empty when the
    event has none (the file does not ask for them)."""
    return pair_imps(results if "ximp_ns" in results else results.iloc[:0].assign(
        ximp_ns=pd.Series(dtype="float64"), ximp_ew=pd.Series(dtype="float64")))


def score_rooms(raw: pd.DataFrame, boards: pd.DataFrame | None = None, **validate_options) -> pd.DataFrame:
    """Validate and score a raw team frame (``ns_team``/``ew_team`` set) as ``bridgeproc score`` does
    (:func:`checked_rooms` without the notes).
    """
    return checked_rooms(raw, boards, **validate_options)[0]


def checked_rooms(raw: pd.DataFrame, boards: pd.DataFrame | None = None,
                  **validate_options) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The scored rooms of a raw team frame (``ns_team``/``ew_team`` set) and the notes of their checks.

    Pair ids do not matter in teams, so each (round, NS team, EW team) table gets
    its own pair numbers for the checks (a board entered twice at one table is
    still caught); the round is used as the section so board numbers may repeat
    from round to round. The pairs as written are kept in ``ns_pair``/``ew_pair``.
    """
    raw = assign_matches(raw.reset_index(drop=True))
    table_key, _ = pd.factorize(raw["match"] + "\x00" + raw["room"])
    typed = type_results(
        raw.drop(columns=["game"], errors="ignore").assign(
            ns=pd.array((2 * table_key + 1).astype(str), dtype="string"),
            ew=pd.array((2 * table_key + 2).astype(str), dtype="string"),
            section=("R" + raw["round"].astype("string")).astype("string")),
        pair_numbering_option="shared", boards=boards, **validate_options,
    )
    validated = check_scored(typed, score_results(typed.results, typed.boards))
    checked = validated.results
    weighted = checked["adjusted"].fillna("").str.startswith("W:").to_numpy()
    if weighted.any():
        raise ValidationError(problems_frame([
            {"source": s, "line": str(n), "column": "contract", "value": v,
             "message": "a weighted score is not scored in team matches; give the board an artificial score "
                        "(A+/A-, 60/40) or one result"}
            for s, n, v in zip(checked["source"][weighted], checked["line"][weighted], checked["adjusted"][weighted])]))
    extra = {c: raw[c] for c in (*TEAM_RESULTS_COLUMNS, *_KEEP) if c in raw}
    extra["ns_pair"] = raw["ns"] if "ns" in raw else pd.array([pd.NA] * len(raw), dtype="string")
    extra["ew_pair"] = raw["ew"] if "ew" in raw else pd.array([pd.NA] * len(raw), dtype="string")
    return checked.assign(section=pd.array([""] * len(checked), dtype="string"), **extra), validated.notes


def team_names(totals: pd.DataFrame) -> dict[str, str]:
    """Team id -> ``TeamName`` (and ``Roster``) from a PBN TotalScoreTable, when it has them."""
    if not len(totals) or "teamid" not in totals or "teamname" not in totals:
        return {}
    roster = totals["roster"].fillna("") if "roster" in totals else pd.Series("", index=totals.index)
    text = totals["teamname"].fillna("") + (": " + roster).where(roster != "", "")
    return dict(zip(totals["teamid"].astype(str), text))


def pbn_rooms(pbn: PbnFile, unplayed: pd.DataFrame | None = None) -> tuple[pd.DataFrame, list[dict[str, str]]]:
    """The raw team frame of a PBN file: its results with the lead filled from each Play, the
    tables where a board was not played (:func:`unplayed_rooms`), and each row's source ``game``;
    and one note per kind of fill (``278 result(s): opening lead read from the Play``), at its line."""
    unplayed = unplayed_rooms(pbn) if unplayed is None else unplayed
    results, filled = fill_from_records(pbn.results, pbn) if len(pbn.results) else (pbn.results, [])
    if len(unplayed):
        results = pd.concat([results, unplayed], ignore_index=True) if len(results) else unplayed
    notes = [_note(pbn.source, line, message) for line, message in filled]
    return from_pbn_results(results.assign(game=room_games(pbn, results))), notes


def _note(source: str, line: object, message: str, column: str = "", value: str = "") -> dict[str, str]:
    """One note as a problem row (schema.PROBLEM_COLUMNS)."""
    return {"source": source, "line": "" if line is None else str(line), "column": column, "value": value,
            "message": message}


def _rows(frame: pd.DataFrame) -> list[dict[str, str]]:
    """A problems frame's rows as notes (text, empty where unknown)."""
    columns = [frame[c].tolist() for c in ("source", "line", "message", "column", "value")]
    return [_note(*(("" if pd.isna(v) else str(v)) for v in row)) for row in zip(*columns)]


class TeamsInputs(NamedTuple):
    """What :func:`read_teams` read: scored room frames, published match frames, meta, team names,
    the deal sets (one per PBN with deals), the notes of reading and checking them, and the
    published board IMPs (``round home away board imps``) and team rows (``team total place``)."""

    rooms: list
    published: list
    meta: dict
    names: dict
    deals: list
    notes: list
    board_imps: list = []
    places: list = []
    cross_imps: list = []
    pair_imps: list = []
    members: dict = {}


def read_teams(inputs: list, lineup: pd.DataFrame | None, encoding: str | None) -> TeamsInputs:
    """Scored room frames, published match frames, meta, team names, deal sets and notes from every
    input. A PBN's double-dummy tables and optimum scores are checked before they are shown
    (:func:`bridgeproc.analysis.par.check_given`; a teams run solves nothing): one that cannot be the
    deal's is left out, with a note."""
    meta: dict[str, str]
    rooms, published, meta, names, deals = [], [], {}, {}, []
    members: dict = {}
    board_published: list[pd.DataFrame] = []
    places: list[pd.DataFrame] = []
    crossed: list[pd.DataFrame] = []
    pair_totals: list[pd.DataFrame] = []
    notes: list[dict[str, str]] = []
    for path in inputs:
        suffix = Path(path).suffix.lower()
        if suffix == ".pbn":
            pbn = read_pbn(path, encoding)
            notes.extend(_note(pbn.source, line, message) for line, message in pbn.notes)
            for key, value in pbn.meta.items():
                meta.setdefault(key.lower(), value)
            program = pbn_program(pbn.escapes)
            if program:
                meta.setdefault("program", program)
            names.update(team_names(pbn.totals))
            pbn_totals = pbn_places(pbn.totals)
            if pbn_totals is not None:
                places.append(pbn_totals)
            unplayed = unplayed_rooms(pbn)
            if len(pbn.results) or len(unplayed):
                with_deals = pbn.boards if len(pbn.boards) and pbn.boards["deal"].notna().any() else None
                if with_deals is not None:
                    with_deals, dd_notes = check_given(with_deals, pbn.source, solve=False)
                    notes.extend(_rows(problems_frame([{**n, "message": n["message"].replace(*_NOT_SOLVED)}
                                                       for n in dd_notes])))
                raw, filled = pbn_rooms(pbn, unplayed)
                notes.extend(filled)
                scored, checked = checked_rooms(raw, with_deals)
                rooms.append(scored)
                notes.extend(_rows(checked))
                if with_deals is not None:
                    deals.append(with_deals)
            elif len(pbn.matches) and "matchdetails" in pbn.matches:
                published.append(published_matches(pbn.matches))
            else:
                raise BridgeprocError(f"{Path(path).name}: no team results (room games or a team ScoreTable)")
        elif suffix in (".csv", ".txt", ".tsv", ".xlsx", ".xlsm"):
            scored, checked = checked_rooms(read_team_travellers(path, lineup, encoding))
            rooms.append(scored)
            notes.extend(_rows(checked))
        elif suffix == ".xml":  # USEBIO: rooms with their boards, and the file's match scores to compare
            usebio = read_team_usebio(path)
            notes.extend(usebio.notes)
            for key, value in usebio.meta.items():
                meta.setdefault(key, value)
            names.update(usebio_names(usebio))
            members.update(usebio_members(usebio))
            with_deals = usebio.boards if len(usebio.boards) and usebio.boards["deal"].notna().any() else None
            scored, checked = checked_rooms(from_usebio(usebio), with_deals)
            rooms.append(scored)
            notes.extend(_rows(checked))
            published.append(usebio_published(usebio))
            board_published.append(usebio_board_imps(usebio))
            places.append(usebio_places(usebio))
            crossed.append(usebio_cross_imps(usebio))
            pair_totals.append(usebio_pair_imps(usebio))
            if with_deals is not None:
                deals.append(with_deals)
        else:
            raise BridgeprocError(f"{Path(path).name}: cannot read {suffix or 'files without an extension'} for teams; "
                                  "give .pbn, .csv, .xlsx or .xml (USEBIO)")
    return TeamsInputs(rooms, published, meta, names, deals, notes, board_published, places, crossed, pair_totals,
                       members)


def score_teams(rooms: list[pd.DataFrame], published: list[pd.DataFrame], options: TeamsOptions = TeamsOptions(),
                adjustments: pd.DataFrame | None = None, meta: dict | None = None,
                names: dict[str, str] | None = None, places: pd.DataFrame | None = None) -> TeamsScore:
    """IMPs, match totals and standings from scored room frames and/or published match totals.

    The scale is the one the published VPs show unless the director gave one
    (:func:`bridgeproc.teams.reproduce.reproducing_scale`); with published ``places`` (``team total
    place``) and no tie-breaks given, ties are left shared when the file shares them (``7=``)."""
    if not rooms and not published:
        raise BridgeprocError("no team results in the inputs")
    pub = pd.concat(published, ignore_index=True) if published else pd.DataFrame()
    if rooms:
        results = pd.concat(rooms, ignore_index=True)
        boards = board_imps(results, options)
        results = result_imps(results, boards)
        if (meta or {}).get("pairwise_scoring_method") in PAIRWISE_CROSS_IMPS:
            results = pair_cross_imps(results)
        options = file_scoring(producer_options(options, (meta or {}).get("program")), meta or {})
        options, matches, (vps_agree, vps) = reproducing_scale(boards, pub, options, adjustments)
        if vps_agree < vps:  # scores that are not VPs on any known scale: board-a-match points?
            options = bam_from_scores(options, matches, pub, meta or {})
        if options.scoring == "bam" and "bam_win" not in options.given and len(pub):
            trials = {win: add_bam(matches, boards, options.bam_tie, win) for win in BAM_WINS}
            win = max(BAM_WINS, key=lambda w: points_agreement(trials[w], pub, "bam_home", "bam_away")[0])
            if win != options.bam_win:
                options = options.replace(bam_win=win, found=(*options.found, "bam_win"))
        matches = add_bam(matches, boards, options.bam_tie, options.bam_win)
    else:
        results = pd.DataFrame()
        boards = pd.DataFrame()
        options, matches, _, _ = reproducing_length(pub, options, adjustments)
    if options.scoring == "bam" and "bam_home" not in matches:
        raise BridgeprocError("board-a-match needs board results, not match totals")
    table = standings(matches, options, adjustments, names)
    if places is not None and len(places) and "tie_breaks" not in options.given:
        other = options.replace(tie_breaks=() if options.tie_breaks is None else None,
                                found=(*options.found, "tie_breaks"))
        trial = standings(matches, other, adjustments, names)
        if _places_agree(trial, places) > _places_agree(table, places):
            options, table = other, trial
    return TeamsScore(results=results, boards=boards, matches=matches, standings=table, options=options,
                      meta=meta or {}, published=pub, tie_breaks=tie_break_chain(matches, options), names=names or {})


def _places_agree(table: pd.DataFrame, places: pd.DataFrame) -> int:
    return sum(agree for kind, agree, _ in standings_agreement(table, places) if kind == "places")


def compare_published(published: pd.DataFrame, matches: pd.DataFrame) -> pd.DataFrame:
    """Published VPs (Ruter match tables) next to ours (a session's ``published`` and ``matches``):
    ``round home away vp_home vp_away published_home published_away``."""
    if not len(published):
        return pd.DataFrame()
    pub = published[published["played"]]
    ours = matches.set_index(["round", "home", "away"])
    at = pd.MultiIndex.from_frame(pub[["round", "home", "away"]])
    return pd.DataFrame({
        "round": pub["round"].to_numpy(), "home": pub["home"].to_numpy(), "away": pub["away"].to_numpy(),
        "vp_home": ours["vp_home"].reindex(at).to_numpy(), "vp_away": ours["vp_away"].reindex(at).to_numpy(),
        "published_home": pub["vp_home"].to_numpy(), "published_away": pub["vp_away"].to_numpy(),
        "match_equal": np.isclose(ours["vp_home"].reindex(at).to_numpy(), pub["vp_home"].to_numpy()),
    })
