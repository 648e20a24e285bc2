"""Teams sessions in the archive: a :class:`~bridgeproc.model.TeamsSession` stored as versions,
like a pairs session, and read back as the very frames that went in.

A teams session's row in ``sessions`` has ``kind = 'teams'``; its frames go to their own
tables (``team_results``, ``team_boards``, ``team_matches``, ``team_standings``,
``team_published``) and its hand record, when the inputs held one set of deals, to ``boards``
(the shape of a pairs session's hand record, so the loss checks count its deals and
double-dummy tables). The scoring options (VP scale, tie-breaks), the tie-break chain applied
and the team names are the version's ``conventions`` JSON; the notes of the run a ``notes`` frame
(as a pairs session's). Each room's PBN game (``game``:
every tag, for the teams PBN export) is stored as its PBN text and parsed back into a game.

The teams' players (the seat tags of the room games, else the roster of the names) go to
``players``, one row per player of a team, ``pos`` being the team's ``team_standings`` row.
"""
from __future__ import annotations

import json
import os
import re
from datetime import date as _date
from typing import Any

import numpy as np
import pandas as pd

from bridgeproc.archive.codec import content_hash, encode
from bridgeproc.archive.db import ArchiveError, engine_for, reading
from bridgeproc.archive.load import read_frames, resolve_version, session_from
from bridgeproc.archive.players import player_key, split_names
from bridgeproc.archive.store import Prepared, normalise_date, prepare, slug, store_version
from bridgeproc.archive.tables import FRAME_TABLES
from bridgeproc.io.pbn.lexer import lex
from bridgeproc.io.pbn.model import Game
from bridgeproc.io.pbn.writer import game_lines
from bridgeproc.model import ArchiveResult, TeamsSession
from bridgeproc.teams.options import TeamsOptions
from bridgeproc.teams.vp import VpScale

#: TeamsSession field -> the frame name it is stored under, in order (``deals`` only when known).
TEAM_FRAMES = {"results": "team_results", "boards": "team_boards", "matches": "team_matches",
               "standings": "team_standings", "published": "team_published", "deals": "boards"}

#: The seats of a room game whose players sit for the NS team, and for the EW team.
_SIDES = {"ns_team": ("North", "South"), "ew_team": ("East", "West")}

#: A member number RealBridge (EBL, WBF events) appends to a seat's name: ``Michael Askgaard#23324``.
_MEMBER_NUMBER = re.compile(r"\s*#(\d+)\s*$")

#: The columns of a teams version's ``players`` rows.
PLAYER_COLUMNS = ["version_id", "pos", "seat", "player_key", "player", "member_id"]


def options_json(options: TeamsOptions) -> dict[str, Any]:
    """``options`` as JSON-able values (a custom VP table's bands as lists), read by :func:`options_from_json`."""
    scale = options.scale
    bands = {str(boards): [np.asarray(part).tolist() for part in band] for boards, band in scale.bands.items()}
    return {"scoring": options.scoring, "scale": {"name": scale.name, "total": scale.total, "bands": bands,
                                                  "label": scale.label},
            "boards_per_match": options.boards_per_match, "ave_plus_imps": options.ave_plus_imps,
            "unplayed": options.unplayed, "format": options.format,
            "tie_breaks": None if options.tie_breaks is None else list(options.tie_breaks), "bam_tie": options.bam_tie,
            "bam_win": options.bam_win, "masterpoints": options.masterpoints, "given": list(options.given),
            "found": list(options.found)}


def options_from_json(values: dict[str, Any]) -> TeamsOptions:
    """The :class:`TeamsOptions` that :func:`options_json` described."""
    scale = values["scale"]
    bands = {int(boards): (np.asarray(margins, dtype=np.float64), np.asarray(winner, dtype=np.int64),
                           np.asarray(loser, dtype=np.int64))
             for boards, (margins, winner, loser) in scale["bands"].items()}
    return TeamsOptions(scoring=values["scoring"],
                        scale=VpScale(scale["name"], float(scale["total"]), bands, scale.get("label", "")),
                        boards_per_match=values["boards_per_match"], ave_plus_imps=values["ave_plus_imps"],
                        unplayed=values["unplayed"], format=values["format"],
                        tie_breaks=None if values["tie_breaks"] is None else tuple(values["tie_breaks"]),
                        bam_tie=values["bam_tie"], bam_win=float(values.get("bam_win", 1.0)),
                        masterpoints=str(values.get("masterpoints", "auto")),
                        given=tuple(values.get("given", ())),
                        found=tuple(values.get("found", ())))


