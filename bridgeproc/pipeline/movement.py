"""``bridgeproc movement`` as one call: the movement computed (``bridgeproc.movements``), then every output
published (``pipeline.publish``)."""
from __future__ import annotations

from collections.abc import Sequence

from bridgeproc.errors import UsageError
from bridgeproc.movements import Movement, howell, mitchell
from bridgeproc.pipeline.outputs import output_types
from bridgeproc.pipeline.publish import check_outputs, publish


def build_movement(kind: str, tables: int, boards: int | None = None, boards_per_round: int | None = None,
                   rounds: int | None = None, arrow_switch: Sequence[int] = ()) -> Movement:
    """The movement of ``kind`` (``mitchell`` or ``howell``) for ``tables`` tables; ``boards`` in all or
    ``boards_per_round`` (one of them; two a round for a Mitchell, three for a Howell when neither).
    UsageError for a size or a count of boards that does not divide into the rounds."""
    if boards is not None and boards_per_round is not None:
        raise UsageError("give --boards or --boards-per-round, not both")
    if boards is not None:
        per_set = tables if kind == "mitchell" else 2 * tables - 1  # a Mitchell has a board set at every table
        if boards < per_set or boards % per_set:
            raise UsageError(f"{boards} boards do not divide into the {per_set} board sets of this movement; "
                             f"give a multiple of {per_set}, or --boards-per-round")
        boards_per_round = boards // per_set
    try:
        if kind == "mitchell":
            return mitchell(tables, boards_per_round or 2, rounds, arrow_switch)
        if rounds is not None or arrow_switch:
            raise UsageError("a complete Howell plays all its rounds, NS and EW as it seats them: "
                             "--rounds and --arrow-switch are for a Mitchell")
        return howell(tables, boards_per_round or 3)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def process_movement(kind: str, tables: int, outputs: Sequence = (), **options) -> Movement:
    """Compute the movement (:func:`build_movement`) and write it to every output, all or nothing; the
    outputs are refused before any work when they cannot be right."""
    check_outputs(outputs, output_types(Movement))
    movement = build_movement(kind, tables, **options)
    publish(movement, outputs)
    return movement
