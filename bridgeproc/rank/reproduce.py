"""The conventions that reproduce a file's published numbers, found by a cheap search.

A file scored by another program carries that program's numbers (board MPs or IMPs, datums,
totals, percentages, places). They are the spec: by default bridgeproc ranks with the set of
conventions that reproduces them. The search starts from what the file says (its producer's
profile, its Scoring tag, its sections), and climbs: each round tries every single change of a
field of :data:`~bridgeproc.rank.conventions.SEARCH_FIELDS` (and each named profile, in the first
round), keeps the change that reproduces most, and stops when nothing more is reproduced.
Changes are cheapest first, so the set kept is the one closest to the file's own.

It runs in two stages, so that a club session costs a few dozen rankings, not thousands:
board values first (a ranking and an array comparison each), then the standings (totals,
percentages and places), where a board-value change is tried only when it keeps every board
value reproduced. Published per-result values are aligned with the results once.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

from bridgeproc.rank._standings import rank_results, standings
from bridgeproc.rank.conventions import (
    BOARD_FIELDS,
    DECLARED,
    PROFILES,
    SEARCH_FIELDS,
    SEARCH_SPACE,
    Conventions,
)
from bridgeproc.rank.methods import ranking_method
from bridgeproc.rank.published import TOLERANCE, _standings_values, published_standings

#: Fields a profile jump keeps from the start (what the file itself says).
_KEPT = ("method", "across_field", "pair_numbering")
#: Fields read by the ranking of results only, never by the standings: a change of one that leaves every
#: ranked value as it was changes nothing.
RANKING_ONLY = frozenset({"factoring", "adjusted_mode", "imp_ave_plus", "datum_drop", "fouled", "expected"})
#: Rounds of the climb at most (each round adds one change).
MAX_ROUNDS = 6


@dataclass(frozen=True)
class _BoardKind:
    """One kind of published per-result number, aligned with the results' rows."""

    label: str
    ours: str
    rows: np.ndarray
    published: np.ndarray


class Tally:
    """Counts of a ``kinds`` frame (``kind, compared, agree``): how many published numbers were
    compared and how many agree."""

    kinds: pd.DataFrame

    @property
    def compared(self) -> int:
        return int(self.kinds["compared"].sum())

    @property
    def agree(self) -> int:
        return int(self.kinds["agree"].sum())

    @property
    def exact(self) -> bool:
        return self.compared > 0 and self.agree == self.compared

    def summary(self) -> str:
        """``MP_NS 322/322, totals 12/12, ...``."""
        return summary(self.kinds)


@dataclass(frozen=True)
class Reproduction(Tally):
    """The conventions kept and how much of the published numbers they reproduce.

    ``kinds`` has ``kind, compared, agree`` (as :func:`bridgeproc.rank.published.published_agreement`);
    ``tried`` is every set whose standings were compared, with its kinds, in the order tried."""

    conventions: Conventions
    start: Conventions
    kinds: pd.DataFrame
    tried: tuple[tuple[Conventions, pd.DataFrame], ...] = field(default=(), repr=False)
    rankings: int = 0

    def changes(self) -> dict[str, object]:
        """The fields the search changed from where it started."""
        return changed_fields(self.conventions, self.start)

    def searched(self) -> str:
        """What was tried, for the notes of published numbers nothing reproduced."""
        names = ", ".join(OPTION_NAMES.get(f, "--" + f.replace("_", "-")) for f in SEARCH_FIELDS[self.start.method])
        return (f"none of the {len(self.tried)} sets of conventions tried reproduces them all "
                f"(searched {names} and the profiles)")


def summary(kinds: pd.DataFrame) -> str:
    return ", ".join(f"{k} {a}/{c}" for k, a, c in zip(kinds["kind"], kinds["agree"], kinds["compared"]))


def changed_fields(conventions: Conventions, base: Conventions) -> dict[str, object]:
    """The search's fields whose value in ``conventions`` differs from ``base``."""
    names = [n for n in DECLARED if n in SEARCH_SPACE or n in ("method", "datum_drop_share", "fouled", "expected", "masterpoints", "handicap_style", "strata")]
    return {n: getattr(conventions, n) for n in names if getattr(conventions, n) != getattr(base, n)}


#: The command line's name of each convention, and the flag that turns a switch off (from the declarations).
OPTION_NAMES = {name: str(d.flag).split("/")[0] for name, d in DECLARED.items() if d.flag}
OFF_FLAGS = {name: str(d.flag).split("/")[1] for name, d in DECLARED.items() if d.flag and "/" in d.flag}


def option_flags(conventions: Conventions, base: Conventions = Conventions()) -> list[str]:
    """The command-line options (``score``'s names) that turn ``base`` into ``conventions``."""
    flags: list[str] = []
    for name, value in changed_fields(conventions, base).items():
        if name == "method":
            flags.insert(0, f"--method {value}")
            continue
        flag = OPTION_NAMES.get(name, "--" + name.replace("_", "-"))
        if isinstance(value, bool):
            flags.append(flag if value else OFF_FLAGS.get(name, f"--no-{flag[2:]}"))
        elif value is None:
            flags.append(f"{flag} exact")
        else:
            flags.append(f"{flag} {value:g}" if isinstance(value, float) else f"{flag} {value}")
    return flags


