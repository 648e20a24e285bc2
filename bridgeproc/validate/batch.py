"""Many clubs' results checked at once (a simultaneous event's chunk): the batched check.

The plain clubs of a chunk (no names list, no section letters on the pair numbers) are checked together
in one check per pair numbering (:func:`check_club`: typed, scored, checked, as ``bridgeproc score`` does
it), each club's sections under a placeholder of its own (``<index>~<section>``) so that no check sees two
clubs as one section. A club the shared check finds anything to say about, or whose numbering the check
decides otherwise than guessed, is handed back to be checked alone, so that its problems and notes read
exactly as ``bridgeproc check`` gives them. Text is built once per distinct cell (factorized codes).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from bridgeproc.core.notation import per_distinct
from bridgeproc.core.pairs import combine_codes, numbering_by_group
from bridgeproc.errors import ValidationError
from bridgeproc.scoring.results import score_results
from bridgeproc.validate.results import Checked, check_scored, type_results

#: Placeholder section of a club inside a chunk check: ``<index>~<section>`` (digits survive upper-casing).
_PLACEHOLDER = "~"
#: A pair cell with a section letter (``A3``, ``B-12``).
_PREFIXED_PAIR = r"^\s*[A-Za-z]{1,2}\s*-?\s*\d"


def check_club(raw: pd.DataFrame, numbering: str, boards: pd.DataFrame | None, names: pd.DataFrame | None,
               checks: Mapping[str, Any]) -> Checked:
    """One frame typed, scored and checked as ``bridgeproc score`` does it (``checks``: the keywords of
    ``type_results`` other than the numbering, the hand record and the names)."""
    typed = type_results(raw, pair_numbering_option=numbering,  # type: ignore[arg-type]  # a numbering checked by the caller
                         boards=boards if boards is not None and len(boards) else None, names=names, **checks)
    return check_scored(typed, score_results(typed.results, typed.boards))


def _texts_of(codes: np.ndarray, count: int, text: Callable[[int], str]) -> pd.Series:
    """A ``string`` column from dense codes 0..count-1 (in order of first appearance, as
    ``combine_codes`` numbers them): ``text(row)`` built once per code, at its first row."""
    first = np.unique(codes, return_index=True)[1]
    texts = np.array([text(int(row)) for row in first], dtype=object)
    return pd.Series(pd.array(texts[codes], dtype="string"))


def prefixed_clubs(raw: pd.DataFrame, code: np.ndarray, clubs: int) -> np.ndarray:
    """For each club (``code``: each row's club) whether a pair cell carries a section letter
    (``A3``): such a club's pair numbers are read with its sections, so it is checked alone."""
    found = np.zeros(clubs, dtype=bool)
    for side in ("ns", "ew"):
        if side not in raw:
            continue
        cells, texts = pd.factorize(raw[side].astype("string"))  # each pair number looked at once
        if not len(texts):
            continue
        hit = pd.Series(texts, dtype="string").str.contains(_PREFIXED_PAIR).to_numpy(dtype=bool, na_value=False)
        found[np.unique(code[(cells >= 0) & hit[np.maximum(cells, 0)]])] = True
    return found


def club_results(results: pd.DataFrame, club: str) -> pd.DataFrame:
    """``results`` of ``club`` with the club's columns and each section named ``club/section``."""
    own = results["section"].astype("string").fillna("")
    section = (club + "/" + own).where(own != "", club)
    return results.assign(section=section.astype("string"), club=pd.Series(club, index=results.index, dtype="string"),
                          club_section=own.astype("string"))


def _named_all(results: pd.DataFrame, club_code: np.ndarray, clubs: Sequence[str]) -> pd.DataFrame:
    """:func:`club_results` for the results of several clubs at once (``club_code``: each row's index in
    ``clubs``); each ``club/section`` text is built once."""
    own = results["section"].astype("string").fillna("")
    own_code, owns = pd.factorize(own)
    combo, count = combine_codes(club_code, own_code, len(owns))
    names = np.asarray(clubs, dtype=object)

    def text(row: int) -> str:
        club, section = str(names[club_code[row]]), str(owns[own_code[row]])
        return f"{club}/{section}" if section else club
    section = _texts_of(combo, count, text)
    return results.assign(section=section.set_axis(results.index),
                          club=pd.Series(pd.array(names[club_code], dtype="string"), index=results.index),
                          club_section=own)


def _guess_numbering(raw: pd.DataFrame, code: np.ndarray, clubs: int) -> np.ndarray:
    """Each club's pair numbering read from the raw cells (checked after validation)."""
    def pair(side: str) -> pd.Series:
        return per_distinct(raw[side], lambda s: s.str.strip().str.replace(r"^0+(?=\d)|\.0+$", "", regex=True))

    section = per_distinct(raw["section"], lambda s: s.str.strip().str.upper()) if "section" in raw else pd.Series(
        "", index=raw.index, dtype="string")
    board = per_distinct(raw["board"], lambda s: pd.to_numeric(s.str.strip(), errors="coerce").astype("Float64"))
    guess = numbering_by_group(section.fillna(""), board.fillna(-1).to_numpy(dtype=float), pair("ns"), pair("ew"), code)
    return np.pad(guess, (0, max(0, clubs - len(guess))))


def _file_sets(raw: pd.DataFrame, code: np.ndarray, clubs: int) -> tuple[list[set], list[set]]:
    """Each club's files (``source`` before ``!Sheet``): with a missing source, and without it."""
    cells, sources = pd.factorize(raw["source"].astype("string"), use_na_sentinel=False)
    files = [str(s).split("!")[0] if not pd.isna(s) else pd.NA for s in sources]
    seen = pd.unique(code.astype(np.int64) * max(len(sources), 1) + cells)
    every: list[set] = [set() for _ in range(clubs)]
    for value in seen:
        every[int(value) // max(len(sources), 1)].add(files[int(value) % max(len(sources), 1)])
    return every, [{f for f in s if not pd.isna(f)} for s in every]


@dataclass
class Together:
    """What the shared check of a chunk's plain clubs gave: each club's index -> its results (a checked
    frame, already named per club, and the club's rows in it) and its pair numbering; ``again``: the clubs
    to check alone."""

    kept: dict[int, tuple[pd.DataFrame, np.ndarray]] = field(default_factory=dict)
    numbering: dict[int, str] = field(default_factory=dict)
    again: set[int] = field(default_factory=set)


def check_together(raw: pd.DataFrame, code: np.ndarray, clubs: Sequence[str], boards: pd.DataFrame | None,
                   checks: Mapping[str, Any]) -> Together:
    """Check the plain clubs of a chunk (``raw``: their rows, ``code``: each row's index in ``clubs``)
    in one :func:`check_club` per pair numbering; a club the check finds anything to say about is
    handed back in ``again``."""
    own = raw["section"].astype("string").fillna("") if "section" in raw else pd.Series(
        "", index=raw.index, dtype="string")
    own_code, owns = pd.factorize(own)
    stripped = pd.Series(owns, dtype="string").str.strip().to_numpy(dtype=object)
    combo, count = combine_codes(code, own_code, len(owns))
    raw = raw.assign(section=_texts_of(combo, count, lambda row: f"{code[row]}{_PLACEHOLDER}{stripped[own_code[row]]}")
                     .set_axis(raw.index))
    per_direction = _guess_numbering(raw, code, len(clubs))
    files, known_files = _file_sets(raw, code, len(clubs))
    out = Together()
    for flag, numbering in ((True, "per-direction"), (False, "shared")):
        members = np.flatnonzero(per_direction == flag)
        if not len(members):
            continue
        part = raw[np.isin(code, members)]
        try:
            checked = check_club(part, numbering, boards, None, checks)
        except ValidationError as exc:
            failing = set(exc.problems["source"].astype("string").str.split("!").str[0])
            out.again |= {int(i) for i in members if files[i] & failing}
            if not out.again & {int(i) for i in members}:
                out.again |= {int(i) for i in members}  # cannot tell whose: check each alone
            continue
        results = checked.results
        cells, sections = pd.factorize(results["section"].astype("string"))
        split = [str(s).split(_PLACEHOLDER, 1) for s in sections]
        club_code = np.array([int(s[0]) for s in split], dtype=np.int64)[cells]
        own_texts = pd.array([s[1] for s in split], dtype="string")
        results = results.assign(section=pd.Series(own_texts.take(cells), index=results.index))
        decided = numbering_by_group(results["section"].astype("string").fillna(""),
                                     results["board"].to_numpy(), results["ns"], results["ew"], club_code)
        noted: set[str] = set()
        if len(checked.notes):
            noted = {str(s).split("!")[0] for s in pd.unique(checked.notes["source"].astype("string").dropna())}
        # every club's columns at once (club, club/section), then each club's rows cut out by position
        named = _named_all(results, club_code, clubs)
        order = np.argsort(club_code, kind="stable")
        starts = np.searchsorted(club_code[order], np.arange(len(clubs) + 1))
        for i in map(int, members):
            if bool(decided[i]) != flag or known_files[i] & noted:
                out.again.add(i)
                continue
            out.kept[i] = (named, order[starts[i]:starts[i + 1]])
            out.numbering[i] = numbering
    return out
