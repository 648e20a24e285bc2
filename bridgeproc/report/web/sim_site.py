"""Page models of a simultaneous event's website: the field's ranking, and per club its ranking,
its travellers with the field's and the club's points, and the field's frequency of each board.

Built from plain frames (``pipeline.sim.SimResult`` hands them over), so the report layer does not
import the pipeline; ``report.sim`` renders them with the templates ``sim_*.html``.
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

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
class SimTravellerRow:
    section: str
    ns: str
    ew: str
    contract: str
    declarer: str
    lead: str
    result: str
    score: str
    field_ns: str
    field_ew: str
    club_ns: str
    club_ew: str


@dataclass(frozen=True)
class SimFrequencyRow:
    score: str
    results: int
    here: int
    points_ns: str
    points_ew: str
    pct_ns: str


@dataclass(frozen=True)
class SimBoard:
    number: int
    traveller: list[SimTravellerRow]
    frequencies: list[SimFrequencyRow]


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
            rows=[SimRankingRow(rank=_text(r.rank), club=_text(r.club), club_link=(links or {}).get(_text(r.club)),
                                section=_text(r.club_section), pair=_text(r.pair), names=_text(r.names),
                                boards=int(r.boards), total=number_text(r.total), pct=percent_text(r.pct))
                  for r in rows.itertuples()]))
    return out


def boards(results: pd.DataFrame, frequencies: pd.DataFrame, points: tuple[str, str]) -> list[SimBoard]:
    """The club's travellers (field and club points) and the field's frequencies, board by board."""
    ns_col, ew_col = points
    contract = contract_text(results["level"], results["strain"], results["doubled"], results["adjusted"])
    shown = pd.DataFrame({
        "board": results["board"].to_numpy(), "section": results["club_section"].fillna("").astype(str).to_numpy(),
        "ns": results["ns"].astype(str).to_numpy(), "ew": results["ew"].astype(str).to_numpy(),
        "contract": contract.fillna("").astype(str).to_numpy(),
        "declarer": results["declarer"].astype("string").fillna("").to_numpy(),
        "lead": results["lead"].astype("string").fillna("").to_numpy(),
        "result": result_text(results["level"], results["tricks"], results["adjusted"]).to_numpy(),
        "score": results["score_ns"].astype("string").fillna("").to_numpy(),
        "field_ns": [number_text(v) for v in results[ns_col]], "field_ew": [number_text(v) for v in results[ew_col]],
        "club_ns": [number_text(v) for v in results[f"club_{ns_col}"]],
        "club_ew": [number_text(v) for v in results[f"club_{ew_col}"]],
    })
    freq = pd.DataFrame({
        "board": frequencies["board"].to_numpy(),
        "score": [_text(a) or _text(s) for s, a in zip(frequencies["score_ns"], frequencies["adjusted"])],
        "results": frequencies["results"].to_numpy(), "here": frequencies["here"].to_numpy(),
        "points_ns": [number_text(v) for v in frequencies["points_ns"]],
        "points_ew": [number_text(v) for v in frequencies["points_ew"]],
        "pct_ns": [percent_text(v) for v in frequencies["pct_ns"]],
    })
    travellers = {int(b): [SimTravellerRow(*row[1:]) for row in rows.itertuples(index=False)]
                  for b, rows in shown.groupby("board", sort=True)}
    tables = {int(b): [SimFrequencyRow(*row[1:]) for row in rows.itertuples(index=False)]
              for b, rows in freq.groupby("board", sort=True)}
    return [SimBoard(b, travellers.get(b, []), tables.get(b, [])) for b in sorted(set(travellers) | set(tables))]


def site(title: str, lines: list[str], meta: dict, ranking_list: list[SimRanking], board_list: list[SimBoard],
         points_header: str, field_link: str | None = None) -> SimSite:
    """The page model."""
    return SimSite(title=title, lines=lines, lang=page_language(meta), rankings=ranking_list, boards=board_list,
                   points_header=points_header, field_link=field_link)


__all__ = ["SimBoard", "SimFrequencyRow", "SimRanking", "SimRankingRow", "SimSite", "SimTravellerRow", "boards",
           "rankings", "site"]
