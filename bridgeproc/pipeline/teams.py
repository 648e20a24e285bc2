"""``bridgeproc teams`` as one call: read and score a teams event, then write every output."""
from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pandas as pd

from bridgeproc.model import TeamsSession
from bridgeproc.pipeline.write import check_outputs, output_type, write_all
from bridgeproc.report.teams_files import WRITERS
from bridgeproc.teams.load import read_adjustments, read_lineup
from bridgeproc.teams.options import TeamsOptions
from bridgeproc.teams.session import read_teams, score_teams, teams_origin


def process_teams(inputs: list, outputs: Sequence = (), options: TeamsOptions = TeamsOptions(), *,
                  lineup: str | os.PathLike | None = None, adjustments: pd.DataFrame | str | os.PathLike | None = None,
                  encoding: str | None = None) -> TeamsSession:
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

    Raises
    ------
    BridgeprocError
        Bad input (ParseError/ValidationError list every problem); nothing is written.
    """
    check_outputs(outputs, WRITERS, [*inputs, *(p for p in (lineup, adjustments) if isinstance(p, (str, os.PathLike)))])
    if adjustments is not None and not isinstance(adjustments, pd.DataFrame):
        adjustments = read_adjustments(adjustments)
    read = read_teams(list(inputs), read_lineup(lineup) if lineup else None, encoding)
    places = pd.concat(read.places, ignore_index=True) if read.places else None
    session = replace(score_teams(read.rooms, read.published, options, adjustments, read.meta, read.names, places),
                      deals=read.deals[0] if len(read.deals) == 1 else None, notes=tuple(read.notes))
    session = replace(session, origin=teams_origin(session, read))
    kinds = {Path(o): output_type(o) for o in outputs}  # as given: Path('results/') loses the folder's slash
    write_all(outputs, lambda out, tmp: WRITERS[kinds.get(out) or output_type(out)](session, tmp))
    return session
