"""``bridgeproc swiss`` as one call: a Swiss event (pairs or teams) scored so far, or its next round drawn."""
from __future__ import annotations

import os
from collections.abc import Sequence

import pandas as pd

from bridgeproc.errors import format_problems
from bridgeproc.model import Options, ReadOptions, SwissRun
from bridgeproc.pipeline.inputs import read_inputs
from bridgeproc.pipeline.outputs import output_types
from bridgeproc.pipeline.publish import check_outputs, publish
from bridgeproc.pipeline.run import validate_inputs
from bridgeproc.schema import problems_frame
from bridgeproc.teams.load import read_lineup
from bridgeproc.teams.options import TeamsOptions
from bridgeproc.teams.session import match_notices, read_teams, score_teams
from bridgeproc.teams.standings import standings
from bridgeproc.teams.swiss import swiss_pairings
from bridgeproc.teams.swiss_pairs import SwissPairsEvent, SwissPairsOptions, score_swiss_pairs


def score_pairs(inputs: list, options: SwissPairsOptions = SwissPairsOptions(),
                encoding: str | None = None) -> tuple[SwissPairsEvent, list[str]]:
    """Read and check pair travellers as ``bridgeproc score`` does, then score them as Swiss pairs."""
    read = read_inputs(list(inputs), Options(read=ReadOptions(encoding=encoding)))
    raw, _, names = read.frames()
    checked = validate_inputs(read, Options(read=ReadOptions(encoding=encoding)), "auto", strict_rules=False)
    results = checked.results
    if "round" in raw:
        cells = raw[["source", "line", "round"]].drop_duplicates(subset=["source", "line"])
        results = results.merge(cells, on=["source", "line"], how="left")
    ids = {}
    if len(names):
        section = names["section"].astype("string").fillna("") if "section" in names else ""
        ids = dict(zip(section + names["pair"].astype("string"), names["names"].astype("string")))
    event = score_swiss_pairs(results, options, ids)
    notes = [line for n in (read.reading_notes(), checked.notes) if n is not None and len(n)
             for line in format_problems(n)]
    return event, [*notes, *event.notes]


def score_teams_swiss(inputs: list, options: TeamsOptions = TeamsOptions(format="swiss"), bye_vp: float = 12.0,
                      lineup: str | os.PathLike | None = None,
                      encoding: str | None = None) -> tuple[pd.DataFrame, pd.DataFrame, set[str], int, list[str]]:
    """A Swiss teams event so far: (standings with byes, matches played, teams that had a bye, rounds, notes).

    A team missing from a round of an odd field had the bye and gets ``bye_vp`` (the standings'
    ``byes`` column; the VPs are in ``total`` and ``vp``, not in ``penalty_vp``).
    """
    read = read_teams(list(inputs), read_lineup(lineup) if lineup else None, encoding)
    session = score_teams(read.rooms, read.published, options, None, read.meta, read.names)
    matches = session.matches
    teams = list(session.standings["team"])
    played = matches[matches["status"] == "played"]
    rounds = sorted(int(r) for r in matches["round"].dropna().unique())
    byes: dict[str, int] = {}
    notes = [*(format_problems(problems_frame(read.notes)) if read.notes else []), *match_notices(session.matches, session.boards)]
    for rnd in rounds:
        at = matches[matches["round"] == rnd]
        out = sorted(set(teams) - set(at["home"]) - set(at["away"]))
        if len(out) == 1 and len(teams) % 2:
            byes[out[0]] = byes.get(out[0], 0) + 1
            notes.append(f"round {rnd}: {out[0]} had the bye ({bye_vp:g} VP)")
        else:
            notes += [f"round {rnd}: {team} did not play (0 VP)" for team in out]
    bonus = pd.DataFrame({"team": list(byes), "vp": [-bye_vp * n for n in byes.values()],
                          "round": pd.array([pd.NA] * len(byes), dtype="Int64")})
    table = standings(matches, options, bonus if len(bonus) else None, session.names, teams=teams)
    count = table["team"].map(byes).fillna(0).astype("int64")
    table = table.assign(penalty_vp=table["penalty_vp"] + bye_vp * count, byes=count)
    if options.scoring == "vp":
        table = table.assign(vp=table["vp"] + bye_vp * count)
    return table, played[["home", "away"]], set(byes), rounds[-1] if rounds else 0, notes


def process_swiss(inputs: list, outputs: Sequence = (), *, teams: bool = False, next_round: bool = False,
                  pairs_options: SwissPairsOptions = SwissPairsOptions(),
                  teams_options: TeamsOptions = TeamsOptions(format="swiss"),
                  lineup: str | os.PathLike | None = None, encoding: str | None = None) -> SwissRun:
    """Score a Swiss event so far (pairs or teams) and, with ``next_round``, draw the next round;
    write the draw (or the standings) to every output (``.csv`` or ``.xlsx``).

    Raises
    ------
    BridgeprocError
        Bad input (ParseError/ValidationError list every problem); nothing is written.
    """
    check_outputs(outputs, output_types(SwissRun), [*inputs, *([lineup] if lineup else [])])
    if teams:
        table, meetings, byes, rounds, notes = score_teams_swiss(inputs, teams_options, pairs_options.bye_vp,
                                                                 lineup, encoding)
    else:
        event, notes = score_pairs(inputs, pairs_options, encoding)
        table, meetings, byes, rounds = event.standings, event.meetings, event.byes, event.rounds
    drawn = None
    if next_round:
        drawn = swiss_pairings(table, meetings, byes, rounds + 1)
        notes = [*notes, *(f"round {rounds + 1} table {t}: {n}" for t, n in zip(drawn["table"], drawn["note"])
                           if n.startswith("rematch"))]
        if not teams:
            drawn = drawn.rename(columns={"home": "ns", "away": "ew", "home_total": "ns_total",
                                          "away_total": "ew_total"})
    what = "teams" if teams else "pairs"
    title = (f"Swiss {what}: round {rounds + 1} draw" if next_round else f"Swiss {what}: standings after round {rounds}")
    run = SwissRun(standings=table, draw=drawn, rounds=rounds, notes=tuple(notes), title=title)
    publish(run, outputs)
    return run
