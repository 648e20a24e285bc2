"""The command group, shared options, and the main job: ``score`` and ``check``."""
from __future__ import annotations

import functools
import sys
from pathlib import Path

import click

from .. import __version__
from ..errors import BridgeprocError, format_problems
from ..rank import PROFILES, profile
from ..session import Options, check_inputs, process_session


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


