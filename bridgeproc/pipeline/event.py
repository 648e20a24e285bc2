"""``bridgeproc event``: several sessions, each scored on its own, then one event ranking.

Why not one ``score`` run over every file: the sessions' round numbers start again at 1 (the
Finnish championship's two files meet at table 17 round 1 with other pairs: 702 table/round
problems, one per result of session 2), and the second session's published TotalScoreTable is
the event's, not the session's. So each session is built by :func:`build_session` on its own
files (its own conventions, movement and checks) and the standings are combined by
:func:`bridgeproc.rank.event.combine_sessions`.

A session is given as a file, as several files joined by commas (``hands.pbn,travellers.csv``),
or as an archived session id written ``archive:ID`` (read with ``load_session``). A USEBIO file of
several ``SESSION`` elements (``report.event_usebio`` writes one) given alone is its sessions, in file
order, as if each were given on its own (``results.xml#1 results.xml#2``); ``results.xml#N`` is one
of them (io.usebio.sessions). The event's standings such a file publishes (``EVENT/PARTICIPANTS``)
are compared with ours when the event is the file's sessions, as a Ruter TotalScoreTable is.
"""
from __future__ import annotations

import dataclasses
import os
import re
import time
from pathlib import Path
from typing import Callable, Sequence

import pandas as pd

from bridgeproc.errors import BridgeprocError, ParseError, SetupError, UsageError, ValidationError
from bridgeproc.io.pbn.reader import read_pbn
from bridgeproc.io.usebio.sessions import read_event_standings, session_count, split_session
from bridgeproc.model import Event, EventArchived, Options, Session
from bridgeproc.pipeline.outputs import OUTPUTS
from bridgeproc.pipeline.publish import archive_file, check_outputs, completing, publish
from bridgeproc.pipeline.read import check_input_files, input_file, published_totals, suffix
from bridgeproc.pipeline.run import build_session
from bridgeproc.rank.event import EventRanking, SessionStandings, combine_sessions, session_table
from bridgeproc.rank.published import published_differences
from bridgeproc.schema import problems_frame

#: ``archive:ID``: a session taken from the archive instead of files.
ARCHIVED = "archive:"
#: The output types of an event (``pipeline.publish.OUTPUTS``).
EVENT_OUTPUTS: tuple[str, ...] = tuple(OUTPUTS["Event"])
def session_files(spec: str | os.PathLike | Sequence) -> list[str]:
    """The files of one session: a path, several paths joined by commas, or a list of paths;
    ``archive:ID`` is returned as it is. A path that exists with a comma in its name is one file."""
    if not isinstance(spec, (str, os.PathLike)):
        return [os.fspath(p) for p in spec]
    text = os.fspath(spec)
    if text.startswith(ARCHIVED) or Path(text).exists() or "," not in text:
        return [text]
    return [part for part in (p.strip() for p in text.split(",")) if part]


def _usebio_sessions(path: str) -> int:
    """How many sessions a USEBIO file given whole holds (0 for any other input, or a file that is not
    there or not XML: its reader says what is wrong)."""
    if suffix(path) != ".xml" or not Path(path).is_file():
        return 0
    try:
        return session_count(path)
    except ParseError:
        return 0


def expand_sessions(groups: list[list[str]]) -> list[list[str]]:
    """Each USEBIO file of several sessions given alone as its sessions (``FILE.xml#1`` ... ``#N``).

    Raises UsageError for such a file given with other files in one session (whose session would
    they be?)."""
    out: list[list[str]] = []
    for files in groups:
        counts = [_usebio_sessions(f) for f in files]
        several = [(f, n) for f, n in zip(files, counts) if n > 1]
        if several and len(files) > 1:
            path, count = several[0]
            name = Path(path).name
            raise UsageError(f"{name} holds {count} sessions: give it on its own (each of its sessions is one of "
                             f"the event's), or name one session, {name}#1 ... {name}#{count}, with the files "
                             "that go with it")
        if several:
            out.extend([f"{files[0]}#{n}"] for n in range(1, several[0][1] + 1))
        else:
            out.append(files)
    return out


def _label(files: list[str]) -> str:
    return " + ".join(f if f.startswith(ARCHIVED) else Path(f).name for f in files)


def _refused(exc: BridgeprocError, label: str) -> pd.DataFrame:
    if isinstance(exc, ValidationError):
        return exc.problems
    if isinstance(exc, ParseError):
        return problems_frame([{"source": exc.source, "line": exc.line, "message": exc.message}])
    return problems_frame([{"source": label, "message": str(exc)}])


