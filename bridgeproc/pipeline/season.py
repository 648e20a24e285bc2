"""The season from the archive as one call each: the ladder ranked, the archive rescored under other
conventions, each published (``pipeline.publish``)."""
from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from bridgeproc.model import Ladder, Ratings, Rescored
from bridgeproc.pipeline.outputs import output_types
from bridgeproc.pipeline.publish import check_outputs, publish
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
