"""Cross-row checks a careful scorer makes, as whole-column masks over the typed results.

Each check takes the typed ``results`` and a ``Problems`` collector bound to the raw
frame (same rows, same order), so every message points at the file and line or
``Sheet!Cell`` the director typed. Rows that already have a problem are skipped by
the later checks, so one typo gives one message, not an echo of it. The arrow-switch
checks live in ``validate.arrow`` (:func:`check_pairs` runs them).
"""
from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd

from bridgeproc.core.boards import dealer_of, vul_of
from bridgeproc.core.keys import first_of_each, key_codes
from bridgeproc.core.pairs import pair_keys
from bridgeproc.core.problems import Problems
from bridgeproc.validate.arrow import arrow_switches, check_pair_rounds, row_or_line


def check_pairs(results: pd.DataFrame, numbering: Literal["shared", "per-direction"], problems: Problems) -> None:
    """A pair meeting itself, a result entered twice, a pair twice on a board or in both directions,
    and (a Round column) a pair against two opponents in one round.

    Types an arrow-switch mark into ``results["switched"]`` first (:func:`arrow_switches`).
    """
    arrow_switches(results, problems)
    _check_repeats(results, numbering, problems)
    check_pair_rounds(results, numbering, problems)


def _check_repeats(results: pd.DataFrame, numbering: Literal["shared", "per-direction"], problems: Problems) -> None:
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
    # each usable row's two sides, row by row, its EW side first; the first entry of a (board, pair) is the
    # pair's first row on the board, and which side it sat there
    entry_row = np.repeat(rows, 2)
    entry_ew = np.tile(np.array([True, False]), len(rows))
    ns_keys, ew_keys = ns_key.to_numpy(dtype=object), ew_key.to_numpy(dtype=object)  # by number: a switch too
    entry_key = np.where(entry_ew, ew_keys[entry_row], ns_keys[entry_row])
    code, count = key_codes(results["board"].to_numpy()[entry_row], entry_key)
    first_entry = first_of_each(code, count)
    again = np.flatnonzero(entry_row[first_entry] != entry_row)
    if not len(again):
        return
    again = again[np.concatenate([[True], entry_row[again[1:]] != entry_row[again[:-1]]])]  # a row's first one
    hits = pd.DataFrame({"row": entry_row[again], "direction": np.where(entry_ew[again], "EW", "NS"),
                         "first": entry_row[first_entry[again]],
                         "first_dir": np.where(entry_ew[first_entry[again]], "EW", "NS")})
    mask = np.zeros(n, dtype=bool)
    mask[hits["row"].to_numpy()] = True
    info = hits.set_index("row")
    same_tables = (ns_keys[info.index] == ns_keys[info["first"]]) & (ew_keys[info.index] == ew_keys[info["first"]])
    same_tables |= (ns_keys[info.index] == ew_keys[info["first"]]) & (ew_keys[info.index] == ns_keys[info["first"]])
    info = info.assign(same_table=same_tables)

    def messages(at: np.ndarray) -> list[str]:
        out = []
        for row in at:
            hit = info.loc[row]
            board = results["board"].iat[row]
            earlier = row_or_line(results["source"].iat[hit["first"]], results["line"].iat[hit["first"]])
            side = "ns" if hit["direction"] == "NS" else "ew"
            pair = results[side].iat[row]
            if hit["same_table"]:
                out.append(f"NS {results['ns'].iat[row]} v EW {results['ew'].iat[row]} on board {board} is entered twice "
                           f"(also {earlier}); delete one")
            elif hit["direction"] != hit["first_dir"]:
                out.append(f"pair {pair} plays board {board} both as {hit['first_dir']} ({earlier}) and as "
                           f"{hit['direction']} here; correct one of the pair numbers")
            else:
                hint = ("; if the pairs of a round sat the other way (arrow switch), mark it: a Switched column "
                        "(Y) or --arrow-switch ROUNDS" if numbering == "per-direction" else "")
                out.append(f"pair {pair} has a second result on board {board} (first {earlier}); "
                           f"remove the duplicate or correct the pair number{hint}")
        return out

    problems.add(mask, "board", messages)


