"""The writing half of a run: output files refused before any work when they cannot be right, the
writer of each output type, then every output and the archive written all together or not at all."""
from __future__ import annotations

import dataclasses
import importlib
import os
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Callable, Iterable, Sequence

from bridgeproc.errors import BridgeprocError
from bridgeproc.io.atomic import atomic_path
from bridgeproc.model import Options, Session
from bridgeproc.pipeline.read import suffix
from bridgeproc.pipeline.run import build_session


def check_outputs(outputs: Iterable, suffixes: Iterable[str], reads: Iterable = ()) -> None:
    """Refuse an output of an unknown type, one given twice or inside another output, one whose
    folder is a file, and one that is a file this run reads (an input, a names list, a target
    table, the archive): writing it would destroy what the director gave."""
    outputs = [Path(o) for o in outputs]
    suffixes = list(suffixes)
    reads = [Path(r) for r in reads if r is not None]
    read_paths = {r.resolve() for r in reads}
    for out in outputs:
        if out.suffix.lower() not in suffixes:
            raise BridgeprocError(f"{out}: unknown output type; use one of {', '.join(suffixes)}")
        same = out.resolve() in read_paths or (
            out.exists() and any(r.exists() and os.path.samefile(out, r) for r in reads))
        if same:
            raise BridgeprocError(f"{out}: this run reads that file; write the output to another file")
        parent = next((p for p in [out.parent, *out.parent.parents] if p.exists()), None)
        if parent is not None and not parent.is_dir():
            raise BridgeprocError(f"{out}: cannot write there, {parent} is a file, not a folder")
    resolved = [o.resolve() for o in outputs]
    if len(set(resolved)) < len(resolved):
        raise BridgeprocError("the same output file is given twice")
    for path in resolved:
        if any(path in other.parents for other in resolved):
            raise BridgeprocError(f"{path.name}: another output is inside it; give files in a folder")


def write_all(outputs: Iterable, write: Callable[[Path, Path], None], then: Callable[[], None] | None = None) -> None:
    """Write every output to a temporary file (``write(output, temporary)``), run ``then`` (e.g.
    archiving), and only then rename them all: a failure anywhere leaves no output written."""
    try:
        with ExitStack() as stack:
            for out in outputs:
                write(Path(out), stack.enter_context(atomic_path(out)))
            if then is not None:
                then()
    except OSError as exc:
        raise BridgeprocError(f"cannot write {exc.filename or 'an output'}: {exc.strerror or exc}; "
                              "nothing was written") from None


#: Output type -> the writer in ``report`` (``module:function``, taking a Session and a path). They
#: are imported when used, so a run that writes only CSV, or does not archive, starts without
#: openpyxl or SQLAlchemy; tests/test_architecture.py checks every entry resolves into ``report``.
WRITERS: dict[str, str] = {
    ".csv": "bridgeproc.report.scored_csv:write_session_csv",
    ".xlsx": "bridgeproc.report.workbook:write_workbook",
    ".pbn": "bridgeproc.report.pbn:write_scored_pbn",
    ".xml": "bridgeproc.report.usebio:write_usebio",
}


def writer(output: str | os.PathLike) -> Callable[[Session, Path], None]:
    """The writer of ``output``'s type (see :data:`WRITERS`)."""
    module, name = WRITERS[suffix(output)].split(":")
    return getattr(importlib.import_module(module), name)


def _archive_file(options: Options) -> str | None:
    """The SQLite file the run will archive into, so that no output can overwrite it."""
    if not options.archive:
        return None
    from bridgeproc.archive import default_url  # start-up: SQLAlchemy only for a run that archives

    url = str(options.archive_url or default_url())
    if "://" not in url:
        return url
    return url.split(":///", 1)[1] if url.startswith("sqlite:///") else None


def write_outputs(session: Session, outputs: list) -> Session:
    """Write every output of ``session`` and archive it (as its options say): all succeed together
    or nothing is written. Returns the session with ``archived`` set when it was archived."""
    options = session.options
    check_outputs(outputs, WRITERS, [*options.names, _archive_file(options)])
    archived: list = []

    def archive() -> None:
        if options.archive and len(session.results):  # hand records alone are not a session to keep
            from bridgeproc.archive import archive_session

            archived.append(archive_session(session, options.archive_url, replace=options.replace,
                                            **options.archive_as))

    write_all(outputs, lambda out, tmp: writer(out)(session, tmp), archive)
    return dataclasses.replace(session, archived=archived[0]) if archived else session


def process_session(inputs: Sequence, outputs: Sequence = (), options: Options = Options(),
                    progress: Callable[[int, int], None] | None = None,
                    stages: Callable[[str, float], None] | None = None) -> Session:
    """``bridgeproc score`` as one call: :func:`build_session` then :func:`write_outputs`.

    Outputs are refused before any work when they cannot be right (an unknown type, a file
    this run reads); nothing is written unless every input is clean (ValidationError lists
    all problems), and every output and the archive are written all together or not at all.
    """
    check_outputs(outputs, WRITERS, [*inputs, *options.names, _archive_file(options)])
    session = build_session(list(inputs), options, progress, stages)
    start = time.perf_counter()
    session = write_outputs(session, list(outputs))
    if stages is not None:
        stages("written" + (" and archived" if options.archive else ""), time.perf_counter() - start)
    return session


def export_session(url: str | os.PathLike | None, session_id: str, outputs: list, version: int | None = None):
    """Write an archived session to ``outputs`` (by extension, as ``bridgeproc score -o``); returns the Session."""
    from bridgeproc.archive import load_session

    check_outputs(outputs, WRITERS)
    session = load_session(url, session_id, version)
    write_all(outputs, lambda out, tmp: writer(out)(session, tmp))
    return session
