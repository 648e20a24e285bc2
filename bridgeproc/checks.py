"""Cross-row checks a careful scorer makes, as whole-column masks over the typed results.

Each check takes the typed ``results`` and a ``Problems`` collector bound to the raw
frame (same rows, same order), so every message points at the file and line or
``Sheet!Cell`` the director typed. Rows that already have a problem are skipped by
the later checks, so one typo gives one message, not an echo of it.
"""
from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd

from .boards import declarer_vulnerable, vul_codes
from .errors import ValidationError
from .movement import pair_keys
from .notation import contract_text
from .problems import Problems, per_unique
from .scoring import score

_SCORE_DASHES = ("-", "–", "—", "")


def _where(source: str, line) -> str:
    return f"row {line}" if "!" in str(source) else f"line {line}"


def check_pairs(results: pd.DataFrame, numbering: Literal["shared", "per-direction"], problems: Problems) -> None:
    """A pair meeting itself, a result entered twice, a pair twice on a board or in both directions."""
    n = len(results)
    ns_key, ew_key = pair_keys(results, numbering)
    usable = results["ns"].notna() & results["ew"].notna() & (results["board"] > 0)
    usable = usable.to_numpy() & ~problems.bad
    itself = usable & (ns_key == ew_key).fillna(False).to_numpy()
    problems.add(itself, "ew", lambda at: [
        f"pair {p} plays against itself on board {b}; correct the NS or EW pair number"
        for p, b in zip(results["ew"].iloc[at], results["board"].iloc[at])])
    usable &= ~itself
    rows = np.flatnonzero(usable)
    long = pd.DataFrame({
        "row": np.concatenate([rows, rows]),
        "section": pd.concat([results["section"].iloc[rows]] * 2, ignore_index=True),
        "board": np.concatenate([results["board"].to_numpy()[rows]] * 2),
        "key": pd.concat([ns_key.iloc[rows], ew_key.iloc[rows]], ignore_index=True),
        "direction": np.repeat(np.array(["NS", "EW"]), len(rows)),
    }).sort_values(["row", "direction"], kind="stable")
    first = long.groupby(["board", "key"], sort=False)["row"].transform("min").to_numpy()
    first_dir = long.groupby(["board", "key"], sort=False)["direction"].transform("first").to_numpy()
    repeat = first != long["row"].to_numpy()
    hits = long[repeat].assign(first=first[repeat], first_dir=first_dir[repeat])
    hits = hits.drop_duplicates(subset="row", keep="first")
    if hits.empty:
        return
    mask = np.zeros(n, dtype=bool)
    mask[hits["row"].to_numpy()] = True
    info = hits.set_index("row")
    same_tables = (results["ns"].to_numpy()[info.index] == results["ns"].to_numpy()[info["first"]]) & (
        results["ew"].to_numpy()[info.index] == results["ew"].to_numpy()[info["first"]])
    info = info.assign(same_table=same_tables)

    def messages(at: np.ndarray) -> list[str]:
        out = []
        for row in at:
            hit = info.loc[row]
            board = results["board"].iat[row]
            earlier = _where(results["source"].iat[hit["first"]], results["line"].iat[hit["first"]])
            side = "ns" if hit["direction"] == "NS" else "ew"
            pair = results[side].iat[row]
            if hit["same_table"]:
                out.append(f"NS {results['ns'].iat[row]} v EW {results['ew'].iat[row]} on board {board} is entered twice "
                           f"(also {earlier}); delete one")
            elif hit["direction"] != hit["first_dir"]:
                out.append(f"pair {pair} plays board {board} both as {hit['first_dir']} ({earlier}) and as "
                           f"{hit['direction']} here; correct one of the pair numbers")
            else:
                out.append(f"pair {pair} has a second result on board {board} (first {earlier}); "
                           "remove the duplicate or correct the pair number")
        return out

    problems.add(mask, "board", messages)


#: A pair seen on one board only, where the typical pair plays at least this many, is suspect.
RARE_PAIR_MIN_TYPICAL = 4


