"""What a rubber or Chicago run produces: the ``ScoreSheet``, its running score with a title (frozen, no I/O)."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd


@dataclass(frozen=True)
class ScoreSheet:
    """A scored rubber-bridge or Chicago sheet: ``table`` one row per deal (``rubber.rubber``,
    ``rubber.chicago``) and the ``title`` its workbook shows."""

    table: pd.DataFrame
    title: str = "Score sheet"
