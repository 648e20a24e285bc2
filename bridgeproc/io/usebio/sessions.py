"""USEBIO files of several sessions, read session by session (USEBIO 1.2: several ``SESSION`` in one ``EVENT``).

bridgeproc's event writer (``report.event_usebio``) and other programs write an event as one ``EVENT``
holding the event's standings (``EVENT/PARTICIPANTS``, or ``EVENT/SECTION/PARTICIPANTS``) and a
``SESSION`` per session with that session's ``PARTICIPANTS`` and ``BOARD`` elements. A session is read
from the file as if it held only that ``SESSION`` (the event's head, the shared ``HANDSET`` hand
records limited to the session's boards, its own participants; the event's names when it has none),
so each keeps its own boards, results and names, and its problems carry the file and line.

A session is named ``FILE.xml#N`` (1-based, in file order). A file of one session (or with no
``SESSION`` element) is read whole, as ``parse_usebio`` reads it.
"""
from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass

import pandas as pd

from bridgeproc.errors import ParseError, ValidationError
from bridgeproc.io.text import read_source
from bridgeproc.io.usebio.marks import SESSION_MARK, split_session
from bridgeproc.io.usebio.reader import UsebioFile, usebio_from_tree
from bridgeproc.io.usebio.travellers import line_like
from bridgeproc.io.usebio.xml_tree import Node, parse_tree
from bridgeproc.schema import problems_frame

__all__ = ["SESSION_MARK", "UsebioSessions", "parse_usebio_sessions", "read_event_standings", "read_usebio_session",
           "session_count", "split_session"]

#: Elements of an ``EVENT`` outside its sessions that belong to the event, not to a session.
_EVENT_PARTS = frozenset({"SESSION", "PARTICIPANTS", "SECTION", "MATCH"})


@dataclass
class UsebioSessions:
    """A USEBIO file read session by session.

    sessions  each ``SESSION``'s reading (:class:`UsebioFile`), in file order
    lines     each ``SESSION`` element's line
    totals    the event's published standings (``EVENT``-level ``PARTICIPANTS``, the frame of
              ``UsebioFile.totals``), or None when the file has none
    """

    sessions: list[UsebioFile]
    lines: list[int]
    totals: pd.DataFrame | None
    source: str


def _session_nodes(root: Node) -> list[Node]:
    """The ``SESSION`` elements of every ``EVENT``, in file order."""
    return [child for event in root.findall("EVENT") for child in event.children if child.tag == "SESSION"]


def session_count(path: str | os.PathLike) -> int:
    """How many ``SESSION`` elements the USEBIO file's events hold (0 when it has none)."""
    data, source = read_source(path)
    return len(_session_nodes(parse_tree(data, source, [])))


def read_event_standings(path: str | os.PathLike) -> pd.DataFrame | None:
    """The event's published standings of a USEBIO file of several sessions (``EVENT``-level
    ``PARTICIPANTS``, as ``UsebioFile.totals``); None for a file of one session or without them."""
    data, source = read_source(split_session(path)[0])
    root = parse_tree(data, source, [])
    if len(_session_nodes(root)) < 2:
        return None
    event = _event_part(root, source)
    return event.totals if event is not None and len(event.totals) else None


def _outside_lines(root: Node, source: str, count: int) -> list[dict]:
    """A problem per result line of an event of several sessions that is in no ``SESSION``: its session is unknown."""
    rows = []
    for event in root.findall("EVENT"):
        for child in event.children:
            if child.tag == "SESSION":
                continue
            stack = [child]
            while stack:
                node = stack.pop()
                if node.tag == "TRAVELLER_LINE" or line_like(node):
                    rows.append({"source": source, "line": str(node.line), "column": "session", "value": node.tag,
                                 "message": f"<{node.tag}> is in none of the file's {count} <SESSION> elements: "
                                            "its session is unknown; move it into its <SESSION>, or export the "
                                            "file again"})
                    continue
                stack.extend(node.children)
    return rows


def _pruned(root: Node, keep: Node | None) -> Node:
    """The file as if it held only the session ``keep`` (the event's head and hands-only boards with it), or
    with ``keep`` None only the event's own standings and head, no session."""
    children = []
    for child in root.children:
        if child.tag == "EVENT":
            inner = [c for c in child.children if c is keep or (
                c.tag not in _EVENT_PARTS if keep is not None else c.tag != "SESSION")]
            child = dataclasses.replace(child, children=inner)
        children.append(child)
    return dataclasses.replace(root, children=children)


