"""``bridgeproc movement`` as one call: the movement computed (``bridgeproc.movements``), then every output
published (``pipeline.publish``)."""
from __future__ import annotations

from collections.abc import Sequence

from bridgeproc.errors import UsageError
from bridgeproc.movements import Movement, howell, in_sections, individual, missing_pair, mitchell, with_sitout
from bridgeproc.pipeline.outputs import output_types
from bridgeproc.pipeline.publish import check_outputs, publish


def build_movement(kind: str, tables: int, boards: int | None = None, boards_per_round: int | None = None,
                   rounds: int | None = None, arrow_switch: Sequence[int] = (), sitout: str | None = None,
                   sections: int = 1, relay: bool = False) -> Movement:
    """The movement of ``kind`` (``mitchell``, ``howell`` or ``individual``) for ``tables`` tables; ``boards`` in all or
    ``boards_per_round`` (one of them; two a round for a Mitchell or an individual, three for a Howell when neither); a Howell
    of fewer ``rounds`` is a short one; an even Mitchell with a ``relay`` and a bye stand instead of a skip;
    ``sections`` copies of it; ``sitout`` the pair missing (``7NS``, ``14``; ``B7NS`` in section B, else the
    last section). UsageError for a size or a count of boards that does not divide into the rounds."""
    if boards is not None and boards_per_round is not None:
        raise UsageError("give --boards or --boards-per-round, not both")
    if kind != "mitchell" and (arrow_switch or relay):
        raise UsageError(f"a{'n' if kind == 'individual' else ''} {kind.capitalize()} seats its players NS and EW as "
                         "it moves them: --arrow-switch and --relay are for a Mitchell")
    if kind == "individual" and (sitout or sections > 1):
        raise UsageError("an individual is played by 4 players a table in one section: --sitout and --sections are "
                         "for a pairs movement")
    try:
        if boards is not None:
            # a board set at every table of a Mitchell (a full one); a Howell's and an individual's sets are
            # its rounds' sets
            per_set = (mitchell(tables, 2, even="relay" if relay else "skip") if kind == "mitchell"
                       else howell(tables, 1, rounds) if kind == "howell" else individual(tables, 1, rounds)).board_sets
            if boards < per_set or boards % per_set:
                raise UsageError(f"{boards} boards do not divide into the {per_set} board sets of this movement; "
                                 f"give a multiple of {per_set}, or --boards-per-round")
            boards_per_round = boards // per_set
        movement = (mitchell(tables, boards_per_round or 2, rounds, arrow_switch, even="relay" if relay else "skip")
                    if kind == "mitchell" else howell(tables, boards_per_round or 3, rounds) if kind == "howell"
                    else individual(tables, boards_per_round or 2, rounds))
        movement = in_sections(movement, sections)
        if sitout:
            text = sitout.strip()
            section = text[0].upper() if sections > 1 and text[:1].isalpha() and text[:2].upper() not in ("NS", "EW") \
                else None
            pair, side = missing_pair(text[1:] if section else text, movement.numbering)
            movement = with_sitout(movement, pair, side, section)
        return movement
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def process_movement(kind: str, tables: int, outputs: Sequence = (), **options) -> Movement:
    """Compute the movement (:func:`build_movement`) and write it to every output, all or nothing; the
    outputs are refused before any work when they cannot be right."""
    check_outputs(outputs, output_types(Movement))
    movement = build_movement(kind, tables, **options)
    publish(movement, outputs)
    return movement
