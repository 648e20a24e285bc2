"""The ranking methods: one record per method with everything the rest of bridgeproc needs to know of it.

A new method is one :class:`RankingMethod` here (and its scorer): the standings, the
workbook, the score cards, the travellers, the scored CSV, the PBN and USEBIO writers and
the published-numbers check all read these records instead of naming ``mp``/``ximp``/
``butler`` columns themselves.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pandas as pd

from bridgeproc.rank._matchpoints import matchpoints
from bridgeproc.rank.conventions import Conventions
from bridgeproc.rank.imps import butler, cross_imps
from bridgeproc.schema import BUTLER_COLUMNS, CROSS_COLUMNS, MP_COLUMNS


@dataclass(frozen=True)
class RankingMethod:
    """What one ranking method adds to the results and how each output names and shows it.

    ``points`` are the per-side board points (NS, EW) the standings sum; ``columns`` every
    column the scorer adds, with its dtype; ``shown`` the per-result columns a traveller or
    CSV shows, as (column, header, number format); ``board_facts`` the per-board values a
    traveller's title line shows, as (column, label, format string). ``unit`` is the number
    format of points and totals (``mp`` or ``imp``); ``card_header`` the score cards' points
    header. ``pbn_points``/``pbn_total`` are the ScoreTable and TotalScoreTable columns (the
    spelling of Ruter and Magic Contest exports), ``usebio`` the BOARD_SCORING_METHOD and
    ``usebio_points`` the per-traveller-line elements (Compscore's names: NS_CROSS_IMP_POINTS, NS_BUTLER_POINTS).
    """

    name: str
    title: str
    scorer: Callable[[pd.DataFrame, Conventions], pd.DataFrame]
    points: tuple[str, str]
    columns: Mapping[str, object]
    shown: tuple[tuple[str, str, str], ...]
    board_facts: tuple[tuple[str, str, str], ...]
    unit: str
    card_header: str
    percentages: bool
    pbn_points: tuple[str, str]
    pbn_total: str
    usebio: str
    usebio_points: tuple[str, str]


METHODS: dict[str, RankingMethod] = {m.name: m for m in (
    RankingMethod(
        name="mp", title="Matchpoints", scorer=matchpoints, points=("mp_ns", "mp_ew"), columns=MP_COLUMNS,
        shown=(("mp_ns", "MP NS", "mp"), ("mp_ew", "MP EW", "mp"), ("pct_ns", "% NS", "pct"), ("pct_ew", "% EW", "pct")),
        board_facts=(("top", "top", "{:g}"), ("mp_factor", "factor", "{:.4g}")),
        unit="mp", card_header="MP", percentages=True, pbn_points=("MP_NS", "MP_EW"), pbn_total="TotalScoreMP",
        usebio="MATCH_POINTS", usebio_points=("NS_MATCH_POINTS", "EW_MATCH_POINTS")),
    RankingMethod(
        name="cross-imp", title="Cross-IMPs", scorer=cross_imps, points=("ximp_ns", "ximp_ew"), columns=CROSS_COLUMNS,
        shown=(("ximp_ns", "X-IMP NS", "imp"), ("ximp_ew", "X-IMP EW", "imp")), board_facts=(),
        unit="imp", card_header="X-IMP", percentages=False, pbn_points=("IMP_NS", "IMP_EW"), pbn_total="TotalScoreIMP",
        usebio="CROSS_IMPS", usebio_points=("NS_CROSS_IMP_POINTS", "EW_CROSS_IMP_POINTS")),
    RankingMethod(
        name="butler", title="Butler IMPs", scorer=butler, points=("butler_ns", "butler_ew"), columns=BUTLER_COLUMNS,
        shown=(("butler_ns", "Butler NS", "imp"), ("butler_ew", "Butler EW", "imp")),
        board_facts=(("datum", "datum", "{:g}"),),
        unit="imp", card_header="IMP", percentages=False, pbn_points=("IMP_NS", "IMP_EW"), pbn_total="TotalScoreIMP",
        usebio="BUTLER", usebio_points=("NS_BUTLER_POINTS", "EW_BUTLER_POINTS")),
)}


def ranking_method(name: str) -> RankingMethod:
    """The method called ``name`` (``mp``, ``cross-imp``, ``butler``); KeyError names the known ones."""
    try:
        return METHODS[name]
    except KeyError:
        raise KeyError(f"unknown ranking method {name!r} (known: {', '.join(METHODS)})") from None


def methods_in(results: pd.DataFrame) -> list[RankingMethod]:
    """The methods whose points ``results`` carries, in registry order."""
    return [m for m in METHODS.values() if m.points[0] in results]


#: The methods scored in IMPs (totals in IMPs, no percentage).
IMP_METHODS: tuple[str, ...] = tuple(m.name for m in METHODS.values() if m.unit == "imp")
