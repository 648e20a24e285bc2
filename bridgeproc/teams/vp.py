"""Victory points: the WBF 2013 continuous 20-VP scale, and custom tables from CSV.

WBF 2013 continuous scale (reference section 6.1), for a match of ``N`` boards and
an IMP margin ``M >= 0``::

    tau = (sqrt(5) - 1) / 2,  B = 15 * sqrt(N)       (the blitz margin)
    winner = 20                                        if M >= B
           = 10 + 10 * (1 - tau ** (3M / B)) / (1 - tau ** 3)   otherwise
    loser  = 20 - winner

Each value is rounded to 2 decimals half-up (``Decimal``, not banker's ``round``),
then the concavity correction is run over the integer margins 0, 1, 2, ...: while
some ``v[i+1] - v[i] > v[i] - v[i-1]``, add 0.01 to ``v[i]``. With it the scale
equals the official WBF/Danish tables cell for cell (8 boards, 40 IMPs: 19.74).

VPs are kept in integer hundredths inside, so winner + loser is exactly 20.00.

Fractional margins (carry-over such as 4.5, averaged adjustments) are a bridgeproc
convention, as WBF tables list whole IMPs only: the winner's VP is interpolated
linearly between the corrected values of the two neighbouring whole margins and
rounded half-up to 0.01.

Custom tables: a CSV file (comma or semicolon) with a header naming ``margin`` (the
smallest IMP margin of the band; aliases ``imps``, ``from``, ``min``), ``winner``
(aliases ``vp``, ``vp_winner``, ``vp_win``) and optionally ``loser`` (``vp_loser``)
and ``boards`` (the match length the row applies to; rows without it apply to
every length). Without ``loser`` the loser gets ``2 x winner(0) - winner`` (a 20-VP
table has 10-10 at margin 0). Example::

    margin,winner,loser
    0,10,10
    3,11,9
    ...
"""
from __future__ import annotations

import csv
import io
import math
import os
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

import numpy as np

from bridgeproc.errors import BridgeprocError, ParseError
from bridgeproc.io.text import csv_field_limit, read_text

#: tau = (sqrt 5 - 1)/2, the golden-ratio constant of the WBF 2013 scale.
TAU = (math.sqrt(5.0) - 1.0) / 2.0
#: Blitz factor: the winner gets all 20 VP at an IMP margin of 15 * sqrt(boards).
BLITZ_FACTOR = 15.0
#: VPs shared by the two teams on the WBF scales.
WBF_TOTAL = 20.0


def _half_up(value: float) -> int:
    """``value`` rounded to hundredths, halves up, as an integer number of hundredths."""
    return int(Decimal(value).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP) * 100)


def _concave(v: list[int]) -> list[int]:
    """The WBF report's correction pass: raise v[i] by 0.01 while a step exceeds the one before."""
    changed = True
    while changed:
        changed = False
        for i in range(1, len(v) - 1):
            if v[i + 1] - v[i] > v[i] - v[i - 1]:
                v[i] += 1
                changed = True
    return v


@lru_cache(maxsize=256)
def wbf_table(boards: int, corrected: bool = True) -> np.ndarray:
    """Winner's VP in hundredths at whole margins 0 .. ceil(blitz) + 1 (the last ones are 2000).

    Parameters
    ----------
    boards : int
        Boards in the match (N >= 1).
    corrected : bool
        Run the concavity correction (True: the official scale).
    """
    if boards < 1:
        raise ValueError(f"a match has at least one board, not {boards}")
    blitz = BLITZ_FACTOR * math.sqrt(boards)
    top = int(math.ceil(blitz)) + 1
    values = []
    for margin in range(top + 1):
        if margin >= blitz:
            values.append(2000)
        else:
            values.append(_half_up(10.0 + 10.0 * (1.0 - TAU ** (3.0 * margin / blitz)) / (1.0 - TAU ** 3)))
    if corrected:
        values = _concave(values)
    table = np.array(values, dtype=np.int64)
    table.setflags(write=False)
    return table


def _interpolate(table: np.ndarray, margin: np.ndarray) -> np.ndarray:
    """Winner's hundredths at ``margin`` (>= 0, may be fractional) from a whole-margin table."""
    last = len(table) - 1
    low = np.minimum(np.floor(margin).astype(np.int64), last)
    high = np.minimum(low + 1, last)
    frac = np.clip(margin - low, 0.0, 1.0)
    exact = table[low] + frac * (table[high] - table[low])
    # half-up on hundredths; exact whole margins stay exact
    return np.floor(exact + 0.5 + 1e-9).astype(np.int64)


