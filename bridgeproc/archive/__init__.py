"""The archive: every scored session kept in SQLite or PostgreSQL, corrections as versions.

Library functions behind ``bridgeproc score`` (archiving) and ``bridgeproc archive
list|show|export|history|diff|check|ladder``, teams sessions (``archive_teams``), events of several
sessions (``archive_event``), the season's ladder (``ladder``) and the archive re-scored under other
conventions (``rescore_archive``); the schema is documented in docs/archive.md.

>>> from bridgeproc.archive import archive_session, load_session
>>> result = archive_session(session)                       # doctest: +SKIP
>>> again = load_session(None, result.session_id)           # doctest: +SKIP
"""
from typing import TYPE_CHECKING

from bridgeproc._lazy import lazy_names

# Named like their modules: imported here at once, so that the name is the function, never the module
# (a submodule imported later would otherwise stand where a lazy name was to load).
from bridgeproc.archive.diff import Diff, diff
from bridgeproc.archive.history import history
from bridgeproc.archive.ladder import ladder

if TYPE_CHECKING:  # the names, for type checkers; each loads on first use (bridgeproc._lazy): a run that
    # archives loads what storing a session needs, not the season's queries
    from bridgeproc.archive.db import ENV_VAR, ArchiveError, archive_exists, default_url, engine_for, normalise_url
    from bridgeproc.archive.events import archive_event, event_sessions
    from bridgeproc.archive.load import load_session
    from bridgeproc.archive.losses import ArchiveLossError
    from bridgeproc.archive.players import split_names
    from bridgeproc.archive.query import SessionView, check_archive, list_sessions, session_versions, show_session
    from bridgeproc.archive.rescore import rescore_archive
    from bridgeproc.archive.store import archive_session, complete_version, session_identity
    from bridgeproc.archive.teams import archive_teams, load_teams
    from bridgeproc.model import ArchiveResult

_HOMES = {
    "ArchiveError": "bridgeproc.archive.db",
    "ArchiveLossError": "bridgeproc.archive.losses",
    "ArchiveResult": "bridgeproc.model",
    "ENV_VAR": "bridgeproc.archive.db",
    "SessionView": "bridgeproc.archive.query",
    "archive_event": "bridgeproc.archive.events",
    "archive_exists": "bridgeproc.archive.db",
    "archive_session": "bridgeproc.archive.store",
    "archive_teams": "bridgeproc.archive.teams",
    "check_archive": "bridgeproc.archive.query",
    "complete_version": "bridgeproc.archive.store",
    "default_url": "bridgeproc.archive.db",
    "engine_for": "bridgeproc.archive.db",
    "event_sessions": "bridgeproc.archive.events",
    "list_sessions": "bridgeproc.archive.query",
    "load_session": "bridgeproc.archive.load",
    "load_teams": "bridgeproc.archive.teams",
    "normalise_url": "bridgeproc.archive.db",
    "rescore_archive": "bridgeproc.archive.rescore",
    "session_identity": "bridgeproc.archive.store",
    "session_versions": "bridgeproc.archive.query",
    "show_session": "bridgeproc.archive.query",
    "split_names": "bridgeproc.archive.players",
}
__getattr__ = lazy_names(__name__, _HOMES)

__all__ = [
    "ArchiveError", "ArchiveLossError", "ArchiveResult", "Diff", "ENV_VAR", "SessionView", "archive_event",
    "archive_exists", "archive_session", "archive_teams", "check_archive", "complete_version", "default_url", "diff",
    "engine_for", "event_sessions", "history", "ladder", "list_sessions", "load_session", "load_teams",
    "normalise_url", "rescore_archive", "session_identity", "session_versions", "show_session", "split_names",
]
