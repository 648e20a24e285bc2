"""``bridgeproc teams`` as one call: read and score a teams event, then write every output."""
from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace as replace_field

import pandas as pd

from bridgeproc.errors import BridgeprocError
from bridgeproc.model import TeamsSession
from bridgeproc.pipeline.outputs import output_types
from bridgeproc.pipeline.publish import archive_file, check_outputs, completing, publish
from bridgeproc.rank.conventions import producer
from bridgeproc.rank.masterpoints import with_team_masterpoints
from bridgeproc.teams.load import read_adjustments, read_lineup
from bridgeproc.teams.options import TeamsOptions
from bridgeproc.teams.reproduce import (
    board_agreement,
    line_agreement,
    pair_agreement,
    points_agreement,
    score_imp_agreement,
    standings_agreement,
    summary,
    teams_producer,
)
from bridgeproc.teams.session import TeamsInputs, read_teams, score_teams
from bridgeproc.teams.vp_scales import KNOWN_SCALES, scale_covers, vp_agreement


def process_teams(inputs: list, outputs: Sequence = (), options: TeamsOptions = TeamsOptions(), *,
                  lineup: str | os.PathLike | None = None, adjustments: pd.DataFrame | str | os.PathLike | None = None,
                  encoding: str | None = None, archive: bool = False, archive_url: str | os.PathLike | None = None,
                  archive_as: dict | None = None, replace: bool = False) -> TeamsSession:
    """Score a teams event from ``inputs`` and write every output by its extension.

    Parameters
    ----------
    inputs : list of paths
        PBN files (room games with HomeTeam/VisitTeam, team ScoreTables with
        TeamId_Home/TeamId_Away, or Ruter match totals) and team traveller CSVs.
    outputs : list of paths
        ``.xlsx`` (standings, VP table, match cards, travellers, hand records, the notes
        of reading, conventions in words), ``.csv`` (one row
        per table result with ``imp_ns``), ``.pbn`` (room games with ScoreIMP, match
        and total tables).
    options : TeamsOptions
        Conventions (VP scale, match length, A+ IMPs, unplayed matches, tie-breaks).
    lineup : path, optional
        Line-up CSV (team, pair[, round]) for travellers that give pair numbers only.
    adjustments : DataFrame or path, optional
        Carry-over and penalties (see :func:`bridgeproc.teams.matches.match_totals`);
        a path is read with :func:`bridgeproc.teams.load.read_adjustments`.

    archive, archive_url, archive_as, replace
        Store the event in the archive (``archive_url``, else the default) as ``score`` does a session:
        inside the all-or-nothing write, incomplete until every output is in place, then completed;
        ``archive_as`` its event, date, session id and comment; ``replace`` accepts a version that loses
        what the one before it had.

    Raises
    ------
    BridgeprocError
        Bad input (ParseError/ValidationError list every problem); nothing is written.
    """
    outputs = list(outputs)
    reads = [*inputs, *(p for p in (lineup, adjustments) if isinstance(p, (str, os.PathLike)))]
    check_outputs(outputs, output_types(TeamsSession), [*reads, archive_file(archive_url) if archive else None])
    session, _ = _scored(inputs, options, lineup, adjustments, encoding)
    stored: list = []

    def store() -> list[dict] | None:
        if not archive:
            return None
        from bridgeproc.archive.teams import archive_teams  # start-up: SQLAlchemy only for a run that archives

        stored.append(archive_teams(session, archive_url, replace=replace, complete=not outputs,
                                    **(archive_as or {})))
        return completing(archive_url, stored)

    def complete() -> None:
        if stored and not stored[0].complete:
            from bridgeproc.archive import complete_version

            stored[0] = complete_version(archive_url, stored[0])

    publish(session, outputs, store, complete)
    return replace_field(session, archived=stored[0]) if stored else session


def _scored(inputs: list, options: TeamsOptions, lineup=None, adjustments=None,
            encoding: str | None = None) -> tuple[TeamsSession, TeamsInputs]:
    """The event read and scored (no output written), with what was read."""
    if adjustments is not None and not isinstance(adjustments, pd.DataFrame):
        adjustments = read_adjustments(adjustments)
    read = read_teams(list(inputs), read_lineup(lineup) if lineup else None, encoding)
    places = pd.concat(read.places, ignore_index=True) if read.places else None
    score = score_teams(read.rooms, read.published, options, adjustments, read.meta, read.names, places)
    table, awarded, agreement = with_team_masterpoints(score.standings, options.masterpoints, score.meta, places)
    notes = tuple(read.notes) + ((_note(awarded),) if awarded else ())
    session = TeamsSession.of(replace_field(score, standings=table), deals=read.deals[0] if len(read.deals) == 1
                              else None, notes=notes, members=read.members)
    origin = teams_origin(session, read)
    if origin and agreement is not None:
        origin += f", masterpoint awards {agreement[0]}/{agreement[1]}"
    return replace_field(session, origin=origin), read


def _note(message: str) -> dict[str, str]:
    """A note of the run's own (no file or line), as the teams notes are kept."""
    return {"source": "bridgeproc", "line": "", "column": "", "value": "", "message": message}


