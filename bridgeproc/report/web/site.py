"""The results website's page models, built from a :class:`Session` with no HTML in them: the
rankings, each pair's score card and the conventions in words, put together with the board
pages of ``boards`` (diagram, double dummy, par, travellers) into one :class:`Site`. The
templates (``templates/``) only lay these out.

Rows come from the workbook's builders where those are separate from the sheet writing
(``traveller_table``, ``lead_text``, ``heading_lines``); the score cards are built here because a
member's card shows the lead and the result, which the workbook's card leaves out.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd

from bridgeproc._version import __version__
from bridgeproc.core.notation import contract_text
from bridgeproc.core.pairs import pair_directions, pair_keys
from bridgeproc.core.shown import texts
from bridgeproc.model import Session
from bridgeproc.rank import is_individual
from bridgeproc.rank.conventions import CONVENTION_HELP, CONVENTION_LABELS, DECLARED, convention_words
from bridgeproc.rank.methods import METHODS, methods_in
from bridgeproc.report.ranking import BESIDE, GROUP_TITLES, METHOD_TITLES
from bridgeproc.report.travellers import lead_text
from bridgeproc.report.web.boards import (
    DD_HEADS,
    Board,
    Deal,
    PageIds,
    board_rows,
    cell_text,
    deal_model,
    frequencies,
    number_text,
    page_language,
    par_text,
    percent_text,
    result_text,
    slug,
    travellers,
)
from bridgeproc.report.workbook import conventions_summary, heading_lines


@dataclass(frozen=True)
class RankingRow:
    rank: str
    pair: str
    names: str
    boards: int
    total: str
    pct: str
    card: str | None
    #: The masterpoints awarded (blank for none).
    masterpoints: str = ""
    #: The handicapped ranking and the strata beside the scratch one (report.ranking.BESIDE), as shown.
    beside: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ranking:
    id: str
    title: str
    total_header: str
    has_pct: bool
    rows: list[RankingRow]
    #: A masterpoint column (the session awards some).
    has_mp: bool = False
    #: The titles of the columns beside the scratch ranking (handicapped, strata).
    beside_heads: tuple[str, ...] = ()


@dataclass(frozen=True)
class CardRow:
    board: int
    round: str
    direction: str
    opponents: str
    opponent_names: str
    opponent_card: str | None
    contract: str
    declarer: str
    lead: str
    result: str
    score: str
    points: str
    running: str
    #: The board's percentage for the pair (matchpoints), blank otherwise.
    pct: str = ""


@dataclass(frozen=True)
class Card:
    id: str
    title: str
    names: str
    standing: list[str]
    points_header: str
    has_round: bool
    has_direction: bool
    rows: list[CardRow]
    has_pct: bool = False


@dataclass(frozen=True)
class Site:
    """Everything the website shows, in the order a member reads it."""

    title: str
    lines: list[str]
    lang: str
    rankings: list[Ranking]
    cards: list[Card]
    boards: list[Board]
    deals: list[Deal]
    summary: str
    conventions: list[tuple[str, str, str]]
    #: Whose conventions and how much of the file's published numbers they reproduce (blank: nothing published).
    origin: str = ""
    generator: str = f"bridgeproc {__version__}"
    notes: list[str] = field(default_factory=list)


def card_table(results: pd.DataFrame, numbering: Literal["shared", "per-direction"]) -> tuple[pd.DataFrame, object]:
    """One row per pair (per player in an individual) and board from its side, with the lead, the
    result and a running total, sorted as the workbook's score cards; and the method shown.
    ``direction`` is the direction of the pair's number (its card), ``seat`` the seat it played
    (they differ on an arrow-switched board)."""
    shown = methods_in(results)
    method = shown[0] if shown else None
    ns_key, ew_key = pair_keys(results, numbering)
    ns_dir, ew_dir = pair_directions(results)
    common = {
        "board": results["board"],
        "round": results["round"].astype("string").fillna("") if "round" in results else "",
        "contract": contract_text(results["level"], results["strain"], results["doubled"], results["adjusted"], symbols=True),
        "declarer": results["declarer"].astype("string").fillna(""),
        "lead": lead_text(results["lead"]) if "lead" in results else "",
        "result": result_text(results["level"], results["tricks"], results["adjusted"]),
        "section": results["section"].fillna(""),
    }
    sides = []
    for key, opp_key, own, opp, direction, seat, sign, column in (
            (ns_key, ew_key, "ns", "ew", ns_dir, "NS", 1, 0), (ew_key, ns_key, "ew", "ns", ew_dir, "EW", -1, 1)):
        side = pd.DataFrame({"key": key, "opp_key": opp_key, "pair": results[own], "direction": direction,
                             "seat": seat, "opponents": results[opp], **common, "score": results["score_ns"] * sign})
        side["points"] = results[method.points[column]] if method else np.nan
        side["pct"] = results[f"pct_{own}"] if f"pct_{own}" in results else np.nan  # the board's % (matchpoints)
        sides.append(side)
    cards = pd.concat(sides, ignore_index=True)
    if is_individual(results):
        cards = cards.assign(pair=cards["pair"].str.split("+")).explode("pair", ignore_index=True)
        cards["key"] = cards["section"] + ":" + cards["pair"]
        cards["opponents"] = cards["opponents"].str.replace("+", " & ", regex=False)
        cards["opp_key"] = pd.NA
    order = cards.assign(_dir=(cards["direction"] == "EW") & (numbering == "per-direction"),
                         _num=pd.to_numeric(cards["pair"], errors="coerce"))
    cards = cards.loc[order.sort_values(["section", "_dir", "_num", "pair", "board"], kind="stable").index]
    cards = cards.reset_index(drop=True)
    cards["running"] = cards.groupby("key", sort=False)["points"].cumsum()
    return cards, method


#: A standings pair labelled with its number's direction (``NS 1``, ``EW 1``).
_LABELLED = re.compile(r"(NS|EW) (.+)")


def _standing_keys(standings: pd.DataFrame, heads: pd.DataFrame, numbering: str) -> list[str | None]:
    """The score-card key of each standings row (None when no one card fits): the standings name a
    pair by group and number (``A3`` when numbers clash across sections), the cards by key."""
    by_pair: dict[str, list[tuple[str, str, str]]] = {}
    for key, section, pair, direction in zip(heads["key"], heads["section"], heads["pair"], heads["direction"]):
        for text in {str(pair).casefold(), (str(section) + str(pair)).casefold()}:
            by_pair.setdefault(text, []).append((key, section, direction))
    keys: list[str | None] = []
    for group, pair in zip(standings["group"], standings["pair"]):
        section, _, line = str(group).rpartition(" ")
        labelled = _LABELLED.fullmatch(str(pair))  # one ranking numbered per direction: "NS 1"
        if labelled:
            line, pair = labelled.group(1), labelled.group(2)
        found = {key for key, sec, direction in by_pair.get(str(pair).casefold(), [])
                 if (not section or sec == section)
                 and (numbering != "per-direction" or line not in ("NS", "EW") or direction == line)}
        keys.append(found.pop() if len(found) == 1 else None)
    return keys


def _rankings(session: Session, ids: PageIds, standing_keys: list[str | None]) -> list[Ranking]:
    standings = session.standings
    if standings is None or not len(standings):
        return []
    individual = is_individual(session.results)
    methods = list(dict.fromkeys(standings["method"]))
    out = []
    for method in methods:
        rows_of_method = standings["method"] == method
        for group in sorted(dict.fromkeys(standings.loc[rows_of_method, "group"]), key=_group_order):
            mask = (rows_of_method & (standings["group"] == group)).to_numpy()
            rows = standings[mask]
            keys = [k for k, m in zip(standing_keys, mask) if m]
            section, _, line = str(group).rpartition(" ")
            group_title = GROUP_TITLES.get(line, line)
            if individual and line == "ALL":
                group_title = "All players"
            if section:
                group_title = f"Section {section}, {group_title}"
            title = f"{METHOD_TITLES.get(method, method)}: {group_title}" if len(methods) > 1 else group_title
            unit = METHODS[method].card_header if method in METHODS else "Total"
            # one number, one text: a group's totals with the decimals the column needs (core.shown)
            totals = texts(rows["total"], METHODS[method].unit if method in METHODS else "imp")
            awards = (rows["masterpoints"] if "masterpoints" in rows else pd.Series(0.0, index=rows.index)).fillna(0.0)
            beside = [(c, t) for c, t in BESIDE if c in rows]
            shown = [rows[c].map(lambda v: f"{v:.2f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v))
                     .where(rows[c].notna(), "") for c, _ in beside]
            beside_rows = list(zip(*shown)) if shown else [()] * len(rows)
            out.append(Ranking(
                id=slug(f"ranking-{method if len(methods) > 1 else ''}-{group}"), title=title,
                total_header=unit, has_pct=bool(rows["pct"].notna().any()),
                rows=[RankingRow(str(rank), str(pair), names if isinstance(names, str) else "", int(boards),
                                 total, percent_text(pct), ids.by_key.get(key) if key else None,
                                 f"{award:g}" if award > 0 else "", tuple(more))
                      for rank, pair, names, boards, total, pct, key, award, more
                      in zip(rows["rank"], rows["pair"], rows["names"], rows["boards"], totals, rows["pct"], keys,
                             awards, beside_rows)],
                has_mp=bool((awards > 0).any()), beside_heads=tuple(t for _, t in beside)))
    return out


def _group_order(group: str) -> tuple:
    section, _, line = group.rpartition(" ")
    return (section, {"NS": 0, "EW": 1}.get(line, 2), group)


def _cards(session: Session, ids: PageIds, standing_keys: list[str | None], cards: pd.DataFrame, method) -> list[Card]:
    results = session.results
    if not len(results):
        return []
    individual = is_individual(results)
    names = session.pair_names
    heads = cards.drop_duplicates("key")
    for key, section, pair, direction in zip(heads["key"], heads["section"], heads["pair"], heads["direction"]):
        ids.add(key, section, pair, direction if session.numbering == "per-direction" and not individual else None)
    standing_of: dict[str, list[str]] = {}
    standings = session.standings
    if standings is not None and len(standings):
        several = standings["method"].nunique() > 1
        # each contestant's group size (within its method when the standings hold several), counted once
        sizes = standings.groupby(["method", "group"] if several else ["group"], sort=False, dropna=False)[
            "group"].transform("size").tolist()
        for key, method_name, rank, total, pct, size in zip(standing_keys, standings["method"], standings["rank"],
                                                             standings["total"], standings["pct"], sizes):
            if key is None:
                continue
            unit = METHODS[method_name].card_header if method_name in METHODS else ""
            text = f"Rank {rank} of {size} · {number_text(total)} {unit}".rstrip()
            if pd.notna(pct):
                text += f" · {percent_text(pct)}%"
            standing_of.setdefault(key, []).append(text)
    who = "Player" if individual else "Pair"
    header = method.card_header if method else "Points"
    has_round = bool(cards["round"].astype(str).str.len().gt(0).any())
    columns = {c: cards[c].tolist() for c in ("key", "board", "round", "seat", "opponents", "opp_key", "contract",
                                               "declarer", "lead", "result")}
    # per direction a card shows the seat only when the pair sat the other way on some board (arrow switch)
    switched_cards = set(cards.loc[(cards["seat"] != cards["direction"]).to_numpy(dtype=bool), "key"])
    score = [number_text(v, 0) for v in cards["score"].astype("Float64")]
    points = texts(cards["points"].astype("Float64"), "imp")  # a column's decimals, as every output shows it
    running = texts(cards["running"].astype("Float64"), "imp")
    pct_values = pd.to_numeric(cards["pct"], errors="coerce") if "pct" in cards else pd.Series(np.nan, index=cards.index)
    has_pct = bool(pct_values.notna().any())
    pct = [percent_text(v) if pd.notna(v) else "" for v in pct_values]
    missed = _missed_boards(cards, results)
    totalled = _totalled(cards, standing_keys, standings, session)
    sections, pairs, directions = (cards[c].tolist() for c in ("section", "pair", "direction"))
    out: list[Card] = []
    rows: list[CardRow] = []
    current: str | None = None
    for i, key in enumerate(columns["key"]):
        if key != current:
            current = key
            rows = []
            section, pair, direction = sections[i], pairs[i], directions[i]
            title = f"{who} {pair}"
            if session.numbering == "per-direction" and not individual:
                title += f" {GROUP_TITLES.get(direction, direction)}"
            if section:
                title = f"Section {section} · {title}"
            has_direction = (session.numbering != "per-direction" or key in switched_cards) and not individual
            out.append(Card(ids.by_key[key], title, names.get(key, ""),
                            standing_of.get(key, []) + totalled.get(key, []), header, has_round, has_direction, rows,
                            has_pct))
        opp_key = columns["opp_key"][i]
        opp_key = None if opp_key is None or opp_key is pd.NA else str(opp_key)
        rows.append(CardRow(
            board=int(columns["board"][i]), round=str(columns["round"][i]), direction=str(columns["seat"][i]),
            opponents=str(columns["opponents"][i]), opponent_names=names.get(opp_key, "") if opp_key else "",
            opponent_card=ids.by_key.get(opp_key) if opp_key else None,
            contract=cell_text(columns["contract"][i]), declarer=cell_text(columns["declarer"][i]), lead=cell_text(columns["lead"][i]),
            result=cell_text(columns["result"][i]), score=score[i], points=points[i], running=running[i],
            pct=pct[i]))
        if i + 1 == len(columns["key"]) or columns["key"][i + 1] != key:  # the card's last row: the boards it missed
            for board in missed.get(key, []):
                rows.append(CardRow(board=board, round="", direction="", opponents="", opponent_names="",
                                    opponent_card=None, contract="", declarer="", lead="",
                                    result="not played: no result for this pair", score="", points="", running="",
                                    pct=""))
            if not has_round:  # in board order (a card by rounds keeps its rounds, the missed boards after)
                rows.sort(key=lambda row: row.board)
    return out


def _missed_boards(cards: pd.DataFrame, results: pd.DataFrame) -> dict[str, list[int]]:
    """Each card's boards of its section that it has no result on (a sit-out, a round not played)."""
    played = cards.groupby("key")["board"].agg(set)
    section_of = cards.drop_duplicates("key").set_index("key")["section"]
    boards_of = results.assign(section=results["section"].fillna("")).groupby("section")["board"].agg(set)
    return {key: sorted(int(b) for b in boards_of.get(section_of[key], set()) - boards)
            for key, boards in played.items() if boards_of.get(section_of[key], set()) - boards}


