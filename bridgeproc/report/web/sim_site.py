"""Page models of a simultaneous event's website: the field's ranking, and per club its ranking,
its travellers with the field's and the club's points, and the field's frequency of each board.

Built from plain frames (``model.SimResult`` hands them over), so the report layer does not
import the pipeline; ``report.sim`` renders them with the templates ``sim_*.html``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
import pandas as pd
from markupsafe import Markup

from bridgeproc._version import __version__
from bridgeproc.core.notation import contract_text
from bridgeproc.report.web.site import number_text, page_language, percent_text, result_text


@dataclass(frozen=True)
class SimRankingRow:
    rank: str
    club: str
    club_link: str | None
    section: str
    pair: str
    names: str
    boards: int
    total: str
    pct: str


@dataclass(frozen=True)
class SimRanking:
    id: str
    title: str
    has_pct: bool
    show_club: bool
    rows: list[SimRankingRow]


@dataclass(frozen=True)
class SimBoard:
    """A board's traveller and frequency table rows, as escaped HTML (built on whole columns)."""

    number: int
    traveller: Markup
    frequencies: Markup


@dataclass(frozen=True)
class SimSite:
    """One page: the field's (``boards`` empty, clubs linked) or a club's."""

    title: str
    lines: list[str]
    lang: str
    rankings: list[SimRanking]
    boards: list[SimBoard]
    points_header: str
    field_link: str | None = None
    generator: str = f"bridgeproc {__version__}"
    deals: tuple = ()
    cards: tuple = ()


def _text(value: object) -> str:
    return "" if value is None or (pd.api.types.is_scalar(value) and pd.isna(value)) else str(value)


def rankings(table: pd.DataFrame, title: str, has_pct: bool, show_club: bool,
             links: dict[str, str] | None = None) -> list[SimRanking]:
    """One ranking per group (``NS``, ``EW``, ``ALL``; per club section within a club)."""
    out = []
    keys = ["club_section", "group"] if not show_club else ["group"]
    for key, rows in table.groupby(keys, sort=False, dropna=False):
        parts = [p for p in (key if isinstance(key, tuple) else (key,)) if _text(p)]
        label = " ".join(_text(p) for p in parts)
        out.append(SimRanking(
            id="ranking-" + "-".join(_text(p).lower() for p in parts), title=f"{title} {label}".strip(),
            has_pct=has_pct, show_club=show_club,
            rows=[SimRankingRow(rank=_text(rank), club=_text(club), club_link=(links or {}).get(_text(club)),
                                section=_text(section), pair=_text(pair), names=_text(names),
                                boards=int(boards), total=number_text(total), pct=percent_text(pct))
                  for rank, club, section, pair, names, boards, total, pct in zip(
                      *(rows[c].tolist() for c in ("rank", "club", "club_section", "pair", "names", "boards", "total",
                                                   "pct")))]))
    return out


def per_distinct(values: pd.Series, text: Callable[[pd.Series], pd.Series]) -> pd.Series:
    """``text`` (column-wise text work) done on the distinct values of ``values`` only and spread back to every
    row: a field's 288,000 cells of a column hold a few thousand values. A missing cell gets what ``text``
    makes of it."""
    codes, uniques = pd.factorize(values, use_na_sentinel=True)
    done = text(pd.Series(uniques)).to_numpy(dtype=object)
    missing = codes < 0
    if missing.any():  # code -1 takes the last entry
        done = np.append(done, text(values[missing].iloc[:1]).to_numpy(dtype=object))
    return pd.Series(done[codes], index=values.index, dtype=object)


def _escaped_each(text: pd.Series) -> pd.Series:
    text = text.astype("string").fillna("")
    for raw, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&#34;"), ("'", "&#39;")):
        text = text.str.replace(raw, entity, regex=False)
    return text


def _escaped(values: pd.Series) -> pd.Series:
    """Text cells HTML-escaped on the whole column (what Jinja's autoescape does to one value)."""
    return per_distinct(values, _escaped_each)


def _suited_each(values: pd.Series) -> pd.Series:
    text = _escaped_each(values)
    for symbol in "♥♦":
        text = text.str.replace(symbol, f'<span class="red">{symbol}</span>', regex=False)
    return text


def _suited(values: pd.Series) -> pd.Series:
    """Escaped, hearts and diamonds marked red (the ``suits`` filter, on the whole column)."""
    return per_distinct(values, _suited_each)


def _numbers_each(values: pd.Series, decimals: int) -> pd.Series:
    numbers = pd.to_numeric(values, errors="coerce").astype("float64")
    formatted = numbers.map(f"{{:.{decimals}f}}".format).astype(object)
    if len(formatted) and decimals > 0:  # "12.50" -> "12.5", "3.00" -> "3" (never "100" -> "1")
        formatted = formatted.str.rstrip("0").str.rstrip(".")
    text = formatted.replace("-0", "0")
    return text.where(numbers.notna(), "")


def numbers_text(values: pd.Series, decimals: int = 2) -> pd.Series:
    """:func:`number_text` on a whole column: at most ``decimals`` decimals, no trailing zeros, blank for NA."""
    numbers = pd.to_numeric(values, errors="coerce").astype("float64")
    return per_distinct(numbers, lambda distinct: _numbers_each(distinct, decimals))


