"""A director's corrections applied to the raw results, before they are checked.

Each correction names one result as the inputs hold it (board, NS and EW pair, by number or,
in a file without pair numbers, by the players' names as written; the section when several
sections have that board and pairs) and one field of it:

============  =====================================================================
``contract``  the contract cell (``4S``, ``3NTX``, ``PASS``, ``AVE+``)
``declarer``  the declarer (``N E S W``); blank clears it (a passed-out board)
``result``    the result (``=``, ``-1``, ``+2`` or the tricks taken); blank clears it.
              The result columns a file has (Result, Tricks, Made, Down) are replaced
              by this one cell
``lead``      the opening lead; blank clears it
``score``     the NS score as written (``-100``); the EW score cell is cleared
``ns``/``ew`` the pair number: a pair typed wrong (the result still named by the
              pair numbers the inputs hold)
============  =====================================================================

Every correction of a file names its result as the inputs hold it, before any correction
(two corrections of one result are two rows naming the same pairs). A correction of the
contract, declarer or result of a result whose written score is not corrected too sets the
written score aside (it was written for the wrong result), and its note says so.

Corrections are applied to the raw text cells, so a corrected value is then checked like any
typed cell (validation's problems about a corrected result name the correction). Nothing is
changed silently: every applied correction is a note (``board 3 NS 2 v EW 5: result '9'
corrected to '-1' (corrections.csv:2: the Bridgemate entry was wrong)``), and the applied
corrections (``schema.CORRECTIONS_COLUMNS``) go to the workbook and the archive. A row that
is malformed, names no result or several, or corrects a field twice is a problem with the
corrections file's line and the fix; every problem is listed at once (ValidationError).
"""
from __future__ import annotations

import re

import numpy as np
import pandas as pd

from bridgeproc.core.notation import ResultStyle, parse_contract, parse_result, parse_seat
from bridgeproc.errors import ValidationError
from bridgeproc.schema import CORRECTIONS_COLUMNS, empty, problems_frame

#: What a correction may change, in the order the module docstring lists them.
FIELDS = ("contract", "declarer", "result", "lead", "score", "ns", "ew")
#: Fields that may be corrected to a blank cell (clearing it).
CLEARABLE = ("declarer", "result", "lead")
#: Raw result columns a result correction replaces.
RESULT_CELLS = ("result", "tricks", "made", "down")
#: Fields whose correction makes the written score one for another result.
SCORED = ("contract", "declarer", "result")
_BOARD = re.compile(r"(\d{1,4})(?:\.0+)?")
#: A pair number with an optional section prefix, as validation reads it (``A3``, ``B-12``, ``03``).
_PAIR = re.compile(r"(?P<section>[A-Za-z]{1,2})?\s*-?\s*(?P<number>\d{1,6})(?:\.0+)?")
#: A pair named by its players, as files without pair numbers have it (BBO: ``rajiv - wmatilda``).
_PAIR_NAME = re.compile(r"(?=.*[^\W\d_]).{1,120}")
_SCORE = re.compile(r"[+\-−–]?\d{1,5}")
_BLANK = ("", "-", "–", "—")
#: Results listed when a correction names none of a board's results.
_SHOWN = 6


def _text(frame: pd.DataFrame, column: str) -> pd.Series:
    """A column as stripped text ('' where missing)."""
    if column not in frame:
        return pd.Series("", index=frame.index, dtype="string")
    return frame[column].astype("string").str.strip().fillna("")


def _pairs(text: pd.Series) -> tuple[pd.Series, pd.Series]:
    """(section prefix upper-cased or '', pair id) of pair cells: ``A03`` -> (``A``, ``3``); other ids as written."""
    parts = text.str.extract(rf"^{_PAIR.pattern}$")
    number = pd.to_numeric(parts["number"], errors="coerce")
    pair = number.astype("Int64").astype("string").fillna(text)
    return parts["section"].astype("string").str.upper().fillna(""), pair


