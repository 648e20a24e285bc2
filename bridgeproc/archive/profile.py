"""The archive's players against double dummy (``bridgeproc archive profile``): every latest pairs
session whose deals are known, each result's declarer play and opening lead measured by
:mod:`bridgeproc.analysis.profile`, and the figures gathered per player (players known as ``archive
history`` knows them).

The bidding is measured by the contract each result reached against the board's par, both double dummy
(:func:`against_par`). A pairs result says which side declared and which side led, not which partner: a
player's figures are those of the partnerships they played in (the notes say so). The play after the lead
is not archived, so there are no figures for defence after the lead yet."""
from __future__ import annotations

import os

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
from bridgeproc.model import Profile
from bridgeproc.rank import to_imps
from bridgeproc.schema import DD_COLUMNS, PROFILE_COLUMNS, empty
from bridgeproc.scoring.law77 import SCORED_FROM, score

#: What every profile says of itself.
PARTNERSHIP_NOTE = ("a pairs result says which side declared and led, not which partner: each player's figures "
                    "are those of the partnerships they played in")
NOT_ARCHIVED_NOTE = ("the bidding is measured by the contract reached against par, double dummy (the auctions are "
                     "not archived); defence after the lead needs the play, which the archive does not keep: not shown")


def profile(url: str | os.PathLike | None = None, *, date_from: str | None = None, date_to: str | None = None,
            fold_accents: bool = False) -> Profile:
    """The :class:`Profile` of the archive at ``url`` over the sessions from ``date_from`` to ``date_to``
    (ISO dates, both included)."""
    listed = list_sessions(url)
    chosen = listed[(listed["versions"] > 0) & (listed["kind"] != "teams")]
    if date_from:
        chosen = chosen[chosen["date"] >= date_from]
    if date_to:
        chosen = chosen[chosen["date"] <= date_to]
    notes = [PARTNERSHIP_NOTE, NOT_ARCHIVED_NOTE]
    parts, without = [], []
    for session_id in chosen["session_id"]:
        session = load_session(url, session_id)
        boards = session.boards
        if "deal" not in boards or not boards["deal"].notna().any():
            without.append(session_id)
            continue
        if not all(c in boards for c in DD_COLUMNS) or boards[list(DD_COLUMNS)].isna().all(axis=None):
            try:
                boards = dd_tables(boards)
            except DDUnavailableError as exc:
                return Profile(empty(PROFILE_COLUMNS), 0, (*notes, str(exc)))
        rows = against_par(contract_rows(session.results, boards), session.results, boards)
        results = session.results.loc[rows["pos"]]
        ns_declared = rows["declarer"].isin(["N", "S"]).to_numpy()
        rows = rows.assign(session_id=session_id, section=results["section"].astype("string").fillna("").to_numpy(),
                           declaring=np.where(ns_declared, results["ns"].astype("string"), results["ew"].astype("string")),
                           defending=np.where(ns_declared, results["ew"].astype("string"), results["ns"].astype("string")),
                           declaring_side=np.where(ns_declared, "NS", "EW"), defending_side=np.where(ns_declared, "EW", "NS"))
        parts.append(rows)
    if without:
        notes.append(f"{len(without)} session(s) without deals left out: {', '.join(without[:5])}"
                     + (" ..." if len(without) > 5 else ""))
    if not parts:
        return Profile(empty(PROFILE_COLUMNS), 0, tuple(notes))
    rows = pd.concat(parts, ignore_index=True)
    where = dated(date_from, date_to)
    with reading(engine_for(url, readonly=True)) as conn:
        seated = standing_players(conn, *where, fields=["group", "pair"])
    seated = seated[seated["player"].notna() & seated["session_id"].isin(set(rows["session_id"]))].reset_index(drop=True)
    who = identify(seated["player"], seated["member_id"], fold_accents)
    notes[2:2] = list(who.matches)
    players = pd.DataFrame({"session_id": seated["session_id"], "pair": seated["pair"].astype("string"),
                            "side": seated["group"].astype("string").where(seated["group"].isin(["NS", "EW"]), ""),
                            "key": who.key, "name": who.name, "id": who.member_id})
    return Profile(_gathered(rows, players), len(rows), tuple(notes))


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


