"""Simultaneous events across clubs: many clubs' files for the same boards, scored across the
whole field and within each club, ranked both ways (the outputs: ``pipeline.sim_write``).

The clubs are read and checked in a pool of worker processes, a chunk of clubs per task
(``pipeline.sim_read``: every problem with the club's file and line, as ``bridgeproc check`` gives
it). The field is then one frame (sections named ``club/section``) scored once: across the field
(``across_field``: every board one group) and within each club's sections, with the ranking
functions of ``rank`` on whole columns; pair ids are built once per distinct pair, not per row.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from bridgeproc.core.pairs import combine_codes, pair_directions
from bridgeproc.errors import BridgeprocError, UsageError, ValidationError
from bridgeproc.model import Options, SimResult
from bridgeproc.pipeline.run import session_conventions
from bridgeproc.pipeline.sim_read import (
    CheckedClubs,
    club_names_list,
    club_results,
    clubs_of,
    per_distinct,
    read_clubs,
    read_hand_record,
)
from bridgeproc.rank import Conventions, rank_results, standings
from bridgeproc.rank.frequencies import frequency_table
from bridgeproc.rank.methods import ranking_method
from bridgeproc.schema import (
    BOARDS_COLUMNS,
    PROBLEM_COLUMNS,
    RESULTS_COLUMNS,
    SIM_COLUMNS,
    SIM_STANDINGS_COLUMNS,
    empty,
    problems_frame,
)
from bridgeproc.validate.deals import deal_conflicts

#: Clubs read and checked per task of the pool (a chunk's plain clubs are checked in one call).
CHUNK_CLUBS = 50
#: Worker processes reading and checking clubs, and writing per-club outputs.
WORKERS = 2
#: Joins a pair number to its direction for a club numbered per direction, so that one shared
#: numbering identifies every pair of the field (a character no pair cell holds).
_DIRECTION_MARK = "\x1f"
#: Joins a pair's section to its number in the field's pair ids (never in a cell).
_SECTION_MARK = "\x1e"


# --- the field ------------------------------------------------------------------------------


def _chunks(clubs: Mapping[str, Sequence[str | os.PathLike]], size: int) -> list[list[tuple[str, list[Path]]]]:
    items = [(club, [Path(p) for p in paths]) for club, paths in clubs.items()]
    return [items[i:i + size] for i in range(0, len(items), size)]


def _gather(parts: Sequence[CheckedClubs], hand: pd.DataFrame) -> CheckedClubs:
    """The chunks' checks as one; a deal two files disagree on is a problem."""
    whole = CheckedClubs()
    for part in parts:
        whole.results.extend(part.results)
        whole.numbering.update(part.numbering)
        whole.boards.extend(part.boards)
        whole.names.extend(part.names)
        whole.meta.update(part.meta)
        whole.notes.extend(part.notes)
        whole.problems.extend(part.problems)
    boards = [b for b in (hand, *whole.boards) if len(b)]
    if boards:
        conflicts = deal_conflicts(pd.concat([b[list(BOARDS_COLUMNS)] for b in boards], ignore_index=True),
                                   "the clubs of a simultaneous event play the same deals: correct the hand record "
                                   "or the file")
        if conflicts is not None:
            whole.problems.append(conflicts)
    return whole


def score_sim(club_inputs: Mapping[str, Sequence[str | os.PathLike]], hand_record: str | os.PathLike | None = None,
              options: Options = Options(), *, workers: int = WORKERS, chunk: int = CHUNK_CLUBS) -> SimResult:
    """Read, check and score a simultaneous event: ``club_inputs`` maps each club to its files
    (any mix of formats; each club numbers its own sections), ``hand_record`` the deals all
    played. Clubs are read and checked in ``workers`` processes (in this one for a single chunk).

    Raises ValidationError listing every problem of every club (file and line), or UsageError.
    """
    if not club_inputs:
        raise UsageError("no club files given; give each club's results")
    if options.corrections is not None or options.names:
        raise UsageError("--corrections and --names are per club: put a club's names list in its folder "
                         "(--club-of folder); corrections are not taken for a simultaneous event yet")
    options = replace(options, dd=False, archive=False)
    hand, meta = read_hand_record(hand_record, options)
    tasks = _chunks(club_inputs, max(1, chunk))
    if workers > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(read_clubs, tasks, [options] * len(tasks), [hand] * len(tasks)))
            return _score_parts(parts, club_inputs, hand, meta, options, pool)
    return _score_parts([read_clubs(task, options, hand) for task in tasks], club_inputs, hand, meta, options, None)