def teams_identity(session: TeamsSession, event: str | None = None, date: str | None = None,
                   session_id: str | None = None) -> tuple[str, str, str]:
    """(session_id, event, date) of a teams session, as :func:`bridgeproc.archive.store.session_identity`
    for pairs: the arguments, else the PBN ``Event`` and ``Date``, else the first input's name and today."""
    meta = {str(k).lower(): v for k, v in (session.meta or {}).items()}
    event = event or str(meta.get("event") or "").strip()
    results = session.results
    if not event and "source" in results and results["source"].notna().any():
        first = str(results["source"].dropna().iloc[0])
        event = re.sub(r"\.[A-Za-z0-9]+$", "", first.replace("\\", "/").rsplit("/", 1)[-1])
    event = event or "teams"
    day = normalise_date(date) or _input_date(session) or _date.today().isoformat()
    return session_id or f"{day}_{slug(event)}", event, day


def _input_date(session: TeamsSession) -> str:
    meta = {str(k).lower(): v for k, v in (session.meta or {}).items()}
    day = normalise_date(meta.get("date") or meta.get("eventdate"))
    return "" if day.startswith("?") else day


def _game_texts(games: pd.Series) -> pd.Series:
    """Each room's PBN game as its PBN text (None where there is none)."""
    return pd.Series(["\n".join(game_lines(g)) if isinstance(g, Game) else None for g in games],
                     index=games.index, dtype=object)


def _games(texts: pd.Series) -> pd.Series:
    """The PBN games of :func:`_game_texts` again."""
    out: list[Game | None] = []
    for text in texts:
        if not isinstance(text, str):
            out.append(None)
            continue
        games, _, problems, _ = lex(text + "\n", "archive")
        if len(games) != 1 or problems:
            raise ArchiveError(f"an archived room game does not read back as one PBN game: {problems or len(games)}")
        out.append(games[0])
    return pd.Series(out, index=texts.index, dtype=object)


#: Every TeamsSession field, stored as a frame (TEAM_FRAMES), a ``notes`` frame or the version's JSON.
STORED_FIELDS = frozenset({*TEAM_FRAMES, "notes", "options", "meta", "tie_breaks", "names", "members", "origin"})
#: TeamsSession fields that are not the session's data: what the archive answered when it stored it.
NOT_STORED = frozenset({"archived"})


def team_frames(session: TeamsSession) -> dict[str, pd.DataFrame]:
    """The frames a teams version stores, by frame name (the results' games as PBN text; the notes,
    one dict each, as the rows of a ``notes`` frame)."""
    out = {}
    for field, name in TEAM_FRAMES.items():
        frame = getattr(session, field)
        if frame is None:
            continue
        if field == "results" and "game" in frame:
            frame = frame.assign(game=_game_texts(frame["game"]))
        out[name] = frame
    if session.notes:
        out["notes"] = pd.DataFrame.from_records(list(session.notes)).astype(object)
    return out


def _notes(frame: pd.DataFrame | None) -> tuple[dict[str, str], ...]:
    """The notes of a ``notes`` frame (a key a note did not have is left out again)."""
    if frame is None:
        return ()
    return tuple({k: v for k, v in row.items() if not (isinstance(v, float) and np.isnan(v))}
                 for row in frame.to_dict("records"))


def prepare_teams(session: TeamsSession, event: str | None = None, date: str | None = None,
                  session_id: str | None = None) -> Prepared:
    """Encode a teams session and compute its content hash (what :func:`archive_teams` compares)."""
    sid, event_name, day = teams_identity(session, event, date, session_id)
    frames_in = team_frames(session)
    encoded = [encode(name, frame, FRAME_TABLES[name]) for name, frame in frames_in.items()]
    conventions = {"options": options_json(session.options), "tie_breaks": list(session.tie_breaks),
                   "names": {str(k): v for k, v in session.names.items()}, "origin": session.origin}
    if session.members:  # only when the inputs gave member numbers: earlier versions' hashes stay as they were
        conventions["members"] = {str(k): [list(m) for m in v] for k, v in session.members.items()}
    header = {"session_id": sid, "event": event_name, "date": day, "kind": "teams", "conventions": conventions,
              "meta": {str(k): v for k, v in (session.meta or {}).items()}}
    return Prepared(sid, event_name, day, header, frames_in, encoded, content_hash(encoded, header))