def check_rare_pairs(results: pd.DataFrame, numbering: Literal["shared", "per-direction"], problems: Problems) -> None:
    """A pair number seen on a single result while pairs typically play many boards: most likely a typo."""
    ns_key, ew_key = pair_keys(results, numbering)
    ok = ~problems.bad & results["ns"].notna().to_numpy() & results["ew"].notna().to_numpy()
    keys = pd.concat([ns_key[ok], ew_key[ok]], ignore_index=True)
    if keys.empty:
        return
    if keys.str.contains("+", regex=False).any():
        return  # individual: partnerships are meant to change
    counts = keys.value_counts()
    typical = counts.median()
    if typical < RARE_PAIR_MIN_TYPICAL:
        return
    rare = set(counts.index[counts == 1])
    for side, key in (("ns", ns_key), ("ew", ew_key)):
        mask = key.isin(rare).to_numpy() & ok & ~problems.bad
        problems.add(mask, side, lambda at, s=side: [
            f"pair {p} appears on this result only, while pairs typically play {typical:g} boards; check the pair number"
            for p in results[s].iloc[at]])


def _tables_by_section(raw: pd.DataFrame, results: pd.DataFrame, tables: int | None) -> tuple[pd.Series, str]:
    sections = results["section"].fillna("")
    if tables is not None:
        return pd.Series(tables, index=sections.unique()), "as given"
    if "table" in raw and raw["table"].fillna("").str.strip().ne("").any():
        table = raw["table"].astype("string").str.strip()
        distinct = pd.DataFrame({"section": sections, "table": table}).dropna().query("table != ''")
        return distinct.groupby("section")["table"].nunique(), "from the Table column"
    counts = results.assign(section=sections).groupby(["section", "board"]).size()
    modes = counts.groupby(level="section").agg(lambda c: c.value_counts().sort_index(ascending=False).idxmax())
    return modes, "the most common number of results per board"


def check_tables(raw: pd.DataFrame, results: pd.DataFrame, tables: int | None, problems: Problems) -> None:
    """Boards with results from more tables than exist; the same table/round twice (when given)."""
    _check_table_rounds(raw, results, problems)
    section = results["section"].fillna("")
    limit, how = _tables_by_section(raw, results, tables)
    order = results.assign(section=section).groupby(["section", "board"]).cumcount().to_numpy() + 1
    allowed = section.map(limit).fillna(np.inf).to_numpy(dtype=float)
    count = results.assign(section=section).groupby(["section", "board"])["board"].transform("size").to_numpy()
    excess = (order == np.floor(allowed) + 1) & (results["board"].to_numpy() > 0) & ~problems.bad
    problems.add(excess, "board", lambda at: [
        f"board {b} has {c} results but {('section ' + s) if s else 'the session'} has {int(a)} table{'s' if a != 1 else ''} ({how}); "
        "look for a duplicate result or a wrong board number"
        for b, c, s, a in zip(results["board"].iloc[at], count[at], section.iloc[at], allowed[at])])


def _table_key(ns: pd.Series, ew: pd.Series) -> pd.Series:
    """``NS v EW``; for individuals (``12+14``: partnerships change within a round) the set of players."""
    key = ns + " v " + ew
    individual = (ns.str.contains("+", regex=False) | ew.str.contains("+", regex=False)).to_numpy()
    if individual.any():
        players = (ns[individual] + "+" + ew[individual]).map(lambda t: "+".join(sorted(t.split("+"))))
        key = key.mask(individual, "players " + players)
    return key


