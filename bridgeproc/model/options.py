"""What a run is given: ``Options``, the switches of one run that are not ranking conventions (frozen,
no I/O)."""
from __future__ import annotations

from dataclasses import dataclass, field

from bridgeproc.core.notation import ResultStyle
from bridgeproc.rank import Conventions
from bridgeproc.validate.results import Trust


@dataclass(frozen=True)
class Options:
    """Switches of one run that are not ranking conventions (each has a documented default).

    ``conventions`` None means: what the input PBN's ``Scoring`` tag says, else the
    defaults of :class:`bridgeproc.rank.Conventions`; ``overrides`` are then applied
    (the command line's ``--factoring`` etc.; ``pair_numbering`` among them, which the checks
    use too: every convention is a field of Conventions, declared once).
    """

    result_style: ResultStyle = "auto"
    check_scores: bool = True
    trust: Trust = "contract"
    encoding: str | None = None
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
    #: A movement file (``movement.csv``, as ``bridgeproc movement`` writes it): every result is checked
    #: against it, as a Bridgemate file's results are against its own movement.
    movement: str | None = None