def _has_participants(root: Node) -> bool:
    """Whether some ``PARTICIPANTS`` block of the tree holds a ``PAIR`` or ``TEAM``."""
    return any(True for block in root.iter("PARTICIPANTS") for tag in ("PAIR", "TEAM") for _ in block.iter(tag))


def _event_part(root: Node, source: str) -> UsebioFile | None:
    """The event's own standings and names (``EVENT``-level ``PARTICIPANTS``), or None when it has none."""
    event = _pruned(root, None)
    return usebio_from_tree(event, source, []) if _has_participants(event) else None


def _session(root: Node, node: Node, number: int, count: int, source: str, notes: list[dict],
             event: UsebioFile | None) -> UsebioFile:
    """Session ``number`` of ``count``: read from the file pruned to it; the ``HANDSET`` boards it did not play
    left out; the event's names when the session names no one."""
    read = usebio_from_tree(_pruned(root, node), source, list(notes))
    if not len(read.results):
        raise ParseError(source, node.line, f"<SESSION> {number} of {count} has no <BOARD> results: the session "
                         "holds nothing to score; export it with its travellers, or leave it out (name the others "
                         f"as {source}#N)")
    played = pd.to_numeric(read.results["board"], errors="coerce").dropna().astype("int64").unique()
    boards = read.boards[read.boards["board"].isin(played)].reset_index(drop=True)
    names = read.names if len(read.names) or event is None else event.names
    return dataclasses.replace(read, boards=boards, names=names)


def parse_usebio_sessions(data: bytes | str, source: str = "<string>") -> UsebioSessions:
    """Every session of a USEBIO file (see the module); a file of one session, or none, is one reading.

    Raises ParseError as ``parse_usebio`` does, and for a session with no result lines (its line);
    ValidationError for result lines outside every session of a file of several.
    """
    notes: list[dict] = []
    root = parse_tree(data, source, notes)
    nodes = _session_nodes(root)
    if len(nodes) < 2:
        whole = usebio_from_tree(root, source, notes)
        return UsebioSessions([whole], [n.line for n in nodes], None, source)
    outside = _outside_lines(root, source, len(nodes))
    if outside:
        raise ValidationError(problems_frame(outside))
    event = _event_part(root, source)
    sessions = [_session(root, node, number, len(nodes), source, notes, event)
                for number, node in enumerate(nodes, start=1)]
    return UsebioSessions(sessions, [n.line for n in nodes], None if event is None else event.totals, source)


def _number(text: str, source: str, count: int) -> int:
    """The session number of ``FILE.xml#N`` checked against the ``count`` sessions the file holds."""
    named = f"{source}#{text}"
    choices = " or ".join(f"{source}#{n}" for n in range(1, max(count, 1) + 1)) if count <= 4 else \
        f"{source}#1 ... {source}#{count}"
    holds = f"{source} holds {max(count, 1)} session{'s' if count > 1 else ''}"
    if not re.fullmatch(r"\d+", text):
        raise ParseError(named, None, f"after # comes a session number; {holds}: give {choices}")
    number = int(text)
    if number < 1:
        raise ParseError(named, None, f"sessions are numbered from 1; {holds}: give {choices}")
    if number > max(count, 1):
        raise ParseError(named, None, f"there is no session {number}; {holds}: give {choices}")
    return number


def read_usebio_session(path: str | os.PathLike) -> UsebioFile:
    """The session a path names: ``FILE.xml#N`` session N of the file; ``FILE.xml`` the file whole, when it
    holds one session (or none).

    Raises ParseError for a file of several sessions named without ``#N`` (use ``bridgeproc event`` on it,
    or name one session), for ``#N`` that names no session of the file, and as :func:`parse_usebio_sessions`.
    """
    file, text = split_session(path)
    data, source = read_source(file)
    notes: list[dict] = []
    root = parse_tree(data, source, notes)
    nodes = _session_nodes(root)
    if text is None and len(nodes) > 1:
        raise ParseError(source, nodes[1].line, f"the file holds {len(nodes)} sessions (<SESSION> on lines "
                         f"{', '.join(str(n.line) for n in nodes)}) and one session is scored at a time: give "
                         f"`bridgeproc event {source}` to rank the event over its sessions, or {source}#N "
                         f"(e.g. `bridgeproc event {source}#{len(nodes)}`) for one session")
    number = None if text is None else _number(text, source, len(nodes))
    if number is None or len(nodes) < 2:
        return usebio_from_tree(root, source, notes)
    outside = _outside_lines(root, source, len(nodes))
    if outside:
        raise ValidationError(problems_frame(outside))
    return _session(root, nodes[number - 1], number, len(nodes), source, notes, _event_part(root, source))