def team_players(session: TeamsSession) -> dict[str, list[tuple[str, str | None]]]:
    """Team -> its players ``(name, member id or None)`` in order of first appearance: the seat tags
    of the room games (North and South for the NS team, East and West for the EW team; RealBridge's
    ``Michael Askgaard#23324`` is the name and member id 23324), else the roster of the team's names
    (``Team: Ann Smith, Bob Jones``)."""
    out: dict[str, list[tuple[str, str | None]]] = {}
    results = session.results
    if len(results) and "game" in results:
        for column, seats in _SIDES.items():
            if column not in results:
                continue
            for team, game in zip(results[column], results["game"]):
                if not isinstance(game, Game) or pd.isna(team):
                    continue
                for seat in seats:
                    written = (game.get(seat) or "").strip()
                    number = _MEMBER_NUMBER.search(written)
                    player = (written[:number.start()].strip(), number.group(1)) if number else (written, None)
                    if player[0] and player not in out.setdefault(str(team), []):
                        out[str(team)].append(player)
    if "names" in session.standings:
        for team, text in zip(session.standings["team"], session.standings["names"]):
            if str(team) in out or not isinstance(text, str) or not text.strip():
                continue
            roster = text.split(":", 1)[1] if ":" in text else ""
            players: list[tuple[str, str | None]] = [(p, None) for part in roster.split(",") for p in split_names(part)]
            if players:
                out[str(team)] = players
    return out


def _player_rows(session: TeamsSession, version_id: int) -> list[tuple]:
    if not len(session.standings):
        return []
    by_team = team_players(session)
    return [(version_id, pos, seat, player_key(player), player, member)
            for pos, team in enumerate(session.standings["team"].astype(str).tolist())
            for seat, (player, member) in enumerate(by_team.get(team, []))]


def archive_teams(session: TeamsSession, url: str | os.PathLike | None = None, *, event: str | None = None,
                  date: str | None = None, session_id: str | None = None, comment: str | None = None,
                  replace: bool = False, complete: bool = True) -> ArchiveResult:
    """Store a teams session in the archive at ``url`` as a new version (as
    :func:`bridgeproc.archive.archive_session` does a pairs session: equal content adds nothing,
    fewer deals or double-dummy tables or table results than the latest version need ``replace``;
    ``complete`` False stores it incomplete until the run's outputs are in place, ``complete_version``).

    Raises
    ------
    ArchiveError
        The session id is a pairs session's (give another event or date).
    ArchiveLossError
        The new version would lose table results, deals or double-dummy tables and ``replace`` is False.
    """
    prepared = prepare_teams(session, event, date, session_id)
    conventions = prepared.header["conventions"]
    columns = {"method": f"teams-{session.options.scoring}", "conventions": json.dumps(conventions, sort_keys=True),
               "numbering": None, "movement": None, "options": None}
    return store_version(prepared, url, kind="teams", columns=columns, player_columns=PLAYER_COLUMNS,
                         players=lambda version_id: _player_rows(session, version_id),
                         dated=bool(session_id or date or _input_date(session)), comment=comment, replace=replace,
                         complete=complete)


def teams_from(row: dict, data: dict[str, pd.DataFrame]) -> TeamsSession:
    """A TeamsSession from a :func:`~bridgeproc.archive.load.resolve_version` row and its frames."""
    conventions = json.loads(row["conventions"])
    results = data["team_results"]
    if "game" in results:
        results = results.assign(game=_games(results["game"]))
    return TeamsSession(results=results, boards=data["team_boards"], matches=data["team_matches"],
                        standings=data["team_standings"], options=options_from_json(conventions["options"]),
                        meta=json.loads(row["meta"]), published=data["team_published"],
                        tie_breaks=tuple(conventions["tie_breaks"]), names=dict(conventions["names"]),
                        members={k: tuple(tuple(m) for m in v) for k, v in conventions.get("members", {}).items()},
                        origin=str(conventions.get("origin", "")),
                        deals=data.get("boards"), notes=_notes(data.get("notes")))


def load_teams(url: str | os.PathLike | None, session_id: str, version: int | None = None) -> TeamsSession:
    """The :class:`TeamsSession` archived as ``session_id`` (latest version by default)."""
    engine = engine_for(url, readonly=True)
    with reading(engine) as conn:
        row = resolve_version(conn, session_id, version)
        if row.get("kind") != "teams":
            raise ArchiveError(f"{session_id} is a {row.get('kind') or 'pairs'} session, not a teams session")
        return teams_from(row, read_frames(conn, row["version_id"]))


def content_digest(conn, row: dict) -> str:
    """The content hash of the archived version ``row`` (a :func:`resolve_version` row), recomputed from
    its stored frames: a pairs or a teams session (what ``archive check --deep`` compares)."""
    data = read_frames(conn, row["version_id"])
    if row.get("kind") == "teams":
        return prepare_teams(teams_from(row, data), row["event"], row["date"], row["session_id"]).digest
    return prepare(session_from(row, data), row["event"], row["date"], row["session_id"]).digest
