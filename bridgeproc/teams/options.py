"""Conventions of a teams event, each a named option with a documented default."""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Literal

from bridgeproc.teams.vp import WBF2013, VpScale
from bridgeproc.teams.vp_scales import vp_scale

#: Tie-break names understood by :func:`bridgeproc.teams.standings.standings`.
TIE_BREAKS = ("head-to-head-vp", "head-to-head-imps", "imp-quotient", "imp-difference", "imps-for")
#: Round robin (CBAI, reference section 9): VPs among the tied teams, then the IMPs of
#: those matches, then the IMP quotient over all matches.
ROUND_ROBIN_TIE_BREAKS = ("head-to-head-vp", "head-to-head-imps", "imp-quotient")
#: Swiss: tied teams have rarely met, so straight to the IMP quotient.
SWISS_TIE_BREAKS = ("imp-quotient", "imp-difference")

Format = Literal["auto", "swiss", "round-robin", "knockout"]
Scoring = Literal["vp", "imps", "bam"]


@dataclass(frozen=True)
class TeamsOptions:
    """How a teams event is scored and ranked.

    scoring : {"vp", "imps", "bam"}
        Standings by victory points (default), by total IMP margin, or board-a-match
        (1 / 0.5 / 0 per board, :mod:`bridgeproc.teams.bam`).
    scale : VpScale
        IMP margin -> VP conversion; default the WBF 2013 continuous 20-VP scale.
    boards_per_match : int or None
        The match length N used for VPs; None: boards of the match present in the
        input (played in at least one room).
    ave_plus_imps : float
        An artificial score on a board: A+ = +3 IMPs, A = 0, A- = -3 for the board
        (Law 86A; percentage codes p give (p - 50)/10 x this), each side its own.
    unplayed : {"exclude", "average"}
        A match with no board played at either table: ``exclude`` reports it and
        leaves it out of the standings (default); ``average`` gives both teams half
        the VP total (10-10).
    format : {"auto", "swiss", "round-robin", "knockout"}
        Picks the default tie-breaks; auto: round robin when every pair of teams
        met at most once and each team met all the others, else Swiss.
    tie_breaks : tuple of str or None
        Applied in order after the total (see TIE_BREAKS); None: the format's default.
    bam_tie : int
        Board-a-match: a net difference of at most this many points is a tie (0).
    bam_win : float
        Board-a-match points for a board won (a tie half of it): 1 (1 / ½ / 0, the ACBL's) or 2
        (2 / 1 / 0, EBUScoreTeams' point-a-board).
    given : tuple of str
        The options the director chose (``scoring``, ``scale``, ``boards_per_match``, ``tie_breaks``,
        ``bam_win`` ...): never replaced by what the file's published numbers show
        (:mod:`bridgeproc.teams.reproduce`).
    found : tuple of str
        The options bridgeproc set from the file's published numbers, not the director's (``scale``,
        ``boards_per_match``, ``tie_breaks``): what the run's Conventions line says was found.
    """

    scoring: Scoring = "vp"
    scale: VpScale = WBF2013
    boards_per_match: int | None = None
    ave_plus_imps: float = 3.0
    unplayed: Literal["exclude", "average"] = "exclude"
    format: Format = "auto"
    tie_breaks: tuple[str, ...] | None = None
    bam_tie: int = 0
    bam_win: float = 1.0
    #: The masterpoint scale (``rank.masterpoints``): auto (the one the file names), none, a name or a .toml file.
    masterpoints: str = "auto"
    given: tuple[str, ...] = ()
    found: tuple[str, ...] = ()

    @property
    def scale_given(self) -> bool:
        """The director chose the VP scale (``--vp-scale``)."""
        return "scale" in self.given

    def replace(self, **changes) -> "TeamsOptions":
        """A copy with ``changes`` applied."""
        return replace(self, **changes)

    def describe(self) -> list[tuple[str, str]]:
        """(option, value) for the workbook's conventions sheet."""
        out = []
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "scale":
                value = value.describe()
            elif f.name in ("found", "given"):
                value = ", ".join(value) or "none"
            elif f.name == "tie_breaks":
                value = ", ".join(value) if value else "format default"
            out.append((f.name, "" if value is None else str(value)))
        return out


def options_from_text(*, scoring: str | None = None, vp_scale_spec: str | None = None, boards_per_match: int | None = None,
                      ave_plus_imps: float | None = None, unplayed: str | None = None, format: str | None = None,
                      tie_breaks: str | None = None, bam_tie: int | None = None,
                      bam_points: str | float | None = None, masterpoints: str | None = None) -> TeamsOptions:
    """TeamsOptions from command-line values (None keeps the default).

    ``vp_scale_spec`` is ``wbf2013`` or the path of a VP table CSV; ``tie_breaks`` a
    comma-separated list such as ``head-to-head-vp,imp-quotient`` (``none`` for none).
    """
    changes: dict = {}
    if scoring:
        changes["scoring"] = scoring
    if vp_scale_spec:
        changes["scale"] = vp_scale(vp_scale_spec)
    if boards_per_match:
        changes["boards_per_match"] = int(boards_per_match)
    if ave_plus_imps is not None:
        changes["ave_plus_imps"] = float(ave_plus_imps)
    if unplayed:
        changes["unplayed"] = unplayed
    if format:
        changes["format"] = format
    if tie_breaks is not None:
        words = [w.strip() for w in tie_breaks.split(",") if w.strip() and w.strip() != "none"]
        changes["tie_breaks"] = tuple(words)
    if bam_tie is not None:
        changes["bam_tie"] = int(bam_tie)
    if bam_points is not None:
        changes["bam_win"] = float(bam_points)
    if masterpoints is not None:
        changes["masterpoints"] = masterpoints
    return TeamsOptions(**changes, given=tuple(changes))
