"""The results website's page models for a teams event, built from a :class:`TeamsSession` with no
HTML in them: the standings, the VP table (every match's IMPs and VPs), each match's card (both
rooms of every board), the cross table, the VP scale used, the hand records and the conventions.
The templates (``teams_page.html`` with ``teams_macros.html``) only lay these out; the hand
diagrams are the pairs site's (:func:`bridgeproc.report.web.site.deal_model`).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from bridgeproc._version import __version__
from bridgeproc.core.notation import contract_text
from bridgeproc.model import TeamsSession
from bridgeproc.report.teams_words import convention_rows, heading
from bridgeproc.report.travellers import lead_text
from bridgeproc.report.web.boards import (
    Deal,
    board_rows,
    deal_model,
    number_text,
    page_language,
    result_text,
    slug,
)
from bridgeproc.schema import records

#: What a board's status means on a match card (blank for a board played in both rooms).
STATUS_NOTES = {"played": "", "adjusted": "artificial score", "one room": "one room only: 0 IMPs",
                "not played": "not played"}


@dataclass(frozen=True)
class StandingRow:
    rank: str
    team: str
    names: str
    matches: int
    total: str
    imps_for: str
    imps_against: str
    imp_difference: str
    decided_by: str


@dataclass(frozen=True)
class MatchRow:
    """One match of the VP table; ``card`` is its card's id (None when the input had totals only)."""

    round: str
    home: str
    away: str
    boards: int
    imps_home: str
    imps_away: str
    vp_home: str
    vp_away: str
    status: str
    card: str | None


@dataclass(frozen=True)
class Room:
    """One room's result on a board: contract (suit symbols), declarer, lead, result, NS score."""

    contract: str
    declarer: str
    lead: str
    result: str
    score: str


@dataclass(frozen=True)
class CardBoard:
    board: int
    open: Room
    closed: Room
    swing: str
    imps_home: str
    imps_away: str
    note: str
    deal: bool


@dataclass(frozen=True)
class MatchCard:
    id: str
    title: str
    home: str
    away: str
    total: MatchRow
    boards: list[CardBoard]


@dataclass(frozen=True)
class CrossTable:
    """Row team's VPs (or IMP margin, board-a-match points) against each column team; columns are
    headed by standings position so 30 teams fit, and each cell links to its match card."""

    unit: str
    teams: list[tuple[str, str]]
    rows: list[tuple[str, str, list[tuple[str, str | None]], str]]


@dataclass(frozen=True)
class VpScale:
    title: str
    heads: list[str]
    rows: list[list[str]]


@dataclass(frozen=True)
class TeamsSite:
    """Everything the teams website shows, in the order a member reads it."""

    title: str
    lines: list[str]
    lang: str
    total_header: str
    standings: list[StandingRow]
    matches: list[tuple[str, list[MatchRow]]]
    cards: list[MatchCard]
    cross: CrossTable | None
    scale: VpScale | None
    deals: list[Deal]
    conventions: list[tuple[str, str]]
    notices: list[str] = field(default_factory=list)
    generator: str = f"bridgeproc {__version__}"


def vp_text(value: object) -> str:
    """VPs always with two decimals (the scale's precision), blank when missing."""
    return "" if value is None or pd.isna(value) else f"{float(value):.2f}"  # type: ignore[arg-type]


def _standings(session: TeamsSession) -> list[StandingRow]:
    s = session.standings
    total = vp_text if session.options.scoring == "vp" else number_text
    return [StandingRow(str(r.rank), str(r.team), r.names if isinstance(r.names, str) else "", int(r.matches),
                        total(r.total), number_text(r.imps_for), number_text(r.imps_against),
                        number_text(r.imp_difference), r.decided_by if isinstance(r.decided_by, str) else "")
            for r in records(s)]


