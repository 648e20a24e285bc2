"""The archive commands: list, show, export, history, ladder, rescore, diff, check."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from bridgeproc.cli.common import library_errors, say, with_verbosity
from bridgeproc.cli.main import cli, convention_overrides, outputs_for, ranking_options
from bridgeproc.pipeline.outputs import output_types

if TYPE_CHECKING:
    import pandas as pd

#: Numbers in --csv listings for scripts: every digit that carries the value (15 significant),
#: none of binary float noise (0.30000000000000004 is written 0.3).
SCRIPT_FLOATS = "%.15g"

_ARCHIVE_URL = click.option("--archive", "url", envvar="BRIDGEPROC_ARCHIVE", default=None,
                            help="Archive URL or SQLite file [default: ~/.local/share/bridgeproc/archive.sqlite].")


def _archive_call(name: str, *args, **kwargs):
    """Call ``bridgeproc.archive.<name>`` (imported here: other commands start without SQLAlchemy)."""
    from bridgeproc import archive as store
    from bridgeproc.pipeline import export_session, season

    special: dict[str, Callable] = {"export_session": export_session, "process_ladder": season.process_ladder,
                                    "process_rescore": season.process_rescore, "process_ratings": season.process_ratings,
                                    "process_club_site": season.process_club_site,
                                    "process_profile": season.process_profile}
    function = special.get(name) or getattr(store, name)
    archive_exists, default_url = store.archive_exists, store.default_url
    with library_errors():
        if not archive_exists(args[0]):
            raise click.ClickException(f"no archive at {args[0] or default_url()} yet; "
                                       "bridgeproc score archives every session it scores")
        return function(*args, **kwargs)


#: ``--csv`` / ``--json`` for scripts; without them, a table for a person.
_FORMAT = [
    click.option("--csv", "fmt", flag_value="csv", help="Write CSV (full precision) for scripts."),
    click.option("--json", "fmt", flag_value="json", help="Write JSON records (null for no value) for scripts."),
]


def _formats(command):
    return with_verbosity(_FORMAT[0](_FORMAT[1](command)))


def table_text(frame: pd.DataFrame) -> str:
    """A table for a person: numbers to two decimals, whole numbers as such, no NaN."""
    import pandas as pd
    def number(value: float) -> str:
        return f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}"

    shown = pd.DataFrame({
        column: [("" if pd.isna(v) else number(v) if values.dtype == "float64" else str(v)) for v in values]
        for column, values in frame.items()})
    return shown.to_string(index=False)


def emit(frame: pd.DataFrame, fmt: str | None, nothing: str | None = None) -> None:
    """Print ``frame`` as a table, CSV or JSON. ``nothing``: what to say on standard error when it
    is empty; the command then exits 1 (a search that found nothing, as grep does)."""
    if not len(frame) and nothing is not None:
        raise click.ClickException(nothing)
    if fmt == "csv":
        from bridgeproc.report.csv_files import csv_text

        click.echo(csv_text(frame, SCRIPT_FLOATS, shown=False), nl=False)
    elif fmt == "json":
        click.echo(frame.to_json(orient="records", force_ascii=False, indent=1))
    else:
        click.echo(table_text(frame))


@cli.group()
@with_verbosity
def archive() -> None:
    """Archived sessions: list, show, export, history, ladder, diff, check."""


@archive.command("list")
@_ARCHIVE_URL
@_formats
def archive_list(url, fmt) -> None:
    """List the archived sessions.

    Example:

        bridgeproc archive list
    """
    sessions = _archive_call("list_sessions", url)
    if not len(sessions) and fmt is None:
        click.echo("no sessions archived yet", err=True)
        return
    emit(sessions, fmt)


@archive.command("show")
@_ARCHIVE_URL
@click.argument("session_id")
@click.option("--version", type=click.IntRange(1), default=None, help="Version [default: the latest].")
@_formats
def archive_show(url, session_id, version, fmt) -> None:
    """Show SESSION_ID's versions and the standings of one (a teams session's matches too).

    With --csv or --json, the standings only.

    Example:

        bridgeproc archive show 2026-11-24_tuesday-pairs --version 1
    """
    view = _archive_call("show_session", url, session_id, version)
    if fmt is not None:
        emit(view.standings, fmt)
        return
    click.echo("\n".join(view.heading) + "\n\nversions:")
    emit(view.versions.drop(columns="content_hash"), None)
    for title, table in view.tables.items():
        click.echo(f"\n{title}:")
        emit(table, None)


@archive.command("export")
@with_verbosity
@_ARCHIVE_URL
@click.argument("session_id")
@click.option("-o", "--output", "outputs", multiple=True, required=True, type=click.Path(),
              callback=outputs_for(output_types("Session")),
              help="Output file (.xlsx, .pbn, .csv, .xml, .html, or results/ for the website). Repeat for several.")
@click.option("--version", type=click.IntRange(1), default=None, help="Version [default: the latest].")
def archive_export(url, session_id, outputs, version) -> None:
    """Write an archived session again, without the original files.

    Example:

        bridgeproc archive export 2026-11-24_tuesday-pairs -o again.xlsx
    """
    _archive_call("export_session", url, session_id, list(outputs), version)
    say(f"wrote {', '.join(outputs)}")


_FOLD = click.option("--fold-accents", is_flag=True,
                     help="Match names regardless of accents too (Åse = Ase); by default å, ä, ö, é ... count.")


def _say_matches(lines) -> None:
    """The players taken as one (and the notes of a ladder), on standard error."""
    for line in lines:
        say(line)


@archive.command("history")
@_ARCHIVE_URL
@click.argument("player_or_pair")
@click.option("--all-versions", is_flag=True, help="Every archived version, not only the latest of each session.")
@_FOLD
@_formats
def archive_history(url, player_or_pair, all_versions, fold_accents, fmt) -> None:
    """A player's or pair's results across the archived sessions.

    A player is found by member id where the names list gave one, else by name in any case, word
    order and spacing ("Strand, Anna" finds "anna strand"); the spellings taken as one are listed.

    Example:

        bridgeproc archive history "Anna Strand"
    """
    found = _archive_call("history", url, player_or_pair, all_versions, fold_accents)
    _say_matches(found.matches)
    emit(found.table, fmt, nothing=f"no archived results for {player_or_pair!r}; names are matched in any case, word "
                            "order and spacing, accents count unless --fold-accents (bridgeproc archive list "
                            "shows the sessions)")


def _iso_day(ctx, param, value):
    return value.strftime("%Y-%m-%d") if value is not None else None


def _season_dates(command):
    """``--from`` and ``--to``: the season's first and last dates (ISO), both included; --from after --to
    is a usage error."""
    def check(ctx, param, value):
        day = _iso_day(ctx, param, value)
        first = ctx.params.get("date_from")
        if param.name == "date_to" and first and day and first > day:
            raise click.BadParameter(f"--from {first} is after --to {day}", param_hint="--from/--to")
        return day
    command = click.option("--to", "date_to", type=click.DateTime(["%Y-%m-%d"]), callback=check,
                           help="Last date (yyyy-mm-dd), included.")(command)
    return click.option("--from", "date_from", type=click.DateTime(["%Y-%m-%d"]), callback=check, is_eager=True,
                        help="First date (yyyy-mm-dd), included.")(command)


@archive.command("ladder")
@_ARCHIVE_URL
@_season_dates
@click.option("--event", default=None, help="Only sessions whose archived event name holds this (any case).")
@click.option("--best", type=click.IntRange(1), default=None,
              help="Average the best N session percentages of each [default: every one].")
@click.option("--min-sessions", type=click.IntRange(1), default=1, show_default=True,
              help="Sessions needed to be ranked; those with fewer are listed unranked.")
@click.option("--by", type=click.Choice(["pair", "player"]), default="pair", show_default=True,
              help="A ladder of partnerships or of players.")
@_FOLD
@click.option("-o", "--output", "outputs", multiple=True, type=click.Path(),
              callback=outputs_for(output_types("Ladder")),
              help="Also write the ladder to a file (.csv, .xlsx or .html, a page of its own). Repeat for several.")
@_formats
def archive_ladder(url, date_from, date_to, event, best, min_sessions, by, fold_accents, outputs, fmt) -> None:
    """Rank the pairs (or players) of a season by their average session percentage.

    The sessions are the latest versions from --from to --to and/or of --event; players are
    matched as in `archive history`, and the merges it made are listed, with every row left out.

    Example:

        bridgeproc archive ladder --from 2026-09-01 --to 2026-12-31 --best 8 --min-sessions 5 -o ladder.xlsx
    """
    with library_errors():
        ranked = _archive_call("process_ladder", url, list(outputs), date_from=date_from, date_to=date_to,
                               event=event, best=best, min_sessions=min_sessions, by=by, fold_accents=fold_accents)
    say(f"ladder: {ranked.span}; {ranked.rule}")
    _say_matches(ranked.notes)
    emit(ranked.table, fmt, nothing=f"no archived session with percentages for {ranked.span} (bridgeproc archive "
                                    "list shows the sessions)")
    if outputs:
        say(f"wrote {', '.join(outputs)}")


@archive.command("ratings")
@_ARCHIVE_URL
@_season_dates
@click.option("--player", default=None, help="List this player's changes, each explained (any part of the name).")
@_FOLD
@click.option("-o", "--output", "outputs", multiple=True, type=click.Path(),
              callback=outputs_for(output_types("Ratings")),
              help="Also write the ratings to a file (.csv: name, id, handicap first, so score --handicaps reads "
                   "it as a players' list).")
@_formats
def archive_ratings(url, date_from, date_to, player, fold_accents, outputs, fmt) -> None:
    """Rate every archived player from their session percentages, session by session (the model: README,
    Ratings): each player's rating in percentage points above the average player, and the last change
    explained ("+0.4: 58.0 % against an expected 54.0 % (k 0.15)").

    Example:

        bridgeproc archive ratings --from 2026-01-01 --player Strand -o ratings.csv
    """
    with library_errors():
        rated = _archive_call("process_ratings", url, list(outputs), date_from=date_from, date_to=date_to,
                              fold_accents=fold_accents)
    say(f"ratings: {rated.sessions} session(s), {len(rated.table)} player(s)")
    _say_matches(rated.notes)
    if player:
        wanted = " ".join(player.split()).casefold()
        mine = rated.changes[rated.changes["name"].fillna("").str.casefold().str.contains(wanted, regex=False)]
        emit(mine, fmt, nothing=f"no archived player's name holds {player!r}")
    else:
        emit(rated.table, fmt, nothing="no archived pairs session with percentages to rate")
    if outputs:
        say(f"wrote {', '.join(outputs)}")


@archive.command("profile")
@_ARCHIVE_URL
@click.argument("player", required=False)
@_season_dates
@_FOLD
@click.option("-o", "--output", "outputs", multiple=True, type=click.Path(),
              callback=outputs_for(output_types("Profile")),
              help="Also write every player's figures to a file (.csv). Repeat for several.")
@_formats
def archive_profile(url, player, date_from, date_to, fold_accents, outputs, fmt) -> None:
    """Measure the archive's players against double dummy: as declarer (tricks above double dummy, beside
    the other declarers of the same boards in that strain and seat) and on opening lead (what the lead cost
    against the best lead, in suit and in notrump contracts, beside the club), each with its sample and a
    95 % interval, and nothing where the sample is too small. With PLAYER (any part of a name), that
    player's figures in words.

    Example:

        bridgeproc archive profile "Anna Strand" --from 2026-01-01
    """
    from bridgeproc.analysis.profile import profile_words

    with library_errors():
        measured = _archive_call("process_profile", url, list(outputs), date_from=date_from, date_to=date_to,
                                 fold_accents=fold_accents)
    say(f"profile: {measured.results} result(s) with their deals, {len(measured.table)} player(s)")
    for note in measured.notes:
        say(f"Note: {note}")
    table = measured.table
    if player:
        wanted = " ".join(player.split()).casefold()
        table = table[table["name"].fillna("").str.casefold().str.contains(wanted, regex=False)]
        if fmt is None and len(table):
            for row in table.to_dict("records"):
                click.echo(f"{row['name']} ({row['sessions']} session(s)):")
                for line in profile_words(row):
                    click.echo(f"  {line}")
            return
    emit(table, fmt, nothing=f"no archived player's name holds {player!r}" if player
         else "no archived pairs session with deals and results to measure")
    if outputs:
        say(f"wrote {', '.join(outputs)}")


@archive.command("site")
@with_verbosity
@_ARCHIVE_URL
@_season_dates
@click.option("--event", default=None, help="Only sessions whose archived event name holds this (any case).")
@click.option("--title", default="Results", show_default=True, help="The site's title, e.g. the club's name.")
@click.option("--no-profile", "no_profile", is_flag=True,
              help="Leave the players' play against double dummy (archive profile) off their pages.")
@_FOLD
@click.option("-o", "--output", "outputs", multiple=True, required=True, type=click.Path(),
              callback=outputs_for(output_types("ClubSite")),
              help="The site's folder, ending in a slash (site/); written again, it keeps what has not changed.")
def archive_site(url, date_from, date_to, event, title, no_profile, fold_accents, outputs) -> None:
    """Write the club's results website from the archive: every evening (newest first) with its own pages,
    what each correction changed, the season's ladder and a page per player.

    Run again after another evening, it rewrites only the pages that changed, and says how many.

    Example:

        bridgeproc archive site --from 2026-09-01 --title "Nesodden BK" -o site/
    """
    with library_errors():
        written = _archive_call("process_club_site", url, list(outputs), date_from=date_from, date_to=date_to,
                                event=event, title=title, fold_accents=fold_accents, with_profile=not no_profile)
    club = written.club
    players = club.players["key"].nunique()
    say(f"club site: {len(club.evenings)} evening(s), {players} player(s), {club.span}")
    _say_matches(club.ladder.notes)
    removed = f", {len(written.removed)} removed" if written.removed else ""
    say(f"wrote {outputs[0]}: {len(written.rewritten)} page(s) rewritten, {written.kept} unchanged{removed}")


@archive.command("rescore")
@_ARCHIVE_URL
@click.argument("session_ids", nargs=-1)
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False), default=None,
              help="Write the new standings beside the archived ones as CSV (- for standard output).")
@ranking_options
@_formats
def archive_rescore(url, session_ids, output, fmt, **params) -> None:
    """Re-score every archived session (or SESSION_IDS) under other conventions, as a "what if": each
    pair's new rank, total and percentage beside the archived ones. Nothing in the archive changes.

    Example: bridgeproc archive rescore --method cross-imp -o what-if.csv
    """
    from bridgeproc.rank import profile
    from bridgeproc.rank.conventions import EXACT, Conventions
    from bridgeproc.rank.reproduce import option_flags

    base = profile(params["profile"]) if params.get("profile") else Conventions()
    conventions = base.replace(**{k: None if v == EXACT else v for k, v in convention_overrides(params).items()})
    to_file = [output] if output and output != "-" else []
    rescored = _archive_call("process_rescore", url, conventions, list(session_ids) or None, to_file)
    table, skipped = rescored.table, rescored.skipped
    moved = int((table["rank"].astype("string") != table["was_rank"].astype("string")).sum()) if len(table) else 0
    flags = option_flags(conventions)
    say(f"rescored {table['session_id'].nunique()} session(s) under {' '.join(flags) or 'the defaults'}: "
        f"{moved} pair(s) change rank")
    for sid, why in (skipped.items() if isinstance(skipped, dict) else ((s, "") for s in skipped)):
        say(f"left out: {sid}{': ' + why if why else ''}")
    if to_file:
        return
    if output == "-":
        fmt = "csv"
    emit(table, fmt, nothing="no pairs session in the archive to re-score")


@archive.command("diff")
@with_verbosity
@_ARCHIVE_URL
@click.argument("session_id")
@click.argument("v1", type=click.IntRange(1), required=False)
@click.argument("v2", type=click.IntRange(1), required=False)
@click.option("--from", "from_", type=click.IntRange(1), default=None,
              help="The earlier version (as V1) [default: the one before the later].")
@click.option("--to", type=click.IntRange(1), default=None, help="The later version (as V2) [default: the latest].")
def archive_diff(url, session_id, v1, v2, from_, to) -> None:
    """What changed between two versions of SESSION_ID [default: the last two].

    A pairs session: its results and standings; a teams session: its table results, the
    board and match IMPs and VPs that moved and the teams' ranks.

    Examples:

        bridgeproc archive diff 2026-11-24_tuesday-pairs 1 2

        bridgeproc archive diff 2021-08-23_ebl-qualifier --from 1 --to 2
    """
    for given, option, name in ((v1, from_, "--from"), (v2, to, "--to")):
        if given is not None and option is not None and given != option:
            raise click.BadParameter(f"version {given} and {name} {option}: give the version once",
                                     param_hint=f"V{1 if name == '--from' else 2}/{name}")
    click.echo(str(_archive_call("diff", url, session_id, from_ if v1 is None else v1, to if v2 is None else v2)))


@archive.command("check")
@with_verbosity
@_ARCHIVE_URL
@click.option("--deep", is_flag=True, help="Also re-hash every stored version.")
def archive_check(url, deep) -> None:
    """Check the archive's integrity; exit 1 on any problem.

    Example:

        bridgeproc archive check --deep
    """
    problems = _archive_call("check_archive", url, deep)
    if problems:
        raise click.ClickException("\n".join(problems))
    click.echo("archive OK")
