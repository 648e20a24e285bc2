"""The writing half of a pairs run: every output of a ``Session`` and its archive, all together or not at
all (through :mod:`bridgeproc.pipeline.publish`, the one output table and its staging)."""
from __future__ import annotations

import dataclasses
import os
import time
from typing import Callable, Sequence

from bridgeproc.errors import BridgeprocError
from bridgeproc.model import Options, Session
from bridgeproc.pipeline.publish import (  # noqa: F401  (the staging names, as library users know them)
    FOLDER,
    FOLDER_MARKER,
    OUTPUTS,
    archive_file,
    check_outputs,
    completing,
    output_type,
    publish,
    write_all,
    writer_of,
)
from bridgeproc.pipeline.read import check_input_files
from bridgeproc.pipeline.run import build_session

#: Output type -> the writer of a Session (``pipeline.publish.OUTPUTS``).
WRITERS: dict[str, str] = OUTPUTS["Session"]


def writer(output: str | os.PathLike) -> Callable[[Session, os.PathLike], None]:
    """The writer of ``output``'s type for a Session (see :data:`WRITERS`, :func:`output_type`)."""
    return writer_of(Session, output)


def write_outputs(session: Session, outputs: list) -> Session:
    """Write every output of ``session`` and archive it (as its options say): all succeed together
    or nothing is written. Returns the session with ``archived`` set when it was archived.

    The archive cannot share a transaction with the files, so the version is stored marked
    incomplete before the outputs are renamed into place, and marked complete after: a run
    killed in between leaves an incomplete version (``archive list`` says so, it is never the
    session's latest), which the next run of the same data completes and any other replaces.
    """
    options = session.options
    check_outputs(outputs, WRITERS, [*options.read.names, archive_file(options.archive.url) if options.archive.store else None])
    archived: list = []
    renamed: list[bool] = []  # set once every output is in place

    def archive() -> list[dict] | None:
        if options.archive.store and len(session.results):  # hand records alone are not a session to keep
            from bridgeproc.archive import archive_session

            archived.append(archive_session(session, options.archive.url, replace=options.archive.replace,
                                            complete=not outputs, **options.archive.identity))
            return completing(options.archive.url, archived)
        return None

    def complete() -> None:
        renamed.append(True)
        if archived and not archived[0].complete:
            from bridgeproc.archive import complete_version

            try:
                archived[0] = complete_version(options.archive.url, archived[0])
            except BridgeprocError as exc:
                raise BridgeprocError(f"wrote {', '.join(map(str, outputs))}, but the archive could not mark "
                                      f"{archived[0].session_id} version {archived[0].version} complete: {exc}; "
                                      "run the same command again to complete it") from None

    try:
        publish(session, outputs, archive, complete)
    except BridgeprocError as exc:
        if archived and not archived[0].complete and not renamed:
            raise BridgeprocError(f"{exc}; the archive keeps {archived[0].session_id} version "
                                  f"{archived[0].version} as incomplete: run the same command again to "
                                  "complete it") from None
        raise
    return dataclasses.replace(session, archived=archived[0]) if archived else session


def process_session(inputs: Sequence, outputs: Sequence = (), options: Options = Options(),
                    progress: Callable[[int, int], None] | None = None,
                    stages: Callable[[str, float], None] | None = None) -> Session:
    """``bridgeproc score`` as one call: :func:`build_session` then :func:`write_outputs`.

    Inputs and outputs are refused before any work when they cannot be right (UsageError: an
    unknown type, a file given twice, an output this run reads); nothing is written unless every input is clean (ValidationError lists
    all problems), and every output and the archive are written all together or not at all.
    """
    check_input_files(inputs, options.read.names)
    check_outputs(outputs, WRITERS, [*inputs, *options.read.names, options.check.corrections, options.check.movement,
                                     archive_file(options.archive.url) if options.archive.store else None])
    session = build_session(list(inputs), options, progress, stages)
    start = time.perf_counter()
    session = write_outputs(session, list(outputs))
    if stages is not None:
        stages("written" + (" and archived" if options.archive.store else ""), time.perf_counter() - start)
    return session


def export_session(url: str | os.PathLike | None, session_id: str, outputs: list, version: int | None = None):
    """Write an archived session to ``outputs`` (by extension, as ``bridgeproc score -o``); returns the Session."""
    from bridgeproc.archive import load_session

    check_outputs(outputs, WRITERS)
    session = load_session(url, session_id, version)
    publish(session, outputs)
    return session