def _check_table_rounds(raw: pd.DataFrame, results: pd.DataFrame, problems: Problems) -> None:
    if "table" not in raw or "round" not in raw:
        return
    section = results["section"].fillna("")
    table, rnd = raw["table"].astype("string").str.strip(), raw["round"].astype("string").str.strip()
    frame = pd.DataFrame({"section": section, "table": table, "round": rnd, "board": results["board"],
                          "pairs": _table_key(results["ns"].fillna("?"), results["ew"].fillna("?")),
                          "row": np.arange(len(results))})
    frame = frame[(frame["table"].fillna("") != "") & (frame["round"].fillna("") != "") & ~problems.bad]
    first = frame.groupby(["section", "table", "round", "board"])["row"].transform("min")
    twice = frame[first != frame["row"]]
    mask = np.zeros(len(results), dtype=bool)
    mask[twice["row"].to_numpy()] = True
    first_of = dict(zip(twice["row"], first[first != frame["row"]]))
    problems.add(mask, "table", lambda at: [
        f"table {table.iat[r]} round {rnd.iat[r]} already has a result on board {results['board'].iat[r]} "
        f"({_where(results['source'].iat[first_of[r]], results['line'].iat[first_of[r]])}); "
        "correct the table, round or board" for r in at])
    frame = frame[~mask[frame["row"].to_numpy()]]
    by_table = frame.groupby(["section", "table", "round"])
    first_row = by_table["row"].transform("min")
    first_pairs = by_table["pairs"].transform("first")
    other = frame[frame["pairs"] != first_pairs]
    mask = np.zeros(len(results), dtype=bool)
    mask[other["row"].to_numpy()] = True
    first_at = dict(zip(other["row"], first_row[other.index]))
    problems.add(mask, "ns", lambda at: [
        f"table {table.iat[r]} round {rnd.iat[r]} has NS {results['ns'].iat[first_at[r]]} v EW {results['ew'].iat[first_at[r]]} "
        f"({_where(results['source'].iat[first_at[r]], results['line'].iat[first_at[r]])}) but NS "
        f"{results['ns'].iat[r]} v EW {results['ew'].iat[r]} here; correct the pair numbers or the table/round"
        for r in at])


def check_names(results: pd.DataFrame, names: pd.DataFrame, numbering: Literal["shared", "per-direction"],
                problems: Problems) -> None:
    """Pairs that the names list lacks (``names``: section, pair, names, optional direction).

    Sections are compared only when the list has them; directions only when pairs
    are numbered per direction and the list says which direction each pair sat.
    """
    def text(frame: pd.DataFrame, column: str) -> pd.Series:
        if column not in frame:
            return pd.Series("", index=frame.index, dtype="string")
        return frame[column].astype("string").fillna("")

    use_section = text(names, "section").ne("").any()
    per_direction = numbering == "per-direction" and text(names, "direction").ne("").any()
    listed = text(names, "pair")
    if use_section:
        listed = text(names, "section") + "\x1f" + listed
    if per_direction:
        listed = listed + "\x1f" + text(names, "direction")
    known = set(listed)
    where = names["source"].iat[0] if "source" in names and len(names) else "the names list"
    for side in ("ns", "ew"):
        key = text(results, side)
        if use_section:
            key = text(results, "section") + "\x1f" + key
        if per_direction:
            key = key + "\x1f" + side.upper()
        unknown = ~key.isin(known).to_numpy() & results[side].notna().to_numpy() & ~problems.bad
        problems.add(unknown, side, lambda at, s=side: [
            f"pair {(sc + p) if use_section else p} is not in {where}; correct the pair number or add the pair there"
            for sc, p in zip(results["section"].iloc[at].fillna(""), results[s].iloc[at])])


def board_problems(results: pd.DataFrame, boards: pd.DataFrame, problems: Problems) -> None:
    """Add a problem for each result on a board the hand record lacks (or has no deal for)."""
    deal = boards["deal"].astype("string").str.strip() if "deal" in boards else pd.Series("x", index=boards.index)
    dealt = (deal.notna() & (deal != "")).to_numpy()
    if not dealt.any():
        return  # results-only PBN: no hand record to compare with
    present = set(boards.loc[dealt, "board"].astype("int64"))
    lacking = ~results["board"].isin(present).to_numpy() & (results["board"].to_numpy() > 0)
    problems.add(lacking, "board", lambda at: [
        f"board {b} is not in the hand record; correct the board number or give the hand record that has it"
        for b in results["board"].iloc[at]])


check_boards = board_problems


