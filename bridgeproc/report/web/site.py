"""The results website's page models, built from a :class:`Session` with no HTML in them: the
rankings, each pair's score card, each board (diagram, double dummy, par, travellers), the hand
records and the conventions in words. The templates (``templates/``) only lay these out.

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
from bridgeproc.core.deal import SEAT_NAMES, DealError, hcp, parse_deal
from bridgeproc.core.notation import contract_text
from bridgeproc.core.pairs import pair_directions, pair_keys
from bridgeproc.model import Session
from bridgeproc.rank import is_individual
from bridgeproc.rank.conventions import CONVENTION_HELP, CONVENTION_LABELS
from bridgeproc.rank.methods import METHODS, methods_in
from bridgeproc.report.ranking import GROUP_TITLES, METHOD_TITLES
from bridgeproc.report.travellers import BOARD_FACTS, METHOD_COLUMNS, lead_text, traveller_table
from bridgeproc.report.workbook import conventions_summary, heading_lines
from bridgeproc.schema import DD_COLUMNS

#: The suits of a hand diagram, in the order of a PBN hand: (symbol, red).
HAND_SUITS = (("♠", False), ("♥", True), ("♦", True), ("♣", False))
#: Double-dummy table columns: (strain in the boards frame, what a member reads).
DD_HEADS = (("NT", "NT"), ("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣"))
#: Double-dummy table rows, as the hand records print them.
DD_SEAT_ORDER = "NSEW"
_PAR_SUIT = re.compile(r"(\d)([SHDC])")
_PAR_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: A language tag as ``<html lang>`` takes it (BCP 47's shape, not its registry).
_LANGUAGE = re.compile(r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$")

#: The conventions that matter for each kind of scoring (the others change nothing in the results).
_MP_ONLY = {"mp_scale", "factoring", "expected", "centred", "mp_decimals", "ave_plus", "ave", "ave_minus",
            "adjusted_mode", "mp_top", "fouled"}
_IMP_ONLY = {"cross_imp", "datum_drop", "datum_drop_share", "imp_ave_plus", "sitout", "imp_per_board"}
_VALUE_WORDS: dict[tuple[str, object], str] = {
    ("method", "mp"): "Matchpoints", ("method", "cross-imp"): "Cross-IMPs", ("method", "butler"): "Butler IMPs",
    ("factoring", "neuberg"): "Neuberg's formula", ("factoring", "average"): "missing results count as ties",
    ("factoring", "none"): "not factored",
    ("adjusted_mode", "fixed"): "fixed percentages", ("adjusted_mode", "session"): "or the pair's own session %, if better",
    ("mp_top", "full"): "the full top", ("mp_top", "board"): "each board's own top",
    ("winners", "auto"): "from the movement", ("winners", "one"): "one ranking", ("winners", "two"): "North-South and East-West apart",
    ("pair_numbering", "auto"): "from the movement", ("pair_numbering", "shared"): "one number per pair",
    ("pair_numbering", "per-direction"): "North-South and East-West numbered apart",
    ("sitout", "none"): "plain sums", ("sitout", "scale"): "scaled to all boards",
    ("sitout", "most"): "scaled to the most boards played",
    ("fouled", "neuberg"): "each group factored to the full top", ("fouled", "acbl"): "ACBL percentages",
    ("cross_imp", "sum"): "summed", ("cross_imp", "average"): "averaged per comparison",
    ("cross_imp", "average-n"): "averaged per result", ("cross_imp", "board-average"): "averaged per board, then summed",
}


@dataclass(frozen=True)
class RankingRow:
    rank: str
    pair: str
    names: str
    boards: int
    total: str
    pct: str
    card: str | None


@dataclass(frozen=True)
class Ranking:
    id: str
    title: str
    total_header: str
    has_pct: bool
    rows: list[RankingRow]


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


@dataclass(frozen=True)
class Hand:
    seat: str
    name: str
    hcp: int | None
    suits: list[tuple[str, bool, str]]


@dataclass(frozen=True)
class Deal:
    board: int
    dealer: str
    vul: str
    hands: dict[str, Hand]
    dd: list[tuple[str, list[str]]]
    par: str


@dataclass(frozen=True)
class TravellerRow:
    ns: str
    ns_card: str | None
    ew: str
    ew_card: str | None
    cells: list[str]


@dataclass(frozen=True)
class Traveller:
    title: str
    facts: list[str]
    headers: list[str]
    rows: list[TravellerRow]


@dataclass(frozen=True)
class Board:
    number: int
    dealer: str
    vul: str
    deal: Deal | None
    travellers: list[Traveller]
    previous: int | None = None
    next: int | None = None


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
    generator: str = f"bridgeproc {__version__}"
    notes: list[str] = field(default_factory=list)


def number_text(value: object, decimals: int = 2) -> str:
    """A number as a member reads it: at most ``decimals`` decimals, no trailing zeros; blank when missing."""
    if value is None or pd.isna(value):  # type: ignore[call-overload]
        return ""
    text = f"{float(value):.{decimals}f}"  # type: ignore[arg-type]
    text = text.rstrip("0").rstrip(".") if "." in text else text
    return "0" if text == "-0" else text


def percent_text(value: object) -> str:
    """A percentage with two decimals always (51.60, not 51.6), so a column of them lines up."""
    if value is None or pd.isna(value):  # type: ignore[call-overload]
        return ""
    return f"{float(value):.2f}"  # type: ignore[arg-type]


def slug(text: str) -> str:
    """Lower-case letters, digits and hyphens only: safe in a file name and an anchor."""
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-") or "x"


def page_language(meta: dict) -> str:
    """``<html lang>``: the event's language when it gives a well-formed one, else English."""
    for key in ("language", "lang"):
        value = str(meta.get(key) or "").strip()
        if _LANGUAGE.match(value):
            return value
    return "en"


