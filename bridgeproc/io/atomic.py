"""Write an output file all or nothing: to a temporary file beside it, then rename.

The file ends up with the mode a plain ``open()`` would give it under the user's umask
(``-rw-r--r--`` under umask 022), or the mode of the file it replaces, so a web server or a
club member can read published results. Temporary files are named
``.<output>.<pid>-<random>.bridgeproc-tmp``: one left behind by a run that was killed is
removed by the next run that writes the same output, once its process is gone.
"""
from __future__ import annotations

import contextlib
import errno
import glob
import os
import shutil
import stat
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

TMP_SUFFIX = ".bridgeproc-tmp"


def user_umask() -> int:
    """The process's umask, read without changing it where the system tells (Linux), else
    by setting and restoring it."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def output_mode(target: Path) -> int:
    """The mode of the file being replaced, else what ``open()`` would create (0666 & ~umask)."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        return 0o666 & ~user_umask()


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (True for someone else's, or when the system cannot tell: what it
    left is then left alone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's process, or no way to tell: leave its file alone
    return True


def remove_stale(target: Path) -> list[Path]:
    """Remove the temporary files of ``target`` left by runs whose process has ended (a writer's
    own temporary file of one, ``..<output>.<pid>-...``, too)."""
    removed = []
    for dots in (".", ".."):
        for tmp in target.parent.glob(f"{dots}{glob.escape(target.name)}.*{TMP_SUFFIX}"):
            owner = tmp.name[len(dots) + len(target.name) + 1:].split("-", 1)[0]
            if owner.isdigit() and int(owner) != os.getpid() and not process_alive(int(owner)):
                with contextlib.suppress(OSError):
                    tmp.unlink()
                    removed.append(tmp)
    return removed


class OutputError(OSError):
    """An output could not be written: an ``OSError`` named by the output the user asked for
    (``filename``), not by the temporary file beside it; ``folder`` is the folder that refused
    (could not be made, or written), when it was the folder."""

    folder: str | None = None


def _named(exc: OSError, target: Path) -> OutputError:
    """``exc`` as an :class:`OutputError` of ``target``."""
    error = OutputError(exc.errno, exc.strerror or str(exc), str(target))
    if exc.filename is None:
        return error
    failed, folder = Path(os.path.abspath(os.fsdecode(exc.filename))), Path(os.path.abspath(target)).parent
    if failed == folder or failed in folder.parents:
        error.folder = str(target.parent if failed == folder else failed)
    elif exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS) and failed.parent == folder \
            and failed.name.endswith(TMP_SUFFIX):
        error.folder = str(target.parent)  # the temporary file could not be made or renamed there
    return error


def _exchange(one: str, other: str) -> bool:
    """Swap two folders in one step (Linux's ``renameat2(RENAME_EXCHANGE)``), so a reader of ``other``
    sees the old folder or the new one and never none; False where the system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False  # a C library without it (glibc before 2.28, musl before 1.2.?)
    at_cwd, exchange = -100, 2
    if renameat2(at_cwd, os.fsencode(one), at_cwd, os.fsencode(other), exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False  # a kernel or file system that cannot exchange
    raise OSError(code, os.strerror(code), other)


@dataclass
class Move:
    """The rename that publishes one staged output, as a journal keeps it: ``temporary`` over ``target``.
    A folder (``old`` set) is swapped with the folder it replaces in one step where the system can
    (:func:`_exchange`), that one then moved to ``old``; elsewhere the folder it replaces is first moved
    to ``old``. ``inode`` (the new folder's) tells a swap already done. :meth:`apply` does what is left,
    so that a run killed half way is finished by the next one; :meth:`clean` removes ``old``."""

    temporary: str
    target: str
    old: str | None = None
    inode: int | None = None
    on_error: Callable[[], None] | None = field(default=None, compare=False, repr=False)

    def apply(self) -> None:
        """Rename what is still to be renamed; a failed folder rename puts the previous folder back."""
        if not os.path.lexists(self.temporary):
            return  # renamed before
        try:
            if self.old is None:
                os.replace(self.temporary, self.target)
            elif self.inode is not None and os.path.lexists(self.target) \
                    and os.lstat(self.target).st_ino == self.inode:
                os.rename(self.temporary, self.old)  # swapped before: the temporary name holds the old folder
            elif os.path.lexists(self.target) and not os.path.lexists(self.old) \
                    and _exchange(self.temporary, self.target):
                os.rename(self.temporary, self.old)
            else:
                if os.path.lexists(self.target) and not os.path.lexists(self.old):
                    os.rename(self.target, self.old)
                os.rename(self.temporary, self.target)
        except OSError as exc:
            if self.old is not None and os.path.lexists(self.old) and not os.path.lexists(self.target):
                with contextlib.suppress(OSError):
                    os.rename(self.old, self.target)  # put the previous results back
            if self.on_error is not None:
                self.on_error()
            raise _named(exc, Path(self.target)) from exc

    def clean(self) -> None:
        """Remove the folder the output replaced."""
        if self.old is not None and os.path.lexists(self.old):
            shutil.rmtree(self.old, ignore_errors=True)

    def as_json(self) -> dict:
        return {"temporary": self.temporary, "target": self.target, "old": self.old, "inode": self.inode}


@dataclass
class Staged:
    """An output being written: its temporary file beside it, until :meth:`publish` renames it
    over the target or :meth:`discard` removes it (and any folders made for it)."""

    target: Path
    temporary: Path
    made: list[Path]

    def publish(self) -> None:
        """Give the temporary file the output's mode and rename it over the target."""
        self.prepare().apply()

    def prepare(self) -> Move:
        """Give the temporary file the output's mode: what is left is the rename (:class:`Move`)."""
        try:
            os.chmod(self.temporary, output_mode(self.target))
        except OSError as exc:
            self.discard()
            raise _named(exc, self.target) from exc
        return Move(str(self.temporary), str(self.target), on_error=self.discard)

    def discard(self) -> None:
        with contextlib.suppress(OSError):
            os.unlink(self.temporary)
        _remove_empty(self.made)  # folders made for this output go too


def stage(path: str | os.PathLike) -> Staged:
    """A temporary file in the target's folder (made if missing), for :class:`Staged`; an
    ``OSError`` is raised as :class:`OutputError`, named by ``path``."""
    target = Path(path)
    missing = [p for p in [target.parent, *target.parent.parents] if not p.exists()]
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        remove_stale(target)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}-", suffix=TMP_SUFFIX, dir=target.parent)
    except OSError as exc:
        _remove_empty(missing)
        raise _named(exc, target) from exc
    except BaseException:
        _remove_empty(missing)
        raise
    os.close(fd)
    return Staged(target, Path(tmp), missing)


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path in the target's folder; on success rename it over ``path``.

    On any exception the temporary file is removed and ``path`` is left untouched.
    """
    staged = stage(path)
    try:
        yield staged.temporary
    except BaseException:
        staged.discard()
        raise
    staged.publish()


def _remove_empty(folders: list[Path]) -> None:
    for folder in folders:  # deepest first
        with contextlib.suppress(OSError):
            folder.rmdir()
