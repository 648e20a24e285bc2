"""What changed between two versions of an archived session, in frames and in words."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

import pandas as pd

from bridgeproc.archive.db import engine_for, reading
from bridgeproc.archive.diff_words import headline, join_words, keyed, rank_number
from bridgeproc.archive.load import read_frames, resolve_version
from bridgeproc.archive.teams_diff import TeamsDiff, diff_teams
from bridgeproc.core.notation import contract_text
from bridgeproc.rank.methods import IMP_METHODS
from bridgeproc.schema import records

#: Columns that make a result what it is (a change in any is a correction).
RESULT_FIELDS = ["level", "strain", "doubled", "declarer", "tricks", "lead", "adjusted", "score_ns"]
RESULT_KEY = ["section", "board", "ns", "ew"]
STANDING_KEY = ["method", "group", "pair"]


@dataclass
class Diff:
    """Differences from version ``v1`` to ``v2`` of ``session_id``.

    results    one row per changed, added or removed result: RESULT_KEY, ``change``
               (corrected/added/removed), ``before`` and ``after`` (text, e.g. ``4S N = +420``),
               ``reason``: the director's corrections of that result new in ``v2`` (or withdrawn
               since ``v1``) with their reasons, '' when the change came from the inputs; ``why``:
               the reasons alone (for the headline)
    standings  one row per pair whose rank or score moved: STANDING_KEY, ``rank_before``,
               ``rank_after``, ``score_before``, ``score_after`` (pct, or total for IMPs)
    other      changes of conventions, deals, names and headers, as sentences
    """

    session_id: str
    v1: int
    v2: int
    results: pd.DataFrame
    standings: pd.DataFrame
    other: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(len(self.results) or len(self.standings) or self.other)

    @property
    def headline(self) -> str:
        """One line, e.g. ``board 14 corrected: pairs 3 and 7 swap places``."""
        parts = []
        boards = sorted(set(self.results["board"].tolist())) if len(self.results) else []
        if boards:
            reasons = list(dict.fromkeys(r for r in self.results.get("why", pd.Series(dtype="string")) if r))
            why = f" ({'; '.join(reasons[:2])}{'; ...' if len(reasons) > 2 else ''})" if reasons else ""
            parts.append(f"board{'s' if len(boards) > 1 else ''} {join_words(map(str, boards))} corrected{why}")
        elif self.other:
            parts.append(self.other[0])
        moves = _ranking_sentences(self.standings)
        return headline(parts, moves, bool(boards), self.v1, self.v2)

    @property
    def summary(self) -> list[str]:
        """Every change as a sentence, the headline first."""
        lines = [self.headline]
        for row in records(self.results):
            where = f"{'section ' + row.section + ', ' if row.section else ''}board {row.board}, NS {row.ns} v EW {row.ew}"
            reason = f": {row.reason}" if getattr(row, "reason", "") else ""
            lines.append(f"{where}: {row.change} ({row.before or '-'} -> {row.after or '-'}){reason}")
        lines += _ranking_sentences(self.standings, detail=True)
        lines += self.other
        return lines

    def __str__(self) -> str:
        return "\n".join(self.summary)


def _result_text(frame: pd.DataFrame) -> pd.Series:
    contract = contract_text(frame["level"], frame["strain"], frame["doubled"], frame["adjusted"])
    tricks = frame["tricks"].astype("Int64")
    need = frame["level"].astype("Int64") + 6
    over = (tricks - need)
    result = over.map(lambda v: "" if pd.isna(v) else "=" if v == 0 else f"{v:+d}").astype("string")
    declarer = frame["declarer"].astype("string").fillna("")
    score = frame["score_ns"].map(lambda v: "" if pd.isna(v) else f"{v:+d}").astype("string")
    played = frame["adjusted"].isna() & frame["level"].fillna(0).gt(0)
    text = contract.fillna("").str.cat([declarer.where(played, ""), result.where(played, ""), score.fillna("")],
                                       sep=" ")
    return text.str.replace(r"\s+", " ", regex=True).str.strip()


def diff_results(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """Corrected, added and removed results between two results frames (see :class:`Diff`)."""
    fields = [c for c in RESULT_FIELDS if c in before and c in after]
    a, b = keyed(before, RESULT_KEY), keyed(after, RESULT_KEY)
    a = a.assign(_text=_result_text(a)) if len(a) else a.assign(_text=pd.Series(dtype="string"))
    b = b.assign(_text=_result_text(b)) if len(b) else b.assign(_text=pd.Series(dtype="string"))
    both = a.index.intersection(b.index)
    left = a.loc[both, fields].astype("string").fillna("")
    right = b.loc[both, fields].astype("string").fillna("")
    changed = both[(left != right).any(axis=1).to_numpy()]
    parts = [pd.DataFrame({"change": "corrected", "before": a.loc[changed, "_text"], "after": b.loc[changed, "_text"]},
                          index=changed),
             pd.DataFrame({"change": "added", "before": "", "after": b.loc[b.index.difference(a.index), "_text"]}),
             pd.DataFrame({"change": "removed", "before": a.loc[a.index.difference(b.index), "_text"], "after": ""})]
    out = pd.concat([p for p in parts if len(p)]) if any(len(p) for p in parts) else parts[0]
    out = out.reset_index().drop(columns="_n", errors="ignore")
    for column in RESULT_KEY:
        if column not in out:
            out[column] = pd.Series(dtype="string")
    out["board"] = pd.to_numeric(out["board"]).astype("int64")
    out = out.sort_values(["board", "section", "ns", "ew"], kind="stable").reset_index(drop=True)
    return out[RESULT_KEY + ["change", "before", "after"]].astype(
        {"section": "string", "ns": "string", "ew": "string", "change": "string", "before": "string",
         "after": "string"})


#: What identifies one correction: the result it names, the field, the value and the reason.
CORRECTION_KEY = ["section", "board", "ns", "ew", "field", "now", "reason"]


def _pair_id(text: pd.Series) -> pd.Series:
    """A corrected pair number as the results frame writes it (``A04`` -> ``4``; other ids as written)."""
    digits = text.astype("string").str.strip().str.extract(r"^[A-Za-z]{0,2}\s*-?\s*0*(\d+)(?:\.0+)?$")[0]
    return digits.fillna(text.astype("string").str.strip())


def _corrections(frame: pd.DataFrame | None) -> pd.DataFrame:
    """A version's corrections (empty when it had none), ``ns_after``/``ew_after`` the pairs of the
    corrected result (a pair-number correction moves the result to its new pairs)."""
    columns = CORRECTION_KEY + ["was", "source", "line"]
    if frame is None or not len(frame):
        return pd.DataFrame({c: pd.Series(dtype="string") for c in columns + ["ns_after", "ew_after"]})
    out = frame.copy()
    out["board"] = out["board"].astype("int64").astype("string")
    for column in columns:
        out[column] = out[column].astype("string").fillna("")
    key = ["section", "board", "ns", "ew"]
    for side in ("ns", "ew"):
        moved = out[out["field"] == side].drop_duplicates(key).set_index(key)["now"]
        after = pd.Series(list(zip(*(out[k] for k in key))), index=out.index).map(
            lambda k, m=moved: m.get(k, pd.NA))
        out[f"{side}_after"] = _pair_id(after.astype("string")).fillna(out[side])
    return out


def with_reasons(results: pd.DataFrame, before: pd.DataFrame | None, after: pd.DataFrame | None
                 ) -> tuple[pd.DataFrame, list[str]]:
    """``results`` (from :func:`diff_results`) with ``reason``: the corrections of each result new in
    ``after`` (``result '9' -> '-1': the Bridgemate entry was wrong (corrections.csv:2)``) or withdrawn
    since ``before``; and, as sentences, the corrections that changed no result (a value as it was)."""
    old, new = _corrections(before), _corrections(after)
    added = new.merge(old[CORRECTION_KEY], on=CORRECTION_KEY, how="left", indicator=True)
    added = added[added["_merge"] == "left_only"].drop(columns="_merge")
    gone = old.merge(new[CORRECTION_KEY], on=CORRECTION_KEY, how="left", indicator=True)
    gone = gone[gone["_merge"] == "left_only"].drop(columns="_merge")
    added = added.assign(text=added["field"] + " '" + added["was"] + "' -> '" + added["now"] + "': "
                         + added["reason"] + " (" + added["source"] + ":" + added["line"] + ")", why=added["reason"])
    gone = gone.assign(text="correction of " + gone["field"] + " to '" + gone["now"] + "' withdrawn (it was: "
                       + gone["reason"] + ")", why="correction withdrawn")
    told = pd.concat([added, gone], ignore_index=True)
    results = results.assign(reason=pd.Series("", index=results.index, dtype="string"),
                             why=pd.Series("", index=results.index, dtype="string"))
    if not len(told):
        return results, []
    key = results[["section", "board", "ns", "ew"]].astype("string").fillna("")
    attached = pd.Series(False, index=told.index)
    for i, (section, board, ns, ew) in enumerate(key.itertuples(index=False)):
        mine = ((told["section"] == section) & (told["board"] == board)
                & (((told["ns"] == ns) & (told["ew"] == ew)) | ((told["ns_after"] == ns) & (told["ew_after"] == ew))))
        mine = mine.to_numpy(dtype=bool)
        if mine.any():
            attached |= mine
            results.iloc[i, results.columns.get_loc("reason")] = "; ".join(told.loc[mine, "text"])
            results.iloc[i, results.columns.get_loc("why")] = "; ".join(dict.fromkeys(told.loc[mine, "why"]))
    rest = told[~attached.to_numpy()]
    sentences = [f"{'section ' + s + ', ' if s else ''}board {b}, NS {n} v EW {e}: {t} (no result changed)"
                 for s, b, n, e, t in zip(rest["section"], rest["board"], rest["ns"], rest["ew"], rest["text"])]
    return results, sentences


def diff_standings(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """Pairs whose rank or score changed (see :class:`Diff`). A version re-scored with another
    method is compared pair by pair (its scores are then in the new method's units)."""
    def scored(frame):
        imps = frame["method"].isin(IMP_METHODS)
        return frame.assign(_score=frame["total"].where(imps, frame["pct"]).round(2))

    before, after = scored(before), scored(after)
    methods_before, methods_after = set(before["method"]), set(after["method"])
    if len(methods_before) == 1 and len(methods_after) == 1 and methods_before != methods_after:
        after = after.assign(method=next(iter(methods_before)))
    a, b = keyed(before, STANDING_KEY), keyed(after, STANDING_KEY)
    joined = pd.DataFrame({"rank_before": a["rank"], "score_before": a["_score"]}).join(
        pd.DataFrame({"rank_after": b["rank"], "score_after": b["_score"]}), how="outer")
    moved = (joined["rank_before"].astype("string").fillna("") != joined["rank_after"].astype("string").fillna("")) \
        | (joined["score_before"].fillna(-1e9) != joined["score_after"].fillna(-1e9))
    out = joined[moved.to_numpy()].reset_index().drop(columns="_n")
    return out.astype({"rank_before": "string", "rank_after": "string", "score_before": "float64",
                       "score_after": "float64"})


def _ranking_sentences(moves: pd.DataFrame, detail: bool = False) -> list[str]:
    if not len(moves):
        return []
    out, done = [], set()
    rows = list(records(moves))
    for i, r in enumerate(rows):
        if i in done or r.rank_before == r.rank_after:
            continue
        where = f"{r.group} " if r.group and r.group != "ALL" else ""
        for j in range(i + 1, len(rows)):
            s = rows[j]
            if j not in done and (s.method, s.group) == (r.method, r.group) and s.rank_before == r.rank_after \
                    and s.rank_after == r.rank_before:
                high, low = sorted((r, s), key=lambda x: rank_number(x.rank_before))
                out.append(f"{where}pairs {high.pair} and {low.pair} swap places "
                           f"(were {high.rank_before} and {low.rank_before})")
                done |= {i, j}
                break
        else:
            verb = "rises" if rank_number(r.rank_after) < rank_number(r.rank_before) else "falls"
            out.append(f"{where}pair {r.pair} {verb} from {r.rank_before or '-'} to {r.rank_after or '-'}")
            done.add(i)
    if detail:
        for r in rows:
            if r.score_before != r.score_after:
                where = f"{r.group} " if r.group and r.group != "ALL" else ""
                unit = " IMPs" if r.method in IMP_METHODS else "%"
                out.append(f"{where}pair {r.pair}: {r.score_before:g}{unit} -> {r.score_after:g}{unit}")
    return out


def _other_changes(v1: dict, v2: dict, f1: dict, f2: dict) -> list[str]:
    out = []
    c1, c2 = json.loads(v1["conventions"]), json.loads(v2["conventions"])
    for name in sorted(set(c1) | set(c2)):
        if c1.get(name) != c2.get(name):
            out.append(f"convention {name}: {c1.get(name)} -> {c2.get(name)}")
    m1, m2 = json.loads(v1["meta"]), json.loads(v2["meta"])
    for name in sorted(set(m1) | set(m2)):
        if m1.get(name) != m2.get(name):
            out.append(f"header {name}: {m1.get(name)!r} -> {m2.get(name)!r}")
    b1, b2 = f1.get("boards"), f2.get("boards")
    if b1 is not None and b2 is not None and "deal" in b1 and "deal" in b2:
        d1 = dict(zip(b1["board"], b1["deal"].astype("string").fillna("")))
        d2 = dict(zip(b2["board"], b2["deal"].astype("string").fillna("")))
        for board in sorted(set(d1) | set(d2)):
            if d1.get(board) != d2.get(board):
                out.append(f"board {board}: deal {'changed' if board in d1 and board in d2 else 'added or removed'}")
    n1, n2 = f1.get("names"), f2.get("names")
    if n1 is not None and n2 is not None and not n1.reset_index(drop=True).equals(n2.reset_index(drop=True)):
        out.append(f"names list changed ({len(n1)} -> {len(n2)} entries)")
    return out


def diff(url: str | os.PathLike | None, session_id: str, v1: int | None = None, v2: int | None = None
         ) -> Diff | TeamsDiff:
    """Compare versions ``v1`` and ``v2`` of an archived session (default: the previous one and the latest).

    Returns
    -------
    Diff
        Frames of changed results and moved pairs, ``headline`` ("board 14 corrected:
        pairs 3 and 7 swap places") and ``summary`` (every change as a sentence).
    TeamsDiff
        For a teams session: its changed table results, the board and match IMPs and VPs
        and the teams that moved (:mod:`bridgeproc.archive.teams_diff`), in the same words.
    """
    engine = engine_for(url, readonly=True)
    with reading(engine) as conn:
        row2 = resolve_version(conn, session_id, v2)
        row1 = resolve_version(conn, session_id, v1 if v1 is not None else max(1, row2["version"] - 1))
        f1, f2 = read_frames(conn, row1["version_id"]), read_frames(conn, row2["version_id"])
    if row2.get("kind") == "teams":
        return diff_teams(row1, row2, f1, f2)
    results, unattached = with_reasons(diff_results(f1["results"], f2["results"]), f1.get("corrections"),
                                       f2.get("corrections"))
    return Diff(session_id, row1["version"], row2["version"], results,
                diff_standings(f1["standings"], f2["standings"]), _other_changes(row1, row2, f1, f2) + unattached)
