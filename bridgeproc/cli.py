"""The command line: a thin click layer over bridgeproc's library calls."""
from __future__ import annotations

import functools
import sys
from pathlib import Path

import click

from . import __version__
from .errors import BridgeprocError, format_problems
from .rank import PROFILES, Conventions, profile
from .session import Options, check_inputs, process_session


def _outputs_for(suffixes):
    """A callback that refuses, as a command-line mistake (exit 2), an output type no writer
    has and a file given twice."""
    def check(ctx, param, values):
        for value in values:
            if Path(value).suffix.lower() not in suffixes:
                raise click.BadParameter(f"{value}: unknown output type; use one of {', '.join(suffixes)}")
        if len({Path(v).resolve() for v in values}) < len(values):
            raise click.BadParameter("the same output file is given twice")
        return values
    return check


def _finite(ctx, param, value):
    import math

    if value is not None and not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a number of IMPs")
    return value


def _encoding(ctx, param, value):
    if value is None:
        return None
    import codecs

    try:
        codecs.lookup(value)
    except LookupError:
        raise click.BadParameter(f"{value!r} is not a text encoding; e.g. utf-8, cp1252, latin-1") from None
    return value


def _input_options(command):
    """Options shared by the commands that read inputs."""
    decorators = [
        click.argument("inputs", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False)),
        click.option("--names", "names", multiple=True, type=click.Path(exists=True, dir_okay=False),
                     help="A names list (pair -> players), CSV or XLSX. Repeat for several."),
        click.option("--result-style", type=click.Choice(["auto", "tricks", "relative"]), default="auto", show_default=True,
                     help="How a bare number in the result column is read: auto treats it as tricks taken."),
        click.option("--trust", type=click.Choice(["contract", "score"]), default="contract", show_default=True,
                     help="When a written score disagrees with contract and result: report it (contract), "
                          "or correct the tricks to the score when exactly one trick count fits (score)."),
        click.option("--encoding", default=None, callback=_encoding,
                     help="Text encoding of CSV/PBN inputs (default: detect UTF-8/UTF-16, else Windows-1252)."),
        click.option("--pair-numbering", type=click.Choice(["auto", "shared", "per-direction"]), default="auto",
                     show_default=True, help="Whether NS 1 and EW 1 are one pair (shared) or two (per-direction Mitchell)."),
        click.option("--no-score-check", is_flag=True, help="Do not compare written scores with contract and result."),
        click.option("--no-movement-check", is_flag=True,
                     help="Do not check Bridgemate results against the movement in the file's RoundData."),
        click.option("--tables", type=click.IntRange(min=1), default=None,
                     help="Tables per section (default: distinct Table numbers, else inferred from the pairs; a board with more results than most is only a note)."),
    ]
    return functools.reduce(lambda f, d: d(f), reversed(decorators), command)


