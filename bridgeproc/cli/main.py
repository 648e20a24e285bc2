"""The command group, shared options, and the main job: ``score`` and ``check``."""
from __future__ import annotations

import importlib
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import click

from bridgeproc._version import __version__
from bridgeproc.cli.common import (
    NORMAL,
    VERBOSE,
    VERBOSITY,
    Command,
    SetupProblem,
    apply,
    config_problem,
    default_map,
    library_errors,
    load_config,
    option,
    say,
    verbosity,
    with_verbosity,
)
from bridgeproc.cli.progress import SolveProgress
from bridgeproc.errors import format_problems, summarize_problems
from bridgeproc.pipeline.config import ConfigError
from bridgeproc.pipeline.outputs import FOLDER, output_type, output_types
from bridgeproc.rank.conventions import DECLARED, EXACT, PROFILES, Declared, profile

if TYPE_CHECKING:
    from bridgeproc.model import ArchiveOptions, Headings, Options

INPUTS, METHOD, OUTPUTS, ARCHIVE, CHECKS = "Inputs", "Method and conventions", "Outputs", "Archive", "Checks"
#: ``ctx.meta`` key of the configuration in force per command (:func:`load_config`).
IN_FORCE = "bridgeproc.config"
#: ``-o -``: the scored results as CSV on standard output.
STDOUT = "-"


def outputs_for(suffixes, stdout: bool = False):
    """A callback that refuses, as a command-line mistake (exit 2), an output type no writer
    has and a file given twice; ``stdout``: ``-`` (CSV on standard output) is allowed."""
    def check(ctx, param, values):
        if values.count(STDOUT) > 1:
            raise click.BadParameter("standard output (-) is given twice")
        for value in values:
            if value == STDOUT and stdout:
                continue
            if value == STDOUT:
                raise click.BadParameter("this command cannot write to standard output (-); give a file name")
            if output_type(value) not in suffixes:
                shown = ", ".join("a folder (name/)" if s == FOLDER else s for s in suffixes)
                raise click.BadParameter(f"{value}: unknown output type; use one of {shown}")
        files = [v for v in values if v != STDOUT]
        if len({Path(v).resolve() for v in files}) < len(files):
            raise click.BadParameter("the same output file is given twice")
        return values
    return check


def check_finite(ctx, param, value):
    import math

    if value is not None and not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a number of IMPs")
    return value


def check_encoding(ctx, param, value):
    if value is None:
        return None
    import codecs

    try:
        codecs.lookup(value)
    except LookupError:
        raise click.BadParameter(f"{value!r} is not a text encoding; e.g. utf-8, cp1252, latin-1") from None
    return value


#: The former private names, until cli/sheets.py, cli/swiss.py and cli/archive.py import the public ones.


class InputFile(click.Path):
    """An input file that exists, or ``FILE.xml#N``: session N of a USEBIO file of several sessions."""

    def __init__(self) -> None:
        super().__init__(exists=True, dir_okay=False)

    def convert(self, value, param, ctx):
        from bridgeproc.pipeline.read import input_file
        file = input_file(value)
        if str(file) == str(value):
            return super().convert(value, param, ctx)
        super().convert(str(file), param, ctx)  # the file behind the session must exist
        return value


