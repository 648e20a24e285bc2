"""What a check run produces: the ``CheckReport`` (frozen, no I/O), for the terminal and the report a
director keeps."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from bridgeproc.errors import BridgeprocError, format_problems, summarize_problems
from bridgeproc.schema import PROBLEM_COLUMNS


@dataclass(frozen=True)
class CheckReport:
    """What ``check`` found in its inputs, for the terminal and for a report a director keeps:
    ``errors`` (``schema.PROBLEM_COLUMNS``, empty when the inputs can be scored), ``warnings``
    (``kind`` -- ``warning`` for what is only suspicious, ``note`` for what was read with a note --
    then the problem columns, in the order the checks found them), ``summary`` (the first line the
    terminal shows, likely causes of many errors after it), the checked ``results`` (None when
    refused) and the ``inputs`` as given."""

    summary: str
    errors: pd.DataFrame
    warnings: pd.DataFrame
    results: pd.DataFrame | None = None
    inputs: tuple[str, ...] = ()
    #: The error as raised (a ValidationError with every problem, a ParseError), for :meth:`raise_errors`.
    failure: BridgeprocError | None = None

    @property
    def ok(self) -> bool:
        """True when nothing refuses the inputs (warnings and notes never do)."""
        return self.failure is None

    def raise_errors(self) -> None:
        """Raise the error that refuses the inputs, as reading and checking raised it; nothing when ok."""
        if self.failure is not None:
            raise self.failure

    def text(self, every_note: bool = False) -> str:
        """The summary, then every note and warning (grouped by cause unless ``every_note``)."""
        return with_notes(self.summary, [self.warnings[list(PROBLEM_COLUMNS)]], every_note)


def with_notes(summary: str, frames: list, every_note: bool) -> str:
    """The summary, then every note and warning (grouped by cause unless ``every_note``)."""
    found = [n for n in frames if n is not None and len(n)]
    if not found:
        return summary
    warnings = pd.concat(found, ignore_index=True)
    notes = format_problems(warnings) if every_note else summarize_problems(warnings)
    return summary + "".join(f"\nNote: {line}" for line in notes)