@dataclass(frozen=True)
class VpScale:
    """An IMP-margin -> VP conversion.

    ``name`` is ``"wbf2013"`` for the WBF continuous scale (``total`` 20), or the
    file name of a custom table. ``bands`` maps a board count (0 = any) to
    ``(margins, winner, loser)`` arrays in hundredths for custom tables.
    """

    name: str = "wbf2013"
    total: float = WBF_TOTAL
    bands: dict = field(default_factory=dict, compare=False, hash=False)
    #: What a known scale is called in words (empty: a club's table, named by its file).
    label: str = field(default="", compare=False)

    def describe(self) -> str:
        """One line for the workbook and the report."""
        if self.name == "wbf2013":
            return "VP: WBF 2013 continuous 20-VP scale (blitz 15 x sqrt(boards), 2 decimals half-up, concavity pass)"
        if self.label:
            return f"VP: {self.label} scale ({self.name})"
        return f"VP: custom table {self.name}"

    def title(self) -> str:
        """The scale in a few words, for a line of text (``WBF 2013 continuous 20-VP scale``)."""
        if self.name == "wbf2013":
            return "WBF 2013 continuous 20-VP scale"
        return f"{self.label} scale ({self.name})" if self.label else f"the VP table {self.name}"

    def convert(self, margin, boards) -> np.ndarray:
        """VPs of the side whose IMP margin is ``margin`` (any sign; a negative margin gets the loser's VPs).

        ``boards`` is the match length per margin (an array or one number). Returns
        float64 VPs (NaN where the margin is NaN).
        """
        m = np.atleast_1d(np.asarray(margin, dtype=np.float64))
        n = np.broadcast_to(np.asarray(boards, dtype=np.int64), m.shape)
        out = np.full(m.shape, np.nan)
        ok = ~np.isnan(m)
        if not ok.any():
            return out
        for length in np.unique(n[ok]):
            at = ok & (n == length)
            win, lose = self._hundredths(np.abs(m[at]), int(length))
            out[at] = np.where(m[at] >= 0, win, lose) / 100.0
        return out

    def _hundredths(self, margin: np.ndarray, boards: int) -> tuple[np.ndarray, np.ndarray]:
        if self.name == "wbf2013":
            win = _interpolate(wbf_table(boards), margin)
            return win, 2000 - win
        band = self.bands.get(boards, self.bands.get(0))
        if band is None:
            raise BridgeprocError(f"the VP table {self.name} has no rows for {boards}-board matches; "
                                  f"it covers {', '.join(str(b) for b in sorted(self.bands))} boards")
        margins, winner, loser = band
        index = np.searchsorted(margins, margin, side="right") - 1
        return winner[index], loser[index]


#: The default scale.
WBF2013 = VpScale()

_TABLE_ALIASES = {
    "margin": "margin", "imps": "margin", "imp": "margin", "from": "margin", "min": "margin", "imp margin": "margin",
    "winner": "winner", "vp": "winner", "vp winner": "winner", "vp win": "winner", "win": "winner",
    "loser": "loser", "vp loser": "loser", "vp lose": "loser", "lose": "loser",
    "boards": "boards", "board count": "boards", "n": "boards",
}


def parse_vp_table(text: str, source: str = "<string>") -> VpScale:
    """Parse a custom VP table (see the module docstring) into a :class:`VpScale`.

    Raises
    ------
    ParseError
        ``source:line:`` for a missing column, a bad number, margins not increasing
        or VPs going down.
    """
    delimiter = ";" if text.count(";") > text.count(",") else ","
    with csv_field_limit(len(text)):  # a cell as long as the file is read, never a traceback
        rows = [(n, r) for n, r in enumerate(csv.reader(io.StringIO(text), delimiter=delimiter), start=1)
                if any(c.strip() for c in r)]
    if not rows:
        raise ParseError(source, 1, "the VP table is empty; expected a header margin,winner[,loser][,boards]")
    header_line, header = rows[0]
    columns = {_TABLE_ALIASES.get(h.strip().lower().replace("_", " ")): i for i, h in enumerate(header)}
    missing = [c for c in ("margin", "winner") if c not in columns]
    if missing:
        raise ParseError(source, header_line, f"missing column {', '.join(missing)} in the VP table header; "
                         "expected margin,winner[,loser][,boards]")
    groups: dict[int, list[tuple[int, float, int, int | None]]] = {}
    for line, row in rows[1:]:
        try:
            margin = float(row[columns["margin"]])
            win = _half_up(float(row[columns["winner"]].replace(",", ".")))
            lose = _half_up(float(row[columns["loser"]].replace(",", "."))) if "loser" in columns else None
            boards = int(row[columns["boards"]]) if "boards" in columns and row[columns["boards"]].strip() else 0
        except (ValueError, IndexError):
            raise ParseError(source, line, f"bad VP table row {','.join(row)!r}; write numbers such as 3,11,9") from None
        groups.setdefault(boards, []).append((line, margin, win, lose))
    bands = {}
    for boards, items in groups.items():
        items.sort(key=lambda t: t[1])
        if items[0][1] != 0:
            raise ParseError(source, items[0][0], "the VP table must start at margin 0")
        base = items[0][2]
        for (_, m0, w0, _), (line, m1, w1, _) in zip(items, items[1:]):
            if m1 == m0 or w1 < w0:
                raise ParseError(source, line, "margins must increase and winner VPs must not go down")
        margins = np.array([t[1] for t in items], dtype=np.float64)
        winner = np.array([t[2] for t in items], dtype=np.int64)
        loser = np.array([2 * base - t[2] if t[3] is None else t[3] for t in items], dtype=np.int64)
        bands[boards] = (margins, winner, loser)
    total = float(groups[next(iter(groups))][0][2]) * 2 / 100.0
    return VpScale(name=source, total=total, bands=bands)


def read_vp_table(path: str | os.PathLike) -> VpScale:
    """Read a custom VP table file (see :func:`parse_vp_table`)."""
    text, source = read_text(path)
    return parse_vp_table(text, source)
