"""How players are named and matched in the archive: a pair's names text split into players, the key
a player is stored under, and who is the same player across sessions (``archive history``, ``ladder``).

Identity: a player's member id (the names list's ``ids``, one per player) when the row has one;
else the name, matched regardless of case, order ("Strand, Anna" = "Anna Strand"), commas and
spacing. Accents are kept: "Åse" and "Ase" are two players (Nordic å, ä, ö, ø are letters of their
own), unless ``fold_accents`` asks otherwise; composed and decomposed forms of one letter are
always equal (Unicode NFC). A name seen without an id takes the id it has elsewhere when it has
exactly one; a name with two ids is two players, and its rows without an id stay apart.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

#: Separators between the players of a pair in a names text ("Ann Smith & Bob Jones").
NAME_SEPARATORS = re.compile(r"\s*&\s*|\s+(?:and|-|–|/|\+)\s+|\s*/\s*")
#: Between the member ids of a pair's players ("964263 & 1066307").
ID_SEPARATOR = re.compile(r"\s*&\s*")
#: Prefixes of an identity: who is known by member id, who only by name.
BY_ID, BY_NAME = "id:", "name:"


def split_names(names: str) -> list[str]:
    """The players of a pair's names text, e.g. ``"Ann Smith & Bob Jones"`` -> two names."""
    return [part.strip() for part in NAME_SEPARATORS.split(names) if part and part.strip()]


def player_key(name: str) -> str:
    """The key stored in the ``players`` table: case-folded, single spaces (kept as it was, so
    archives written before and after read alike; :func:`name_key` is how players are matched)."""
    return " ".join(name.split()).casefold()


def name_key(name: str, fold_accents: bool = False) -> str:
    """How a name without a member id is matched: NFC, case-folded, commas read as spaces, its words
    sorted ("Strand, Anna", "anna strand" and "Anna  Strand" -> ``"anna strand"``). ``fold_accents``:
    also drop accents (å -> a, é -> e; ø, æ and ß have none to drop)."""
    text = unicodedata.normalize("NFC", name).casefold().replace(",", " ")
    if fold_accents:
        text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return " ".join(sorted(text.split()))


def name_keys(players: pd.Series, fold_accents: bool = False) -> pd.Series:
    """:func:`name_key` of each name (computed once per distinct name); NA names give ``""``."""
    written = players.astype("string").fillna("")
    uniques = pd.unique(written.to_numpy())
    keys = dict(zip(uniques, (name_key(str(u), fold_accents) for u in uniques)))
    return pd.Series(written.map(keys).to_numpy(), index=players.index, dtype="string")


def seat_ids(ids: pd.Series, seats: pd.Series, players: pd.Series) -> pd.Series:
    """The member id of the player at seat ``seats`` (0, 1 ...) of each row, from the pair's ids text
    (``"964263 & 1066307"``), upper case; NA unless the text has one id for each of the row's
    ``players``: an ids text with fewer ids lost its empty cells when written, so whose they are is
    unknown."""
    codes, texts = pd.factorize(ids.astype("string").to_numpy(dtype=object))  # NA: -1
    # one split per distinct ids text (a pair's text recurs once per player), each id cleaned once
    split = [ID_SEPARATOR.split(t.strip()) if t.strip() else [] for t in texts]
    count = np.array([len(parts) for parts in split] + [0], dtype=np.int64)  # [-1]: no text, no ids
    start = np.cumsum(count) - count  # [-1]: the None after every id
    flat = np.array([p.strip().upper() or None for parts in split for p in parts] + [None], dtype=object)
    seat = seats.to_numpy(dtype=np.int64)
    wanted = players.to_numpy(dtype=np.int64)
    fits = (wanted > 0) & (count[codes] == wanted) & (seat >= 0) & (seat < wanted)
    picked = flat[np.where(fits, start[codes] + seat, len(flat) - 1)]
    return pd.Series(pd.array(picked, dtype="string"), index=ids.index)


@dataclass
class Identities:
    """Who each player row is: ``key`` (``id:964263`` or ``name:anna strand``), ``name`` (the
    spelling shown: the most used, the latest on a tie), ``member_id``, ``name_key`` (:func:`name_key`); ``matches``: every merge
    made, in words ("'Strand, Anna' and 'anna strand' taken as one player")."""

    key: pd.Series
    name: pd.Series
    member_id: pd.Series
    name_key: pd.Series
    matches: list[str] = field(default_factory=list)