def _long(rows: pd.DataFrame, players: pd.DataFrame, pair: str, side: str) -> pd.DataFrame:
    """Each result row once per player of its ``pair`` column's partnership (found by session, pair and,
    where the standings rank NS and EW apart, the side)."""
    left = rows.assign(pair=rows[pair], side=rows[side])
    apart = players[players["side"] != ""]
    together = players[players["side"] == ""].drop(columns="side")
    found = pd.concat([left.merge(apart, on=["session_id", "pair", "side"]),
                       left.merge(together, on=["session_id", "pair"])], ignore_index=True)
    return found


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


def _gathered(rows: pd.DataFrame, players: pd.DataFrame) -> pd.DataFrame:
    """One row per player (:data:`schema.PROFILE_COLUMNS`)."""
    # the field: the same board's other declarers in the same strain and seat, per result
    same = rows.groupby(["session_id", "section", "board", "strain", "declarer"])["declarer_gain"]
    total, count = same.transform("sum"), same.transform("count")
    rows = rows.assign(field_gain=((total - rows["declarer_gain"]) / (count - 1)).where(count > 1))
    declaring = _long(rows, players, "declaring", "declaring_side")
    leading = _long(rows[rows["lead_cost"].notna()], players, "defending", "defending_side")
    seen = pd.concat([declaring, leading])[["key", "name", "id", "session_id"]]
    who = seen.groupby("key", sort=False).agg(name=("name", "last"), id=("id", "last"),
                                              sessions=("session_id", "nunique"))
    gain = _figures(declaring, "key", "declarer_gain", "declarer_")
    field = declaring.groupby("key")["field_gain"].mean()
    table = who.join(gain).assign(field_gain=field.reindex(who.index).where(gain["declarer_mean"].reindex(who.index).notna()))
    table = table.rename(columns={"declarer_n": "declared", "declarer_mean": "declarer_gain"})
    for kind, prefix in (("suit", "suit"), ("notrump", "nt")):
        cost = _figures(leading[leading["kind"] == kind], "key", "lead_cost", f"{prefix}_lead_", floor=0.0)
        club = float(rows.loc[rows["kind"] == kind, "lead_cost"].astype("float64").mean())
        table = table.join(cost.rename(columns={f"{prefix}_lead_n": f"{prefix}_leads",
                                                f"{prefix}_lead_mean": f"{prefix}_lead_cost"}))
        table[f"club_{prefix}_lead_cost"] = np.where(table[f"{prefix}_lead_cost"].notna(), club, np.nan)
    # the bidding: every result of the partnership, the declaring side's IMPs against par, the defenders' minus
    defending = _long(rows, players, "defending", "defending_side")
    both = pd.concat([declaring.assign(side_imps=declaring["par_imps"]),
                      defending.assign(side_imps=-defending["par_imps"])], ignore_index=True)
    bid = _figures(both, "key", "side_imps", "par_")
    calls = pd.concat([declaring[["key", "par_call"]],
                       defending.loc[defending["par_call"] == "missed double", ["key", "par_call"]]])
    tally = pd.crosstab(calls["key"], calls["par_call"]).reindex(columns=["underbid", "overbid", "missed double"],
                                                                 fill_value=0)
    table = table.join(bid.rename(columns={"par_n": "boards_bid", "par_mean": "par_imps"}))
    table = table.join(tally.rename(columns={"missed double": "missed_double"}))
    counts = {c: table[c].fillna(0) for c in ("declared", "suit_leads", "nt_leads", "boards_bid", "underbid",
                                              "overbid", "missed_double")}
    table = table.assign(**counts).rename_axis("key").reset_index()
    table = table.reindex(columns=list(PROFILE_COLUMNS)).astype(PROFILE_COLUMNS)
    return table.sort_values("name", key=lambda s: s.str.casefold(), kind="stable").reset_index(drop=True)