def _ranking_options(command):
    decorators = [
        click.option("--profile", type=click.Choice(sorted(PROFILES)), default=None,
                     help="A named bundle of conventions (ebu, acbl, wbf); single options below override it."),
        click.option("--method", type=click.Choice(["mp", "cross-imp", "butler"]), default=None,
                     help="Ranking method [default: the input PBN's Scoring tag, else mp]."),
        click.option("--factoring", type=click.Choice(["neuberg", "average", "none"]), default=None,
                     help="Boards played fewer times [default: neuberg]."),
        click.option("--mp-scale", type=click.Choice(["2", "1"]), default=None,
                     help="Matchpoints per result beaten [default: 2]."),
        click.option("--cross-imp", type=click.Choice(["sum", "average", "average-n"]), default=None,
                     help="Cross-IMP pair total: sum, or average per comparison [default: sum]."),
        click.option("--datum-drop", type=click.IntRange(0), default=None,
                     help="Butler: results dropped at each end of the datum [default: 1]."),
        click.option("--adjusted", "adjusted_mode", type=click.Choice(["fixed", "session"]), default=None,
                     help="A+/A-: fixed 60/40 %, or the pair's own session % if better [default: fixed]."),
        click.option("--winners", type=click.Choice(["auto", "one", "two"]), default=None,
                     help="One ranking, or NS and EW apart [default: auto from the movement]."),
        click.option("--across-field/--within-sections", default=None,
                     help="Compare each board across all sections, or within each [default: within, unless a "
                          "PBN input scored a board's sections in one ScoreTable]."),
        click.option("--fouled", type=click.Choice(["neuberg", "acbl"]), default=None,
                     help="Fouled boards: every group Neuberg-factored to the full top, or ACBL's 60 / 65-55 / "
                          "70-60-50 % for groups of 1-3 [default: neuberg]."),
        click.option("--centred", is_flag=True, default=None, help="Show matchpoints centred on zero (Norway)."),
        click.option("--mp-decimals", type=click.IntRange(0, 6), default=None,
                     help="Round board matchpoints to this many decimals before totalling [default: exact]."),
        click.option("--expected", type=click.IntRange(1), default=None,
                     help="Results expected per board, for factoring [default: the most played]."),
        click.option("--datum-drop-share", type=click.FloatRange(0, 0.5, max_open=True), default=None,
                     help="Butler: share of results dropped at each end (e.g. 0.1); overrides --datum-drop."),
        click.option("--imp-ave-plus", type=click.FloatRange(0, 24), default=None, callback=_finite,
                     help="IMPs per comparison for an average-plus in IMP scoring [default: 3]."),
        click.option("--sitout", type=click.Choice(["none", "scale"]), default=None,
                     help="IMP totals: plain sums, or scaled to all boards for pairs that sat out [default: none]."),
        click.option("--imp-per-board", is_flag=True, default=None, help="IMP totals divided by boards played."),
    ]
    return functools.reduce(lambda f, d: d(f), reversed(decorators), command)


def _iso_date(value: str | None) -> str | None:
    if value is None:
        return None
    import datetime

    try:
        return datetime.date.fromisoformat(value).isoformat()
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a date; write YYYY-MM-DD, e.g. 2026-11-24") from None


def _options(params: dict, **extra) -> Options:
    if params.get("datum_drop") is not None and params.get("datum_drop_share") is not None:
        raise click.UsageError("give --datum-drop or --datum-drop-share, not both")
    base = profile(params["profile"]) if params.get("profile") else None
    overrides = {
        "method": params.get("method"), "factoring": params.get("factoring"),
        "mp_scale": int(params["mp_scale"]) if params.get("mp_scale") else None,
        "cross_imp": params.get("cross_imp"), "datum_drop": params.get("datum_drop"),
        "adjusted_mode": params.get("adjusted_mode"), "winners": params.get("winners"),
        "across_field": params.get("across_field"),
        "centred": params.get("centred") or None, "mp_decimals": params.get("mp_decimals"),
        "expected": params.get("expected"), "datum_drop_share": params.get("datum_drop_share"),
        "imp_ave_plus": params.get("imp_ave_plus"), "sitout": params.get("sitout"),
        "imp_per_board": params.get("imp_per_board") or None, "fouled": params.get("fouled"),
    }
    return Options(
        result_style=params["result_style"], encoding=params["encoding"], check_scores=not params["no_score_check"],
        pair_numbering=params["pair_numbering"], trust=params["trust"], names=tuple(params["names"]),
        conventions=base, overrides={k: v for k, v in overrides.items() if v is not None},
        dd=not params.get("no_dd", False), tables=params.get("tables"),
        movement_check=not params.get("no_movement_check", False), **extra,
    )


@click.group()
@click.version_option(__version__, prog_name="bridgeproc")
def cli() -> None:
    """Score duplicate bridge sessions: travellers and hand records in, rankings out."""


@cli.command()
@_input_options
@_ranking_options
@click.option("-o", "--output", "outputs", multiple=True, required=True, type=click.Path(dir_okay=False),
              callback=_outputs_for((".xlsx", ".pbn", ".xml", ".csv")),
              help="Output file; the format follows the extension (.xlsx, .pbn, .xml, .csv). Repeat for several.")
