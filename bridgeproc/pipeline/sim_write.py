"""A simultaneous event's outputs written in parallel: the field's files in this process while a pool of
workers writes the clubs' folders from their parts of the field (``report.sim``), staged beside the target
folder and renamed into place, all or nothing."""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bridgeproc.errors import UsageError
from bridgeproc.io.atomic import TMP_SUFFIX, user_umask
from bridgeproc.model import SimResult
from bridgeproc.pipeline.sim import CHUNK_CLUBS, WORKERS
from bridgeproc.report.sim import MARKER, ClubPart, FieldParts, club_folder, field_parts, write_club_part, write_field


def _write_clubs(root: str, tasks: Sequence[tuple[str, ClubPart]], field: FieldParts, meta: dict, method: str) -> None:
    """Write a chunk of clubs' folders (a task of the pool) from their parts of the field."""
    for name, part in tasks:
        write_club_part(Path(root) / "clubs" / name, part, field, meta, method)


#: The field's parts in a worker process (sent once per worker, not with every chunk).
_SHARED: dict[str, FieldParts] = {}


def _share(field: FieldParts) -> None:
    _SHARED["field"] = field


def _write_shared(root: str, tasks: Sequence[tuple[str, ClubPart]], meta: dict, method: str) -> None:
    _write_clubs(root, tasks, _SHARED["field"], meta, method)


def _club_names(clubs: Sequence[str]) -> dict[str, str]:
    """Club -> its folder name, unique (``oakfield``, ``oakfield-2`` for a second club of that slug)."""
    names: dict[str, str] = {}
    taken: set[str] = set()
    for club in clubs:
        name, n = club_folder(club), 1
        while name in taken:
            n += 1
            name = f"{club_folder(club)}-{n}"
        taken.add(name)
        names[club] = name
    return names


def write_sim(sim: SimResult, folder: str | os.PathLike, *, workers: int = WORKERS, chunk: int = CHUNK_CLUBS) -> Path:
    """Write the field's and every club's outputs (``report.sim``) into ``folder``, all or nothing:
    staged beside it and renamed into place, replacing a folder an earlier ``sim`` wrote. Clubs are
    written by ``workers`` processes. Raises UsageError for a folder holding other files."""
    target = Path(folder)
    if target.exists() and (not target.is_dir() or (any(target.iterdir()) and not (target / MARKER).exists())):
        raise UsageError(f"{target}: exists and was not written by bridgeproc sim; give a new or empty folder")
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=TMP_SUFFIX, dir=target.parent))
    try:
        names = _club_names(sim.clubs)
        method = sim.conventions.method
        field = field_parts(sim.results, sim.frequencies, method, sim.club_standings)  # formatted once
        present = set(sim.results["club"].astype(str))
        rankings = dict(tuple(sim.club_standings.groupby("club", sort=False)))
        tasks = [(names[club], field.club(club, rankings.get(club, sim.club_standings[:0])))
                 for club in sim.clubs if club in present]
        chunks = [tasks[i:i + chunk] for i in range(0, len(tasks), max(1, chunk))]
        if workers > 1 and len(chunks) > 1:
            with ProcessPoolExecutor(max_workers=workers, initializer=_share, initargs=(field,)) as pool:
                done = pool.map(_write_shared, [str(staging)] * len(chunks), chunks, [sim.meta] * len(chunks),
                                [method] * len(chunks))
                # the field's own files meanwhile, in this process
                write_field(staging, sim.results, sim.field_standings, sim.meta, method, names, field)
                list(done)
        else:
            write_field(staging, sim.results, sim.field_standings, sim.meta, method, names, field)
            for part in chunks:
                _write_clubs(str(staging), part, field, sim.meta, method)
        os.chmod(staging, 0o777 & ~user_umask())
        if target.exists():
            old = target.with_name(f".{target.name}.old{TMP_SUFFIX}")
            shutil.rmtree(old, ignore_errors=True)
            target.rename(old)
            staging.rename(target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            staging.rename(target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


__all__ = ["write_sim"]
