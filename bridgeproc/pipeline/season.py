"""The season from the archive as one call each: the ladder ranked and published (``pipeline.publish``)."""
from __future__ import annotations

import os
from collections.abc import Sequence

from bridgeproc.model import Ladder
from bridgeproc.pipeline.publish import check_outputs, output_types, publish


def process_ladder(url: str | os.PathLike | None, outputs: Sequence = (), **query) -> Ladder:
    """``bridgeproc archive ladder`` as one call: the outputs refused before any work when they cannot be
    right, the ladder of the archive at ``url`` (``query`` as :func:`bridgeproc.archive.ladder` takes it),
    then every output (``.csv``, ``.xlsx``) written, all or nothing."""
    from bridgeproc.archive import ladder  # start-up: SQLAlchemy only for a run that reads the archive

    check_outputs(outputs, output_types(Ladder), [url] if url and "://" not in str(url) else [])
    ranked = ladder(url, **query)
    publish(ranked, outputs)
    return ranked
