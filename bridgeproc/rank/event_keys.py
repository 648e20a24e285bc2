"""Pairs of an event matched across its sessions: the key each pair is known by in every session.

A pair is matched by its number (:func:`number_key`, built alike in every session), its players'
names (:func:`names_key`) or their member numbers (:func:`ids_key`); the keys of a whole event
(:func:`matched_keys`) are refused, every problem listed, when a pair has none, two pairs of a session
share one, or a session's pairs are certainly keyed otherwise than the other sessions'. The
combination of the sessions into the event ranking is ``rank.event``'s.
"""
from __future__ import annotations

import pandas as pd

from bridgeproc.errors import ValidationError
from bridgeproc.schema import problems_frame

__all__ = ["MIN_MATCHED_SHARE", "ids_key", "matched_keys", "names_key", "number_key"]

#: Separators between the two players of a pair's names (a hyphen only with spaces: Juuri-Oja is one name).
_PLAYERS = r"\s+[-\u2013\u2014]\s+|\s*[&/+;]\s*|\s+and\s+"

#: Below this share of a session's pairs (of the smaller side) found in the other sessions, the
#: sessions are certainly keyed differently (another numbering, sections in one and not the other).
MIN_MATCHED_SHARE = 0.5


def names_key(names: pd.Series) -> pd.Series:
    """Pair names as one key regardless of case, spacing, the players' order and ``Strand, Anna``:
    ``"Strand, Anna - Bo  Ek"`` and ``"bo ek & anna strand"`` are both ``anna strand & bo ek``.
    NA where there are no names."""
    text = names.astype("string").str.strip().str.replace(r"\s+", " ", regex=True)
    players = text.str.split(_PLAYERS, regex=True)
    # one part with commas between whole names ("Anna Strand, Bo Ek"): the commas separate the players
    single = players.str.len() == 1
    comma_pair = single & text.str.fullmatch(r"[^,]+ [^,]+(?:, ?[^,]+ [^,]+)+").fillna(False)
    players = players.where(~comma_pair, text.str.split(r"\s*,\s*", regex=True))
    long = players.explode().astype("string").str.strip()
    last_first = long.str.extract(r"^([^,]+),\s*(.+)$")
    long = (last_first[1] + " " + last_first[0]).fillna(long).str.casefold().str.strip()
    long = long[long.notna() & (long != "")]
    joined = long.groupby(level=0).agg(lambda p: " & ".join(sorted(p)))
    return joined.reindex(names.index).astype("string")


def ids_key(ids: pd.Series) -> pd.Series:
    """Member numbers as one key in any order and spelling (``964263 & 1066307``); NA where none."""
    long = ids.astype("string").str.split(r"[^0-9A-Za-z]+", regex=True).explode().astype("string")
    long = long[long.notna() & (long != "")].str.casefold()
    joined = long.groupby(level=0).agg(lambda p: "+".join(sorted(p)))
    return joined.reindex(ids.index).astype("string")


def number_key(table: pd.DataFrame) -> pd.Series:
    """The key a pair is matched by number with, built alike in every session: ``section:direction:number``,
    the section only when the session has several, the direction only when it numbers NS and EW apart.

    From the ``section``/``direction``/``number`` columns of :func:`session_table` when there, else from
    the standings' group (``A NS``) and pair, the session numbering per direction when a number is in both
    the NS and the EW ranking of a section."""
    if "number" in table:
        section = table["section"].astype("string").fillna("")
        direction = table["direction"].astype("string").fillna("")
        number = table["number"].astype("string")
    else:
        group = table["group"].astype("string").fillna("ALL")
        spaced = group.str.contains(" ", regex=False)
        section = group.str.rsplit(" ", n=1).str[0].where(spaced, "").astype("string")
        line = group.str.rsplit(" ", n=1).str[-1].astype("string")
        number = table["pair"].astype("string")
        sides = pd.DataFrame({"s": section, "n": number.str.strip().str.casefold(), "d": line})
        sides = sides[sides["d"].isin(["NS", "EW"])]
        per_direction = bool((sides.groupby(["s", "n"])["d"].nunique() > 1).any())
        direction = line.where(line.isin(["NS", "EW"]) & per_direction, "").astype("string")
    if section.nunique() < 2:
        section = pd.Series("", index=table.index, dtype="string")
    return (section + ":" + direction + ":" + number.str.strip().str.casefold()).astype("string")


