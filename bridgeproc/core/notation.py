"""Contract, seat, result and artificial-score text in the notations clubs write.

Each distinct string is parsed once (``pd.factorize``) and the answers are mapped
back to every row with one ``take``, so a million rows cost little more than the
number of distinct spellings. Nothing is guessed: a string that matches no rule is
returned as an error message for its rows.

Accepted forms (case-insensitive, spaces ignored):

* contract ``4S`` ``4♠`` ``4 s`` ``3NT`` ``3N`` ``3SA`` (French/German) ``3BA``
  (Polish) ``3БК`` (Russian; also ``П Ч Б Т`` for the suits); doubled ``X x * D DBL``
  and Cyrillic ``Х х``, Russian ``к`` (контра), redoubled ``XX xx ** R RDBL``, ``ХХ``,
  ``рк`` (реконтра): ``4Пк`` is 4♠ doubled, ``3БКрк`` 3NT redoubled. ``3БК`` is always
  3NT, never 3♦ doubled (write ``3Бх`` or ``3♦к`` for that); passed out
  ``PASS P AP PO "passed out" "all pass" 0``, ``Passe`` ``Pas`` ``Пас`` ``Все пас``.
  A declarer seat and/or a result may follow the contract (``4SN=``, ``3NTX-2``).
* seat ``N E S W``, ``north`` ... , German ``O`` (Ost) for East (validate notes it
  once per file, as French ``O`` is Ouest), ``Z`` (Dutch zuid)
  for South, Russian ``С В Ю З``.
* result: ``=``, ``m``/``made``, a signed number (``+1``, ``-2``, ``−2`` with a minus
  sign, ``–2`` with an en dash) are
  relative to the contract; an unsigned number is the trick count (0-13). The
  ``result_style`` option forces ``tricks`` or ``relative`` reading of bare numbers.
* artificial scores (see ``ADJUSTED_HELP``).
* weighted scores (Law 12C1c, ``W 50% 4S=N; 50% 4S-1N``): see ``weighted``.
* fouled-board group labels (a ``Fouled`` column, see ``fouled_labels``): any short
  text names a group of tables that played a different deal (``F``, ``2``); blank,
  ``-``, ``0``, ``N``, ``No``, ``False`` mean the board as dealt.
"""
from __future__ import annotations

import re
from typing import Callable

import numpy as np
import pandas as pd

from bridgeproc.core.vocabulary import (  # noqa: F401  (the contract vocabulary, re-exported for callers)
    CONTRACT_RE,
    DOUBLING_ALIASES,
    PASSED_OUT,
    SEAT_ALIASES,
    STRAIN_ALIASES,
    SUIT_SYMBOLS,
    ResultStyle,
    alternation,
    normalise,
    parse_result,
    seat_categorical,
    strain_categorical,
)
from bridgeproc.core.weighted import is_weighted, parse_weighted
from bridgeproc.schema import STRAINS

_NOT_PLAYED = {"NP", "NOTPLAYED", "NOPLAY"}
_AVE_WORD = r"(?:AVERAGE|AVE|AVG|AV|A)"
_AVE_TOKEN = re.compile(rf"^{_AVE_WORD}(?P<sign>\+|-|PLUS|MINUS)?$")
_PERCENT = re.compile(r"^A?(?P<ns>\d{1,3}(?:[.,]\d+)?)%?(?:[/\-](?:A)?(?P<ew>\d{1,3}(?:[.,]\d+)?)%?)?$")
_PERCENT4 = re.compile(r"^A(?P<ns>\d{2})(?P<ew>\d{2})$")
_COMPLEMENT = {"A+": "A-", "A": "A", "A-": "A+"}

ADJUSTED_HELP = "artificial score (AVE, AVE+, AVE-, A+/A-, A60/40, 60%, NP)"


def _ave_token(text: str) -> str | None:
    m = _AVE_TOKEN.match(text)
    if not m:
        return None
    sign = {"+": "+", "PLUS": "+", "-": "-", "MINUS": "-"}.get(m.group("sign") or "", "")
    return "A" + sign


def _number(text: str) -> str | None:
    value = float(text.replace(",", "."))
    if not 0 <= value <= 100:
        return None
    return f"{value:g}"