def _keys(frame: pd.DataFrame) -> pd.DataFrame:
    """``section, board, ns, ew`` of raw results or corrections as the results frame writes them
    (board -1 where it is not a number)."""
    board = _text(frame, "board").str.extract(rf"^{_BOARD.pattern}$")[0]
    ns_section, ns = _pairs(_text(frame, "ns"))
    ew_section, ew = _pairs(_text(frame, "ew"))
    column = _text(frame, "section").str.upper()
    section = column.where(column != "", ns_section.where(ns_section != "", ew_section))
    return pd.DataFrame({"section": section.astype("string"),
                         "board": pd.to_numeric(board, errors="coerce").fillna(-1).astype("int64"),
                         "ns": ns.astype("string"), "ew": ew.astype("string")}, index=frame.index)


def _value_problem(field: str, value: str, style: ResultStyle) -> str | None:
    """What is wrong with ``value`` as a corrected ``field``, with the fix; None when it may be checked."""
    if value in _BLANK:
        return None if field in CLEARABLE else f"no value for {field}; write the corrected {field}"
    if field == "contract":
        return parse_contract(value).get("error")
    if field == "declarer":
        return parse_seat(value).get("error")
    if field == "result":
        return parse_result(value, style).get("error")
    if field == "score":
        return None if _SCORE.fullmatch(value) else (f"{value!r} is not a score; write the NS score as a whole "
                                                     "number, e.g. -100 or 420")
    if field in ("ns", "ew"):
        return None if _PAIR.fullmatch(value) else (f"{value!r} is not a pair number; write a whole number from "
                                                    "1 up (A7 for pair 7 of section A)")
    return None


def _where(row) -> str:
    section = f"section {row['section']} " if row["section"] else ""
    return f"{section}board {row['board']} NS {row['ns']} v EW {row['ew']}"


def _row_problems(corrections: pd.DataFrame, keys: pd.DataFrame, style: ResultStyle) -> tuple[list[dict], set]:
    """Problems of the rows themselves (shape, board, pairs, field, value, reason, a field corrected
    twice), and the rows that have one."""
    out: list[dict] = []
    bad: set = set()

    def add(i, column: str, message: str, value: object = "") -> None:
        bad.add(i)
        out.append({"source": corrections.at[i, "source"], "line": corrections.at[i, "line"], "column": column,
                    "value": value, "message": message})

    text = {c: _text(corrections, c) for c in ("board", "ns", "ew", "value", "reason")}
    field = _text(corrections, "field").str.lower()
    first: dict[tuple, object] = {}
    for i in corrections.index:
        problem = corrections.at[i, "problem"]
        if not pd.isna(problem):
            add(i, "", str(problem))
        board = text["board"][i]
        if not board:
            add(i, "board", "no board number; write the board of the result to correct")
        elif keys.at[i, "board"] < 1:
            add(i, "board", f"{board!r} is not a board number; write a whole number from 1 up", board)
        for side in ("ns", "ew"):
            pair = text[side][i]
            if not pair:
                add(i, side, f"no {side.upper()} pair; write the {side.upper()} pair of the result to correct, "
                    "as the inputs have it")
            elif not _PAIR.fullmatch(pair) and not _PAIR_NAME.fullmatch(pair):
                add(i, side, f"{pair!r} is not a pair number; write it as the inputs have it", pair)
        name = field[i]
        if not name:
            add(i, "field", f"no field; write the field to correct: one of {', '.join(FIELDS)}")
        elif name not in FIELDS:
            add(i, "field", f"{name}: not a field a correction changes; write one of {', '.join(FIELDS)}", name)
        else:
            value = text["value"][i]
            problem_text = _value_problem(name, value, style)
            if problem_text is not None:
                add(i, "value", problem_text, value)
            key = (*keys.loc[i, ["section", "board", "ns", "ew"]], name)
            if key in first:
                add(i, "field", f"{name} of this result is corrected on line {corrections.at[first[key], 'line']} "
                    "too; keep one correction per field", name)
            first.setdefault(key, i)
        if not text["reason"][i]:
            add(i, "reason", "no reason; say why the result is corrected (it is kept with the result in the archive)")
    return out, bad


