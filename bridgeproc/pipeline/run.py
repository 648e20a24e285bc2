"""The computing half of a run: read inputs, check, score, rank, solve double dummy (no writing)."""
from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from bridgeproc.analysis.dd import DD_COLUMNS, DDUnavailableError, dd_tables
from bridgeproc.analysis.par import optimum_score_problem, par, parse_optimum_score
from bridgeproc.core.numbering import PairNumbering
from bridgeproc.core.pairs import arrow_switch_marks
from bridgeproc.errors import (
    BridgeprocError,
    ParseError,
    SetupError,
    UsageError,
    ValidationError,
    likely_causes,
)
from bridgeproc.io.sheets.players import read_player_values
from bridgeproc.model import CheckReport, Options, Session
from bridgeproc.pipeline.inputs import read_inputs
from bridgeproc.pipeline.outputs import output_types
from bridgeproc.pipeline.publish import check_outputs, publish
from bridgeproc.pipeline.read import Inputs, check_input_files
from bridgeproc.rank import Conventions, is_individual, parse_scoring_tag, rank_results, standings, winner_groups
from bridgeproc.rank.conventions import SEARCH_FIELDS, producer
from bridgeproc.rank.handicaps import strata_limits, with_handicaps, with_strata
from bridgeproc.rank.masterpoints import with_masterpoints
from bridgeproc.rank.published import awards_agreement, published_agreement, published_differences
from bridgeproc.rank.reproduce import Reproduction, option_flags, reproduce, summary
from bridgeproc.schema import PROBLEM_COLUMNS, RESULTS_COLUMNS, STANDINGS_COLUMNS, empty, problems_frame
from bridgeproc.scoring.results import score_results
from bridgeproc.validate.corrections import mark_corrected, uncompared
from bridgeproc.validate.plausibility import check_plausibility
from bridgeproc.validate.results import check_scored, type_results


def session_conventions(options: Options, meta: dict, across_field: bool = False) -> Conventions:
    """The conventions a session is ranked by: the producer's profile (a USEBIO file's
    ``PROGRAM_NAME``: Compscore), then what the file says (``Scoring`` tag, one ScoreTable
    over several sections), then the profile the director chose (it keeps the file's
    method), then single options."""
    maker = producer(meta.get("program"))
    conventions = maker.conventions if maker else Conventions()
    if across_field:
        conventions = conventions.replace(across_field=True)
    scoring = meta.get("scoring")
    if scoring and scoring not in ("?", "#"):
        try:
            conventions = parse_scoring_tag(scoring, conventions)
        except ValueError:
            pass  # a teams or rubber tag: the pairs defaults stand
    if options.ranking.profile is not None:
        # A profile the director chose beats the file's conventions; the file still names the method.
        conventions = options.ranking.profile.replace(method=conventions.method, across_field=conventions.across_field)
    return options.ranking.changes.applied(conventions)


def _movement(results: pd.DataFrame, conventions: Conventions, numbering: str) -> str:
    winners = winner_groups(results, conventions)
    kinds = set(winners.values())
    sections = [s for s in winners if s]
    boards = results["board"].nunique()
    tables = int(results.groupby(["section", "board"]).size().max()) if len(results) else 0
    kind = "one winner" if kinds == {"one"} else "two winners (NS and EW ranked apart)" if kinds == {"two"} else "mixed"
    where = f"{len(sections)} sections, " if len(sections) > 1 else ""
    who = "an individual: players ranked one by one" if is_individual(results) else f"pairs numbered {numbering}"
    return f"Movement: {where}{_count(tables, 'table')}, {_count(boards, 'board')}, {kind}; {who}"