def parse_adjusted(text: str) -> str | None:
    """Canonical artificial-score code (``A+/A-``, ``60/40``, ``NP``, ``W:50% 4SN=; ...``) or None.

    A single token is NS's share and EW get the complement (``AVE+`` -> ``A+/A-``,
    ``60%`` -> ``60/40``); ``A+/A+`` or ``60/60`` give each side its own.
    """
    if is_weighted(text):
        return parse_weighted(text).get("adjusted")
    t = text.upper().replace(" ", "")
    if t in _NOT_PLAYED:
        return "NP"
    single = _ave_token(t)
    if single:
        return f"{single}/{_COMPLEMENT[single]}"
    if "/" in t:
        left, _, right = t.partition("/")
        ns, ew = _ave_token(left), _ave_token(right)
        if ns and ew:
            return f"{ns}/{ew}"
    m = _PERCENT4.match(t)
    if m is None:
        m = _PERCENT.match(t)
        if m is None or not (t.startswith("A") or "%" in t or "/" in t or "-" in t[1:]):
            return None
    ns = _number(m.group("ns"))
    ew = _number(m.group("ew")) if m.group("ew") else (None if ns is None else f"{100 - float(ns):g}")
    if ns is None or ew is None:
        return None
    return f"{ns}/{ew}"


#: Fouled-board group cells that mean "the board as dealt" (the main group).
MAIN_DEAL = frozenset({"", "-", "–", "0", "NO", "N", "FALSE"})


def fouled_labels(values: pd.Series) -> pd.Series:
    """Canonical fouled-board group labels: stripped, upper case; NA for the main deal (``MAIN_DEAL``)."""
    codes, uniques = pd.factorize(values.astype("string"), use_na_sentinel=True)
    text = pd.Series(uniques, dtype="string").str.strip().str.upper()
    labels = pd.array(list(text.mask(text.isin(MAIN_DEAL))) + [pd.NA], dtype="string")
    return pd.Series(labels.take(np.where(codes < 0, len(uniques), codes)), index=values.index)


def parse_contract(text: str) -> dict:
    """Parse one contract cell; returns a dict of fields or ``{"error": ...}``."""
    if is_weighted(text):
        weighted = parse_weighted(text)
        return {"error": weighted["error"]} if "error" in weighted else {"adjusted": weighted["adjusted"]}
    t = normalise(text)
    if t in PASSED_OUT or t in {"PASSEDOUT", "ALLPASSED"}:
        return {"level": 0}
    m = CONTRACT_RE.match(t)
    if m:
        out: dict[str, int | str] = {
            "level": int(m.group("level")),
            "strain": STRAIN_ALIASES[m.group("strain")],
            "doubled": DOUBLING_ALIASES[m.group("doubled") or ""],
        }
        if m.group("declarer"):
            out["declarer"] = SEAT_ALIASES[m.group("declarer")]
            if m.group("declarer") in AMBIGUOUS_SEATS:
                out["ambiguous"] = True
        if m.group("result"):
            out["result"] = m.group("result")
        return out
    adjusted = parse_adjusted(text)
    if adjusted is not None:
        return {"adjusted": adjusted}
    return {"error": f"{text!r} is not a contract; write e.g. 4S, 3NTX, 2HXX, PASS, or an {ADJUSTED_HELP}"}


#: Seat letters that other languages read otherwise: ``O`` is East here (German Ost) but West in French (Ouest).
AMBIGUOUS_SEATS = frozenset({"O"})


def parse_seat(text: str) -> dict:
    """Parse one seat cell into ``{"seat": 0..3}`` (``ambiguous`` set for ``O``, read as East) or an error."""
    t = normalise(text)
    if t in SEAT_ALIASES:
        return {"seat": SEAT_ALIASES[t], "ambiguous": True} if t in AMBIGUOUS_SEATS else {"seat": SEAT_ALIASES[t]}
    return {"error": f"{text!r} is not a seat; write N, E, S or W"}


class Parsed:
    """Answers of a per-distinct-value parser, held once per distinct value.

    ``codes`` maps each row to its distinct value (-1 for missing); ``table`` has one
    row per distinct value. Per-row arrays are made with one ``take`` on demand.
    """

    def __init__(self, codes: np.ndarray, answers: list[dict]) -> None:
        self.codes = codes
        self.answers = answers

    def _table(self, name: str, default, dtype) -> np.ndarray:
        values = [a.get(name, default) for a in self.answers]
        return np.array([default if v is None else v for v in values] + [default], dtype=dtype)

    def ints(self, name: str, default: int = -1) -> np.ndarray:
        """Per-row int32 values of field ``name`` (``default`` where absent or missing)."""
        return self._table(name, default, np.int32).take(self.codes)

    def derived(self, fn: Callable[[dict], int], default: int = 0) -> np.ndarray:
        """Per-row int32 values of ``fn(answer)``, computed once per distinct value."""
        table = [fn(a) if "error" not in a and "empty" not in a else default for a in self.answers]
        return np.array(table + [default], dtype=np.int32).take(self.codes)

    def floats(self, name: str) -> np.ndarray:
        """Per-row float64 values of field ``name`` (NaN where absent or missing)."""
        return self._table(name, np.nan, np.float64).take(self.codes)

    def has(self, name: str) -> np.ndarray:
        """Per-row bool: the field ``name`` is present (e.g. ``has("error")``)."""
        return np.array([name in a for a in self.answers] + [name == "empty"], dtype=bool).take(self.codes)

    def texts(self, name: str) -> np.ndarray:
        """Per-row object array of field ``name`` (None where absent)."""
        return np.array([a.get(name) for a in self.answers] + [None], dtype=object).take(self.codes)


