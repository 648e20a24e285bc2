"""A simultaneous event's folder published: the field's and every club's outputs written by the output
table's writer (``report.sim_folder``, in parallel) into a folder staged beside the target, then swapped
into place by ``pipeline.publish``, all or nothing, as every other run's outputs."""
from __future__ import annotations

import os
from pathlib import Path

from bridgeproc.errors import UsageError
from bridgeproc.model import Options, SimResult
from bridgeproc.pipeline.outputs import FOLDER
from bridgeproc.pipeline.publish import check_outputs, publish
from bridgeproc.pipeline.sim import clubs_of, score_sim, score_sim_from_archive


def write_sim(sim: SimResult, folder: str | os.PathLike) -> Path:
    """Write ``sim`` into ``folder`` (a results folder an earlier run wrote is replaced, files the club put
    there kept); UsageError for a folder that holds files bridgeproc did not write."""
    target = os.path.join(os.fspath(folder), "")  # a folder output, however it was named
    check_outputs([target], [FOLDER])
    publish(sim, [target])
    return Path(folder)


def process_sim(club_files: list, output: str | os.PathLike, hand_record: str | os.PathLike | None = None,
                club_of: str = "stem", archive_url: str | None = None, event: str | None = None) -> SimResult:
    """``bridgeproc sim`` as one call: the output folder refused before any work when it cannot be right,
    the clubs' files (or the sessions of ``event`` archived at ``archive_url``) scored across the field and
    per club (``pipeline.sim``), then every output published (:func:`write_sim`)."""
    check_outputs([os.path.join(os.fspath(output), "")], [FOLDER], club_files)
    if archive_url:
        if club_files or not event:
            raise UsageError("--from-archive takes --event and no club files")
        result = score_sim_from_archive(archive_url, event)
    else:
        if not club_files:
            raise UsageError("give the clubs' files (or --from-archive URL --event NAME)")
        result = score_sim(clubs_of(club_files, club_of), hand_record, Options(dd=False))
    write_sim(result, output)
    return result


__all__ = ["process_sim", "write_sim"]
