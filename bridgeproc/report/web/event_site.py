"""The website of an event of several sessions: the event ranking, each session's own results site,
and the rule the event was ranked by, in words.

The page models (:class:`EventSite`) hold no HTML; the templates ``event_page.html`` (the event's pages)
and ``event_session.html`` (a session's pages: ``page.html`` with a link back to the event) lay them out.
Each session's site is ``site.build_site`` of that session, written whole under ``session-<n>/``.

Folder layout::

    index.html              the event ranking (every session's score linked to the pair's score card
                            there), the dropped pairs, the sessions, how the event was ranked
    session-<n>/...         session n's results site (index, cards/, boards/, hand records, scoring)
    style.css

The single page (``-o event.html``) holds the event ranking, the rule and each session's ranking; a
session score links to the pair's row of that session's ranking.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import pandas as pd
from markupsafe import Markup

from bridgeproc._version import __version__
from bridgeproc.model import Event, Session
from bridgeproc.rank.event import EventRanking
from bridgeproc.rank.event_rules import EVENT_RULES, MATCH_BY, MISSING_RULES
from bridgeproc.rank.methods import METHODS
from bridgeproc.report.ranking import GROUP_TITLES
from bridgeproc.report.web.boards import number_text, page_language, percent_text, slug
from bridgeproc.report.web.render import environment, folder_url, stylesheet
from bridgeproc.report.web.site import Site, build_site

#: What the rules are called on the page (the words of each come from rank.event).
RULE_TITLES = {"sum": "Sum of the sessions", "scaled": "Sessions scaled to one top, summed",
               "percent-sum": "Sum of the session percentages", "percent-average": "Average of the session percentages",
               "carry-over": "Carry-over into the final"}


@dataclass(frozen=True)
class SessionScore:
    """A pair's score in one session: shown texts, the pair's score card in that session's site (None
    when it has none, e.g. a missed session) and the id of the session ranking that lists the pair."""

    session: int
    total: str
    pct: str
    rank: str
    card: str | None
    ranking: str | None
    missed: bool


@dataclass(frozen=True)
class EventRow:
    rank: str
    pair: str
    names: str
    boards: int
    carry: str
    total: str
    pct: str
    scores: list[SessionScore]


@dataclass(frozen=True)
class EventTable:
    """One event ranking (one per group: all pairs, or North-South and East-West apart)."""

    id: str
    title: str
    total_header: str
    has_pct: bool
    has_carry: bool
    rows: list[EventRow]


@dataclass(frozen=True)
class EventSession:
    """One session as the event shows it: its number, files (``label``), its own site and the header of
    its scores (``MP``, ``IMP``)."""

    number: int
    label: str
    title: str
    facts: str
    unit: str
    has_pct: bool
    site: Site


@dataclass(frozen=True)
class DroppedPair:
    pair: str
    names: str
    missed: str


@dataclass(frozen=True)
class EventSite:
    """Everything the event's pages show, in the order a member reads it."""

    title: str
    lines: list[str]
    lang: str
    rankings: list[EventTable]
    sessions: list[EventSession]
    dropped: list[DroppedPair]
    rules: list[tuple[str, str, str]]
    generator: str = f"bridgeproc {__version__}"
    notes: list[str] = field(default_factory=list)


def _text(value: object) -> str:
    return "" if value is None or (pd.api.types.is_scalar(value) and pd.isna(value)) else str(value)


def _card_of(site: Site, session: Session) -> tuple[dict[tuple[str, str], str | None], dict[str, str | None],
                                                    dict[str, str]]:
    """Where a pair of the session is on its site: (ranking id, pair) -> card, pair -> card (when the pair
    text is in one ranking only), and the session group -> its ranking id."""
    by_ranking: dict[tuple[str, str], str | None] = {}
    by_pair: dict[str, list[tuple[str, str | None]]] = {}
    for ranking in site.rankings:
        for row in ranking.rows:
            by_ranking[(ranking.id, row.pair)] = row.card
            by_pair.setdefault(row.pair, []).append((ranking.id, row.card))
    methods = list(dict.fromkeys(session.standings["method"])) if "method" in session.standings else []
    ids = {r.id for r in site.rankings}
    groups = {}
    for group in dict.fromkeys(session.standings["group"].astype(str)):
        found = slug(f"ranking-{methods[0] if len(methods) > 1 else ''}-{group}")
        groups[group] = found if found in ids else (site.rankings[0].id if site.rankings else "")
    unique = {pair: places[0][1] for pair, places in by_pair.items() if len(places) == 1}
    return by_ranking, unique, groups


