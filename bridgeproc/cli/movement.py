"""``bridgeproc movement``: a movement before play (who sits where, which boards, where to go next)."""
from __future__ import annotations

import click

from bridgeproc.cli.common import VERBOSITY, apply, library_errors, say
from bridgeproc.cli.main import cli, outputs_for
from bridgeproc.pipeline.outputs import output_types


def _rounds_list(ctx, param, value):
    """``--arrow-switch 6-7`` or ``6,7`` -> (6, 7)."""
    if not value:
        return ()
    try:
        parts = [p.strip() for p in value.replace(",", " ").split()]
        rounds: list[int] = []
        for part in parts:
            first, _, last = part.partition("-")
            rounds.extend(range(int(first), int(last or first) + 1))
    except ValueError:
        raise click.BadParameter(f"{value!r}: give rounds such as 6-7 or 6,7") from None
    return tuple(rounds)


_OPTIONS = [
    click.option("--tables", type=click.IntRange(1, 100), required=True, help="Tables in play."),
    click.option("--boards", type=click.IntRange(1, 1000), default=None,
                 help="Boards in play (a multiple of the movement's board sets); or --boards-per-round."),
    click.option("--boards-per-round", type=click.IntRange(1, 100), default=None,
                 help="Boards a table plays a round [default: 2 for a Mitchell or an individual, 3 for a Howell]."),
    click.option("--rounds", type=click.IntRange(1, 100), default=None,
                 help="Rounds to play, fewer than the full movement (a short Howell, a curtailed Mitchell) "
                      "[default: all]."),
    click.option("--sitout", metavar="PAIR", default=None,
                 help="A half table: the pair that is missing, e.g. 7NS or 7EW (a Mitchell), 14 (a Howell); B7NS "
                      "in section B [default: the last section]. The pair it meets each round sits out."),
    click.option("--sections", type=click.IntRange(1, 26), default=1,
                 help="Sections playing the movement, A, B, ... each with its own pairs [default: 1]."),
    click.option("--relay", is_flag=True, default=False,
                 help="An even Mitchell with a relay (tables 1 and the last share boards) and a bye stand, all the "
                      "rounds, instead of a skip after half of them."),
    click.option("--arrow-switch", "arrow_switch", metavar="ROUNDS", default=None, callback=_rounds_list,
                 help="Rounds in which the EW pairs sit NS (a Mitchell), e.g. 6-7."),
    click.option("-o", "--output", "outputs", multiple=True, type=click.Path(),
                 callback=outputs_for(output_types("Movement")),
                 help="Write the movement: movement.csv (section, round, table, ns, ew, boards), entry.xlsx (the "
                      "grid the evening is typed into), cards.html or cards/ (the table cards). Repeat for several."),
    *VERBOSITY,
]


@cli.command()
@click.argument("kind", type=click.Choice(["mitchell", "howell", "individual"]))
@lambda command: apply(_OPTIONS, command)
def movement(kind, tables, boards, boards_per_round, rounds, arrow_switch, sitout, sections, relay, outputs,
             **_) -> None:
    """Compute a KIND movement (mitchell, howell or individual) for the tables in play, and write it.

    Example:

        bridgeproc movement mitchell --tables 7 --boards 28 -o movement.csv
    """
    from bridgeproc.pipeline.movement import process_movement

    with library_errors():
        computed = process_movement(kind, tables, outputs, boards=boards, boards_per_round=boards_per_round,
                                    rounds=rounds, arrow_switch=arrow_switch, sitout=sitout, sections=sections,
                                    relay=relay)
    shared = (f"; {computed.copies} tables share a board set in a round: relay the boards between them, or make "
              f"{computed.copies} copies" if computed.copies > 1 else "")
    say(f"{computed.name}: {computed.boards} boards{shared}" + (f"; wrote {', '.join(outputs)}" if outputs else ""))