def result_text(level: pd.Series, tricks: pd.Series, adjusted: pd.Series) -> pd.Series:
    """Tricks against the contract: ``=``, ``+1``, ``-2``; blank for a pass-out or an artificial score."""
    lv = level.to_numpy(dtype=np.float64, na_value=np.nan)
    over = tricks.to_numpy(dtype=np.float64, na_value=np.nan) - (lv + 6)
    played = (lv > 0) & ~np.isnan(over) & adjusted.isna().to_numpy()
    safe = np.where(played, over, 0).astype(np.int64)
    text = np.where(safe == 0, "=", np.where(safe > 0, np.char.add("+", safe.astype(str)), safe.astype(str)))
    return pd.Series(np.where(played, text, ""), index=level.index, dtype=object)


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


class _Ids:
    """Unique page and anchor ids for pair keys (``:1:NS`` -> ``ns-1``)."""

    def __init__(self) -> None:
        self.by_key: dict[str, str] = {}
        self._taken: set[str] = set()

    def add(self, key: str, section: str, pair: str, direction: str | None) -> str:
        if key in self.by_key:
            return self.by_key[key]
        base = slug("-".join(part for part in (section, direction or "", pair) if part))
        made, number = base, 1
        while made in self._taken:
            number += 1
            made = f"{base}-{number}"
        self._taken.add(made)
        self.by_key[key] = made
        return made


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
        found = {key for key, sec, direction in by_pair.get(str(pair).casefold(), [])
                 if (not section or sec == section)
                 and (numbering != "per-direction" or line not in ("NS", "EW") or direction == line)}
        keys.append(found.pop() if len(found) == 1 else None)
    return keys


def _rankings(session: Session, ids: _Ids, standing_keys: list[str | None]) -> list[Ranking]:
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
            out.append(Ranking(
                id=slug(f"ranking-{method if len(methods) > 1 else ''}-{group}"), title=title,
                total_header=unit, has_pct=bool(rows["pct"].notna().any()),
                rows=[RankingRow(str(rank), str(pair), names if isinstance(names, str) else "", int(boards),
                                 number_text(total), percent_text(pct), ids.by_key.get(key) if key else None)
                      for rank, pair, names, boards, total, pct, key
                      in zip(rows["rank"], rows["pair"], rows["names"], rows["boards"], rows["total"], rows["pct"], keys)]))
    return out


def _group_order(group: str) -> tuple:
    section, _, line = group.rpartition(" ")
    return (section, {"NS": 0, "EW": 1}.get(line, 2), group)


