"""What a simultaneous event produces: the ``SimResult``, the field scored across every club and within
each (frozen, no I/O)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pandas as pd

from bridgeproc.rank import Conventions
from bridgeproc.rank.frequencies import frequencies_of


@dataclass(frozen=True)
class SimResult:
    """A simultaneous event scored across the field and within each club.

    ``results``: the field, one row per result: ``RESULTS_COLUMNS`` with ``section`` as
    ``club/section`` (the club's name alone when it has no sections), ``SIM_COLUMNS`` (club,
    the club's own section), the method's columns scored across the field (``mp_ns`` ...) and
    within each club's sections (``club_mp_ns`` ...). ``field_standings``/``club_standings``:
    ``SIM_STANDINGS_COLUMNS`` (groups ``NS``/``EW``/``ALL`` across the field; per club section
    within clubs). ``frequencies``: the field's frequency table (``SIM_FREQUENCY_COLUMNS``).
    ``numbering``: each club's pair numbering; ``notes``: every note and warning (problem columns).
    """

    results: pd.DataFrame
    boards: pd.DataFrame
    field_standings: pd.DataFrame
    club_standings: pd.DataFrame
    frequencies: pd.DataFrame
    clubs: tuple[str, ...]
    conventions: Conventions
    numbering: Mapping[str, str]
    meta: dict = field(default_factory=dict)
    notes: pd.DataFrame | None = None

    def club_results(self, club: str) -> pd.DataFrame:
        """The club's own results, with the field's and the club's points."""
        return self.results[self.results["club"] == club].reset_index(drop=True)

    def club_frequencies(self, club: str) -> pd.DataFrame:
        """The field's frequency table with ``here``: how many of the club's results have each score."""
        return frequencies_of(self.results, self.frequencies, club)
