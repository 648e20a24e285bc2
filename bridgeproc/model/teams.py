"""What a teams run produces: the ``TeamsSession`` (frozen, no I/O), for the writers, the archive and
library users. The teams layer computes its scored part (``teams.session.TeamsScore``)."""
from __future__ import annotations

from dataclasses import dataclass, field, fields

import pandas as pd

from bridgeproc.errors import summarize_problems
from bridgeproc.model.archived import ArchiveResult
from bridgeproc.schema import problems_frame
from bridgeproc.teams.session import TeamsScore, match_notices, pair_totals


@dataclass(frozen=True)
class TeamsSession(TeamsScore):
    """Everything a teams run produced.

    results    one row per table result: schema.RESULTS_COLUMNS + TEAM_RESULTS_COLUMNS +
               ``ns_team ew_team imp_ns imp_ew`` (empty for match-totals-only input)
    boards     one row per (match, board): schema.TEAM_BOARD_COLUMNS (+ ``bam_home/away``)
    matches    one row per match: schema.TEAM_MATCH_COLUMNS (+ ``bam_home/away``)
    standings  standings.TEAM_STANDINGS_COLUMNS
    published  published match figures read from the input (Ruter ScoreTables), may be empty
    deals      the hand record (``board dealer vul deal``) when the inputs hold exactly one
               set of deals, else None (board numbers repeat from round to round)
    notes      what was read with a note, one problem row each (``source line column value
               message``, schema.PROBLEM_COLUMNS): leads and contracts taken from the Auction and
               Play, double-dummy tables not used; in the order found, for the Checks sheet and
               the terminal
    origin     one line: whose conventions ranked the event and how much of the file's published
               numbers they reproduce (empty when the inputs publish none)
    """

    #: Team -> its players' (name, member number, club number) as the inputs give them (USEBIO).
    members: dict = field(default_factory=dict)
    deals: pd.DataFrame | None = None
    notes: tuple[dict[str, str], ...] = ()
    origin: str = ""
    #: What the archive said, when archived.
    archived: ArchiveResult | None = None

    @classmethod
    def of(cls, score: TeamsScore, **read) -> "TeamsSession":
        """The session of a computed event (:func:`bridgeproc.teams.score_teams`) with what was read with it
        (``members``, ``deals``, ``notes``, ``origin``)."""
        return cls(**{f.name: getattr(score, f.name) for f in fields(TeamsScore)}, **read)

    @property
    def pairs(self) -> pd.DataFrame:
        """Pair totals of the pairwise cross-IMPs; empty when the event has none (the file does not ask for them)."""
        return pair_totals(self.results)

    @property
    def notices(self) -> list[str]:
        """Human-readable list of matches not played and boards scored by convention."""
        return match_notices(self.matches, self.boards)

    def note_lines(self) -> list[str]:
        """The notes as the terminal shows them: grouped by cause, each with its file and line."""
        return summarize_problems(problems_frame(list(self.notes))) if self.notes else []