def _count(n: int, thing: str) -> str:
    """``1 board``, ``26 boards``: a count as a member reads it."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def _named_rows(raw: pd.DataFrame, problems: list[pd.DataFrame]) -> np.ndarray | None:
    """The rows of ``raw`` the ``problems`` name (by source and line; a cell ``C5`` is line 5)."""
    named = [p for p in problems if len(p)]
    if not named or not len(raw):
        return None
    found = pd.concat(named, ignore_index=True)
    keys = set(zip(found["source"].astype(str), found["line"].astype(str).str.replace(r"^[A-Z]+", "", regex=True)))
    lines = raw["line"].astype("string").fillna("")
    return np.fromiter(((s, n) in keys for s, n in zip(raw["source"].astype(str), lines)), dtype=bool, count=len(raw))


def validate_inputs(read: Inputs, options: Options, numbering: PairNumbering, strict_rules: bool):
    """The read inputs validated (arrow switches marked first); reading problems and (if
    ``strict_rules``) auction/play problems are listed with validation's, so every problem
    is shown at once."""
    raw, boards, names = read.frames()
    try:
        raw, contradicted, unplaced = arrow_switch_marks(raw, options.check.arrow_switch)
    except ValueError as exc:  # not rounds, or no Round column: the call cannot be right for these files
        raise UsageError(str(exc)) from None
    extra = [f for f in (*read.fatal, contradicted) if len(f)]
    rules = read.rule_problems()
    if strict_rules and rules is not None:
        extra.append(rules)
    try:
        typed = type_results(
            raw, result_style=options.check.result_style, check_scores=options.check.check_scores,
            pair_numbering_option=numbering, trust=options.check.trust, tables=options.check.tables,
            boards=boards if len(boards) else None,
            names=names if read.names and len(names) else None,
            seated=(options.check.movement_check and bool(read.movements)) or options.check.movement is not None,
            misplaced=_named_rows(raw, read.seating),
        )
        checked = check_scored(typed, score_results(typed.results, typed.boards))
    except ValidationError as exc:
        problems = mark_corrected(exc.problems, read.corrections)  # a wrong correction is named
        raise ValidationError(pd.concat([problems, *extra], ignore_index=True)) from None
    if extra:
        raise ValidationError(pd.concat(extra, ignore_index=True))
    if len(unplaced):
        checked = replace(checked, notes=pd.concat([unplaced, checked.notes], ignore_index=True))
    return checked


class _Stages:
    """Times each stage of a run for whoever asked (``--verbose``)."""

    def __init__(self, report: Callable[[str, float], None] | None) -> None:
        self.report, self.mark = report, time.perf_counter()

    def __call__(self, name: str) -> None:
        now = time.perf_counter()
        if self.report is not None:
            self.report(name, now - self.mark)
        self.mark = now


def build_session(inputs: list, options: Options = Options(),
                  progress: Callable[[int, int], None] | None = None,
                  stages: Callable[[str, float], None] | None = None) -> Session:
    """Read, check, score and rank ``inputs`` and solve their hand records: computes only,
    writes nothing. ``progress(done, total)`` follows the double-dummy solver;
    ``stages(name, seconds)`` is told as each stage ends.

    Raises ValidationError (every problem listed) or ParseError for bad input.
    """
    stage = _Stages(stages)
    read = read_inputs(list(inputs), options)
    read.refuse_teams()
    if not read.raws:
        return _hand_records_session(read, options, progress, stage)
    _, boards, names = read.frames()
    stage("read")
    conventions = session_conventions(options, read.meta, read.across_field)
    checked = validate_inputs(read, options, conventions.pair_numbering, strict_rules=False)
    stage("checked")
    # Pair numbering was decided once, by the checks; the ranking gets the answer, not "auto" to decide again.
    numbering = checked.numbering
    raw = read.frames()[0]
    published = pd.concat(read.published_totals, ignore_index=True) if read.published_totals else None
    reproduction = None
    if not director_chose(options):  # the file's published numbers are the spec
        reproduction = reproduce(checked.results, raw, conventions, numbering, published,
                                 names if len(names) else None, methods=other_methods(conventions.method))
        conventions = reproduction.conventions
        if reproduction.compared:
            stage("conventions found")
    decided = conventions.replace(pair_numbering=numbering)
    results = rank_results(checked.results, decided)
    # scored by seat; standings credit an arrow-switched row's points to the pairs by their numbers
    table = standings(results, decided, names if len(names) else None)
    table.insert(0, "method", conventions.method)
    table, awarded, scale = with_masterpoints(table, conventions.masterpoints, read.meta, published,
                                              individual=is_individual(results))
    table, beside = _handicapped_and_strata(table, names if len(names) else None, options, decided)
    stage("scored and ranked")
    boards, missing_dd = _solved(_played_or_dealt(boards, results), options, progress, stage)
    meta = _meta(read, options)
    if scale is not None:  # the awards' scale and colour, for the outputs (USEBIO's MASTER_POINT_TYPE)
        meta = {**meta, "masterpoint_scale": meta.get("masterpoint_scale") or "Club",
                "masterpoint_type": meta.get("masterpoint_type") or scale.point_type}
    searched = reproduction.searched() if reproduction is not None and not reproduction.exact else None
    differences = (published_differences(raw, results, conventions.method, table, published, searched=searched,
                                         reproduced=reproduction is not None and reproduction.exact)
                   if read.corrections is None or not len(read.corrections) else uncompared(read.corrections))
    suspicious = check_plausibility(results, boards)  # leads, double dummy, the field: warnings
    awards_note = problems_frame([{"source": "bridgeproc", "message": m} for m in [awarded, *beside] if m]) \
        if awarded or beside else None
    notes = [n for n in (read.reading_notes(), checked.notes, suspicious, read.rule_problems(), differences,
                         missing_dd, awards_note) if n is not None and len(n)]
    session = Session(results=results, boards=boards, standings=table, names=names, meta=meta,
                      conventions=conventions, numbering=numbering,
                      movement=_movement(results, decided, numbering),
                      notes=pd.concat(notes, ignore_index=True) if notes else None, options=options,
                      corrections=read.corrections if read.corrections is not None and len(read.corrections)
                      else None, sources=tuple(read.pbn_files),
                      origin=conventions_origin(read.meta, reproduction, conventions, read.across_field, raw,
                                                results, table, published),
                      warnings=suspicious if suspicious is not None else problems_frame([]))
    return session


def _handicapped_and_strata(table: pd.DataFrame, names: pd.DataFrame | None, options: Options,
                            conventions: Conventions) -> tuple[pd.DataFrame, list[str]]:
    """The standings with the handicapped ranking (``--handicaps``) and the strata (``--holdings``) beside the
    scratch one, and what the lists lacked."""
    notes: list[str] = []
    if options.read.handicaps:
        listed = read_player_values(options.read.handicaps, options.read.encoding)
        table, more = with_handicaps(table, names, listed, conventions.handicap_style)
        notes += [f"handicaps ({Path(options.read.handicaps).name}): {m}" for m in more]
    if options.read.holdings:
        try:
            limits = strata_limits(conventions.strata)
        except ValueError as exc:
            raise UsageError(f"--{exc}") from None
        listed = read_player_values(options.read.holdings, options.read.encoding)
        table, more = with_strata(table, names, listed, limits)
        notes += [f"strata ({Path(options.read.holdings).name}): {m}" for m in more]
    return table, notes


def director_chose(options: Options) -> bool:
    """True when the director gave a profile or any convention (command line or configuration file)."""
    return options.ranking.chosen


def other_methods(method: str) -> tuple[str, ...]:
    """The other methods a file of ``method`` may have been ranked by: an IMP file's other IMP method."""
    return tuple(m for m in ("cross-imp", "butler") if m != method) if method != "mp" else ()