#: A pair seen on one board only, where the typical pair plays at least this many, is suspect.
RARE_PAIR_MIN_TYPICAL = 4


def check_rare_pairs(results: pd.DataFrame, numbering: Literal["shared", "per-direction"], notes: Problems,
                     bad: np.ndarray) -> None:
    """A pair seen on a single result while pairs typically play many boards: a typo, or a substitute.

    Only suspicious, so a warning in ``notes`` (a BBO event's substitutes play one board);
    rows already ``bad`` are left out."""
    ns_key, ew_key = pair_keys(results, numbering)
    ok = ~bad & results["ns"].notna().to_numpy() & results["ew"].notna().to_numpy()
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
        mask = key.isin(rare).to_numpy() & ok
        notes.add(mask, side, lambda at, s=side: [
            f"pair {p} appears on this result only, while pairs typically play {typical:g} boards; "
            "check the pair number (a substitute pair is ranked on its own)"
            for p in results[s].iloc[at]])


def _tables_by_section(raw: pd.DataFrame, results: pd.DataFrame, tables: int | None,
                       numbering: Literal["shared", "per-direction"]) -> tuple[pd.Series, str, bool]:
    """Tables per section, how that was found, and whether it was given (option or Table column)."""
    sections = results["section"].fillna("")
    if tables is not None:
        return pd.Series(tables, index=sections.unique()), "as given", True
    if "table" in raw and raw["table"].fillna("").str.strip().ne("").any():
        table = raw["table"].astype("string").str.strip()
        distinct = pd.DataFrame({"section": sections, "table": table}).dropna().query("table != ''")
        return distinct.groupby("section")["table"].nunique(), "from the Table column", True
    # Inferred: every result seats two different pairs, so a section of p pairs has at most
    # ceil(p/2) tables (shared numbering) or as many tables as NS pairs (per direction).
    ns_key, ew_key = pair_keys(results, numbering)
    if numbering == "per-direction":
        keys = pd.DataFrame({"section": sections, "key": ns_key})
        limit = keys.dropna().groupby("section")["key"].nunique()
        how = "one per NS pair"
    else:
        keys = pd.DataFrame({"section": pd.concat([sections, sections], ignore_index=True),
                             "key": pd.concat([ns_key, ew_key], ignore_index=True)})
        limit = (keys.dropna().groupby("section")["key"].nunique() + 1) // 2
        how = "half the number of pairs"
    return limit, how, False


def check_tables(raw: pd.DataFrame, results: pd.DataFrame, tables: int | None, problems: Problems,
                 notes: Problems | None = None, numbering: Literal["shared", "per-direction"] = "shared",
                 table_rounds: bool = True, left_out: np.ndarray | None = None) -> None:
    """Boards with results from more tables than exist; the same table/round twice (when given, and
    ``table_rounds``: a movement that checks each result's table and round names the wrong one itself,
    where this check can only say that two rows disagree). ``left_out`` rows (refused by the movement) are
    not counted on their boards.

    The number of tables comes from ``tables`` or the Table column; else it is inferred
    from the pairs (see ``_tables_by_section``) and a board with more results than most
    boards of its section is only a note (a 3-table Howell may play most boards twice).
    """
    if table_rounds:
        _check_table_rounds(raw, results, problems)
    section = results["section"].fillna("")
    limit, how, given = _tables_by_section(raw, results, tables, numbering)
    counted = results.assign(section=section)
    if left_out is not None:
        counted = counted.assign(board=counted["board"].mask(left_out, -1))
    by_board = counted.groupby(["section", "board"])
    order = by_board.cumcount().to_numpy() + 1
    allowed = section.map(limit).fillna(np.inf).to_numpy(dtype=float)
    count = by_board["board"].transform("size").to_numpy()
    on_board = counted["board"].to_numpy() > 0
    excess = (order == np.floor(allowed) + 1) & on_board & ~problems.bad
    problems.add(excess, "board", lambda at: [
        f"board {b} has {c} results but {('section ' + s) if s else 'the session'} has {int(a)} table{'s' if a != 1 else ''} ({how}); "
        "look for a duplicate result or a wrong board number"
        for b, c, s, a in zip(results["board"].iloc[at], count[at], section.iloc[at], allowed[at])])
    if not given and notes is not None:
        _note_uncommon_counts(results, section, count, on_board & ~problems.bad, notes)