def per_distinct(values: pd.Series, read: Callable[[pd.Series], pd.Series]) -> pd.Series:
    """``read`` (text work on a column) done once per distinct cell of ``values`` and spread back to
    every row: a chunk's 14,400 pair cells hold a dozen distinct numbers. A missing cell stays missing."""
    codes, uniques = pd.factorize(values.astype("string"))
    done = read(pd.Series(uniques, dtype="string")).array
    return pd.Series(done.take(codes, allow_fill=True), index=values.index)


def each_distinct(values: pd.Series, shown: Callable[[str], str]) -> pd.Series:
    """``shown`` (a Python function of one text) applied once per distinct cell of ``values``, as text; a
    missing cell stays missing. For the few spellings a column repeats, where even one pandas string
    method per distinct value costs more than the Python itself."""
    codes, uniques = pd.factorize(values.astype("string"))
    done = pd.array([shown(u) for u in uniques.tolist()], dtype="string")
    return pd.Series(done.take(codes, allow_fill=True), index=values.index)


def parse_unique(values, parse_one: Callable[[str], dict]) -> Parsed:
    """Parse each distinct value of ``values`` once (blank and missing cells count as empty).

    ``values`` may be a Series or an array of str/None; it is factorised as is and only
    the distinct values are stripped and parsed, so the cost per row is one hash lookup.
    """
    array = values.to_numpy(dtype=object, na_value=None) if isinstance(values, pd.Series) else np.asarray(values, dtype=object)
    codes, uniques = pd.factorize(array, use_na_sentinel=True)
    answers = []
    for u in uniques:
        text = str(u).strip()
        answers.append(parse_one(text) if text else {"empty": True})
    return Parsed(np.where(codes < 0, len(answers), codes), answers)


_DOUBLING_TEXT = ("", "X", "XX")
#: Canonical contract text indexed by level*15 + strain*3 + doubled (level 0 = PASS).
CONTRACT_TEXT = np.array(
    ["PASS" if level == 0 else f"{level}{STRAINS[s]}{_DOUBLING_TEXT[d]}"
     for level in range(8) for s in range(5) for d in range(3)],
    dtype=object,
)


def contract_name(level: int, strain: str | None, doubled: int) -> str:
    """One contract's canonical text (``4SX``, ``PASS``): the scalar :func:`contract_text`."""
    return str(CONTRACT_TEXT[level * 15 + (STRAINS.index(strain) if level else 0) * 3 + doubled])


#: The same with suit symbols (``4♠X``, ``3NT``), for people rather than files.
CONTRACT_SYMBOLS = np.array(
    [c.replace("NT", "N_").translate(str.maketrans("SHDC", "♠♥♦♣")).replace("N_", "NT") if c != "PASS" else "Pass"
     for c in CONTRACT_TEXT],
    dtype=object,
)


def contract_text(level: pd.Series, strain: pd.Series, doubled: pd.Series, adjusted: pd.Series | None = None,
                  symbols: bool = False) -> pd.Series:
    """Canonical contract text (``4SX``, ``3NT``, ``PASS``); the code for artificial scores.

    With ``symbols`` the strain is a suit symbol (``4♠X``) and a passed-out board reads ``Pass``.
    """
    lv = level.to_numpy(dtype=np.int64, na_value=-1)
    st = strain.cat.codes.to_numpy().astype(np.int64).clip(0)
    db = doubled.to_numpy(dtype=np.int64, na_value=0)
    table = CONTRACT_SYMBOLS if symbols else CONTRACT_TEXT
    text = np.where(lv >= 0, table.take(lv.clip(0) * 15 + st * 3 + db), None)
    out = pd.Series(text, index=level.index, dtype="string")
    if adjusted is not None:
        out = out.where(adjusted.isna(), adjusted)
    return out