def _scores(ranking: EventRanking, sites: list[Site], sessions: Sequence[Session]) -> dict[str, list[SessionScore]]:
    """Event key -> the pair's score in every session (a missed one as imputed, or blank when dropped)."""
    long = ranking.sessions
    out: dict[str, list[SessionScore]] = {key: [] for key in ranking.standings["key"]}
    for number, (site, session) in enumerate(zip(sites, sessions), start=1):
        by_ranking, by_pair, groups = _card_of(site, session)
        rows = long[long["session"] == number].drop_duplicates("key").set_index("key")
        for key in out:
            if key not in rows.index:
                out[key].append(SessionScore(number, "", "", "", None, None, True))
                continue
            row = rows.loc[key]
            imputed = bool(row["imputed"])
            group, pair = _text(row["group"]), _text(row["pair"])
            ranking_id = groups.get(group) or (site.rankings[0].id if site.rankings else None)
            card = None if imputed else by_ranking.get((ranking_id or "", pair), by_pair.get(pair))
            out[key].append(SessionScore(number, number_text(row["total"]), percent_text(row["pct"]),
                                         "" if imputed else _text(row["rank"]), card,
                                         None if imputed else ranking_id, imputed))
    return out


def _total_header(ranking: EventRanking) -> tuple[str, bool]:
    """The event total's header and whether a % column follows it."""
    unit = "MP" if ranking.unit == "mp" else "IMP"
    if ranking.rule == "percent-sum":
        return "Sum of %", True
    if ranking.rule == "percent-average":
        return "%", False
    return (f"{unit} (scaled)" if ranking.rule == "scaled" else unit), ranking.unit == "mp"


def _group_order(group: str) -> tuple:
    """Sections in order, North-South before East-West (as the sessions' sites show them)."""
    section, _, line = group.rpartition(" ")
    return section, {"NS": 0, "EW": 1}.get(line, 2)


def _tables(ranking: EventRanking, scores: dict[str, list[SessionScore]]) -> list[EventTable]:
    table = ranking.standings
    header, has_pct = _total_header(ranking)
    has_carry = ranking.rule == "carry-over"
    tables = []
    for group in sorted(dict.fromkeys(table["group"].astype(str)), key=_group_order):
        rows = table[table["group"].astype(str) == group]
        section, _, line = group.rpartition(" ")
        title = "Event ranking" if line == "ALL" else f"Event ranking: {GROUP_TITLES.get(line, line)}"
        if section:
            title += f", section {section}"
        tables.append(EventTable(
            id=slug(f"event-{group}"), title=title, total_header=header, has_pct=has_pct, has_carry=has_carry,
            rows=[EventRow(_text(rank), _text(pair), _text(names), int(boards), number_text(carry),
                           number_text(total), percent_text(pct) if has_pct else "", scores[key])
                  for rank, pair, names, boards, carry, total, pct, key in zip(
                      *(rows[c].tolist() for c in ("rank", "pair", "names", "boards", "carry", "total", "pct", "key")))]))
    return tables


def _rules(event: Event, sites: list[Site]) -> list[tuple[str, str, str]]:
    """(what, used, meaning) of the event's rules, then each session's scoring in one line."""
    ranking = event.ranking
    rows = [("Event total", RULE_TITLES.get(ranking.rule, ranking.rule), EVENT_RULES[ranking.rule])]
    if ranking.rule == "carry-over":
        rows.append(("Carried over", f"{ranking.carry_over:.0%}", "of the qualifying sessions' score"))
    rows.append(("Pairs matched by", ranking.match, MATCH_BY[ranking.match]))
    rows.append(("A missed session", ranking.missing, MISSING_RULES[ranking.missing]))
    rows += [(f"Session {n}", label, f"{site.summary}.") for n, (label, site)
             in enumerate(zip(event.labels, sites), start=1)]
    return rows


def _session(number: int, label: str, session: Session, site: Site) -> EventSession:
    method = session.conventions.method
    standings = session.standings
    boards = int(session.results["board"].nunique()) if len(session.results) else 0
    facts = " · ".join(part for part in (_text(session.meta.get("date")), f"{boards} boards",
                                         f"{len(standings)} pairs") if part)
    return EventSession(number, label, site.title, facts, METHODS[method].card_header if method in METHODS else "",
                        bool(standings["pct"].notna().any()) if len(standings) else False, site)