def _input_options(command):
    """Options shared by the commands that read inputs."""
    inputs, checks = option(INPUTS), option(CHECKS)
    decorators = [
        click.argument("inputs", nargs=-1, required=True, type=InputFile()),
        inputs("--names", "names", multiple=True, type=click.Path(exists=True, dir_okay=False),
                     help="A names list (pair -> players), CSV or XLSX. Repeat for several."),
        inputs("--corrections", type=click.Path(exists=True, dir_okay=False), default=None,
                     help="A corrections file (CSV: Board,NS,EW,Field,Value,Reason; or TOML) applied on top of "
                          "the inputs' results, each with its reason (see README, Corrections)."),
        inputs("--result-style", type=click.Choice(["auto", "tricks", "relative"]), default="auto", show_default=True,
                     help="How a bare number in the result column is read: auto treats it as tricks taken."),
        inputs("--movement", type=click.Path(exists=True, dir_okay=False), default=None,
                     help="A movement file (bridgeproc movement -o movement.csv): every result is checked against "
                          "it (the pairs meet at that table and round, or on that board)."),
        checks("--trust", type=click.Choice(["contract", "score"]), default="contract", show_default=True,
                     help="When a written score disagrees with contract and result: report it (contract), "
                          "or correct the tricks to the score when exactly one trick count fits (score)."),
        inputs("--encoding", default=None, callback=check_encoding,
                     help="Text encoding of CSV/PBN inputs (default: detect UTF-8/UTF-16, else Windows-1252)."),
        *checked_conventions(inputs),
        inputs("--arrow-switch", "arrow_switch", metavar="ROUNDS", default=None,
                     help="Rounds in which the EW pairs sat NS, e.g. 6-7; needs a Round column."),
        checks("--no-score-check", is_flag=True, help="Do not compare written scores with contract and result."),
        checks("--no-movement-check", is_flag=True,
                     help="Do not check Bridgemate results against the movement in the file's RoundData."),
        checks("--tables", type=click.IntRange(min=1, max=10_000), default=None,
                     help="Tables per section (default: distinct Table numbers, else inferred from the pairs; a board with more results than most is only a note)."),
        *VERBOSITY,
    ]
    return apply(decorators, command)


class MpDecimals(click.ParamType):
    """``--mp-decimals``: 0 to 6, or ``exact`` (board MPs kept unrounded, undoing a producer's rounding)."""

    name = "0-6|exact"

    def convert(self, value, param, ctx):
        if isinstance(value, int) or value == EXACT:
            return value
        text = str(value).strip().lower()
        if text == EXACT:
            return EXACT
        if text.isdigit() and 0 <= int(text) <= 6:
            return int(text)
        self.fail(f"{value!r} is not 0 to 6 decimals or 'exact'", param, ctx)


def _flags(name: str, declared: Declared) -> tuple[str, ...]:
    """A convention's option declarations: its flag and the field it sets."""
    return (str(declared.flag), name)


def _option_kind(declared: Declared) -> dict:
    """The click type of a convention's option, from its declaration (rank.conventions.DECLARED)."""
    kwargs: dict = {"default": None, "help": declared.cli_help or declared.help}
    if declared.kind == "choice":
        kwargs["type"] = click.Choice([str(c) for c in declared.choices])
    elif declared.kind == "int":
        kwargs["type"] = click.IntRange(int(declared.low) if declared.low is not None else None,
                                        int(declared.high) if declared.high is not None else None)
    elif declared.kind == "float":
        kwargs["type"] = click.FloatRange(declared.low, declared.high, max_open=declared.high_open)
        kwargs["callback"] = check_finite
    elif declared.kind == "decimals":
        kwargs["type"] = MpDecimals()
    elif declared.kind == "text":
        kwargs["metavar"] = "NAME"
    return kwargs


def ranking_options(command):
    method = option(METHOD)
    decorators = [
        method("--profile", type=click.Choice(sorted(PROFILES)), default=None,
                     help=f"A named bundle of conventions ({', '.join(sorted(PROFILES))}); single options below "
                          "override it."),
        *(method(*_flags(name, declared), **_option_kind(declared)) for name, declared in DECLARED.items()
          if declared.flag and not declared.checks),
    ]
    return apply(decorators, command)


def checked_conventions(group) -> list:
    """The options of the conventions the checks need too (``--pair-numbering``), in ``group``: every
    command that checks inputs has them, from their one declaration."""
    return [group(*_flags(name, declared), **_option_kind(declared)) for name, declared in DECLARED.items()
            if declared.flag and declared.checks]


def iso_date(value: str | None) -> str | None:
    if value is None:
        return None
    import datetime

    try:
        return datetime.date.fromisoformat(value).isoformat()
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a date; write YYYY-MM-DD, e.g. 2026-11-24") from None


