"""Publishing a run, the one way every kind of run ends: the writer of each output found in the one
output table (``pipeline.outputs.OUTPUTS``), every output refused before any work when it cannot be right
(:func:`check_outputs`), then each written to a temporary file or folder beside it, the archive step run,
and everything renamed into place together (:func:`publish`): all or nothing. Writers in ``report`` take
a result and a plain path; the staging is done here, once."""
from __future__ import annotations

import contextlib
import glob
import importlib
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from bridgeproc.errors import BridgeprocError, UsageError
from bridgeproc.io.atomic import TMP_SUFFIX, Move, Staged, process_alive, stage, user_umask
from bridgeproc.pipeline import journal
from bridgeproc.pipeline.outputs import FOLDER, OUTPUTS, output_type
from bridgeproc.pipeline.read import file_identity


def check_outputs(outputs: Iterable, suffixes: Iterable[str], reads: Iterable = ()) -> None:
    """Refuse an output of an unknown type, one given twice or inside another output, one whose
    folder is a file, and one that is a file this run reads (an input, a names list, a target
    table, the archive): writing it would destroy what the director gave. Each is a mistake in
    the call (:class:`UsageError`), found before any work. A folder output (:data:`FOLDER` among
    ``suffixes``) is refused too when it holds a file this run reads, holds the current folder, is a
    file, or holds files bridgeproc did not write and no marker of bridgeproc's (a folder it wrote is
    rewritten, the files the club added to it kept)."""
    given = list(outputs)
    kinds = [output_type(o) for o in given]
    outputs = [Path(o) for o in given]
    suffixes = list(suffixes)
    reads = [Path(r) for r in reads if r is not None]
    read_paths = {r.resolve() for r in reads}
    read_files = {key for key in map(file_identity, reads) if key is not None}
    for out, kind in zip(outputs, kinds):
        if kind not in suffixes:
            named = [f"a folder ({out.name or 'results'}/)" if s == FOLDER else s for s in suffixes]
            raise UsageError(f"{out}: unknown output type; use one of {', '.join(named)}")
        if kind == FOLDER:
            _check_folder(out, reads)
        elif out.is_dir():  # a mistake in the call, found before any work (exit 2, as the README says)
            raise UsageError(f"{out}: is a folder; give a file name for the {kind} output")
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


#: The file that marks a folder as written by bridgeproc: only such a folder (or an empty one) is replaced.
#: It lists the files bridgeproc wrote; the next run replaces those and keeps every other file.
FOLDER_MARKER = ".bridgeproc-results"
#: What marked a simultaneous event's folder before it was published like every other run's: all of it is
#: bridgeproc's.
SIM_MARKER = ".bridgeproc-sim"
MARKER_HEAD = ("Written by bridgeproc: the next run that writes this folder replaces the files listed below "
               "and keeps every other file (a logo, .htaccess, photos/ ...).\n")


def _ours(folder: Path) -> Callable[[str], bool]:
    """Which files of a results folder bridgeproc wrote, by its marker's list; a marker of an older
    bridgeproc lists none, and then its pages and style sheet (``.html``, ``.css``) are taken as its own."""
    if not (folder / FOLDER_MARKER).is_file():  # a simultaneous event's folder of an older bridgeproc
        return lambda name: True
    lines = (folder / FOLDER_MARKER).read_text(encoding="utf-8", errors="replace").splitlines()[1:]
    listed = {line for line in lines if line.strip()}
    if listed:
        return listed.__contains__
    return lambda name: name.endswith((".html", ".css"))


def _marked(folder: Path) -> bool:
    """Whether ``folder`` is one bridgeproc wrote (its marker, or an older simultaneous event's)."""
    return (folder / FOLDER_MARKER).is_file() or (folder / SIM_MARKER).is_file()


def _keep_the_clubs_files(target: Path, new: Path) -> None:
    """Copy into the new folder every file and folder of ``target`` bridgeproc did not write (the club's),
    unless the new folder has one of that name; copies, so that a failed rename loses nothing."""
    ours = _ours(target)
    for path in sorted(target.rglob("*")):
        name = path.relative_to(target).as_posix()
        if name == FOLDER_MARKER or ours(name) or (new / name).exists() or (new / name).is_symlink():
            continue
        if path.is_symlink():
            (new / name).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(os.readlink(path), new / name)
        elif path.is_dir():
            (new / name).mkdir(parents=True, exist_ok=True)
        else:
            (new / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, new / name)


