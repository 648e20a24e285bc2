"""What if the archive had been scored otherwise: every session's standings under other conventions.

:func:`rescore_archive` reads the results of each pairs session's latest complete version (in
chunks of sessions, only the columns scoring reads, column by column: :mod:`bridgeproc.archive.bulk`;
the next chunk is read in a thread while this one is scored, the database working outside the GIL) and
scores a whole chunk in one vectorised pass of :func:`bridgeproc.rank.rank_results` and
:func:`bridgeproc.rank.standings`: the session becomes part of the section (``<n>\\x1e<section>``),
so every board group, Neuberg count, datum and ranking group stays within its session, and the
section is taken off again in the standings. Nothing is written: a new version is archived only
by scoring the session again (``bridgeproc score``).

Each session keeps what build_session decided from its files: its pair numbering (unless the
conventions force one) and whether boards were compared across its sections (``across_field``,
one ScoreTable over several sections; the conventions' True sets it for every session). A
session compared across several sections is scored on its own (a pass of its own: across the
field, sections cannot be folded into the session key); they are rare.
"""
from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sqlalchemy import and_, select

from bridgeproc.archive.bulk import as_frame, fetch, read_columns, text_array
from bridgeproc.archive.codec import decode, select_columns
from bridgeproc.archive.db import ArchiveError, archive_exists, engine_for, reading
from bridgeproc.archive.tables import frames, names, results, sessions, versions
from bridgeproc.archive.tables import standings as standings_table
from bridgeproc.core.pairs import as_numbered, pair_numbering
from bridgeproc.model import Rescored
from bridgeproc.rank import Conventions, is_individual, rank_results, standings
from bridgeproc.schema import RESCORE_COLUMNS, STANDINGS_COLUMNS, empty

#: Results columns that scoring and ranking read (typed SQL columns of ``results``).
SCORED = ("section", "board", "ns", "ew", "adjusted", "score_ns")
#: Columns a results frame may carry (in ``extra``) that change the scoring: fouled-board groups,
#: arrow-switched rows. A version that has one is read whole, with :func:`decode`.
RARE = ("fouled", "switched")
#: Names-list columns the standings read.
NAMED = ("section", "pair", "direction", "names")
#: Results scored in one pass (bounds the memory: about 1.5 kB per result at the peak).
CHUNK_RESULTS = 1_000_000
#: Joins the session's number to its section in the section key, and never occurs in either.
SEP = "\x1e"


@dataclass(frozen=True)
class _Version:
    """One session's latest complete version, as rescoring needs it."""

    session_id: str
    event: str
    date: str
    version: int
    version_id: int
    numbering: str | None
    across_field: bool
    n_rows: int
    spec: dict | None  # the results frame's column spec (None: no results frame)
    names_spec: dict | None


class _Clock:
    """Tells ``report(stage, seconds)`` the time since the last mark (for the benchmark's figures)."""

    def __init__(self, report: Callable[[str, float], None] | None) -> None:
        self.report, self.mark = report, time.perf_counter()

    def __call__(self, stage: str) -> None:
        now = time.perf_counter()
        if self.report is not None:
            self.report(stage, now - self.mark)
        self.mark = now


