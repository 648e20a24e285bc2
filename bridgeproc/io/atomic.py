"""Write an output file all or nothing: to a temporary file beside it, then rename.

The file ends up with the mode a plain ``open()`` would give it under the user's umask
(``-rw-r--r--`` under umask 022), or the mode of the file it replaces, so a web server or a
club member can read published results. Temporary files are named
``.<output>.<pid>-<random>.bridgeproc-tmp``: one left behind by a run that was killed is
removed by the next run that writes the same output, once its process is gone.
"""
from __future__ import annotations

import contextlib
import glob
import os
import stat
import tempfile
from pathlib import Path
from typing import Iterator

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


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's process, or no way to tell: leave its file alone
    return True


def remove_stale(target: Path) -> list[Path]:
    """Remove the temporary files of ``target`` left by runs whose process has ended."""
    removed = []
    for tmp in target.parent.glob(f".{glob.escape(target.name)}.*{TMP_SUFFIX}"):
        owner = tmp.name[len(target.name) + 2:].split("-", 1)[0]
        if owner.isdigit() and int(owner) != os.getpid() and not _alive(int(owner)):
            with contextlib.suppress(OSError):
                tmp.unlink()
                removed.append(tmp)
    return removed


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path in the target's folder; on success rename it over ``path``.

    On any exception the temporary file is removed and ``path`` is left untouched.
    """
    target = Path(path)
    missing = [p for p in [target.parent, *target.parent.parents] if not p.exists()]
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        remove_stale(target)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}-", suffix=TMP_SUFFIX, dir=target.parent)
    except BaseException:
        _remove_empty(missing)
        raise
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, output_mode(target))
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        _remove_empty(missing)  # folders made for this output go too
        raise


def _remove_empty(folders: list[Path]) -> None:
    for folder in folders:  # deepest first
        with contextlib.suppress(OSError):
            folder.rmdir()
