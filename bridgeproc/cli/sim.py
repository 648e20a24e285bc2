"""The ``sim`` command: a simultaneous event across clubs, scored across the field and within each
club (pipeline.sim)."""
from __future__ import annotations

import click

from bridgeproc.cli.common import VERBOSE, VERBOSITY, Command, apply, library_errors, option, say, verbosity
from bridgeproc.cli.main import INPUTS, OUTPUTS, cli
from bridgeproc.errors import format_problems, summarize_problems

ARCHIVE = "Archive"


def _sim_options(command):
    inputs, outputs, archive = option(INPUTS), option(OUTPUTS), option(ARCHIVE)
    return apply([
        click.argument("club_files", nargs=-1, type=click.Path(exists=True)),
        inputs("--hand-record", type=click.Path(exists=True, dir_okay=False), default=None,
               help="The deals every club played (PBN); a club file dealing a board otherwise is refused."),
        inputs("--club-of", type=click.Choice(["stem", "folder"]), default="stem", show_default=True,
               help="Whose a file is: its name without extension (stem) or its folder's name; a folder given "
                    "is always one club."),
        outputs("-o", "--output", "output", required=True, type=click.Path(file_okay=False),
                help="The output folder: the field's ranking and a folder per club (replaced on a rerun)."),
        archive("--from-archive", "archive_url", default=None,
                help="Score the clubs' sessions archived at this URL (with --event) instead of files."),
        archive("--event", default=None, help="With --from-archive: the event the clubs archived their sessions as."),
        *VERBOSITY,
    ], command)


@cli.command(cls=Command)
@_sim_options
def sim(club_files, hand_record, club_of, output, archive_url, event, **_) -> None:
    """Score a simultaneous event: many clubs' files for the same boards, across the field and
    within each club, with a page and CSVs per club and the field's ranking.

    Examples:

        bridgeproc sim --hand-record hands.pbn oakfield.csv elmhurst.pbn -o sim/

        bridgeproc sim --from-archive postgresql://host/bridge --event "Winter sim" -o sim/
    """
    from bridgeproc.pipeline.sim_write import process_sim
    with library_errors():
        result = process_sim(list(club_files), output, hand_record, club_of, archive_url, event)
    if result.notes is not None and len(result.notes):
        for line in (format_problems if verbosity() >= VERBOSE else summarize_problems)(result.notes):
            say(f"Note: {line}")
    say(f"{len(result.clubs)} clubs, {len(result.results)} results, {len(result.field_standings)} pairs ranked "
        f"across the field; wrote {output}")


__all__ = ["sim"]
