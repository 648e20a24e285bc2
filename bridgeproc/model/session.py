"""What a pairs run produces: the ``Session`` (frozen, no I/O), shared by the pipeline, the writers,
the archive and library users."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import pandas as pd

from bridgeproc.core.pairs import pair_keys
from bridgeproc.model.archived import ArchiveResult
from bridgeproc.model.options import Options
from bridgeproc.rank import Conventions
from bridgeproc.rank.conventions import CONVENTION_HELP


@dataclass(frozen=True)
class Session:
    """Everything a run produced, for the writers, the archive and library users.

    results   one row per result: schema.RESULTS_COLUMNS plus the method's columns
    boards    one row per board: schema.BOARDS_COLUMNS (+ dd_<seat>_<strain>, par_score, par_contracts)
    standings one row per pair and winner group: ``method`` + schema.STANDINGS_COLUMNS
    names     section, pair, direction, names (as read from a names list; may be empty)
    meta      event, site, date, scoring ... from the input PBN (may be empty)
    """

    results: pd.DataFrame
    boards: pd.DataFrame
    standings: pd.DataFrame
    names: pd.DataFrame
    meta: dict
    conventions: Conventions
    numbering: Literal["shared", "per-direction"]
    movement: str
    notes: pd.DataFrame | None = None
    options: Options = field(default_factory=Options)
    #: What the archive said, when archived.
    archived: ArchiveResult | None = None
    #: The corrections applied to the inputs (schema.CORRECTIONS_COLUMNS, with their reasons); None when none.
    corrections: pd.DataFrame | None = None
    #: The PBN files read (``io.pbn.PbnFile``): the scored PBN is written onto the one it came from.
    sources: tuple = ()
    #: Whose conventions ranked the session and how much of the published numbers they reproduce.
    origin: str = ""
    #: The notes the plausibility checks found (leads, double dummy, the field: warnings, never refusals),
    #: as the run found them; None for a session made otherwise (the check report then finds them again).
    warnings: pd.DataFrame | None = None

    @property
    def decided(self) -> Conventions:
        """The conventions the session was ranked by, as decided: ``conventions`` with the pair numbering
        the run settled on (``conventions`` keeps what was asked, ``auto`` included, as the archive
        stores it), so that an event or a re-ranking never works it out again."""
        return self.conventions.replace(pair_numbering=self.numbering)

    @property
    def pair_names(self) -> dict[str, str]:
        """Pair key (see movement.pair_keys) -> names, for the score cards."""
        if self.names is None or not len(self.names):
            return {}
        frame = pd.DataFrame({"section": self.names.get("section", pd.Series([""] * len(self.names))).fillna(""),
                              "ns": self.names["pair"], "ew": self.names["pair"]})
        ns_key, ew_key = pair_keys(frame, self.numbering)
        direction = self.names["direction"].fillna("") if "direction" in self.names else pd.Series([""] * len(frame))
        key = ns_key.where(direction != "EW", ew_key) if self.numbering == "per-direction" else ns_key
        return dict(zip(key, self.names["names"].fillna("")))

    @property
    def conventions_used(self) -> list[tuple[str, object, str]]:
        """(option, value, meaning) for every convention, as printed in the workbook."""
        return describe_conventions(self.conventions)


def describe_conventions(conventions: Conventions) -> list[tuple[str, object, str]]:
    """(option, value, meaning) for each convention of a run."""
    return [(name, "" if value is None else value, CONVENTION_HELP.get(name, ""))
            for name, value in conventions.describe().items()]
