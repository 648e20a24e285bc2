"""The archive's players against double dummy (``bridgeproc archive profile``): every latest pairs
session whose deals are known, each result's declarer play and opening lead measured by
:mod:`bridgeproc.analysis.profile`, and the figures gathered per player (players known as ``archive
history`` knows them).

The bidding is measured by the contract each result reached against the board's par, both double dummy
(:func:`against_par`). A pairs result says which side declared and which side led, not which partner: a
player's figures are those of the partnerships they played in (the notes say so); so is the defence after
the lead, measured where a result's file gave its play (a PBN's Play section, archived as the results'
``play`` column), except in an individual, where each defender's own cards count."""
from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from bridgeproc.analysis.dd import DDUnavailableError, dd_tables
from bridgeproc.analysis.par import par
from bridgeproc.analysis.profile import MIN_SAMPLE, contract_rows, t95
from bridgeproc.archive.db import engine_for, reading
from bridgeproc.archive.history import dated, standing_players
from bridgeproc.archive.load import load_session
from bridgeproc.archive.players import identify
from bridgeproc.archive.query import list_sessions
from bridgeproc.model import Profile, Session
from bridgeproc.rank import to_imps
from bridgeproc.schema import DD_COLUMNS, PROFILE_COLUMNS, empty
from bridgeproc.scoring.law77 import SCORED_FROM, score


@dataclass
class Solved:
    """Double dummy solved for a profile: ``tables`` (normalized deal -> its 20 trick counts, as
    :func:`analysis.dd.dd_tables` caches them) and ``leads`` ((deal, strain, leader) -> card -> the
    defenders' tricks, as :func:`analysis.profile.lead_tricks` does) and ``plays`` ((deal, strain, leader,
    cards) -> declarer's tricks after each card, as :func:`analysis.profile.play_tricks` does); the club site
    keeps them between runs."""

    tables: dict = field(default_factory=dict)
    leads: dict = field(default_factory=dict)
    plays: dict = field(default_factory=dict)


#: What every profile says of itself.
PARTNERSHIP_NOTE = ("a pairs result says which side declared and led, not which partner: each player's figures "
                    "are those of the partnerships they played in")
NOT_ARCHIVED_NOTE = "the bidding is measured by the contract reached against par, double dummy (the auctions are not archived)"
#: Said of the defence after the lead, by how many results carried their play.
NO_PLAY_NOTE = ("defence after the lead needs the play of the hand, which none of these results' files gave (a PBN's "
                "Play section): not shown")
PLAY_NOTE = "defence after the lead from the {count} result(s) whose files gave the play (a PBN's Play section)"


def profile(url: str | os.PathLike | None = None, *, date_from: str | None = None, date_to: str | None = None,
            fold_accents: bool = False, sessions: Collection[str] | None = None,
            solved: Solved | None = None, loaded: Mapping[str, Session] | None = None) -> Profile:
    """The :class:`Profile` of the archive at ``url`` over the sessions from ``date_from`` to ``date_to``
    (ISO dates, both included), or only ``sessions`` (ids: the club site's evenings); ``solved`` the double
    dummy solved before (the club site keeps it), added to as deals are solved; else this process's;
    ``loaded`` the sessions the caller has read already (by id), not read again."""
    listed = list_sessions(url)
    chosen = listed[(listed["versions"] > 0) & (listed["kind"] != "teams")]
    if sessions is not None:
        chosen = chosen[chosen["session_id"].isin(list(sessions))]
    if date_from:
        chosen = chosen[chosen["date"] >= date_from]
    if date_to:
        chosen = chosen[chosen["date"] <= date_to]
    notes = [PARTNERSHIP_NOTE, NOT_ARCHIVED_NOTE]
    parts, without = [], []
    for session_id in chosen["session_id"]:
        session = loaded[session_id] if loaded and session_id in loaded else load_session(url, session_id)
        boards = session.boards
        if "deal" not in boards or not boards["deal"].notna().any():
            without.append(session_id)
            continue
        if not all(c in boards for c in DD_COLUMNS) or boards[list(DD_COLUMNS)].isna().all(axis=None):
            try:
                boards = dd_tables(boards, cache=solved.tables if solved is not None else None)
            except DDUnavailableError as exc:
                return Profile(empty(PROFILE_COLUMNS), 0, (*notes, str(exc)))
        leads, plays = (solved.leads, solved.plays) if solved is not None else (None, None)  # else this process's
        rows = against_par(contract_rows(session.results, boards, leads, plays), session.results, boards)
        results = session.results.loc[rows["pos"]]
        parts.append(rows.assign(session_id=session_id, section=results["section"].astype("string").fillna("").to_numpy(),
                                 ns=results["ns"].astype("string").to_numpy(), ew=results["ew"].astype("string").to_numpy()))
    if without:
        notes.append(f"{len(without)} session(s) without deals left out: {', '.join(without[:5])}"
                     + (" ..." if len(without) > 5 else ""))
    if not parts:
        return Profile(empty(PROFILE_COLUMNS), 0, tuple(notes))
    rows = pd.concat(parts, ignore_index=True)
    defended = int(rows["defence_cost"].notna().sum())
    notes.insert(2, PLAY_NOTE.format(count=defended) if defended else NO_PLAY_NOTE)
    where = dated(date_from, date_to)
    with reading(engine_for(url, readonly=True)) as conn:
        seated = standing_players(conn, *where, fields=["group", "pair"])
    seated = seated[seated["player"].notna() & seated["session_id"].isin(set(rows["session_id"]))].reset_index(drop=True)
    who = identify(seated["player"], seated["member_id"], fold_accents)
    notes[2:2] = list(who.matches)
    players = _standing_keys(seated).assign(key=who.key.to_numpy(), name=who.name.to_numpy(), id=who.member_id.to_numpy())
    table = _gathered(rows, players)
    if len(rows) and not len(table):
        notes.append("no result's players are named in the standings: nothing to say of anyone")
    return Profile(table, len(rows), tuple(notes))