def build_event_site(event: Event) -> EventSite:
    """The event's page models, with each session's site (``site.build_site``)."""
    sites = [build_site(s) for s in event.sessions]
    ranking = event.ranking
    meta = event.meta
    lines = [" · ".join(_text(meta.get(k)) for k in ("date", "site") if _text(meta.get(k)))]
    boards = int(ranking.standings["boards"].max()) if len(ranking.standings) else 0
    lines.append(f"{len(event.sessions)} sessions · {boards} boards · {len(ranking.standings)} pairs")
    dropped = [DroppedPair(_text(pair), _text(names), _text(missed)) for pair, names, missed in
               zip(*(ranking.dropped[c].tolist() for c in ("pair", "names", "missed")))]
    lang = page_language({**event.sessions[-1].meta, **meta})  # the event's language, else its last session's
    return EventSite(title=_text(meta.get("event")) or "Event", lines=[line for line in lines if line], lang=lang,
                     rankings=_tables(ranking, _scores(ranking, sites, event.sessions)),
                     sessions=[_session(n, label, s, site) for n, (label, s, site)
                               in enumerate(zip(event.labels, event.sessions, sites), start=1)],
                     dropped=dropped, rules=_rules(event, sites))


# --------------------------------------------------------------------------- the pages

def _pair_of(ident: object) -> tuple[object, object]:
    """(session number, card or ranking id) of a session score's link."""
    pair = tuple(ident) if isinstance(ident, (tuple, list)) else (ident, "")  # (session, card or ranking id)
    return pair[0], pair[1]


def event_folder_url(kind: str, ident: object) -> str:
    """Links of the event's index page (the folder's root)."""
    if kind in ("card", "session_ranking"):
        number, where = _pair_of(ident)
        return f"session-{number}/cards/{where}.html" if kind == "card" else f"session-{number}/index.html#{where}"
    return {"index": "index.html", "css": "style.css", "session": f"session-{ident}/index.html",
            "sessions": "index.html#sessions", "rules": "index.html#rules"}[kind]


def event_single_url(kind: str, ident: object) -> str:
    """Links of the single page: anchors of its sections (a session score: the pair's row there)."""
    if kind in ("card", "session_ranking"):
        number, where = _pair_of(ident)
        return f"#s{number}-{where}"
    return {"index": "#event-ranking", "session": f"#session-{ident}", "sessions": "#sessions",
            "rules": "#rules"}[kind]


def session_pages(site: Site) -> dict[str, str]:
    """Relative file name -> HTML of a session's site inside the event's folder (``render.site_pages``'
    pages, each with a link back to the event's ranking one folder up)."""
    page = environment().get_template("event_session.html")

    def render(kind: str, depth: int, title: str = "", **items: object) -> str:
        return page.render(site=site, kind=kind, url=folder_url(depth), inline_css="", page_title=title,
                           event_index="../" * (depth + 1) + "index.html", **items)

    pages = {"index.html": render("index", 0), "handrecords.html": render("handrecords", 0, "Hand records"),
             "conventions.html": render("conventions", 0, "Scoring")}
    if site.cards:
        pages["cards/index.html"] = render("cards", 1, "Score cards")
    for card in site.cards:
        pages[f"cards/{card.id}.html"] = render("card", 1, card.title, card=card)
    for board in site.boards:
        pages[f"boards/{board.number}.html"] = render("board", 1, f"Board {board.number}", board=board)
    return pages


def event_pages(site: EventSite) -> dict[str, str]:
    """Relative file name -> HTML of every page of the event's folder (the sessions' sites included)."""
    page = environment().get_template("event_page.html")
    pages = {"index.html": page.render(site=site, kind="index", url=event_folder_url, inline_css="", page_title="")}
    for session in site.sessions:
        pages.update({f"session-{session.number}/{name}": html for name, html in session_pages(session.site).items()})
    return pages


def event_single_page(site: EventSite) -> str:
    """The event as one self-contained page (style sheet inlined, links are anchors)."""
    return environment().get_template("event_page.html").render(
        site=site, kind="single", url=event_single_url, inline_css=Markup(stylesheet()), page_title="")


def write_event_site(event: Event, folder: str | os.PathLike) -> None:
    """Write the event's website into ``folder`` (made if missing): static files only. ``bridgeproc event
    -o event/`` gives this a temporary folder renamed into place when every output is written."""
    root = Path(folder)
    site = build_event_site(event)
    css = stylesheet()
    for session in site.sessions:
        for name in ("cards", "boards"):
            (root / f"session-{session.number}" / name).mkdir(parents=True, exist_ok=True)
        (root / f"session-{session.number}" / "style.css").write_text(css, encoding="utf-8")
    (root / "style.css").write_text(css, encoding="utf-8")
    for name, html in event_pages(site).items():
        (root / name).write_text(html, encoding="utf-8")


def write_event_page(event: Event, path: str | os.PathLike) -> None:
    """Write the event's website as one self-contained HTML file."""
    html = event_single_page(build_event_site(event))
    Path(path).write_text(html, encoding="utf-8")


__all__ = ["DroppedPair", "EventRow", "EventSession", "EventSite", "EventTable", "RULE_TITLES", "SessionScore",
           "build_event_site", "event_folder_url", "event_pages", "event_single_page", "event_single_url",
           "session_pages", "write_event_page", "write_event_site"]
