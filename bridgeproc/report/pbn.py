"""Scored frames -> PBN games: one game per board with a ScoreTable, a TotalScoreTable first.

Columns written, when the results frame has what they need (reference section 4.6):
``Section`` (only with more than one section), ``PairId_NS``, ``PairId_EW``,
``Contract``, ``Declarer``, ``Result`` (tricks), ``Lead``, ``Score_NS``/``Score_EW``
(the side that scored, the other ``-``, as Ruter and Magic Contest write them),
``MP_NS``, ``MP_EW``, ``Percentage_NS``, ``Percentage_EW``, ``IMP_NS``/``IMP_EW``
(cross-IMPs, else Butler) and ``ButlerDatum``. An artificial score has ``-`` for
Contract, Declarer and Result and its code in the score columns (``A+``/``A-``,
``60%``/``40%``). The TotalScoreTable uses ``TotalScoreMP`` for matchpoints and
``TotalScoreIMP`` for IMPs (the spelling of Ruter and Magic Contest exports).
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Mapping

import numpy as np
import pandas as pd

from bridgeproc.analysis.dd import encode_dd_hex
from bridgeproc.core.boards import dealer_of, vul_of
from bridgeproc.core.notation import contract_text
from bridgeproc.core.shown import shown_frame
from bridgeproc.io.pbn.model import Column, Game, PbnFile, Tag
from bridgeproc.io.pbn.reader import pbn_bytes
from bridgeproc.io.pbn.writer import write_games
from bridgeproc.rank.conventions import parse_scoring_tag, scoring_tag
from bridgeproc.rank.methods import METHODS, methods_in
from bridgeproc.report.pbn_source import point_texts, scored_on_source

#: results column -> (ScoreTable column, width): the percentages a matchpoint ScoreTable carries.
PERCENT_COLUMNS = (("pct_ns", "Percentage_NS", 5), ("pct_ew", "Percentage_EW", 5))
#: Event tags carried from ``meta`` (matched case-insensitively) into every game.
META_TAGS = {name.lower(): name for name in (
    "Event", "Site", "Date", "EventDate", "Competition", "Annotator", "Application", "Stage", "Round",
    "Generator", "Description", "EventSponsor")}


def _artificial(code: str) -> tuple[str, str]:
    ns, _, ew = code.partition("/")
    def side(part: str) -> str:
        return part if part.startswith("A") or part == "NP" else f"{part}%"
    return side(ns), side(ew or ns)


def _score_cells(results: pd.DataFrame) -> tuple[list[str], list[str]]:
    scores = results["score_ns"].astype("Int64").to_numpy(dtype=object, na_value=None)
    adjusted = results["adjusted"].astype("string").to_numpy(dtype=object, na_value=None) \
        if "adjusted" in results else [None] * len(results)
    ns_cells, ew_cells = [], []
    for score, code in zip(scores, adjusted):
        if code is not None:
            # A weighted score's code carries every part: keep it whole, once.
            ns, ew = (code, "-") if code.startswith("W:") else _artificial(code)
        elif score is None:
            ns, ew = "-", "-"
        else:
            ns, ew = (str(score), "-") if score >= 0 else ("-", str(-score))
        ns_cells.append(ns)
        ew_cells.append(ew)
    return ns_cells, ew_cells


def cell_texts(series: pd.Series) -> list[str]:
    return [("-" if v is None or v == "" else str(v))
            for v in series.astype("string").to_numpy(dtype=object, na_value=None)]


def score_table(results: pd.DataFrame) -> tuple[list[Column], list[list[str]]]:
    """ScoreTable columns and rows (all boards; rows in ``results`` order)."""
    played = results["adjusted"].isna().to_numpy() if "adjusted" in results else [True] * len(results)
    contract = contract_text(results["level"], results["strain"], results["doubled"]).fillna("-")
    contract = contract.replace("PASS", "Pass")
    tricks = results["tricks"].astype("Int64").to_numpy(dtype=object, na_value=None)
    cells: dict[str, tuple[int, list[str]]] = {}
    sections = results["section"].astype("string").fillna("") if "section" in results else None
    if sections is not None and (sections != "").any():
        cells["Section"] = (3, cell_texts(sections))
    cells["PairId_NS"] = (3, cell_texts(results["ns"]))
    cells["PairId_EW"] = (3, cell_texts(results["ew"]))
    cells["Contract"] = (4, [c if ok else "-" for c, ok in zip(contract, played)])
    cells["Declarer"] = (1, [d if ok else "-" for d, ok in zip(cell_texts(results["declarer"]), played)])
    cells["Result"] = (2, [("-" if t is None or not ok else str(t)) for t, ok in zip(tricks, played)])
    if "lead" in results:
        cells["Lead"] = (3, cell_texts(results["lead"]))
    if "fouled" in results and results["fouled"].notna().any():
        cells["Fouled"] = (2, cell_texts(results["fouled"]))  # bridgeproc's column: the group that played another deal
    if "switched" in results and results["switched"].fillna(False).astype(bool).any():
        # bridgeproc's column (as on a traveller): the EW-numbered pair sat NS; read back as the switch
        cells["Switched"] = (1, ["Y" if v else "-" for v in results["switched"].fillna(False).astype(bool)])
    ns, ew = _score_cells(results)
    cells["Score_NS"], cells["Score_EW"] = (6, ns), (6, ew)
    results = shown_frame(results)  # the numbers as every output shows them: NS + EW still the top
    # Each PBN points column once: the first method present that fills it (MP, then cross-IMPs, then Butler).
    for method in methods_in(results):
        width = 5 if method.unit == "mp" else 6
        for source, name in zip(method.points, method.pbn_points):
            if name not in cells and source in results:
                cells[name] = (width, point_texts(results[source], method.unit))
        if method.percentages:
            for source, name, width in PERCENT_COLUMNS:
                if source in results:
                    cells[name] = (width, point_texts(results[source], "pct"))
    if "datum" in results:
        cells["ButlerDatum"] = (5, point_texts(results["datum"], "imp"))
    columns = [Column(name, "", width, "L" if name in ("Contract", "Lead") else "R")
               for name, (width, _) in cells.items()]
    rows = [list(row) for row in zip(*(values for _, values in cells.values()))]
    return columns, rows


def total_table(standings: pd.DataFrame, imps: bool) -> tuple[list[Column], list[list[str]]]:
    """TotalScoreTable columns and rows from a standings frame (schema.STANDINGS_COLUMNS)."""
    # group is NS, EW or ALL, prefixed by the section when there are several ("A NS")
    groups = [g.rsplit(" ", 1) if " " in g else ["", g]
              for g in standings["group"].astype("string").fillna("ALL")]
    cells: dict[str, list[str]] = {"Rank": cell_texts(standings["rank"]), "PairId": cell_texts(standings["pair"])}
    if any(section for section, _ in groups):
        cells["Section"] = [section or "-" for section, _ in groups]
    if any(direction != "ALL" for _, direction in groups):
        cells["Direction"] = [{"NS": "N-S", "EW": "E-W"}.get(d, "-") for _, d in groups]
    cells[METHODS["butler" if imps else "mp"].pbn_total] = point_texts(standings["total"], "imp" if imps else "mp")
    if not imps or standings["pct"].notna().any():
        cells["TotalPercentage"] = point_texts(standings["pct"], "pct")
    cells["Names"] = cell_texts(standings["names"])
    cells["NrBoards"] = cell_texts(standings["boards"])
    columns = [Column(name, "", None, "") for name in cells]
    return columns, [list(row) for row in zip(*cells.values())]


def _board_extras(boards: pd.DataFrame) -> dict[int, list[Tag]]:
    """Double-dummy tags per board: DoubleDummyTricks, OptimumScore, OptimumContract and
    OptimumResultTable, so that a later run on this file reuses them instead of solving. Each column
    is read once; a board's tags are laid out from its values."""
    dd = [(seat, strain) for seat in "NESW" for strain in ("NT", "S", "H", "D", "C")]
    names = [f"dd_{seat}_{strain}" for seat, strain in dd]
    count = len(boards)
    if count and all(name in boards for name in names):
        tricks = np.column_stack([boards[name].to_numpy(dtype=float, na_value=np.nan) for name in names])
        complete = ~np.isnan(tricks).any(axis=1)
    else:
        tricks, complete = np.empty((count, len(names))), np.zeros(count, dtype=bool)

    def given(column: str) -> list:
        """The column's values, None where missing (or where the frame has no such column)."""
        return [None if pd.isna(v) else v for v in boards[column].tolist()] if column in boards else [None] * count

    hex_given, optimum, par = given("double_dummy_tricks"), given("optimum_score"), given("par_score")
    contract, par_contracts = given("optimum_contract"), given("par_contracts")
    result_columns = [Column("Declarer"), Column("Denomination", "", 2, "R"), Column("Result", "", 2, "R")]
    out: dict[int, list[Tag]] = {}
    for i, board in enumerate(boards["board"].tolist()):
        tags = []
        if hex_given[i] is not None:
            tags.append(Tag("DoubleDummyTricks", str(hex_given[i]), 0))
        elif complete[i]:
            tags.append(Tag("DoubleDummyTricks", encode_dd_hex(dict(zip(names, tricks[i]))), 0))
        if optimum[i] is not None:
            tags.append(Tag("OptimumScore", str(optimum[i]), 0))
        elif par[i] is not None:
            tags.append(Tag("OptimumScore", f"NS {int(par[i])}", 0))
        if contract[i] is not None:
            tags.append(Tag("OptimumContract", str(contract[i]), 0))
        elif par_contracts[i] is not None:
            tags.append(Tag("OptimumContract", str(par_contracts[i]), 0))
        if complete[i]:
            rows = [[seat, strain, str(int(value))] for (seat, strain), value in zip(dd, tricks[i])]
            tags.append(table_tag("OptimumResultTable", result_columns, rows, 0))
        out[int(board)] = tags
    return out


