"""The season from the archive as one call each: the ladder ranked, the ratings, the archive rescored under
other conventions, the club's website, each published (``pipeline.publish``)."""
from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bridgeproc.errors import UsageError
from bridgeproc.model import ClubSite, Ladder, Profile, Ratings, Rescored
from bridgeproc.pipeline.outputs import FOLDER, output_type, output_types
from bridgeproc.pipeline.publish import FOLDER_MARKER, check_outputs, publish
from bridgeproc.rank.conventions import Conventions


def process_ladder(url: str | os.PathLike | None, outputs: Sequence = (), **query) -> Ladder:
    """``bridgeproc archive ladder`` as one call: the outputs refused before any work when they cannot be
    right, the ladder of the archive at ``url`` (``query`` as :func:`bridgeproc.archive.ladder` takes it),
    then every output (``.csv``, ``.xlsx``) written, all or nothing."""
    from bridgeproc.archive import ladder  # start-up: SQLAlchemy only for a run that reads the archive

    check_outputs(outputs, output_types(Ladder), [url] if url and "://" not in str(url) else [])
    ranked = ladder(url, **query)
    publish(ranked, outputs)
    return ranked


def process_ratings(url: str | os.PathLike | None, outputs: Sequence = (), **query) -> Ratings:
    """``bridgeproc archive ratings`` as one call: the outputs refused before any work when they cannot be
    right, the ratings of the archive at ``url`` (``query`` as :func:`bridgeproc.archive.ratings.ratings`
    takes it), then every output (``.csv``) written, all or nothing."""
    from bridgeproc.archive.ratings import ratings  # start-up: SQLAlchemy only for a run that reads the archive

    check_outputs(outputs, output_types(Ratings), [url] if url and "://" not in str(url) else [])
    rated = ratings(url, **query)
    publish(rated, outputs)
    return rated


def process_profile(url: str | os.PathLike | None, outputs: Sequence = (), **query) -> Profile:
    """``bridgeproc archive profile`` as one call: the outputs refused before any work when they cannot be
    right, the players of the archive at ``url`` against double dummy (``query`` as
    :func:`bridgeproc.archive.profile.profile` takes it), then every output (``.csv``) written, all or nothing."""
    from bridgeproc.archive.profile import profile  # start-up: SQLAlchemy only for a run that reads the archive

    check_outputs(outputs, output_types(Profile), [url] if url and "://" not in str(url) else [])
    measured = profile(url, **query)
    publish(measured, outputs)
    return measured


def process_rescore(url: str | os.PathLike | None, conventions: Conventions, sessions: Iterable[str] | None = None,
                    outputs: Sequence = ()) -> Rescored:
    """``bridgeproc archive rescore`` as one call: the outputs refused before any work when they cannot be
    right, every archived pairs session (or ``sessions``) scored again under ``conventions`` (nothing in
    the archive changes), then every output (``.csv``) written, all or nothing."""
    from bridgeproc.archive import rescore_archive  # start-up: SQLAlchemy only for a run that reads the archive

    check_outputs(outputs, output_types(Rescored), [url] if url and "://" not in str(url) else [])
    rescored = rescore_archive(url, conventions, sessions=list(sessions) if sessions else None)
    publish(rescored, outputs)
    return rescored


@dataclass(frozen=True)
class SiteWritten:
    """What ``archive site`` did to the folder: the pages (every file) ``rewritten`` (new or changed, by
    name), how many were ``kept`` as they were, and ``removed`` (no longer part of the site)."""

    club: ClubSite
    rewritten: tuple[str, ...]
    kept: int
    removed: tuple[str, ...]


def process_club_site(url: str | os.PathLike | None, outputs: Sequence, **query) -> SiteWritten:
    """``bridgeproc archive site`` as one call: one folder output, refused before any work when it cannot
    be right; the club's site of the archive at ``url`` (``query`` as :func:`bridgeproc.archive.club.club_site`
    takes it) written over the one the folder holds, keeping what has not changed; then what changed, counted
    file by file."""
    from bridgeproc.archive.club import club_site  # start-up: SQLAlchemy only for a run that reads the archive
    from bridgeproc.report.web.club_site import MANIFEST, read_manifest, read_solved

    if len(outputs) != 1 or output_type(outputs[0]) != FOLDER:
        raise UsageError("give the site's folder once, ending in a slash: -o site/")
    check_outputs(outputs, output_types(ClubSite), [url] if url and "://" not in str(url) else [])
    target = Path(outputs[0])
    previous = (target / MANIFEST).is_file()
    before = _digests(target) if previous else {}
    club = club_site(url, previous=str(target) if previous else None,
                     previous_stamps=read_manifest(target) if previous else {},
                     solved=read_solved(target) if previous else None, **query)
    publish(club, outputs)
    after = _digests(target)
    rewritten = tuple(sorted(name for name, digest in after.items() if before.get(name) != digest))
    return SiteWritten(club, rewritten, len(after) - len(rewritten), tuple(sorted(set(before) - set(after))))


def _digests(folder: Path) -> dict[str, str]:
    """Every file of ``folder`` (but the publisher's marker) -> the SHA-256 of its bytes."""
    return {path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file() and path.name != FOLDER_MARKER}
