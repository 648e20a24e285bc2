"""Written scores against contract + tricks + vulnerability, and the ``trust`` option.

Paper travellers carry a score per result (one Score column from NS's side, or NS
and EW score columns with one filled per row). A score that disagrees with the
contract is reported with what it should be; with ``trust="score"`` the tricks are
corrected instead when exactly one trick count gives the written score (a
warning-level note, so the director sees what was changed), and a missing result
is filled in the same way.
"""
from __future__ import annotations

import re

import numpy as np
import pandas as pd

from bridgeproc.core.boards import declarer_vulnerable, vul_codes
from bridgeproc.core.notation import contract_text, parse_unique
from bridgeproc.core.problems import Problems
from bridgeproc.core.vocabulary import MINUS_SIGNS
from bridgeproc.scoring.law77 import score

_SCORE_DASHES = ("-", "–", "—", "")


def written_scores(raw: pd.DataFrame) -> tuple[pd.Series, pd.Series, pd.Series, np.ndarray]:
    """From the Score / EW score columns: the NS-view written score (float), the text shown,
    a mask of unreadable or contradictory cells, and True where the EW column was used."""
    def parse(column: str) -> tuple[pd.Series, pd.Series]:
        if column not in raw:
            empty = pd.Series(pd.array([pd.NA] * len(raw), dtype="string"), index=raw.index)
            return pd.Series(np.nan, index=raw.index), empty
        text = raw[column].astype("string").str.strip()
        text = text.mask(text.isin(_SCORE_DASHES))
        return pd.Series(parse_unique(text, _score_number).floats("value"), index=raw.index), text

    ns, ns_text = parse("score")
    ew, ew_text = parse("score_ew")
    ns_only = ns.notna() & ~((ns == 0) & ew.notna() & (ew != 0))
    written = ns.where(ns_only, -ew)
    shown = ns_text.where(ns_only, ew_text)
    bad_text = (ns_text.notna() & ns.isna()) | (ew_text.notna() & ew.isna()) | ((written % 1 != 0) & written.notna())
    both = (ns.notna() & ew.notna() & (ns != 0) & (ew != 0) & (ns != -ew)).fillna(False)
    from_ew = (~ns_only & ew_text.notna()).to_numpy()
    return written.where(~bad_text), shown, bad_text | both, from_ew


def _score_number(text: str) -> dict:
    """Written score text -> ``{"value": number}`` (none if not a number): ``+420``, ``−50``/``–50`` (minus
    sign, en dash), ``420,0`` (decimal comma), ``1.430``/``1,430`` (thousands)."""
    clean = re.sub(r"^\+", "", text.translate(MINUS_SIGNS))
    clean = re.sub(r"^(-?\d+),(\d{1,2})$", r"\1.\2", clean)
    clean = re.sub(r"^(-?\d{1,2})[,.' ](\d{3})$", r"\1\2", clean)
    return {"value": float(clean)} if re.fullmatch(r"-?\d+(?:\.\d*)?", clean) else {}