def identify(players: pd.Series, ids: pd.Series, fold_accents: bool = False) -> Identities:
    """The identity of each player row: ``players`` the names as written, ``ids`` their member ids
    (NA when none), rows oldest first (the latest spelling wins a tie); a row without a name has
    none (NA).

    Worked out once per distinct (name as written, member id) — a season's 100,000 rows hold a few
    hundred — weighted by how often and when each was seen, then spread back over the rows."""
    written_rows = players.astype("string").fillna("").to_numpy(dtype=object)
    codes, each = distinct_identities(written_rows, ids.astype("string").to_numpy(dtype=object), fold_accents)

    def spread(values: pd.Series) -> pd.Series:
        return pd.Series(values.array.take(codes), index=players.index, dtype="string")

    return Identities(spread(each.key), spread(each.name), spread(each.member_id), spread(each.name_key),
                      each.matches)


def distinct_identities(players: np.ndarray, ids: np.ndarray, fold_accents: bool = False) -> tuple[np.ndarray, Identities]:
    """:func:`identify` without spreading back: ``players`` the names as written (an object array, ``""``
    for none), ``ids`` the member ids (None or NA for none), rows oldest first. Returns each row's code
    (0, 1, ... per distinct name and member id, in order of first appearance) and the
    :class:`Identities` of those codes (one row each), for callers that work on the codes."""
    name_codes, names = pd.factorize(players)
    id_codes, id_values = pd.factorize(ids, use_na_sentinel=True)
    pair_codes, pairs = pd.factorize(name_codes.astype(np.int64) * (len(id_values) + 1) + id_codes + 1)
    codes = np.asarray(pair_codes, dtype=np.int64)
    pairs = np.asarray(pairs, dtype=np.int64)
    # how often and how late each (name, id) was seen: rows are oldest first
    n = np.bincount(codes, minlength=len(pairs))
    last = np.full(len(pairs), -1, dtype=np.int64)
    np.maximum.at(last, codes, np.arange(len(codes), dtype=np.int64))
    raw_id = pairs % (len(id_values) + 1) - 1
    written = pd.Series(pd.array(np.asarray(names, dtype=object).take(pairs // (len(id_values) + 1)),
                                 dtype="string"))
    by_name = name_keys(written, fold_accents)
    mid = pd.Series(np.where(raw_id >= 0, id_values.take(np.maximum(raw_id, 0)) if len(id_values) else None, None),
                    dtype="string").str.strip().str.upper()
    mid = mid.where(mid.fillna("") != "")
    known = pd.DataFrame({"name": by_name, "id": mid}).dropna()
    per_name = known.drop_duplicates().groupby("name")["id"]
    count = per_name.nunique()
    only = per_name.first()[count == 1]
    adopted = mid.isna() & by_name.isin(only.index)
    final_id = mid.fillna(by_name.map(only).astype("string").where(adopted))
    key = pd.Series(np.where(final_id.notna(), BY_ID + final_id.fillna(""), BY_NAME + by_name.fillna("")),
                    dtype="string").where(written.str.strip() != "")
    frame = pd.DataFrame({"key": key, "written": written, "n": n, "last": last, "adopted": adopted,
                          "name": by_name, "id": mid})
    spelled = frame.assign(shown=[" ".join(w.split()) for w in written.tolist()])
    tally = (spelled.groupby(["key", "shown"], sort=False).agg(n=("n", "sum"), last=("last", "max"))
             .reset_index().sort_values(["n", "last"], ascending=False).drop_duplicates("key"))
    shown = spelled["key"].map(tally.set_index("key")["shown"]).astype("string")
    return codes, Identities(key, shown, final_id.astype("string"), by_name, _matches(frame, count[count > 1]))


def _quoted(names: list[str]) -> str:
    quoted = [repr(n) for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _matches(frame: pd.DataFrame, ambiguous: pd.Series) -> list[str]:
    """The merges :func:`identify` made, and the names it left apart, in words (``frame``: one row per
    distinct name and id, in order of first appearance, ``n`` how many rows it stands for)."""
    out = []
    spellings = frame.drop_duplicates(["key", "written"])
    merged = spellings[spellings.duplicated("key", keep=False)]
    for key, rows in merged.groupby("key", sort=True):
        names = _quoted(rows["written"].tolist())
        if str(key).startswith(BY_ID):
            member = str(key)[len(BY_ID):]
            lent = rows["adopted"].any()
            how = f"member id {member}" + (", the only member id their name has" if lent else "")
            out.append(f"{names} taken as one player ({how})")
        else:
            out.append(f"{names} taken as one player (the same name)")
    for name, _ in ambiguous.items():
        ids = sorted(frame.loc[frame["name"] == name, "id"].dropna().unique().tolist())
        apart = int(frame.loc[frame["name"].eq(name) & frame["id"].isna(), "n"].sum())
        line = f"{_quoted(sorted(set(frame.loc[frame['name'] == name, 'written'])))} are {len(ids)} players " \
               f"by member id ({', '.join(ids)})"
        out.append(line + (f"; {apart} row(s) without a member id kept apart" if apart else ""))
    return out
