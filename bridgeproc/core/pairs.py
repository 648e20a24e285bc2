"""What the results say about the movement: how pairs are numbered and who meets whom.

Clubs number Mitchell pairs 1..n in *each* direction (NS 1 and EW 1 are different
pairs), while Howell pairs and many Mitchells use one number per pair. Read with
one shared numbering, a per-direction Mitchell shows almost every pair on almost
every board in both directions; a Howell shows that for at most a stray typo. So:
if more than a quarter of the (section, pair, board) entries occur in both
directions, the numbering is per direction, else shared. ``--pair-numbering``
forces either reading.

Arrow switch in a Mitchell numbered per direction: in the switched rounds the EW pairs
sit North-South. The traveller is written by seat (the NS column holds the pair that
sat NS, the score is NS's), and the switch is marked: a ``Switched`` column (``Y``,
``yes``, ``x``, ``1``, ``↔``), or ``arrow_switch`` rounds on the Round column
(:func:`mark_arrow_switch`). A pair's identity is the direction of its number and the
number (:func:`pair_keys`, :func:`pair_directions`); the seat actually played is what is
scored and matchpointed (an EW pair's NS score among the NS scores), and
:func:`as_numbered` then credits each row's points to the pairs by their numbers.
"""
from __future__ import annotations

import re
from typing import Literal

import numpy as np
import pandas as pd

from bridgeproc.errors import ValidationError
from bridgeproc.schema import problems_frame

PairNumbering = Literal["auto", "shared", "per-direction"]

#: Cells of a Switched/Arrow column that mark an arrow-switched result (compared case-folded).
SWITCHED_MARKS = frozenset({"y", "yes", "x", "1", "↔", "<->", "true", "s", "sw", "switched", "arrow", "j", "ja", "oui"})
#: Cells that say the result was not switched.
UNSWITCHED_MARKS = frozenset({"", "n", "no", "0", "-", "false", "nein", "non"})


def switched_mark(text: str | None) -> bool | None:
    """True/False for a Switched cell, None when it is neither a mark nor blank."""
    folded = "" if text is None or pd.isna(text) else str(text).strip().casefold()
    if folded in SWITCHED_MARKS:
        return True
    if folded in UNSWITCHED_MARKS:
        return False
    return None


