"""The board pages' models, with no HTML in them: each board's hand diagram, double dummy and
par, its travellers; and the text every page shows the same way (numbers, percentages, results,
anchors). The pairs site (``site``), the teams site and the simultaneous site build on these.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from bridgeproc.core.deal import SEAT_NAMES, DealError, hcp, parse_deal
from bridgeproc.core.pairs import pair_keys
from bridgeproc.core.shown import kind_of, shown_frame, texts
from bridgeproc.model import Session
from bridgeproc.rank.frequencies import frequency_table
from bridgeproc.rank.methods import ranking_method
from bridgeproc.report.travellers import BOARD_FACTS, METHOD_COLUMNS, traveller_table
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
    #: Each column's class on a phone (``phone_class``): ``wide`` hidden there, ``phone`` shown only there.
    classes: list[str] | None = None


#: A traveller's columns a phone leaves out (the lead, the mirror of each NS figure), and the one it shows
#: instead of NS + and EW +: the NS score with its sign.
_WIDE_ONLY = ("Lead", "NS +", "EW +")


def phone_class(header: str) -> str:
    """``wide`` for a column a phone leaves out, ``phone`` for the one only a phone shows, else empty."""
    if header == "Score":
        return "phone"
    return "wide" if header in _WIDE_ONLY or header.endswith(" EW") else ""


@dataclass(frozen=True)
class Frequency:
    """One line of a board's frequency table: a score (NS), how many scored it, and what it earned."""

    score: str
    results: int
    points_ns: str
    points_ew: str


@dataclass(frozen=True)
class Board:
    number: int
    dealer: str
    vul: str
    deal: Deal | None
    travellers: list[Traveller]
    previous: int | None = None
    next: int | None = None
    #: How often each result was scored (best for NS first), and the heading of its points.
    frequencies: tuple[Frequency, ...] = ()
    points_header: str = ""


def frequencies(session: Session) -> tuple[dict[int, tuple[Frequency, ...]], str]:
    """Each board's frequency table (rank.frequencies: per NS score, an artificial score apart, its count and
    the field's points for it), and the points' heading (MP, IMPs)."""
    results = session.results
    method = ranking_method(session.conventions.method)
    if not len(results) or any(c not in results for c in method.points):
        return {}, ""
    table = frequency_table(results, session.conventions)
    score = table["adjusted"].astype("string").fillna(table["score_ns"].astype("Int64").astype("string")).fillna("")
    ns, ew = texts(table["points_ns"], method.unit), texts(table["points_ew"], method.unit)
    rows: dict[int, list[Frequency]] = {}
    for board, text, count, one, other in zip(table["board"].tolist(), score.tolist(), table["results"].tolist(),
                                              list(ns), list(ew)):
        rows.setdefault(int(board), []).append(Frequency(str(text), int(count), str(one), str(other)))
    return {board: tuple(lines) for board, lines in rows.items()}, method.card_header


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


#: The longest slug: a page's file name stays far below the 255 bytes a file system allows.
MAX_SLUG = 80


def slug(text: str) -> str:
    """Lower-case letters, digits and hyphens only: safe in a file name and an anchor. A long one (a
    300-character section name) is cut and ends in a digest of the whole, so two stay apart."""
    made = re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-") or "x"
    if len(made) <= MAX_SLUG:
        return made
    digest = hashlib.sha1(made.encode("utf-8"), usedforsecurity=False).hexdigest()[:10]
    return f"{made[:MAX_SLUG - 11].rstrip('-')}-{digest}"


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


class PageIds:
    """Unique page and anchor ids for pair keys (``:1:NS`` -> ``ns-1``)."""

    def __init__(self) -> None:
        self.by_key: dict[str, str] = {}
        self._taken: set[str] = set()

    def add(self, key: str, section: str, pair: str, direction: str | None) -> str:
        """The id of ``key``, made on first sight from its section, direction and number."""
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


def cell_text(value: object) -> str:
    """A frame cell as page text: blank for a missing value (None, NA, NaN)."""
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


def deal_model(row: dict) -> Deal | None:
    """The hand diagram, double dummy and par of one board (a row of :func:`board_rows`); None
    when the board has no readable deal (a results-only file)."""
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
    return Deal(int(row["board"]), cell_text(row.get("dealer")), cell_text(row.get("vul")), hands, dd,
                par_text(row.get("par_score"), row.get("par_contracts")))


def board_rows(boards: pd.DataFrame) -> dict[int, dict]:
    """The boards frame by board number, one plain dict per board (missing cells None), first row kept."""
    if boards is None or not len(boards):
        return {}
    ordered = boards.drop_duplicates("board").sort_values("board")
    columns = list(ordered.columns)
    return {int(values[columns.index("board")]): dict(zip(columns, values))
            for values in zip(*(ordered[c].astype(object).where(ordered[c].notna(), None) for c in columns))}


def travellers(session: Session, ids: PageIds) -> dict[int, list[Traveller]]:
    """Each board's travellers (one per section), the pairs linked to their cards by ``ids``."""
    results = session.results
    if not len(results):
        return {}
    table = traveller_table(shown_frame(results))  # the numbers as every output shows them (core.shown)
    ns_key, ew_key = pair_keys(table, session.numbering)
    shown = [(c, h, f) for c, h, f in METHOD_COLUMNS if c in table and table[c].notna().any()]
    headers = ["NS", "EW", "Contract", "By", "Lead", "Tricks", "Score", "NS +", "EW +"] + [h for _, h, _ in shown]
    classes = [phone_class(h) for h in headers]
    plus_ns = pd.to_numeric(table["plus_ns"], errors="coerce")
    signed = plus_ns.fillna(-pd.to_numeric(table["plus_ew"], errors="coerce"))
    several_sections = table["section"].nunique() > 1
    cells = [table[c].astype(object).where(table[c].notna(), None).tolist()
             for c in ("contract", "declarer", "lead", "tricks", "plus_ns", "plus_ew")]
    extra = [["" if pd.isna(v) else str(v) for v in table[c].astype(object)] if f is None else
             [t or "" for t in texts(table[c], kind_of(c))] for c, _, f in shown]
    out: dict[int, list[Traveller]] = {}
    blocks: dict[tuple[str, int], Traveller] = {}
    facts_of = {c: table[c].tolist() for c, _, _ in BOARD_FACTS if c in table}
    pairs = [[str(v) for v in table[c].tolist()] for c in ("ns", "ew")]
    keys = [[str(v) for v in k.tolist()] for k in (ns_key, ew_key)]
    signed_values = signed.tolist()
    for i, (section, board) in enumerate(zip(table["section"], table["board"])):
        block = blocks.get((section, board))
        if block is None:
            facts = []
            for column, label, fmt in BOARD_FACTS:
                value = facts_of.get(column, [None] * len(table))[i]
                if value is not None and pd.notna(value):
                    facts.append(f"{label.capitalize()} {fmt.format(float(value))}")
            title = f"Section {section}" if several_sections and section else "Traveller"
            block = blocks[(section, board)] = Traveller(title, facts, headers, [], classes)
            out.setdefault(int(board), []).append(block)
        row = ([cell_text(cells[0][i]), cell_text(cells[1][i]), cell_text(cells[2][i]), number_text(cells[3][i], 0),
                number_text(signed_values[i], 0)] + [number_text(cells[k][i], 0) for k in (4, 5)])
        block.rows.append(TravellerRow(pairs[0][i], ids.by_key.get(keys[0][i]), pairs[1][i], ids.by_key.get(keys[1][i]),
                                       row + [column[i] for column in extra]))
    return out