def _check_folder(out: Path, reads: list[Path]) -> None:
    """Refuse a folder output that cannot be written without destroying something (UsageError)."""
    where = out.resolve()
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: is a file, not a folder; give a folder name for the results website")
    for read in reads:
        if where in read.resolve().parents:
            raise UsageError(f"{out}: this run reads {read}, which is inside that folder; "
                             "write the results website to another folder")
    if where == Path.cwd().resolve() or where in Path.cwd().resolve().parents:
        raise UsageError(f"{out}: is the current folder (or holds it); give a new folder name, e.g. results/")
    if out.is_dir() and not _marked(out) and any(out.iterdir()):
        raise UsageError(f"{out}: the folder holds files bridgeproc did not write; give a new or empty folder "
                         f"(bridgeproc replaces only a results folder it wrote, marked by {FOLDER_MARKER})")


def _remove_stale_folders(target: Path) -> None:
    """Remove temporary folders of ``target`` left by runs whose process has ended."""
    for tmp in target.parent.glob(f".{glob.escape(target.name)}.*{TMP_SUFFIX}"):
        owner = tmp.name[len(target.name) + 2:].split("-", 1)[0]
        if tmp.is_dir() and owner.isdigit() and int(owner) != os.getpid() and not process_alive(int(owner)):
            shutil.rmtree(tmp, ignore_errors=True)


@dataclass
class StagedFolder:
    """A folder output being written: a temporary folder beside it, renamed over the target by
    :meth:`publish` (the folder it replaces is moved aside first and removed after), or removed
    by :meth:`discard`. The marker file says the folder is bridgeproc's, so the next run may replace it."""

    target: Path
    temporary: Path
    made: list[Path]

    def publish(self) -> None:
        move = self.prepare()
        move.apply()
        move.clean()

    def prepare(self) -> Move:
        """Everything but the renames: the marker listing the files written, the club's own files copied
        in, the folder's mode; then the name the folder it replaces moves to (:class:`Move`)."""
        target = self.target
        try:
            written = sorted(p.relative_to(self.temporary).as_posix() for p in self.temporary.rglob("*")
                             if not p.is_dir())
            (self.temporary / FOLDER_MARKER).write_text(MARKER_HEAD + "".join(f"{name}\n" for name in written),
                                                        encoding="utf-8")
            if target.is_dir() and _marked(target):
                _keep_the_clubs_files(target, self.temporary)
            mode = os.stat(target).st_mode & 0o7777 if target.is_dir() else 0o777 & ~user_umask()
            os.chmod(self.temporary, mode)
            if target.exists() and not _marked(target) and any(target.iterdir()):
                raise OSError(17, "the folder now holds files bridgeproc did not write", str(target))
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.{os.getpid()}-old-", suffix=TMP_SUFFIX,
                                        dir=target.parent))
            os.rmdir(old)
        except OSError:
            self.discard()
            raise
        return Move(str(self.temporary), str(target), str(old), os.lstat(self.temporary).st_ino, self.discard)

    def discard(self) -> None:
        shutil.rmtree(self.temporary, ignore_errors=True)
        for folder in self.made:  # deepest first
            with contextlib.suppress(OSError):
                folder.rmdir()


def stage_folder(path: str | os.PathLike) -> StagedFolder:
    """A temporary folder beside the folder output ``path`` (its parent made if missing)."""
    target = Path(path)
    missing = [p for p in [target.parent, *target.parent.parents] if not p.exists()]
    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_folders(target)
    tmp = tempfile.mkdtemp(prefix=f".{target.name}.{os.getpid()}-", suffix=TMP_SUFFIX, dir=target.parent)
    return StagedFolder(target, Path(tmp), missing)


def _stage(output: object) -> Staged | StagedFolder:
    """The staging of one output: a temporary folder for a folder output, else a temporary file. An output
    that is a symbolic link (a folder linked into the web server's root, a file linked to the published
    one) is written where the link points, so the link keeps showing the new results."""
    target = _target(output)
    if isinstance(output, (str, os.PathLike)) and output_type(output) == FOLDER:
        return stage_folder(target)
    return stage(target)


def _target(output: object) -> Path:
    """The path an output is written to: where a symbolic link points, else the output as given."""
    path = Path(output)  # type: ignore[arg-type]
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _cannot_write(exc: OSError, output: object) -> str:
    """Why ``output`` could not be written, named as the user gave it (never the temporary file)."""
    reason = exc.strerror or str(exc)
    folder = getattr(exc, "folder", None)
    where = f" (the folder {folder} cannot be {'written' if Path(folder).exists() else 'made'})" if folder else ""
    return f"cannot write {output}: {reason}{where}"