def _totalled(cards: pd.DataFrame, standing_keys: list[str | None], standings: pd.DataFrame | None,
              session: Session) -> dict[str, list[str]]:
    """A line for each card whose boards do not add up to its total in the ranking, saying why (factoring
    or scaling): the running total 122 becomes 126.69."""
    if standings is None or not len(standings) or "running" not in cards:
        return {}
    last = cards.groupby("key")["running"].last()
    out: dict[str, list[str]] = {}
    conv = session.conventions
    why = {"mp": ("each board scored on its own top, the total scaled to the most boards played"
                  if conv.mp_top == "board" else f"boards played fewer times are factored to the full top "
                                                   f"({conv.factoring})"),
           "cross-imp": "the total is formed by the cross-IMP rule of the conventions",
           "butler": "the total is scaled for boards missed"}
    for key, total, method_name in zip(standing_keys, standings["total"], standings["method"]):
        if key is None or key not in last.index or pd.isna(last[key]) or pd.isna(total):
            continue
        if abs(float(last[key]) - float(total)) > 0.005:
            out.setdefault(key, []).append(
                f"The boards add up to {number_text(last[key])}; the ranking's total is {number_text(total)}: "
                f"{why.get(method_name, 'by the conventions')}")
    return out


def _conventions(session: Session) -> list[tuple[str, str, str]]:
    """(what, value, meaning) for each convention that matters to this session's scoring."""
    method = session.conventions.method
    rows = []
    for name, value, meaning in session.conventions_used:
        if name in DECLARED and method not in DECLARED[name].scoring:
            continue  # changes nothing in this session's results
        words = convention_words(name, value)
        if words is None:
            words = {True: "yes", False: "no"}.get(value, "") if isinstance(value, bool) else str(value)
            words = words or "automatic"
        rows.append((CONVENTION_LABELS.get(name, name.replace("_", " ").capitalize()), words,
                     meaning or CONVENTION_HELP.get(name, "")))
    return rows