def switched_marks(cells: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """A Switched column read as two masks, (switched, not a mark nor blank): each distinct text
    is read once (:func:`switched_mark`), so a long traveller costs its few spellings, not its rows."""
    codes, uniques = pd.factorize(cells.astype("string"), use_na_sentinel=True)
    read = [switched_mark(text) for text in uniques]
    # one more entry for code -1 (a missing cell): blank, not switched
    switched = np.array([mark is True for mark in read] + [False], dtype=bool)[codes]
    unreadable = np.array([mark is None for mark in read] + [False], dtype=bool)[codes]
    return switched, unreadable


def arrow_switch_rounds(spec: str) -> frozenset[int]:
    """``"6-7"``, ``"5,7"``, ``"3 6-7"`` -> the round numbers; ValueError naming the bad part."""
    rounds: set[int] = set()
    parts = [p for p in re.split(r"[,;\s]+", str(spec).strip()) if p]
    if not parts:
        raise ValueError("no rounds given; write the arrow-switched rounds such as 6-7 or 5,7")
    for part in parts:
        m = re.fullmatch(r"(\d+)(?:\s*[-–]\s*(\d+))?", part)
        if m is None or int(m.group(1)) < 1 or (m.group(2) and int(m.group(2)) < int(m.group(1))):
            raise ValueError(f"{part!r} is not a round or a range of rounds; write e.g. 6-7 or 5,7")
        rounds.update(range(int(m.group(1)), int(m.group(2) or m.group(1)) + 1))
    return frozenset(rounds)


def mark_arrow_switch(raw: pd.DataFrame, spec: str | None) -> pd.DataFrame:
    """The raw results with a ``switched`` text column ``Y`` on the rows of rounds ``spec``
    (:func:`arrow_switch_marks`). Raises ValidationError for a result marked not switched in one
    of those rounds, ValueError when ``spec`` is not rounds or there is no Round column."""
    marked, problems, _ = arrow_switch_marks(raw, spec)
    if len(problems):
        raise ValidationError(problems)
    return marked


def arrow_switch_marks(raw: pd.DataFrame, spec: str | None) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The raw results with ``switched`` ``Y`` on the rows of rounds ``spec``; the problems; the notes.

    A ``switched`` column already on the traveller is kept where it says ``Y``; a result it marks
    not switched in a switched round is a problem (the row is marked as the rounds say, so the
    other checks still run and every problem is listed at once). A row whose Round cell is blank or
    not a number, and not marked, is left as written with a note: its round is unknown (if its
    pairs then repeat on a board, the checks say so). Raises ValueError when ``spec`` is not
    rounds, or the results have no Round column to apply it to.
    """
    if spec is None:
        return raw, problems_frame([]), problems_frame([])
    rounds = arrow_switch_rounds(spec)
    if "round" not in raw:
        raise ValueError(f"--arrow-switch {spec} needs a Round column on the travellers, to know which results "
                         "were played in those rounds; add the column, or mark the switched results in a "
                         "Switched column (Y) instead")
    text = raw["round"].astype("string").str.strip()
    number = pd.to_numeric(text, errors="coerce")
    in_rounds = number.isin(list(rounds)).to_numpy()
    before = raw["switched"].astype("string") if "switched" in raw else pd.Series(pd.NA, index=raw.index,
                                                                                   dtype="string")
    blank = before.fillna("").str.strip().eq("").to_numpy()
    switched, unreadable = switched_marks(before)
    said_not = ~blank & ~switched & ~unreadable
    problems = problems_frame([
        {"source": str(raw["source"].iat[i]), "line": str(raw["line"].iat[i]), "column": "switched",
         "value": str(before.iat[i]),
         "message": f"round {raw['round'].iat[i]} is arrow-switched by --arrow-switch {spec}, but this result "
                    "is marked not switched; clear the mark or correct the rounds"}
        for i in np.flatnonzero(in_rounds & said_not)])
    notes = problems_frame([
        {"source": str(raw["source"].iat[i]), "line": str(raw["line"].iat[i]), "column": "round",
         "value": "" if pd.isna(text.iat[i]) else str(text.iat[i]),
         "message": f"no round number, so --arrow-switch {spec} leaves this result as written (not switched); "
                    "fill in the round if it was played in a switched round"}
        for i in np.flatnonzero(number.isna().to_numpy() & blank)])
    marked = before.where(~in_rounds, "Y")
    return raw.assign(switched=pd.array(marked.to_numpy(dtype=object), dtype="string")), problems, notes


def switched_rows(results: pd.DataFrame) -> np.ndarray:
    """The rows whose pairs sat in the other direction than their numbers (``switched``), as a mask."""
    if "switched" not in results:
        return np.zeros(len(results), dtype=bool)
    return results["switched"].to_numpy(dtype=bool, na_value=False)


def pair_directions(results: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Direction of the number of the pair in the NS and in the EW column of each row (``NS``/``EW``)."""
    switched = switched_rows(results)
    return np.where(switched, "EW", "NS"), np.where(switched, "NS", "EW")


def as_numbered(results: pd.DataFrame) -> pd.DataFrame:
    """The results by the pairs' numbers: an arrow-switched row's pairs and every ``*_ns``/``*_ew``
    pair of columns (MPs, percentages, IMPs ... computed by seat) swapped, so the ``ns`` column is
    the NS-numbered pair with its points. For standings; the seat-based frame stays the record."""
    switched = switched_rows(results)
    if not switched.any():
        return results
    out = results.copy()
    pairs = [("ns", "ew")] + [(c, c[:-3] + "_ew") for c in results.columns
                              if c.endswith("_ns") and c[:-3] + "_ew" in results.columns]
    for ns, ew in pairs:
        out.loc[switched, ns], out.loc[switched, ew] = results.loc[switched, ew], results.loc[switched, ns]
    out["switched"] = pd.array(np.zeros(len(out), dtype=bool), dtype="boolean")
    return out

#: Share of (pair, board) entries seen in both directions above which numbering is per direction.
PER_DIRECTION_SHARE = 0.25


def _entries(results: pd.DataFrame) -> pd.DataFrame:
    n = len(results)
    return pd.DataFrame({
        "row": np.concatenate([np.arange(n), np.arange(n)]),
        "section": pd.concat([results["section"], results["section"]], ignore_index=True),
        "board": np.concatenate([results["board"].to_numpy()] * 2),
        "pair": pd.concat([results["ns"], results["ew"]], ignore_index=True),
        "direction": np.repeat(np.array(["NS", "EW"]), n),
    }).dropna(subset=["pair"])


def pair_numbering(results: pd.DataFrame, forced: PairNumbering = "auto") -> Literal["shared", "per-direction"]:
    """Decide whether pair numbers are shared by both directions or counted per direction."""
    if forced != "auto":
        return forced
    entries = _entries(results).drop_duplicates(subset=["section", "board", "pair", "direction"])
    if entries.empty:
        return "shared"
    both = entries.duplicated(subset=["section", "board", "pair"], keep=False)
    return "per-direction" if both.mean() > PER_DIRECTION_SHARE else "shared"


def pair_keys(results: pd.DataFrame, numbering: Literal["shared", "per-direction"]) -> tuple[pd.Series, pd.Series]:
    """Identity of the NS and EW pair of each row: ``section:pair`` plus ``:NS``/``:EW`` when per direction
    (the direction of the pair's number: swapped on an arrow-switched row, see :func:`pair_directions`).

    Compared without case: a pair known by its players' names (BBO user names, pbntools
    conversions) is the same pair as ``Cheryl O`` on one board and ``cheryl o`` on another."""
    section = results["section"].fillna("").astype("string")
    ns = section + ":" + results["ns"].astype("string").str.casefold()
    ew = section + ":" + results["ew"].astype("string").str.casefold()
    if numbering == "per-direction":
        ns_dir, ew_dir = pair_directions(results)  # an arrow-switched row: the NS seat holds an EW pair
        return ns + ":" + pd.Series(ns_dir, index=results.index), ew + ":" + pd.Series(ew_dir, index=results.index)
    return ns, ew


def repeated_pairs(results: pd.DataFrame, numbering: Literal["shared", "per-direction"]) -> tuple[np.ndarray, np.ndarray]:
    """Rows where a pair appears again on a board it already played, and which pair.

    With shared numbering this includes a pair sitting both NS and EW on one board.
    """
    ns_key, ew_key = pair_keys(results, numbering)
    n = len(results)
    long = pd.DataFrame({
        "row": np.concatenate([np.arange(n), np.arange(n)]),
        "board": np.concatenate([results["board"].to_numpy()] * 2),
        "key": pd.concat([ns_key, ew_key], ignore_index=True),
        "pair": pd.concat([results["ns"], results["ew"]], ignore_index=True),
    }).dropna(subset=["key"])
    dup = long[long.duplicated(subset=["board", "key"], keep="first")]
    mask = np.zeros(n, dtype=bool)
    pair = np.full(n, "", dtype=object)
    mask[dup["row"].to_numpy()] = True
    pair[dup["row"].to_numpy()] = dup["pair"].to_numpy(dtype=object)
    return mask, pair
