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
from pathlib import Path

import pandas as pd

from bridgeproc.errors import BridgeprocError, UsageError, ValidationError
from bridgeproc.model import Options, SimResult
from bridgeproc.pipeline.run import session_conventions
from bridgeproc.pipeline.sim_read import (
    CheckedClubs,
    club_names_list,
    clubs_of,
    read_clubs,
    read_hand_record,
)
from bridgeproc.rank import Conventions
from bridgeproc.rank.field import rank_field
from bridgeproc.schema import (
    BOARDS_COLUMNS,
    PROBLEM_COLUMNS,
    RESULTS_COLUMNS,
    SIM_COLUMNS,
    empty,
    problems_frame,
)
from bridgeproc.validate.batch import club_results
from bridgeproc.validate.deals import deal_conflicts

#: Clubs read and checked per task of the pool (a chunk's plain clubs are checked in one call).
CHUNK_CLUBS = 50
#: Worker processes reading and checking clubs, and writing per-club outputs.
WORKERS = 2


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
    if options.check.corrections is not None or options.read.names:
        raise UsageError("--corrections and --names are per club: put a club's names list in its folder "
                         "(--club-of folder); corrections are not taken for a simultaneous event yet")
    options = options.but(dd=False, archive={"store": False})
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


def score_field(results: pd.DataFrame, numbering: Mapping[str, str], conventions: Conventions, *,
                boards: pd.DataFrame | None = None, names: pd.DataFrame | None = None, meta: dict | None = None,
                clubs: Sequence[str] = (), notes: Sequence[pd.DataFrame] = (), pool: Executor | None = None) -> SimResult:
    """Score a checked field across the field and within each club's sections (``rank.field``), as a
    :class:`SimResult` with its boards, headings and notes."""
    ranked = rank_field(results, numbering, conventions, names=names, clubs=clubs, pool=pool)
    found = [n for n in notes if n is not None and len(n)]
    return SimResult(results=ranked.results, boards=boards if boards is not None else empty(BOARDS_COLUMNS),
                     field_standings=ranked.field_standings, club_standings=ranked.club_standings,
                     frequencies=ranked.frequencies, clubs=ranked.clubs, conventions=ranked.conventions,
                     numbering=dict(numbering), meta=dict(meta or {}),
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