def conventions_origin(meta: dict, reproduction: Reproduction | None, conventions: Conventions, across_field: bool,
                       raw: pd.DataFrame, results: pd.DataFrame, table: pd.DataFrame,
                       published: pd.DataFrame | None) -> str:
    """One line: whose conventions ranked the session and how much of the published numbers they
    reproduce (``Conventions: PairsScorer's with --across-field, reproducing MP_NS 335/335, ...``)."""
    maker = producer(meta.get("program"))
    whose = f"{maker.name}'s" if maker else "bridgeproc's defaults"
    if reproduction is not None and not reproduction.compared:
        # nothing published to compare: say whose conventions ranked it when they are not the defaults
        own = maker is not None and not option_flags(conventions, session_conventions(Options(), meta, across_field))
        defaults = Conventions()
        base = conventions.replace(**{f: getattr(defaults, f) for f in SEARCH_FIELDS.get(conventions.method, ())})
        flags = option_flags(conventions, base) if own else []
        return f"Conventions: {whose} ({' '.join(flags)}); the file publishes no numbers to compare" if flags else ""
    if reproduction is None:
        given = option_flags(conventions, session_conventions(Options(), meta, across_field))
        kinds = published_agreement(raw, results, str(table["method"].iloc[0]) if len(table) else "mp", table,
                                    published)
        head = "Conventions: as given" + (f" ({' '.join(given)})" if given else "")
    else:
        kinds = reproduction.kinds
        changes = option_flags(reproduction.conventions, reproduction.start)
        head = f"Conventions: {whose}" + (f" with {' '.join(changes)} (found from the file's numbers)" if changes
                                          else "")
    if not len(kinds):
        return ""
    done = "reproducing" if (kinds["agree"] == kinds["compared"]).all() else "the closest found, reproducing"
    awarded = awards_agreement(table, published) if reproduction is not None else None
    # the search ranks without awards: the awards the found conventions give are compared after it
    awards = f", masterpoint awards {awarded[0]}/{awarded[1]}" if awarded is not None else ""
    return f"{head}, {done} {summary(kinds)}{awards}"


