"""A movement in two or more sections (A, B, ...): each section plays the same movement with its own pairs,
numbered from 1 in each, on its own copy of the boards, so that a board can be compared across the field."""
from __future__ import annotations

import dataclasses
import string

import pandas as pd

from bridgeproc.movements.model import Movement

#: The most sections a movement is given (their letters A to Z).
MAX_SECTIONS = 26


def section_letters(count: int) -> list[str]:
    """The letters of ``count`` sections: A, B, ..."""
    return list(string.ascii_uppercase[:count])


def in_sections(movement: Movement, count: int) -> Movement:
    """``movement`` played in ``count`` sections (one: as it is); ValueError for more than :data:`MAX_SECTIONS`."""
    if not 1 <= count <= MAX_SECTIONS:
        raise ValueError(f"{count} sections: give 1 to {MAX_SECTIONS}")
    if count == 1:
        return movement
    seating = pd.concat([movement.seating.assign(section=pd.array([letter] * len(movement.seating), dtype="string"))
                         for letter in section_letters(count)], ignore_index=True)
    return dataclasses.replace(movement, seating=seating, name=f"{movement.name}, in {count} sections "
                                                                f"({', '.join(section_letters(count))})")