def _match(corrections: pd.DataFrame, keys: pd.DataFrame, raw: pd.DataFrame, raw_keys: pd.DataFrame,
           ok: np.ndarray) -> tuple[pd.Series, list[dict]]:
    """The raw row each sound correction names (by position), and the problems of those that name none or several."""
    wanted = keys[ok].assign(_c=np.flatnonzero(ok))
    have = raw_keys.assign(_r=np.arange(len(raw_keys)))
    merged = wanted.merge(have, on=["board", "ns", "ew"], how="left", suffixes=("", "_raw"))
    same_section = (merged["section"] == "") | (merged["section"] == merged["section_raw"].fillna(""))
    merged = merged[merged["_r"].notna() & same_section.to_numpy(dtype=bool)]
    counts = merged.groupby("_c").size().reindex(wanted["_c"], fill_value=0)
    problems = []
    for c, count in counts.items():
        if count == 1:
            continue
        i = corrections.index[c]
        where = _where(keys.loc[i])
        if count == 0:
            message = _no_match(keys.loc[i], raw_keys)
        else:
            rows = merged.loc[merged["_c"] == c, "_r"].astype(int)
            found = [f"{raw['source'].iloc[r]} line {raw['line'].iloc[r]}" for r in rows]
            sections = sorted({str(raw_keys["section"].iloc[r]) for r in rows})
            fix = ("give its Section" if len(sections) > 1 and keys.at[i, "section"] == ""
                   else "the inputs hold this result more than once; give each file once")
            message = f"{where} names {count} results ({'; '.join(found)}); {fix}"
        problems.append({"source": corrections.at[i, "source"], "line": corrections.at[i, "line"],
                         "column": "", "value": "", "message": message})
    chosen = merged.drop_duplicates("_c", keep=False).set_index("_c")["_r"].astype(int)
    return chosen, problems


def _no_match(key, raw_keys: pd.DataFrame) -> str:
    """Why a correction names no result, and what the board has instead."""
    where = _where(key)
    board = raw_keys[raw_keys["board"] == key["board"]]
    if key["section"]:
        board = board[board["section"] == key["section"]]
    if not len(board):
        return f"{where}: board {key['board']} has no results in the inputs{' of that section' if key['section'] else ''}"
    swapped = board[(board["ns"] == key["ew"]) & (board["ew"] == key["ns"])]
    if len(swapped):
        return (f"{where}: no such result; board {key['board']} has NS {key['ew']} v EW {key['ns']}: write the "
                "pairs the other way round")
    listed = [f"NS {n} v EW {e}" for n, e in zip(board["ns"], board["ew"])]
    more = f" and {len(listed) - _SHOWN} more" if len(listed) > _SHOWN else ""
    return (f"{where}: no such result in the inputs; board {key['board']} has {', '.join(listed[:_SHOWN])}{more}; "
            "write the pairs as the inputs have them")


def _was(raw: pd.DataFrame, rows: np.ndarray, field: str) -> pd.Series:
    """The text of ``field`` in raw rows ``rows`` before the correction."""
    if field == "result":
        cells = [_text(raw, c).iloc[rows].reset_index(drop=True) for c in RESULT_CELLS]
        was = cells[0]
        for other in cells[1:]:
            was = was.where(was != "", other)
        return was
    if field == "score":
        ns, ew = _text(raw, "score").iloc[rows], _text(raw, "score_ew").iloc[rows]
        return ns.where(ns != "", ("EW " + ew).where(ew != "", "")).reset_index(drop=True)
    return _text(raw, field).iloc[rows].reset_index(drop=True)


