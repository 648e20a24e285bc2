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

The writers take frames, so a pool of processes can write clubs in parallel (``pipeline.sim``).
Text from the files is escaped on the pages and kept from running as a formula in the CSVs.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pandas as pd

from bridgeproc.core.notation import contract_text
from bridgeproc.rank.methods import ranking_method
from bridgeproc.report.web import sim_site
from bridgeproc.report.web.render import environment, stylesheet

#: A CSV cell a spreadsheet would run as a formula, and the plain numbers it only reads.
_FORMULA = re.compile(r"[=+\-@\t\r]")
_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")
#: The file that marks a folder as a simultaneous event's output (a rerun may replace it).
MARKER = ".bridgeproc-sim"


def club_folder(club: str) -> str:
    """The folder name of a club: its name as a slug (``Oak Field BC`` -> ``oak-field-bc``)."""
    return sim_site_slug(club)


def sim_site_slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-") or "club"


def _safe(frame: pd.DataFrame) -> pd.DataFrame:
    """Text cells a spreadsheet would run as a formula begin with ``'``."""
    out = frame.copy()
    for column in out.columns:
        if out[column].dtype == object or isinstance(out[column].dtype, pd.StringDtype):
            text = out[column].astype("string")
            risky = text.str.match(_FORMULA.pattern, na=False) & ~text.str.fullmatch(_NUMBER.pattern, na=False)
            out[column] = text.where(~risky, "'" + text)
    return out


def _write_csv(frame: pd.DataFrame, path: Path) -> None:
    _safe(frame).to_csv(path, index=False, lineterminator="\n")


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


def write_club(folder: str | os.PathLike, club: str, results: pd.DataFrame, frequencies: pd.DataFrame,
               ranking: pd.DataFrame, meta: dict, method: str) -> None:
    """Write one club's folder: results.csv, ranking.csv, frequencies.csv and index.html."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    m = ranking_method(method)
    _write_csv(results_table(results, method), root / "results.csv")
    _write_csv(ranking, root / "ranking.csv")
    _write_csv(frequencies, root / "frequencies.csv")
    title = f"{meta.get('event') or 'Simultaneous event'}: {club}"
    model = sim_site.site(title, [f"{len(results)} results; points across the field and within the club"], meta,
                          sim_site.rankings(ranking, "Ranking", m.percentages, False),
                          sim_site.boards(results, frequencies, m.points), m.card_header, field_link="../../index.html")
    (root / "index.html").write_text(_render(model, 2), encoding="utf-8")


def write_field(folder: str | os.PathLike, results: pd.DataFrame, ranking: pd.DataFrame, meta: dict, method: str,
                clubs: dict[str, str]) -> None:
    """Write the field's files: index.html (clubs linked to ``clubs[club]``/index.html), ranking.csv,
    results.csv and the style sheet, and the folder's marker."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    m = ranking_method(method)
    _write_csv(ranking, root / "ranking.csv")
    _write_csv(results_table(results, method), root / "results.csv")
    (root / "style.css").write_text(stylesheet(), encoding="utf-8")
    links = {club: f"clubs/{name}/index.html" for club, name in clubs.items()}
    title = str(meta.get("event") or "Simultaneous event")
    lines = [f"{len(clubs)} clubs, {len(results)} results, boards compared across the field"]
    model = sim_site.site(title, lines, meta, sim_site.rankings(ranking, "Field", m.percentages, True, links), [],
                          m.card_header)
    (root / "index.html").write_text(_render(model, 0), encoding="utf-8")
    (root / MARKER).write_text("written by bridgeproc sim; a rerun replaces this folder\n", encoding="utf-8")


__all__ = ["MARKER", "club_folder", "results_table", "write_club", "write_field"]
