"""Raw text cells -> the typed results frame, collecting every problem before failing; then the checks that
need the results' scores (written scores, fouled boards) once the caller has scored them.

Two halves with scoring between, so that the run scores its results itself: :func:`type_results` types the
cells and runs every check of the cells alone (nothing raised yet); the caller scores the typed results
(``scoring.results.score_results``) and hands them
to :func:`check_scored`, which checks the written scores against them and raises with every problem of both
halves at once. :func:`validate_results` is the three in a row, for a caller that wants a checked frame.

Each check is a whole-column mask; messages are built only for the rows that fail.
Cross-row checks (pairs, tables, written scores, names, hand record) live in
``checks``; this module types the cells and runs them all.

Sections: a Section column, or a letter prefix on the pair numbers (``A3``,
``B12``; prefix letters become the section and the pair id keeps only the number,
so ``A3`` in one file and Section ``A`` / pair ``3`` in another are the same pair).
A prefix that contradicts the Section column, or NS and EW prefixes that differ,
are problems.

Result columns (Result, Tricks, Made, Down, or a result written after the contract)
are read by ``result_columns``.

Weighted scores (``W 50% 4S=N; 50% 4S-1N`` in the contract cell, see ``weighted``)
are checked part by part while parsing; :func:`score_weighted` then writes each
part's NS score on the board's vulnerability into the code. Fouled boards: a
``fouled`` column (any text labels a group; blank, ``-``, ``0``, ``N``, ``No`` mean
the board as dealt) is kept as the results' ``fouled`` column (string, NA for the
board as dealt); ``checks.check_fouled`` notes each fouled board.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from bridgeproc.core.notation import (
    ResultStyle,
    fouled_labels,
    lead_cards,
    parse_contract,
    parse_seat,
    parse_unique,
    seat_categorical,
    strain_categorical,
)
from bridgeproc.core.numbering import PairNumbering
from bridgeproc.core.pairs import pair_numbering
from bridgeproc.core.problems import Problems
from bridgeproc.errors import ValidationError
from bridgeproc.io.sheets.travellers import canonical_header
from bridgeproc.schema import PLAY, RESULTS_COLUMNS
from bridgeproc.scoring.results import score_results
from bridgeproc.validate import checks, written_scores
from bridgeproc.validate.result_columns import RESULT_COLUMNS, read_tricks

Trust = Literal["contract", "score"]
_DASHES = ("-", "–", "—", "")
#: A pair number, optionally with a section letter prefix (``A3``, ``B-12``); other pair ids
#: (names of an online event's pair, ``12+14`` in an individual) are kept as written.
_PAIR_MATCH = re.compile(r"^(?P<section>[A-Za-z]{1,2})?\s*-?\s*(?P<number>\d{1,6})(?:\.0+)?$")
#: Pair cells that look like numbers but are not pair numbers: decimals (``3.5``) and negatives.
_BAD_PAIR = re.compile(r"-?\d+[.,]\d*[1-9]\d*|-\d+")


@dataclass(frozen=True)
class Typed:
    """The first half of validation: ``results`` typed (not scored), the ``problems`` and ``notes`` found in
    the cells so far (not raised yet), the pair ``numbering`` decided, and what the second half needs."""

    raw: pd.DataFrame
    results: pd.DataFrame
    problems: Problems
    notes: Problems
    numbering: Literal["shared", "per-direction"]
    boards: pd.DataFrame | None
    check_scores: bool
    trust: str


@dataclass(frozen=True)
class Checked:
    """What validation produced: the scored ``results`` and warning-level ``notes``.

    ``notes`` has the problems columns (see schema.PROBLEM_COLUMNS); it lists what
    was corrected on purpose (``trust="score"``), which the director should see.
    ``numbering`` is the pair numbering the checks decided on (``shared`` or
    ``per-direction``): the rest of the run uses it instead of deciding again.
    """

    results: pd.DataFrame
    notes: pd.DataFrame
    numbering: Literal["shared", "per-direction"] = "shared"


def _text(raw: pd.DataFrame, column: str) -> pd.Series:
    if column not in raw:
        return pd.Series(pd.array([pd.NA] * len(raw), dtype="string"), index=raw.index)
    # strip each distinct spelling once: a column repeats a few dozen spellings over thousands of rows
    codes, uniques = pd.factorize(raw[column].astype("string"), use_na_sentinel=True)
    stripped = pd.array([str(u).strip() for u in uniques.tolist()] + [pd.NA], dtype="string")
    return pd.Series(stripped.take(np.where(codes < 0, len(uniques), codes)), index=raw.index)


#: Characters nobody sees in a cell (Unicode format characters: zero-width space and joiners, direction
#: marks, the word joiner, a soft hyphen, a BOM inside a cell), which would make ``3`` and ``3`` two pairs.
_INVISIBLE = "[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]"
_INVISIBLE_RE = re.compile(_INVISIBLE)


def _without_invisible(raw: pd.DataFrame, notes: Problems) -> pd.DataFrame:
    """``raw`` with the invisible characters taken out of its cells, each cell that held one noted (a note,
    not a problem: the cell reads as what it shows)."""
    cleaned = {}
    for column in raw.columns:
        if column in ("source", "line") or column.startswith("cell_") or \
                pd.api.types.is_numeric_dtype(raw[column].dtype):
            continue
        uniques = pd.unique(raw[column].dropna())  # a column repeats a few spellings: each looked at once
        if not any(isinstance(u, str) and _INVISIBLE_RE.search(u) for u in uniques):
            continue
        text = raw[column].astype("string")
        held = text.str.contains(_INVISIBLE, regex=True, na=False)
        if held.any():
            cleaned[column] = text.str.replace(_INVISIBLE, "", regex=True)
            notes.add(held.to_numpy(), column, lambda at, t=text: [
                f"{v!r}: an invisible character (U+{ord(next(c for c in v if re.match(_INVISIBLE, c))):04X}) is "
                f"taken out, so the cell reads as {re.sub(_INVISIBLE, '', v)!r}" for v in t.iloc[at]])
    return raw.assign(**cleaned) if cleaned else raw


def _blank_dashes(text: pd.Series) -> pd.Series:
    return text.mask(text.isin(_DASHES))


#: Highest board number accepted; larger numbers are typos (and would overflow the scoring tables' int32).
MAX_BOARD = 9999


def _board_number(text: str) -> dict:
    # digits only (a spreadsheet may add ".0"): 1e30, 0x10, 12.5 and -3 are not board numbers
    m = re.fullmatch(r"(\d+)(?:\.0+)?", text)
    if m is None:
        return {"error": f"{text!r} is not a board number; write a whole number from 1 up"}
    number = int(m.group(1))
    if number > MAX_BOARD:
        return {"error": f"{text!r} is too large for a board number; write a whole number from 1 to {MAX_BOARD}"}
    if number < 1:
        return {"error": f"{text!r} is not a board number; write a whole number from 1 up"}
    return {"board": number}


def _boards(raw: pd.DataFrame, problems: Problems) -> np.ndarray:
    parsed = parse_unique(_text(raw, "board"), _board_number)
    errors = parsed.texts("error")
    problems.add(parsed.has("error"), "board", lambda at: list(errors[at]))
    problems.add(parsed.has("empty"), "board", "no board number; write the board number on every row")
    return parsed.ints("board", 0).astype(np.int64)


#: Raw columns that say where a row came from or how its cells looked, not what was played.
_META_PREFIXES = ("cell_", "formula_", "error_", "merged_")


def _junk_lines(raw: pd.DataFrame, problems: Problems) -> None:
    """A header line repeated inside the data, or a line with only a word where the board
    number goes (``Total``): one message for the line, not one per empty cell."""
    if "board" not in raw or not len(raw):
        return
    board = _text(raw, "board")
    distinct = pd.Series(board.dropna().unique(), dtype="string")
    words = distinct[~distinct.str.fullmatch(r"[\d.,\s\-]*")]
    if words.empty:
        return
    header_words = {w for w in words if canonical_header(w) == "board"}
    data = [c for c in raw.columns if c not in ("source", "line", "board") and not c.startswith(_META_PREFIXES)]
    as_header = np.zeros(len(raw), dtype=bool)
    if header_words:
        as_header = np.array(board.isin(header_words).to_numpy(dtype=bool, na_value=False))
        own = np.zeros(len(raw), dtype=bool)
        for column in data:
            text = _text(raw, column)
            names = {v for v in text[as_header].dropna().unique() if canonical_header(v) == column}
            own |= text.isin(names).to_numpy(dtype=bool, na_value=False)
        as_header = as_header & own
    problems.add_line(as_header, "board", "a header line repeated inside the data; delete it")
    empty = np.ones(len(raw), dtype=bool)
    for column in data:
        empty &= _blank_dashes(_text(raw, column)).isna().to_numpy()
    alone = board.isin(set(words)).to_numpy(dtype=bool, na_value=False) & empty & ~as_header
    problems.add_line(alone, "board", lambda at: [
        f"{v!r} and nothing else on the line is not a result; delete the line (or write the result on it)"
        for v in board.iloc[at]])


def _pair_part(text: str) -> dict:
    """One pair cell: its section prefix, the canonical pair id (``A03`` -> ``3``), and whether it is bad."""
    m = _PAIR_MATCH.match(text)
    bad = bool(_BAD_PAIR.fullmatch(text))
    if m is None:
        return {"pair": text, "bad": bad}
    number = int(m.group("number"))
    section = m.group("section")
    return {"section": section.upper() if section else None, "pair": str(number), "bad": bad or number < 1}


def _sections_and_pairs(raw: pd.DataFrame, problems: Problems) -> tuple[pd.Series, dict[str, pd.Series]]:
    column = _text(raw, "section").str.upper()
    prefixes, pairs = {}, {}
    for side in ("ns", "ew"):
        text = _text(raw, side)
        missing = (text.isna() | (text == "")).to_numpy()
        problems.add(missing, side, f"no {side.upper()} pair number; every result needs both pairs")
        parts = parse_unique(text, _pair_part)
        problems.add(parts.ints("bad", 0).astype(bool) & ~missing, side, lambda at, t=text: [
            f"{v!r} is not a pair number; pair numbers are whole numbers from 1 up (A7 for pair 7 of section A)"
            for v in t.iloc[at]])
        prefixes[side] = pd.Series(parts.texts("section"), index=text.index, dtype="string")
        pairs[side] = pd.Series(parts.texts("pair"), index=text.index, dtype="string")
    ns_p, ew_p = prefixes["ns"], prefixes["ew"]
    differ = (ns_p.notna() & ew_p.notna() & (ns_p != ew_p)).fillna(False).to_numpy()
    problems.add(differ, "ew", lambda at: [
        f"NS pair {n} and EW pair {e} are in different sections; correct the section letter"
        for n, e in zip(_text(raw, "ns").iloc[at], _text(raw, "ew").iloc[at])])
    prefix = ns_p.fillna(ew_p)
    has_column = column.notna() & (column != "")
    clash = (has_column & prefix.notna() & (prefix != column)).fillna(False).to_numpy() & ~differ
    problems.add(clash, "section", lambda at: [
        f"section {s} but pair numbers {n}/{e} carry section {p}; correct one of them"
        for s, n, e, p in zip(column.iloc[at], _text(raw, "ns").iloc[at], _text(raw, "ew").iloc[at], prefix.iloc[at])])
    section = column.where(has_column, prefix).fillna("")
    return section, pairs


def _stray_cells(raw: pd.DataFrame, passed_out: np.ndarray, artificial: np.ndarray, problems: Problems,
                 notes: Problems) -> None:
    """A declarer or result on a passed-out or artificial row: the director meant something else.

    A problem in a file the director typed; a note for a Bridgemate database (``.bws``),
    whose cells are the scoring device's and cannot be cleared, and which may record a
    declarer for a passed-out board.
    """
    rows = np.flatnonzero(passed_out | artificial)
    if not len(rows):
        return
    few = raw.iloc[rows]  # such rows are few: look only at them
    machine = np.zeros(len(raw), dtype=bool)
    machine[rows] = few["source"].astype("string").str.contains(r"\.bws\b", case=False).to_numpy(
        dtype=bool, na_value=False)
    for column, what in (("declarer", "declarer"), ("result", "result"), ("tricks", "result"), ("made", "result"),
                         ("down", "result")):
        if column not in raw:
            continue
        filled = np.zeros(len(raw), dtype=bool)
        filled[rows] = _blank_dashes(_text(few, column)).notna().to_numpy()
        for where, mine, hint in ((problems, ~machine, "clear the cell"), (notes, machine, "ignored")):
            where.add(filled & passed_out & mine, column, f"a passed-out board has no {what}; {hint}")
            where.add(filled & artificial & mine, column, lambda at, w=what, h=hint: [
                f"an artificial score ({str(c).strip()}) has no {w}; {h}" for c in raw["contract"].iloc[at]])


def _note_ost(raw: pd.DataFrame, in_declarer: np.ndarray, in_contract: np.ndarray, notes: Problems) -> None:
    """One note per file that writes ``O`` as a seat: read as East (German Ost), not West (French Ouest)."""
    used = in_declarer | in_contract
    if not used.any():
        return
    files = raw["source"].astype("string").str.split("!").str[0].to_numpy(dtype=object, na_value="")
    rows = np.flatnonzero(used)
    first = rows[~pd.Series(files[rows]).duplicated().to_numpy()]
    message = "'O' is read as East (German Ost); if this file means West (French Ouest), write W for West"
    for column, where in (("declarer", in_declarer), ("contract", in_contract & ~in_declarer)):
        mask = np.zeros(len(raw), dtype=bool)
        mask[first] = where[first]
        notes.add(mask, column, message)


def type_results(
    raw: pd.DataFrame,
    *,
    result_style: ResultStyle = "auto",
    check_scores: bool = True,
    pair_numbering_option: PairNumbering = "auto",
    trust: Trust = "contract",
    tables: int | None = None,
    boards: pd.DataFrame | None = None,
    names: pd.DataFrame | None = None,
    seated: bool = False,
    misplaced: np.ndarray | None = None,
) -> Typed:
    """Type a raw results frame and run every check of its cells (:func:`check_scored` checks the rest and
    raises).

    Parameters
    ----------
    raw : DataFrame
        Text columns ``board ns ew contract`` and optionally ``section table round
        declarer result tricks made down lead score score_ew fouled``, plus ``source`` and
        ``line`` (see io.travellers); ``cell_<column>`` letters for spreadsheet rows.
    result_style : {"auto", "tricks", "relative"}
        How a bare number in the Result column is read (auto: as the trick count).
    check_scores : bool
        Compare written scores (Score, or NS score/EW score columns) with the contract.
    pair_numbering_option : {"auto", "shared", "per-direction"}
        How pair numbers identify pairs (see movement.pair_numbering).
    trust : {"contract", "score"}
        When a written score disagrees with contract and result: "contract" reports
        it; "score" corrects the tricks when exactly one trick count gives the
        written score (a note in ``Checked.notes``), else reports it.
    tables : int, optional
        Tables per section; default: the distinct Table numbers, else at most half the
        pairs (one per NS pair when numbered per direction). Only a given or Table-column
        count makes a board with more results a problem; more results than most boards
        have is a note.
    boards : DataFrame, optional
        The hand record (``board``, ``deal``, optional ``vul``): results on boards it
        lacks are problems, and its vulnerability is used for scoring.
    names : DataFrame, optional
        From io.names.read_names: pairs not listed there are problems.
    seated : bool
        A movement checks every result's table and round (validate.movement): two results at one table
        and round are not compared with each other, the movement names the wrong one.
    misplaced : array of bool, optional
        The rows the movement refused: left out of the checks across rows (a pair twice on a board, a board
        played too often), which would otherwise blame the right rows they now clash with.

    Returns
    -------
    Typed
        ``results`` (schema.RESULTS_COLUMNS without ``score_ns``; plus ``fouled`` and ``play`` when ``raw``
        has that column), the problems and notes found so far and the pair numbering decided.
    """
    raw = raw.reset_index(drop=True)
    problems, notes = Problems(raw), Problems(raw)
    raw = _without_invisible(raw, notes)
    problems.add_uncached_formulas()
    _junk_lines(raw, problems)
    board = _boards(raw, problems)
    section, pairs = _sections_and_pairs(raw, problems)

    contract = parse_unique(_text(raw, "contract"), parse_contract)
    contract_errors = contract.texts("error")
    problems.add(contract.has("error"), "contract", lambda at: list(contract_errors[at]))
    problems.add(contract.has("empty"), "contract",
                 "no contract; write the contract, PASS for a passed-out board, or an artificial score such as AVE+")
    level = contract.ints("level")
    played = level > 0

    seat = parse_unique(_text(raw, "declarer"), parse_seat)
    seat_code = seat.ints("seat")
    embedded_seat = contract.ints("declarer")
    seat_errors = seat.texts("error")
    problems.add((seat_code >= 0) & (embedded_seat >= 0) & (seat_code != embedded_seat), "declarer",
                 "the declarer differs from the one written with the contract; keep one")
    declarer = np.where(seat_code >= 0, seat_code, embedded_seat)
    _note_ost(raw, seat.has("ambiguous"), contract.has("ambiguous"), notes)
    problems.add(seat.has("error") & played, "declarer", lambda at: list(seat_errors[at]))
    problems.add(played & (declarer < 0) & ~seat.has("error"), "declarer",
                 "no declarer for a played contract; write N, E, S or W")

    adjusted = contract.texts("adjusted")
    _stray_cells(raw, level == 0, adjusted != None, problems, notes)  # noqa: E711 - elementwise
    may_infer = np.zeros(len(raw), dtype=bool)
    if trust == "score" and check_scores and ("score" in raw or "score_ew" in raw):
        may_infer = written_scores.written_scores(raw)[0].notna().to_numpy()
    columns = {c: _text(raw, c) for c in RESULT_COLUMNS if c in raw}
    embedded = pd.Series(contract.texts("result"), index=raw.index, dtype="string")
    tricks = read_tricks(columns, embedded, _text(raw, "contract"), level, played, result_style, problems, may_infer)
    ok_tricks = played & (tricks >= 0) & (tricks <= 13)
    results = pd.DataFrame({
        "section": section.astype("string"),
        "board": board,
        "ns": pairs["ns"],
        "ew": pairs["ew"],
        "level": pd.array(np.where(level >= 0, level, 0), dtype="Int8"),
        "strain": strain_categorical(np.where(played, contract.ints("strain"), -1)),
        "doubled": pd.array(np.where(played, contract.ints("doubled", 0), 0), dtype="Int8"),
        "declarer": seat_categorical(np.where(played & (declarer >= 0), declarer, -1)),
        "tricks": pd.array(np.where(ok_tricks, tricks, 0), dtype="Int8"),
        # one spelling of a card (``♥A``, ``ha`` and ``AH`` are ``HA``); what is not a card stays as typed
        # (validate.plausibility warns about it)
        "lead": lead_cards(_text(raw, "lead")).fillna(_text(raw, "lead")),
        "adjusted": pd.Series(adjusted, dtype="string"),
        "source": raw["source"].astype("string"),
        "line": raw["line"].astype("Int64"),
    })
    results["level"] = results["level"].mask(level < 0)
    results["tricks"] = results["tricks"].mask(~ok_tricks)
    results = results.astype({c: RESULTS_COLUMNS[c] for c in results.columns})
    if "fouled" in raw:
        results["fouled"] = fouled_labels(_text(raw, "fouled"))
    if PLAY in raw:  # a PBN game's legal Play (validate.records), for the profile's defence
        results[PLAY] = raw[PLAY].astype("string").to_numpy()

    numbering = pair_numbering(results, pair_numbering_option)
    if misplaced is not None:
        problems.bad |= misplaced
    checks.check_pairs(results, numbering, problems)
    checks.check_tables(raw, results, tables, problems, notes, numbering, table_rounds=not seated, left_out=misplaced)
    # Heuristics are warnings (a substitute pair, an absent names-list entry), never a refusal.
    checks.check_rare_pairs(results, numbering, notes, problems.bad)
    if names is not None:
        checks.check_names(results, names, numbering, notes, problems.bad)
    if boards is not None:
        checks.check_boards(results, boards, problems)
        checks.check_hand_record_cycle(results, boards, notes)
    return Typed(raw, results, problems, notes, numbering, boards, check_scores, trust)


def check_scored(typed: Typed, scored: pd.DataFrame) -> Checked:
    """The checks that need the scores (fouled-board groups; written scores against ``scored``, trusting a
    written score when ``trust="score"`` and one trick count gives it), then every problem of both halves
    raised at once.

    Raises ValidationError with every problem found, when any.
    """
    checks.check_fouled(scored, typed.problems, typed.notes)
    if typed.check_scores:
        scored = written_scores.check_written_scores(typed.raw, scored, typed.boards, typed.trust, typed.problems,
                                                     typed.notes)
    if typed.problems:
        raise ValidationError(typed.problems.frame())
    return Checked(scored, typed.notes.frame(), typed.numbering)


def validate_results(raw: pd.DataFrame, **given: object) -> Checked:
    """Type, check and score a raw results frame: :func:`type_results`, ``scoring.results.score_results``,
    :func:`check_scored` (the keywords are :func:`type_results`'s).

    Returns
    -------
    Checked
        ``results`` (schema.RESULTS_COLUMNS, with ``score_ns``; weighted codes scored by
        :func:`score_weighted`; plus ``fouled`` when ``raw`` has that column) and ``notes``.

    Raises
    ------
    ValidationError
        With every problem found, when any.
    """
    typed = type_results(raw, **given)  # type: ignore[arg-type]
    return check_scored(typed, score_results(typed.results, typed.boards))