def table_tag(name: str, columns: list[Column], rows: list[list[str]], line: int) -> Tag:
    tag = Tag(name, ";".join(c.spec() for c in columns), line)
    tag.columns, tag.rows, tag.row_lines = tuple(columns), rows, [0] * len(rows)
    return tag


def scored_games(boards: pd.DataFrame, results: pd.DataFrame, standings: pd.DataFrame | None = None,
                 meta: Mapping[str, str] | None = None) -> list[Game]:
    """One PBN game per board: the mandatory tags, the board's ScoreTable; standings first.

    Parameters
    ----------
    boards : DataFrame
        ``board dealer vul deal`` (schema.BOARDS_COLUMNS); boards with results but no
        row here get dealer and vulnerability from the board number and an empty Deal.
    results : DataFrame
        Scored results: ``section board ns ew level strain doubled declarer tricks lead
        adjusted score_ns`` and method columns (``mp_ns mp_ew pct_ns pct_ew``,
        ``ximp_ns ximp_ew``, ``butler_ns butler_ew datum``), whichever exist.
    standings : DataFrame, optional
        ``group rank pair names boards total pct`` for the TotalScoreTable.
    meta : mapping, optional
        Event tags (``Event``, ``Site``, ``Date``, ``Scoring`` ...) for every game.
    """
    meta = dict(meta or {})
    imps = _imps(results)
    meta.setdefault("Scoring", ("IMP;Cross" if "ximp_ns" in results else "IMP;Butler") if imps else "MatchPoints")
    # Sections scored apart get a game each (with a Section tag), so that reading the file
    # back does not take one ScoreTable over several sections for an across-the-field board.
    apart = meta.pop("_sections_apart", "") == "1" and results["section"].fillna("").nunique() > 1
    columns, rows = score_table(results)
    by_board: dict[int, dict[str, list[list[str]]]] = {}
    sections = results["section"].fillna("").astype(str) if apart else pd.Series([""] * len(results))
    for board, section, row in zip(results["board"].to_numpy(dtype="int64"), sections, rows):
        by_board.setdefault(int(board), {}).setdefault(section, []).append(row)
    deals = {int(b): (d, str(dl), str(v)) for b, d, dl, v in zip(
        boards["board"], boards["deal"].astype("string").fillna(""), boards["dealer"], boards["vul"])}
    extras = _board_extras(boards)
    numbers = sorted(set(deals) | set(by_board))
    games: list = []
    for board in numbers:
        deal, dealer, vul = deals.get(board) or ("", str(dealer_of([board])[0]), str(vul_of([board])[0]))
        unscored: dict = {"": None}
        for section, table_rows in (by_board.get(board) or unscored).items():
            values = {"Event": meta.get("Event", ""), "Site": meta.get("Site", ""), "Date": meta.get("Date", ""),
                      "Board": str(board), "West": "", "North": "", "East": "", "South": "", "Dealer": dealer,
                      "Vulnerable": vul, "Deal": deal, "Scoring": meta["Scoring"], "Declarer": "", "Contract": "",
                      "Result": ""}
            values.update({k: v for k, v in meta.items() if k not in values})
            if section:
                values["Section"] = section
            tags = [Tag(name, value, 0) for name, value in values.items()]
            tags.extend(extras.get(board, ()))
            if not games and standings is not None and len(standings):
                tags.append(table_tag("TotalScoreTable", *total_table(standings, imps), 0))
            if table_rows is not None:
                tags.append(table_tag("ScoreTable", columns, table_rows, 0))
            games.append(Game(tags, 0))
    return games


