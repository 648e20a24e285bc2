"""A session's typed results scored: Law 77 for every played contract (``law77.score``), then each weighted
score's parts on its board's vulnerability (``weighted.score_weighted``). What a run calls between the two
halves of validation (``validate.results``)."""
from __future__ import annotations

import pandas as pd

from bridgeproc.scoring.law77 import score
from bridgeproc.scoring.weighted import score_weighted


def score_results(results: pd.DataFrame, boards: pd.DataFrame | None = None) -> pd.DataFrame:
    """``results`` (schema.RESULTS_COLUMNS, typed) with ``score_ns``; ``boards`` (the hand record) gives the
    vulnerability of each board (None: from the board number)."""
    return score_weighted(score(results, boards), boards)