def _build(files: list[str], options: Options, progress, stages) -> Session:
    if files[0].startswith(ARCHIVED):
        from bridgeproc.archive import load_session  # start-up: SQLAlchemy only for an archived session

        return load_session(options.archive.url, files[0][len(ARCHIVED):])
    return build_session(files, options, progress=progress, stages=stages)


def _session_standings(session: Session, label: str) -> SessionStandings:
    """The session's standings as the event sees them (rank.event.session_table: each pair's section,
    direction and number, its top and member ids from the names list by section, direction and pair)."""
    table = session_table(session.results, session.decided, session.names)
    top = session.results["top"].max() if "top" in session.results and len(session.results) else None
    return SessionStandings(label, session.conventions.method, table,
                            None if top is None or pd.isna(top) else float(top))


def _cumulative(files: list[str], options: Options) -> pd.DataFrame | None:
    """A PBN TotalScoreTable that is an event's, not the session's (Ruter writes ``SessionScoreMP``
    and ``NrBoardsSession`` beside the cumulative ``TotalScoreMP``), read from the session's files."""
    for path in files:
        if suffix(path) != ".pbn":
            continue
        totals = read_pbn(path, options.read.encoding).totals
        if "sessionscoremp" in totals or "nrboardssession" in totals:
            return totals
    return None


def _published_notes(session: Session, cumulative: pd.DataFrame | None, event_table: pd.DataFrame | None,
                     source_boards: int) -> pd.DataFrame | None:
    """A session whose file publishes the event's running totals: its session notes compared the
    session's ranking with the event's numbers, so they are replaced by the comparison of the
    session's ranking with ``SessionScoreMP``/``SessionPercentage``/``SessionRank`` and (the event's
    last session, when its NrBoards are the event's boards) of the event ranking with ``TotalScoreMP``/
    ``TotalPercentage``/``Rank``."""
    notes = session.notes
    if cumulative is None:
        return notes
    source = str(cumulative["source"].iloc[0]) if len(cumulative) else ""
    if notes is not None:
        cumulative_kinds = notes["column"].isin(["total", "percentage", "place"]) & (notes["source"] == source)
        notes = notes[~cumulative_kinds]
    renamed = cumulative.rename(columns={"totalscoremp": "_event_total", "totalpercentage": "_event_pct",
                                         "rank": "_event_rank", "sessionscoremp": "totalscoremp",
                                         "sessionpercentage": "totalpercentage", "sessionrank": "rank"})
    found = [notes]
    session_totals = published_totals(renamed)
    if session_totals is not None:
        found.append(published_differences(pd.DataFrame(), pd.DataFrame(), session.conventions.method,
                                           session.standings, session_totals))
    boards = pd.to_numeric(cumulative.get("nrboards", pd.Series(dtype="string")), errors="coerce").max()
    event_totals = published_totals(cumulative, event=True)
    if event_table is not None and event_totals is not None and boards == source_boards:
        found.append(published_differences(pd.DataFrame(), pd.DataFrame(), session.conventions.method,
                                           event_table, event_totals))
    found = [f for f in found if f is not None and len(f)]
    return pd.concat(found, ignore_index=True) if found else None


def _picked(files: list[str]) -> tuple[Path, int] | None:
    """(the file, the session number) of a session given as ``FILE.xml#N`` alone, else None."""
    path, number = split_session(files[0]) if len(files) == 1 else (None, None)
    return None if path is None or number is None or not number.isdigit() else (Path(path).resolve(), int(number))


def _event_standings_notes(groups: list[list[str]], ranking: EventRanking, method: str) -> list[pd.DataFrame]:
    """The event's standings each USEBIO file of several sessions publishes, against ours (rank.published,
    within the file's printed precision): when the event's sessions are that file's, all in file order;
    else a note that they are not compared (the file's event is another)."""
    picked = [_picked(files) for files in groups]
    found: list[pd.DataFrame] = []
    for path in dict.fromkeys(p[0] for p in picked if p is not None):
        totals = read_event_standings(path)
        if totals is None:
            continue
        whole = picked == [(path, n) for n in range(1, session_count(path) + 1)]
        if not whole:
            found.append(problems_frame([{"source": path.name, "line": str(totals["line"].iloc[0]),
                                          "column": "total", "message": "the event's standings the file publishes "
                                          "(<EVENT> <PARTICIPANTS>) are not compared with ours: this event is not "
                                          "the file's sessions, all of them in file order"}]))
            continue
        differ = published_differences(pd.DataFrame(), pd.DataFrame(), method, ranking.standings, totals)
        if differ is not None and len(differ):
            differ = differ.assign(message="the event's standings (<EVENT> <PARTICIPANTS>): " + differ["message"]
                                   + f" (or --rule: this event is ranked by {ranking.rule})")
            found.append(differ)
    return found


