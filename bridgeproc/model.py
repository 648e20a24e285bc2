"""What a run is given and what it produces: ``Options`` and the ``Session`` (frozen dataclasses, no
I/O), shared by the pipeline, the writers, the archive and library users."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import pandas as pd

from bridgeproc.core.notation import ResultStyle
from bridgeproc.core.pairs import PairNumbering, pair_keys
from bridgeproc.rank import Conventions
from bridgeproc.rank.conventions import CONVENTION_HELP
from bridgeproc.teams.session import TeamsSession  # noqa: F401  (computed by teams, shared from here)
from bridgeproc.validate.results import Trust


@dataclass(frozen=True)
class Options:
    """Switches of one run that are not ranking conventions (each has a documented default).

    ``conventions`` None means: what the input PBN's ``Scoring`` tag says, else the
    defaults of :class:`bridgeproc.rank.Conventions`; ``overrides`` are then applied
    (the command line's ``--factoring`` etc.).
    """

    result_style: ResultStyle = "auto"
    check_scores: bool = True
    trust: Trust = "contract"
    encoding: str | None = None
    pair_numbering: PairNumbering = "auto"
    #: Rounds in which the EW pairs sat NS (arrow switch), e.g. ``"6-7"``: marks those results of the
    #: Round column switched (core.pairs.arrow_switch_marks); None: only a Switched column says so.
    arrow_switch: str | None = None
    conventions: Conventions | None = None
    overrides: dict = field(default_factory=dict)
    names: tuple[str, ...] = ()
    dd: bool = True
    tables: int | None = None
    movement_check: bool = True
    #: Store the scored session in the archive (the command line does unless --no-archive).
    archive: bool = False
    archive_url: str | None = None
    #: Identity overrides for the archive: event, date, session_id, comment.
    archive_as: dict = field(default_factory=dict)
    #: Archive a version that has fewer results, deals, double-dummy tables or names than the one it follows.
    replace: bool = False
    #: Event headings given by the director (event, date): they beat the input's.
    meta: dict = field(default_factory=dict)
    #: Headings used only where the input has none (site: the club's name).
    meta_defaults: dict = field(default_factory=dict)
    #: A corrections file (CSV or TOML) applied on top of the inputs' results (validate.corrections).
    corrections: str | None = None


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
    #: What the archive said (bridgeproc.archive.ArchiveResult), when archived.
    archived: object = None
    #: The corrections applied to the inputs (schema.CORRECTIONS_COLUMNS, with their reasons); None when none.
    corrections: pd.DataFrame | None = None
    #: The PBN files read (``io.pbn.PbnFile``): the scored PBN is written onto the one it came from.
    sources: tuple = ()
    #: Whose conventions ranked the session and how much of the published numbers they reproduce.
    origin: str = ""

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
