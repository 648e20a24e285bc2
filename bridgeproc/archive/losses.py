"""What a re-score would lose against the latest archived version: results, hand-record deals,
double-dummy tables, names.

A re-run of a session with fewer traveller files, without the hand record or
without ``--names`` hashes differently and would silently become the latest
version, so that ``archive history`` and ``archive export`` lose what the club had.
:func:`check` compares four counts of the latest version (SQL ``COUNT``s, no
frame is loaded) with the new session's and refuses a drop unless told
``replace``. Growth is never a loss.
"""
from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import PurePath

import pandas as pd
from sqlalchemy import String, and_, func, select

from bridgeproc.archive.db import ArchiveError
from bridgeproc.archive.tables import FRAME_TABLES, versions


class ArchiveLossError(ArchiveError):
    """Archiving would make a version with fewer results, deals, double-dummy tables or names the latest; nothing was written.

    ``str()`` names each loss and the option that restores it; ``losses`` are the
    short forms (``names for 26 pairs -> 0``).
    """

    def __init__(self, message: str, losses: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.losses = losses


#: Counted item -> (frame, column that must be filled, or None to count every row).
COUNTED: dict[str, tuple[str, str | None]] = {
    "results": ("results", None),
    "deals": ("boards", "deal"),
    # a table's 20 counts are stored together: its first column stands for the table
    "double dummy": ("boards", "dd_N_C"),
    "names": ("standings", "names"),
}
#: What a teams session's version is counted by: its table results, and its hand record's deals.
TEAM_COUNTED: dict[str, tuple[str, str | None]] = {
    "table results": ("team_results", None), "deals": COUNTED["deals"], "double dummy": COUNTED["double dummy"],
}


@dataclass(frozen=True)
class Loss:
    """One count that went down from the latest version (``before``) to this run (``after``)."""

    what: str  # a key of COUNTED
    before: int
    after: int

    def short(self) -> str:
        """``names for 26 pairs -> 0``: what ArchiveResult prints after a ``replace``."""
        return {"results": f"{self.before} results -> {self.after}",
                "deals": f"deals for {self.before} boards -> {self.after}",
                "double dummy": f"double dummy for {self.before} boards -> {self.after}",
                "names": f"names for {self.before} pairs -> {self.after}",
                "table results": f"{self.before} table results -> {self.after}"}[self.what]

    def sentence(self, session_id: str, version: int, names_files: list[str]) -> str:
        """``<id> version 1 has names for 26 pairs, this run has none: <how to restore them>``."""
        now = str(self.after) if self.after else "none"
        had = {"results": f"has {self.before} results, this run has {now}",
               "deals": f"has deals for {self.before} boards, this run has {now}",
               "double dummy": f"has double-dummy tables for {self.before} boards, this run has {now}",
               "names": f"has names for {self.before} pairs, this run has {now}",
               "table results": f"has {self.before} table results, this run has {now}"}[self.what]
        return f"{session_id} version {version} {had}: {self._fix(version, names_files)}"

    def _fix(self, version: int, names_files: list[str]) -> str:
        if self.what == "results":
            return "give every traveller file again"
        if self.what == "table results":
            return "give every room's file again"
        if self.what == "deals":
            return "give the hand record again"
        if self.what == "double dummy":
            return "score without --no-dd (double dummy needs endplay, a dependency of bridgeproc)"
        if names_files:
            return f"give the names list again ({' '.join(f'--names {shlex.quote(n)}' for n in names_files)})"
        return f"give the files with the names again (version {version} read them from its input, not a names list)"


def session_counts(frames: dict[str, pd.DataFrame], counted: dict[str, tuple[str, str | None]] = COUNTED,
                   ) -> dict[str, int]:
    """The counted items of a session about to be archived (frame name -> frame; a missing frame counts 0)."""
    out = {}
    for what, (name, column) in counted.items():
        frame = frames.get(name)
        if frame is None:
            out[what] = 0
        elif column is None:
            out[what] = len(frame)
        elif column not in frame.columns:
            out[what] = 0
        else:  # not missing and not blank; strip(" ") is SQL's TRIM, so both sides count alike
            filled = frame[column].astype("string").str.strip(" ").fillna("").ne("")
            out[what] = int(filled.sum())
    return out


def stored_counts(conn, version_id: int, counted: dict[str, tuple[str, str | None]] = COUNTED) -> dict[str, int]:
    """The counted items of archived version ``version_id``: one query of ``COUNT`` subqueries."""
    counts = []
    for name, column in counted.values():
        table = FRAME_TABLES[name]
        where = table.c.version_id == version_id
        if column is not None:
            cell = table.c[column]
            where = and_(where, cell.is_not(None))
            if isinstance(cell.type, String):  # Text too: blank text is no value
                where = and_(where, func.trim(cell) != "")
        counts.append(select(func.count()).select_from(table).where(where).scalar_subquery())
    row = conn.execute(select(*counts)).one()
    return {what: int(value or 0) for what, value in zip(counted, row)}


def compare(before: dict[str, int], after: dict[str, int]) -> list[Loss]:
    """Every count that went down, in :data:`COUNTED` (or :data:`TEAM_COUNTED`) order."""
    return [Loss(what, before[what], after[what]) for what in after if after[what] < before[what]]


def names_files(conn, version_id: int) -> list[str]:
    """The file names of the names lists (``--names``) the run of ``version_id`` was given."""
    text = conn.execute(select(versions.c.options).where(versions.c.version_id == version_id)).scalar()
    try:
        values = json.loads(text or "{}")
        paths = (values.get("read") or {}).get("names") or values.get("names") or []  # by stage, or as stored before
    except (TypeError, ValueError, AttributeError):
        return []
    return [PurePath(str(p).replace("\\", "/")).name for p in paths if p]


def refusal(session_id: str, version: int, losses: list[Loss], names: list[str]) -> str:
    """The ArchiveLossError message: one line per loss, then the ``--replace`` way out.

    With one loss the way out ends its line (``..., or store this run as version 2
    anyway with --replace``); with several it is a line of its own.
    """
    lines = [loss.sentence(session_id, version, names) for loss in losses]
    way_out = f"store this run as version {version + 1} anyway with --replace"
    if len(lines) == 1:
        return f"{lines[0]}, or {way_out}"
    return "\n".join([*lines, f"or {way_out}"])


def check(conn, session_id: str, version: int, version_id: int, frames: dict[str, pd.DataFrame],
          replace: bool = False) -> tuple[str, ...]:
    """The losses of archiving ``frames`` over ``version`` (its ``version_id``) of ``session_id``.

    Raises :class:`ArchiveLossError` when there are any and ``replace`` is False;
    returns their short forms (empty when nothing is lost).
    """
    counted = TEAM_COUNTED if "team_results" in frames else COUNTED  # a teams version stores its results there
    losses = compare(stored_counts(conn, version_id, counted), session_counts(frames, counted))
    short = tuple(loss.short() for loss in losses)
    if losses and not replace:
        named = names_files(conn, version_id) if any(loss.what == "names" for loss in losses) else []
        raise ArchiveLossError(refusal(session_id, version, losses, named), short)
    return short
