"""Weighted scores (Law 12C1c): parsing the director's notation and scoring each part.

Weighted scores (Law 12C1c) are typed in the contract cell: ``W`` (or ``W:``,
``Weighted``), then parts separated by ``;`` (or ``|``), each a percentage and a
contract with its result and declarer in either order, ``by`` and ``of`` allowed::

    W 50% 4S=N; 30% 4S-1N; 20% 3NT=S
    W: 50% of 4S= by N | 50% of 4SX-2 by N
    W 100% 3NT=S                      (an assigned score: one part)

The percentages must add up to 100 (thirds: 33.33, 33.33, 33.34); a part may be
``PASS``. The canonical code (the ``adjusted`` column) is ``W:`` and the parts as
``50% 4SN=; 30% 4SN-1; 20% 3NTS=``; once scored (``validate``) each part carries
its NS score on the board's vulnerability: ``W:50% 4SN= +420; 30% 4SN-1 -50;
20% 3NTS= +400``. A score after a part (``+420``, at least 50 or 0) is read back.

A weighted row is kept whole in the results' ``adjusted`` column; :func:`score_weighted`
writes each part's NS score into the code, and the ranking methods (``rank``) weigh the
parts. Contract, seat and result text are read with ``notation``'s vocabulary.
"""
from __future__ import annotations

import re

from bridgeproc.core.vocabulary import (
    CONTRACT_RE,
    DOUBLING_ALIASES,
    MINUS_SIGNS,
    PASSED_OUT,
    SEAT_ALIASES,
    STRAIN_ALIASES,
    SUIT_SYMBOLS,
    alternation,
    parse_result,
)
from bridgeproc.schema import SEATS, STRAINS

WEIGHTED_EXAMPLE = "W 50% 4S=N; 30% 4S-1N; 20% 3NT=S"
_WEIGHTED_HEAD = re.compile(r"^\s*(?:WEIGHTED|WTD|W)\s*:?\s*(?=\d)")
_WEIGHTED_PART = re.compile(r"^(?P<weight>\d{1,3}(?:[.,]\d+)?)\s*(?:%|\s)\s*(?:OF\s+)?(?P<rest>.*?)"
                            r"(?:\s+(?P<score>[+-](?:0|[5-9]0|[1-9]\d{2,4})))?$")
_RESULT_FIRST_RE = re.compile(
    rf"^(?P<level>[1-7])(?P<strain>{alternation(STRAIN_ALIASES)})"
    rf"(?P<doubled>{alternation([d for d in DOUBLING_ALIASES if d])})?"
    rf"(?P<result>=|[+\-]\d{{1,2}})[-/]?(?P<declarer>{alternation(SEAT_ALIASES)})$"
)


def is_weighted(text: str) -> bool:
    """True when ``text`` starts like a weighted score (``W 50% ...``, ``W:...``)."""
    return bool(_WEIGHTED_HEAD.match(text.upper()))


def _weighted_part(text: str) -> dict:
    """One part (``50% 4S=N``): weight, level, strain, doubled, declarer, tricks, text, score; or error."""
    m = _WEIGHTED_PART.match(text.translate(SUIT_SYMBOLS).translate(MINUS_SIGNS).upper().strip())
    if m is None:
        return {"error": "is not 'percentage contract result declarer'"}
    weight = float(m.group("weight").replace(",", "."))
    score = int(m.group("score")) if m.group("score") else None
    t = re.sub(r"\bBY\b", "", m.group("rest")).replace(" ", "")
    if t in PASSED_OUT:
        return {"weight": weight, "level": 0, "strain": 0, "doubled": 0, "declarer": 0, "tricks": 0,
                "text": "PASS", "score": score}
    c = CONTRACT_RE.match(t) or _RESULT_FIRST_RE.match(t)
    if c is None:
        return {"error": "is not 'percentage contract result declarer'"}
    if not c.group("result") or not c.group("declarer"):
        missing = "result" if not c.group("result") else "declarer"
        return {"error": f"has no {missing}; write the result and declarer after the contract, e.g. 50% 4S-1N",
                "fix": True}
    level = int(c.group("level"))
    result = parse_result(c.group("result"))
    tricks = result.get("tricks", level + 6 + result.get("relative", 0))
    if not 0 <= tricks <= 13:
        return {"error": f"means {tricks} tricks, which is impossible (0-13); correct the contract or the result",
                "fix": True}
    strain, doubled = STRAIN_ALIASES[c.group("strain")], DOUBLING_ALIASES[c.group("doubled") or ""]
    declarer = SEAT_ALIASES[c.group("declarer")]
    over = tricks - level - 6
    text = f"{level}{STRAINS[strain]}{'X' * doubled}{SEATS[declarer]}{'=' if over == 0 else f'{over:+d}'}"
    return {"weight": weight, "level": level, "strain": strain, "doubled": doubled, "declarer": declarer,
            "tricks": tricks, "text": text, "score": score}


def weighted_code(parts: list[dict], scores=None) -> str:
    """Canonical code of weighted ``parts``; with ``scores`` (NS, one per part) each part carries its score."""
    texts = [f"{p['weight']:g}% {p['text']}" for p in parts]
    if scores is not None:
        texts = [f"{t} {int(s):+d}" for t, s in zip(texts, scores)]
    return "W:" + "; ".join(texts)


def parse_weighted(text: str) -> dict:
    """Parse a weighted score (see the module docstring).

    Returns ``{"adjusted": code, "parts": [...]}`` (the code without scores; each part
    a dict with ``weight`` in percent, ``level`` (0 = passed out), ``strain``,
    ``doubled``, ``declarer``, ``tricks``, ``text`` and ``score``, None unless written)
    or ``{"error": message}`` naming the part that is wrong and how to write it.
    """
    head = _WEIGHTED_HEAD.match(text.upper())
    body = text[head.end():] if head else text
    pieces = [p.strip() for p in re.split(r"[;|]", body) if p.strip()]
    parts = []
    for i, piece in enumerate(pieces, 1):
        part = _weighted_part(piece)
        if "error" in part:
            hint = "" if part.get("fix") else f"; write e.g. {WEIGHTED_EXAMPLE}"
            return {"error": f"{text!r}: part {i} {piece!r} {part['error']}{hint}"}
        if not 0 < part["weight"] <= 100:
            return {"error": f"{text!r}: part {i} {piece!r} has weight {part['weight']:g}%; "
                             "each percentage must be above 0 and at most 100"}
        parts.append(part)
    total = sum(p["weight"] for p in parts)
    if not parts or abs(total - 100) > 1e-6:
        thirds = " (thirds: 33.33, 33.33, 33.34)" if len(parts) == 3 else ""
        return {"error": f"{text!r}: the percentages add up to {total:g}%, not 100%; correct them{thirds}"}
    return {"adjusted": weighted_code(parts), "parts": parts}
