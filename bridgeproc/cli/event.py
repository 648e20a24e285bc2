"""The ``event`` command: several sessions scored apart, then one event ranking (pipeline.event)."""
from __future__ import annotations

import click

from bridgeproc.cli.common import NORMAL, VERBOSE, VERBOSITY, Command, apply, library_errors, option, say, verbosity
from bridgeproc.cli.main import (
    ARCHIVE,
    CHECKS,
    INPUTS,
    OUTPUTS,
    check_encoding,
    checked_conventions,
    cli,
    iso_date,
    outputs_for,
    ranking_options,
    run_options,
    stage_log,
)
from bridgeproc.cli.progress import SolveProgress
from bridgeproc.errors import format_problems, summarize_problems
from bridgeproc.pipeline.outputs import output_types
from bridgeproc.rank.event_rules import EVENT_RULES, MATCH_BY, MISSING_RULES

EVENT = "Event"


def _choices(rules: dict[str, str]) -> str:
    return "; ".join(f"{name}: {meaning}" for name, meaning in rules.items())


def _event_options(command):
    """The session inputs, the event's rules, and the reading options every session shares."""
    inputs, checks, event = option(INPUTS), option(CHECKS), option(EVENT)
    decorators = [
        click.argument("sessions", nargs=-1, required=True),
        event("--rule", type=click.Choice(list(EVENT_RULES)), default="sum", show_default=True,
              help=f"How the sessions make the event total. {_choices(EVENT_RULES)}."),
        event("--carry-over", type=click.FloatRange(0, 1), default=0.5, show_default=True,
              help="--rule carry-over: the share of the qualifying sessions' score carried into the final "
                   "(the last session), e.g. 0.25."),
        event("--match", type=click.Choice(list(MATCH_BY)), default="number", show_default=True,
              help=f"How a pair of one session is found in another. {_choices(MATCH_BY)}."),
        event("--missing", type=click.Choice(list(MISSING_RULES)), default="drop", show_default=True,
              help=f"A pair that missed a session. {_choices(MISSING_RULES)}."),
        inputs("--names", "names", multiple=True, type=click.Path(exists=True, dir_okay=False),
               help="A names list (pair -> players, member ids) used for every session. Repeat for several; "
                    "a session's own list goes with its files (s2.pbn,names2.csv)."),
        inputs("--result-style", type=click.Choice(["auto", "tricks", "relative"]), default="auto",
               show_default=True, help="How a bare number in the result column is read: auto treats it as tricks."),
        checks("--trust", type=click.Choice(["contract", "score"]), default="contract", show_default=True,
               help="When a written score disagrees with contract and result: report it, or correct the tricks."),
        inputs("--encoding", default=None, callback=check_encoding, help="Text encoding of CSV/PBN inputs (default: detect)."),
        *checked_conventions(inputs),
        checks("--no-score-check", is_flag=True, help="Do not compare written scores with contract and result."),
        checks("--no-movement-check", is_flag=True, help="Do not check Bridgemate results against their movement."),
        checks("--tables", type=click.IntRange(min=1), default=None, help="Tables per section (default: inferred)."),
        *VERBOSITY,
    ]
    return apply(decorators, command)


@cli.command(cls=Command)
@_event_options
@ranking_options
@option(OUTPUTS)("-o", "--output", "outputs", multiple=True, required=True, type=click.Path(),
                 callback=outputs_for(output_types("Event")),
                 help="Output file: .csv (the event ranking with every session's score), .xlsx (the event "
                      "ranking and each session's), .pbn (the last session with the event's TotalScoreTable), "
                      ".xml (USEBIO 1.2: every session in its SESSION, the event's standings), .html (the event "
                      "ranking, the rule and each session's ranking on one page), or a folder ending in / (the "
                      "event's website with each session's results site). Repeat for several.")
@option(OUTPUTS)("--no-dd", is_flag=True, help="Skip the double-dummy analysis of the hand records.")
@option(OUTPUTS)("--event", default=None, help="Event name for titles [default: the sessions' Event, less "
                                               "its session number].")
@option(OUTPUTS)("--date", default=None, callback=lambda ctx, param, value: iso_date(value),
                 help="Date for titles, YYYY-MM-DD [default: the last session's].")
@option(ARCHIVE)("--no-archive", is_flag=True, help="Do not store the sessions and the event in the archive.")
@option(ARCHIVE)("--archive", "archive_url", envvar="BRIDGEPROC_ARCHIVE", default=None,
                 help="The archive: archive:ID sessions are read from it, and each session scored from files "
                      "and then the event (its sessions in order, under its name) are stored in it "
                      "[default: $BRIDGEPROC_ARCHIVE, else ~/.local/share/bridgeproc/archive.sqlite].")
@option(ARCHIVE)("--replace", is_flag=True,
                 help="Archive a session even if it has fewer results, deals or names than its version before.")
def event(sessions, outputs, rule, carry_over, match, missing, event, date, no_archive, archive_url, replace,
          **params) -> None:
    """Score each SESSION on its own, then rank the event over all of them.

    A SESSION is a file, several files joined by commas (hands.pbn,travellers.csv), or an
    archived session, archive:ID. Sessions are given in playing order; each is read, checked and
    scored with its own conventions (its round numbers start again, its Scoring tag holds).

    A USEBIO file of several sessions (several <SESSION> in its <EVENT>) given alone is its
    sessions, in file order; FILE.xml#N is its session N (1-based). The event's standings the
    file publishes are compared with ours (a note lists any difference).

    Examples:

        bridgeproc event day1.pbn day2.pbn -o event.xlsx -o event.pbn --rule sum

        bridgeproc event results.xml -o event.csv   (all its sessions)

        bridgeproc event results.xml#2 day3.pbn -o event.csv
    """
    from bridgeproc.pipeline.event import process_event
    headings = {"event": event, "date": date}
    from bridgeproc.model import ArchiveOptions, Headings
    options = run_options({**params, "corrections": None},
                          ArchiveOptions(store=not no_archive, url=archive_url, replace=replace),
                          Headings(given={k: v for k, v in headings.items() if v is not None}))
    with library_errors(), SolveProgress() as progress:
        result = process_event(list(sessions), list(outputs), options, rule=rule, missing=missing, match=match,
                               carry_over=carry_over, stages=stage_log,
                               progress=progress if verbosity() >= NORMAL else None)
    if result.notes is not None and len(result.notes):
        for line in (format_problems if verbosity() >= VERBOSE else summarize_problems)(result.notes):
            say(f"Note: {line}")
    table = result.ranking.standings
    boards = int(table["boards"].max()) if len(table) else 0
    say(f"{len(table)} pairs ranked over {len(result.sessions)} sessions ({boards} boards, rule {rule}); "
        f"wrote {', '.join(outputs)}")
    if result.archived is not None:
        say(f"{result.archived}")


__all__ = ["event"]
