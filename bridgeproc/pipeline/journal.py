"""The journal of a run's renames: outputs published as one set, also under ``kill -9``.

A run first writes a journal naming the outputs it is about to stage (:func:`begin`); every output is
written beside its target; then, before the first rename, the journal is rewritten (in one rename of its
own) to list every rename still to do and the archive steps that follow them (:func:`commit`: marking the
archived versions complete, recording the event). The next bridgeproc command, whatever it is, finishes
what a killed run left before doing anything else (:func:`finish_interrupted`): a run killed while
staging has its temporary files removed (the old set stays), one killed among the renames has them
finished and then its archive steps (the new set), so no command sees a mix, or an archive that
disagrees with the files. A run that ends, well or with an error, removes its journal.

The journals live in ``$BRIDGEPROC_STATE``, else ``$XDG_STATE_HOME/bridgeproc/publishing``
(``~/.local/state/...``); where that folder cannot be written, the renames are done without one.
"""
from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import tempfile
from pathlib import Path

from bridgeproc.io.atomic import TMP_SUFFIX, Move, process_alive

ENV_VAR = "BRIDGEPROC_STATE"
#: A journal is named ``publish-<pid>-<random>.json`` by the process that owns it; a command that
#: finishes another's journal renames it to its own pid first, so two commands never both do it.
PREFIX, SUFFIX = "publish-", ".json"
#: A journal is a few hundred bytes per output: anything far larger is not one of bridgeproc's.
MAX_BYTES = 4 << 20
_active: set[str] = set()


def journal_folder() -> Path:
    """Where the journals are kept (see the module's text)."""
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR]).expanduser()
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "bridgeproc" / "publishing"


def _write(entry: dict, path: Path | None = None) -> Path | None:
    """Write ``entry`` as a journal in one rename (over ``path``, or as a new one); None when it cannot."""
    folder = journal_folder()
    tmp = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{PREFIX}{os.getpid()}-", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as out:  # mkstemp's 0600: it may hold an archive URL
            json.dump(entry, out)
        path = path or folder / f"{PREFIX}{os.getpid()}-{Path(tmp).name.rsplit('-', 1)[1][:-4]}{SUFFIX}"
        os.replace(tmp, path)
    except OSError:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        return None
    _active.add(str(path))
    return path


def host() -> str:
    """This machine's name, as ``socket.gethostname`` gives it (the kernel's node name on a POSIX system,
    read without loading the socket module)."""
    if hasattr(os, "uname"):
        return os.uname().nodename
    import socket  # Windows: no uname

    return socket.gethostname()


def begin(targets: list) -> Path | None:
    """The journal of a run about to stage ``targets``: should it be killed before its renames, the
    next command removes what it staged (the old set stays). Its path, or None when the journal folder
    cannot be written (the run then goes on without a journal)."""
    return _write({"pid": os.getpid(), "host": host(), "staging": [str(t) for t in targets]})


def commit(path: Path | None, moves: list[Move], finish: list[dict]) -> Path | None:
    """Everything is staged: the journal now lists every rename still to do and the archive steps
    ``finish`` that follow them (each ``{"archive": url, "complete": [[session_id, version], ...],
    "event": {...} or None}``); from here the next command finishes the set rather than removing it."""
    if path is None:
        return None
    entry = {"pid": os.getpid(), "host": host(), "moves": [m.as_json() for m in moves],
             "finish": finish}
    return _write(entry, path)


def end(path: Path | None) -> None:
    """The run is over: its journal goes."""
    if path is not None:
        _active.discard(str(path))
        with contextlib.suppress(OSError):
            os.unlink(path)


def _owner(name: str) -> int | None:
    pid = name[len(PREFIX):].split("-", 1)[0]
    return int(pid) if pid.isdigit() else None


def finish_interrupted() -> list[str]:
    """Finish every journal a killed run left (its renames, then its archive steps); a line for each.

    A journal of a run still going, or of another machine sharing the folder, is left alone. Nothing
    here raises: what cannot be finished is said, and the journal kept for the next command."""
    folder = journal_folder()
    try:
        names = sorted(e.name for e in os.scandir(folder) if e.name.startswith(PREFIX) and e.name.endswith(SUFFIX))
    except OSError:
        return []
    notes = []
    for name in names:
        owner = _owner(name)
        if owner is None or str(folder / name) in _active or (owner != os.getpid() and process_alive(owner)):
            continue
        claimed = folder / f"{PREFIX}{os.getpid()}-{name[len(PREFIX):].split('-', 1)[1]}"
        try:
            os.rename(folder / name, claimed)
        except OSError:
            continue  # another command took it first
        note = _finish(claimed)
        if note:
            notes.append(note)
    return notes


def _finish(path: Path) -> str | None:
    """Do what the journal at ``path`` says is left; remove it when all is done."""
    try:
        if path.stat().st_size > MAX_BYTES:
            raise ValueError("too large")
        entry = json.loads(path.read_text(encoding="utf-8"))
        if entry.get("host") != host():
            return None  # another machine's run: its renames are its own
        if "staging" in entry:
            return _roll_back(path, int(entry["pid"]), [Path(t) for t in entry["staging"]])
        moves = [Move(m["temporary"], m["target"], m.get("old"), m.get("inode")) for m in entry["moves"]]
        finish = list(entry.get("finish") or [])
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return f"an interrupted run's journal {path} cannot be read ({exc}); remove it"
    targets = ", ".join(m.target for m in moves)
    try:
        for move in moves:
            move.apply()
        for move in moves:
            move.clean()
    except OSError as exc:
        return f"could not finish publishing {targets} (a run was killed while renaming them): {exc}"
    try:
        for step in finish:
            _archive_step(step)
    except Exception as exc:  # noqa: BLE001 - any archive failure is said, and the journal kept
        return (f"finished publishing {targets} (a run was killed while renaming them), but the archive could "
                f"not be completed: {exc}; the next command tries again")
    with contextlib.suppress(OSError):
        os.unlink(path)
    return f"finished publishing {targets}: the run that wrote them was killed while renaming them"


def _roll_back(path: Path, pid: int, targets: list[Path]) -> str:
    """A run killed while staging: remove its temporary files and folders; its outputs were never touched."""
    for target in targets:
        for tmp in target.parent.glob(f".{glob.escape(target.name)}.{pid}-*{TMP_SUFFIX}"):
            if tmp.is_dir() and not tmp.is_symlink():
                shutil.rmtree(tmp, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    tmp.unlink()
    with contextlib.suppress(OSError):
        os.unlink(path)
    return (f"removed what a killed run had begun to write for {', '.join(map(str, targets))}; "
            "the files published before it are as they were")


def _archive_step(step: dict) -> None:
    """Mark the journal's archived versions complete and record its event, as the killed run would have."""
    from bridgeproc.archive import archive_event, complete_version  # SQLAlchemy only when there is one
    from bridgeproc.model import ArchiveResult

    url = step["archive"]
    for session_id, version in step.get("complete") or []:
        complete_version(url, ArchiveResult(str(session_id), int(version), created=True, complete=False))
    event = step.get("event")
    if event:
        archive_event(url, event["name"], list(event["ids"]), event.get("rule"))