@click.option("--no-dd", is_flag=True, help="Skip the double-dummy analysis of the hand records.")
@click.option("--no-archive", is_flag=True, help="Do not store the session in the archive.")
@click.option("--archive", "archive_url", envvar="BRIDGEPROC_ARCHIVE", default=None,
              help="Archive: an SQLAlchemy URL or SQLite file [default: $BRIDGEPROC_ARCHIVE, else "
                   "~/.local/share/bridgeproc/archive.sqlite].")
@click.option("--event", default=None, help="Archive under this event name [default: the input's Event].")
@click.option("--date", default=None, callback=lambda ctx, param, value: _iso_date(value),
              help="Archive under this date, YYYY-MM-DD [default: the input's Date, else today].")
@click.option("--session-id", default=None, help="Archive as a new version of this session id.")
@click.option("--comment", default=None, help="A note stored with this archived version (e.g. what was corrected).")
def score(outputs, inputs, no_archive, archive_url, event, date, session_id, comment, **params) -> None:
    """Check, score and rank INPUTS, then write every -o OUTPUT.

    INPUTS are any mix of PBN files (deals and/or results), traveller sheets
    (CSV/XLSX) and names lists.

    Example:

        bridgeproc score hands.pbn travellers.csv -o results.xlsx -o results.pbn
    """
    identity = {"event": event, "date": date, "session_id": session_id, "comment": comment}
    options = _options(params, archive=not no_archive, archive_url=archive_url,
                       archive_as={k: v for k, v in identity.items() if v is not None})
    bars: list = []

    def progress(done: int, total: int) -> None:
        if not bars:
            bars.append(click.progressbar(length=total, label="Double dummy", file=sys.stderr).__enter__())
        bars[0].update(done - bars[0].pos)

    try:
        session = process_session(list(inputs), list(outputs), options, progress=progress)
    except BridgeprocError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        for bar in bars:
            bar.__exit__(None, None, None)
    if session.notes is not None and len(session.notes):
        for line in format_problems(session.notes):
            click.echo(f"Note: {line}", err=True)
    click.echo(f"{len(session.results)} results, {session.results['board'].nunique()} boards; "
               f"wrote {', '.join(outputs)}", err=True)
    if session.archived is not None:
        click.echo(f"{session.archived}", err=True)


@cli.command()
@_input_options
def check(inputs, **params) -> None:
    """Check INPUTS and list every problem; exit 1 if there is any.

    Example:

        bridgeproc check hands.pbn travellers.csv
    """
    try:
        summary = check_inputs(list(inputs), _options(params))
    except BridgeprocError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(summary)


__all__ = ["cli", "Conventions"]


def _sheet_outputs(ctx, param, values):
    for value in values:
        if Path(value).suffix.lower() not in (".csv", ".xlsx"):
            raise click.BadParameter(f"{value}: write .csv or .xlsx")
    return values


_SHEET_ARGS = [
    click.argument("sheet", type=click.Path(exists=True, dir_okay=False)),
    click.option("-o", "--output", "outputs", multiple=True, type=click.Path(dir_okay=False), callback=_sheet_outputs,
                 help="Also write the score sheet (.csv or .xlsx). Repeat for several."),
    click.option("--encoding", default=None, callback=_encoding, help="Text encoding of the sheet (default: detect)."),
]


def _sheet_command(function):
    return functools.reduce(lambda f, d: d(f), reversed(_SHEET_ARGS), function)


def _print_sheet(build, sheet, outputs, title, reads=()) -> None:
    from .io.outputs import check_outputs, write_all
    from .report.scoresheet import sheet_text, write_sheet

    try:
        check_outputs(outputs, (".csv", ".xlsx"), [sheet, *reads])
        frame = build()
        write_all(outputs, lambda out, tmp: write_sheet(frame, tmp, title=f"{title}: {Path(sheet).name}", kind=out.suffix))
    except BridgeprocError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(sheet_text(frame))


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
    from .rubber import rubber_sheet

    _print_sheet(lambda: rubber_sheet(sheet, variant=variant, unfinished_partscore=int(unfinished_partscore),
                                      redoubled_insult=int(redoubled_insult), encoding=encoding),
                 sheet, outputs, "Rubber bridge")


