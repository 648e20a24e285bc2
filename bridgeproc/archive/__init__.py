"""The archive: every scored session kept in SQLite or PostgreSQL, corrections as versions.

Library functions behind ``bridgeproc score`` (archiving) and ``bridgeproc archive
list|show|export|history|diff``; the schema is documented in docs/archive.md.

>>> from bridgeproc.archive import archive_session, load_session
>>> result = archive_session(session)                       # doctest: +SKIP
>>> again = load_session(None, result.session_id)           # doctest: +SKIP
"""
from __future__ import annotations

from bridgeproc.archive.db import ENV_VAR, ArchiveError, archive_exists, default_url, engine_for, normalise_url
from bridgeproc.archive.diff import Diff, diff
from bridgeproc.archive.losses import ArchiveLossError
from bridgeproc.archive.players import split_names
from bridgeproc.archive.query import (
    SessionView,
    check_archive,
    history,
    list_sessions,
    session_versions,
    show_session,
)
from bridgeproc.archive.store import ArchiveResult, archive_session, complete_version, load_session, session_identity

__all__ = [
    "ArchiveError", "ArchiveLossError", "ArchiveResult", "Diff", "ENV_VAR", "SessionView", "archive_exists", "archive_session",
    "check_archive", "complete_version", "default_url", "diff", "engine_for", "history", "list_sessions",
    "load_session", "normalise_url", "session_identity", "session_versions", "show_session", "split_names",
]