def _solved(boards: pd.DataFrame, options: Options, progress, stage) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """The boards with double dummy and par (when asked and there are deals), and the note
    saying why not when the solver cannot load."""
    missing_dd = None
    if options.dd and len(boards) and boards["deal"].notna().any():
        try:
            boards = _with_double_dummy(boards, progress)
        except DDUnavailableError as exc:  # the solver is compiled: say so, write the rest
            missing_dd = problems_frame([{"source": "bridgeproc", "message":
                f"hand records written without double-dummy tables and par: {exc}"}])
        stage("double dummy and par")
    return boards, missing_dd


def _meta(read: Inputs, options: Options) -> dict:
    """The event's tags: the files', the club's defaults where the files say nothing, the director's."""
    meta = dict(read.meta)
    meta.update({k: v for k, v in options.headings.defaults.items() if meta.get(k) in (None, "", "?", "#")})
    meta.update(options.headings.given)
    return meta


def _hand_records_session(read: Inputs, options: Options, progress, stage) -> Session:
    """A run on hand records alone (Dealmaster Pro, BridgeComposer): no results to rank, but the
    hand records, double dummy and par are outputs like any other. Reading problems still refuse."""
    _, boards, names = read.frames()
    if not len(boards) or not boards["deal"].notna().any():
        scoring = str(read.meta.get("scoring") or read.meta.get("competition") or "")
        if "teams" in scoring.lower():  # Ruter's teams files: match results only
            raise BridgeprocError(f"the inputs hold a teams event ([Scoring \"{scoring}\"]) and no "
                                  "pairs results or deals; score it with `bridgeproc teams`")
        raise BridgeprocError("no results and no deals in the inputs; give traveller sheets, a PBN with results "
                              "or a hand record")
    problems = [f for f in read.fatal if len(f)]
    if problems:
        raise ValidationError(pd.concat(problems, ignore_index=True))
    stage("read")
    boards, missing_dd = _solved(boards, options, progress, stage)
    conventions = session_conventions(options, read.meta, read.across_field)
    standings_frame = empty(STANDINGS_COLUMNS)
    standings_frame.insert(0, "method", pd.Series([], dtype="string"))
    note = problems_frame([{"source": "bridgeproc", "message": f"hand records only: {_count(len(boards), 'board')}, no results "
                            "to rank (the outputs carry the deals, double dummy and par)"}])
    notes = [n for n in (read.reading_notes(), read.rule_problems(), missing_dd, note) if n is not None and len(n)]
    return Session(results=empty(RESULTS_COLUMNS), boards=boards, standings=standings_frame, names=names,
                   meta=_meta(read, options), conventions=conventions, numbering="shared",
                   movement=f"Hand records: {_count(len(boards), 'board')}, no results",
                   notes=pd.concat(notes, ignore_index=True), options=options, sources=tuple(read.pbn_files))