#: A standings pair as the standings write it: ``5``, ``NS 5`` (pairs numbered per direction ranked
#: together), ``A5`` (pairs ranked across sections).
_PAIR_TEXT = r"^\s*(?:(?P<direction>NS|EW)\s*)?(?P<section>[A-Za-z]{1,2}(?=\s*-?\s*\d))?\s*-?\s*(?P<number>\d+)\s*$"


def _standing_keys(seated: pd.DataFrame) -> pd.DataFrame:
    """Each standings player's ``session_id``, ``section``, ``direction`` and ``number`` (blank where the
    standings do not say: a pair of a shared numbering, one section), from its group (``ALL``, ``NS``,
    ``A EW``) and its pair (``5``, ``NS 5``, ``A5``)."""
    group = seated["group"].astype("string").fillna("").str.strip().str.rsplit(" ", n=1, expand=True).reindex(
        columns=[0, 1]).astype("string")
    last = group[1].fillna(group[0]).fillna("")
    first = group[0].where(group[1].notna(), "").fillna("")
    pair = seated["pair"].astype("string").str.extract(_PAIR_TEXT).astype("string")
    direction = pair["direction"].fillna(last.where(last.isin(["NS", "EW"]), "")).fillna("")
    section = pair["section"].str.upper().fillna(first.where(first != "", "")).fillna("")
    return pd.DataFrame({"session_id": seated["session_id"].to_numpy(), "section": section.to_numpy(),
                         "direction": direction.to_numpy(), "number": pair["number"].to_numpy()}).astype("string")


#: The seat of each side's first and second player in an individual's ``north+south`` / ``east+west``.
_FIRST_OF_SIDE = {"N": ("ns", 0), "S": ("ns", 1), "E": ("ew", 0), "W": ("ew", 1)}


def _entries(rows: pd.DataFrame, who: str) -> pd.DataFrame:
    """The standings entries a result counts for: ``who`` is ``declarer`` (the declaring pair, or an
    individual's declarer), ``leader`` (the defending pair, or the individual on lead), ``partner`` (the
    defending pair, or the leader's partner in an individual), or ``ns`` / ``ew``
    (a side, both players of an individual's); each as ``row`` (into ``rows``), ``section``, ``direction``,
    ``number``."""
    out = []
    individual = rows["ns"].str.contains("+", regex=False).fillna(False).to_numpy(dtype=bool)
    for seat, (side, place) in _FIRST_OF_SIDE.items():
        if who in ("declarer", "leader", "partner"):
            at = rows[who].to_numpy() == seat
            side_of = side
        else:
            at, side_of = np.ones(len(rows), dtype=bool), who
            if side != who:
                continue
        # a pair: the side's number, once (a side's both seats are the same pair)
        pairs = at & ~individual & (place == 0 or who in ("declarer", "leader", "partner"))
        players = at & individual
        if pairs.any():
            out.append(pd.DataFrame({"row": np.flatnonzero(pairs), "number": rows[side_of].to_numpy()[pairs],
                                     "direction": side_of.upper()}))
        if players.any():
            halves = rows[side_of].astype("string").str.split("+", n=1, expand=True).reindex(columns=[0, 1])
            number = halves.astype("string")[place].to_numpy()[players]
            out.append(pd.DataFrame({"row": np.flatnonzero(players), "number": number, "direction": ""}))
    found = pd.concat(out, ignore_index=True) if out else pd.DataFrame(
        {"row": pd.Series(dtype="int64"), "number": pd.Series(dtype="string"), "direction": pd.Series(dtype="string")})
    return found.assign(session_id=rows["session_id"].to_numpy()[found["row"]],
                        section=rows["section"].to_numpy()[found["row"]])


