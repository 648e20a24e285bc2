"""The computing half of a run: read inputs, check, score, rank, solve double dummy (no writing)."""
from __future__ import annotations

import time
from typing import Callable

import pandas as pd

from bridgeproc.analysis.dd import DD_COLUMNS, DDUnavailableError, dd_tables
from bridgeproc.analysis.par import par, parse_optimum_score
from bridgeproc.core.pairs import PairNumbering
from bridgeproc.errors import BridgeprocError, ValidationError, format_problems
from bridgeproc.model import Options, Session
from bridgeproc.pipeline.read import Inputs, read_inputs
from bridgeproc.rank import Conventions, parse_scoring_tag, rank_results, standings, winner_groups
from bridgeproc.rank.published import published_differences
from bridgeproc.schema import problems_frame
from bridgeproc.validate.results import validate_results


def _conventions(options: Options, meta: dict, across_field: bool = False) -> Conventions:
    """What the PBN says (``Scoring`` tag, one ScoreTable over several sections), then the
    profile the director chose (it keeps the file's method), then single options."""
    conventions = Conventions()
    if across_field:
        conventions = conventions.replace(across_field=True)
    scoring = meta.get("scoring")
    if scoring and scoring not in ("?", "#"):
        try:
            conventions = parse_scoring_tag(scoring, conventions)
        except ValueError:
            pass  # a teams or rubber tag: the pairs defaults stand
    if options.conventions is not None:
        # A profile the director chose beats the file's conventions; the file still names the method.
        conventions = options.conventions.replace(method=conventions.method, across_field=conventions.across_field)
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


def _check(read: Inputs, options: Options, numbering: PairNumbering, strict_rules: bool):
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
    if not read.raws:
        raise BridgeprocError("no results in the inputs; give traveller sheets or a PBN with results")
    _, boards, names = read.frames()
    stage("read")
    conventions = _conventions(options, read.meta, read.across_field)
    checked = _check(read, options, conventions.pair_numbering, strict_rules=False)
    stage("checked")
    # Pair numbering was decided once, by the checks; the ranking gets the answer, not "auto" to decide again.
    numbering = checked.numbering
    decided = conventions.replace(pair_numbering=numbering)
    results = rank_results(checked.results, decided)
    table = standings(results, decided, names if len(names) else None)
    table.insert(0, "method", conventions.method)
    stage("scored and ranked")
    missing_dd = None
    if options.dd and len(boards) and boards["deal"].notna().any():
        try:
            boards = _with_double_dummy(boards, progress)
        except DDUnavailableError as exc:  # the solver is compiled: say so, write the rest
            missing_dd = problems_frame([{"source": "bridgeproc", "message":
                f"hand records written without double-dummy tables and par: {exc}"}])
        stage("double dummy and par")
    meta = dict(read.meta)
    meta.update({k: v for k, v in options.meta_defaults.items() if meta.get(k) in (None, "", "?", "#")})
    meta.update(options.meta)
    differences = published_differences(read.frames()[0], results, conventions.method)
    notes = [n for n in (read.reading_notes(), checked.notes, read.rule_problems(), differences, missing_dd)
             if n is not None and len(n)]
    session = Session(results=results, boards=boards, standings=table, names=names, meta=meta,
                      conventions=conventions, numbering=numbering,
                      movement=_movement(results, decided, numbering),
                      notes=pd.concat(notes, ignore_index=True) if notes else None, options=options)
    return session


def _with_double_dummy(boards: pd.DataFrame, progress) -> pd.DataFrame:
    """Double-dummy tables and par: reused from the input where known, else solved.

    Par is taken from the input's OptimumScore/OptimumContract when every board with a
    table has both (as bridgeproc's own output PBN does), so a re-run needs no solver.
    """
    boards = dd_tables(boards, progress)
    with_table = boards[list(DD_COLUMNS)].notna().all(axis=1)
    if {"optimum_score", "optimum_contract"} <= set(boards.columns):
        given = boards["optimum_score"].notna() & boards["optimum_contract"].notna()
        if given[with_table].all():
            score = [parse_optimum_score(t) if isinstance(t, str) else None for t in boards["optimum_score"]]
            return boards.assign(par_score=pd.array(score, dtype="Int64"),
                                 par_contracts=boards["optimum_contract"].astype("string"),
                                 par_optimum_score=boards["optimum_score"].astype("string"))
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


__all__ = ["build_session", "check_inputs", "load_results"]
