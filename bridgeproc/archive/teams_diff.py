"""What changed between two versions of an archived teams session, in frames and in words.

The teams counterpart of :mod:`bridgeproc.archive.diff` (whose ``diff`` calls :func:`diff_teams`
for a teams session): the table results a director corrected, added or removed (by round, match,
room and board), the board IMPs and the match IMPs and VPs that moved with them, and the teams
whose rank, total or VPs moved. Everything else a new version changed (options, tie-breaks, team
names, headers, deals, published figures, penalties, other cells of the table results) is a sentence
in ``other``, so a new version never reads as "the same".
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from bridgeproc.archive.diff_words import headline, join_words, keyed, rank_number
from bridgeproc.core.notation import contract_text
from bridgeproc.schema import (
    RESULTS_COLUMNS,
    TEAM_BOARD_COLUMNS,
    TEAM_RESULTS_COLUMNS,
    TEAMS_DIFF_BOARD_COLUMNS,
    TEAMS_DIFF_MATCH_COLUMNS,
    TEAMS_DIFF_RESULT_COLUMNS,
    TEAMS_DIFF_STANDING_COLUMNS,
    empty,
    records,
)

#: Columns that make a table result what it is (a change in any is a correction).
RESULT_FIELDS = ["level", "strain", "doubled", "declarer", "tricks", "lead", "adjusted", "score_ns"]
RESULT_KEY = ["round", "match", "room", "board"]
BOARD_KEY = ["round", "match", "board"]
MATCH_KEY = ["round", "match"]
#: Result columns that follow from the others (the rooms' IMPs are in ``boards``).
_DERIVED = {"imp_ns", "imp_ew"}
#: Match columns a director sets apart from the results (adjustments), said in words when they move.
_ADJUSTMENTS = {"carry": "carry-over IMPs", "penalty_imps": "penalty IMPs", "penalty_vp": "penalty VPs"}
#: The unit of a team's total, by scoring.
_UNITS = {"vp": " VPs", "imps": " IMPs", "bam": " points"}


@dataclass
class TeamsDiff:
    """Differences from version ``v1`` to ``v2`` of the teams session ``session_id``.

    results    one row per changed, added or removed table result: RESULT_KEY, ``change``
               (corrected/added/removed), ``before`` and ``after`` (text, e.g. ``4H N -1 -100 lead SA``)
    boards     one row per board of a match whose IMPs moved: BOARD_KEY, ``home``, ``away``,
               ``imps_home_before`` ... ``imps_away_after`` (net, as ``team_boards``; NaN where the
               board is not there), ``status_before``, ``status_after`` (played, one room ...)
    matches    one row per match whose IMPs or VPs moved: MATCH_KEY, ``home``, ``away``, IMPs and VPs
               of each side before and after
    standings  one row per team whose rank, total or VPs moved: ``team``, ``rank_before``,
               ``rank_after``, ``total_before``, ``total_after``, ``vp_before``, ``vp_after``
    other      every other change, as sentences
    unit       the unit of ``total`` (`` VPs``, `` IMPs``, `` points``), for the sentences
    """

    session_id: str
    v1: int
    v2: int
    results: pd.DataFrame
    boards: pd.DataFrame
    matches: pd.DataFrame
    standings: pd.DataFrame
    other: list[str] = field(default_factory=list)
    unit: str = " VPs"

    @property
    def changed(self) -> bool:
        return bool(len(self.results) or len(self.boards) or len(self.matches) or len(self.standings) or self.other)

    @property
    def headline(self) -> str:
        """One line, e.g. ``board 12 corrected in R1 AUSTRIA v DENMARK: team AUSTRIA rises from 9 to 3``."""
        parts = []
        boards = sorted(set(self.results["board"].tolist()))
        if boards:
            matches = set(self.results["match"].tolist())
            where = f" in {next(iter(matches))}" if len(matches) == 1 else ""
            parts.append(f"board{'s' if len(boards) > 1 else ''} {join_words(map(str, boards))} corrected{where}")
        elif self.other:
            parts.append(self.other[0])
        moves = _ranking_sentences(self.standings, self.unit)
        return headline(parts, moves, bool(boards), self.v1, self.v2)

    @property
    def summary(self) -> list[str]:
        """Every change as a sentence, the headline first."""
        lines = [self.headline]
        for row in records(self.results):
            lines.append(f"{row.match}, board {row.board}, {row.room} room: {row.change} "
                         f"({row.before or '-'} -> {row.after or '-'})")
        for row in records(self.boards):  # a board's IMPs are net (-12 and 12): the card writes 0-12
            lines.append(f"{row.match}, board {row.board}: IMPs "
                         f"{_pair(_won(row.imps_home_before), _won(row.imps_away_before))} -> "
                         f"{_pair(_won(row.imps_home_after), _won(row.imps_away_after))}"
                         + (f" ({row.status_before or '-'} -> {row.status_after or '-'})"
                            if row.status_before != row.status_after else ""))
        for row in records(self.matches):
            lines.append(f"{row.match}: IMPs {_pair(row.imps_home_before, row.imps_away_before)} -> "
                         f"{_pair(row.imps_home_after, row.imps_away_after)}, VPs "
                         f"{_pair(row.vp_home_before, row.vp_away_before)} -> "
                         f"{_pair(row.vp_home_after, row.vp_away_after)}")
        lines += _ranking_sentences(self.standings, self.unit, detail=True)
        lines += self.other
        return lines

    def __str__(self) -> str:
        return "\n".join(self.summary)


def _number(value) -> str:
    return "-" if pd.isna(value) else f"{value:g}"


def _won(imps: float) -> float:
    """The IMPs a side won on a board (its net IMPs, nothing when it lost the board)."""
    return imps if pd.isna(imps) else max(float(imps), 0.0)


def _pair(home, away) -> str:
    """Home and away figures as a match card writes them: ``32-16``."""
    return f"{_number(home)}-{_number(away)}"


def _result_text(frame: pd.DataFrame) -> pd.Series:
    """A table result in words: ``4H N -1 -100 lead SA`` (an artificial score by its code); none for a
    session archived without table results (a file of match totals only: its frame has no columns)."""
    if "level" not in frame:
        return pd.Series("", index=frame.index, dtype="string")
    contract = contract_text(frame["level"], frame["strain"], frame["doubled"], frame["adjusted"])
    tricks = frame["tricks"].astype("Int64")
    over = tricks - (frame["level"].astype("Int64") + 6)
    result = over.map(lambda v: "" if pd.isna(v) else "=" if v == 0 else f"{v:+d}").astype("string")
    declarer = frame["declarer"].astype("string").fillna("")
    score = frame["score_ns"].map(lambda v: "" if pd.isna(v) else f"{v:+d}").astype("string").fillna("")
    played = frame["adjusted"].isna() & frame["level"].fillna(0).gt(0)
    lead = frame["lead"].astype("string").fillna("") if "lead" in frame else pd.Series("", index=frame.index)
    lead = ("lead " + lead).where(lead.ne("") & played, "")
    text = contract.fillna("").str.cat([declarer.where(played, ""), result.where(played, ""), score, lead], sep=" ")
    return text.str.replace(r"\s+", " ", regex=True).str.strip().astype("string")


#: The order of the rows of every frame of :class:`TeamsDiff`.
_ORDER = ["round", "match", "board", "room"]


def _unkeyed(frame: pd.DataFrame, columns: dict[str, object]) -> pd.DataFrame:
    """A frame indexed by :func:`_keyed` as its declared columns again (``round`` and ``board`` numbers),
    in round, match, board and room order."""
    out = frame.reset_index().drop(columns="_n")
    for column in ("round", "board"):
        if column in out:
            out[column] = pd.to_numeric(out[column], errors="coerce")
    order = [c for c in _ORDER if c in out]
    if order:
        out = out.sort_values(order, kind="stable", na_position="first")
    return out.reset_index(drop=True)[list(columns)].astype(columns)


def _differs(left: pd.DataFrame, right: pd.DataFrame) -> np.ndarray:
    """Rows where any cell differs (compared as text, NA equal to NA), by position."""
    def text(frame: pd.DataFrame) -> np.ndarray:
        return frame.astype("string").fillna("\x00").to_numpy(dtype=object)

    return (text(left) != text(right)).any(axis=1)


def diff_team_results(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """Corrected, added and removed table results between two team results frames (see :class:`TeamsDiff`)."""
    fields = [c for c in RESULT_FIELDS if c in before and c in after]
    a, b = keyed(before, RESULT_KEY), keyed(after, RESULT_KEY)
    a, b = a.assign(_text=_result_text(a)), b.assign(_text=_result_text(b))
    both = a.index.intersection(b.index)
    changed = both[_differs(a.loc[both, fields].astype("string"), b.loc[both, fields].astype("string"))]
    new, gone = b.index.difference(a.index), a.index.difference(b.index)
    out = pd.concat([
        pd.DataFrame({"change": "corrected", "before": a.loc[changed, "_text"], "after": b.loc[changed, "_text"]},
                     index=changed),
        pd.DataFrame({"change": "added", "before": "", "after": b.loc[new, "_text"]}, index=new),
        pd.DataFrame({"change": "removed", "before": a.loc[gone, "_text"], "after": ""}, index=gone)])
    if not len(out):
        out = pd.DataFrame({c: pd.Series(dtype="string") for c in ("change", "before", "after")},
                           index=pd.MultiIndex.from_arrays([[]] * (len(RESULT_KEY) + 1), names=RESULT_KEY + ["_n"]))
    return _unkeyed(out, TEAMS_DIFF_RESULT_COLUMNS)


def _moved(before: pd.DataFrame, after: pd.DataFrame, key: list[str], values: list[str],
           labels: list[str], columns: dict[str, object]) -> pd.DataFrame:
    """Rows of ``key`` whose ``values`` moved (or that appear on one side only): each value
    ``_before`` and ``_after``, the ``labels`` (home, away) from whichever side has them."""
    a, b = keyed(before, key), keyed(after, key)
    joined = a[labels + values].add_suffix("_before").join(b[labels + values].add_suffix("_after"), how="outer")
    left = joined[[f"{v}_before" for v in values]].set_axis(values, axis=1)
    right = joined[[f"{v}_after" for v in values]].set_axis(values, axis=1)
    out = joined[_differs(left, right)]
    for label in labels:
        out = out.assign(**{label: out[f"{label}_before"].combine_first(out[f"{label}_after"])})
    return _unkeyed(out, columns)


def diff_team_boards(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """Boards of a match whose IMPs moved (see :class:`TeamsDiff`)."""
    out = _moved(before, after, BOARD_KEY, ["imps_home", "imps_away", "status"], ["home", "away"],
                 TEAMS_DIFF_BOARD_COLUMNS)
    return out.fillna({"status_before": "", "status_after": ""})


def diff_team_matches(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """Matches whose IMPs or VPs moved (see :class:`TeamsDiff`)."""
    return _moved(before, after, MATCH_KEY, ["imps_home", "imps_away", "vp_home", "vp_away"], ["home", "away"],
                  TEAMS_DIFF_MATCH_COLUMNS)


def diff_team_standings(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """Teams whose rank, total or VPs moved (see :class:`TeamsDiff`), best placed now first."""
    values = ["rank", "total", "vp"]
    a = before.assign(rank=before["rank"].astype("string").fillna(""))
    b = after.assign(rank=after["rank"].astype("string").fillna(""))
    out = _moved(a, b, ["team"], values, [], {"team": "string", **{f"{v}_{side}": "object" for v in values
                                                                     for side in ("before", "after")}})
    out = out.assign(rank_before=out["rank_before"].fillna(""), rank_after=out["rank_after"].fillna(""))
    order = np.lexsort((out["rank_before"].map(rank_number).to_numpy(),
                        out["rank_after"].map(rank_number).to_numpy()))
    return out.iloc[order].reset_index(drop=True)[list(TEAMS_DIFF_STANDING_COLUMNS)].astype(
        TEAMS_DIFF_STANDING_COLUMNS)


def _ranking_sentences(moves: pd.DataFrame, unit: str, detail: bool = False) -> list[str]:
    """The rank moves in words (two teams that trade places as one sentence); ``detail``: the totals too."""
    out, done = [], set()
    rows = list(records(moves))
    for i, r in enumerate(rows):
        if i in done or r.rank_before == r.rank_after:
            continue
        for j in range(i + 1, len(rows)):
            s = rows[j]
            if j not in done and s.rank_before == r.rank_after and s.rank_after == r.rank_before:
                high, low = sorted((r, s), key=lambda x: rank_number(x.rank_before))
                out.append(f"teams {high.team} and {low.team} swap places (were {high.rank_before} and "
                           f"{low.rank_before})")
                done |= {i, j}
                break
        else:
            verb = "rises" if rank_number(r.rank_after) < rank_number(r.rank_before) else "falls"
            out.append(f"team {r.team} {verb} from {r.rank_before or '-'} to {r.rank_after or '-'}")
            done.add(i)
    if detail:
        for r in rows:
            if _number(r.total_before) != _number(r.total_after):
                out.append(f"team {r.team}: {_number(r.total_before)}{unit} -> {_number(r.total_after)}{unit}")
    return out


def _other_results_cells(before: pd.DataFrame, after: pd.DataFrame) -> list[str]:
    """The cells outside RESULT_FIELDS that changed in a table result not itself corrected (players'
    tags in the room games, team or pair seated, source): each result when a few, else a count per column."""
    fields = [c for c in RESULT_FIELDS if c in before and c in after]
    a, b = keyed(before, RESULT_KEY), keyed(after, RESULT_KEY)
    both = a.index.intersection(b.index)
    both = both[~_differs(a.loc[both, fields], b.loc[both, fields])]
    out = []
    for column in sorted((set(a.columns) | set(b.columns)) - set(RESULT_FIELDS) - _DERIVED):
        if column not in a or column not in b:
            out.append(f"table results: column {column} {'added' if column in b else 'removed'}")
            continue
        left, right = a.loc[both, [column]].astype("string"), b.loc[both, [column]].astype("string")
        where = both[_differs(left, right)]
        what = "PBN game tags" if column == "game" else column
        if 0 < len(where) <= 3:
            out += [f"{match}, board {board}, {room} room: {what} changed" for _, match, room, board, _ in where]
        elif len(where):
            out.append(f"{what} of {len(where)} table results changed")
    return out


def _adjustment_changes(before: pd.DataFrame, after: pd.DataFrame) -> list[str]:
    """Carry-over and penalties of a match that moved, e.g. ``R2 A v B: penalty VPs of A 0 -> 1``."""
    out = []
    a, b = keyed(before, MATCH_KEY), keyed(after, MATCH_KEY)
    both = a.index.intersection(b.index)
    for stem, words in _ADJUSTMENTS.items():
        for side in ("home", "away"):
            column = f"{stem}_{side}"
            if column not in a or column not in b:
                continue
            for where in both[_differs(a.loc[both, [column]], b.loc[both, [column]])]:
                out.append(f"{where[1]}: {words} of {a.loc[where, side]} {_number(a.loc[where, column])} -> "
                           f"{_number(b.loc[where, column])}")
    return out


def _other_changes(row1: dict, row2: dict, f1: dict, f2: dict) -> list[str]:
    """Options, tie-breaks, team names, headers, deals, published figures, notes and the cells of the
    frames that :class:`TeamsDiff`'s frames do not show, as sentences."""
    out = []
    c1, c2 = json.loads(row1["conventions"]), json.loads(row2["conventions"])
    o1, o2 = c1.get("options", {}), c2.get("options", {})
    for name in sorted(set(o1) | set(o2)):
        was, now = o1.get(name), o2.get(name)
        if was == now:
            continue
        if name == "scale":
            was_name, now_name = (was or {}).get("name"), (now or {}).get("name")
            out.append(f"VP scale: {was_name} -> {now_name}" if was_name != now_name
                       else f"VP scale {now_name}: its table changed")
        else:
            out.append(f"option {name}: {was} -> {now}")
    if c1.get("tie_breaks") != c2.get("tie_breaks"):
        out.append(f"tie-breaks applied: {', '.join(c1.get('tie_breaks') or []) or '-'} -> "
                   f"{', '.join(c2.get('tie_breaks') or []) or '-'}")
    n1, n2 = c1.get("names") or {}, c2.get("names") or {}
    for team in sorted(set(n1) | set(n2)):
        if n1.get(team) != n2.get(team):
            out.append(f"team name {team}: {n1.get(team)!r} -> {n2.get(team)!r}")
    m1, m2 = json.loads(row1["meta"]), json.loads(row2["meta"])
    for name in sorted(set(m1) | set(m2)):
        if m1.get(name) != m2.get(name):
            out.append(f"header {name}: {m1.get(name)!r} -> {m2.get(name)!r}")
    b1, b2 = f1.get("boards"), f2.get("boards")
    if (b1 is None) != (b2 is None):
        out.append(f"hand record {'added' if b1 is None else 'removed'}")
    elif b1 is not None and b2 is not None and "deal" in b1 and "deal" in b2:
        d1 = dict(zip(b1["board"], b1["deal"].astype("string").fillna("")))
        d2 = dict(zip(b2["board"], b2["deal"].astype("string").fillna("")))
        for board in sorted(set(d1) | set(d2)):
            if d1.get(board) != d2.get(board):
                out.append(f"board {board}: deal {'changed' if board in d1 and board in d2 else 'added or removed'}")
    out += _other_results_cells(f1["team_results"], f2["team_results"])
    out += _adjustment_changes(f1["team_matches"], f2["team_matches"])
    for name, words in (("team_published", "published figures"), ("notes", "notes of reading")):
        p1, p2 = f1.get(name), f2.get(name)
        rows1, rows2 = (0 if p is None else len(p) for p in (p1, p2))
        if (p1 is None) != (p2 is None) or (p1 is not None and p2 is not None and not p1.reset_index(drop=True).equals(
                p2.reset_index(drop=True))):
            out.append(f"{words} changed ({rows1} -> {rows2} rows)")
    return out