def _embedded_results(raw: pd.DataFrame, applied: pd.DataFrame, rows: np.ndarray) -> list[int]:
    """Positions in ``applied`` of result corrections whose row's contract cell carries the result
    (``4SN=``) and is not corrected too: the two would disagree."""
    out = []
    contract = _text(raw, "contract")
    corrected_contract = set(rows[(applied["field"] == "contract").to_numpy()])
    for k in np.flatnonzero((applied["field"] == "result").to_numpy()):
        r = rows[k]
        if r not in corrected_contract and "result" in parse_contract(contract.iloc[r]):
            out.append(int(k))
    return out


def apply_corrections(raw: pd.DataFrame, corrections: pd.DataFrame, result_style: ResultStyle = "auto",
                      source: str = "") -> tuple[pd.DataFrame, pd.DataFrame, list[dict]]:
    """Apply ``corrections`` (io.corrections' frame) to the raw results ``raw``.

    Returns the corrected raw frame (a copy), the applied corrections
    (``schema.CORRECTIONS_COLUMNS``, one row per corrected cell, in the file's order) and the
    notes (one per correction, as problems-frame rows at the corrected result's file and line).

    ``source`` names the corrections file in the note of a file without corrections.
    Raises ValidationError with every problem of the corrections file (at its lines).
    """
    raw = raw.reset_index(drop=True)
    corrections = corrections.reset_index(drop=True)
    if not len(corrections):
        return raw, empty(CORRECTIONS_COLUMNS), [{"source": source, "line": "", "column": "", "value": "",
                                                  "message": "the corrections file holds no corrections"}]
    keys, raw_keys = _keys(corrections), _keys(raw)
    problems, bad = _row_problems(corrections, keys, result_style)
    ok = ~corrections.index.isin(list(bad))
    chosen, unmatched = _match(corrections, keys, raw, raw_keys, ok)
    problems += unmatched
    at = np.array(sorted(chosen.index), dtype=int)  # corrections (by position) that name one result
    rows = chosen.loc[at].to_numpy(dtype=int) if len(at) else np.array([], dtype=int)
    field = _text(corrections, "field").str.lower().iloc[at].to_numpy(dtype=object)
    was = pd.Series("", index=range(len(at)), dtype="string")
    for name in FIELDS:
        mine = field == name
        if mine.any():
            was[mine] = _was(raw, rows[mine], name).to_numpy()
    applied = pd.DataFrame({
        "section": raw_keys["section"].iloc[rows].to_numpy(), "board": raw_keys["board"].iloc[rows].to_numpy(),
        "ns": raw_keys["ns"].iloc[rows].to_numpy(), "ew": raw_keys["ew"].iloc[rows].to_numpy(),
        "field": field, "was": was.to_numpy(),
        "now": _text(corrections, "value").iloc[at].to_numpy(), "reason": _text(corrections, "reason").iloc[at].to_numpy(),
        "source": corrections["source"].iloc[at].to_numpy(), "line": corrections["line"].iloc[at].to_numpy(),
        "result_source": raw["source"].iloc[rows].to_numpy(), "result_line": raw["line"].iloc[rows].to_numpy(),
    }).astype(CORRECTIONS_COLUMNS)
    for k in _embedded_results(raw, applied, rows):
        contract = _text(raw, "contract").iloc[rows[k]]
        problems.append({"source": applied.at[k, "source"], "line": applied.at[k, "line"], "column": "field",
                         "value": "result", "message": f"{_where(applied.loc[k])}: its contract cell {contract!r} "
                         f"carries the result; correct the field contract instead (e.g. "
                         f"{re.sub(r'[=+-].*$', '', contract)}{applied.at[k, 'now']})"})
    if problems:
        frame = problems_frame(problems)
        line = pd.to_numeric(frame["line"], errors="coerce").to_numpy()
        raise ValidationError(frame.iloc[np.argsort(line, kind="stable")].reset_index(drop=True))
    return _corrected(raw, applied, rows), applied, _notes(applied, raw, rows)


def _string(raw: pd.DataFrame, column: str) -> None:
    """Make ``raw[column]`` a string column (NA where the file had none)."""
    raw[column] = raw[column].astype("string") if column in raw else pd.Series(pd.NA, index=raw.index, dtype="string")


