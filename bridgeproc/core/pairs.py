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
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from bridgeproc.core.numbering import PairNumbering
from bridgeproc.errors import ValidationError
from bridgeproc.schema import problems_frame

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


def movement_switch_marks(results: pd.DataFrame, movement: pd.DataFrame) -> pd.DataFrame:
    """The results with ``switched`` ``Y`` where the movement says their table and round were arrow-switched
    (the rounds ``bridgeproc movement --arrow-switch`` turned) and the result itself says nothing: the
    director need not mark them again. A mark the results do carry is kept as written (the checks then
    say whether it fits); a movement with no switched round leaves the results as they are."""
    if "switched" not in movement or not movement["switched"].fillna(False).any() or not len(results) \
            or "table" not in results or "round" not in results:
        return results
    keys = ["section", "table", "round"]
    turned = movement.loc[movement["switched"].fillna(False).astype(bool), keys].astype(
        {"section": "string", "table": "Int64", "round": "Int64"}).assign(turned=True)
    at = pd.DataFrame({
        "section": (results["section"].astype("string") if "section" in results
                    else pd.Series("", index=results.index, dtype="string")).fillna(""),
        "table": pd.to_numeric(results["table"].astype("string").str.strip(), errors="coerce").astype("Int64"),
        "round": pd.to_numeric(results["round"].astype("string").str.strip(), errors="coerce").astype("Int64"),
    }).reset_index(drop=True)
    turned_here = at.merge(turned.drop_duplicates(keys), on=keys, how="left")["turned"].fillna(False)
    before = (results["switched"].astype("string") if "switched" in results
              else pd.Series(pd.NA, index=results.index, dtype="string"))
    blank = before.fillna("").str.strip().eq("").to_numpy()
    marked = before.where(~(turned_here.to_numpy(dtype=bool) & blank), "Y")
    return results.assign(switched=pd.array(marked.to_numpy(dtype=object), dtype="string"))


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
#: The marks a pair id made for a field of several sections or directions is built with: its section before
#: ``SECTION_MARK``, its direction after ``DIRECTION_MARK`` (characters no cell holds); an event's pairs
#: and a simultaneous event's field are told apart by them.
SECTION_MARK, DIRECTION_MARK = "\x1e", "\x1f"


def combine_codes(high: np.ndarray, low: np.ndarray, n_low: int) -> tuple[np.ndarray, int]:
    """Dense codes (0.., in order of first appearance) of the pairs (``high``, ``low``) and how many
    there are; ``low`` runs over 0..``n_low``-1, a -1 in either gives -1. Integer work only: one
    code for a compound key (section, pair, direction ...) without building its text."""
    high, low = np.asarray(high, dtype=np.int64), np.asarray(low, dtype=np.int64)
    known = (high >= 0) & (low >= 0)
    out = np.full(len(high), -1, dtype=np.int64)
    if not known.any():
        return out, 0
    n_high = int(high[known].max()) + 1
    if n_high * max(n_low, 1) >= 2**62:  # never in practice: first make the high part dense
        high = np.where(known, pd.factorize(np.where(known, high, 0))[0], -1)
    codes, uniques = pd.factorize(high[known] * max(n_low, 1) + low[known])
    out[known] = codes
    return out, len(uniques)


