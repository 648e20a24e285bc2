"""The ``swiss`` command: a Swiss event (pairs or teams) scored so far, or its next round drawn."""
from __future__ import annotations

import click

from bridgeproc.cli.common import library_errors, say, with_verbosity
from bridgeproc.cli.main import check_encoding, cli

_DRAW_RULES = """\b
The draw (--next-round):
  1. Entries in standings order: VPs, then the tie-breaks; equal VPs
     form a score group, an odd one out floats down to the next group.
  2. Odd field: the bye goes to the lowest-placed entry without one
     (moved up only if that avoids a rematch among the others).
  3. Top-down: the best-placed unpaired entry meets the best-placed
     entry it has not met, as long as the rest can still be drawn
     without a rematch (backtracking, not greedy).
  4. A rematch only when no draw of the field avoids one, then the
     fewest possible, each named in the draw's note.
  5. The better-placed entry sits NS (pairs) or is home (teams)."""


def _suffix(ctx, param, values):
    for value in values:
        if not value.lower().endswith((".csv", ".xlsx")):
            raise click.BadParameter(f"{value}: write .csv or .xlsx")
    return values


@cli.command(epilog=_DRAW_RULES)
@click.argument("inputs", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--pairs/--teams", "pairs", default=True, show_default=True,
              help="Swiss pairs (pair travellers, IMPs per board) or Swiss teams (as `bridgeproc teams` reads).")
@click.option("-o", "--output", "outputs", multiple=True, type=click.Path(dir_okay=False), callback=_suffix,
              help="Write the standings (or, with --next-round, the draw) as .csv or .xlsx. Repeat for several.")
@click.option("--next-round", is_flag=True, help="Draw the next round (the rules below) instead of the standings.")
@click.option("--imps", type=click.Choice(["datum", "cross"]), default="datum", show_default=True,
              help="Pairs: each board IMPed against the field's datum, or cross-IMPs averaged per comparison.")
@click.option("--datum-drop", type=click.IntRange(0), default=None,
              help="Pairs: results left out at each end of the datum [default: 1].")
@click.option("--boards-per-round", type=click.IntRange(1), default=None,
              help="Pairs: boards 1..N are round 1, N+1..2N round 2 ... (when the travellers have no Round column).")
@click.option("--vp-scale", "scale", default=None, help="wbf2013 (default: WBF 2013 continuous 20-VP) or a VP table CSV.")
@click.option("--boards-per-match", type=click.IntRange(1), default=None,
              help="Match length for the VP scale [default: the boards of the round].")
@click.option("--bye-vp", type=click.FloatRange(0, 100), default=12.0, show_default=True,
              help="VPs for a bye.")
@click.option("--lineup", type=click.Path(exists=True, dir_okay=False), help="Teams: which pair of which team sat where.")
@click.option("--encoding", default=None, callback=check_encoding, help="Text encoding of CSV/PBN inputs (default: detect).")
@with_verbosity
def swiss(inputs, pairs, outputs, next_round, imps, datum_drop, boards_per_round, scale, boards_per_match,
          bye_vp, lineup, encoding) -> None:
    """Score a Swiss event so far, or draw its next round.

    Pairs: ordinary pair travellers (CSV/XLSX/PBN as `bridgeproc score` reads them) with a
    Round column, or --boards-per-round. Each pair meets one pair per round; its IMPs on
    the boards of the match (against the field's datum, or cross-IMPs) go to VPs.

    Examples:

        bridgeproc swiss travellers.csv -o standings.csv

        bridgeproc swiss travellers.csv --next-round -o draw.csv

        bridgeproc swiss --teams rounds.pbn --next-round -o draw.xlsx
    """
    from bridgeproc.pipeline.swiss import process_swiss  # the writers only for this command
    from bridgeproc.teams import options_from_text, vp_scale
    from bridgeproc.teams.swiss_pairs import SwissPairsOptions

    with library_errors():
        conventions = SwissPairsOptions().conventions
        if datum_drop is not None:
            conventions = conventions.replace(datum_drop=datum_drop)
        pairs_options = SwissPairsOptions(imps=imps, scale=vp_scale(scale), boards_per_match=boards_per_match,
                                          boards_per_round=boards_per_round, bye_vp=bye_vp, conventions=conventions)
        teams_options = options_from_text(format="swiss", vp_scale_spec=scale, boards_per_match=boards_per_match)
        run = process_swiss(list(inputs), list(outputs), teams=not pairs, next_round=next_round,
                            pairs_options=pairs_options, teams_options=teams_options, lineup=lineup,
                            encoding=encoding)
    for note in run.notes:
        say(f"Note: {note}")
    shown = run.written
    click.echo(shown.astype(object).where(shown.notna().to_numpy(), "").to_string(index=False))
    what = f"round {run.rounds + 1} drawn" if next_round else f"standings after round {run.rounds}"
    say(f"{what}{'; wrote ' + ', '.join(outputs) if outputs else ''}")