@cli.command()
@_sheet_command
@click.option("--variant", type=click.Choice(["standard", "hcp"]), default="standard", show_default=True,
              help="Four-deal Chicago, or IMPs against a target from the side's high-card points.")
@click.option("--cycle", type=click.Choice(["dealer", "non-dealer"]), default="dealer", show_default=True,
              help="Deals 2 and 3: the dealer's side vulnerable (ACBL), or the other side.")
@click.option("--first-dealer", type=click.Choice(list("NESW")), default="N", show_default=True)
@click.option("--partscore-bonus", type=int, default=100, show_default=True, help="Part-score premium on deal 4.")
@click.option("--passed-out", type=click.Choice(["redeal", "score"]), default="redeal", show_default=True)
@click.option("--targets", type=click.Path(exists=True, dir_okay=False), default=None,
              help="HCP target table (CSV hcp,nv,vul) for --variant hcp.")
def chicago(sheet, outputs, encoding, variant, cycle, first_dealer, partscore_bonus, passed_out, targets) -> None:
    """Score a Chicago SHEET (CSV: deal, declarer, contract, tricks[, hcp]).

    Example:

        bridgeproc chicago evening.csv -o evening.csv
    """
    from .chicago import chicago_sheet

    _print_sheet(lambda: chicago_sheet(sheet, variant=variant, cycle=cycle, first_dealer=first_dealer,
                                       partscore_bonus=partscore_bonus, passed_out=passed_out, targets=targets,
                                       encoding=encoding),
                 sheet, outputs, "Chicago", reads=[targets] if targets else ())


@cli.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--output", "outputs", multiple=True, required=True, type=click.Path(dir_okay=False),
              callback=_outputs_for((".xlsx", ".pbn", ".csv")),
              help="Output file (.xlsx, .csv, .pbn). Repeat for several.")
@click.option("--scoring", type=click.Choice(["vp", "imps", "bam"]), default=None,
              help="Victory points (default), raw IMPs, or board-a-match.")
@click.option("--vp-scale", default=None, help="wbf2013 (default: WBF 2013 continuous 20-VP) or a VP table CSV.")
@click.option("--boards-per-match", type=click.IntRange(1), default=None,
              help="Match length for the VP scale [default: the boards found in each match].")
@click.option("--ave-plus-imps", type=click.FloatRange(0, 24), default=None, callback=_finite, help="IMPs for an average-plus board [default: 3, Law 86A].")
@click.option("--unplayed", type=click.Choice(["exclude", "average"]), default=None,
              help="A match not played: left out (default) or 10-10.")
@click.option("--format", "format_", type=click.Choice(["auto", "swiss", "round-robin", "knockout"]), default=None,
              help="Event format, for the tie-breaks [default: auto].")
@click.option("--tie-breaks", default=None, help="Comma list, e.g. head-to-head-vp,head-to-head-imps,imp-quotient.")
@click.option("--bam-tie", type=click.IntRange(0), default=None, help="Board-a-match: net difference still counted a tie.")
@click.option("--lineup", type=click.Path(exists=True, dir_okay=False), help="Which pair of which team sat where.")
@click.option("--adjustments", type=click.Path(exists=True, dir_okay=False), help="Carry-over and penalties (CSV).")
@click.option("--encoding", default=None, callback=_encoding, help="Text encoding of CSV/PBN inputs (default: detect).")
def teams(inputs, outputs, lineup, adjustments, encoding, format_, vp_scale, **params) -> None:
    """Score a teams event: board IMPs, match VPs, standings.

    Example:

        bridgeproc teams round1.pbn -o results.xlsx -o results.csv -o results.pbn
    """
    from .teams import options_from_text, process_teams

    try:
        options = options_from_text(format=format_, vp_scale_spec=vp_scale, **params)
        session = process_teams(list(inputs), list(outputs), options, lineup=lineup,
                                adjustments=adjustments, encoding=encoding)
    except BridgeprocError as exc:
        raise click.ClickException(str(exc)) from None
    for notice in session.notices:
        click.echo(notice, err=True)
    click.echo(f"{len(session.matches)} matches, {len(session.standings)} teams; wrote {', '.join(outputs)}", err=True)