def texts_at(texts: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """``texts[codes]`` as objects, None where a code is -1 (no pair)."""
    return np.concatenate([np.asarray(texts, dtype=object), np.array([None], dtype=object)])[codes]


@dataclass(frozen=True)
class Sides:
    """Both sides of every row as integer codes: the NS column's pairs (positions 0..n-1), then the
    EW column's (n..2n-1), so that whole-column work never touches a pair's text per row.

    ``section``: code of each row's section as written (a missing one has a code of its own) and
    ``sections`` their texts (``""`` for a missing one); ``pair``: code of each side's pair id
    (-1: none) and ``ids`` the distinct ids as written; ``folded``: for each id, a code that is equal
    for ids equal without case (``Cheryl O``, ``cheryl o``); ``direction``: 0 for NS, 1 for EW, the
    direction of the side's pair number (:func:`pair_directions`)."""

    section: np.ndarray
    sections: np.ndarray
    pair: np.ndarray
    ids: np.ndarray
    folded: np.ndarray
    direction: np.ndarray

    @property
    def rows(self) -> int:
        return len(self.section)

    def filled_section(self) -> tuple[np.ndarray, np.ndarray]:
        """Section code of each row with a missing section read as ``""`` (its code, the texts)."""
        dense, texts = pd.factorize(self.sections)
        return dense.astype(np.int64)[self.section], np.asarray(texts, dtype=object)

    def keys(self, numbering: Literal["shared", "per-direction"]) -> tuple[np.ndarray, int]:
        """Code of each side's pair identity (:func:`pair_keys`; -1 for no pair) and how many there are."""
        section, texts = self.filled_section()
        folded = np.append(self.folded, -1)[self.pair]  # code -1 (no pair) reads the appended -1
        key, count = combine_codes(np.concatenate([section, section]), folded, int(self.folded.max(initial=-1)) + 1)
        if numbering == "per-direction":
            key, count = combine_codes(key, self.direction, 2)
        return key, count

    def key_texts(self, numbering: Literal["shared", "per-direction"]) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`keys` and the text of every key code (``section:pair``, ``:NS``/``:EW`` when per direction)."""
        key, count = self.keys(numbering)
        at = np.full(count, -1, dtype=np.int64)
        at[key[key >= 0]] = np.flatnonzero(key >= 0)  # one side of each key
        n = self.rows
        section, texts = self.filled_section()
        folded_ids = np.array([str(i).casefold() for i in self.ids], dtype=object)
        side_section = texts[section[at % n]] if n else np.array([], dtype=object)
        text = side_section + ":" + folded_ids[self.pair[at]]
        if numbering == "per-direction":
            text = text + np.where(self.direction[at] == 0, ":NS", ":EW")
        return key, np.asarray(text, dtype=object)


def pair_sides(results: pd.DataFrame) -> Sides:
    """The :class:`Sides` of ``results``: each distinct section and pair id is read once."""
    section, sections = pd.factorize(results["section"].astype("string"), use_na_sentinel=False)
    texts = np.array(["" if pd.isna(s) else str(s) for s in sections], dtype=object)
    ns, ns_ids = pd.factorize(results["ns"].astype("string"))
    ew, ew_ids = pd.factorize(results["ew"].astype("string"))
    # the two columns' distinct ids made one list; each column's codes mapped onto it (-1 stays -1)
    merged, ids = pd.factorize(np.concatenate([np.asarray(ns_ids, dtype=object), np.asarray(ew_ids, dtype=object)]))
    ns_code = np.append(merged[:len(ns_ids)], -1)[ns]
    ew_code = np.append(merged[len(ns_ids):], -1)[ew]
    ids_text = np.asarray(ids, dtype=object)
    folded, _ = pd.factorize(np.array([i.casefold() for i in ids_text], dtype=object))
    switched = switched_rows(results).astype(np.int8)  # an arrow-switched row: the NS seat holds an EW pair
    direction = np.concatenate([switched, 1 - switched])
    return Sides(section.astype(np.int64), texts, np.concatenate([ns_code, ew_code]).astype(np.int64), ids_text,
                 folded.astype(np.int64), direction)


def per_direction(place: np.ndarray, group: np.ndarray, groups: int) -> np.ndarray:
    """The one rule pair numbering is decided by, for each of ``groups`` groups at once (a session is one
    group, a simultaneous event's clubs are many): per direction (True) when more than
    ``PER_DIRECTION_SHARE`` of a group's (section, board, pair) entries are seen in both directions.

    ``place`` is the code of each side's (group, section, board, pair as written), NS sides then EW
    sides (-1: no pair), ``group`` each side's group. Integer work only: each entry counted once per
    column it appears in (hashed, not sorted)."""
    n = len(place) // 2
    known = place >= 0
    if not known.any():
        return np.zeros(groups, dtype=bool)
    column = np.repeat(np.array([0, 1], dtype=np.int64), n)[known]  # the column, not the number's direction
    seen = pd.unique(place[known] * 2 + column)  # each (place, column) once
    places = int(place.max()) + 1
    ways = np.bincount(seen // 2, minlength=places)  # 2: the pair is seen in both columns
    group_of = np.zeros(places, dtype=np.int64)
    group_of[place[known]] = group[known]
    owner = group_of[seen // 2]
    total = np.bincount(owner, minlength=groups)
    twice = np.bincount(owner, weights=(ways[seen // 2] > 1).astype(float), minlength=groups)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(total > 0, twice / np.where(total > 0, total, 1), 0.0) > PER_DIRECTION_SHARE


def numbering_of(sides: Sides, board: np.ndarray) -> Literal["shared", "per-direction"]:
    """:func:`pair_numbering` decided on :class:`Sides` and each row's board (:func:`per_direction`)."""
    board_code, boards = pd.factorize(np.asarray(board))
    where, _ = combine_codes(np.concatenate([sides.section, sides.section]),
                             np.concatenate([board_code, board_code]), len(boards))
    entry, _ = combine_codes(where, sides.pair, len(sides.ids))  # (section, board, pair as written)
    one = per_direction(entry, np.zeros(len(entry), dtype=np.int64), 1)
    return "per-direction" if one[0] else "shared"


def numbering_by_group(section: pd.Series, board: np.ndarray, ns: pd.Series, ew: pd.Series,
                       group: np.ndarray) -> np.ndarray:
    """:func:`pair_numbering` for each group code at once (True: per direction), by :func:`per_direction`,
    from the cells as written (a simultaneous event's clubs before their results are checked). Integer
    codes only: each section, board and pair text is read once."""
    sec, secs = pd.factorize(section, use_na_sentinel=False)
    brd, brds = pd.factorize(np.asarray(board), use_na_sentinel=False)
    pair, pairs = pd.factorize(pd.concat([ns.astype("string"), ew.astype("string")], ignore_index=True))
    key, _ = combine_codes(np.concatenate([group, group]), np.concatenate([sec, sec]), len(secs))
    key, _ = combine_codes(key, np.concatenate([brd, brd]), len(brds))
    place, _ = combine_codes(key, pair, len(pairs))  # -1: no pair (as dropna)
    groups = int(group.max()) + 1 if len(group) else 0
    return per_direction(place, np.concatenate([group, group]), groups)


def pair_numbering(results: pd.DataFrame, forced: PairNumbering = "auto") -> Literal["shared", "per-direction"]:
    """Decide whether pair numbers are shared by both directions or counted per direction."""
    if forced != "auto":
        return forced
    return numbering_of(_entries(results), results["board"].to_numpy())


def _entries(results: pd.DataFrame) -> Sides:
    """The sides a numbering is decided on: one call per decision (a test counts them)."""
    return pair_sides(results)


def pair_keys(results: pd.DataFrame, numbering: Literal["shared", "per-direction"]) -> tuple[pd.Series, pd.Series]:
    """Identity of the NS and EW pair of each row: ``section:pair`` plus ``:NS``/``:EW`` when per direction
    (the direction of the pair's number: swapped on an arrow-switched row, see :func:`pair_directions`).

    Compared without case: a pair known by its players' names (BBO user names, pbntools
    conversions) is the same pair as ``Cheryl O`` on one board and ``cheryl o`` on another.
    Each distinct key's text is built once (:class:`Sides`), not once per row."""
    key, texts = pair_sides(results).key_texts(numbering)
    n = len(results)
    text = pd.array(texts_at(texts, key), dtype="string")
    return pd.Series(text[:n], index=results.index), pd.Series(text[n:], index=results.index)


def repeated_pairs(results: pd.DataFrame, numbering: Literal["shared", "per-direction"]) -> tuple[np.ndarray, np.ndarray]:
    """Rows where a pair appears again on a board it already played, and which pair.

    With shared numbering this includes a pair sitting both NS and EW on one board.
    """
    sides = pair_sides(results)
    key, count = sides.keys(numbering)
    n = len(results)
    board_code, boards = pd.factorize(results["board"].to_numpy())
    played, _ = combine_codes(np.concatenate([board_code, board_code]), key, count)
    known = np.flatnonzero(played >= 0)
    again = known[pd.Series(played[known]).duplicated(keep="first").to_numpy()]
    rows = again % n
    mask = np.zeros(n, dtype=bool)
    pair = np.full(n, "", dtype=object)
    mask[rows] = True
    pair[rows] = texts_at(sides.ids, sides.pair[again])
    return mask, pair
