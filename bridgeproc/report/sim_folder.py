"""A simultaneous event's folder written in parallel: the field's files in this process while a pool of
workers writes the clubs' folders from their parts of the field (``report.sim``). The writer of the
output table's ``SimResult`` row: it writes into the folder it is given, which ``pipeline.publish``
stages beside the target and swaps into place with every other output, all or nothing."""
from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bridgeproc.model import SimResult
from bridgeproc.report.sim import ClubPart, FieldParts, club_folder, field_parts, write_club_part, write_field

#: Worker processes writing the clubs' folders, and clubs per task of the pool.
WORKERS, CLUBS_PER_TASK = 2, 50


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


def write_sim_folder(sim: SimResult, folder: str | os.PathLike, *, workers: int = WORKERS,
                     chunk: int = CLUBS_PER_TASK) -> None:
    """Write the field's and every club's outputs (``report.sim``) into ``folder`` (made if missing);
    clubs by ``workers`` processes, ``chunk`` clubs a task, while this one writes the field's files."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
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
            done = pool.map(_write_shared, [str(root)] * len(chunks), chunks, [sim.meta] * len(chunks),
                            [method] * len(chunks))
            write_field(root, sim.results, sim.field_standings, sim.meta, method, names, field)  # meanwhile
            list(done)
    else:
        write_field(root, sim.results, sim.field_standings, sim.meta, method, names, field)
        for part in chunks:
            _write_clubs(str(root), part, field, sim.meta, method)


__all__ = ["write_sim_folder"]