def rescore_archive(url: str | os.PathLike | None, conventions: Conventions, *,
                    sessions: Iterable[str] | None = None, chunk_results: int = CHUNK_RESULTS,
                    stages: Callable[[str, float], None] | None = None) -> Rescored:
    """The standings of every archived pairs session (or of ``sessions``) scored under ``conventions``.

    Each session's latest complete version is read; nothing is written. ``conventions.pair_numbering``
    ``"auto"`` keeps each session's archived numbering (decided once by the checks, as
    ``bridgeproc score`` does); ``across_field`` is the session's own or True.

    Returns its ``table`` of :data:`bridgeproc.schema.RESCORE_COLUMNS`: per session (by id) its
    standings as :func:`bridgeproc.rank.standings` gives them (group, rank, pair, names, boards,
    total, pct) and the archived ``was_rank``, ``was_total`` and ``was_pct`` of the same pair in
    the same group (NA when the group or pair is new), and ``skipped``: the sessions
    left out when ``sessions`` is None, each with its reason (teams sessions; sessions with no
    complete version yet).

    ``chunk_results``: about how many results are scored in one pass (memory); ``stages(name,
    seconds)`` is told the time of each piece of work: ``read``, ``score`` (matchpoints or IMPs),
    ``standings``, ``rest`` (folding the sessions in and out), once per chunk.

    Raises ArchiveError for an archive that is not there, and for ``sessions`` naming a session
    the archive does not have, a teams session or one without a complete version (all of them).
    """
    if not archive_exists(url):
        raise ArchiveError(f"no archive at {url}: give the archive to rescore (--archive or BRIDGEPROC_ARCHIVE)")
    if chunk_results < 1:
        raise ValueError(f"chunk_results={chunk_results}; expected 1 or more")
    engine = engine_for(url, readonly=True)
    clock = _Clock(stages)
    parts = []
    with reading(engine) as conn:
        chosen, skipped = _latest(conn, None if sessions is None else list(sessions))
        with ThreadPoolExecutor(1) as reader:  # the next chunk is read while this one is scored
            chunks = list(_chunks(chosen, chunk_results))
            ahead = reader.submit(_read, conn, chunks[0]) if chunks else None
            for i, chunk in enumerate(chunks):
                assert ahead is not None
                scored, named = ahead.result()
                ahead = reader.submit(_read, conn, chunks[i + 1]) if i + 1 < len(chunks) else None
                if ahead is None:  # the archived standings are read while the last chunk is scored
                    archived = reader.submit(_archived, conn, chosen)
                clock("read")
                parts.append(_score(chunk, scored, named, conventions, clock))
            was = archived.result() if chunks else _archived(conn, chosen)
    clock("read")
    parts = [p for p in parts if len(p)]
    table = pd.concat(parts, ignore_index=True) if parts else empty({"session_id": "string", **STANDINGS_COLUMNS})
    return Rescored(_with_archived(table, was, chosen), skipped)


def _latest(conn, wanted: list[str] | None) -> tuple[list[_Version], dict[str, str]]:
    """The latest complete version of every pairs session (of ``wanted``), by session id, and the
    sessions left out with why."""
    spec_of = frames.alias("spec_of")
    names_of = frames.alias("names_of")
    query = (select(sessions.c.session_id, sessions.c.event, sessions.c.date, sessions.c.kind,
                    sessions.c.latest_version, sessions.c.latest_version_id, versions.c.numbering,
                    versions.c.conventions, spec_of.c.n_rows, spec_of.c.columns, names_of.c.columns)
             .select_from(sessions)
             .outerjoin(versions, versions.c.version_id == sessions.c.latest_version_id)
             .outerjoin(spec_of, and_(spec_of.c.version_id == sessions.c.latest_version_id,
                                      spec_of.c.frame == "results"))
             .outerjoin(names_of, and_(names_of.c.version_id == sessions.c.latest_version_id,
                                       names_of.c.frame == "names"))
             .order_by(sessions.c.session_id))
    rows = conn.execute(query).all()
    found = {row[0] for row in rows}
    problems, skipped = [], {}
    if wanted is not None:
        missing = [sid for sid in dict.fromkeys(wanted) if sid not in found]
        problems += [f"no session {sid!r} in the archive" for sid in missing]
        keep = set(wanted)
        rows = [row for row in rows if row[0] in keep]
    parsed: dict[str, object] = {}  # equal JSON texts (most specs are) parsed once

    def loads(text):
        if text is None:
            return None
        if text not in parsed:
            parsed[text] = json.loads(text)
        return parsed[text]

    chosen = []
    for sid, event, day, kind, version, version_id, numbering, conv, n_rows, spec, names_spec in rows:
        why = ("a teams session (rescoring is for pairs sessions)" if kind == "teams" else
               "no complete version yet (the run that archived it did not write every output)"
               if version_id is None else None)
        if why:
            skipped[sid] = why
            continue
        across = bool((loads(conv) or {}).get("across_field", False))
        chosen.append(_Version(sid, event, day, int(version), int(version_id), numbering, across,
                               int(n_rows or 0), loads(spec), loads(names_spec)))  # type: ignore[arg-type]
    if wanted is not None:
        problems += [f"session {sid!r}: {why}" for sid, why in skipped.items()]
    if problems:
        raise ArchiveError("cannot rescore: " + "; ".join(problems) + "; `bridgeproc archive list` shows the sessions")
    return chosen, skipped