def _shown_key(key: str, match: str) -> str:
    if match != "number":
        return key
    section, direction, number = key.split(":", 2)
    return " ".join(p for p in (f"section {section}" if section else "", direction, number) if p)


def _unmatched(long: pd.DataFrame, key: pd.Series, match: str, labels: list[str]) -> list[dict]:
    """A session of which fewer than :data:`MIN_MATCHED_SHARE` of the pairs that could be found (the
    fewer of its pairs and the other sessions') are found in the other sessions: the sessions are
    certainly keyed differently (sections in one and not another, NS and EW numbered apart in one
    only, another numbering), and an event of them would be pairs that each played one session."""
    pairs = pd.DataFrame({"session": long["session"], "key": key}).dropna().drop_duplicates()
    if pairs["session"].nunique() < 2:
        return []
    rows = []
    for session, mine in pairs.groupby("session", sort=True):  # a handful of sessions
        others = pairs.loc[pairs["session"] != session, "key"].drop_duplicates()
        found = int(mine["key"].isin(others).sum())
        could = min(len(mine), len(others))
        if could and found / could < MIN_MATCHED_SHARE:
            here = ", ".join(_shown_key(k, match) for k in mine["key"].head(3))
            there = ", ".join(_shown_key(k, match) for k in others.head(3))
            if match == "number":
                fix = ("the sessions number their pairs differently (sections in one and not another, NS and EW "
                       "numbered apart in one only, or a new numbering); match the pairs by their players: "
                       "--match names (or --match ids), with a names list for each session")
            else:
                fix = (f"check the {'names' if match == 'names' else 'member ids'} in each session's names list, "
                       "or match otherwise (--match number)")
            rows.append({"source": labels[int(session) - 1], "column": match, "value": f"{found} of {could}",
                         "message": f"only {found} of {could} pairs of this session are found in the other sessions "
                                    f"by {match} (here {here} ...; there {there} ...): {fix}"})
    return rows


def matched_keys(long: pd.DataFrame, match: str, labels: list[str]) -> pd.Series:
    """The event key of each row by ``match``; ValidationError listing every pair without one, every two
    pairs of a session that share one, and every session whose pairs are certainly keyed otherwise than
    the other sessions' (:func:`_unmatched`)."""
    rows: list[dict] = []
    if match == "number":
        key = long["number_key"]
    else:
        key = names_key(long["names"]) if match == "names" else ids_key(long["ids"])
        what = "names" if match == "names" else "member ids"
        for row in long[key.isna()].itertuples():
            rows.append({"source": labels[row.session - 1], "column": match, "value": row.pair,
                         "message": f"pair {row.pair} has no {what}: pairs are matched by {what} (give a names "
                                    f"list with them, or match by number)"})
    twice = long.assign(key=key)[key.notna()]
    twice = twice[twice.duplicated(subset=["session", "key"], keep=False)]
    for (session, value), group in twice.groupby(["session", "key"], sort=True):
        pairs = " and ".join(group["pair"].astype(str))
        rows.append({"source": labels[int(session) - 1], "column": match, "value": _shown_key(str(value), match),
                     "message": f"pairs {pairs} have the same {match} ({_shown_key(str(value), match)}): they cannot "
                                f"be told apart across sessions; correct the names list or match otherwise"})
    if not rows:
        rows = _unmatched(long, key, match, labels)
    if rows:
        raise ValidationError(problems_frame(rows))
    return key.astype("string")