def _match_ids(matches: pd.Series) -> dict[str, str]:
    """A unique page and anchor id for each match name (``R1 AUSTRIA v DENMARK`` -> ``r1-austria-v-denmark``)."""
    ids: dict[str, str] = {}
    taken: set[str] = set()
    for match in matches:
        base = made = slug(str(match))
        number = 1
        while made in taken:
            number += 1
            made = f"{base}-{number}"
        taken.add(made)
        ids[str(match)] = made
    return ids


def _match_rows(session: TeamsSession, ids: dict[str, str], carded: set[str]) -> list[MatchRow]:
    return [MatchRow("" if pd.isna(r.round) else str(int(r.round)), str(r.home), str(r.away), int(r.boards),
                     number_text(r.imps_home), number_text(r.imps_away), vp_text(r.vp_home), vp_text(r.vp_away),
                     "" if r.status == "played" else str(r.status),
                     ids[str(r.match)] if str(r.match) in carded else None)
            for r in records(session.matches)]


def _rooms(results: pd.DataFrame) -> pd.DataFrame:
    """The shown texts of each table result, keyed by match, board and room."""
    return pd.DataFrame({
        "match": results["match"].astype(str), "board": results["board"].astype("int64"), "room": results["room"],
        "contract": contract_text(results["level"], results["strain"], results["doubled"], results["adjusted"],
                                  symbols=True).fillna(""),
        "declarer": results["declarer"].astype("string").fillna(""),
        "lead": lead_text(results["lead"]) if "lead" in results else "",
        "result": result_text(results["level"], results["tricks"], results["adjusted"]),
        "score": [number_text(v, 0) for v in results["score_ns"].astype("Float64")],
    })


def _cards(session: TeamsSession, ids: dict[str, str], totals: dict[str, MatchRow], dealt: set[int]) -> list[MatchCard]:
    b = session.boards
    if not len(b):
        return []
    rooms = _rooms(session.results)
    shown = ["contract", "declarer", "lead", "result", "score"]
    table = b.assign(match=b["match"].astype(str), board=b["board"].astype("int64"))
    for room in ("open", "closed"):
        part = rooms[rooms["room"] == room].drop(columns="room").drop_duplicates(["match", "board"])
        table = table.merge(part.rename(columns={c: f"shown_{c}_{room}" for c in shown}), on=["match", "board"],
                            how="left", sort=False)
    table = table.fillna({f"shown_{c}_{room}": "" for c in shown for room in ("open", "closed")})
    adjusted = (table["status"] == "adjusted").to_numpy()
    # A card shows each side's IMPs on a board only for the side that won them (0 is blank), as the workbook does.
    imps = {side: np.where((table[f"imps_{side}"].to_numpy() > 0) | adjusted, table[f"imps_{side}"].to_numpy(), np.nan)
            for side in ("home", "away")}
    swing = [number_text(v, 0) for v in table["swing"].astype("Float64")]
    cards: dict[str, MatchCard] = {}
    for i, row in enumerate(records(table)):
        card = cards.get(row.match)
        if card is None:
            total = totals[row.match]
            title = f"Round {total.round}: {total.home} v {total.away}" if total.round else f"{total.home} v {total.away}"
            card = cards[row.match] = MatchCard(ids[row.match], title, total.home, total.away, total, [])
        open_room, closed_room = (Room(*(str(getattr(row, f"shown_{c}_{room}")) for c in shown))
                                  for room in ("open", "closed"))
        card.boards.append(CardBoard(
            int(row.board), open_room, closed_room, swing=swing[i], imps_home=number_text(imps["home"][i]), imps_away=number_text(imps["away"][i]),
            note=STATUS_NOTES.get(str(row.status), str(row.status)), deal=int(row.board) in dealt))
    return list(cards.values())