def against_par(rows: pd.DataFrame, results: pd.DataFrame, boards: pd.DataFrame) -> pd.DataFrame:
    """``rows`` with the contract against par, both double dummy, from the declaring side: ``par_imps`` (the
    contract's score with its double-dummy tricks less the par score, in IMPs) and ``par_call``: below par,
    ``underbid`` (the contract makes) or ``overbid`` (it goes down); above par (the defenders did worse),
    ``missed double`` (an undoubled contract going down) or ``let play`` (the defenders could have bid on);
    ``par`` at par."""
    played = results.loc[rows["pos"], list(SCORED_FROM)].astype(SCORED_FROM)
    with_dd = played.assign(tricks=pd.array(rows["dd"].to_numpy(), dtype=SCORED_FROM["tricks"]))
    known = with_dd["tricks"].notna().to_numpy()
    par_ns = par(boards).drop_duplicates("board").set_index("board")["par_score"]
    dd_ns = np.full(len(rows), np.nan)
    dd_ns[known] = score(with_dd[known], boards)["score_ns"].astype("float64").to_numpy()
    target = par_ns.reindex(rows["board"]).astype("float64").to_numpy()
    ns = rows["declarer"].isin(["N", "S"]).to_numpy()
    gain = np.where(ns, dd_ns - target, target - dd_ns)  # the declaring side's score against par
    imps = np.where(np.isnan(gain), np.nan, to_imps(np.nan_to_num(gain)).astype("float64"))
    level = results.loc[rows["pos"], "level"].astype("float64").to_numpy()
    doubled = results.loc[rows["pos"], "doubled"].fillna(0).astype("int64").to_numpy()
    makes = rows["dd"].astype("float64").to_numpy() >= level + 6
    n = len(rows)
    choices = [np.full(n, None, dtype=object), np.where(makes, "underbid", "overbid").astype(object),
               np.full(n, "missed double", dtype=object), np.full(n, "let play", dtype=object)]
    call = np.select([np.isnan(gain), gain < 0, (gain > 0) & ~makes & (doubled == 0), gain > 0], choices,
                     np.full(n, "par", dtype=object))
    return rows.assign(par_imps=imps, par_call=pd.array(call, dtype="string"))


def _long(rows: pd.DataFrame, players: pd.DataFrame, who: str) -> pd.DataFrame:
    """Each result row once per player it counts for (:func:`_entries`), matched to the standings by session
    and number, and by section and direction where the standings give them."""
    entries = _entries(rows, who).astype({"number": "string", "direction": "string", "section": "string"})
    found = entries.merge(players, on=["session_id", "number"], suffixes=("", "_standing"))
    fits = ((found["section_standing"] == "") | (found["section_standing"] == found["section"])) & (
        (found["direction_standing"] == "") | (found["direction"] == "") | (found["direction_standing"] == found["direction"]))
    found = found[fits.to_numpy(dtype=bool)]
    taken = rows.drop(columns=["section", "session_id", "ns", "ew"]).iloc[found["row"].to_numpy()].reset_index(drop=True)
    return pd.concat([taken, found[["key", "name", "id", "session_id"]].reset_index(drop=True)], axis=1)


def _figures(values: pd.DataFrame, key: str, column: str, prefix: str, floor: float = -np.inf) -> pd.DataFrame:
    """Per ``key``: the count ``<prefix>n``, and where it reaches MIN_SAMPLE the mean and its 95 % interval
    (``<prefix>mean``, ``<prefix>low``, ``<prefix>high``), as :func:`analysis.profile.figure` gives them
    (``floor`` the least a value can be: a lead costs nothing at best)."""
    shown = values.assign(value=values[column].astype("float64")).dropna(subset=["value"])
    stats = shown.groupby(key)["value"].agg(["count", "mean", "std"])
    half = stats["count"].map(t95) * stats["std"] / np.sqrt(stats["count"])
    enough = stats["count"] >= MIN_SAMPLE
    return pd.DataFrame({f"{prefix}n": stats["count"], f"{prefix}mean": stats["mean"].where(enough),
                         f"{prefix}low": (stats["mean"] - half).clip(lower=floor).where(enough),
                         f"{prefix}high": (stats["mean"] + half).where(enough)})