def diff_teams(row1: dict, row2: dict, f1: dict[str, pd.DataFrame], f2: dict[str, pd.DataFrame]) -> TeamsDiff:
    """Compare two versions of a teams session: their ``versions`` rows (from
    :func:`~bridgeproc.archive.load.resolve_version`) and frames (from :func:`~bridgeproc.archive.load.read_frames`)."""
    scoring = json.loads(row2["conventions"]).get("options", {}).get("scoring", "vp")
    # a frame with no rows is archived without its columns (a file of match totals has no table results)
    declared = {"team_results": RESULTS_COLUMNS | TEAM_RESULTS_COLUMNS, "team_boards": TEAM_BOARD_COLUMNS}
    f1, f2 = ({name: empty(declared[name]) if name in declared and not len(frame.columns) else frame
               for name, frame in f.items()} for f in (f1, f2))
    return TeamsDiff(row2["session_id"], row1["version"], row2["version"],
                     diff_team_results(f1["team_results"], f2["team_results"]),
                     diff_team_boards(f1["team_boards"], f2["team_boards"]),
                     diff_team_matches(f1["team_matches"], f2["team_matches"]),
                     diff_team_standings(f1["team_standings"], f2["team_standings"]),
                     _other_changes(row1, row2, f1, f2), _UNITS.get(scoring, ""))
