"""``bridgeproc rubber`` and ``bridgeproc chicago`` as one call each: the sheet scored, then every output
published (``pipeline.publish``)."""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd

from bridgeproc.model import ScoreSheet
from bridgeproc.pipeline.outputs import output_types
from bridgeproc.pipeline.publish import check_outputs, publish
from bridgeproc.rubber.chicago import chicago_sheet
from bridgeproc.rubber.rubber import rubber_sheet

#: The scorer and the title of each kind of score sheet.
SHEETS: dict[str, tuple[Callable[..., pd.DataFrame], str]] = {"rubber": (rubber_sheet, "Rubber bridge"),
                                                               "chicago": (chicago_sheet, "Chicago")}


def process_sheet(kind: str, sheet: str | os.PathLike, outputs: Sequence = (), **options) -> ScoreSheet:
    """Score the rubber or Chicago ``sheet`` (``options`` as :func:`rubber_sheet` / :func:`chicago_sheet`
    take them) and write it to every output (``.csv``, ``.xlsx``), all or nothing.

    Raises UsageError for an output that cannot be right (before any work), BridgeprocError for a bad sheet
    (nothing is written)."""
    score, title = SHEETS[kind]
    reads = [p for p in (options.get("targets"),) if p]
    check_outputs(outputs, output_types(ScoreSheet), [sheet, *reads])
    result = ScoreSheet(score(sheet, **options), f"{title}: {Path(sheet).name}")
    publish(result, outputs)
    return result
