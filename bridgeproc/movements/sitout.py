"""A half table: a movement with one pair missing (an odd number of pairs). The missing pair's place is
kept, numbered :data:`PHANTOM`; each round the pair it would meet sits out and the boards at that table
are not played there. Nothing else moves, so every other promise of the movement holds."""
from __future__ import annotations

import dataclasses
import re

import numpy as np

from bridgeproc.movements.model import PHANTOM, Movement

_PAIR = re.compile(r"^\s*(?:(?P<before>NS|EW)\s*)?(?P<pair>\d{1,3})\s*(?P<after>NS|EW)?\s*$", re.I)


def missing_pair(text: str, numbering: str) -> tuple[int, str | None]:
    """``7NS``, ``NS 7``, ``7EW`` (a Mitchell numbers its pairs per direction) or ``14`` (a Howell) -> the
    pair and its direction; ValueError when the text is not that."""
    m = _PAIR.match(text)
    side = m and (m.group("before") or m.group("after"))
    if m is None or (m.group("before") and m.group("after")):
        raise ValueError(f"--sitout {text!r}: give the missing pair, e.g. 7NS or 7EW (a Mitchell) or 14 (a Howell)")
    if numbering == "per-direction" and not side:
        raise ValueError(f"--sitout {text!r}: a Mitchell numbers NS and EW pairs apart: give 7NS or 7EW")
    if numbering == "shared" and side:
        raise ValueError(f"--sitout {text!r}: a Howell's pairs are numbered once: give the pair's number alone")
    return int(m.group("pair")), side.lower() if side else None


def with_sitout(movement: Movement, pair: int, side: str | None = None, section: str | None = None) -> Movement:
    """``movement`` with ``pair`` missing (its direction ``ns``/``ew`` for a Mitchell; ``section`` one of its
    sections, by default the last). ValueError when the movement has no such pair."""
    seating = movement.seating
    sections = list(dict.fromkeys(seating["section"]))
    section = sections[-1] if section is None else section
    if section not in sections:
        raise ValueError(f"there is no section {section} in the movement")
    where = (seating["section"] == section).to_numpy()
    sides = [side] if side else ["ns", "ew"]
    found = {s: where & (seating[s] == pair).to_numpy() for s in sides}
    if not any(mask.any() for mask in found.values()):
        named = f"{pair} {side.upper()}" if side else str(pair)
        raise ValueError(f"there is no pair {named} in the movement" + (f" (section {section})" if len(sections) > 1
                                                                          else ""))
    seating = seating.assign(**{s: np.where(mask, PHANTOM, seating[s]) for s, mask in found.items()})
    named = f"{pair} {side.upper()}" if side else str(pair)
    in_section = f" of section {section}" if len(sections) > 1 else ""
    return dataclasses.replace(movement, seating=seating,
                               name=f"{movement.name}, pair {named}{in_section} missing (a half table: a sit-out each "
                                    "round)", sitout=f"{section}{named}".replace(" ", ""))