def build_site(session: Session) -> Site:
    """The website's page models for a pairs (or individual) session."""
    ids = PageIds()
    results = session.results
    heads = pd.DataFrame(columns=["key", "section", "pair", "direction"])
    cards_frame, method = None, None
    if len(results):
        cards_frame, method = card_table(results, session.numbering)
        heads = cards_frame.drop_duplicates("key")[["key", "section", "pair", "direction"]]
    standings = session.standings if session.standings is not None else pd.DataFrame()
    standing_keys = _standing_keys(standings, heads, session.numbering) if len(standings) else []
    cards = _cards(session, ids, standing_keys, cards_frame, method) if cards_frame is not None else []
    rankings = _rankings(session, ids, standing_keys)
    rows_of = board_rows(session.boards)
    travellers_of = travellers(session, ids)
    numbers = sorted(set(rows_of) | set(travellers_of))
    frequencies_of, points_header = frequencies(session)
    deals = {n: deal_model(rows_of[n]) for n in rows_of}
    boards = []
    for position, number in enumerate(numbers):
        info = rows_of.get(number, {})
        boards.append(Board(number, cell_text(info.get("dealer")), cell_text(info.get("vul")), deals.get(number),
                            travellers_of.get(number, []),
                            numbers[position - 1] if position else None,
                            numbers[position + 1] if position + 1 < len(numbers) else None,
                            frequencies_of.get(number, ()), points_header))
    lines = heading_lines(session)
    return Site(title=lines[0], lines=[line for line in lines[1:-1]], lang=page_language(session.meta),
                rankings=rankings, cards=cards, boards=boards, deals=[d for d in deals.values() if d is not None],
                summary=conventions_summary(session.conventions), conventions=_conventions(session),
                origin=session.origin)


#: What other modules import from here: the page models and text helpers of ``boards`` too.
__all__ = ["CONVENTION_LABELS", "DD_HEADS", "Board", "Card", "CardRow", "Deal", "Ranking", "RankingRow", "Site",
           "board_rows", "build_site", "card_table", "deal_model", "number_text", "page_language", "par_text",
           "percent_text", "result_text", "slug"]
