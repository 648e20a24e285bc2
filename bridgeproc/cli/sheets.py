"""Commands for other kinds of event: rubber and Chicago score sheets, team matches."""
from __future__ import annotations

import functools
from pathlib import Path

import click

from bridgeproc.cli.common import VERBOSITY, library_errors, say, with_verbosity
from bridgeproc.cli.main import check_encoding, check_finite, cli, outputs_for
from bridgeproc.pipeline.outputs import output_types


def _sheet_outputs(ctx, param, values):
    for value in values:
        if Path(value).suffix.lower() not in (".csv", ".xlsx"):
            raise click.BadParameter(f"{value}: write .csv or .xlsx")
    return values


_SHEET_ARGS = [
    click.argument("sheet", type=click.Path(exists=True, dir_okay=False)),
    click.option("-o", "--output", "outputs", multiple=True, type=click.Path(dir_okay=False), callback=_sheet_outputs,
                 help="Also write the score sheet (.csv or .xlsx). Repeat for several."),
    click.option("--encoding", default=None, callback=check_encoding, help="Text encoding of the sheet (default: detect)."),
    *VERBOSITY,
]


def _sheet_command(function):
    return functools.reduce(lambda f, d: d(f), reversed(_SHEET_ARGS), function)


def _print_sheet(kind: str, sheet, outputs, **options) -> None:
    from bridgeproc.pipeline.sheets import process_sheet
    from bridgeproc.report.scoresheet import sheet_text  # openpyxl only when a sheet is printed

    with library_errors():
        scored = process_sheet(kind, sheet, outputs, **options)
    click.echo(sheet_text(scored.table))


@cli.command()
@_sheet_command
@click.option("--variant", type=click.Choice(["rubber", "simplified"]), default="rubber", show_default=True,
              help="Classic rubber bridge, or the simplified training rubber (each deal scored on its own).")
@click.option("--unfinished-partscore", type=click.Choice(["100", "50"]), default="100", show_default=True,
              help="Bonus for a part-score in an unfinished rubber (ACBL Law 80: 100; some books: 50).")
@click.option("--redoubled-insult", type=click.Choice(["100", "50"]), default="100", show_default=True,
              help="Bonus for making a redoubled contract.")
def rubber(sheet, outputs, encoding, variant, unfinished_partscore, redoubled_insult) -> None:
    """Score a rubber-bridge SHEET (CSV: deal, declarer, contract, tricks, honours).

    Example:

        bridgeproc rubber evening.csv -o evening.xlsx
    """
    _print_sheet("rubber", sheet, outputs, variant=variant, unfinished_partscore=int(unfinished_partscore),
                 redoubled_insult=int(redoubled_insult), encoding=encoding)


@cli.command()
@_sheet_command
@click.option("--variant", type=click.Choice(["standard", "duplicate", "hcp"]), default="standard", show_default=True,
              help="Four-deal Chicago (part-scores carried toward game), Chicago duplicate (each deal scored "
                   "on its own like a duplicate board), or IMPs against a target from the side's high-card points.")
@click.option("--cycle", type=click.Choice(["dealer", "non-dealer"]), default="dealer", show_default=True,
              help="Deals 2 and 3: the dealer's side vulnerable (ACBL), or the other side.")
@click.option("--first-dealer", type=click.Choice(list("NESW")), default="N", show_default=True)
@click.option("--partscore-bonus", type=int, default=100, show_default=True,
              help="Standard Chicago: premium for a part-score on deal 4 that does not complete a game.")
@click.option("--partscore-premium", type=click.Choice(["50", "100"]), default="50", show_default=True,
              help="Chicago duplicate: premium of every part-score made (Law 77: 50).")
@click.option("--passed-out", type=click.Choice(["redeal", "score"]), default=None,
              help="Duplicate and HCP: redeal a passed-out deal, or score it (0) as one of the four "
                   "[default: score for duplicate, redeal for hcp; standard always redeals].")
@click.option("--targets", type=click.Path(exists=True, dir_okay=False), default=None,
              help="HCP target table (CSV hcp,nv,vul) for --variant hcp.")
@click.pass_context
def chicago(ctx, sheet, outputs, encoding, variant, cycle, first_dealer, partscore_bonus, partscore_premium,
            passed_out, targets) -> None:
    """Score a Chicago SHEET (CSV: deal, declarer, contract, tricks[, hcp]).

    Examples:

        bridgeproc chicago evening.csv -o evening.csv

        bridgeproc chicago evening.csv --variant duplicate --partscore-premium 100
    """
    applies = {"partscore_bonus": ("standard",), "partscore_premium": ("duplicate",),
               "passed_out": ("duplicate", "hcp"), "targets": ("hcp",)}
    for name, variants in applies.items():  # an option the variant does not use is refused, not dropped
        if variant not in variants and ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE:
            option = "--" + name.replace("_", "-")
            raise click.UsageError(f"{option} is for --variant {' or '.join(variants)}, not {variant}"
                                   + ("; Chicago duplicate's premium is --partscore-premium"
                                      if name == "partscore_bonus" and variant == "duplicate" else ""))
    if variant == "standard":
        passed_out = None  # a club default for the other variants; standard Chicago always redeals
    _print_sheet("chicago", sheet, outputs, variant=variant, cycle=cycle, first_dealer=first_dealer,
                 partscore_bonus=partscore_bonus, passed_out=passed_out, targets=targets, encoding=encoding,
                 partscore_premium=int(partscore_premium))