def _cross(session: TeamsSession, ids: dict[str, str], carded: set[str]) -> CrossTable | None:
    teams = [str(t) for t in session.standings["team"]]
    if len(teams) < 2:
        return None
    scoring = session.options.scoring
    column = {"vp": "vp", "imps": "margin", "bam": "bam"}[scoring]
    m = session.matches[session.matches["status"] == "played"]
    both = pd.concat([pd.DataFrame({"team": m["home"].astype(str), "opp": m["away"].astype(str),
                                    "v": m[f"{column}_home"], "match": m["match"].astype(str)}),
                      pd.DataFrame({"team": m["away"].astype(str), "opp": m["home"].astype(str),
                                    "v": m[f"{column}_away"], "match": m["match"].astype(str)})])
    grid = both.groupby(["team", "opp"])["v"].sum().unstack().reindex(index=teams, columns=teams)
    # A pair of teams that met more than once has no one card: its cell links nowhere.
    once = both.groupby(["team", "opp"])["match"].agg(lambda s: s.iloc[0] if len(s) == 1 else None)
    shown = vp_text if scoring == "vp" else number_text
    totals = [shown(v) for v in session.standings["total"]]
    rows = []
    for position, team in enumerate(teams):
        cells = []
        for opp, value in zip(teams, grid.loc[team].tolist()):
            match = once.get((team, opp))
            cells.append((shown(value), ids[match] if match in carded else None))
        rows.append((str(position + 1), team, cells, totals[position]))
    unit = {"vp": "VPs", "imps": "IMP margin", "bam": "board-a-match points"}[scoring]
    return CrossTable(unit, [(str(i + 1), t) for i, t in enumerate(teams)], rows)


def _scale(session: TeamsSession) -> VpScale | None:
    """Winner's and loser's VPs at each IMP margin, for each match length of the event."""
    if session.options.scoring != "vp":
        return None
    played = session.matches[session.matches["status"] == "played"]
    lengths = sorted({int(n) for n in played["boards"] if n > 0})
    if not lengths:
        return None
    margins = np.arange(int(np.ceil(15 * np.sqrt(max(lengths)))) + 2)
    scale = session.options.scale
    columns = [v for n in lengths for v in (scale.convert(margins, n), scale.convert(-margins, n))]
    heads = ["IMP margin"] + [f"{n} boards: {side}" for n in lengths for side in ("winner", "loser")]
    return VpScale(scale.describe(), heads, [[str(m)] + [vp_text(c[i]) for c in columns]
                                             for i, m in enumerate(margins.tolist())])


def _deals(frame: pd.DataFrame | None) -> list[Deal]:
    """The hand records (diagram, double dummy, the input's optimum score as par) of each known deal."""
    out = []
    for row in board_rows(frame).values() if frame is not None else []:
        deal = deal_model(row)
        if deal is None:
            continue
        optimum = row.get("optimum_score")
        if not deal.par and isinstance(optimum, str) and optimum.strip():
            deal = replace(deal, par=f"Par {optimum.strip()}")
        out.append(deal)
    return out


def build_teams_site(session: TeamsSession) -> TeamsSite:
    """The website's page models for a teams event."""
    lines = heading(session)
    ids = _match_ids(session.matches["match"])
    carded = set(session.boards["match"].astype(str)) if len(session.boards) else set()
    match_rows = _match_rows(session, ids, carded)
    totals = {str(match): row for match, row in zip(session.matches["match"], match_rows)}
    rounds: dict[str, list[MatchRow]] = {}
    for row in match_rows:
        rounds.setdefault(row.round, []).append(row)
    deals = _deals(session.deals)
    return TeamsSite(
        title=lines[0], lines=lines[1:], lang=page_language(session.meta),
        total_header="VP" if session.options.scoring == "vp" else "Total",
        standings=_standings(session),
        matches=[(f"Round {r}" if r else "Matches", rows) for r, rows in rounds.items()],
        cards=_cards(session, ids, totals, {d.board for d in deals}),
        cross=_cross(session, ids, carded), scale=_scale(session), deals=deals,
        conventions=convention_rows(session),
        notices=list(session.notices))