def write_all(outputs: Iterable, write: Callable[[Path, Path], None],
              then: Callable[[], list[dict] | None] | None = None,
              after: Callable[[], None] | None = None) -> None:
    """Write every output to a temporary file beside it (``write(output, temporary)``), run
    ``then`` (e.g. archiving), and only then rename them all, then run ``after`` (e.g. marking
    the archived version complete): a failure before the renames leaves no output written.

    The renames are kept in a journal first (:mod:`bridgeproc.pipeline.journal`), with the archive
    steps ``then`` returns for ``after`` to do: a run killed among them is finished by the next
    command, so a reader sees the old set of outputs or the new one, never a mix. An error names the
    output as given, not its temporary file."""
    journal.finish_interrupted()  # a run killed among its renames is finished before this one starts
    outputs = list(outputs)
    staged: list[Staged | StagedFolder] = []
    current: object = None
    moves: list[Move] = []
    entry = journal.begin([_target(o) for o in outputs]) if outputs else None
    try:
        for out in outputs:
            current = out
            staged.append(_stage(out))
            write(Path(out), staged[-1].temporary)
        current = None
        finish = then() if then is not None else None
        for item in staged:
            current = item.target
            moves.append(item.prepare())
    except BaseException as exc:
        for item in staged:
            item.discard()
        journal.end(entry)
        if isinstance(exc, OSError):
            named = exc.filename if current is None else current
            raise BridgeprocError(f"{_cannot_write(exc, named or 'an output')}; nothing was written") from None
        raise
    entry = journal.commit(entry, moves, finish or [])
    try:  # a Ctrl-C among the renames leaves the journal: the next command finishes them
        published: list[Path] = []
        for item, move in zip(staged, moves):
            try:
                move.apply()
            except OSError as exc:
                for rest in staged[len(published) + 1:]:
                    rest.discard()
                done = (f"only {', '.join(map(str, published))} {'was' if len(published) == 1 else 'were'} "
                        "written" if published else "nothing was written")
                raise BridgeprocError(f"{_cannot_write(exc, item.target)}; {done}") from None
            published.append(item.target)
        for move in moves:
            move.clean()
        if after is not None:
            after()
    except BridgeprocError:
        journal.end(entry)
        raise
    journal.end(entry)


def archive_file(url: str | os.PathLike | None) -> str | None:
    """The SQLite file a run archives into (``url``, else the default archive), so that no output can
    overwrite it; None for a server URL."""
    from bridgeproc.archive import default_url  # start-up: SQLAlchemy only for a run that archives

    text = str(url or default_url())
    if "://" not in text:
        return text
    return text.split(":///", 1)[1] if text.startswith("sqlite:///") else None


def completing(url: str | os.PathLike | None, archived: list, event: dict | None = None) -> list[dict]:
    """The archive steps a run does once its outputs are in place, as its journal keeps them: the
    versions ``archived`` stored incomplete are marked complete, then ``event`` (name, ids, rule) recorded."""
    pending = [[a.session_id, a.version] for a in archived if a is not None and not a.complete]
    if not pending and not event:
        return []
    return [{"archive": None if url is None else str(url), "complete": pending, "event": event}]


def writer_of(kind: type, output: str | os.PathLike) -> Callable:
    """The writer of ``output``'s type for a result of ``kind`` (see :data:`OUTPUTS`)."""
    module, name = OUTPUTS[kind.__name__][output_type(output)].split(":")
    return getattr(importlib.import_module(module), name)


def publish(result: object, outputs: Iterable, then: Callable[[], list[dict] | None] | None = None,
            after: Callable[[], None] | None = None) -> None:
    """Write ``result`` to every output by its type (:data:`OUTPUTS`), all or nothing: each to a temporary
    file beside it, then ``then`` (the archive step), then every rename, then ``after`` (marking the
    archived version complete). An error names the output as given, never its temporary file."""
    outputs = list(outputs)
    table = OUTPUTS[type(result).__name__]
    kinds = {Path(o): output_type(o) for o in outputs}  # as given: Path("results/") loses the folder's slash

    def write(out: Path, tmp: Path) -> None:
        module, name = table[kinds.get(out) or output_type(out)].split(":")
        getattr(importlib.import_module(module), name)(result, tmp)

    write_all(outputs, write, then, after)
