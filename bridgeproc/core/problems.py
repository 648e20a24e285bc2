"""Collecting problems (and warning-level notes) as rows of the problems frame.

Checks hand over a whole-column mask; a message is only built for the rows that
fail, so a clean file costs one mask per check.

Where a problem points: a CSV row is ``file:line``; a spreadsheet row carries the
column letter of every canonical column (``cell_board`` = ``"A"`` ...), so a
problem on column ``board`` of Excel row 7 points at ``file.xlsx!Sheet:A7``.
"""
from __future__ import annotations

from typing import Protocol, Sequence, Union

import numpy as np
import pandas as pd

from bridgeproc.schema import problems_frame

#: The message for a spreadsheet formula cell that has no saved value.
UNCACHED_FORMULA = ("the formula {} has no saved value; open the workbook in Excel (or LibreOffice) and save it, "
                    "or type the value")

EXCEL_ERROR = "the cell shows the Excel error {}; correct its formula or type the value"


class MessageBuilder(Protocol):
    """Builds the texts of the failing positions ``at`` (a callback protocol rather than a
    ``Callable``, so that lambdas binding loop variables as defaults, ``lambda at, s=side: ...``,
    type-check)."""

    def __call__(self, at: np.ndarray, /) -> Sequence[str]: ...


Messages = Union[str, Sequence[str], MessageBuilder]


def cell_label(raw: pd.DataFrame, positions: np.ndarray, column: str) -> list[str]:
    """``line`` text of rows ``positions``: ``B7`` for spreadsheet cells, ``7`` for text lines."""
    lines = raw["line"].iloc[positions]
    letters_column = f"cell_{column}"
    if letters_column in raw:
        letters = raw[letters_column].iloc[positions]
        return [
            f"{letter}{line}" if isinstance(letter, str) else ("" if pd.isna(line) else str(line))
            for letter, line in zip(letters, lines)
        ]
    return ["" if pd.isna(line) else str(line) for line in lines]


class Problems:
    """Accumulates problems about the rows of ``raw`` (which has ``source`` and ``line``)."""

    def __init__(self, raw: pd.DataFrame) -> None:
        self.raw = raw
        self.rows: list[dict] = []
        self._order: list[tuple] = []
        #: Rows with at least one problem (later checks skip them to avoid echoes).
        self.bad = np.zeros(len(raw), dtype=bool)
        #: Column -> rows already reported for that column: one problem per cell, the first wins.
        self.reported: dict[str, np.ndarray] = {}
        #: Rows that are not results at all (a junk or repeated header line): one message, no more.
        self.silenced = np.zeros(len(raw), dtype=bool)

    def __bool__(self) -> bool:
        return bool(self.rows)

    def add(self, mask: np.ndarray, column: str, messages: Messages, values: pd.Series | None = None) -> None:
        """Add one problem per True in ``mask``.

        ``messages`` is one text for all, a per-row sequence, or a callable that takes
        the failing positions and returns their texts (so messages cost nothing when
        every row is fine). ``values`` (default: the raw column) gives the cell shown.
        """
        mask = np.asarray(mask, dtype=bool)
        seen = self.reported.setdefault(column, np.zeros(len(self.raw), dtype=bool))
        positions = np.flatnonzero(mask & ~seen & ~self.silenced)
        if not len(positions):
            return
        seen[positions] = True
        self.bad[positions] = True
        if values is None:
            values = self.raw[column] if column in self.raw else pd.Series([""] * len(self.raw))
        shown = values.iloc[positions]
        sources = self.raw["source"].iloc[positions]
        lines = self.raw["line"].iloc[positions]
        labels = cell_label(self.raw, positions, column)
        if isinstance(messages, str):
            texts: Sequence[str] = [messages] * len(positions)
        elif callable(messages):
            texts = messages(positions)
        else:
            texts = list(np.asarray(messages, dtype=object)[positions])
        merged = self.raw.get(f"merged_{column}")
        if merged is not None:
            ranges = merged.iloc[positions]
            texts = [t if pd.isna(m) else f"{t} (the cell is covered by the merged cells {m}; unmerge them)"
                     for t, m in zip(texts, ranges)]
        for source, line, label, value, message in zip(sources, lines, labels, shown, texts):
            self.rows.append({"source": source, "line": label, "column": column,
                              "value": "" if pd.isna(value) else str(value), "message": message})
            self._order.append((str(source), -1 if pd.isna(line) else int(line)))

    def add_line(self, mask: np.ndarray, column: str, messages: Messages) -> None:
        """One problem for each masked row as a whole (``column`` names the cell shown); no other problem
        is added for those rows."""
        self.add(mask, column, messages)
        self.silenced |= np.asarray(mask, dtype=bool)

    def add_at(self, source, line, column: str, value, message: str) -> None:
        """Add one problem about a row that is not in ``raw`` (e.g. a hand-record line)."""
        self.rows.append({"source": source, "line": "" if pd.isna(line) else str(line), "column": column,
                          "value": "" if pd.isna(value) else str(value), "message": message})
        self._order.append((str(source), -1 if pd.isna(line) else int(line)))

    def add_uncached_formulas(self) -> None:
        """Report ``formula_<column>`` (formulas with no saved value) and ``error_<column>``
        (Excel errors such as ``#REF!``) cells of the raw frame."""
        for prefix, template in (("formula_", UNCACHED_FORMULA), ("error_", EXCEL_ERROR)):
            for name in [c for c in self.raw.columns if c.startswith(prefix)]:
                found = self.raw[name]
                self.add(found.notna().to_numpy(), name[len(prefix):],
                         lambda at, f=found, t=template: [t.format(v) for v in f.iloc[at]], values=found)

    def frame(self) -> pd.DataFrame:
        """The problems so far, by file (in input order), then line (stable within a line)."""
        frame = problems_frame(self.rows)
        if not len(frame):
            return frame
        first_seen = {source: i for i, source in enumerate(pd.unique(self.raw["source"].astype("string")))}
        key = [(first_seen.get(source, len(first_seen)), line) for source, line in self._order]
        order = sorted(range(len(key)), key=lambda i: key[i])
        return frame.iloc[order].reset_index(drop=True)
