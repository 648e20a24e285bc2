"""Every result and options type of a run, in one home (frozen dataclasses, no I/O): what the
pipeline builds, the writers and the archive take, and library users get.

``options``   ``Options``: the switches of one run that are not ranking conventions
``session``   ``Session``: a pairs session scored and ranked
``teams``     ``TeamsSession``: a teams event scored and ranked
``event``     ``Event``: sessions combined into an event ranking; ``EventArchived``
"""
from __future__ import annotations

from bridgeproc.model.event import Event, EventArchived
from bridgeproc.model.options import Options
from bridgeproc.model.session import Session, describe_conventions
from bridgeproc.model.teams import TeamsSession

__all__ = ["Event", "EventArchived", "Options", "Session", "TeamsSession", "describe_conventions"]
