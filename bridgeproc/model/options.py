"""What a run is given, one frozen type per stage (no I/O): how the inputs are read (:class:`ReadOptions`),
how they are checked (:class:`CheckOptions`), which conventions rank them (:class:`ConventionChoice`),
whether and how the session is archived (:class:`ArchiveOptions`) and the headings the director gives
(:class:`Headings`); :class:`Options` carries one of each, and each stage is handed only its own."""
from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from bridgeproc.core.notation import ResultStyle
from bridgeproc.rank import Conventions
from bridgeproc.rank.conventions import DECLARED, EXACT
from bridgeproc.validate.results import Trust


@dataclass(frozen=True)
class ReadOptions:
    """How the input files are read: their text encoding (None: found from the file), the names lists
    given beside them, and the players' lists of handicaps and of masterpoint holdings (for strata)."""

    encoding: str | None = None
    names: tuple[str, ...] = ()
    handicaps: str | None = None
    holdings: str | None = None


@dataclass(frozen=True)
class CheckOptions:
    """How the results are checked and typed (each has a documented default)."""

    #: How a bare number in a Result column is read (core.notation.ResultStyle).
    result_style: ResultStyle = "auto"
    #: Compare the scores the inputs write with the contracts'.
    check_scores: bool = True
    #: When a written score and the contract disagree: report it (contract), or trust the score.
    trust: Trust = "contract"
    #: Rounds in which the EW pairs sat NS (arrow switch), e.g. ``"6-7"``: marks those results of the
    #: Round column switched (core.pairs.arrow_switch_marks); None: only a Switched column says so.
    arrow_switch: str | None = None
    #: Tables per section (None: from the Table column or the pairs).
    tables: int | None = None
    #: Check the results against the movement a Bridgemate file carries.
    movement_check: bool = True
    #: A movement file (``movement.csv``, as ``bridgeproc movement`` writes it): every result is checked
    #: against it, as a Bridgemate file's results are against its own movement.
    movement: str | None = None
    #: A corrections file (CSV or TOML) applied on top of the inputs' results (validate.corrections).
    corrections: str | None = None


class ConventionChanges(Mapping[str, object]):
    """Conventions the director gave one by one (``--factoring none``), checked when made: each name a
    declared convention and each value one it allows (``"exact"`` for ``--mp-decimals exact``); a name
    given as None was not given."""

    def __init__(self, changes: Mapping[str, object] | None = None) -> None:
        given = {k: v for k, v in (changes or {}).items() if v is not None}
        unknown = sorted(set(given) - set(DECLARED))
        if unknown:
            raise ValueError(f"not a convention: {', '.join(unknown)}")
        Conventions().replace(**{k: (None if v == EXACT else v) for k, v in given.items()})  # checks every value
        self._changes = given

    def __getitem__(self, name: str) -> object:
        return self._changes[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._changes)

    def __len__(self) -> int:
        return len(self._changes)

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._changes.items(), key=lambda kv: kv[0])))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self._changes) == dict(other)

    def __repr__(self) -> str:
        return f"ConventionChanges({self._changes!r})"

    def applied(self, conventions: Conventions) -> Conventions:
        """``conventions`` with these changes (``exact`` decimals as None)."""
        changes = {k: (None if v == EXACT else v) for k, v in self._changes.items()}
        return conventions.replace(**changes) if changes else conventions


@dataclass(frozen=True)
class ConventionChoice:
    """Which conventions rank the session. ``profile`` None means: what the input says (its producer, its
    PBN ``Scoring`` tag), else the defaults of :class:`bridgeproc.rank.Conventions`; ``changes`` are then
    applied (``pair_numbering`` among them, which the checks use too)."""

    profile: Conventions | None = None
    changes: ConventionChanges = field(default_factory=ConventionChanges)

    def __post_init__(self) -> None:
        if not isinstance(self.changes, ConventionChanges):
            object.__setattr__(self, "changes", ConventionChanges(self.changes))

    @property
    def chosen(self) -> bool:
        """True when the director gave a profile or any convention (command line or configuration file)."""
        return self.profile is not None or bool(self.changes)

    @property
    def pair_numbering(self) -> str:
        """The pair numbering the director gave (``auto`` when none): the checks need it before ranking."""
        return str(self.changes.get("pair_numbering") or "auto")


