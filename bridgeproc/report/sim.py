"""A simultaneous event's outputs: per club a folder (its results with the field's and the club's
points, the field's frequencies, a web page), and the field's ranking (CSV and page).

Layout of the output folder::

    index.html               the field's ranking, each club linked to its page
    ranking.csv              the field's ranking (club, section, group, rank, pair, names, boards, total, pct)
    results.csv              every result of the field with the field's and the clubs' points
    clubs/<club>/index.html  the club's ranking, travellers and the field's frequencies
    clubs/<club>/results.csv the club's results, field and club points
    clubs/<club>/ranking.csv the club's ranking
    clubs/<club>/frequencies.csv  the field's frequency of each board's scores, ``here`` the club's count

The writers take frames, so a pool of processes can write clubs in parallel (``report.sim_folder``).
Text from the files is escaped on the pages and kept from running as a formula in the CSVs.
"""
from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from bridgeproc.core.notation import contract_text
from bridgeproc.rank.methods import ranking_method
from bridgeproc.report.csv_files import quoting, safe_frame, write_csv
from bridgeproc.report.web import sim_site
from bridgeproc.report.web.render import environment, stylesheet

#: The file that marked a simultaneous event's folder before its outputs were published like every
#: other run's (``pipeline.publish`` takes such a folder as bridgeproc's, every file in it).
MARKER = ".bridgeproc-sim"


def club_folder(club: str) -> str:
    """The folder name of a club: its name as a slug (``Oak Field BC`` -> ``oak-field-bc``)."""
    return sim_site_slug(club)


def sim_site_slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-") or "club"


def results_table(results: pd.DataFrame, method: str) -> pd.DataFrame:
    """The CSV of results: club, section, board, pairs, contract ..., the field's and the club's points."""
    m = ranking_method(method)
    columns = [c for c in m.columns]
    table = results.assign(section=results["club_section"],
                           contract=contract_text(results["level"], results["strain"], results["doubled"],
                                                  results["adjusted"]))
    fixed = ["club", "section", "board", "ns", "ew", "contract", "declarer", "tricks", "lead", "score_ns"]
    return table[fixed + columns + [f"club_{c}" for c in columns]]


def _render(model: sim_site.SimSite, depth: int) -> str:
    up = "../" * depth

    def url(kind: str, ident: object) -> str:
        return "index.html" if kind == "index" else up + "style.css"

    return environment().get_template("sim_page.html").render(site=model, kind="sim", url=url, inline_css="",
                                                               page_title="")


@dataclass(frozen=True)
class ClubPart:
    """What one club's folder needs, cut from the field's :class:`FieldParts` (small to send to a worker)."""

    club: str
    results: int
    results_csv: list[str]
    traveller: list[str]
    boards: np.ndarray
    here: np.ndarray
    ranking: pd.DataFrame
    ranking_csv: list[str]


@dataclass(frozen=True)
class FieldParts:
    """The field's CSV lines and table rows, formatted once on whole columns; each club's files are then
    its slices (a thousand clubs: the formatting is not done a thousand times)."""

    results_header: str
    results_csv: np.ndarray
    traveller: np.ndarray
    boards: np.ndarray
    clubs: np.ndarray
    frequency_row: np.ndarray
    frequencies_header: str
    frequencies_csv: np.ndarray
    frequency_head: np.ndarray
    frequency_tail: np.ndarray
    frequency_boards: np.ndarray
    ranking_header: str
    ranking_csv: np.ndarray
    ranking_clubs: np.ndarray
    rows_of: dict[str, np.ndarray]  # club -> its rows of the results (in order), grouped once
    ranking_rows_of: dict[str, np.ndarray]

    def club(self, club: str, ranking: pd.DataFrame) -> ClubPart:
        empty = np.zeros(0, dtype=np.int64)
        rows = self.rows_of.get(club, empty)
        here = np.bincount(self.frequency_row[rows], minlength=len(self.frequencies_csv))
        return ClubPart(club, len(rows), self.results_csv[rows].tolist(), self.traveller[rows].tolist(),
                        self.boards[rows], here, ranking,
                        self.ranking_csv[self.ranking_rows_of.get(club, empty)].tolist())