def _cards(session: Session, ids: _Ids, standing_keys: list[str | None], cards: pd.DataFrame, method) -> list[Card]:
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
        for key, method_name, rank, total, pct, group in zip(standing_keys, standings["method"], standings["rank"],
                                                              standings["total"], standings["pct"], standings["group"]):
            if key is None:
                continue
            size = int((standings["group"] == group).sum()) if not several else \
                int(((standings["group"] == group) & (standings["method"] == method_name)).sum())
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
    points = [number_text(v) for v in cards["points"].astype("Float64")]
    running = [number_text(v) for v in cards["running"].astype("Float64")]
    out: list[Card] = []
    rows: list[CardRow] = []
    current: str | None = None
    for i, key in enumerate(columns["key"]):
        if key != current:
            current = key
            rows = []
            section, pair, direction = cards.at[i, "section"], cards.at[i, "pair"], cards.at[i, "direction"]
            title = f"{who} {pair}"
            if session.numbering == "per-direction" and not individual:
                title += f" {GROUP_TITLES.get(direction, direction)}"
            if section:
                title = f"Section {section} · {title}"
            has_direction = (session.numbering != "per-direction" or key in switched_cards) and not individual
            out.append(Card(ids.by_key[key], title, names.get(key, ""), standing_of.get(key, []), header, has_round,
                            has_direction, rows))
        opp_key = columns["opp_key"][i]
        opp_key = None if opp_key is None or opp_key is pd.NA else str(opp_key)
        rows.append(CardRow(
            board=int(columns["board"][i]), round=str(columns["round"][i]), direction=str(columns["seat"][i]),
            opponents=str(columns["opponents"][i]), opponent_names=names.get(opp_key, "") if opp_key else "",
            opponent_card=ids.by_key.get(opp_key) if opp_key else None,
            contract=_text(columns["contract"][i]), declarer=_text(columns["declarer"][i]), lead=_text(columns["lead"][i]),
            result=_text(columns["result"][i]), score=score[i], points=points[i], running=running[i]))
    return out


def _text(value: object) -> str:
    return "" if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)) else str(value)


def par_text(score: object, contracts: object) -> str:
    """``Par EW 4♣, EW +130``; blank when the board has no par."""
    if score is None or pd.isna(score):  # type: ignore[call-overload]
        return ""
    value = int(score)  # type: ignore[call-overload]
    shown = _PAR_SUIT.sub(lambda m: m.group(1) + _PAR_SYMBOL[m.group(2)], contracts) \
        if isinstance(contracts, str) and contracts else ""
    if value == 0:
        return f"Par {shown}, 0".replace("Par , 0", "Par 0")
    side = "NS" if value > 0 else "EW"
    return f"Par {shown}, {side} +{abs(value)}" if shown else f"Par {side} +{abs(value)}"


def _deal(row: dict) -> Deal | None:
    text = row.get("deal")
    if not isinstance(text, str) or not text:
        return None
    try:
        hands_text, points = parse_deal(text), hcp(text)
    except DealError:
        return None
    hands = {}
    for seat in "NESW":
        holding = hands_text.get(seat)
        suits = [(symbol, red, ranks.replace("T", "10") or "—")
                 for (symbol, red), ranks in zip(HAND_SUITS, holding.split("."))] if holding else []
        hands[seat] = Hand(seat, SEAT_NAMES[seat], points.get(seat), suits)
    dd: list[tuple[str, list[str]]] = []
    if all(column in row for column in DD_COLUMNS):
        for seat in DD_SEAT_ORDER:
            values = [row.get(f"dd_{seat}_{strain}") for strain, _ in DD_HEADS]
            dd.append((seat, [number_text(v, 0) for v in values]))
        if all(not cell for _, cells in dd for cell in cells):
            dd = []
    return Deal(int(row["board"]), _text(row.get("dealer")), _text(row.get("vul")), hands, dd,
                par_text(row.get("par_score"), row.get("par_contracts")))


