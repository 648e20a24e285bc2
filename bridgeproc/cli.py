"""The command line: a thin click layer over bridgeproc's library calls."""
from __future__ import annotations

import click

from . import __version__
from .errors import BridgeprocError
from .session import Options, process_session


@click.group()
@click.version_option(__version__, prog_name="bridgeproc")
def cli() -> None:
    """Score duplicate bridge sessions: travellers and hand records in, rankings out."""


@cli.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--output", "outputs", multiple=True, required=True, type=click.Path(dir_okay=False),
              help="Output file; the format follows the extension (.csv). Repeat for several.")
@click.option("--result-style", type=click.Choice(["auto", "tricks", "relative"]), default="auto", show_default=True,
              help="How a bare number in the result column is read: auto treats it as tricks taken.")
@click.option("--encoding", default=None, help="Text encoding of CSV inputs (default: detect UTF-8/UTF-16, else Windows-1252).")
@click.option("--pair-numbering", type=click.Choice(["auto", "shared", "per-direction"]), default="auto",
              show_default=True, help="Whether NS 1 and EW 1 are one pair (shared) or two (per-direction Mitchell).")
@click.option("--no-score-check", is_flag=True, help="Do not compare written scores with contract and result.")
def score(inputs, outputs, result_style, encoding, pair_numbering, no_score_check) -> None:
    """Check and score INPUTS, then write every -o OUTPUT.

    Example:

        bridgeproc score travellers.csv -o scored.csv
    """
    options = Options(result_style=result_style, encoding=encoding, check_scores=not no_score_check,
                      pair_numbering=pair_numbering)
    try:
        session = process_session(list(inputs), list(outputs), options)
    except BridgeprocError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"{len(session.results)} results scored; wrote {', '.join(outputs)}", err=True)