def _rows_of(clubs: np.ndarray) -> dict[str, np.ndarray]:
    """Each club's row positions in order, from one stable sort (not a comparison of every row per club)."""
    codes, names = pd.factorize(clubs)
    order = np.argsort(codes, kind="stable")
    cuts = np.searchsorted(codes[order], np.arange(len(names) + 1))
    return {str(name): order[cuts[i]:cuts[i + 1]] for i, name in enumerate(names)}


def _csv_lines(frame: pd.DataFrame) -> tuple[str, np.ndarray]:
    """A frame's CSV header and one line per row (formula-safe), as ``to_csv`` writes them: each column's
    distinct values are written by ``to_csv`` once (a float by its bits, so that -0.0 stays itself) and the
    lines are joined from them."""
    header = safe_frame(frame.iloc[:0]).to_csv(index=False, lineterminator="\n").rstrip("\n")
    line = np.full(len(frame), "", dtype=object)
    for i, name in enumerate(frame.columns):
        cells = _column_cells(frame[name])
        if cells is None:  # a value holds the record mark or a lone CR: the frame written whole
            return header, _whole_lines(frame)
        line = cells if i == 0 else line + "," + cells
    return header, line


def _column_cells(column: pd.Series) -> np.ndarray | None:
    """Every row's CSV cell of ``column`` (formula-safe), each distinct value written once."""
    if column.dtype == np.float64:
        bits = column.to_numpy().view(np.int64)
        codes, unique_bits = pd.factorize(bits)
        uniques = pd.Series(np.asarray(unique_bits).view(np.float64))
    else:
        codes, unique_index = pd.factorize(column, use_na_sentinel=True)
        uniques = pd.Series(unique_index)
    small = safe_frame(pd.DataFrame({"value": uniques, "end": 0}))  # a second column: no cell is alone on its line
    if quoting(small) != csv.QUOTE_MINIMAL:
        return None  # a lone CR: the frame written whole, every text cell quoted (report.csv_files)
    lines = small.to_csv(index=False, header=False, lineterminator=_RECORD).split(_RECORD)[:-1]
    if len(lines) != len(uniques):
        return None
    cells = np.array([text[:-2] for text in lines] + [""], dtype=object)  # each "<cell>,0"; NA (code -1): blank
    return cells[codes]


def _whole_lines(frame: pd.DataFrame) -> np.ndarray:
    safe = safe_frame(frame)
    body = safe.to_csv(index=False, header=False, lineterminator=_RECORD, quoting=quoting(safe))
    return np.array(body.split(_RECORD)[:-1], dtype=object)


#: Ends each CSV record while a field is cut into its clubs' lines (a quoted cell may hold a newline).
_RECORD = "\x1e\n"


def field_parts(results: pd.DataFrame, frequencies: pd.DataFrame, method: str,
                club_standings: pd.DataFrame) -> FieldParts:
    """Every result's CSV line and traveller row, every frequency row's CSV line and HTML around the club's
    count, which frequency row each result falls in, and every club ranking's CSV lines."""
    m = ranking_method(method)
    ranking_header, ranking_lines = _csv_lines(club_standings)
    header, lines = _csv_lines(results_table(results, method))
    freq_header, freq_lines = _csv_lines(frequencies)
    head, tail = sim_site.frequency_cells(frequencies)
    keys = ["board", "score_ns", "adjusted"]
    table = frequencies[keys].assign(adjusted=frequencies["adjusted"].astype("string").fillna(""),
                                     row=np.arange(len(frequencies)))
    mine = pd.DataFrame({"board": results["board"].to_numpy(), "score_ns": results["score_ns"].to_numpy(),
                         "adjusted": results["adjusted"].astype("string").fillna("").to_numpy()})
    row = mine.merge(table, on=keys, how="left")["row"].fillna(-1).to_numpy(dtype="int64")
    if (row < 0).any():
        raise ValueError("a result with no row in the frequency table")
    clubs = results["club"].astype(str).to_numpy(dtype=object)
    ranking_clubs = club_standings["club"].astype(str).to_numpy(dtype=object)
    return FieldParts(header, lines, sim_site.traveller_rows(results, m.points).to_numpy(dtype=object),
                      results["board"].to_numpy(dtype="int64"), clubs,
                      row, freq_header, freq_lines, head.to_numpy(dtype=object), tail.to_numpy(dtype=object),
                      frequencies["board"].to_numpy(dtype="int64"), ranking_header, ranking_lines,
                      ranking_clubs, _rows_of(clubs), _rows_of(ranking_clubs))


