"""Every result and options type of a run, in one home (frozen dataclasses, no I/O): what the
pipeline builds, the writers and the archive take, and library users get.

``options``   ``Options``: what a run is given, one type per stage (``ReadOptions``, ``CheckOptions``,
              ``ConventionChoice``, ``ArchiveOptions``, ``Headings``)
``session``   ``Session``: a pairs session scored and ranked
``sheet``     ``ScoreSheet``: a rubber or Chicago score sheet
``sim``       ``SimResult``: a simultaneous event, the field and each club
``swiss``     ``SwissRun``: Swiss standings and the next draw
``teams``     ``TeamsSession``: a teams event scored and ranked
``archive``   ``ArchiveResult``: the version a run was archived as; ``Ladder``, ``History``, ``Rescored``, ``Ratings``,
              ``ClubSite`` (the club's website) of ``Evening``s,
              ``Profile`` (the players against double dummy)
``check``     ``CheckReport``: what a check of the inputs found
``event``     ``Event``: sessions combined into an event ranking; ``EventArchived``
``Movement``  a movement before play (computed by ``bridgeproc.movements``)
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bridgeproc._lazy import lazy_names

if TYPE_CHECKING:  # the names, for type checkers; each loads on first use (bridgeproc._lazy)
    from bridgeproc.model.archive import ClubSite, Evening, History, Ladder, Profile, Ratings, Rescored
    from bridgeproc.model.archived import ArchiveResult
    from bridgeproc.model.check import CheckReport
    from bridgeproc.model.event import Event, EventArchived
    from bridgeproc.model.options import ArchiveOptions, CheckOptions, ConventionChoice, Headings, Options, ReadOptions
    from bridgeproc.model.session import Session, describe_conventions
    from bridgeproc.model.sheet import ScoreSheet
    from bridgeproc.model.sim import SimResult
    from bridgeproc.model.swiss import SwissRun
    from bridgeproc.model.teams import TeamsSession
    from bridgeproc.movements.model import Movement

_HOMES = {
    "ArchiveResult": "bridgeproc.model.archived",
    "History": "bridgeproc.model.archive",
    "Ladder": "bridgeproc.model.archive",
    "Rescored": "bridgeproc.model.archive",
    "Ratings": "bridgeproc.model.archive",
    "ClubSite": "bridgeproc.model.archive",
    "Evening": "bridgeproc.model.archive",
    "Profile": "bridgeproc.model.archive",
    "CheckReport": "bridgeproc.model.check",
    "Event": "bridgeproc.model.event",
    "EventArchived": "bridgeproc.model.event",
    "Movement": "bridgeproc.movements.model",
    "ArchiveOptions": "bridgeproc.model.options",
    "CheckOptions": "bridgeproc.model.options",
    "ConventionChoice": "bridgeproc.model.options",
    "Headings": "bridgeproc.model.options",
    "Options": "bridgeproc.model.options",
    "ReadOptions": "bridgeproc.model.options",
    "Session": "bridgeproc.model.session",
    "describe_conventions": "bridgeproc.model.session",
    "ScoreSheet": "bridgeproc.model.sheet",
    "SimResult": "bridgeproc.model.sim",
    "SwissRun": "bridgeproc.model.swiss",
    "TeamsSession": "bridgeproc.model.teams",
}
__getattr__ = lazy_names(__name__, _HOMES)

__all__ = ["ArchiveOptions", "ArchiveResult", "CheckOptions", "CheckReport", "ClubSite", "Evening", "ConventionChoice", "Event", "EventArchived", "Headings", "History", "Ladder", "Movement", "Options", "Profile", "Ratings", "ReadOptions", "Rescored", "ScoreSheet", "Session", "SimResult", "SwissRun", "TeamsSession", "describe_conventions"]
