"""A board dealt differently in two files: which hand record is right? (The same cards written from
another seat, as BridgeComposer writes from the dealer's, are the same deal.)"""
from __future__ import annotations

import pandas as pd

from bridgeproc.io.pbn.frames import same_deal
from bridgeproc.schema import problems_frame


def deal_conflicts(boards: pd.DataFrame, fix: str) -> pd.DataFrame | None:
    """One problem per file whose deal of a board differs from the first file's (``boards``: rows of the
    files' boards in the order given, with ``source`` and ``line``); ``fix`` ends each message."""
    dealt = boards[boards["deal"].notna()]
    if not len(dealt):
        return None
    counts = dealt.groupby("board")["deal"].nunique()
    rows = []
    for board in counts[counts > 1].index:
        mine = dealt[dealt["board"] == board]
        first = mine.iloc[0]
        for other in mine.iloc[1:].drop_duplicates(subset=["deal", "source"]).itertuples():
            if same_deal(str(first["deal"]), str(other.deal)):
                continue  # the same cards from another seat, or a partial deal
            rows.append({"source": other.source, "line": _line(other.line), "column": "deal", "value": other.deal,
                         "message": f"board {board} is dealt differently in {first['source']} "
                                    f"(line {_line(first['line'])}); {fix}"})
    return problems_frame(rows) if rows else None


def _line(line: object) -> str:
    return "" if line is None or pd.isna(line) else str(line)