def write_club_part(folder: str | os.PathLike, part: ClubPart, field: FieldParts, meta: dict, method: str) -> None:
    """Write one club's folder from its part of the field: results.csv, ranking.csv, frequencies.csv
    (the field's, with the club's count ``here``) and index.html."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    m = ranking_method(method)
    (root / "results.csv").write_text("\n".join([field.results_header, *part.results_csv]) + "\n", encoding="utf-8")
    (root / "ranking.csv").write_text("\n".join([field.ranking_header, *part.ranking_csv]) + "\n", encoding="utf-8")
    here = part.here.astype(str)
    freq = [f"{line},{n}" for line, n in zip(field.frequencies_csv, here)]
    (root / "frequencies.csv").write_text("\n".join([field.frequencies_header + ",here", *freq]) + "\n",
                                          encoding="utf-8")
    rows = (field.frequency_head + sim_site.here_cells(part.here).astype(object) + field.frequency_tail).tolist()
    title = f"{meta.get('event') or 'Simultaneous event'}: {part.club}"
    model = sim_site.site(title, [f"{part.results} results; points across the field and within the club"], meta,
                          sim_site.rankings(part.ranking, "Ranking", m.percentages, False),
                          sim_site.board_tables(part.boards, part.traveller, field.frequency_boards, rows),
                          m.card_header, field_link="../../index.html")
    (root / "index.html").write_text(_render(model, 2), encoding="utf-8")


def write_club(folder: str | os.PathLike, club: str, results: pd.DataFrame, frequencies: pd.DataFrame,
               ranking: pd.DataFrame, meta: dict, method: str) -> None:
    """Write one club's folder alone (its results and the field's frequencies with ``here``): results.csv,
    ranking.csv, frequencies.csv and index.html. A whole field is written by :func:`write_club_part`."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    m = ranking_method(method)
    write_csv(results_table(results, method), root / "results.csv")
    write_csv(ranking, root / "ranking.csv")
    write_csv(frequencies, root / "frequencies.csv")
    title = f"{meta.get('event') or 'Simultaneous event'}: {club}"
    model = sim_site.site(title, [f"{len(results)} results; points across the field and within the club"], meta,
                          sim_site.rankings(ranking, "Ranking", m.percentages, False),
                          sim_site.boards(results, frequencies, m.points), m.card_header, field_link="../../index.html")
    (root / "index.html").write_text(_render(model, 2), encoding="utf-8")


def write_field(folder: str | os.PathLike, results: pd.DataFrame, ranking: pd.DataFrame, meta: dict, method: str,
                clubs: dict[str, str], parts: FieldParts | None = None) -> None:
    """Write the field's files: index.html (clubs linked to ``clubs[club]``/index.html), ranking.csv,
    results.csv (from ``parts`` when given: the lines are formatted once) and the style sheet."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    m = ranking_method(method)
    write_csv(ranking, root / "ranking.csv")
    if parts is not None:
        (root / "results.csv").write_text("\n".join([parts.results_header, *parts.results_csv]) + "\n",
                                          encoding="utf-8")
    else:
        write_csv(results_table(results, method), root / "results.csv")
    (root / "style.css").write_text(stylesheet(), encoding="utf-8")
    links = {club: f"clubs/{name}/index.html" for club, name in clubs.items()}
    title = str(meta.get("event") or "Simultaneous event")
    lines = [f"{len(clubs)} clubs, {len(results)} results, boards compared across the field"]
    model = sim_site.site(title, lines, meta, sim_site.rankings(ranking, "Field", m.percentages, True, links), [],
                          m.card_header)
    (root / "index.html").write_text(_render(model, 0), encoding="utf-8")


__all__ = ["MARKER", "ClubPart", "FieldParts", "club_folder", "field_parts", "results_table", "write_club",
           "write_club_part", "write_field"]