_ARCHIVE_URL = click.option("--archive", "url", envvar="BRIDGEPROC_ARCHIVE", default=None,
                            help="Archive URL or SQLite file [default: ~/.local/share/bridgeproc/archive.sqlite].")


def _archive_call(function, *args, **kwargs):
    from .archive.db import archive_exists, default_url

    try:
        if not archive_exists(args[0]):
            raise click.ClickException(f"no archive at {args[0] or default_url()} yet; "
                                       "bridgeproc score archives every session it scores")
        return function(*args, **kwargs)
    except BridgeprocError as exc:
        raise click.ClickException(str(exc)) from None


@cli.group()
def archive() -> None:
    """Archived sessions: list, show, export, history, diff, check."""


@archive.command("list")
@_ARCHIVE_URL
def archive_list(url) -> None:
    """List the archived sessions.

    Example:

        bridgeproc archive list
    """
    from .archive import list_sessions

    sessions = _archive_call(list_sessions, url)
    click.echo(sessions.to_string(index=False) if len(sessions) else "no sessions archived yet")


@archive.command("show")
@_ARCHIVE_URL
@click.argument("session_id")
@click.option("--version", type=click.IntRange(1), default=None, help="Version [default: the latest].")
def archive_show(url, session_id, version) -> None:
    """Show SESSION_ID's versions and the standings of one.

    Example:

        bridgeproc archive show 2026-11-24_tuesday-pairs --version 1
    """
    from .archive import show_session

    click.echo(str(_archive_call(show_session, url, session_id, version)))


@archive.command("export")
@_ARCHIVE_URL
@click.argument("session_id")
@click.option("-o", "--output", "outputs", multiple=True, required=True, type=click.Path(dir_okay=False),
              callback=_outputs_for((".xlsx", ".pbn", ".xml", ".csv")),
              help="Output file (.xlsx, .pbn, .csv, .xml). Repeat for several.")
@click.option("--version", type=click.IntRange(1), default=None, help="Version [default: the latest].")
def archive_export(url, session_id, outputs, version) -> None:
    """Write an archived session again, without the original files.

    Example:

        bridgeproc archive export 2026-11-24_tuesday-pairs -o again.xlsx
    """
    from .archive import export_session

    _archive_call(export_session, url, session_id, list(outputs), version)
    click.echo(f"wrote {', '.join(outputs)}", err=True)


@archive.command("history")
@_ARCHIVE_URL
@click.argument("player_or_pair")
@click.option("--all-versions", is_flag=True, help="Every archived version, not only the latest of each session.")
def archive_history(url, player_or_pair, all_versions) -> None:
    """A player's or pair's results across the archived sessions.

    Example:

        bridgeproc archive history "Anna Strand"
    """
    from .archive import history

    rows = _archive_call(history, url, player_or_pair, all_versions)
    click.echo(rows.to_string(index=False) if len(rows) else f"no archived results for {player_or_pair!r}")


@archive.command("diff")
@_ARCHIVE_URL
@click.argument("session_id")
@click.argument("v1", type=click.IntRange(1), required=False)
@click.argument("v2", type=click.IntRange(1), required=False)
def archive_diff(url, session_id, v1, v2) -> None:
    """What changed between two versions of SESSION_ID [default: the last two].

    Example:

        bridgeproc archive diff 2026-11-24_tuesday-pairs 1 2
    """
    from .archive import diff

    click.echo(str(_archive_call(diff, url, session_id, v1, v2)))


@archive.command("check")
@_ARCHIVE_URL
@click.option("--deep", is_flag=True, help="Also re-hash every stored version.")
def archive_check(url, deep) -> None:
    """Check the archive's integrity; exit 1 on any problem.

    Example:

        bridgeproc archive check --deep
    """
    from .archive import check_archive

    problems = _archive_call(check_archive, url, deep)
    if problems:
        raise click.ClickException("\n".join(problems))
    click.echo("archive OK")