def scored_parts(scored) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame | None, dict[str, str]]:
    get = scored.get if isinstance(scored, Mapping) else (lambda name: getattr(scored, name, None))
    standings = get("standings")
    if standings is not None and "method" in standings and len(standings):
        standings = standings[standings["method"] == standings["method"].iloc[0]]
    meta = {META_TAGS.get(str(k).lower(), k): str(v) for k, v in (get("meta") or {}).items()
            if str(k).lower() in META_TAGS and str(k).lower() != "scoring"}
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", meta.get("Date", "")):
        meta["Date"] = meta["Date"].replace("-", ".")  # --date 2026-12-01: PBN writes 2026.12.01
    conventions = get("conventions")
    if conventions is not None:
        meta["Scoring"] = scoring_tag(conventions)
        if not conventions.across_field:
            meta["_sections_apart"] = "1"
    boards = get("boards")
    if boards is None:
        boards = pd.DataFrame({"board": [], "dealer": [], "vul": [], "deal": []})
    return boards, get("results"), standings, meta


def _imps(results: pd.DataFrame) -> bool:
    present = methods_in(results)
    return bool(present) and all(m.unit == "imp" for m in present) and "pct_ns" not in results


def _same_method(conventions):
    """A test: does a file's Scoring tag name these conventions' method (and what the tag can say of it)?"""
    def same(tag: str) -> bool:
        try:
            read = parse_scoring_tag(tag, conventions)
        except ValueError:
            return False
        return scoring_tag(read) == scoring_tag(conventions)
    return same