def _score_parts(parts: Sequence[CheckedClubs], club_inputs: Mapping[str, Sequence[str | os.PathLike]],
                 hand: pd.DataFrame, meta: dict, options: Options, pool: Executor | None) -> SimResult:
    """The chunks' checks gathered (refused with every problem, if any) and the field scored."""
    whole = _gather(parts, hand)
    if whole.problems:
        raise ValidationError(pd.concat(whole.problems, ignore_index=True))
    order = {club: i for i, club in enumerate(club_inputs)}
    whole.results.sort(key=lambda r: order[str(r["club"].iloc[0])] if len(r) else -1)
    results = pd.concat(whole.results, ignore_index=True)
    conventions = session_conventions(options, meta)
    boards = hand if len(hand) else _first_boards(whole.boards)
    names = pd.concat(whole.names, ignore_index=True) if whole.names else None
    return score_field(results, whole.numbering, conventions, boards=boards, names=names, meta=meta,
                       clubs=tuple(club_inputs), notes=whole.notes, pool=pool)


def _first_boards(frames: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """The boards of the clubs' files (no hand record given): each board from the first file that deals it."""
    found = [f[list(BOARDS_COLUMNS)] for f in frames if len(f)]
    if not found:
        return empty(BOARDS_COLUMNS)
    boards = pd.concat(found, ignore_index=True)
    return boards.sort_values("deal", key=lambda s: s.isna(), kind="stable").drop_duplicates("board").sort_values(
        "board").reset_index(drop=True)


def _field_pairs(results: pd.DataFrame, numbering: Mapping[str, str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``results`` with every pair id naming its section (``oakfield/A\x1e3``) and, for a club
    numbered per direction, its direction (``...3\x1fNS``): one shared numbering then tells
    every pair of the field apart, and a standings row says whose it is. The direction is that of
    the pair's number (``core.pairs.pair_directions``): on an arrow-switched row the NS seat holds
    an EW pair, marked ``EW`` as in every other round it plays. Each id's text is built once per
    distinct (section, pair, direction), from integer codes; the second frame lists the ids
    (``id``, its ``section`` and ``pair`` as written), so that standings need not split them."""
    n = len(results)
    section, section_texts = pd.factorize(results["section"].astype("string"))
    pair, pair_texts = pd.factorize(pd.concat([results["ns"].astype("string"), results["ew"].astype("string")],
                                              ignore_index=True))
    sections, pairs = np.asarray(section_texts, dtype=object), np.asarray(pair_texts, dtype=object)
    direction = np.zeros(2 * n, dtype=np.int64)  # 0: no direction marked, 1: NS, 2: EW
    per_direction = [c for c, m in numbering.items() if m == "per-direction"]
    if per_direction:
        mask = results["club"].isin(per_direction).to_numpy(dtype=bool, na_value=False)
        ns_dir, ew_dir = pair_directions(results)
        marked = np.concatenate([np.where(ns_dir == "NS", 1, 2), np.where(ew_dir == "NS", 1, 2)])
        direction = np.where(np.concatenate([mask, mask]), marked, 0)
    key, count = combine_codes(np.concatenate([section, section]), pair, len(pairs))
    key, count = combine_codes(key, direction, 3)
    marks = ("", f"{_DIRECTION_MARK}NS", f"{_DIRECTION_MARK}EW")
    first = np.unique(key, return_index=True)[1][int(bool((key < 0).any())):] if len(key) else key
    own_section, own_pair = sections[section[first % n]] if n else sections[:0], pairs[pair[first]]
    texts = np.array([f"{s}{_SECTION_MARK}{p}{marks[d]}" for s, p, d in zip(own_section, own_pair, direction[first])]
                     + [pd.NA], dtype=object)
    ids = pd.array(texts[np.where(key >= 0, key, count)], dtype="string")  # a missing section or pair: no id
    listed = pd.DataFrame({"id": pd.array(texts[:count], dtype="string"), "section": own_section, "pair": own_pair})
    return (results.assign(ns=pd.Series(ids[:n], index=results.index), ew=pd.Series(ids[n:], index=results.index)),
            listed)


def _field_names(names: pd.DataFrame | None, results: pd.DataFrame, numbering: Mapping[str, str]) -> pd.DataFrame | None:
    """The names lists with their pairs marked as :func:`_field_pairs` marks them: a row without a
    section names the pair in each of its club's sections, one without a direction of a club
    numbered per direction both its NS and its EW pair."""
    if names is None or not len(names):
        return None
    sections = results[["club", "section"]].drop_duplicates()
    names = names.assign(pair=names["pair"].astype("string"), names=names["names"].astype("string"),
                         direction=names["direction"].astype("string") if "direction" in names else pd.NA)
    given = names[names["section"].notna()]
    spread = names[names["section"].isna()].drop(columns="section").merge(sections, on="club")
    rows = pd.concat([given, spread], ignore_index=True)
    rows["pair"] = rows["section"].astype("string") + _SECTION_MARK + rows["pair"]
    per = rows["club"].map(lambda c: numbering.get(c) == "per-direction").to_numpy(dtype=bool)
    out = [rows[~per]]
    for side in ("NS", "EW"):
        mine = rows[per & (rows["direction"].isna() | (rows["direction"] == side)).to_numpy(dtype=bool)]
        out.append(mine.assign(pair=mine["pair"] + _DIRECTION_MARK + side, direction=side))
    return pd.concat(out, ignore_index=True).assign(section=pd.NA)[["section", "pair", "direction", "names"]]


def _standings(work: pd.DataFrame, results: pd.DataFrame, conventions: Conventions,
               names: pd.DataFrame | None, ids: pd.DataFrame) -> pd.DataFrame:
    """Standings of ``work`` (pairs marked; ``ids``: each marked id, its section and pair, as
    :func:`_field_pairs` lists them) with the club, its own section and the pair as numbered."""
    table = standings(work, conventions.replace(pair_numbering="shared"), names)
    at = pd.Index(ids["id"]).get_indexer(table["pair"].astype("string"))
    if (at >= 0).all():
        section = pd.Series(ids["section"].to_numpy()[at], index=table.index, dtype="string")
        pair = pd.Series(ids["pair"].to_numpy()[at], index=table.index, dtype="string")
    else:  # not an id as marked (never so far): read it back from its text
        marked = table["pair"].astype("string").str.split(_SECTION_MARK, n=1, regex=False)
        section = marked.str[0].astype("string")
        pair = marked.str[1].str.split(_DIRECTION_MARK, n=1, regex=False).str[0].astype("string")
    # ``oakfield/A NS`` -> ``NS``
    group = per_distinct(table["group"], lambda g: g.str.rsplit(" ", n=1).str[-1].astype("string"))
    codes, sections = pd.factorize(results["section"].astype("string"))
    known = np.flatnonzero(codes >= 0)
    first = known[np.unique(codes[known], return_index=True)[1]]
    where = pd.Index(sections).get_indexer(section)
    rows = np.where(where >= 0, first[np.maximum(where, 0)] if len(first) else -1, -1)
    out = table.assign(group=group.astype("string"), pair=pair.astype("string"))
    out.insert(0, "club_section", pd.array(results["club_section"].array.take(rows, allow_fill=True), dtype="string"))
    out.insert(0, "club", pd.array(results["club"].array.take(rows, allow_fill=True), dtype="string"))
    return out[list(SIM_STANDINGS_COLUMNS)].astype(SIM_STANDINGS_COLUMNS)


def _ordered(table: pd.DataFrame, clubs: Sequence[str], by_club: bool, percentages: bool) -> pd.DataFrame:
    """Standings sorted as ``standings`` sorts them (best first, pair 2 before pair 10), the field's
    by group, the clubs' by club (in the order given), section and group."""
    order = {club: i for i, club in enumerate(clubs)}
    key = (table["pct"] if percentages else table["total"]).round(6)
    sort = table.assign(_club=table["club"].map(order), _key=-key, _number=pd.to_numeric(table["pair"], errors="coerce"))
    by = (["_club", "club_section", "group"] if by_club else ["group"]) + ["_key", "_club", "_number", "pair"]
    sort = sort.sort_values(list(dict.fromkeys(by)), kind="stable")
    return sort[list(SIM_STANDINGS_COLUMNS)].reset_index(drop=True)


def _club_scoring(work: pd.DataFrame, conventions: Conventions, names: pd.DataFrame | None, ids: pd.DataFrame,
                  clubs: Sequence[str]) -> tuple[dict[str, pd.Series], pd.DataFrame]:
    """The clubs' half of :func:`score_field` (a task of the pool while the main process scores
    across the field): the points within each club's sections and the clubs' standings, ordered."""
    method = ranking_method(conventions.method)
    within = rank_results(work, conventions)
    table = _standings(within, work, conventions, names, ids)
    return {f"club_{name}": within[name] for name in method.columns}, _ordered(table, clubs, True, method.percentages)


def score_field(results: pd.DataFrame, numbering: Mapping[str, str], conventions: Conventions, *,
                boards: pd.DataFrame | None = None, names: pd.DataFrame | None = None, meta: dict | None = None,
                clubs: Sequence[str] = (), notes: Sequence[pd.DataFrame] = (), pool: Executor | None = None) -> SimResult:
    """Score a checked field (``results`` with ``club``, ``club_section`` and sections unique in
    the field) across the field and within each club's sections, and rank it both ways; with a
    ``pool``, the clubs' half in one of its processes meanwhile."""
    method = ranking_method(conventions.method)
    base = [c for c in results.columns if c not in method.columns and not c.startswith("club_") or c == "club_section"]
    results = results[base].reset_index(drop=True)
    work, ids = _field_pairs(results, numbering)
    shared = conventions.replace(pair_numbering="shared")
    field_conv, club_conv = shared.replace(across_field=True), shared.replace(across_field=False)
    marked_names = _field_names(names, results, numbering)
    order = list(dict.fromkeys(clubs or results["club"].unique()))
    clubs_job = pool.submit(_club_scoring, work, club_conv, marked_names, ids, order) if pool is not None else None
    across = rank_results(work, field_conv)
    field_table = _ordered(_standings(across, work, field_conv, marked_names, ids), order, False, method.percentages)
    club_points, club_table = (clubs_job.result() if clubs_job is not None
                               else _club_scoring(work, club_conv, marked_names, ids, order))
    added = {name: across[name] for name in method.columns}
    scored = results.assign(**added, **club_points)
    found = [n for n in notes if n is not None and len(n)]
    return SimResult(results=scored, boards=boards if boards is not None else empty(BOARDS_COLUMNS),
                     field_standings=field_table, club_standings=club_table,
                     frequencies=frequency_table(scored, conventions), clubs=tuple(order),
                     conventions=field_conv.replace(pair_numbering=conventions.pair_numbering), numbering=dict(numbering),
                     meta=dict(meta or {}),
                     notes=pd.concat(found, ignore_index=True)[list(PROBLEM_COLUMNS)] if found else None)


# --- from the archive ---------------------------------------------------------------------


def score_sim_from_archive(url: str, event: str, options: Options = Options()) -> SimResult:
    """Score the field of ``event`` from the archive at ``url``: every archived session of that
    event is one club (its ``site``, else its session id), its latest version scored again across
    the field. Raises BridgeprocError when the archive holds no session of ``event``."""
    from bridgeproc.archive import list_sessions, load_session  # start-up: SQLAlchemy only when used

    listed = list_sessions(url)
    mine = listed[(listed["event"] == event) & (listed["kind"] == "pairs")]  # a teams session is no club's pairs
    mine = mine[mine["versions"] > 0]
    if not len(mine):
        known = ", ".join(sorted(set(listed["event"].dropna()))) or "none"
        raise BridgeprocError(f"the archive holds no session of event {event!r} (events: {known}); "
                              "archive each club's session with --event")
    sessions = [(str(sid), load_session(url, str(sid))) for sid in sorted(mine["session_id"])]
    sites = [str(s.meta.get("site") or "").strip() for _, s in sessions]
    by_site = all(sites) and len(set(sites)) == len(sites)
    frames, numbering, names, notes = [], {}, [], []
    for (sid, session), site in zip(sessions, sites):
        club = site if by_site else sid
        keep = [c for c in RESULTS_COLUMNS if c in session.results] + (["fouled"] if "fouled" in session.results else [])
        frames.append(club_results(session.results[keep], club))
        numbering[club] = session.numbering
        if session.names is not None and len(session.names):
            names.append(club_names_list(session.names, club))
        versions = int(mine.loc[mine["session_id"] == sid, "versions"].iloc[0])
        if versions > 1:
            notes.append(problems_frame([{"source": f"archive {sid}", "message": f"club {club}: version {versions} "
                         f"of {versions} scored (the latest); if two clubs archived under one session id, give "
                         "each its own --session-id"}]))
    first = sessions[0][1]
    conventions = first.conventions
    boards = first.boards[[c for c in first.boards.columns]] if len(first.boards) else empty(BOARDS_COLUMNS)
    return score_field(pd.concat(frames, ignore_index=True), numbering, conventions, boards=boards,
                       names=pd.concat(names, ignore_index=True) if names else None,
                       meta={**first.meta, "event": event}, clubs=[f["club"].iloc[0] for f in frames], notes=notes)


__all__ = ["clubs_of", "read_clubs", "score_field", "score_sim",
           "score_sim_from_archive", "SIM_COLUMNS"]
