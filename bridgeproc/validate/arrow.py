"""Arrow-switch checks: the Switched marks typed, a table's round marked alike, one opponent per round.

In an arrow-switched round of a Mitchell numbered per direction the EW pairs sit
North-South (``core.pairs``). These checks take the typed ``results`` and a
``Problems`` collector bound to the raw frame (same rows, same order), as the other
cross-row checks do (``validate.checks``, which runs them from ``check_pairs``).
"""
from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd

from bridgeproc.core.pairs import pair_keys, switched_marks
from bridgeproc.core.problems import Problems


def row_or_line(source: str, line) -> str:
    """Where a result was typed, for a message: ``row 12`` on a sheet (``Sheet!...``), else ``line 12``."""
    return f"row {line}" if "!" in str(source) else f"line {line}"


def arrow_switches(results: pd.DataFrame, problems: Problems) -> None:
    """Type the raw ``switched`` cells (a Switched column, or ``core.pairs.mark_arrow_switch``) into
    ``results["switched"]`` (boolean), so pair identity follows the numbers (``pair_keys``).

    Not a mark nor blank: a problem. One table and round marked on some results and not on others:
    a problem (a switch moves the whole table). Without a ``switched`` column nothing is added.
    """
    raw = problems.raw
    if "switched" not in raw:
        return
    text = raw["switched"].astype("string")
    switched, bad = switched_marks(text)
    problems.add(bad, "switched", lambda at: [
        f"{text.iat[r].strip()!r} is not an arrow-switch mark; write Y for a result the pairs played the other way "
        "round (EW pair sitting NS), or leave it blank" for r in at])
    results["switched"] = pd.array(switched, dtype="boolean")
    if "table" not in raw or "round" not in raw:
        return
    frame = pd.DataFrame({"section": results["section"].fillna(""), "table": raw["table"].astype("string").str.strip(),
                          "round": raw["round"].astype("string").str.strip(), "switched": switched,
                          "row": np.arange(len(raw))})
    frame = frame[(frame["table"].fillna("") != "") & (frame["round"].fillna("") != "") & ~problems.bad]
    by_table = frame.groupby(["section", "table", "round"])
    first_row = by_table["row"].transform("min")
    first_switched = by_table["switched"].transform("first")
    other = frame[frame["switched"] != first_switched]
    mask = np.zeros(len(raw), dtype=bool)
    mask[other["row"].to_numpy()] = True
    first_at = dict(zip(other["row"], first_row[other.index]))
    problems.add(mask, "switched", lambda at: [
        f"table {raw['table'].iat[r].strip()} round {raw['round'].iat[r].strip()} is marked "
        f"{'switched' if switched[r] else 'not switched'} here but "
        f"{'switched' if switched[first_at[r]] else 'not switched'} on board {results['board'].iat[first_at[r]]} "
        f"({row_or_line(results['source'].iat[first_at[r]], results['line'].iat[first_at[r]])}); an arrow switch "
        "turns the whole table: mark every board of the round alike" for r in at])


def check_pair_rounds(results: pd.DataFrame, numbering: Literal["shared", "per-direction"], problems: Problems) -> None:
    """Against the movement (a Round column): a pair meets one opponent per round.

    A pair shown against two opponents in one round is a wrong pair number, a wrong round,
    or (per-direction numbering) an arrow switch marked on some results of the round only.
    """
    raw = problems.raw
    if "round" not in raw or "switched" not in raw or not len(results):
        return  # for now only where an arrow switch is marked (other movements: the table-round check)
    ns_key, ew_key = pair_keys(results, numbering)
    rnd = raw["round"].astype("string").str.strip()
    usable = (rnd.fillna("") != "").to_numpy() & results["ns"].notna().to_numpy() & results["ew"].notna().to_numpy()
    usable &= ~problems.bad & ~(ns_key.str.contains("+", regex=False) | ew_key.str.contains("+", regex=False)
                                 ).to_numpy(dtype=bool, na_value=False)  # individuals change partners in a round
    rows = np.flatnonzero(usable)
    long = pd.DataFrame({
        "row": np.concatenate([rows, rows]),
        "round": pd.concat([rnd.iloc[rows]] * 2, ignore_index=True),
        "key": pd.concat([ns_key.iloc[rows], ew_key.iloc[rows]], ignore_index=True),
        "opponent": pd.concat([ew_key.iloc[rows], ns_key.iloc[rows]], ignore_index=True),
        "side": np.repeat(np.array(["ns", "ew"]), len(rows)),
    }).sort_values("row", kind="stable")
    first_opponent = long.groupby(["round", "key"], sort=False)["opponent"].transform("first")
    first_row = long.groupby(["round", "key"], sort=False)["row"].transform("first")
    differs = (long["opponent"] != first_opponent).to_numpy(dtype=bool, na_value=False)
    if not differs.any():
        return
    clash = long[differs].assign(first=first_row[differs].to_numpy()).drop_duplicates(subset="row")
    if "table" in raw:  # one table seating two pairings in a round is the table-round check's to report
        table = raw["table"].astype("string").str.strip().to_numpy(dtype=object, na_value="")
        clash = clash[table[clash["row"].to_numpy()] != table[clash["first"].to_numpy()]]
        if clash.empty:
            return
    mask = np.zeros(len(results), dtype=bool)
    mask[clash["row"].to_numpy()] = True
    info = clash.set_index("row")

    def messages(at: np.ndarray) -> list[str]:
        out = []
        for row in at:
            hit = info.loc[row]
            first = int(hit["first"])
            side = str(hit["side"])
            pair = results[side].iat[row]
            label = f"{hit['key'].rsplit(':', 1)[-1]} {pair}" if numbering == "per-direction" else str(pair)
            hint = (" or its arrow-switch mark (every table of a switched round is switched)"
                    if numbering == "per-direction" else "")
            out.append(f"pair {label} meets two opponents in round {rnd.iat[row]} (the other "
                       f"{row_or_line(results['source'].iat[first], results['line'].iat[first])}); correct a pair "
                       f"number, the round{hint}")
        return out

    problems.add(mask, "round", messages)