def _event_name(sessions: Sequence[Session]) -> str:
    """The sessions' common event name without its session number (``SM-parikilpailu - Session 1``
    and ``... 2``: ``SM-parikilpailu``), else the first session's."""
    names = [str(s.meta.get("event") or "") for s in sessions]
    common = os.path.commonprefix(names) if all(names) else ""
    trimmed = re.sub(r"[\s\-\u2013:,]*(session|sesjon|sessio|runde|round|osakilpailu)?[\s\d]*$", "", common,
                     flags=re.IGNORECASE)
    return trimmed or names[0] or "Event"


def _names_or_none(names: object) -> str:
    """A pair's names for a note, ``no names`` when the session has none (NA)."""
    return names if isinstance(names, str) and names.strip() else "no names"


def build_event(sessions: Sequence, options: Options = Options(), rule: str = "sum", missing: str = "drop",
                match: str = "number", carry_over: float = 0.5,
                progress: Callable[[int, int], None] | None = None,
                stages: Callable[[str, float], None] | None = None) -> Event:
    """Build every session (see :func:`session_files` for how one is given) with ``options`` and
    combine them by ``rule``/``missing``/``match``/``carry_over`` (rank.event). Computes only.

    Raises UsageError when a file is given twice (in one session or two) or a session has no
    files; ValidationError listing every problem of every session (each is checked in full
    before any is refused), or of matching the pairs and applying the rule.
    """
    groups = [session_files(s) for s in sessions]
    if not groups or any(not g for g in groups):
        raise UsageError("give every session at least one file")
    check_input_files([f for g in groups for f in g if not f.startswith(ARCHIVED)], options.read.names)
    groups = expand_sessions(groups)
    check_input_files([f for g in groups for f in g if not f.startswith(ARCHIVED)], options.read.names)
    built: list[Session] = []
    problems: list[pd.DataFrame] = []
    for files in groups:
        try:
            built.append(_build(files, options, progress, stages))
        except (UsageError, SetupError):
            raise
        except BridgeprocError as exc:
            problems.append(_refused(exc, _label(files)))
    if problems:
        raise ValidationError(pd.concat(problems, ignore_index=True))
    labels = tuple(_label(g) for g in groups)
    empty = [label for label, s in zip(labels, built) if not len(s.standings)]
    if empty:
        raise ValidationError(problems_frame([{"source": label, "message": "no results to rank in this session: "
                                               "an event combines sessions' rankings"} for label in empty]))
    start = time.perf_counter()
    ranking = combine_sessions([_session_standings(s, label) for s, label in zip(built, labels)],
                               rule=rule, missing=missing, match=match, carry_over=carry_over)
    if stages is not None:
        stages("event ranked", time.perf_counter() - start)
    most = int(ranking.standings["boards"].max()) if len(ranking.standings) else 0
    notes: list[pd.DataFrame] = []
    for number, (session, files) in enumerate(zip(built, groups), start=1):
        cumulative = None if files[0].startswith(ARCHIVED) else _cumulative(files, options)
        last = number == len(built) and rule == "sum"
        found = _published_notes(session, cumulative, ranking.standings if last else None, most)
        if found is not None and len(found):
            notes.append(found)
    notes.extend(_event_standings_notes(groups, ranking, built[-1].conventions.method))
    if len(ranking.notes):
        notes.append(ranking.notes)
    if len(ranking.dropped):
        notes.append(problems_frame([{"source": labels[-1], "column": "pair", "value": row.pair,
                                      "message": f"pair {row.pair} ({_names_or_none(row.names)}) missed session(s) "
                                                 f"{row.missed}: left out of the event ranking (--missing drop)"}
                                     for row in ranking.dropped.itertuples()]))
    meta = {"event": _event_name(built), "date": built[-1].meta.get("date"), "site": built[-1].meta.get("site")}
    meta.update({k: v for k, v in options.headings.given.items() if v})
    return Event(sessions=tuple(built), labels=labels, ranking=ranking, meta=meta,
                 notes=pd.concat(notes, ignore_index=True) if notes else None, options=options)