def _corrected(raw: pd.DataFrame, applied: pd.DataFrame, rows: np.ndarray) -> pd.DataFrame:
    """``raw`` with every applied correction written into its cells (one assignment per field)."""
    raw = raw.copy()
    fields = applied["field"].to_numpy()
    now = applied["now"].to_numpy(dtype=object)
    score_corrected = set(rows[fields == "score"])
    for name in FIELDS:
        mine = fields == name
        if not mine.any():
            continue
        where, values = rows[mine], now[mine]
        _string(raw, name)
        if name == "result":
            for other in RESULT_CELLS[1:]:
                if other in raw:
                    _string(raw, other)
                    raw.loc[where, other] = pd.NA
        if name == "score" and "score_ew" in raw:
            _string(raw, "score_ew")
            raw.loc[where, "score_ew"] = pd.NA
        raw.loc[where, name] = pd.array(list(values), dtype="string")
    unscored = np.array(sorted({r for r, f in zip(rows, fields) if f in SCORED} - score_corrected), dtype=int)
    for column in ("score", "score_ew"):
        if column in raw and len(unscored):
            _string(raw, column)
            raw.loc[unscored, column] = pd.NA
    return raw


def _notes(applied: pd.DataFrame, raw: pd.DataFrame, rows: np.ndarray) -> list[dict]:
    """One note per applied correction, at the corrected result's file and line."""
    score_corrected = {tuple(k) for k in applied.loc[applied["field"] == "score", ["section", "board", "ns", "ew"]]
                       .itertuples(index=False)}
    notes, aside = [], set()
    labels = {"ns": "NS pair", "ew": "EW pair"}
    for k, row in enumerate(applied.to_dict("records")):
        key = (row["section"], row["board"], row["ns"], row["ew"])
        message = (f"{_where(row)}: {labels.get(row['field'], row['field'])} '{row['was']}' corrected to "
                   f"'{row['now']}' ({row['source']}:{row['line']}: {row['reason']})")
        if row["field"] in SCORED and key not in score_corrected and key not in aside:
            written = _was(raw, rows[k:k + 1], "score").iloc[0]
            if written:
                message += f"; its written score {written} is set aside (it was written for the uncorrected result)"
                aside.add(key)
        notes.append({"source": row["result_source"], "line": "" if pd.isna(row["result_line"])
                      else str(row["result_line"]), "column": row["field"], "value": row["now"], "message": message})
    return notes


def mark_corrected(problems: pd.DataFrame, applied: pd.DataFrame | None) -> pd.DataFrame:
    """Validation's ``problems`` with those about a corrected result naming the correction
    (``... (this result is corrected on corrections.csv:2)``), so a wrong correction is found."""
    if applied is None or not len(applied) or not len(problems):
        return problems
    where = applied.groupby(["result_source", "result_line"], dropna=False)["line"].agg(
        lambda lines: ", ".join(str(v) for v in dict.fromkeys(lines)))
    files = applied.groupby(["result_source", "result_line"], dropna=False)["source"].first()
    lookup = {(str(s), str(n)): f"{files[(s, n)]}:{lines}" for (s, n), lines in where.items()}
    line = problems["line"].astype("string").fillna("").str.replace(r"^[A-Z]+", "", regex=True)
    found = [lookup.get((str(s), str(n))) for s, n in zip(problems["source"], line)]
    suffix = pd.Series([f" (this result is corrected on {f})" if f else "" for f in found], index=problems.index)
    return problems.assign(message=problems["message"] + suffix.astype("string"))


def uncompared(applied: pd.DataFrame) -> pd.DataFrame:
    """The note that stands for the comparison with an input's published numbers in a corrected run:
    those were computed from the uncorrected results, so each difference would only be the correction."""
    files = ", ".join(dict.fromkeys(applied["source"].astype(str)))
    return problems_frame([{"source": files, "message": f"numbers the inputs publish (board values, datums, totals, "
                            f"places) are not compared with bridgeproc's: they were computed before the "
                            f"{len(applied)} correction(s) of {files}"}])