def check_against_boards(results: pd.DataFrame, boards: pd.DataFrame) -> pd.DataFrame:
    """Results on boards that the hand record (``board``, ``deal``) lacks.

    Returns
    -------
    DataFrame
        The problems (schema.PROBLEM_COLUMNS), empty when every board is there.
    """
    problems = Problems(results.reset_index(drop=True))
    board_problems(results.reset_index(drop=True), boards, problems)
    return problems.frame()


def raise_against_boards(results: pd.DataFrame, boards: pd.DataFrame) -> None:
    """``check_against_boards``, raising ValidationError when there are problems."""
    found = check_against_boards(results, boards)
    if len(found):
        raise ValidationError(found)


def written_scores(raw: pd.DataFrame) -> tuple[pd.Series, pd.Series, pd.Series, np.ndarray]:
    """From the Score / EW score columns: the NS-view written score (float), the text shown,
    a mask of unreadable or contradictory cells, and True where the EW column was used."""
    def parse(column: str) -> tuple[pd.Series, pd.Series]:
        if column not in raw:
            empty = pd.Series(pd.array([pd.NA] * len(raw), dtype="string"), index=raw.index)
            return pd.Series(np.nan, index=raw.index), empty
        text = raw[column].astype("string").str.strip()
        text = text.mask(text.isin(_SCORE_DASHES))
        return per_unique(text, _score_number), text

    ns, ns_text = parse("score")
    ew, ew_text = parse("score_ew")
    ns_only = ns.notna() & ~((ns == 0) & ew.notna() & (ew != 0))
    written = ns.where(ns_only, -ew)
    shown = ns_text.where(ns_only, ew_text)
    bad_text = (ns_text.notna() & ns.isna()) | (ew_text.notna() & ew.isna()) | ((written % 1 != 0) & written.notna())
    both = (ns.notna() & ew.notna() & (ns != 0) & (ew != 0) & (ns != -ew)).fillna(False)
    from_ew = (~ns_only & ew_text.notna()).to_numpy()
    return written.where(~bad_text), shown, bad_text | both, from_ew


def _score_number(text: pd.Series) -> pd.Series:
    """Written score text -> number: ``+420``, ``−50``, ``420,0`` (decimal comma), ``1.430``/``1,430`` (thousands)."""
    clean = (text.str.replace("−", "-", regex=False).str.replace(r"^\+", "", regex=True)
             .str.replace(r"^(-?\d+),(\d{1,2})$", r"\1.\2", regex=True)
             .str.replace(r"^(-?\d{1,2})[,.' ](\d{3})$", r"\1\2", regex=True))
    return pd.to_numeric(clean, errors="coerce").astype("float64")


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

    def describe(at: np.ndarray) -> list[str]:
        out = []
        for i in at:
            if scored["level"].iat[i] == 0:
                out.append(f"written score {written.iat[i]:g} but the board was passed out: it should be 0; "
                           "correct the score or the contract")
                continue
            vul_text = "vulnerable" if decl_vul[i] else "not vulnerable"
            played_by = f"{text.iat[i]} by {scored['declarer'].iat[i]} ({vul_text})"
            if no_tricks[i]:
                out.append(f"no result written for {played_by}; the written score {written.iat[i]:g} fits "
                           f"{fixed_tricks[i]} tricks only: used that" if fixed[i] else
                           f"no result for a played contract, and no single trick count of {played_by} gives the "
                           f"written score {written.iat[i]:g}; write =, +1, -2 or the tricks taken")
                continue
            head = (f"written score {written.iat[i]:g} disagrees with {played_by} taking {scored['tricks'].iat[i]} "
                    f"tricks, which scores {computed.iat[i]} for NS")
            if fixed[i]:
                out.append(f"{head}; trusted the written score: corrected to {fixed_tricks[i]} tricks")
            elif trust == "score":
                out.append(f"{head}; no single trick count gives the written score, so correct the score or the "
                           "contract/result")
            else:
                out.append(f"{head}; correct the score or the contract/result (or pass trust=\"score\")")
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
