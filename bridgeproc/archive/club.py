"""The club's results website from the archive (``bridgeproc archive site``): every evening's latest
version, newest first, with what each correction changed; the season's ladder; and each player's
evenings, players known as ``archive history`` knows them (member ids, else the names as written)."""
from __future__ import annotations

import os

import pandas as pd

from bridgeproc.archive.db import engine_for, reading
from bridgeproc.archive.diff import diff
from bridgeproc.archive.history import dated, standing_players
from bridgeproc.archive.ladder import ladder
from bridgeproc.archive.load import load_session
from bridgeproc.archive.players import identify
from bridgeproc.archive.profile import Solved, profile
from bridgeproc.archive.query import list_sessions, session_versions
from bridgeproc.archive.teams import load_teams
from bridgeproc.model import ClubSite, Evening, Session
from bridgeproc.schema import CLUB_PLAYER_COLUMNS, empty


def club_site(url: str | os.PathLike | None = None, *, date_from: str | None = None, date_to: str | None = None,
              event: str | None = None, title: str = "Results", fold_accents: bool = False,
              previous: str | None = None, previous_stamps: dict[str, str] | None = None,
              with_profile: bool = True, solved: dict | None = None) -> ClubSite:
    """The :class:`ClubSite` of the archive at ``url``: the sessions from ``date_from`` to ``date_to`` (ISO
    dates, both included) and/or whose event name holds ``event`` (any case); ``previous`` the site folder
    it will replace and the evenings that one showed (``previous_stamps``), so that unchanged pages stay;
    ``with_profile``: the players against double dummy too (:func:`archive.profile.profile`), with the double
    dummy ``solved`` before (``tables``, ``leads`` and ``plays``, as :class:`archive.profile.Solved`)."""
    listed = list_sessions(url)
    chosen = listed[listed["versions"] > 0]
    if date_from:
        chosen = chosen[chosen["date"] >= date_from]
    if date_to:
        chosen = chosen[chosen["date"] <= date_to]
    if event:
        wanted = " ".join(event.split()).casefold()
        chosen = chosen[[wanted in " ".join(str(e).split()).casefold() for e in chosen["event"]]]
    evenings = tuple(_evening(url, row) for row in chosen.itertuples(index=False))
    season = ladder(url, date_from=date_from, date_to=date_to, event=event, fold_accents=fold_accents)
    players = _players(url, {e.session_id for e in evenings if e.kind != "teams"}, date_from, date_to, fold_accents)
    known = Solved(**(solved or {"tables": {}, "leads": {}, "plays": {}}))
    measured = profile(url, date_from=date_from, date_to=date_to, fold_accents=fold_accents,
                       sessions={e.session_id for e in evenings}, solved=known,
                       loaded={e.session_id: e.session for e in evenings if isinstance(e.session, Session)}
                       ) if with_profile else None
    return ClubSite(title, evenings, season, players, season.span, previous, dict(previous_stamps or {}), measured,
                    {"tables": known.tables, "leads": known.leads, "plays": known.plays} if with_profile else {})


def _evening(url: str | os.PathLike | None, row) -> Evening:
    """One evening: its latest version loaded, its corrections in words."""
    teams = row.kind == "teams"
    session = load_teams(url, row.session_id) if teams else load_session(url, row.session_id)
    versions = session_versions(url, row.session_id)
    done = versions[versions["complete"]]
    latest = done.iloc[-1]
    corrected = tuple(
        f"corrected on {str(v.created_at)[:10]} (version {int(v.version)}: {diff(url, row.session_id, None, int(v.version)).headline})"
        for v in done.itertuples(index=False) if int(v.version) > 1)
    return Evening(str(row.session_id), str(row.date), str(row.event), str(row.kind), int(latest["version"]),
                   f"{int(latest['version'])}:{latest['content_hash']}", session, _winners(session), corrected)


def _winners(session) -> str:
    """The names (or teams) ranked first, one per ranking group, joined with `` / ``."""
    standings = getattr(session, "standings", None)
    if standings is None or not len(standings) or "rank" not in standings:
        return ""
    first = standings[standings["rank"].astype("string").str.rstrip("=") == "1"]
    column = next((c for c in ("names", "team", "pair") if c in first), None)
    if column is None:
        return ""
    shown = first[column].astype("string")
    if "pair" in first:  # a pair without names: by its number
        shown = shown.fillna("pair " + first["pair"].astype("string"))
    return " / ".join(dict.fromkeys(str(n) for n in shown.dropna() if str(n)))


def _players(url: str | os.PathLike | None, chosen: set[str], date_from: str | None, date_to: str | None,
             fold_accents: bool) -> pd.DataFrame:
    """One row per player and chosen pairs evening (:data:`schema.CLUB_PLAYER_COLUMNS`), oldest first."""
    where = dated(date_from, date_to)
    with reading(engine_for(url, readonly=True)) as conn:
        rows = standing_players(conn, *where, fields=["rank", "pct", "total", "masterpoints"])
    rows = rows[rows["player"].notna() & rows["session_id"].isin(chosen)].reset_index(drop=True)
    if not len(rows):
        return empty(CLUB_PLAYER_COLUMNS)
    who = identify(rows["player"], rows["member_id"], fold_accents)
    seat = rows["version_id"].astype("string") + ":" + rows["pos"].astype("string")
    entry = pd.DataFrame({"seat": seat, "key": who.key, "player": rows["player"]})
    together = entry.merge(entry, on="seat", suffixes=("", "_other"))
    together = together[together["key"] != together["key_other"]]
    partners = together.groupby(["seat", "key"], sort=False)["player_other"].agg(" & ".join)
    partner = pd.MultiIndex.from_arrays([seat, who.key]).map(partners.to_dict().get)
    out = pd.DataFrame({"key": who.key, "name": who.name, "date": rows["date"], "event": rows["event"],
                        "session_id": rows["session_id"], "partner": pd.array(list(partner), dtype="string"),
                        "rank": rows["rank"], "pct": rows["pct"], "total": rows["total"],
                        "masterpoints": rows["masterpoints"]})
    return out.astype(CLUB_PLAYER_COLUMNS).reset_index(drop=True)
