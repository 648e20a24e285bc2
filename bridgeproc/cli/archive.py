"""The archive commands: list, show, export, history, diff, check."""
from __future__ import annotations

import click

from ..errors import BridgeprocError
from .main import _outputs_for, cli


_ARCHIVE_URL = click.option("--archive", "url", envvar="BRIDGEPROC_ARCHIVE", default=None,
                            help="Archive URL or SQLite file [default: ~/.local/share/bridgeproc/archive.sqlite].")


def _archive_call(function, *args, **kwargs):
    from ..archive.db import archive_exists, default_url

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
    from ..archive import list_sessions

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
    from ..archive import show_session

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
    from ..archive import export_session

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
    from ..archive import history

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
    from ..archive import diff

    click.echo(str(_archive_call(diff, url, session_id, v1, v2)))


@archive.command("check")
@_ARCHIVE_URL
@click.option("--deep", is_flag=True, help="Also re-hash every stored version.")
def archive_check(url, deep) -> None:
    """Check the archive's integrity; exit 1 on any problem.

    Example:

        bridgeproc archive check --deep
    """
    from ..archive import check_archive

    problems = _archive_call(check_archive, url, deep)
    if problems:
        raise click.ClickException("\n".join(problems))
    click.echo("archive OK")