def _board_rows(boards: pd.DataFrame) -> dict[int, dict]:
    if boards is None or not len(boards):
        return {}
    ordered = boards.drop_duplicates("board").sort_values("board")
    columns = list(ordered.columns)
    return {int(values[columns.index("board")]): dict(zip(columns, values))
            for values in zip(*(ordered[c].astype(object).where(ordered[c].notna(), None) for c in columns))}


def _travellers(session: Session, ids: _Ids) -> dict[int, list[Traveller]]:
    results = session.results
    if not len(results):
        return {}
    table = traveller_table(results)
    ns_key, ew_key = pair_keys(table, session.numbering)
    shown = [(c, h, f) for c, h, f in METHOD_COLUMNS if c in table and table[c].notna().any()]
    headers = ["NS", "EW", "Contract", "By", "Lead", "Tricks", "NS +", "EW +"] + [h for _, h, _ in shown]
    several_sections = table["section"].nunique() > 1
    cells = [table[c].astype(object).where(table[c].notna(), None).tolist()
             for c in ("contract", "declarer", "lead", "tricks", "plus_ns", "plus_ew")]
    extra = [[number_text(v) for v in table[c].astype(object)] for c, _, _ in shown]
    out: dict[int, list[Traveller]] = {}
    blocks: dict[tuple[str, int], Traveller] = {}
    facts_of = {c: table[c].tolist() for c, _, _ in BOARD_FACTS if c in table}
    for i, (section, board) in enumerate(zip(table["section"], table["board"])):
        block = blocks.get((section, board))
        if block is None:
            facts = []
            for column, label, fmt in BOARD_FACTS:
                value = facts_of.get(column, [None] * len(table))[i]
                if value is not None and pd.notna(value):
                    facts.append(f"{label.capitalize()} {fmt.format(float(value))}")
            title = f"Section {section}" if several_sections and section else "Traveller"
            block = blocks[(section, board)] = Traveller(title, facts, headers, [])
            out.setdefault(int(board), []).append(block)
        row = [_text(cells[0][i]), _text(cells[1][i]), _text(cells[2][i])] + [number_text(cells[k][i], 0) for k in (3, 4, 5)]
        ns, ew = str(table.at[i, "ns"]), str(table.at[i, "ew"])
        block.rows.append(TravellerRow(ns, ids.by_key.get(str(ns_key.iat[i])), ew, ids.by_key.get(str(ew_key.iat[i])),
                                       row + [column[i] for column in extra]))
    return out


def _conventions(session: Session) -> list[tuple[str, str, str]]:
    """(what, value, meaning) for each convention that matters to this session's scoring."""
    imps = session.conventions.method != "mp"
    rows = []
    for name, value, meaning in session.conventions_used:
        if name in (_MP_ONLY if imps else _IMP_ONLY):
            continue
        if name in ("datum_drop", "datum_drop_share") and session.conventions.method != "butler":
            continue
        if name == "cross_imp" and session.conventions.method != "cross-imp":
            continue
        words = _VALUE_WORDS.get((name, value))
        if words is None:
            words = {True: "yes", False: "no"}.get(value, "") if isinstance(value, bool) else str(value)
            words = words or "automatic"
        rows.append((CONVENTION_LABELS.get(name, name.replace("_", " ").capitalize()), words,
                     meaning or CONVENTION_HELP.get(name, "")))
    return rows


def build_site(session: Session) -> Site:
    """The website's page models for a pairs (or individual) session."""
    ids = _Ids()
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
    board_rows = _board_rows(session.boards)
    travellers = _travellers(session, ids)
    numbers = sorted(set(board_rows) | set(travellers))
    deals = {n: _deal(board_rows[n]) for n in board_rows}
    boards = []
    for position, number in enumerate(numbers):
        info = board_rows.get(number, {})
        boards.append(Board(number, _text(info.get("dealer")), _text(info.get("vul")), deals.get(number),
                            travellers.get(number, []),
                            numbers[position - 1] if position else None,
                            numbers[position + 1] if position + 1 < len(numbers) else None))
    lines = heading_lines(session)
    return Site(title=lines[0], lines=[line for line in lines[1:-1]], lang=page_language(session.meta),
                rankings=rankings, cards=cards, boards=boards, deals=[d for d in deals.values() if d is not None],
                summary=conventions_summary(session.conventions), conventions=_conventions(session))