class ResultCodes:
    """Integer codes (int32) of parsed result text, one array per field (see ``parse_results_text``)."""

    def __init__(self, contract: Parsed, declarer: Parsed, result: Parsed) -> None:
        self.contract, self.declarer_parsed, self.result = contract, declarer, result
        self.level = contract.ints("level")            # -1: not a contract (error, empty or artificial)
        #: level*15 + strain*3 + doubled, 0 for anything but a played contract (scoring.SCORE_NS axis).
        self.contract_code = contract.derived(
            lambda a: a["level"] * 15 + a.get("strain", 0) * 3 + a.get("doubled", 0) if a.get("level") else 0)
        self.strain = contract.ints("strain")
        self.doubled = contract.ints("doubled", 0)
        seat = declarer.ints("seat")
        embedded = contract.ints("declarer")
        self.declarer = np.where(seat >= 0, seat, embedded)
        relative = result.ints("relative", -99)
        self.tricks = np.where(relative != -99, self.level + 6 + relative, result.ints("tricks", -99))
        self.played = self.level > 0

    @property
    def valid(self) -> np.ndarray:
        """Rows that are a complete passed-out or played result (no artificial score)."""
        complete = (self.declarer >= 0) & (self.tricks >= 0) & (self.tricks <= 13)
        return (self.level == 0) | (self.played & complete)


def parse_results_text(contract, declarer, result, result_style: ResultStyle = "auto") -> ResultCodes:
    """Parse contract, declarer and result text columns into integer codes.

    A declarer or result written inside the contract cell (``4SN=``) is used when the
    separate column is empty. Check ``valid`` (and each Parsed's ``has("error")``)
    before scoring.
    """
    contract_parsed = parse_unique(contract, parse_contract)
    seat_parsed = parse_unique(declarer, parse_seat)
    result_array = result.to_numpy(dtype=object, na_value=None) if isinstance(result, pd.Series) else np.asarray(result, dtype=object)
    embedded = contract_parsed.texts("result")
    blank = pd.isna(result_array) | (result_array == "")
    if blank.any() and np.any(embedded != None):  # noqa: E711 - elementwise test for None
        result_array = np.where(blank, embedded, result_array)
    return ResultCodes(contract_parsed, seat_parsed, parse_unique(result_array, lambda t: parse_result(t, result_style)))


#: Suit spellings of a lead card: letters and symbols. Ranks: ``A K Q J T 9 ... 2`` and ``10``.
_LEAD_SUITS = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C",
               "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
_LEAD_RANKS = {"A": "A", "K": "K", "Q": "Q", "J": "J", "T": "T", "10": "T", **{str(r): str(r) for r in range(2, 10)}}
#: Rank letters of other languages, read only after a suit symbol (after a suit letter ``SD`` or
#: ``HB`` would be ambiguous): Russian Т (туз) К Д В, German/French D (Dame), German B (Bube)
#: and Dutch B (boer), French R (roi), Dutch H (heer). French V (valet) is Dutch V (vrouw): not taken.
_LOCAL_RANKS = {"Т": "A", "К": "K", "Д": "Q", "В": "J", "D": "Q", "B": "J", "R": "K", "H": "K"}
_SYMBOLS = "♠♥♦♣♤♡♢♧"
_LEAD = re.compile(r"^(?:(?P<s1>[SHDC♠♥♦♣♤♡♢♧])(?P<r1>10|[AKQJT2-9])|(?P<r2>10|[AKQJT2-9])(?P<s2>[SHDC♠♥♦♣♤♡♢♧])"
                   rf"|(?P<s3>[{_SYMBOLS}])(?P<r3>[ТКДВDBRH]))$")


def _lead_card(text: str) -> str | None:
    m = _LEAD.match(text.replace(" ", "").upper())
    if not m:
        return None
    if m["s3"]:
        return _LEAD_SUITS[m["s3"]] + _LOCAL_RANKS[m["r3"]]
    suit, rank = (m["s1"], m["r1"]) if m["s1"] else (m["s2"], m["r2"])
    return _LEAD_SUITS[suit] + _LEAD_RANKS[rank]


def lead_cards(lead: pd.Series) -> pd.Series:
    """A lead column as PBN cards (``HA``, ``DT``): ``♥A``, ``ha``, ``AH``, ``H10``, ``♦10`` all read
    alike; NA where the cell is empty or is not a card (the caller says which). One parse per spelling."""
    codes, uniques = pd.factorize(lead.astype("string"), use_na_sentinel=True)
    cards = np.array([_lead_card(str(u)) for u in uniques] + [None], dtype=object)
    return pd.Series(cards[codes], index=lead.index, dtype="string")


_SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_text(cards: pd.Series) -> pd.Series:
    """PBN cards as members read them: ``HT`` -> ``♥10``, ``SA`` -> ``♠A``; anything else unchanged."""
    return each_distinct(cards, _card_shown)


def _card_shown(text: str) -> str:
    if len(text) == 2 and text[0] in _SUIT_SYMBOL and text[1] in "AKQJT23456789":
        return _SUIT_SYMBOL[text[0]] + ("10" if text[1] == "T" else text[1])
    return text