def check_written_scores(raw: pd.DataFrame, scored: pd.DataFrame, boards: pd.DataFrame | None, trust: str,
                         problems: Problems, notes: Problems) -> pd.DataFrame:
    """Compare written scores with contract + tricks + vulnerability; with ``trust="score"`` correct the tricks.

    Returns ``scored``, with ``tricks`` and ``score_ns`` corrected where the score was trusted.
    """
    if "score" not in raw and "score_ew" not in raw:
        return scored
    written, shown, bad_text, from_ew = written_scores(raw)
    artificial = scored["adjusted"].notna().to_numpy()
    bad = bad_text.to_numpy() & ~artificial & ~problems.bad
    column = np.where(from_ew, "score_ew", "score")
    for name in ("score", "score_ew"):
        add_at(problems, bad & (column == name), name, "not a score, or NS and EW scores that disagree; write the NS score as a whole "
               "number (or fill only one of the NS/EW score columns)", shown)
    computed = scored["score_ns"]
    played = scored["level"].fillna(0).to_numpy() > 0
    no_tricks = played & scored["tricks"].isna().to_numpy() & written.notna().to_numpy() & ~problems.bad & ~artificial
    differ = (written.notna() & computed.notna() & (written != computed)).fillna(False).to_numpy()
    differ &= ~problems.bad & ~artificial & ~no_tricks
    if not (differ.any() or (trust == "score" and no_tricks.any())):
        return scored
    fixed_tricks = np.full(len(scored), -1)
    if trust == "score":
        fixed_tricks = _unique_tricks(scored, written, differ | no_tricks, boards)
    fixed = fixed_tricks >= 0
    text = contract_text(scored["level"], scored["strain"], scored["doubled"])
    board = scored["board"].to_numpy()
    vul = vul_codes(board) if boards is None or "vul" not in boards else _board_vul(board, boards)
    declarer = scored["declarer"].cat.codes.to_numpy()
    decl_vul = declarer_vulnerable(vul, declarer)

    def said(i: int) -> str:
        """The written score as written: the EW column's own value (EW's side) when that was filled."""
        if from_ew[i]:
            return f"written EW score {-written.iat[i] + 0.0:g}"
        return f"written score {written.iat[i]:g}"

    def scores(i: int) -> str:
        return f"{-computed.iat[i]} for EW" if from_ew[i] else f"{computed.iat[i]} for NS"

    def describe(at: np.ndarray) -> list[str]:
        out = []
        for i in at:
            if scored["level"].iat[i] == 0:
                out.append(f"{said(i)} but the board was passed out: it should be 0; "
                           "correct the score or the contract")
                continue
            vul_text = "vulnerable" if decl_vul[i] else "not vulnerable"
            played_by = f"{text.iat[i]} by {scored['declarer'].iat[i]} ({vul_text})"
            if no_tricks[i]:
                out.append(f"no result written for {played_by}; the {said(i)} fits "
                           f"{fixed_tricks[i]} tricks only: used that" if fixed[i] else
                           f"no result for a played contract, and no single trick count of {played_by} gives the "
                           f"{said(i)}; write =, +1, -2 or the tricks taken")
                continue
            head = (f"{said(i)} disagrees with {played_by} taking {scored['tricks'].iat[i]} "
                    f"tricks, which scores {scores(i)}")
            if fixed[i]:
                out.append(f"{head}; trusted the written score: corrected to {fixed_tricks[i]} tricks")
            elif trust == "score":
                out.append(f"{head}; no single trick count gives the written score, so correct the score or the "
                           "contract/result")
            else:
                out.append(f"{head}; correct the score or the contract/result (or use --trust score to take the "
                           "tricks from the score)")
        return out

    add_at(problems, no_tricks & ~fixed, "result", describe, _result_shown(raw))
    add_at(notes, no_tricks & fixed, "result", describe, _result_shown(raw))
    for name in ("score", "score_ew"):
        add_at(problems, differ & ~fixed & (column == name), name, describe, shown)
        add_at(notes, differ & fixed & (column == name), name, describe, shown)
    if not fixed.any():
        return scored
    tricks = scored["tricks"].to_numpy(dtype=np.int64, na_value=0)
    corrected = scored.assign(tricks=pd.array(np.where(fixed, fixed_tricks, tricks), dtype="Int8"))
    corrected["tricks"] = corrected["tricks"].mask(scored["tricks"].isna() & ~fixed)
    return score(corrected.drop(columns="score_ns"), boards)


def add_at(problems: Problems, mask: np.ndarray, column: str, messages, values: pd.Series) -> None:
    """``problems.add`` at ``column``'s cell, named ``score`` for either score column."""
    before = len(problems.rows)
    problems.add(mask, column, messages, values=values)
    for row in problems.rows[before:]:
        row["column"] = "score" if column.startswith("score") else column


def _result_shown(raw: pd.DataFrame) -> pd.Series:
    return raw["result"] if "result" in raw else pd.Series([""] * len(raw), index=raw.index)


def _board_vul(board: np.ndarray, boards: pd.DataFrame) -> np.ndarray:
    lookup = pd.Series(boards["vul"].cat.codes.to_numpy(), index=boards["board"].to_numpy())
    mapped = lookup.reindex(board).to_numpy(dtype=float)
    return np.where(np.isnan(mapped), vul_codes(board), mapped).astype(np.int8)


def _unique_tricks(scored: pd.DataFrame, written: pd.Series, rows_mask: np.ndarray, boards) -> np.ndarray:
    """For each masked played row, the one trick count whose score equals the written one (-1 if none or several)."""
    out = np.full(len(scored), -1)
    rows = np.flatnonzero(rows_mask & (scored["level"].fillna(0).to_numpy() > 0))
    if not len(rows):
        return out
    subset = scored.iloc[np.repeat(rows, 14)].drop(columns="score_ns").reset_index(drop=True)
    subset["tricks"] = pd.array(np.tile(np.arange(14), len(rows)), dtype="Int8")
    candidates = score(subset, boards)["score_ns"].to_numpy(dtype=np.int64, na_value=0).reshape(len(rows), 14)
    match = candidates == written.to_numpy(dtype=float, na_value=np.nan)[rows, None]
    unique = match.sum(axis=1) == 1
    out[rows[unique]] = match[unique].argmax(axis=1)
    return out