@dataclass(frozen=True)
class ArchiveOptions:
    """Whether the scored session is stored in the archive, where, as what and whether it may replace a
    fuller version."""

    #: Store the session (the command line does unless --no-archive).
    store: bool = False
    #: The archive's database URL or SQLite file (None: the default archive).
    url: str | None = None
    #: Identity overrides: event, date, session_id, comment.
    identity: Mapping[str, str] = field(default_factory=dict)
    #: Archive a version that has fewer results, deals, double-dummy tables or names than the one it follows.
    replace: bool = False


@dataclass(frozen=True)
class Headings:
    """Event headings the director gives: ``given`` beat the input's (event, date), ``defaults`` are used
    only where the input has none (site: the club's name)."""

    given: Mapping[str, str] = field(default_factory=dict)
    defaults: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Options:
    """Everything one run is given, by stage; ``dd`` False skips solving double dummy."""

    read: ReadOptions = field(default_factory=ReadOptions)
    check: CheckOptions = field(default_factory=CheckOptions)
    ranking: ConventionChoice = field(default_factory=ConventionChoice)
    archive: ArchiveOptions = field(default_factory=ArchiveOptions)
    headings: Headings = field(default_factory=Headings)
    dd: bool = True

    def but(self, **stages: object) -> Options:
        """A copy with some fields of some stages changed: ``options.but(archive={"store": False}, dd=False)``."""
        changes: dict[str, object] = {}
        for name, value in stages.items():
            current = getattr(self, name)
            changes[name] = dataclasses.replace(current, **value) if isinstance(value, dict) else value
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def record(self) -> dict[str, object]:
        """The options as plain values, stage by stage (what the archive stores with a version)."""
        values = dataclasses.asdict(dataclasses.replace(self, ranking=ConventionChoice()))
        values["ranking"] = {"profile": None if self.ranking.profile is None else self.ranking.profile.describe(),
                             "changes": dict(self.ranking.changes)}
        return values

    @classmethod
    def from_record(cls, values: Mapping[str, object]) -> Options:
        """The options :meth:`record` gave; also the one-level form archives stored before the options
        were split by stage (``names``, ``overrides``, ``archive_url`` ... side by side). A value no longer
        known is left out."""
        staged = values if isinstance(values.get("read"), Mapping) else _staged(values)
        parts: dict[str, object] = {}
        for stage in dataclasses.fields(cls):
            given = staged.get(stage.name)
            if stage.name == "dd":
                parts["dd"] = bool(given) if given is not None else True
            elif stage.name == "ranking" and isinstance(given, Mapping):
                profile = given.get("profile")
                known_conventions = {f.name for f in dataclasses.fields(Conventions)}
                parts["ranking"] = ConventionChoice(
                    None if not isinstance(profile, Mapping) else
                    Conventions(**{k: v for k, v in profile.items() if k in known_conventions}),
                    ConventionChanges({k: v for k, v in dict(given.get("changes") or {}).items() if k in DECLARED}))
            elif isinstance(given, Mapping):
                kind = _STAGE_TYPES[stage.name]
                known = {f.name for f in dataclasses.fields(kind)}
                fields = {k: (tuple(v) if isinstance(v, list) else v) for k, v in given.items() if k in known}
                parts[stage.name] = kind(**fields)
        return cls(**parts)  # type: ignore[arg-type]


_STAGE_TYPES: dict[str, type] = {"read": ReadOptions, "check": CheckOptions, "archive": ArchiveOptions,
                                 "headings": Headings}
#: The one-level options of archives stored before the split: name -> (stage, field).
_FLAT = {"encoding": ("read", "encoding"), "names": ("read", "names"),
         **{k: ("check", k) for k in ("result_style", "check_scores", "trust", "arrow_switch", "tables",
                                      "movement_check", "movement", "corrections")},
         "conventions": ("ranking", "profile"), "overrides": ("ranking", "changes"),
         "archive": ("archive", "store"), "archive_url": ("archive", "url"), "archive_as": ("archive", "identity"),
         "replace": ("archive", "replace"), "meta": ("headings", "given"), "meta_defaults": ("headings", "defaults"),
         "dd": ("dd", "")}


def _staged(flat: Mapping[str, object]) -> dict[str, object]:
    """The one-level options of an older archive, put stage by stage."""
    staged: dict[str, dict] = {}
    out: dict[str, object] = {}
    for name, value in flat.items():
        if name not in _FLAT:
            continue
        stage, field_name = _FLAT[name]
        if stage == "dd":
            out["dd"] = value
        else:
            staged.setdefault(stage, {})[field_name] = value
    return {**out, **staged}