def _one_of(params: dict, first: str, second: str) -> dict:
    """Two options that exclude each other: one typed on the command line beats the other from the
    configuration file; both typed is a command-line mistake, both in the file a file mistake."""
    if params.get(first) is None or params.get(second) is None:
        return params
    ctx = click.get_current_context()
    from_file = {name for name in (first, second)
                 if ctx.get_parameter_source(name) == click.core.ParameterSource.DEFAULT_MAP}
    flags = f"--{first.replace('_', '-')} or --{second.replace('_', '-')}"
    if len(from_file) == 1:
        return {**params, from_file.pop(): None}
    if len(from_file) == 2:
        raise SetupProblem(f"the configuration file gives both {first.replace('_', '-')} and "
                           f"{second.replace('_', '-')}; keep one (bridgeproc config score shows where each is)")
    raise click.UsageError(f"give {flags}, not both")


def convention_overrides(params: dict) -> dict:
    """The ranking options given (``ranking_options``) as Conventions fields (None: not given); a choice
    of numbers (``--mp-scale 1``) as its number."""
    params = _one_of(params, "datum_drop", "datum_drop_share")
    overrides = {}
    for name, declared in DECLARED.items():
        value = params.get(name)
        if declared.flag is None or value is None:
            continue
        numbers = declared.kind == "choice" and all(isinstance(c, int) for c in declared.choices)
        overrides[name] = int(value) if numbers else value
    return overrides


def run_options(params: dict, archive: ArchiveOptions | None = None, headings: Headings | None = None) -> Options:
    """The options of a run, stage by stage, from the command's parameters (those it has not: their defaults)."""
    from bridgeproc.model import ArchiveOptions, CheckOptions, ConventionChoice, Headings, Options, ReadOptions
    return Options(
        read=ReadOptions(encoding=params["encoding"], names=tuple(params["names"]),
                         handicaps=params.get("handicaps"), holdings=params.get("holdings")),
        check=CheckOptions(
            result_style=params["result_style"], check_scores=not params["no_score_check"], trust=params["trust"],
            arrow_switch=params.get("arrow_switch"), tables=params.get("tables"),
            movement_check=not params.get("no_movement_check", False), movement=params.get("movement"),
            corrections=params.get("corrections")),
        ranking=ConventionChoice(profile(params["profile"]) if params.get("profile") else None,
                                 convention_overrides(params)),  # type: ignore[arg-type]
        archive=archive or ArchiveOptions(), headings=headings or Headings(),
        dd=not params.get("no_dd", False),
    )


#: The other modules' commands, in the order listed after ``score``, ``check`` and ``conventions``, each module
#: imported when one of its commands is asked for: ``score`` and ``check`` load none (4 ms of a start).
LAZY_COMMANDS = {"archive": "archive", "config": "config", "event": "event", "movement": "movement",
                 "rubber": "sheets", "chicago": "sheets", "teams": "sheets", "sim": "sim", "swiss": "swiss"}