def _with_double_dummy(boards: pd.DataFrame, progress) -> pd.DataFrame:
    """Double-dummy tables and par: reused from the input where known, else solved.

    Par is taken from the input's OptimumScore/OptimumContract when every board with a
    table has both (as bridgeproc's own output PBN does), so a re-run needs no solver.
    A table that cannot be the deal's is solved again (``dd.implausible_tables``; the reader
    has said so in a note), and an OptimumScore that is not a side and a score is not used.
    """
    boards = dd_tables(boards, progress)
    with_table = boards[list(DD_COLUMNS)].notna().all(axis=1)
    if {"optimum_score", "optimum_contract"} <= set(boards.columns):
        valid = pd.Series([isinstance(t, str) and optimum_score_problem(t) is None
                           for t in boards["optimum_score"].astype("object")], index=boards.index)
        given = valid & boards["optimum_contract"].notna()
        if given[with_table].all():
            score = [parse_optimum_score(t) if ok else None for t, ok in zip(boards["optimum_score"], valid)]
            return boards.assign(par_score=pd.array(score, dtype="Int64"),
                                 par_contracts=boards["optimum_contract"].astype("string"),
                                 par_optimum_score=boards["optimum_score"].astype("string").where(valid))
    return par(boards)


def _kind(kind: str, frames: list) -> pd.DataFrame:
    """``frames`` (problems frames or None) as one frame with ``kind`` in front."""
    found = [f for f in frames if f is not None and len(f)]
    frame = pd.concat(found, ignore_index=True) if found else problems_frame([])
    return frame.assign(kind=pd.array([kind] * len(frame), dtype="string"))[["kind", *PROBLEM_COLUMNS]]


def _refused(exc: BridgeprocError) -> pd.DataFrame:
    """The problems of an error that refuses the inputs: a ValidationError's frame, else one row."""
    if isinstance(exc, ValidationError):
        return exc.problems
    if isinstance(exc, ParseError):
        return problems_frame([{"source": exc.source, "line": exc.line, "message": exc.message}])
    return problems_frame([{"source": "bridgeproc", "message": str(exc)}])


def _played_or_dealt(boards: pd.DataFrame, results: pd.DataFrame) -> pd.DataFrame:
    """The boards a session publishes: those with a deal or a result. A game of the hand record with
    neither (a Board tag alone) told the checks its board exists; there is nothing of it to show."""
    deal = boards["deal"].astype("string").str.strip().fillna("") if "deal" in boards else None
    if deal is None or (deal != "").all():
        return boards
    kept = (deal != "").to_numpy() | boards["board"].isin(results["board"]).to_numpy()
    return boards if kept.all() else boards[kept].reset_index(drop=True)