@cli.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--output", "outputs", multiple=True, required=True, type=click.Path(),
              callback=outputs_for(output_types("TeamsSession")),
              help="Output file (.xlsx, .csv, .pbn, .xml for USEBIO, .html, or results/ for the website). "
                   "Repeat for several.")
@click.option("--scoring", type=click.Choice(["vp", "imps", "bam"]), default=None,
              help="Victory points (default), raw IMPs, or board-a-match.")
@click.option("--vp-scale", default=None, help="wbf2013 (WBF 2013 continuous 20-VP), ebu20 (EBU 20-VP in whole VPs, 3-board "
              "matches) or a VP table CSV [default: the producer's, or the scale the file's VPs fit, else wbf2013].")
@click.option("--boards-per-match", type=click.IntRange(1), default=None,
              help="Match length for the VP scale [default: the boards found in each match].")
@click.option("--imp-ave-plus", "--ave-plus-imps", "ave_plus_imps", type=click.FloatRange(0, 24), default=None,
              callback=check_finite, help="IMPs for an average-plus board, as for pairs scored in IMPs [default: 3, "
                                          "Law 86A]; --ave-plus-imps is its old name.")
@click.option("--unplayed", type=click.Choice(["exclude", "average"]), default=None,
              help="A match not played: left out (default) or 10-10.")
@click.option("--format", "format_", type=click.Choice(["auto", "swiss", "round-robin", "knockout"]), default=None,
              help="Event format, for the tie-breaks [default: auto].")
@click.option("--tie-breaks", default=None, help="Comma list, e.g. head-to-head-vp,head-to-head-imps,imp-quotient.")
@click.option("--bam-tie", type=click.IntRange(0), default=None, help="Board-a-match: net difference still counted a tie.")
@click.option("--bam-points", type=click.Choice(["1", "2"]), default=None,
              help="Board-a-match points for a board won: 1 (1/½/0) or 2 (2/1/0, point-a-board) [default: 1, or what "
                   "the file's published scores show].")
@click.option("--masterpoints", metavar="NAME", default=None,
              help="Masterpoint scale: ebu-club, abf-club, a scale file (.toml), or none [default: auto, the one the "
                   "input file names].")
@click.option("--lineup", type=click.Path(exists=True, dir_okay=False), help="Which pair of which team sat where.")
@click.option("--adjustments", type=click.Path(exists=True, dir_okay=False), help="Carry-over and penalties (CSV).")
@click.option("--encoding", default=None, callback=check_encoding, help="Text encoding of CSV/PBN inputs (default: detect).")
@click.option("--no-archive", is_flag=True, help="Do not store the event in the archive.")
@click.option("--archive", "archive_url", envvar="BRIDGEPROC_ARCHIVE", default=None,
              help="Archive: an SQLAlchemy URL or SQLite file [default: $BRIDGEPROC_ARCHIVE, else "
                   "~/.local/share/bridgeproc/archive.sqlite].")
@click.option("--replace", is_flag=True,
              help="Archive this run even if it has fewer table results, deals or double-dummy tables than the "
                   "version it follows.")
@click.option("--event", default=None, help="Event name in the archive [default: the input's Event].")
@click.option("--date", default=None, help="Date in the archive, YYYY-MM-DD [default: the input's Date, else today].")
@click.option("--session-id", default=None, help="Archive as a new version of this session id.")
@click.option("--comment", default=None, help="A note stored with this archived version (e.g. what was corrected).")
@with_verbosity
def teams(inputs, outputs, lineup, adjustments, encoding, format_, vp_scale, no_archive, archive_url, replace, event,
          date, session_id, comment, **params) -> None:
    """Score a teams event: board IMPs, match VPs, standings.

    Example:

        bridgeproc teams round1.pbn -o results.xlsx -o results.csv -o results.pbn
    """
    from bridgeproc.pipeline.teams import process_teams  # the teams writers only for this command
    from bridgeproc.teams import options_from_text

    identity = {"event": event, "date": date, "session_id": session_id, "comment": comment}
    with library_errors():
        options = options_from_text(format=format_, vp_scale_spec=vp_scale, **params)
        session = process_teams(list(inputs), list(outputs), options, lineup=lineup, adjustments=adjustments,
                                encoding=encoding, archive=not no_archive, archive_url=archive_url,
                                archive_as={k: v for k, v in identity.items() if v is not None}, replace=replace)
    for notice in session.notices:
        say(notice)
    for line in session.note_lines():  # what was read with a note (a lead from the Play ...), as `score` says it
        say(f"Note: {line}")
    if session.origin:
        say(session.origin)
    say(f"{len(session.matches)} matches, {len(session.standings)} teams; wrote {', '.join(outputs)}")
    if session.archived is not None:
        say(str(session.archived))
