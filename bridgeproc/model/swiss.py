"""What a Swiss run produces: ``SwissRun``, the standings so far and the next round's draw (frozen, no I/O)."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd


@dataclass(frozen=True)
class SwissRun:
    """What ``bridgeproc swiss`` produced: the standings, the next round's draw (when asked), notes."""

    standings: pd.DataFrame
    draw: pd.DataFrame | None
    rounds: int
    notes: tuple[str, ...] = ()
    #: The workbook's title.
    title: str = "Swiss"

    @property
    def written(self) -> pd.DataFrame:
        """The frame the outputs carry: the draw when one was made, else the standings."""
        return self.draw if self.draw is not None else self.standings
