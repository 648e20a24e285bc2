"""The Swiss draw: the next round's matches from the standings so far (teams or pairs).

The rules, in the order they apply:

1. **Order.** Entries are taken in standings order: victory points, then the event's
   tie-breaks. Entries equal on the total form a *score group*; the draw is top-down
   over the whole order, so a group is paired within itself first and an odd member
   (the lowest-placed that can go) *floats down* to the top of the next group. The
   draw's note marks a *float* only where a match takes an entry out of a group it
   shares: two entries alone on their totals (continuous VPs make most entries so)
   meeting is the order's next match, not a float.
2. **Bye.** With an odd number of entries the lowest-placed entry that has not had a
   bye sits out (its VPs are the event's bye award, an option of the scorer). If
   giving it the bye would force a rematch among the others, the bye moves up to the
   next lowest-placed entry without one whose absence lets the rest be drawn without
   any; when every entry has had a bye, the lowest-placed of all.
3. **Top-down, no repeat meetings.** The best-placed unpaired entry meets the
   best-placed unpaired entry it has not met, provided the rest of the field can
   still be drawn without a rematch; otherwise the next one it has not met, and so
   on (backtracking: a perfect matching of the field is looked for, not a greedy one).
4. **Rematches only when unavoidable.** When no draw of the whole field avoids every
   repeat meeting, the draw makes the fewest rematches possible (a maximum matching
   of the "have not met" graph, Edmonds' blossom algorithm), still top-down, with each
   entry meeting an opponent it has not met whenever that keeps the fewest; every
   rematch is named in the draw's ``note``.
5. **Seats.** The better-placed entry of each match is ``home`` (teams: home; pairs:
   North-South); tables are numbered from the top.

This is the bridge (Monrad) style of Swiss: 1 meets 2, 3 meets 4, ... as far as repeat
meetings allow, not the chess top-half-against-bottom-half rule. National rule books
differ in details (how far a float may go, seeding the first round); a director may
still swap matches by hand.

Speed: the top-down greedy draw is tried first (it is the answer whenever it finds no
repeat meeting); the blossom search runs only from the first entry the greedy draw
cannot place, so 200 entries draw in well under a second (``bench/bench_swiss.py``).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np
import pandas as pd

from bridgeproc.schema import SWISS_DRAW_COLUMNS


@dataclass(frozen=True)
class Field:
    """The entries to draw, best-placed first, and who has met whom (``met[i][j]`` meetings)."""

    entries: tuple[str, ...]
    totals: tuple[float, ...]
    met: tuple[tuple[int, ...], ...]

    @property
    def allowed(self) -> list[int]:
        """Bit ``j`` of ``allowed[i]`` is set when ``i`` and ``j`` have not met (and ``i != j``)."""
        n = len(self.entries)
        full = (1 << n) - 1
        return [full & ~(1 << i) & ~sum(1 << j for j in range(n) if self.met[i][j]) for i in range(n)]


def _greedy(order: list[int], allowed: list[int]) -> dict[int, int] | None:
    """The top-down draw without backtracking (each entry meets the best-placed free entry it
    has not met); None when it gets stuck."""
    free = sum(1 << v for v in order)
    partner: dict[int, int] = {}
    for v in order:
        if not free >> v & 1:
            continue
        free &= ~(1 << v)
        options = allowed[v] & free
        if not options:
            return None
        w = (options & -options).bit_length() - 1  # entries are numbered by place: the lowest bit is the best-placed
        free &= ~(1 << w)
        partner[v], partner[w] = w, v
    return partner


def max_matching(vertices: list[int], allowed: list[int]) -> int:
    """Size of a maximum matching of the "have not met" graph on ``vertices`` (Edmonds' blossom
    algorithm, O(V^3), started from the greedy draw's matches)."""
    n = len(vertices)
    index = {v: i for i, v in enumerate(vertices)}
    adjacency = [[index[w] for w in vertices if allowed[v] >> w & 1] for v in vertices]
    match = [-1] * n
    for i in range(n):  # greedy start: most vertices are matched before any search
        if match[i] == -1:
            for j in adjacency[i]:
                if match[j] == -1:
                    match[i], match[j] = j, i
                    break
    for root in range(n):
        if match[root] == -1:
            end, parent = _augmenting_path(root, adjacency, match)
            while end != -1:  # flip the path's edges
                before = parent[end]
                after = match[before]
                match[end], match[before] = before, end
                end = after
    return sum(1 for m in match if m != -1) // 2


def _augmenting_path(root: int, adjacency: list[list[int]], match: list[int]) -> tuple[int, list[int]]:
    """The free vertex an augmenting path from ``root`` ends on (-1: none) and the parents to follow back."""
    n = len(adjacency)
    used = [False] * n
    parent = [-1] * n
    base = list(range(n))
    used[root] = True
    queue = deque([root])

    def common_base(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    while queue:
        v = queue.popleft()
        for to in adjacency[v]:
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                b = common_base(v, to)
                blossom = [False] * n
                mark(v, b, to, blossom)
                mark(to, b, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = b
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    return to, parent
                used[match[to]] = True
                queue.append(match[to])
    return -1, parent


def fewest_rematches(vertices: list[int], allowed: list[int]) -> int:
    """The fewest repeat meetings any draw of ``vertices`` (an even number) must make."""
    if not vertices:
        return 0
    if _greedy(vertices, allowed) is not None:
        return 0
    return len(vertices) // 2 - max_matching(vertices, allowed)


def _draw(order: list[int], allowed: list[int]) -> list[tuple[int, int]]:
    """Rules 3 and 4 over ``order`` (an even number of entries, best-placed first)."""
    quick = _greedy(order, allowed)
    if quick is not None:
        place = {v: i for i, v in enumerate(order)}
        return [(v, quick[v]) for v in order if place[v] < place[quick[v]]]
    budget = fewest_rematches(order, allowed)
    remaining = list(order)
    tables: list[tuple[int, int]] = []
    while remaining:
        top, rest = remaining[0], remaining[1:]
        fresh = [w for w in rest if allowed[top] >> w & 1]
        again = [w for w in rest if not allowed[top] >> w & 1]
        for cost, candidates in ((0, fresh), (1, again)):
            if cost > budget:
                break
            chosen = next((w for w in candidates
                           if fewest_rematches([u for u in rest if u != w], allowed) == budget - cost), None)
            if chosen is not None:
                tables.append((top, chosen))
                remaining = [u for u in rest if u != chosen]
                budget -= cost
                break
        else:  # pragma: no cover - the budget is the minimum, so some candidate always fits it
            raise AssertionError("no draw within the fewest rematches")
    return tables


def _bye(order: list[int], had_bye: set[int], allowed: list[int]) -> int:
    """Rule 2: who sits out."""
    candidates = [v for v in reversed(order) if v not in had_bye] or list(reversed(order))
    return next((v for v in candidates if fewest_rematches([u for u in order if u != v], allowed) == 0),
                candidates[0])


def draw(field: Field, byes: set[str] | None = None, round_number: int | None = None) -> pd.DataFrame:
    """The next round's draw of ``field`` (see the module docstring for the rules).

    Returns
    -------
    DataFrame
        SWISS_DRAW_COLUMNS, one row per table, best first, then the bye: ``round`` (``round_number``), ``table`` (Int64; NA for the bye), ``home``,
        ``away`` (NA for the bye), ``home_total``, ``away_total``, ``rematch`` (times the two
        met before; 0 normally), ``note`` (float, rematch, bye; empty when there is nothing to say).
    """
    n = len(field.entries)
    allowed = field.allowed
    order = list(range(n))
    had = {i for i, e in enumerate(field.entries) if e in (byes or set())}
    sitting_out = _bye(order, had, allowed) if n % 2 else None
    playing = [v for v in order if v != sitting_out]
    tables = _draw(playing, allowed)
    totals = field.totals
    group, size = score_groups(totals)
    rows = []
    for number, (home, away) in enumerate(tables, start=1):
        notes = []
        meetings = field.met[home][away]
        if meetings:
            notes.append(f"rematch: no draw of the field avoids every repeat meeting; {field.entries[home]} and "
                         f"{field.entries[away]} have met {_times(meetings)}")
        if _floats(group[home], group[away], size):
            notes.append(f"float: {totals[home]:g} VP meets {totals[away]:g} VP")
        rows.append((number, field.entries[home], field.entries[away], totals[home], totals[away], meetings,
                     "; ".join(notes)))
    if sitting_out is not None:
        eligible = set(order) - had or set(order)
        why = ("bye: " + ("every entry has had one; " if sitting_out in had else "")
               + ("the lowest-placed without one" if sitting_out == max(eligible) and not had >= set(order)
                  else "the lowest-placed" if sitting_out == max(eligible)
                  else "moved up, so that the others can be drawn without a rematch"))
        rows.append((pd.NA, field.entries[sitting_out], pd.NA, totals[sitting_out], np.nan, 0, why))
    frame = pd.DataFrame(rows, columns=list(SWISS_DRAW_COLUMNS)[1:])
    frame.insert(0, "round", pd.NA if round_number is None else round_number)
    return frame.astype(SWISS_DRAW_COLUMNS)


def score_groups(totals: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Each entry's score group (entries equal on the total to 1e-6 VP, numbered from the top)
    and each group's size."""
    rounded = np.round(np.asarray(totals, dtype=np.float64), 6) + 0.0  # + 0.0: -0 and 0 are one group
    group, _ = pd.factorize(rounded, use_na_sentinel=False)
    return group, np.bincount(group, minlength=1)


def _floats(home_group: int, away_group: int, size: np.ndarray) -> bool:
    """A match is a float when it takes an entry out of its score group: the two groups differ and
    one of them has another member (two lone entries on different totals, as continuous VPs
    make nearly every table, are the order's next two, not a float)."""
    return bool(home_group != away_group and max(size[home_group], size[away_group]) > 1)


def _times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


def field_from(order: list[str], meetings: pd.DataFrame, totals: list[float] | None = None) -> Field:
    """A :class:`Field` from the entries in standings order and the meetings so far
    (``home``, ``away``: one row per match played; a bye row with ``away`` NA is ignored)."""
    index = {e: i for i, e in enumerate(order)}
    n = len(order)
    met = np.zeros((n, n), dtype=np.int64)
    if len(meetings):
        home = meetings["home"].astype("string").map(index)
        away = meetings["away"].astype("string").map(index)
        known = home.notna() & away.notna()
        h, a = home[known].astype(np.int64).to_numpy(), away[known].astype(np.int64).to_numpy()
        np.add.at(met, (h, a), 1)
        np.add.at(met, (a, h), 1)
    np.fill_diagonal(met, 0)
    return Field(entries=tuple(order), totals=tuple(totals if totals is not None else [0.0] * n),
                 met=tuple(tuple(int(x) for x in row) for row in met))


def swiss_pairings(table: pd.DataFrame, matches: pd.DataFrame, byes: set[str] | None = None,
                   round_number: int | None = None) -> pd.DataFrame:
    """Pairings for the next round (the module docstring's rules).

    Parameters
    ----------
    table : DataFrame
        Standings in ranking order: ``team`` (or ``pair``) and, when present, ``total``
        (from :func:`bridgeproc.teams.standings.standings` or the Swiss pairs standings).
    matches : DataFrame
        Matches so far (``home``, ``away``), to avoid rematches.
    byes : set of str, optional
        Entries that already had a bye.
    round_number : int, optional
        The round drawn (the ``round`` column).

    Returns
    -------
    DataFrame
        SWISS_DRAW_COLUMNS: ``round``, ``table`` (1, 2, ...; NA for the bye), ``home`` (the better placed), ``away`` (NA for the
        bye), ``home_total``, ``away_total``, ``rematch``, ``note`` (see :func:`draw`).
    """
    column = "team" if "team" in table else "pair"
    order = [str(t) for t in table[column]]
    totals = [float(t) for t in table["total"]] if "total" in table else None
    return draw(field_from(order, matches, totals), byes, round_number)