def _archive_identities(event: Event) -> list[tuple[str, str] | None]:
    """(session_id, date) each session scored from files is archived as, under the event's name (None for
    ``archive:ID``): ``archive.session_identity``'s ``<date>_<event>``, with ``-s<n>`` (its place in the
    event) when two sessions of the event would share one (two sessions on one day)."""
    from bridgeproc.archive import session_identity  # start-up: SQLAlchemy only for a run that archives

    name = str(event.meta.get("event") or "Event")
    found: list[tuple[str, str] | None] = []
    for session, label in zip(event.sessions, event.labels):
        if label.startswith(ARCHIVED):
            found.append(None)
            continue
        session_id, _, day = session_identity(session, event=name, date=event.options.headings.given.get("date"))
        found.append((session_id, day))
    ids = [f[0] for f in found if f is not None]
    return [None if f is None else ((f"{f[0]}-s{n}", f[1]) if ids.count(f[0]) > 1 else f)
            for n, f in enumerate(found, start=1)]


def _rule_text(ranking: EventRanking) -> str:
    """The event's rule as the archive records it: ``sum; missing=drop; match=number`` (and the carry-over share)."""
    text = f"{ranking.rule}; missing={ranking.missing}; match={ranking.match}"
    return text + (f"; carry-over={ranking.carry_over:g}" if ranking.rule == "carry-over" else "")


def write_event(event: Event, outputs: Sequence, archive: bool | None = None) -> Event:
    """Write every output of ``event`` (by type: ``pipeline.publish.OUTPUTS``) all together or none, and
    archive the event when ``archive`` (default: ``event.options.archive.store``) says so.

    Archiving (as ``score`` archives): once every output is written to its temporary file, each session
    scored from files is stored (``archive.archive_session``, under the event's name; incomplete until the
    outputs are in place), then the outputs are renamed, the versions completed and the event recorded
    with its sessions in order (``archive.events.archive_event``; an ``archive:ID`` session as it is).
    The answer is kept as ``archived`` (:class:`EventArchived`).
    """
    outputs = list(outputs)
    options = event.options
    archive = options.archive.store if archive is None else archive
    check_outputs(outputs, EVENT_OUTPUTS, [*options.read.names, archive_file(options.archive.url) if archive else None])
    stored: list = []
    identities = _archive_identities(event) if archive else []
    name = str(event.meta.get("event") or "Event")

    def store() -> list[dict] | None:
        if not archive:
            return None
        from bridgeproc.archive import archive_session  # start-up: SQLAlchemy only for a run that archives

        for session, identity in zip(event.sessions, identities):
            stored.append(None if identity is None else archive_session(
                session, options.archive.url, event=name, date=identity[1], session_id=identity[0],
                replace=options.archive.replace, complete=not outputs))
        ids = [label[len(ARCHIVED):] if identity is None else identity[0]
               for label, identity in zip(event.labels, identities)]
        return completing(options.archive.url, stored, {"name": name, "ids": ids, "rule": _rule_text(event.ranking)})

    def complete() -> None:
        if not archive:
            return
        from bridgeproc.archive import complete_version
        from bridgeproc.archive.events import archive_event

        try:
            done = [None if s is None else complete_version(options.archive.url, s) for s in stored]
            ids = [label[len(ARCHIVED):] if identity is None else identity[0]
                   for label, identity in zip(event.labels, identities)]
            event_id = archive_event(options.archive.url, name, ids, _rule_text(event.ranking))
        except BridgeprocError as exc:
            written = f"wrote {', '.join(map(str, outputs))}, but" if outputs else "but"
            raise BridgeprocError(f"{written} the event could not be archived: {exc}; run the same command "
                                  "again to archive it") from None
        stored[:] = [EventArchived(name, event_id, tuple(ids), tuple(done))]

    publish(event, outputs, store, complete)
    return dataclasses.replace(event, archived=stored[0]) if stored else event


def process_event(sessions: Sequence, outputs: Sequence = (), options: Options = Options(), rule: str = "sum",
                  missing: str = "drop", match: str = "number", carry_over: float = 0.5,
                  progress: Callable[[int, int], None] | None = None,
                  stages: Callable[[str, float], None] | None = None) -> Event:
    """``bridgeproc event`` as one call: the outputs refused before any work when they cannot be right
    (an unknown type, one given twice, one that is an input or the archive), :func:`build_event`, then
    :func:`write_event` (which archives as ``options.archive.store`` says)."""
    files = [input_file(f) for s in sessions for f in session_files(s) if not f.startswith(ARCHIVED)]
    check_outputs(list(outputs), EVENT_OUTPUTS, [*files, *options.read.names, archive_file(options.archive.url) if options.archive.store else None])
    event = build_event(sessions, options, rule=rule, missing=missing, match=match, carry_over=carry_over,
                        progress=progress, stages=stages)
    return write_event(event, outputs)


__all__ = ["ARCHIVED", "EVENT_OUTPUTS", "Event", "EventArchived", "build_event", "expand_sessions", "process_event",
           "session_files", "write_event"]