def check_report(inputs: list, options: Options = Options(),
                 progress: Callable[[int, int], None] | None = None) -> CheckReport:
    """Read and check ``inputs`` without ranking or writing: every error, warning and note, each
    with its position. Errors are returned, not raised (:meth:`CheckReport.raise_errors`), so a
    report can be written for a file that is refused. With ``options.dd`` double dummy is solved
    for the deals given, as ``score`` does, so that a result far from it is a warning here too
    (check is the director's second pair of eyes; the command line solves for ``-o`` or ``--dd``);
    without, only tables the files give are used. ``progress(done, total)`` follows the solver.

    A call that cannot be right (an input twice, an unknown type: UsageError) and a missing
    package (SetupError) are raised: they are not the inputs' problems.
    """
    given = tuple(str(p) for p in inputs)
    read: Inputs | None = None
    try:
        read = read_inputs(list(inputs), options)
        if not read.raws:
            problems = [f for f in (*read.fatal, read.rule_problems()) if f is not None and len(f)]
            if problems:
                raise ValidationError(pd.concat(problems, ignore_index=True))
            count = pd.concat(read.boards)["board"].nunique() if read.boards else 0
            return CheckReport(f"OK: {count} boards, no results", _kind("error", []),
                               _kind("note", [read.reading_notes()]), inputs=given)
        numbering = session_conventions(options, read.meta, read.across_field).pair_numbering  # as score decides it
        checked = validate_inputs(read, options, numbering, strict_rules=True)
    except (UsageError, SetupError):
        raise
    except BridgeprocError as exc:
        errors = _refused(exc)
        causes = likely_causes(errors) if isinstance(exc, ValidationError) else []
        notes = _kind("note", [read.reading_notes()] if read is not None else [])
        return CheckReport("\n".join([f"{len(errors)} problem(s) in the input", *causes]), _kind("error", [errors]),
                           notes, inputs=given, failure=exc)
    results = checked.results
    boards, missing_dd = _solved(read.frames()[1], options, progress, _Stages(None))
    pairs = len(set(results["ns"].dropna()) | set(results["ew"].dropna()))
    summary = f"OK: {len(results)} results on {results['board'].nunique()} boards, {pairs} pair numbers"
    notes, suspicious = _kind("note", [read.reading_notes(), checked.notes]), check_plausibility(results, boards)
    found = [f for f in (notes, _kind("warning", [suspicious]), _kind("note", [missing_dd])) if len(f)]
    warnings = pd.concat(found, ignore_index=True) if found else _kind("note", [])
    return CheckReport(summary, _kind("error", []), warnings, results=results, inputs=given)


def process_check(inputs: list, reports: Sequence = (), options: Options = Options(),
                  progress: Callable[[int, int], None] | None = None) -> CheckReport:
    """``bridgeproc check`` as one call: the report outputs refused before any work when they cannot be
    right, :func:`check_report`, then every report written (``.xlsx``, ``.csv``, ``.html``), all or
    nothing, whether or not the inputs are refused (the report says why)."""
    check_input_files(inputs, options.read.names)
    check_outputs(reports, output_types(CheckReport), [*inputs, *options.read.names, options.check.corrections, options.check.movement])
    report = check_report(list(inputs), options, progress)
    publish(report, reports)
    return report


def check_inputs(inputs: list, options: Options = Options(), every_note: bool = False) -> str:
    """Read and check ``inputs`` without ranking or writing (:func:`check_report`); a short summary
    when clean, with the warnings grouped by cause (each one with ``every_note``).

    Raises ValidationError (every problem, auction and play included) or ParseError.
    """
    report = check_report(inputs, options)
    report.raise_errors()
    return report.text(every_note)


def load_results(inputs: list, options: Options = Options()) -> pd.DataFrame:
    """Read, check and score ``inputs``; the ``results`` frame without ranking."""
    read = read_inputs(list(inputs), options)
    numbering = session_conventions(options, read.meta, read.across_field).pair_numbering
    return validate_inputs(read, options, numbering, strict_rules=False).results



__all__ = ["CheckReport", "build_session", "check_inputs", "check_report", "load_results", "session_conventions",
           "validate_inputs"]