def _note_uncommon_counts(results: pd.DataFrame, section: pd.Series, count: np.ndarray, usable: np.ndarray,
                          notes: Problems) -> None:
    """One note per section whose boards have more results than most (the mode) of its boards."""
    frame = pd.DataFrame({"section": section.to_numpy(dtype=object), "board": results["board"].to_numpy(),
                          "count": count, "row": np.arange(len(results))})[usable]
    if frame.empty:
        return
    per_board = frame.drop_duplicates(["section", "board"])
    # the most common count per section; on a tie the larger count
    frequency = per_board.groupby(["section", "count"]).size().rename("n").reset_index()
    mode = (frequency.sort_values(["section", "n", "count"], ascending=[True, False, False])
            .drop_duplicates("section").set_index("section")["count"])
    typical = per_board["section"].map(mode).to_numpy()
    # most boards played once is a partial file, not a movement: nothing to say
    above = per_board[(per_board["count"].to_numpy() > typical) & (typical >= 2)]
    if above.empty:
        return
    mask = np.zeros(len(results), dtype=bool)
    firsts = above.groupby("section", sort=False)["row"].min()
    mask[firsts.to_numpy()] = True

    def messages(at: np.ndarray) -> list[str]:
        out = []
        for row in at:
            s = section.iat[row]
            mine = above[above["section"] == s].sort_values("board")
            boards = [str(b) for b in mine["board"]]
            listed = (f"board {boards[0]} has" if len(boards) == 1
                      else f"boards {', '.join(boards[:-1])} and {boards[-1]} have")
            where = f"section {s}" if s else "the session"
            out.append(f"{listed} more results than most boards, which have {mode[s]}; if {where} has {mode[s]} tables, "
                       "look for a duplicate result or a wrong board number (give --tables to check it)")
        return out

    notes.add(mask, "board", messages)


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
    seated = (table.fillna("") != "").to_numpy() & (rnd.fillna("") != "").to_numpy() & ~problems.bad
    rows = np.flatnonzero(seated)  # in order: a key's first row is its lowest
    at_table = [section.to_numpy(dtype=object)[rows], table.to_numpy(dtype=object)[rows],
                rnd.to_numpy(dtype=object)[rows]]
    code, count = key_codes(*at_table, results["board"].to_numpy()[rows])
    first = rows[first_of_each(code, count)]
    twice = first != rows
    mask = np.zeros(len(results), dtype=bool)
    mask[rows[twice]] = True
    first_of = dict(zip(rows[twice].tolist(), first[twice].tolist()))
    problems.add(mask, "table", lambda at: [
        f"table {table.iat[r]} round {rnd.iat[r]} already has a result on board {results['board'].iat[r]} "
        f"({row_or_line(results['source'].iat[first_of[r]], results['line'].iat[first_of[r]])}); "
        "correct the table, round or board" for r in at])
    once = ~twice
    rows = rows[once]
    pairs = _table_key(results["ns"].fillna("?"), results["ew"].fillna("?")).to_numpy(dtype=object)[rows]
    code, count = key_codes(*[column[once] for column in at_table])
    first = first_of_each(code, count)  # the table and round's first row and its pairs
    other = pairs != pairs[first]
    mask = np.zeros(len(results), dtype=bool)
    mask[rows[other]] = True
    first_at = dict(zip(rows[other].tolist(), rows[first[other]].tolist()))
    problems.add(mask, "ns", lambda at: [
        f"table {table.iat[r]} round {rnd.iat[r]} has NS {results['ns'].iat[first_at[r]]} v EW {results['ew'].iat[first_at[r]]} "
        f"({row_or_line(results['source'].iat[first_at[r]], results['line'].iat[first_at[r]])}) but NS "
        f"{results['ns'].iat[r]} v EW {results['ew'].iat[r]} here; correct the pair numbers or the table/round"
        for r in at])


