"""The writing half of a run: output files refused before any work when they cannot be right, the
writer of each output type, then every output and the archive written all together or not at all."""
from __future__ import annotations

import dataclasses
import importlib
import os
import time
from pathlib import Path
from typing import Callable, Iterable, Sequence

from bridgeproc.errors import BridgeprocError, UsageError
from bridgeproc.io.atomic import Staged, stage
from bridgeproc.model import Options, Session
from bridgeproc.pipeline.read import check_input_files, file_identity, suffix
from bridgeproc.pipeline.run import build_session


def check_outputs(outputs: Iterable, suffixes: Iterable[str], reads: Iterable = ()) -> None:
    """Refuse an output of an unknown type, one given twice or inside another output, one whose
    folder is a file, and one that is a file this run reads (an input, a names list, a target
    table, the archive): writing it would destroy what the director gave. Each is a mistake in
    the call (:class:`UsageError`), found before any work."""
    outputs = [Path(o) for o in outputs]
    suffixes = list(suffixes)
    reads = [Path(r) for r in reads if r is not None]
    read_paths = {r.resolve() for r in reads}
    read_files = {key for key in map(file_identity, reads) if key is not None}
    for out in outputs:
        if out.suffix.lower() not in suffixes:
            raise UsageError(f"{out}: unknown output type; use one of {', '.join(suffixes)}")
        if out.resolve() in read_paths or file_identity(out) in read_files - {None}:
            raise UsageError(f"{out}: this run reads that file; write the output to another file")
        parent = next((p for p in [out.parent, *out.parent.parents] if p.exists()), None)
        if parent is not None and not parent.is_dir():
            raise UsageError(f"{out}: cannot write there, {parent} is a file, not a folder")
    resolved = [o.resolve() for o in outputs]
    if len(set(resolved)) < len(resolved):
        raise UsageError("the same output file is given twice")
    for path in resolved:
        if any(path in other.parents for other in resolved):
            raise UsageError(f"{path.name}: another output is inside it; give files in a folder")


def _cannot_write(exc: OSError, output: object) -> str:
    """Why ``output`` could not be written, named as the user gave it (never the temporary file)."""
    reason = exc.strerror or str(exc)
    folder = getattr(exc, "folder", None)
    where = f" (the folder {folder} cannot be {'written' if Path(folder).exists() else 'made'})" if folder else ""
    return f"cannot write {output}: {reason}{where}"


def write_all(outputs: Iterable, write: Callable[[Path, Path], None], then: Callable[[], None] | None = None,
              after: Callable[[], None] | None = None) -> None:
    """Write every output to a temporary file beside it (``write(output, temporary)``), run
    ``then`` (e.g. archiving), and only then rename them all, then run ``after`` (e.g. marking
    the archived version complete): a failure before the renames leaves no output written.
    An error names the output as given, not its temporary file."""
    staged: list[Staged] = []
    current: object = None
    try:
        for out in outputs:
            current = out
            staged.append(stage(out))
            write(Path(out), staged[-1].temporary)
        current = None
        if then is not None:
            then()
    except BaseException as exc:
        for item in staged:
            item.discard()
        if isinstance(exc, OSError):
            named = exc.filename if current is None else current
            raise BridgeprocError(f"{_cannot_write(exc, named or 'an output')}; nothing was written") from None
        raise
    published: list[Path] = []
    for item in staged:
        try:
            item.publish()
        except OSError as exc:
            for rest in staged[len(published) + 1:]:
                rest.discard()
            done = (f"only {', '.join(map(str, published))} {'was' if len(published) == 1 else 'were'} written"
                    if published else "nothing was written")
            raise BridgeprocError(f"{_cannot_write(exc, item.target)}; {done}") from None
        published.append(item.target)
    if after is not None:
        after()


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
    or nothing is written. Returns the session with ``archived`` set when it was archived.

    The archive cannot share a transaction with the files, so the version is stored marked
    incomplete before the outputs are renamed into place, and marked complete after: a run
    killed in between leaves an incomplete version (``archive list`` says so, it is never the
    session's latest), which the next run of the same data completes and any other replaces.
    """
    options = session.options
    check_outputs(outputs, WRITERS, [*options.names, _archive_file(options)])
    archived: list = []
    renamed: list[bool] = []  # set once every output is in place

    def archive() -> None:
        if options.archive and len(session.results):  # hand records alone are not a session to keep
            from bridgeproc.archive import archive_session

            archived.append(archive_session(session, options.archive_url, replace=options.replace,
                                            complete=not outputs, **options.archive_as))

    def complete() -> None:
        renamed.append(True)
        if archived and not archived[0].complete:
            from bridgeproc.archive import complete_version

            try:
                archived[0] = complete_version(options.archive_url, archived[0])
            except BridgeprocError as exc:
                raise BridgeprocError(f"wrote {', '.join(map(str, outputs))}, but the archive could not mark "
                                      f"{archived[0].session_id} version {archived[0].version} complete: {exc}; "
                                      "run the same command again to complete it") from None

    try:
        write_all(outputs, lambda out, tmp: writer(out)(session, tmp), archive, complete)
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
    check_input_files(inputs, options.names)
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