def _rows(cells: list[tuple[pd.Series, str]]) -> pd.Series:
    """``<tr>`` rows from columns of ready HTML (``(cells, class)``), on whole columns (object arrays: one
    C-level concatenation per cell)."""
    index = cells[0][0].index
    row = np.full(len(index), "<tr>", dtype=object)
    for column, css in cells:
        opening = f'<td class="{css}">' if css else "<td>"
        text = column.astype("string").fillna("").to_numpy(dtype=object)
        row = row + opening + text + "</td>"
    return pd.Series(row + "</tr>", index=index, dtype="string")


def traveller_rows(results: pd.DataFrame, points: tuple[str, str]) -> pd.Series:
    """Each result's traveller row (escaped HTML): section, pairs, contract, lead, result, score, the
    field's and the club's points. Built on whole columns, once for the whole field."""
    ns_col, ew_col = points
    contract = contract_text(results["level"], results["strain"], results["doubled"], results["adjusted"])
    result = result_text(results["level"], results["tricks"], results["adjusted"])
    return _rows([
        (_escaped(results["club_section"]), ""), (_escaped(results["ns"]), "num"), (_escaped(results["ew"]), "num"),
        (_suited(contract), ""), (_escaped(results["declarer"]), ""), (_suited(results["lead"]), ""),
        (_escaped(pd.Series(result, index=results.index)), "num"), (_escaped(results["score_ns"]), "num"),
        (numbers_text(results[ns_col]), "num"), (numbers_text(results[ew_col]), "num"),
        (numbers_text(results[f"club_{ns_col}"]), "num"), (numbers_text(results[f"club_{ew_col}"]), "num")])


def frequency_cells(frequencies: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """Each frequency row's HTML before and after the club's own count (``here``, the one cell that
    differs from club to club): the field's score, its count; then its points and percentage."""
    score = frequencies["adjusted"].astype("string").fillna(frequencies["score_ns"].astype("string")).fillna("")
    pct = pd.to_numeric(frequencies["pct_ns"], errors="coerce").astype("float64")
    head = _rows([(_escaped(score), "num"), (frequencies["results"].astype("string"), "num")]).str.slice(0, -5)
    tail = _rows([(numbers_text(frequencies["points_ns"]), "num"), (numbers_text(frequencies["points_ew"]), "num"),
                  (pct.map("{:.2f}".format).where(pct.notna(), ""), "num")]).str.slice(4)
    return head, tail


def here_cells(here: np.ndarray) -> np.ndarray:
    """The club's count of each frequency row as a cell (blank for none)."""
    text = np.where(here > 0, here.astype(str), "")
    return np.char.add(np.char.add('<td class="num">', text.astype(str)), "</td>")


def board_tables(traveller_board: np.ndarray, traveller: Sequence[str], frequency_board: np.ndarray,
                 frequencies: Sequence[str]) -> list[SimBoard]:
    """The boards of a page from ready rows: the traveller rows in board order (stable), the frequency rows
    as the field's table orders them; one join per board."""
    def split(boards: np.ndarray, rows: Sequence[str]) -> dict[int, Markup]:
        order = np.argsort(boards, kind="stable")
        ordered = np.asarray(boards)[order]
        cuts = np.flatnonzero(np.diff(ordered)) + 1
        texts = np.asarray(rows, dtype=object)[order]
        return {int(part[0]): Markup("\n".join(chunk)) for part, chunk in
                zip(np.split(ordered, cuts), np.split(texts, cuts)) if len(part)}
    travellers, tables = split(traveller_board, traveller), split(frequency_board, frequencies)
    empty = Markup("")
    return [SimBoard(b, travellers.get(b, empty), tables.get(b, empty)) for b in sorted(set(travellers) | set(tables))]


def boards(results: pd.DataFrame, frequencies: pd.DataFrame, points: tuple[str, str]) -> list[SimBoard]:
    """One club's travellers (field and club points) and the field's frequencies (with ``here``), board by
    board (:func:`traveller_rows`, :func:`frequency_cells`: on whole columns, no loop per cell)."""
    rows = traveller_rows(results, points)
    head, tail = frequency_cells(frequencies)
    here = frequencies["here"].fillna(0).to_numpy(dtype="int64")
    freq = (head.to_numpy(dtype=object) + here_cells(here).astype(object) + tail.to_numpy(dtype=object)).tolist()
    return board_tables(results["board"].to_numpy(dtype="int64"), rows.tolist(),
                        frequencies["board"].to_numpy(dtype="int64"), freq)


def site(title: str, lines: list[str], meta: dict, ranking_list: list[SimRanking], board_list: list[SimBoard],
         points_header: str, field_link: str | None = None) -> SimSite:
    """The page model."""
    return SimSite(title=title, lines=lines, lang=page_language(meta), rankings=ranking_list, boards=board_list,
                   points_header=points_header, field_link=field_link)


__all__ = ["SimBoard", "SimRanking", "SimRankingRow", "SimSite", "board_tables", "boards", "frequency_cells",
           "here_cells", "numbers_text", "rankings", "site", "traveller_rows"]
