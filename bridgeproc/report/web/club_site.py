"""The club's results website from the archive (``bridgeproc archive site -o site/``)::

    index.html                 every evening, newest first: date, event, winners, corrected
    evenings/<session>/...     each evening's pages, as ``score -o results/`` writes them, with a link
                               back and what each correction changed
    ladder.html                the season's ladder
    players/index.html         every player: evenings, average %, masterpoints
    players/<player>.html      one player's evenings: partner, rank, %, masterpoints; the partners;
                               the play against double dummy (archive profile), when the deals are known
    club.json                  what each evening's pages show (``version:hash``), for the next run
    double-dummy.json          the deals, leads and plays the profile solved, for the next run
    style.css

Written again after one more evening, only what changed is rewritten: an evening whose version is
the one the site already shows, laid out by the same bridgeproc and templates, is copied from the site it
replaces, and any page that comes out the
same as before keeps its file's time (what an upload by time then leaves alone)."""
from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import unicodedata
from pathlib import Path

import pandas as pd

from bridgeproc._version import __version__
from bridgeproc.analysis.profile import profile_words
from bridgeproc.model import ClubSite, Evening
from bridgeproc.report.web.boards import percent_text
from bridgeproc.report.web.render import TEMPLATES, environment, ladder_page, site_pages, stylesheet, teams_site_pages
from bridgeproc.report.web.site import build_site
from bridgeproc.report.web.teams_site import build_teams_site

#: The file that records what each evening's pages show.
MANIFEST = "club.json"
#: The double dummy the profile solved, kept for the next run (deal -> tricks; each lead's tricks).
SOLVED = "double-dummy.json"
#: The largest one read back (a season of deals and leads is a few megabytes).
SOLVED_LIMIT = 200_000_000
#: The largest manifest read back (a season of evenings is a few kilobytes).
MANIFEST_LIMIT = 10_000_000
#: The club's index from an evening's root folder (``evenings/<session>/``).
CLUB_FROM_EVENING = "../../index.html"


def player_slug(name: str, taken: set[str]) -> str:
    """A file name for a player's page: the name in plain lower-case letters and hyphens, made unique."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    slug = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:60] or "player"
    unique, n = slug, 2
    while unique in taken:
        unique, n = f"{slug}-{n}", n + 1
    taken.add(unique)
    return unique


def evening_folder(session_id: str) -> str:
    """The folder of an evening's pages: its session id, as a safe file name."""
    return "evenings/" + (re.sub(r"[^A-Za-z0-9._-]+", "-", session_id).strip(".-") or "session")


def _evening_pages(evening: Evening) -> dict[str, str]:
    if evening.kind == "teams":
        return teams_site_pages(build_teams_site(evening.session), CLUB_FROM_EVENING, evening.corrected)  # type: ignore[arg-type]
    return site_pages(build_site(evening.session), CLUB_FROM_EVENING, evening.corrected)  # type: ignore[arg-type]


def _players(club: ClubSite) -> tuple[list[dict], dict[str, dict]]:
    """The players' index rows and each player's page model, by slug."""
    table = club.players
    taken: set[str] = {"index"}  # the players' list: no player's page takes its name
    index: list[dict] = []
    pages: dict[str, dict] = {}
    folders = {e.session_id: evening_folder(e.session_id) for e in club.evenings}
    table = table[table["session_id"].isin(list(folders))]  # an evening the site shows, each row
    measured = club.profile.table.set_index("key") if club.profile is not None and len(club.profile.table) else None
    if not len(table):
        return index, pages
    for _, rows in table.groupby("key", sort=False):
        name = str(rows["name"].iloc[-1])
        slug = player_slug(name, taken)
        pct = rows["pct"].dropna()
        points = rows["masterpoints"].dropna()
        evenings = [{"date": r.date, "event": r.event, "href": f"../{folders[r.session_id]}/index.html",
                     "partner": "" if pd.isna(r.partner) else r.partner, "rank": "" if pd.isna(r.rank) else r.rank,
                     "pct": percent_text(r.pct), "masterpoints": "" if pd.isna(r.masterpoints) else f"{r.masterpoints:g}"}
                    for r in rows.sort_values(["date", "event"], ascending=False).itertuples(index=False)]
        partners = (rows.assign(partner=rows["partner"].fillna("")).groupby("partner", sort=False)
                    .agg(evenings=("session_id", "size"), pct=("pct", "mean")).sort_values("evenings", ascending=False))
        summary = {"name": name, "href": f"{slug}.html", "evenings": len(rows),
                   "pct": percent_text(pct.mean()) if len(pct) else "", "best": percent_text(pct.max()) if len(pct) else "",
                   "masterpoints": f"{points.sum():g}" if len(points) else ""}
        index.append(summary)
        key = rows["key"].iloc[0]
        against = []
        if measured is not None:  # by the player's key, else (identified over other sessions) their name
            found = measured.loc[[key]] if key in measured.index else measured[measured["name"] == name]
            against = profile_words(found.iloc[0]) if len(found) == 1 else []
        pages[slug] = {**summary, "rows": evenings, "profile": against,
                       "partners": [{"name": p or "(no partner named)", "evenings": int(n), "pct": percent_text(v)}
                                    for p, n, v in zip(partners.index, partners["evenings"], partners["pct"])]}
    index.sort(key=lambda row: str(row["name"]).casefold())
    return index, pages


