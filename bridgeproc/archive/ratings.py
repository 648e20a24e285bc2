"""The open rating of the archive's players (``analysis.rating``: the model in full), from the latest
version of every pairs session with percentages, oldest first: players known as ``archive history`` and
``archive ladder`` know them (member ids, else the names as written, spellings taken as one said)."""
from __future__ import annotations

import os

import pandas as pd

from bridgeproc.analysis.rating import rate_sessions
from bridgeproc.archive.db import engine_for, reading
from bridgeproc.archive.history import dated, standing_players
from bridgeproc.archive.players import identify
from bridgeproc.model import Ratings
from bridgeproc.rank import rank_text
from bridgeproc.schema import RATING_CHANGE_COLUMNS, RATINGS_COLUMNS, empty


def ratings(url: str | os.PathLike | None = None, *, date_from: str | None = None, date_to: str | None = None,
            fold_accents: bool = False) -> Ratings:
    """Every archived player's rating after the sessions from ``date_from`` to ``date_to`` (ISO dates, both
    included), with each change explained (``Ratings``)."""
    where = dated(date_from, date_to)
    with reading(engine_for(url, readonly=True)) as conn:
        rows = standing_players(conn, *where, fields=["group", "pct"])
    rows = rows[rows["player"].notna()].reset_index(drop=True)
    notes: list[str] = []
    left_out = rows["pct"].isna()
    if left_out.any():
        notes.append(f"{int(left_out.sum())} player row(s) without a percentage (IMP sessions, teams) left out")
    rows = rows[~left_out].reset_index(drop=True)
    if not len(rows):
        return Ratings(empty(RATINGS_COLUMNS), empty(RATING_CHANGE_COLUMNS), 0, tuple(notes))
    who = identify(rows["player"], rows["member_id"], fold_accents)
    notes = list(who.matches) + notes
    order = pd.factorize(rows["version_id"])[0]  # the rows come oldest first (date, event, version)
    table, log = rate_sessions(pd.DataFrame({"session": order, "group": rows["group"].astype("string").fillna(""),
                                             "entry": rows["pos"], "player": who.key, "pct": rows["pct"]}))
    shown = pd.DataFrame({"key": who.key, "name": who.name, "id": who.member_id}).drop_duplicates("key").set_index("key")
    first_session = rows.drop_duplicates("version_id").reset_index(drop=True)
    table = pd.DataFrame({
        "rank": rank_text(table["rating"].round(2), pd.Series("all", index=table.index)).to_numpy(),
        "name": shown["name"].reindex(table["player"]).to_numpy(), "id": shown["id"].reindex(table["player"]).to_numpy(),
        "rating": table["rating"].round(2).to_numpy(), "sessions": table["sessions"].to_numpy(),
        "handicap": (-table["rating"] / 2).round(2).to_numpy(),
        "last": log.drop_duplicates("player", keep="last").set_index("player")["why"].reindex(table["player"]).to_numpy(),
    }).astype(RATINGS_COLUMNS)
    changes = pd.DataFrame({
        "session_id": first_session["session_id"].take(log["session"].to_numpy()).to_numpy(),
        "date": first_session["date"].take(log["session"].to_numpy()).to_numpy(),
        "name": shown["name"].reindex(log["player"]).to_numpy(),
        "before": log["before"].round(2).to_numpy(), "after": log["after"].round(2).to_numpy(),
        "why": log["why"].to_numpy(),
    }).astype(RATING_CHANGE_COLUMNS)
    return Ratings(table, changes, int(order.max()) + 1, tuple(notes))
