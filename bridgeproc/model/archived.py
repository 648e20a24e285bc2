"""``ArchiveResult``: the version a run stored in the archive (frozen, no I/O), carried by every run's result."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ArchiveResult:
    """What :func:`archive_session` did: ``created`` False means the data equalled the latest version.

    ``losses`` are what this version has less of than the one it replaced (stored
    because ``replace`` was given), e.g. ``("names for 26 pairs -> 0",)``. ``complete`` False:
    stored incomplete, not yet the latest (:func:`complete_version` makes it so); ``resumed``:
    the version is one an earlier run of the same data left incomplete, completed by this one.
    """

    session_id: str
    version: int
    created: bool
    url: str = ""
    dated: bool = True  # False: the input had no date and none was given, so today's was used
    losses: tuple[str, ...] = ()
    complete: bool = True
    resumed: bool = False
    #: The archive as a director recognises it (the SQLite file, or the URL without its password).
    where: str = ""

    def __str__(self) -> str:
        state = "archived as" if self.created else "unchanged since"
        text = f"{state} {self.session_id} version {self.version} in {self.where or self.url}"
        if not self.complete:
            text += " (incomplete until every output is written)"
        elif self.resumed:
            text += " (completing the version an interrupted run left incomplete)"
        if self.losses:
            text += f" (replacing version {self.version - 1}: {', '.join(self.losses)})"
        if not self.dated:
            text += (f" (the input has no date: to archive a correction as the next version on another day, "
                     f"give the session id {self.session_id})")
        return text