def _defending(rows: pd.DataFrame, players: pd.DataFrame) -> tuple[pd.DataFrame, float]:
    """Each defended result with a play once per player it counts for, its ``defence`` the tricks given away
    after the lead: a pair's both defenders' cards, an individual's own; and the club's mean of them."""
    defended = rows[rows["defence_cost"].notna()].reset_index(drop=True)
    single = defended["ns"].str.contains("+", regex=False).fillna(False).to_numpy(dtype=bool)
    by_leader = defended.assign(defence=defended["leader_defence"].where(single, defended["defence_cost"]))
    by_partner = defended[single].reset_index(drop=True)
    by_partner = by_partner.assign(defence=by_partner["partner_defence"])
    values = pd.concat([by_leader["defence"], by_partner["defence"]]).astype("float64")
    found = pd.concat([_long(by_leader, players, "leader"), _long(by_partner, players, "partner")], ignore_index=True)
    return found, float(values.mean()) if len(values) else np.nan


def _gathered(rows: pd.DataFrame, players: pd.DataFrame) -> pd.DataFrame:
    """One row per player (:data:`schema.PROFILE_COLUMNS`)."""
    # the field: the same board's other declarers in the same strain and seat, per result
    same = rows.groupby(["session_id", "section", "board", "strain", "declarer"])["declarer_gain"]
    total, count = same.transform("sum"), same.transform("count")
    rows = rows.assign(field_gain=((total - rows["declarer_gain"]) / (count - 1)).where(count > 1))
    declaring = _long(rows, players, "declarer")
    leading = _long(rows[rows["lead_cost"].notna()].reset_index(drop=True), players, "leader")
    defending, club_defence = _defending(rows, players)
    seen = pd.concat([declaring, leading, defending])[["key", "name", "id", "session_id"]]
    who = seen.groupby("key", sort=False).agg(name=("name", "last"), id=("id", "last"),
                                              sessions=("session_id", "nunique"))
    gain = _figures(declaring, "key", "declarer_gain", "declarer_")
    # against the field on the same rows: the player's gain less the others' where others declared there too
    field = (declaring["declarer_gain"] - declaring["field_gain"]).groupby(declaring["key"]).mean()
    table = who.join(gain).assign(field_gain=field.reindex(who.index).where(gain["declarer_mean"].reindex(who.index).notna()))
    table = table.rename(columns={"declarer_n": "declared", "declarer_mean": "declarer_gain"})
    for kind, prefix in (("suit", "suit"), ("notrump", "nt")):
        cost = _figures(leading[leading["kind"] == kind], "key", "lead_cost", f"{prefix}_lead_", floor=0.0)
        club = float(rows.loc[rows["kind"] == kind, "lead_cost"].astype("float64").mean())
        table = table.join(cost.rename(columns={f"{prefix}_lead_n": f"{prefix}_leads",
                                                f"{prefix}_lead_mean": f"{prefix}_lead_cost"}))
        table[f"club_{prefix}_lead_cost"] = np.where(table[f"{prefix}_lead_cost"].notna(), club, np.nan)
    cost = _figures(defending, "key", "defence", "defence_", floor=0.0)
    table = table.join(cost.rename(columns={"defence_n": "defended", "defence_mean": "defence_cost"}))
    table["club_defence_cost"] = np.where(table["defence_cost"].notna(), club_defence, np.nan)
    # the bidding: every result of the partnership, the declaring side's IMPs against par, the defenders' minus
    sides = [_long(rows, players, side).assign(declaring=lambda f, d=d: f["declarer"].isin(d))
             for side, d in (("ns", ["N", "S"]), ("ew", ["E", "W"]))]
    both = pd.concat(sides, ignore_index=True)
    both = both.assign(side_imps=both["par_imps"].where(both["declaring"], -both["par_imps"]))
    bid = _figures(both, "key", "side_imps", "par_")
    calls = pd.concat([both.loc[both["declaring"] & both["par_call"].isin(["underbid", "overbid"]), ["key", "par_call"]],
                       both.loc[~both["declaring"] & (both["par_call"] == "missed double"), ["key", "par_call"]]])
    tally = pd.crosstab(calls["key"], calls["par_call"]).reindex(columns=["underbid", "overbid", "missed double"],
                                                                 fill_value=0)
    table = table.join(bid.rename(columns={"par_n": "boards_bid", "par_mean": "par_imps"}))
    table = table.join(tally.rename(columns={"missed double": "missed_double"}))
    counts = {c: table[c].fillna(0) for c in ("declared", "suit_leads", "nt_leads", "defended", "boards_bid", "underbid",
                                              "overbid", "missed_double")}
    table = table.assign(**counts).rename_axis("key").reset_index()
    table = table.reindex(columns=list(PROFILE_COLUMNS)).astype(PROFILE_COLUMNS)
    return table.sort_values("name", key=lambda s: s.str.casefold(), kind="stable").reset_index(drop=True)
