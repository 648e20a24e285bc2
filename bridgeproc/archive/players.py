"""How players are named and matched in the archive: a pair's names text split into players, and
the key a player is found by (``archive history``)."""
from __future__ import annotations

import re

#: Separators between the players of a pair in a names text ("Ann Smith & Bob Jones").
NAME_SEPARATORS = re.compile(r"\s*&\s*|\s+(?:and|-|–|/|\+)\s+|\s*/\s*")

def split_names(names: str) -> list[str]:
    """The players of a pair's names text, e.g. ``"Ann Smith & Bob Jones"`` -> two names."""
    return [part.strip() for part in NAME_SEPARATORS.split(names) if part and part.strip()]


def player_key(name: str) -> str:
    """How players are matched: case-folded, single spaces."""
    return " ".join(name.split()).casefold()