def _source_pbn(scored):
    """The one PBN file the session was read from, when its scores can be written onto it."""
    get = scored.get if isinstance(scored, Mapping) else (lambda name: getattr(scored, name, None))
    sources = [s for s in get("sources") or () if isinstance(s, PbnFile)]
    corrected = get("corrections")
    return sources[0] if len(sources) == 1 and corrected is None else None


def write_scored_pbn(scored, path: str | os.PathLike) -> None:
    """Write scored frames as PBN 2.1.

    On the PBN file the session was read from when there is one (``report.pbn_source``: the file as
    read, tag by tag, with the scores added), else one game per board (see :func:`scored_games`).

    Parameters
    ----------
    scored : Session or mapping
        Anything with ``boards``, ``results`` and optionally ``standings`` (rows of
        the first ``method`` when there is a ``method`` column), ``meta`` (event
        tags, any case: ``event`` or ``Event``) and ``sources`` (the PbnFile read), as attributes
        or mapping keys.
    path : str or PathLike
        The output file, replaced only when writing succeeded.
    """
    boards, results, standings, meta = scored_parts(scored)
    source = _source_pbn(scored)
    if source is not None:
        totals = total_table(standings, _imps(results)) if standings is not None and len(standings) else None
        conventions = getattr(scored, "conventions", None) if not isinstance(scored, Mapping) \
            else scored.get("conventions")
        onto = scored_on_source(source, boards, results, standings, _board_extras(boards), score_table(results),
                                totals, scoring=meta.get("Scoring"),
                                same_scoring=None if conventions is None else _same_method(conventions),
                                sections_apart=meta.get("_sections_apart") == "1")
        if onto is not None:
            data = pbn_bytes(onto)
            Path(path).write_bytes(data)
            return
    write_games(scored_games(boards, results, standings, meta), path)