def _numbers(column: pd.Series) -> np.ndarray:
    text = column.astype("string").str.strip()
    return pd.to_numeric(text, errors="coerce").to_numpy(dtype=float, na_value=np.nan)


def _board_kinds(raw: pd.DataFrame, results: pd.DataFrame, method: str) -> list[_BoardKind]:
    """The published board values of ``method`` (and Butler datums), by row of ``results``."""
    known = ranking_method(method)
    pairs = [(ours, theirs.lower(), theirs.upper()) for ours, theirs in zip(known.points, known.pbn_points)]
    if method == "butler":
        pairs.append(("datum", "butlerdatum", "datums"))
    ours_keys = pd.DataFrame({"source": results["source"].astype("string"), "line": results["line"].astype("Int64"),
                              "row": np.arange(len(results))})
    found = []
    for ours, column, label in pairs:
        if column not in raw:
            continue
        theirs = pd.DataFrame({"source": raw["source"].astype("string"), "line": raw["line"].astype("Int64"),
                               "section": raw["section"].astype("string") if "section" in raw else "",
                               "board": raw["board"].astype("string"), "published": _numbers(raw[column])})
        theirs = theirs.dropna(subset=["published"])
        if ours == "datum":  # one datum per board, written on each of its lines
            theirs = theirs.drop_duplicates(subset=["source", "section", "board"])
        both = theirs.merge(ours_keys, on=["source", "line"], how="inner")
        if len(both):
            found.append(_BoardKind(label, ours, both["row"].to_numpy(), both["published"].to_numpy(dtype=float)))
    return found


class _Search:
    """The search's state: inputs aligned once, rankings and comparisons memoised."""

    def __init__(self, results: pd.DataFrame, raw: pd.DataFrame, totals: pd.DataFrame | None,
                 names: pd.DataFrame | None, numbering: str, given=None) -> None:
        self.results, self.raw, self.names, self.numbering, self.given = results, raw, names, numbering, given
        self.totals = published_standings(totals) if totals is not None and len(totals) else None
        self.kinds_by_method: dict[str, list[_BoardKind]] = {}
        self.ranked: dict[Conventions, pd.DataFrame] = {}
        self.prints: dict[Conventions, int] = {}
        self.board_scores: dict[Conventions, tuple[int, int, pd.DataFrame]] = {}
        self.full: dict[Conventions, pd.DataFrame] = {}
        self.tried: list[tuple[Conventions, pd.DataFrame]] = []

    def board_key(self, conv: Conventions) -> Conventions:
        """The conventions with every field that changes only standings at its default."""
        default = Conventions()
        return conv.replace(**{n: getattr(default, n) for n in SEARCH_SPACE
                               if n not in BOARD_FIELDS and n != "mp_decimals"})

    def rank(self, conv: Conventions) -> pd.DataFrame:
        key = self.board_key(conv)
        if key not in self.ranked:
            ranked = rank_results(self.results, key.replace(pair_numbering=self.numbering))
            self.ranked[key] = ranked
            added = [c for c in ranked.columns if c not in self.results.columns]
            self.prints[key] = hash(tuple(ranked[c].to_numpy(dtype=float, na_value=np.nan).tobytes() for c in added
                                          if pd.api.types.is_numeric_dtype(ranked[c])))
        return self.ranked[key]

    def same_ranking(self, one: Conventions, other: Conventions) -> bool:
        """True when both give every result the same ranked values (a change that changes nothing)."""
        self.rank(one), self.rank(other)
        return self.prints[self.board_key(one)] == self.prints[self.board_key(other)]

    def board(self, conv: Conventions) -> tuple[int, int, pd.DataFrame]:
        """(agree, compared, kinds) of the board values."""
        key = self.board_key(conv)
        if key in self.board_scores:
            return self.board_scores[key]
        if conv.method not in self.kinds_by_method:
            self.kinds_by_method[conv.method] = _board_kinds(self.raw, self.results, conv.method)
        ranked = self.rank(conv)
        rows = []
        for kind in self.kinds_by_method[conv.method]:
            ours = ranked[kind.ours].to_numpy(dtype=float, na_value=np.nan)[kind.rows]
            keep = ~np.isnan(ours)
            agree = int((np.abs(ours[keep] - kind.published[keep]) <= TOLERANCE).sum())
            rows.append({"kind": kind.label, "compared": int(keep.sum()), "agree": agree})
        kinds = pd.DataFrame(rows, columns=["kind", "compared", "agree"])
        if self.given is not None:
            kinds = pd.concat([kinds, self.given(ranked, conv.method)], ignore_index=True)
        score = (int(kinds["agree"].sum()), int(kinds["compared"].sum()), kinds)
        self.board_scores[key] = score
        return score

    def evaluate(self, conv: Conventions) -> pd.DataFrame:
        """Every kind compared: board values, then the standings' totals, percentages and places."""
        if conv in self.full:
            return self.full[conv]
        _, _, kinds = self.board(conv)
        if self.totals is not None:
            decided = conv.replace(pair_numbering=self.numbering)
            table = standings(self.rank(conv), decided)  # names do not change who is ranked where
            rows = [{"kind": label, "compared": len(both), "agree": int(len(both) - differ.sum())}
                    for both, differ, _, label, *_ in _standings_values(self.totals, table, conv.method) if len(both)]
            kinds = pd.concat([kinds, pd.DataFrame(rows, columns=["kind", "compared", "agree"])], ignore_index=True)
        self.full[conv] = kinds
        self.tried.append((conv, kinds))
        return kinds