class Group(click.Group):
    """The command group: the club's configuration file read into every command's defaults before it parses its
    options (``-h`` works when the file is wrong); the commands of :data:`LAZY_COMMANDS` loaded when asked for."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in LAZY_COMMANDS:
            importlib.import_module(f"bridgeproc.cli.{LAZY_COMMANDS[cmd_name]}")
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self.load_all()
        return super().list_commands(ctx)

    def load_all(self) -> None:
        """Every command on the group (their help listed, a configuration file read against them)."""
        for module in dict.fromkeys(LAZY_COMMANDS.values()):
            importlib.import_module(f"bridgeproc.cli.{module}")
        first = [name for name in self.commands if name not in LAZY_COMMANDS]
        self.commands = {name: self.commands[name] for name in [*first, *LAZY_COMMANDS] if name in self.commands}

    def resolve_command(self, ctx: click.Context, args: list[str]):
        name, command, rest = super().resolve_command(ctx, args)
        try:
            _, ctx.meta[IN_FORCE] = load_config(self)
            ctx.default_map = default_map(self, ctx.meta[IN_FORCE])
        except ConfigError as exc:
            if not set(rest) & set(ctx.help_option_names):
                raise SetupProblem(str(exc)) from None
        return name, command, rest

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except click.BadParameter as exc:  # a value from the file: say which file and key
            problem = config_problem(exc, ctx.meta.get(IN_FORCE, {}))
            if problem is None:
                raise
            raise problem from None


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="bridgeproc")
@with_verbosity
def cli() -> None:
    """Score duplicate bridge sessions: travellers and hand records in, rankings out.

    Defaults come from bridgeproc.toml in the working folder and the user's
    ~/.config/bridgeproc/config.toml (see `bridgeproc config`); options beat both.
    """
    from bridgeproc.pipeline.journal import finish_interrupted  # light: no pandas before a help screen

    for note in finish_interrupted():  # a run killed among its renames: finish it before anything else
        say(f"note: {note}")


def stage_log(name: str, seconds: float) -> None:
    say(f"{name}: {seconds:.2f} s", VERBOSE)


@cli.command(cls=Command)
@_input_options
@ranking_options
@click.option("--handicaps", type=click.Path(exists=True, dir_okay=False), default=None,
              help="A players' list of handicaps (CSV: id or name, handicap): a handicapped ranking beside the "
                   "scratch one (see --handicap-style).")
@click.option("--holdings", type=click.Path(exists=True, dir_okay=False), default=None,
              help="A players' list of masterpoint holdings (CSV: id or name, masterpoints): a ranking per "
                   "stratum beside the overall one (see --strata).")
@option(OUTPUTS)("-o", "--output", "outputs", multiple=True, type=click.Path(allow_dash=True),
                 callback=outputs_for(output_types("Session"), stdout=True),
                 help="Output file; the format follows the extension (.xlsx, .pbn, .xml, .csv, .html; results/ "
                      "for the results website as a folder; - for CSV on standard output). Repeat for several "
                      "[default: output in bridgeproc.toml].")
@option(OUTPUTS)("--no-dd", is_flag=True, help="Skip the double-dummy analysis of the hand records.")
@option(OUTPUTS)("--club", default=None, help="Club or venue shown in titles when the input names none (PBN Site).")
@option(OUTPUTS)("--club-id", default=None,
                 help="The club's federation number, written to USEBIO (CLUB_ID_NUMBER) when the input has none.")
@option(ARCHIVE)("--no-archive", is_flag=True, help="Do not store the session in the archive.")
@option(ARCHIVE)("--archive", "archive_url", envvar="BRIDGEPROC_ARCHIVE", default=None,
                 help="Archive: an SQLAlchemy URL or SQLite file [default: $BRIDGEPROC_ARCHIVE, else "
                      "~/.local/share/bridgeproc/archive.sqlite].")
@option(ARCHIVE)("--replace", is_flag=True,
                 help="Archive this run even if it has fewer results, deals, double-dummy tables or names than "
                      "the version it follows.")
@option(ARCHIVE)("--event", default=None, help="Event name for titles and the archive [default: the input's Event].")
@option(ARCHIVE)("--date", default=None, callback=lambda ctx, param, value: iso_date(value),
                 help="Date for titles and the archive, YYYY-MM-DD [default: the input's Date, else today].")
@option(ARCHIVE)("--session-id", default=None, help="Archive as a new version of this session id.")
@option(ARCHIVE)("--comment", default=None, help="A note stored with this archived version (e.g. what was corrected).")
def score(outputs, inputs, no_archive, archive_url, replace, event, date, session_id, comment, club, club_id,
          **params) -> None:
    """Check, score and rank INPUTS, then write every -o OUTPUT.

    INPUTS are any mix of PBN files (deals and/or results), traveller sheets
    (CSV/XLSX), USEBIO XML and Bridgemate .bws files; FILE.xml#N is session N
    of a USEBIO file of several sessions (`bridgeproc event FILE.xml` ranks them all).

    Example:

        bridgeproc score hands.pbn travellers.csv -o results.xlsx -o results.pbn
    """
    from bridgeproc.pipeline.write import process_session
    if not outputs:
        raise click.UsageError("give at least one -o OUTPUT (or output = [...] in bridgeproc.toml)")
    identity = {"event": event, "date": date, "session_id": session_id, "comment": comment}
    headings = {"event": event, "date": date}
    from bridgeproc.model import ArchiveOptions, Headings
    options = run_options(
        params, ArchiveOptions(store=not no_archive, url=archive_url, replace=replace,
                               identity={k: v for k, v in identity.items() if v is not None}),
        Headings(given={k: v for k, v in headings.items() if v is not None},
                 defaults={k: v for k, v in (("site", club), ("club_id", club_id)) if v}))
    with tempfile.TemporaryDirectory(prefix="bridgeproc-") as scratch:
        # -o -: written like any output (all or nothing), then copied to standard output
        piped = Path(scratch) / "results.csv"
        files = [str(piped) if out == STDOUT else out for out in outputs]
        with library_errors(), SolveProgress() as progress:
            # unwatched (-q), DDS gets its largest batches
            session = process_session(list(inputs), files, options, stages=stage_log,
                                      progress=progress if verbosity() >= NORMAL else None)
        if STDOUT in outputs:
            click.echo(piped.read_bytes(), nl=False)  # bytes: written as they are, to the binary stream
    if session.notes is not None and len(session.notes):
        for line in (format_problems if verbosity() >= VERBOSE else summarize_problems)(session.notes):
            say(f"Note: {line}")
    written = ", ".join("standard output" if o == STDOUT else o for o in outputs)
    if len(session.results):
        if session.origin:
            say(session.origin)
        say(f"{len(session.results)} results, {session.results['board'].nunique()} boards; wrote {written}")
    else:
        say(f"hand records of {len(session.boards)} boards (no results, not archived); wrote {written}")
    if session.archived is not None:
        say(f"{session.archived}")


#: The report types of ``check -o`` (from the one output table, ``pipeline.publish.OUTPUTS``).
CHECK_REPORTS = output_types("CheckReport")


@cli.command(cls=Command)
@_input_options
@option(OUTPUTS)("-o", "--output", "reports", multiple=True, type=click.Path(dir_okay=False),
                 callback=outputs_for(CHECK_REPORTS),
                 help="A report of every error, warning and note with its position (.xlsx, .csv, .html), "
                      "written also when there are errors. Repeat for several.")
@option(CHECKS)("--dd/--no-dd", "dd", default=None,
                help="Solve double dummy for the deals given, to warn of results far from it [default: with -o; "
                     "tables in the files are used either way].")
def check(inputs, reports, dd, **params) -> None:
    """Check INPUTS and list every problem; exit 1 if there is any. Never archives.

    Example:

        bridgeproc check hands.pbn travellers.csv -o checks.xlsx
    """
    from bridgeproc.pipeline.run import process_check
    solve = bool(reports) if dd is None else dd
    with library_errors():
        with SolveProgress() as progress:
            report = process_check(list(inputs), list(reports), run_options({**params, "no_dd": not solve}),
                                   progress=progress if verbosity() >= NORMAL else None)
        if reports:
            say(f"wrote {', '.join(reports)}")
        report.raise_errors()
    if verbosity() >= NORMAL:
        click.echo(report.text(every_note=verbosity() >= VERBOSE))


@cli.command(cls=Command)
@_input_options
@option(INPUTS)("--published", type=click.Path(exists=True, dir_okay=False), default=None,
                help="The other program's numbers as a CSV (board, ns, ew and mp_ns, pct_ns or imp_ns), "
                     "for a file that does not carry them.")
def conventions(inputs, published, **params) -> None:
    """Find which of bridgeproc's conventions reproduce the numbers INPUTS publish (board values,
    datums, totals, percentages, places): for a director moving from another program, or
    checking one. Writes nothing; exit 1 if nothing is published.

    Example:

        bridgeproc conventions club-night.usebio.xml
    """
    from bridgeproc.pipeline.fit import describe_conventions  # start-up: only this command needs it
    from bridgeproc.pipeline.read import check_input_files

    with library_errors():
        check_input_files(inputs, params["names"])
        lines = describe_conventions(list(inputs), run_options(params), published=published)
    for line in lines:
        click.echo(line)
