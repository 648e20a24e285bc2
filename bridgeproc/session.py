"""The whole job as one library call: read inputs, check, score, rank, write outputs."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pandas as pd

from .errors import BridgeprocError, ParseError, ValidationError, format_problems
from .movement import PairNumbering, pair_keys, pair_numbering
from .notation import ResultStyle
from .rank.conventions import CONVENTION_HELP
from .rank import Conventions, parse_scoring_tag, rank_results, standings, winner_groups
from .schema import BOARDS_COLUMNS, empty
from .validate import validate_results


@dataclass(frozen=True)
class Options:
    """Switches of one run that are not ranking conventions (each has a documented default).

    ``conventions`` None means: what the input PBN's ``Scoring`` tag says, else the
    defaults of :class:`bridgeproc.rank.Conventions`; ``overrides`` are then applied
    (the command line's ``--factoring`` etc.).
    """

    result_style: ResultStyle = "auto"
    check_scores: bool = True
    trust: str = "contract"
    encoding: str | None = None
    pair_numbering: PairNumbering = "auto"
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


@dataclass
class Session:
    """Everything a run produced, for the writers, the archive and library users.

    results   one row per result: schema.RESULTS_COLUMNS plus the method's columns
    boards    one row per board: schema.BOARDS_COLUMNS (+ dd_<seat>_<strain>, par_score, par_contract)
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
    numbering: str
    movement: str
    notes: pd.DataFrame | None = None
    options: Options = field(default_factory=Options)
    #: What the archive said (bridgeproc.archive.ArchiveResult), when archived.
    archived: object = None

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


def _suffix(path) -> str:
    return Path(path).suffix.lower()


@dataclass
class _Inputs:
    raws: list[pd.DataFrame] = field(default_factory=list)
    boards: list[pd.DataFrame] = field(default_factory=list)
    names: list[pd.DataFrame] = field(default_factory=list)
    meta: dict = field(default_factory=dict)
    #: Auction and play problems of PBN games (fatal for ``check``, notes for ``score``).
    rules: list[pd.DataFrame] = field(default_factory=list)
    #: Problems found while reading that are as fatal as validation's (e.g. a BWS movement check).
    fatal: list[pd.DataFrame] = field(default_factory=list)
    #: Results from PBN ScoreTables; used unless traveller sheets (or USEBIO/BWS) are given too.
    pbn_raws: list[pd.DataFrame] = field(default_factory=list)
    notes: list[dict] = field(default_factory=list)
    #: Names from a PBN's published TotalScoreTable: used only when no names list is given,
    #: and then for the standings only (a published table is no list to check pairs against).
    fallback_names: list[pd.DataFrame] = field(default_factory=list)
    published_names: list[pd.DataFrame] = field(default_factory=list)
    #: A board's single PBN ScoreTable held several sections: it was scored across the field.
    across_field: bool = False

    def settle(self) -> None:
        """Decide which results count: traveller sheets win over a PBN's own ScoreTables.

        A re-run on last night's output PBN (deals, cached double dummy, old results) plus
        corrected travellers must not count every result twice; the PBN results left out
        are named in a note, so nothing is dropped silently.
        """
        if self.raws:
            for frame in self.pbn_raws:
                self.notes.append({"source": str(frame["source"].iloc[0]), "line": "", "column": "",
                                   "value": "", "message": f"its {len(frame)} ScoreTable results are not used: "
                                   "traveller sheets were given too, and they are the results scored"})
        else:
            self.raws.extend(self.pbn_raws)
        self.pbn_raws = []
        if not self.names:
            self.published_names = self.fallback_names

    def reading_notes(self) -> pd.DataFrame | None:
        from .schema import problems_frame

        return problems_frame(self.notes) if self.notes else None

    def frames(self) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
        """Raw results, boards (one row per board) and names (the lists given, else the
        published ones), concatenated."""
        raw = pd.concat(self.raws, ignore_index=True)
        boards = (pd.concat(self.boards, ignore_index=True).drop_duplicates(subset=["board"])
                  if self.boards else empty(BOARDS_COLUMNS))
        lists = self.names or self.published_names
        names = (pd.concat(lists, ignore_index=True) if lists
                 else pd.DataFrame(columns=["section", "pair", "direction", "names"]))
        return raw, boards, names

    def rule_problems(self) -> pd.DataFrame | None:
        frames = [f for f in self.rules if len(f)]
        return pd.concat(frames, ignore_index=True) if frames else None


def _read_csv(path, options: Options, inputs: _Inputs) -> None:
    from .io.names import read_names
    from .io.travellers import read_travellers

    try:
        inputs.raws.append(read_travellers(path, options.encoding))
    except ParseError as traveller_error:
        try:
            inputs.names.append(read_names(path))
        except ParseError:
            raise traveller_error from None


def _read_xlsx(path, options: Options, inputs: _Inputs) -> None:
    """Travellers (with the names sheet, if the workbook has one), or a names-only workbook."""
    from .io.names import read_names, workbook_names
    from .io.xlsx_travellers import read_travellers_xlsx

    try:
        inputs.raws.append(read_travellers_xlsx(path))
    except ParseError as traveller_error:
        try:
            inputs.names.append(read_names(path))
        except ParseError:
            raise traveller_error from None
        return
    names = workbook_names(path)
    if names is not None:
        inputs.names.append(names)


#: TotalScoreTable directions as written by Ruter, Magic Contest, FFB (N-S, E-W, Ö-V ...).
_DIRECTION = {"N": "NS", "E": "EW", "Ö": "EW", "O": "EW", "Ø": "EW"}


def _published_names(totals: pd.DataFrame) -> pd.DataFrame | None:
    """Pair (or player) names from a PBN's TotalScoreTable, as a names list."""
    pair = next((c for c in ("pairid", "playerid") if c in totals), None)
    names = next((c for c in ("names", "name") if c in totals), None)
    if pair is None or names is None or not len(totals):
        return None
    direction = (totals["direction"].astype("string").str.strip().str[:1].str.upper().map(_DIRECTION)
                 if "direction" in totals and pair == "pairid" else pd.NA)
    return pd.DataFrame({
        "section": totals["section"].astype("string") if "section" in totals else pd.NA,
        "pair": totals[pair].astype("string"),
        "direction": direction,
        "names": totals[names].astype("string"),
    }).astype("string")


def _scored_across_field(pbn) -> bool:
    """True when a board has one game whose ScoreTable holds several sections: the program
    that wrote it compared the board across the field, so bridgeproc does too (unless told)."""
    results = pbn.results
    if not len(results) or "section" not in results or results["section"].nunique() < 2:
        return False
    games = pd.Series([g.get("Board") for g in pbn.games], dtype="string").value_counts()
    single = set(games[games == 1].index)
    sections = results.groupby("board")["section"].nunique()
    return bool((sections[sections.index.isin(single)] > 1).any())


def _read_pbn(path, options: Options, inputs: _Inputs) -> None:
    from .io.pbn import read_pbn

    from .rules import check_games

    pbn = read_pbn(path, options.encoding)
    inputs.rules.append(check_games(pbn))
    published = _published_names(pbn.totals)
    if published is not None:
        inputs.fallback_names.append(published)
    inputs.across_field |= _scored_across_field(pbn)
    if len(pbn.results):
        inputs.pbn_raws.append(pbn.results)
    inputs.boards.append(pbn.boards)
    for key, value in pbn.meta.items():
        inputs.meta.setdefault(key.lower(), value)


def _read_usebio(path, options: Options, inputs: _Inputs) -> None:
    from .io.usebio import read_usebio

    _add_file(read_usebio(path), inputs)


def _read_bws(path, options: Options, inputs: _Inputs) -> None:
    from .io.bws import check_movement, read_bws

    bws = read_bws(path)
    if options.movement_check:
        inputs.fatal.append(check_movement(bws.results, bws.movement))
    _add_file(bws, inputs)


def _add_file(read, inputs: _Inputs) -> None:
    """Add a reader's results, boards, names and meta (USEBIO and BWS files carry all four)."""
    if len(read.results):
        inputs.raws.append(read.results)
    if len(read.boards):
        inputs.boards.append(read.boards)
    if len(read.names):
        inputs.names.append(read.names)
    for key, value in read.meta.items():
        inputs.meta.setdefault(key.lower(), value)


READERS: dict[str, Callable] = {".xml": _read_usebio, ".bws": _read_bws,".csv": _read_csv, ".txt": _read_csv, ".tsv": _read_csv,
                                 ".xlsx": _read_xlsx, ".xlsm": _read_xlsx, ".pbn": _read_pbn}


def _write_csv(session: Session, path) -> None:
    from .io.scored_csv import write_scored_csv

    write_scored_csv(session.results, path)


def _write_xlsx(session: Session, path) -> None:
    from .report.workbook import write_workbook

    write_workbook(session, path)


def _write_pbn(session: Session, path) -> None:
    from .io.pbn import write_scored_pbn

    write_scored_pbn(session, path)


def _write_usebio(session: Session, path) -> None:
    from .io.usebio_writer import write_usebio

    write_usebio(session, path)


WRITERS: dict[str, Callable] = {".csv": _write_csv, ".xlsx": _write_xlsx, ".pbn": _write_pbn, ".xml": _write_usebio}


def read_inputs(paths: list, options: Options = Options()) -> _Inputs:
    """Read every input file by its extension (names lists given with ``options.names`` too)."""
    inputs = _Inputs()
    for path in paths:
        reader = READERS.get(_suffix(path))
        if reader is None:
            raise BridgeprocError(f"{Path(path).name}: cannot read {_suffix(path) or 'files without an extension'}; "
                                  f"give one of {', '.join(READERS)}")
        reader(path, options, inputs)
    inputs.settle()
    if options.names:
        from .io.names import read_names

        inputs.names.extend(read_names(p) for p in options.names)
    return inputs


def _conventions(options: Options, meta: dict, across_field: bool = False) -> Conventions:
    """Profile (or defaults), then what the PBN (``Scoring`` tag, one ScoreTable over several
    sections) says, then single options."""
    conventions = options.conventions or Conventions()
    if across_field:
        conventions = conventions.replace(across_field=True)
    scoring = meta.get("scoring")
    if scoring and scoring not in ("?", "#"):
        try:
            conventions = parse_scoring_tag(scoring, conventions)
        except ValueError:
            pass  # a teams or rubber tag: the pairs defaults stand
    changes = {k: v for k, v in options.overrides.items() if v is not None}
    if options.pair_numbering != "auto":
        changes["pair_numbering"] = options.pair_numbering
    return conventions.replace(**changes) if changes else conventions


def _movement(results: pd.DataFrame, conventions: Conventions, numbering: str) -> str:
    winners = winner_groups(results, conventions)
    kinds = set(winners.values())
    sections = [s for s in winners if s]
    boards = results["board"].nunique()
    tables = int(results.groupby(["section", "board"]).size().max()) if len(results) else 0
    kind = "one winner" if kinds == {"one"} else "two winners (NS and EW ranked apart)" if kinds == {"two"} else "mixed"
    where = f"{len(sections)} sections, " if len(sections) > 1 else ""
    return f"Movement: {where}{tables} tables, {boards} boards, {kind}; pairs numbered {numbering}"


def _check(read: _Inputs, options: Options, numbering: PairNumbering, strict_rules: bool):
    """Validate the read inputs; reading problems and (if ``strict_rules``) auction/play
    problems are listed together with validation's, so every problem is shown at once."""
    raw, boards, names = read.frames()
    extra = [f for f in read.fatal if len(f)]
    rules = read.rule_problems()
    if strict_rules and rules is not None:
        extra.append(rules)
    try:
        checked = validate_results(
            raw, result_style=options.result_style, check_scores=options.check_scores,
            pair_numbering_option=numbering, trust=options.trust, tables=options.tables,
            boards=boards if len(boards) else None,
            names=names if read.names and len(names) else None,
        )
    except ValidationError as exc:
        raise ValidationError(pd.concat([exc.problems, *extra], ignore_index=True)) from None
    if extra:
        raise ValidationError(pd.concat(extra, ignore_index=True))
    return checked


def process_session(inputs: list, outputs: list = (), options: Options = Options(),
                    progress: Callable[[int, int], None] | None = None) -> Session:
    """Load, check, score and rank ``inputs``; write each of ``outputs`` by its extension.

    Nothing is written unless every input is clean (ValidationError lists all problems),
    and each output is written atomically.
    """
    for out in outputs:
        if _suffix(out) not in WRITERS:
            raise BridgeprocError(f"{out}: unknown output type; use one of {', '.join(WRITERS)}")
    read = read_inputs(list(inputs), options)
    if not read.raws:
        raise BridgeprocError("no results in the inputs; give traveller sheets or a PBN with results")
    _, boards, names = read.frames()
    conventions = _conventions(options, read.meta, read.across_field)
    checked = _check(read, options, conventions.pair_numbering, strict_rules=False)
    results = rank_results(checked.results, conventions)
    numbering = pair_numbering(results, conventions.pair_numbering)
    table = standings(results, conventions, names if len(names) else None)
    table.insert(0, "method", conventions.method)
    if options.dd and len(boards) and boards["deal"].notna().any():
        boards = _with_double_dummy(boards, progress)
    notes = [n for n in (read.reading_notes(), checked.notes, read.rule_problems()) if n is not None and len(n)]
    session = Session(results=results, boards=boards, standings=table, names=names, meta=read.meta,
                      conventions=conventions, numbering=numbering,
                      movement=_movement(results, conventions, numbering),
                      notes=pd.concat(notes, ignore_index=True) if notes else None, options=options)
    for out in outputs:
        WRITERS[_suffix(out)](session, out)
    if options.archive:
        from .archive import archive_session

        session.archived = archive_session(session, options.archive_url, **options.archive_as)
    return session


def _with_double_dummy(boards: pd.DataFrame, progress) -> pd.DataFrame:
    """Double-dummy tables and par: reused from the input where known, else solved.

    Par is taken from the input's OptimumScore/OptimumContract when every board with a
    table has both (as bridgeproc's own output PBN does), so a re-run needs no solver.
    """
    from .dd import DD_COLUMNS, dd_tables

    boards = dd_tables(boards, progress)
    with_table = boards[list(DD_COLUMNS)].notna().all(axis=1)
    if {"optimum_score", "optimum_contract"} <= set(boards.columns):
        given = boards["optimum_score"].notna() & boards["optimum_contract"].notna()
        if given[with_table].all():
            from .par import parse_optimum_score

            score = [parse_optimum_score(t) if isinstance(t, str) else None for t in boards["optimum_score"]]
            return boards.assign(par_score=pd.array(score, dtype="Int64"),
                                 par_contracts=boards["optimum_contract"].astype("string"),
                                 par_optimum_score=boards["optimum_score"].astype("string"))
    from .par import par

    return par(boards)


def check_inputs(inputs: list, options: Options = Options()) -> str:
    """Read and check ``inputs`` without ranking or writing; a short summary when clean.

    Raises ValidationError (every problem, auction and play included) or ParseError.
    """
    read = read_inputs(list(inputs), options)
    if not read.raws:
        problems = [f for f in (*read.fatal, read.rule_problems()) if f is not None and len(f)]
        if problems:
            raise ValidationError(pd.concat(problems, ignore_index=True))
        count = pd.concat(read.boards)["board"].nunique() if read.boards else 0
        return f"OK: {count} boards, no results"
    checked = _check(read, options, options.pair_numbering, strict_rules=True)
    results = checked.results
    pairs = len(set(results["ns"].dropna()) | set(results["ew"].dropna()))
    summary = f"OK: {len(results)} results on {results['board'].nunique()} boards, {pairs} pair numbers"
    if checked.notes is not None and len(checked.notes):
        summary += "".join(f"\nNote: {line}" for line in format_problems(checked.notes))
    return summary


def load_results(inputs: list, options: Options = Options()) -> pd.DataFrame:
    """Read, check and score ``inputs``; the ``results`` frame without ranking."""
    read = read_inputs(list(inputs), options)
    return _check(read, options, options.pair_numbering, strict_rules=False).results


__all__ = ["Options", "Session", "process_session", "check_inputs", "load_results", "read_inputs", "describe_conventions"]