def check_names(results: pd.DataFrame, names: pd.DataFrame, numbering: Literal["shared", "per-direction"],
                notes: Problems, bad: np.ndarray) -> None:
    """Pairs that the names list lacks (``names``: section, pair, names, optional direction): a
    warning in ``notes`` (the pair is ranked without names), not a refusal of the whole run.

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
    sides = pd.concat([text(results, "ns"), text(results, "ew")])
    if len(sides) and sides.str.contains("+", regex=False).all():  # an individual: its names are per player
        _check_player_names(results, known, where, use_section, notes, bad)
        return
    for side in ("ns", "ew"):
        key = text(results, side)
        if use_section:
            key = text(results, "section") + "\x1f" + key
        if per_direction:
            key = key + "\x1f" + side.upper()
        # one note per missing pair, at its first result (not one per result it played)
        unknown = ~key.isin(known).to_numpy() & results[side].notna().to_numpy() & ~bad & ~key.duplicated().to_numpy()
        notes.add(unknown, side, lambda at, s=side: [
            f"pair {(sc + p) if use_section else p} is not in {where} (ranked without names); "
            "correct the pair number or add the pair there"
            for sc, p in zip(results["section"].iloc[at].fillna(""), results[s].iloc[at])])


def _check_player_names(results: pd.DataFrame, known: set, where: str, use_section: bool, notes: Problems,
                        bad: np.ndarray) -> None:
    """:func:`check_names` for an individual: each player of each side ``north+south`` looked up alone."""
    section = results["section"].astype("string").fillna("") + "\x1f" if use_section else ""
    seen: set = set()
    for side in ("ns", "ew"):
        players = results[side].astype("string").str.split("+", n=1, expand=True).reindex(columns=[0, 1])
        for which in (0, 1):
            key = section + players[which].fillna("").str.strip()
            unknown = (~key.isin(known | seen).to_numpy() & results[side].notna().to_numpy() & ~bad
                       & ~key.duplicated().to_numpy())
            seen |= set(key[unknown])
            notes.add(unknown, side, lambda at, k=key: [
                f"player {k.iat[r].replace(chr(31), '')} is not in {where} (ranked without a name); correct the "
                "player number or add the player there" for r in at])


def check_boards(results: pd.DataFrame, boards: pd.DataFrame, problems: Problems) -> None:
    """Add a problem for each result on a board the hand record lacks. A board the hand record lists
    without its cards (a game with no Deal tag) is not lacking: its results are scored without the
    cards, as the note at that game says, once (not a problem on each of its results)."""
    deal = boards["deal"].astype("string").str.strip() if "deal" in boards else pd.Series("x", index=boards.index)
    dealt = (deal.notna() & (deal != "")).to_numpy()
    if not dealt.any():
        return  # results-only PBN: no hand record to compare with
    present = set(boards["board"].dropna().astype("int64"))
    lacking = ~results["board"].isin(present).to_numpy() & (results["board"].to_numpy() > 0)
    problems.add(lacking, "board", lambda at: [
        f"board {b} is not in the hand record; correct the board number or give the hand record that has it"
        for b in results["board"].iloc[at]])



_VUL_WORDS = {"None": "nobody vulnerable", "NS": "NS vulnerable", "EW": "EW vulnerable", "All": "both sides vulnerable"}


def check_hand_record_cycle(results: pd.DataFrame, boards: pd.DataFrame, notes: Problems) -> None:
    """A note per played board whose hand-record vulnerability or dealer is not the 16-board cycle's.

    Scoring uses the hand record's vulnerability (see scoring.score); a dealing program set
    to the wrong board numbers is a common slip, so the director should see it. The note
    points at the hand record's line.
    """
    if "vul" not in boards and "dealer" not in boards:
        return
    numbers = boards["board"].to_numpy(dtype=np.int64)
    used = np.isin(numbers, results["board"].to_numpy()) & (numbers > 0) & ~pd.Series(numbers).duplicated().to_numpy()
    vul = boards["vul"].astype("string") if "vul" in boards else pd.Series(pd.NA, index=boards.index, dtype="string")
    dealer = (boards["dealer"].astype("string") if "dealer" in boards
              else pd.Series(pd.NA, index=boards.index, dtype="string"))
    cycle_vul = pd.Series(vul_of(np.where(used, numbers, 1)), index=boards.index).astype("string")
    cycle_dealer = pd.Series(dealer_of(np.where(used, numbers, 1)), index=boards.index).astype("string")
    vul_differs = (vul.notna() & (vul != cycle_vul)).to_numpy(dtype=bool, na_value=False) & used
    dealer_differs = (dealer.notna() & (dealer != cycle_dealer)).to_numpy(dtype=bool, na_value=False) & used
    source = boards["source"] if "source" in boards else pd.Series("the hand record", index=boards.index)
    line = boards["line"] if "line" in boards else pd.Series(pd.NA, index=boards.index)
    for i in np.flatnonzero(vul_differs | dealer_differs):
        said, says = [], []
        if vul_differs[i]:
            said.append(_VUL_WORDS[vul.iat[i]])
            says.append(_VUL_WORDS[cycle_vul.iat[i]])
        if dealer_differs[i]:
            said.append(f"dealer {dealer.iat[i]}")
            says.append(f"dealer {cycle_dealer.iat[i]}")
        effect = "scored as the hand record says" if vul_differs[i] else "kept as the hand record says"
        notes.add_at(source.iat[i], line.iat[i], "vul" if vul_differs[i] else "dealer",
                     vul.iat[i] if vul_differs[i] else dealer.iat[i],
                     f"board {numbers[i]}: the hand record says {' and '.join(said)}, the board number says "
                     f"{' and '.join(says)}; {effect}")


#: Longest fouled-board group label; longer text is more likely a note typed in the wrong column.
FOULED_LABEL_MAX = 12


def check_fouled(results: pd.DataFrame, problems: Problems, notes: Problems) -> None:
    """Fouled-board groups (``fouled`` column): over-long labels are problems; each fouled board gets a note.

    A board is fouled when its played and weighted results carry two or more groups
    (as the ranking counts them); the note, on the board's first row, lists the
    groups so the director sees how it is scored.
    """
    if "fouled" not in results or results["fouled"].isna().all():
        return
    label = results["fouled"].astype("string")
    long = label.str.len().gt(FOULED_LABEL_MAX).to_numpy(dtype=bool, na_value=False)
    problems.add(long, "fouled", lambda at: [
        f"{v!r} is too long for a fouled-board group; write a short label such as F or 2, "
        "and leave the cell blank for the board as dealt" for v in label.iloc[at]])
    adjusted = results["adjusted"].astype("string")
    # as the ranking counts them: played results and weighted scores (artificial ones belong to no group)
    counted = ((adjusted.isna() & results["score_ns"].notna()) | adjusted.str.startswith("W:")).to_numpy(
        dtype=bool, na_value=False) & ~problems.bad
    frame = pd.DataFrame({"section": results["section"].astype("string").fillna(""), "board": results["board"],
                          "group": label.fillna(""), "row": np.arange(len(results))})[counted]
    sizes = frame.groupby(["section", "board", "group"], sort=True).size()
    per_board = sizes.groupby(level=["section", "board"]).size()
    fouled = per_board[per_board >= 2]
    if fouled.empty:
        return
    first = frame.groupby(["section", "board"])["row"].min()
    mask = np.zeros(len(results), dtype=bool)
    mask[first.loc[fouled.index].to_numpy()] = True

    def messages(at: np.ndarray) -> list[str]:
        out = []
        for row in at:
            key = (frame.loc[frame["row"] == row, "section"].iat[0], results["board"].iat[row])
            groups = sizes.loc[key]
            parts = [f"{n} result{'s' if n != 1 else ''} " + ("as dealt" if g == "" else f"in group {g}")
                     for g, n in groups.items()]
            out.append(f"board {key[1]} is fouled: scored as {len(groups)} groups ({', '.join(parts)}), "
                       "each scored on its own against the board's full top (IMPs within the group)")
        return out

    notes.add(mask, "fouled", messages)