def _chunks(chosen: list[_Version], limit: int) -> Iterator[list[_Version]]:
    """Runs of sessions of about ``limit`` results together (a big session is a chunk of its own)."""
    chunk: list[_Version] = []
    size = 0
    for item in chosen:
        if chunk and size + item.n_rows > limit:
            yield chunk
            chunk, size = [], 0
        chunk.append(item)
        size += item.n_rows
    if chunk:
        yield chunk


def _typed(spec: dict | None, wanted: tuple[str, ...]) -> bool:
    """True when every column of ``wanted`` the frame has is in its own SQL column (not ``extra``)."""
    if spec is None:
        return True
    where = {e[0]: e[2] for e in spec["columns"]}
    return all(where.get(c, c) == c for c in wanted) and not any(c in where for c in RARE) \
        and not spec.get("index")


def _read(conn, chunk: list[_Version]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The results (``SCORED`` columns and any ``RARE`` ones) and names lists of ``chunk``'s versions,
    each row with its ``version_id``."""
    fast = {v.version_id: v.n_rows for v in chunk if _typed(v.spec, SCORED) and v.spec is not None}
    whole = [v for v in chunk if v.spec is not None and not _typed(v.spec, SCORED)]
    parts = [read_columns(conn, results, SCORED, fast, ints=("board",), nullable=("score_ns",))]
    for item in whole:  # a version storing a scored column in extra, or fouled/switched: decoded exactly
        spec = item.spec
        assert spec is not None
        rows = conn.execute(select(*select_columns(spec, results)).where(results.c.version_id == item.version_id)
                            .order_by(results.c.pos)).all()
        frame = decode(spec, rows).reset_index(drop=True)
        keep = [c for c in (*SCORED, *RARE) if c in frame]
        types = {"section": "string", "board": "int64", "ns": "string", "ew": "string", "adjusted": "string",
                 "score_ns": "Int64"}
        parts.append(frame[keep].astype({c: t for c, t in types.items() if c in keep})
                     .assign(version_id=item.version_id))
    named_fast = [v.version_id for v in chunk if v.names_spec is not None and _typed(v.names_spec, NAMED)]
    named = [as_frame(fetch(conn, names, NAMED, named_fast), NAMED)]
    for item in chunk:
        if item.names_spec is not None and not _typed(item.names_spec, NAMED):
            rows = conn.execute(select(*select_columns(item.names_spec, names))
                                .where(names.c.version_id == item.version_id).order_by(names.c.pos)).all()
            frame = decode(item.names_spec, rows).reset_index(drop=True)
            named.append(pd.DataFrame({c: frame[c].astype("string") if c in frame else
                                       pd.array([pd.NA] * len(frame), dtype="string") for c in NAMED})
                         .assign(version_id=item.version_id))
    return pd.concat(parts, ignore_index=True), pd.concat(named, ignore_index=True)


def _score(chunk: list[_Version], scored: pd.DataFrame, named: pd.DataFrame, conventions: Conventions,
           clock: _Clock) -> pd.DataFrame:
    """The standings of every session of ``chunk``: the sessions folded into the sections and
    ranked in one pass per pair numbering and kind (pairs, individuals)."""
    ids = np.array([v.version_id for v in chunk], dtype=np.int64)
    order = np.argsort(ids)
    code = order[np.searchsorted(ids[order], scored["version_id"].to_numpy())]  # row -> session in chunk
    section = scored["section"].fillna("")
    sections = pd.Series(section.to_numpy(dtype=object)).groupby(code).nunique()
    many = np.zeros(len(chunk), dtype=bool)
    many[sections.index.to_numpy()] = sections.to_numpy() > 1
    across = np.array([v.across_field or conventions.across_field for v in chunk]) & many
    numbering = _numberings(chunk, scored, code, conventions)
    individual = _individuals(scored, code, len(chunk))
    out = []
    folded = ~across[code]
    seen = np.bincount(code, minlength=len(chunk)) > 0
    for key in sorted({(numbering[i], bool(individual[i])) for i in range(len(chunk)) if seen[i] and not across[i]}):
        members = np.flatnonzero((numbering == key[0]) & (individual == key[1]) & ~across)
        rows = folded & np.isin(code, members)
        out.append(_folded(scored[rows], code[rows], named, chunk, members, many,
                           conventions.replace(across_field=False, pair_numbering=key[0]), clock))
    for i in np.flatnonzero(across):  # compared across several sections: a pass of its own
        rows = code == i
        conv = conventions.replace(across_field=True, pair_numbering=numbering[i])
        table = _ranked(scored[rows].drop(columns="version_id"), conv, _names_of(named, chunk[i].version_id), clock)
        out.append(table.assign(session_id=chunk[i].session_id))
    clock("rest")
    return pd.concat(out, ignore_index=True) if out else pd.DataFrame()


def _ranked(frame: pd.DataFrame, conv: Conventions, names_list: pd.DataFrame | None, clock: _Clock) -> pd.DataFrame:
    """Score and rank ``frame`` as build_session does (by seat, then credited by pair numbers)."""
    frame = frame.drop(columns=[c for c in RARE if c in frame and frame[c].isna().all()]).reset_index(drop=True)
    clock("rest")
    scored = rank_results(frame, conv)
    clock("score")
    table = standings(as_numbered(scored), conv, names_list)
    clock("standings")
    return table


def _names_of(named: pd.DataFrame, version_id: int) -> pd.DataFrame | None:
    rows = named[named["version_id"] == version_id].drop(columns="version_id").reset_index(drop=True)
    return rows if len(rows) else None


def _numberings(chunk: list[_Version], scored: pd.DataFrame, code: np.ndarray, conventions: Conventions) -> np.ndarray:
    """Each session's pair numbering: the conventions', else the archived one, else decided from its results."""
    out = np.array([conventions.pair_numbering if conventions.pair_numbering != "auto" else v.numbering or ""
                    for v in chunk], dtype=object)
    for i in np.flatnonzero(~np.isin(out, ["shared", "per-direction"])):
        out[i] = pair_numbering(scored[code == i].reset_index(drop=True))
    return out


def _individuals(scored: pd.DataFrame, code: np.ndarray, n: int) -> np.ndarray:
    """Sessions whose every side is ``north+south`` (individual events, ranked per player)."""
    if not len(scored):
        return np.zeros(n, dtype=bool)
    plus = np.zeros(n, dtype=bool)
    for side in ("ns", "ew"):
        values, uniques = pd.factorize(scored[side], use_na_sentinel=True)
        has = np.append(pd.Series(uniques, dtype="string").str.contains("+", regex=False).to_numpy(
            dtype=bool, na_value=False), True)[values]  # NA: no side, no say
        plus |= np.bincount(code[~has], minlength=n) > 0
    seen = np.bincount(code, minlength=n) > 0
    out = seen & ~plus
    for i in np.flatnonzero(out):  # every side NA: not an individual (as is_individual says)
        out[i] = is_individual(scored[code == i])
    return out


def _folded(rows: pd.DataFrame, code: np.ndarray, named: pd.DataFrame, chunk: list[_Version],
            members: np.ndarray, many: np.ndarray, conv: Conventions, clock: _Clock) -> pd.DataFrame:
    """Standings of the sessions ``members`` ranked together with the session in the section key."""
    section = rows["section"].fillna("").to_numpy(dtype=object)
    sec_code, sec_names = pd.factorize(section)
    width = max(len(sec_names), 1)
    combo, inverse = np.unique(code * width + sec_code, return_inverse=True)
    labels = np.array([f"{c // width}{SEP}{sec_names[c % width]}" for c in combo], dtype=object)
    frame = rows.drop(columns="version_id").assign(section=text_array(labels[inverse]))
    table = _ranked(frame, conv, _folded_names(named, chunk, members, combo, width, sec_names), clock)
    # the group is "<n>\x1e<section> NS" (or just "NS" when the pass had one section key): each
    # distinct group is taken apart once
    at, groups = pd.factorize(table["group"].astype("string").to_numpy(dtype=object))
    session_of, shown_of = [], []
    for text in groups:
        head, _, base = text.rpartition(" ") if SEP in text else (labels[0], " ", text)
        number, _, sec = head.partition(SEP)
        session_of.append(int(number))
        shown_of.append(f"{sec} {base}" if many[int(number)] else base)
    session = np.array(session_of, dtype=np.int64)[at]
    shown = np.array(shown_of, dtype=object)[at]
    pair = table["pair"].astype("string")
    clash = pair.str.contains(SEP, regex=False).to_numpy(dtype=bool, na_value=False)
    if clash.any():  # pairs of one group sharing a number show their section first: take the session off
        # ("NS 0\x1eA1" when a one-winner ranking also labels the direction: the label stays)
        pair = pair.where(~clash, pair.str.replace(rf"^((?:NS|EW) )?\d+{SEP}", r"\1", regex=True))
    out = table.assign(group=pd.array(shown, dtype="string"), pair=pair.to_numpy(),
                       session_id=np.array([v.session_id for v in chunk], dtype=object)[session])
    out["_session"] = session
    out = out.sort_values(["_session", "group"], kind="stable").drop(columns=["_session"])
    return out.reset_index(drop=True)


def _folded_names(named: pd.DataFrame, chunk: list[_Version], members: np.ndarray, combo: np.ndarray, width: int,
                  sec_names: pd.Index) -> pd.DataFrame | None:
    """The names lists of ``members`` with the session in the section key, as the folded results have it.

    A list without sections names the pairs of every section of its session (as standings reads it):
    its rows are repeated for each."""
    ids = np.array([chunk[i].version_id for i in members], dtype=np.int64)
    rows = named[np.isin(named["version_id"].to_numpy(), ids)]
    if not len(rows):
        return None
    by_id = {v.version_id: i for i, v in enumerate(chunk)}
    session = rows["version_id"].map(by_id).to_numpy()
    has_section = rows["section"].notna().groupby(session).transform("any").to_numpy()
    own = rows[has_section]
    own_labels = (pd.Series(session[has_section]).astype("string") + SEP
                  + own["section"].fillna("").reset_index(drop=True))
    listed = own.assign(section=own_labels.to_numpy())
    loose = rows[~has_section].assign(_session=session[~has_section])
    keys = pd.DataFrame({"_session": combo // width,
                         "section": [f"{c // width}{SEP}{sec_names[c % width]}" for c in combo]})
    spread = loose.drop(columns="section").merge(keys, on="_session", how="inner").drop(columns="_session")
    out = pd.concat([listed, spread], ignore_index=True).drop(columns="version_id")
    return out.astype({"section": "string"}).reset_index(drop=True)


def _archived(conn, chosen: list[_Version]) -> pd.DataFrame:
    """The archived standings (group, pair, rank, total, pct) of the chosen versions, by session id."""
    ids = [v.version_id for v in chosen]
    rows = fetch(conn, standings_table, ("grp", "pair", "rank", "total", "pct"), ids)
    frame = pd.DataFrame(rows, columns=["version_id", "group", "pair", "was_rank", "was_total", "was_pct"])
    sid = {v.version_id: v.session_id for v in chosen}
    frame["session_id"] = frame["version_id"].map(sid)
    return frame.drop(columns="version_id").drop_duplicates(["session_id", "group", "pair"])


def _with_archived(table: pd.DataFrame, was: pd.DataFrame, chosen: list[_Version]) -> pd.DataFrame:
    """``table`` with each session's event and date and the archived figures of each row's pair."""
    info = pd.DataFrame({"session_id": [v.session_id for v in chosen], "event": [v.event for v in chosen],
                         "date": [v.date for v in chosen], "version": [v.version for v in chosen]})
    keys = ["session_id", "group", "pair"]
    for frame in (table, was):
        for key in keys:
            frame[key] = frame[key].astype("string")
    info["session_id"] = info["session_id"].astype("string")
    info["_order"] = np.arange(len(info))
    out = table.merge(info, on="session_id", how="left").merge(was, on=keys, how="left")
    out = out.sort_values("_order", kind="stable")
    return out[list(RESCORE_COLUMNS)].astype(RESCORE_COLUMNS).reset_index(drop=True)