def _neighbours(conv: Conventions, fields: tuple[str, ...], first: bool) -> list[Conventions]:
    """Every set one field away from ``conv`` (in the declared order), then the profiles' sets."""
    found = [conv.replace(**{name: value}) for name in fields for value in SEARCH_SPACE[name]
             if value != getattr(conv, name)]
    if first:
        keep = {n: getattr(conv, n) for n in _KEPT}
        found += [p.replace(**keep) for p in PROFILES.values()]
    return list(dict.fromkeys(found))


def _distance(conv: Conventions, start: Conventions) -> int:
    return len(changed_fields(conv, start))


def _climb(start: Conventions, origin: Conventions, fields: tuple[str, ...], score, ceiling: int) -> Conventions:
    """Hill-climb from ``start``: the best single change each round (ties: fewest changes from
    ``origin``, then the declared order) while it reproduces more; the first set that reproduces
    all ``ceiling`` numbers ends it."""
    current, best = start, score(start, start)
    for round_number in range(MAX_ROUNDS):
        if best is not None and best >= ceiling:
            break
        scored = []
        for i, candidate in enumerate(_neighbours(current, fields, round_number == 0)):
            value = score(candidate, current)
            if value is None:
                continue
            scored.append((value, -_distance(candidate, origin), -i, candidate))
            if value >= ceiling:
                break
        if not scored:
            break
        top = max(scored, key=lambda item: item[:3])
        if top[0] <= best:
            break
        best, current = top[0], top[3]
    return current


def reproduce(results: pd.DataFrame, raw: pd.DataFrame, start: Conventions, numbering: str,
              totals: pd.DataFrame | None = None, names: pd.DataFrame | None = None,
              methods: tuple[str, ...] = (), given: Callable[[pd.DataFrame, str], pd.DataFrame] | None = None,
              ) -> Reproduction:
    """The conventions, from ``start``, that reproduce the most of the numbers ``raw`` (published
    per-result columns) and ``totals`` (published standings) hold.

    ``results`` are the checked results (not yet ranked); ``methods`` other ranking methods the
    file may have used (an IMP file's other IMP method); ``given(ranked, method)`` compares numbers
    published apart from the file (``kind, compared, agree``), as board values. Returns ``start``
    itself when it reproduces everything or nothing is published.
    """
    search = _Search(results, raw, totals, names, numbering, given)
    kinds = search.evaluate(start)
    if not len(kinds) or (kinds["agree"] == kinds["compared"]).all():
        return Reproduction(start, start, kinds, tuple(search.tried), len(search.ranked))
    fields = SEARCH_FIELDS[start.method]
    sections = results["section"].astype("string").fillna("").nunique() if "section" in results else 1
    if sections < 2:
        fields = tuple(f for f in fields if f != "across_field")
    starts = [start] + [start.replace(method=m) for m in methods if m != start.method]
    best: Conventions | None = None
    for begin in starts:
        method_fields = SEARCH_FIELDS[begin.method] if begin.method != start.method else fields
        if sections < 2:
            method_fields = tuple(f for f in method_fields if f != "across_field")
        current = begin
        if search.board(begin)[1]:  # board values published: settle them first
            board_fields = tuple(f for f in method_fields if f in BOARD_FIELDS)
            current = _climb(begin, start, board_fields, lambda c, _: search.board(c)[0], search.board(begin)[1])
        if search.totals is not None:
            board_best = search.board(current)[0]
            def full(c: Conventions, at: Conventions, floor: int = board_best) -> int | None:
                if search.board(c)[0] < floor:
                    return None  # loses a board value: not worth a standings comparison
                changed = set(changed_fields(c, at))
                if changed and changed <= RANKING_ONLY and search.same_ranking(c, at):
                    return None  # a ranking convention that changes no result: nothing to compare
                return int(search.evaluate(c)["agree"].sum())
            current = _climb(current, start, method_fields, full, int(search.evaluate(begin)["compared"].sum()))
        if best is None or _total(search.evaluate(current)) > _total(search.evaluate(best)):
            best = current
        kinds = search.evaluate(best)
        if (kinds["agree"] == kinds["compared"]).all():
            break  # the file's own method reproduces it: no other method is tried
    assert best is not None
    return Reproduction(best, start, search.evaluate(best), tuple(search.tried), len(search.ranked))


def _total(kinds: pd.DataFrame) -> int:
    return int(kinds["agree"].sum())


__all__ = ["Tally", "Reproduction", "reproduce", "changed_fields", "summary", "option_flags"]