def teams_conventions(inputs: list, encoding: str | None = None) -> list[str]:
    """``bridgeproc conventions`` on a teams event: what ``bridgeproc teams`` reproduces with no options,
    the options that give it, and each known VP scale's agreement with the published VPs.

    Raises BridgeprocError when the inputs publish nothing to compare with."""
    session, read = _scored(inputs, TeamsOptions(), encoding=encoding)
    kinds = published_kinds(session, read)
    if not kinds:
        raise BridgeprocError("the teams inputs publish no board IMPs, VPs, totals or places to reproduce")
    opts, default = session.options, TeamsOptions()
    flags = [flag for differs, flag in (
        (opts.scoring != default.scoring, f"--scoring {opts.scoring}"),
        (opts.scale != default.scale, f"--vp-scale {opts.scale.name}"),
        (opts.boards_per_match != default.boards_per_match, f"--boards-per-match {opts.boards_per_match}"),
        (opts.tie_breaks != default.tie_breaks, f"--tie-breaks {','.join(opts.tie_breaks or ()) or 'none'}"),
        (opts.scoring == "bam" and opts.bam_win != default.bam_win, f"--bam-points {opts.bam_win:g}")) if differs]
    maker = teams_producer(session.meta.get("program"))
    exact = all(a == c for _, a, c in kinds)
    whose = f"{maker.name}'s conventions" if maker else "bridgeproc's defaults"
    lines = [f"{'Reproduced' if exact else 'Not reproduced exactly; closest'}: {summary(kinds)}",
             f"  with: no options (what teams does on this file: {whose}"
             + (f", the same as {' '.join(flags)})" if flags else ")")]
    if len(session.published) and session.published["vp_home"].notna().any():
        tried = []
        for name, scale in KNOWN_SCALES.items():
            lengths = session.matches["boards"].to_numpy()
            if not scale_covers(scale, lengths[lengths > 0]):
                tried.append(f"{name} (no table for these match lengths)")
                continue
            trial, _ = _scored(inputs, TeamsOptions(scale=scale, given=("scale",)), encoding=encoding)
            agree, compared = vp_agreement(trial.matches, trial.published)
            tried.append(f"{name} VPs {agree}/{compared}")
        lines.append("  VP scales tried: " + ", ".join(tried))
    if not exact:
        missed = [f"{c - a} {kind}" for kind, a, c in kinds if a < c]
        lines.append("  differs in: " + ", ".join(missed))
    return lines


def teams_origin(session: TeamsSession, read: TeamsInputs) -> str:
    """One line: whose conventions ranked the event and how much of the published numbers they
    reproduce (``Conventions: TeamsScorer's (EBU 20-VP (whole VPs) scale (ebu20), found from the file's VPs),
    reproducing board IMPs 120/120, VPs 80/80, totals 10/10, places 10/10``); empty when nothing is
    published."""
    kinds = published_kinds(session, read)
    if not kinds:
        return ""
    program = str(session.meta.get("program") or "").strip()
    maker = producer(program)
    whose = f"{maker.name}'s" if maker else f"{program}'s" if program else "bridgeproc's defaults"
    opts = session.options
    how = ", as given" if opts.scale_given else ", found from the file's VPs" if "scale" in opts.found else ""
    length = f"; {opts.boards_per_match}-board matches, found from the file's VPs" \
        if "boards_per_match" in opts.found else ""
    ties = ("; ties shared" if opts.tie_breaks == () else "; ties broken") + \
        (", as published" if "tie_breaks" in opts.found else "") if read.places else ""
    if opts.scoring == "bam":
        said = ", as the file's MATCH_SCORING_METHOD says" if "scoring" in opts.found else ""
        win = f"{opts.bam_win:g} / {opts.bam_win / 2:g} / 0"
        found = ", found from the file's match scores" if "bam_win" in opts.found else ""
        head = f"Conventions: {whose} (board-a-match {win} per board{found}{said}{ties})"
    else:
        head = f"Conventions: {whose} ({opts.scale.title()}{how}{length}{ties})"
    done = "reproducing" if all(a == c for _, a, c in kinds) else "the closest found, reproducing"
    return f"{head}, {done} {summary(kinds)}"


def published_kinds(session: TeamsSession, read: TeamsInputs) -> list[tuple[str, int, int]]:
    """(kind, agree, compared) for each kind of number the inputs publish: board IMPs, VPs, totals,
    places, pairwise cross-IMPs, pair IMPs (kinds with nothing published are left out)."""
    kinds: list[tuple[str, int, int]] = []
    if "scoreimp" in session.results and session.results["scoreimp"].notna().any():
        kinds.append(("board IMPs", *score_imp_agreement(session.results, session.boards)))
    if read.board_imps and len(session.boards):
        kinds.append(("board IMPs", *board_agreement(session.boards, pd.concat(read.board_imps, ignore_index=True))))
    if len(session.published):
        if session.options.scoring == "vp":
            kinds.append(("VPs", *vp_agreement(session.matches, session.published)))
        if session.options.scoring == "bam" and "bam_home" in session.matches:
            kinds.append(("board-a-match points", *points_agreement(session.matches, session.published, "bam_home",
                                                                    "bam_away")))
    if read.places:
        kinds.extend(standings_agreement(session.standings, pd.concat(read.places, ignore_index=True)))
    if read.cross_imps and "ximp_ns" in session.results:
        kinds.append(("cross-IMPs", *line_agreement(session.results, pd.concat(read.cross_imps, ignore_index=True))))
    if read.pair_imps:
        kinds.append(("pair IMPs", *pair_agreement(session.pairs, pd.concat(read.pair_imps, ignore_index=True))))
    return [k for k in kinds if k[2]]
