"""Numbers as a member reads them: one rule per kind of number, the same in every output.

Board matchpoints, percentages, IMPs and VPs are rounded once, for display, to at most two
decimals (``DECIMALS``), half to even, and every writer (workbook, website, PBN, CSV, USEBIO)
shows that value. A column shows the fewest decimals its values need (:func:`column_decimals`):
whole matchpoints read ``13``, ``8``, ``0``, factored ones ``13.50``, ``8.25``, ``0.00``, never a
mix. A board's NS and EW values still add up to its top after rounding: where the two sides of a
result share the top, EW is shown as the top less NS's shown value (:func:`shown_sides`).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

#: Decimals shown at most, by kind of number.
DECIMALS: dict[str, int] = {"mp": 2, "pct": 2, "imp": 2, "vp": 2, "factor": 3}
#: The kind of each column of a written frame whose name says it (others: two decimals at most).
COLUMN_KINDS: dict[str, str] = {
    "mp_ns": "mp", "mp_ew": "mp", "top": "mp", "pct_ns": "pct", "pct_ew": "pct", "pct": "pct",
    "percentage": "pct", "session_pct": "pct", "mp_factor": "factor", "vp": "vp", "vp_home": "vp", "vp_away": "vp",
}


def kind_of(column: str) -> str:
    """The kind of a column by its name (``pct_ns`` -> ``pct``, ``vp_total`` -> ``vp``); IMPs otherwise."""
    if column in COLUMN_KINDS:
        return COLUMN_KINDS[column]
    name = column.lower()
    return "pct" if "pct" in name or "percent" in name else "vp" if "vp" in name else \
        "factor" if "factor" in name or "quotient" in name else "imp"


def _floats(values) -> np.ndarray:
    """``values`` as floats, NaN for a missing value or anything that is not a number. A numeric column
    or array is converted as it is; anything else (text, a mixed list, a scalar) goes through
    ``pd.to_numeric``, which costs about 30 µs a call more."""
    dtype = getattr(values, "dtype", None)
    if dtype is not None and dtype.kind in "fiu" and isinstance(values, (pd.Series, pd.Index, np.ndarray)):
        return values.astype(float) if isinstance(values, np.ndarray) else values.to_numpy(dtype=float,
                                                                                              na_value=np.nan)
    return np.asarray(pd.to_numeric(pd.Series(values, dtype="object"), errors="coerce"), dtype=float)


def rounded(values, kind: str) -> np.ndarray:
    """``values`` (floats, NaN kept) rounded to the kind's decimals, half to even; ``-0`` is ``0``."""
    array = _floats(values)
    with np.errstate(over="ignore", invalid="ignore"):
        out = np.round(array, DECIMALS[kind])
    out = np.where(np.isfinite(out) | ~np.isfinite(array), out, array)  # a value too large to scale stays itself
    return out + 0.0  # -0.0 + 0.0 is 0.0


def column_decimals(values, kind: str) -> int:
    """The fewest decimals (up to the kind's) that show every value of a column as rounded."""
    array = rounded(values, kind)
    array = array[~np.isnan(array)]
    for decimals in range(DECIMALS[kind]):
        if np.allclose(array, np.round(array, decimals), rtol=0, atol=1e-9):
            return decimals
    return DECIMALS[kind]


def shown_sides(ns, ew, top, kind: str = "mp") -> tuple[np.ndarray, np.ndarray]:
    """NS and EW values rounded so that, where the two add up to ``top`` (a result's matchpoints, or
    100 for percentages), the shown values still do: EW is the rounded top less NS's rounded value."""
    ns_shown, ew_shown = rounded(ns, kind), rounded(ew, kind)
    raw_ns, raw_ew = _floats(ns), _floats(ew)
    top_array = np.broadcast_to(np.asarray(top, dtype=float), raw_ns.shape)
    shares = np.isclose(raw_ns + raw_ew, top_array, rtol=0, atol=1e-9)
    return ns_shown, np.where(shares, rounded(rounded(top_array, kind) - ns_shown, kind), ew_shown)


def texts(values, kind: str, decimals: int | None = None) -> list[str]:
    """The values as text with ``decimals`` decimals (default: the column's, :func:`column_decimals`);
    blank for a missing value."""
    array = rounded(values, kind)
    places = column_decimals(array, kind) if decimals is None else decimals
    distinct, at = np.unique(array, return_inverse=True)  # each distinct value formatted once
    words = np.array(["" if np.isnan(v) else f"{v:.{places}f}" for v in distinct], dtype=object)
    return words[at.reshape(-1)].tolist()


def shown_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` with every float column rounded by its kind (:func:`kind_of`), and a result's
    NS and EW matchpoints and percentages kept adding up to the top and to 100 (for CSV)."""
    out = frame.copy()
    floats = [c for c in out.columns if pd.api.types.is_float_dtype(out[c])]
    for column in floats:
        out[column] = pd.Series(rounded(out[column], kind_of(column)), index=out.index, dtype=out[column].dtype)
    if {"mp_ns", "mp_ew", "top"} <= set(frame.columns):
        ns, ew = shown_sides(frame["mp_ns"], frame["mp_ew"], frame["top"].to_numpy(dtype=float, na_value=np.nan))
        out["mp_ns"], out["mp_ew"] = ns, ew
    if {"pct_ns", "pct_ew"} <= set(frame.columns):
        ns, ew = shown_sides(frame["pct_ns"], frame["pct_ew"], 100.0, "pct")
        out["pct_ns"], out["pct_ew"] = ns, ew
    return out


__all__ = ["DECIMALS", "COLUMN_KINDS", "kind_of", "rounded", "column_decimals", "shown_sides", "texts", "shown_frame"]