def club_pages(club: ClubSite) -> dict[str, str]:
    """Relative file name -> HTML of every club page but the evenings' own (see the module's text)."""
    page = environment().get_template("club_page.html")
    generator = f"bridgeproc {__version__}"
    evenings = [{"date": e.date, "event": e.event, "winners": e.winners, "href": f"{evening_folder(e.session_id)}/index.html",
                 "corrected": e.corrected[-1].split(" (")[0] if e.corrected else ""} for e in club.evenings]
    players, player_pages = _players(club)
    awarded = any(p["masterpoints"] for p in players)

    notes = list(club.profile.notes) if club.profile is not None else []

    def render(kind: str, up: str, **items: object) -> str:
        return page.render(club=club, kind=kind, up=up, generator=generator, awarded=awarded, profile_notes=notes,
                           **items)

    pages = {"index.html": render("index", "", evenings=evenings, players=bool(players)),
             "ladder.html": ladder_page(club.ladder, home="index.html")}
    if players:
        pages["players/index.html"] = render("players", "../", players=players)
    for slug, player in player_pages.items():
        pages[f"players/{slug}.html"] = render("player", "../", player=player)
    return pages


def write_club_site(club: ClubSite, folder: str | os.PathLike) -> None:
    """Write the club's site into ``folder`` (a fresh one: the publisher renames it into place), keeping
    what has not changed from ``club.previous`` (see the module's text)."""
    root = Path(folder)
    old = Path(club.previous) if club.previous else None
    stamps = {}
    layout = layout_digest()
    for evening in club.evenings:
        where = evening_folder(evening.session_id)
        stamps[evening.session_id] = f"{evening.stamp}:{layout}"  # the same version, laid out the same way
        kept = old is not None and club.previous_stamps.get(evening.session_id) == stamps[evening.session_id] \
            and (old / where / "index.html").is_file()
        if kept:
            shutil.copytree(old / where, root / where, copy_function=shutil.copy2)  # type: ignore[operator]
            continue
        _write(root / where, "style.css", stylesheet())
        for name, html in _evening_pages(evening).items():
            _write(root / where, name, html)
    _write(root, "style.css", stylesheet())
    for name, html in club_pages(club).items():
        _write(root, name, html)
    _write(root, MANIFEST, json.dumps({"generator": f"bridgeproc {__version__}", "evenings": stamps}, indent=1,
                                      sort_keys=True) + "\n")
    if club.solved:
        _write(root, SOLVED, json.dumps({
            "tables": {deal: list(table) for deal, table in sorted(club.solved["tables"].items())},
            "leads": {"|".join(key): cards for key, cards in sorted(club.solved["leads"].items())},
            "plays": {"|".join(key): tricks for key, tricks in sorted(club.solved.get("plays", {}).items())}},
            sort_keys=True, separators=(",", ":")) + "\n")
    if old is not None:
        _keep_times(root, old)


@functools.cache
def layout_digest() -> str:
    """What the pages' look depends on besides the session: bridgeproc's version and its templates (an
    evening shown by another version or other templates is written again, not copied)."""
    digest = hashlib.sha256(__version__.encode())
    for template in sorted(TEMPLATES.iterdir(), key=lambda t: t.name):
        digest.update(template.name.encode() + b"\0" + template.read_bytes())
    return digest.hexdigest()[:16]


def _write(root: Path, name: str, text: str) -> None:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def _keep_times(root: Path, old: Path) -> None:
    """Every file that came out as the site it replaces has it takes that file's times."""
    for path in root.rglob("*"):
        before = old / path.relative_to(root)
        if path.is_file() and before.is_file() and _digest(path) == _digest(before):
            shutil.copystat(before, path)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_solved(folder: str | os.PathLike) -> dict[str, dict]:
    """The double dummy a club site written before kept (:data:`SOLVED`): ``tables``, ``leads`` and ``plays``
    as :class:`archive.profile.Solved` holds them; what is not a deal's 20 trick counts, a lead's tricks or
    a play's (0-13, at most one more than its cards) is left out, and an unreadable or oversized file is
    none at all (the deals are solved again)."""
    path = Path(folder) / SOLVED
    out: dict[str, dict] = {"tables": {}, "leads": {}, "plays": {}}
    try:
        if path.stat().st_size > SOLVED_LIMIT:
            return out
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return out
    if not isinstance(data, dict):
        return out

    def trick(value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 13

    tables, leads, plays = data.get("tables"), data.get("leads"), data.get("plays")
    if isinstance(tables, dict):
        out["tables"] = {deal: tuple(t) for deal, t in tables.items()
                         if isinstance(t, list) and len(t) == 20 and all(trick(v) for v in t)}
    if isinstance(leads, dict):
        for key, cards in leads.items():
            parts = key.split("|")
            if len(parts) == 3 and isinstance(cards, dict) and cards and all(trick(v) for v in cards.values()):
                out["leads"][tuple(parts)] = {str(card): int(v) for card, v in cards.items()}
    if isinstance(plays, dict):
        for key, tricks in plays.items():
            parts = key.split("|")
            if len(parts) == 4 and isinstance(tricks, list) and 0 < len(tricks) <= len(parts[3].split()) + 1 \
                    and all(trick(v) for v in tricks):
                out["plays"][tuple(parts)] = [int(v) for v in tricks]
    return out


def read_manifest(folder: str | os.PathLike) -> dict[str, str]:
    """The evenings a club site written before shows (``session id -> version:hash``); empty when the
    folder holds none (or not one bridgeproc wrote)."""
    path = Path(folder) / MANIFEST
    try:
        if path.stat().st_size > MANIFEST_LIMIT:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    evenings = data.get("evenings") if isinstance(data, dict) else None
    return {str(k): str(v) for k, v in evenings.items()} if isinstance(evenings, dict) else {}
