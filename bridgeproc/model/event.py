"""What an event run produces: the ``Event`` (its sessions and the event ranking) and, once archived,
``EventArchived`` (frozen, no I/O)."""
from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from bridgeproc.model.archived import ArchiveResult
from bridgeproc.model.options import Options
from bridgeproc.model.session import Session
from bridgeproc.rank.event import EventRanking


@dataclass(frozen=True)
class Event:
    """Everything an event run produced: each ``Session`` as ``build_session`` made it (in playing
    order, ``labels`` naming each: its files or ``archive:ID``), the event ``ranking``, the event's
    headings ``meta`` (event, date, site) and every session's notes with the event's (``notes``)."""

    sessions: tuple[Session, ...]
    labels: tuple[str, ...]
    ranking: EventRanking
    meta: dict
    notes: pd.DataFrame | None = None
    options: Options = field(default_factory=Options)
    #: What the archive said (:class:`EventArchived`), once the event is archived (``pipeline.event.write_event``).
    archived: "EventArchived | None" = None


@dataclass(frozen=True)
class EventArchived:
    """What archiving an event did: its ``name`` and ``event_id``, the ``session_ids`` recorded in order,
    and each session's ``archive_session`` answer (None for an ``archive:ID`` session, recorded as it is)."""

    name: str
    event_id: int
    session_ids: tuple[str, ...]
    sessions: tuple[ArchiveResult | None, ...]

    def __str__(self) -> str:
        lines = [str(s) for s in self.sessions if s is not None]
        lines.append(f"event {self.name!r} archived with its {len(self.session_ids)} sessions: "
                     f"{', '.join(self.session_ids)}")
        return "\n".join(lines)
