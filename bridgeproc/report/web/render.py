"""The results website written with Jinja2 (autoescaped): a folder of static pages with one style
sheet, or one self-contained page with the same content and in-page anchors.

Folder layout::

    index.html            the rankings and the list of boards
    cards/index.html      every score card (prints one to a page)
    cards/<pair>.html     one pair's score card (``ns-1``, ``a-ew-3``, ``7`` ...)
    boards/<n>.html       one board: diagram, double dummy, par, travellers
    handrecords.html      every deal (prints several to a page)
    conventions.html      how the results were scored, in words
    style.css

A teams event (:func:`write_teams_site`)::

    index.html            the standings and every match's IMPs and VPs, round by round
    matches/<match>.html  one match's card: both rooms of every board
    cross.html            the cross table (team x team)
    handrecords.html      every deal, when the deals are known
    scoring.html          the conventions, the notices and the VP scale
    style.css
"""
from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator, Sequence
from importlib.resources import files
from pathlib import Path

import jinja2
import pandas as pd
from markupsafe import Markup, escape

from bridgeproc._version import __version__
from bridgeproc.model import Ladder, Session, TeamsSession
from bridgeproc.report.web.boards import percent_text
from bridgeproc.report.web.site import DD_HEADS, Site, build_site
from bridgeproc.report.web.teams_site import TeamsSite, build_teams_site

#: The templates and the style sheet, shipped inside the package (pyproject package-data).
TEMPLATES = files("bridgeproc.report.web") / "templates"


def suits(text: object) -> Markup:
    """``text`` escaped, with hearts and diamonds marked red (``<span class="red">♥</span>``); each distinct
    plain text is marked up once (a traveller repeats its contracts and leads)."""
    if type(text) is str:  # not a Markup, which is a str already escaped
        return _suits(text)
    return _marked(escape("" if text is None else str(text)))


@functools.lru_cache(maxsize=65536)
def _suits(text: str) -> Markup:
    return _marked(escape(text))


def _marked(escaped: Markup) -> Markup:
    for symbol in "♥♦":
        escaped = escaped.replace(symbol, Markup(f'<span class="red">{symbol}</span>'))
    return Markup(escaped)


@jinja2.pass_context
def pair_link(context: jinja2.runtime.Context, text: object, card: object) -> Markup:
    """``text`` linked to the score card ``card`` of the page being written (its ``url``), escaped; the text
    alone when there is no card. A function, not a macro: a traveller and a score card call it on every row,
    and a macro call costs Jinja ten times more."""
    if card:
        return Markup(f'<a href="{escape(context["url"]("card", card))}">{escape(text)}</a>')  # both escaped
    return escape(text)


@functools.lru_cache(maxsize=None)
def environment() -> jinja2.Environment:
    """Templates read from the package; every value autoescaped, undefined names an error. One per
    process: each template is compiled once (a simultaneous event renders a page per club)."""
    env = jinja2.Environment(loader=jinja2.FunctionLoader(_template), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=False, lstrip_blocks=False)
    env.filters["suits"] = suits
    env.globals["pair_link"] = pair_link
    env.globals["dd_heads"] = DD_HEADS
    env.globals["home"] = ""  # an evening of the club's site: the link back to its index
    env.globals["corrected"] = ()  # and what each correction of it changed
    return env


def _template(name: str) -> str:
    return (TEMPLATES / name).read_text(encoding="utf-8")


def stylesheet() -> str:
    """The one style sheet (linked from the folder's pages, inlined in the single page)."""
    return _template("style.css")


def folder_url(depth: int) -> Callable[[str, object], str]:
    """Links of a page ``depth`` folders below the site's root."""
    up = "../" * depth

    def url(kind: str, ident: object) -> str:
        return up + {
            "index": "index.html", "boards": "index.html#boards", "cards": "cards/index.html",
            "card": f"cards/{ident}.html", "board": f"boards/{ident}.html", "handrecords": "handrecords.html",
            "conventions": "conventions.html", "css": "style.css",
        }[kind]
    return url


def single_url(kind: str, ident: object) -> str:
    """Links of the single page: anchors of its sections."""
    return {"index": "#ranking", "boards": "#boards", "cards": "#cards", "card": f"#card-{ident}",
            "board": f"#board-{ident}", "handrecords": "#handrecords", "conventions": "#conventions"}[kind]


def site_pages(site: Site, club: str = "", corrected: Sequence[str] = ()) -> dict[str, str]:
    """Relative file name -> HTML of every page of the folder form; ``club`` the club's index from the
    site's root (an evening of ``archive site``), ``corrected`` what each correction changed."""
    return dict(site_page_items(site, club, corrected))


def site_page_items(site: Site, club: str = "", corrected: Sequence[str] = ()) -> Iterator[tuple[str, str]]:
    """The pages of :func:`site_pages` one at a time, as each is rendered (a national event's site is
    50 MB of HTML: written page by page it is never held whole)."""
    page = environment().get_template("page.html")

    def render(kind: str, depth: int, title: str = "", **items: object) -> str:
        return page.render(site=site, kind=kind, url=folder_url(depth), inline_css="", page_title=title,
                           home="../" * depth + club if club else "", corrected=corrected, **items)

    yield "index.html", render("index", 0)
    yield "handrecords.html", render("handrecords", 0, "Hand records")
    yield "conventions.html", render("conventions", 0, "Scoring")
    if site.cards:
        yield "cards/index.html", render("cards", 1, "Score cards")
    for card in site.cards:
        yield f"cards/{card.id}.html", render("card", 1, card.title, card=card)
    for board in site.boards:
        yield f"boards/{board.number}.html", render("board", 1, f"Board {board.number}", board=board)


def single_page(site: Site) -> str:
    """The whole site as one self-contained page (style sheet inlined, links are anchors)."""
    return environment().get_template("page.html").render(
        site=site, kind="single", url=single_url, inline_css=Markup(stylesheet()), page_title="")


def write_site(session: Session, folder: str | os.PathLike) -> None:
    """Write the website of ``session`` into ``folder`` (made if missing): static files only.

    ``bridgeproc score -o results/`` gives this a fresh temporary folder and renames it into
    place when every output is written (``pipeline.write``), so a reader never sees half a site."""
    root = Path(folder)
    site = build_site(session)
    for name in ("cards", "boards"):
        (root / name).mkdir(parents=True, exist_ok=True)
    (root / "style.css").write_text(stylesheet(), encoding="utf-8")
    for name, html in site_page_items(site):
        (root / name).write_text(html, encoding="utf-8")


def write_page(session: Session, path: str | os.PathLike) -> None:
    """Write the website of ``session`` as one self-contained HTML file."""
    html = single_page(build_site(session))
    Path(path).write_text(html, encoding="utf-8")


def teams_folder_url(depth: int) -> Callable[[str, object], str]:
    """Links of a teams page ``depth`` folders below the site's root."""
    up = "../" * depth

    def url(kind: str, ident: object) -> str:
        return up + {
            "index": "index.html", "matches": "index.html#matches", "match": f"matches/{ident}.html",
            "cross": "cross.html", "handrecords": "handrecords.html", "deal": f"handrecords.html#deal-{ident}",
            "scoring": "scoring.html", "css": "style.css",
        }[kind]
    return url


def teams_single_url(kind: str, ident: object) -> str:
    """Links of the teams single page: anchors of its sections."""
    return {"index": "#standings", "matches": "#matches", "match": f"#match-{ident}", "cross": "#cross",
            "handrecords": "#handrecords", "deal": f"#deal-{ident}", "scoring": "#scoring"}[kind]


def teams_site_pages(site: TeamsSite, club: str = "", corrected: Sequence[str] = ()) -> dict[str, str]:
    """Relative file name -> HTML of every page of the teams folder form (``club`` and ``corrected`` as
    :func:`site_pages` takes them)."""
    page = environment().get_template("teams_page.html")

    def render(kind: str, depth: int, title: str = "", **items: object) -> str:
        return page.render(site=site, kind=kind, url=teams_folder_url(depth), inline_css="", page_title=title,
                           home="../" * depth + club if club else "", corrected=corrected, **items)

    pages = {"index.html": render("index", 0), "scoring.html": render("scoring", 0, "Scoring")}
    if site.cross:
        pages["cross.html"] = render("cross", 0, "Cross table")
    if site.deals:
        pages["handrecords.html"] = render("handrecords", 0, "Hand records")
    for card in site.cards:
        pages[f"matches/{card.id}.html"] = render("match", 1, card.title, card=card)
    return pages


def teams_single_page(site: TeamsSite) -> str:
    """The whole teams site as one self-contained page (style sheet inlined, links are anchors)."""
    return environment().get_template("teams_page.html").render(
        site=site, kind="single", url=teams_single_url, inline_css=Markup(stylesheet()), page_title="")


def write_teams_site(session: TeamsSession, folder: str | os.PathLike) -> None:
    """Write the website of the teams event ``session`` into ``folder`` (made if missing): static files
    only. ``bridgeproc teams -o results/`` stages it in a temporary folder as the pairs site is."""
    root = Path(folder)
    (root / "matches").mkdir(parents=True, exist_ok=True)
    (root / "style.css").write_text(stylesheet(), encoding="utf-8")
    for name, html in teams_site_pages(build_teams_site(session)).items():
        (root / name).write_text(html, encoding="utf-8")


def write_teams_page(session: TeamsSession, path: str | os.PathLike) -> None:
    """Write the website of the teams event ``session`` as one self-contained HTML file."""
    html = teams_single_page(build_teams_site(session))
    Path(path).write_text(html, encoding="utf-8")


def ladder_page(ladder: Ladder, home: str = "") -> str:
    """The season ladder as one self-contained page (``archive ladder -o ladder.html``): numbers as every
    output shows them, names escaped; ``home`` a link back to the club's index (``archive site``)."""
    table = ladder.table
    awarded = "masterpoints" in table
    rows = [{"rank": rank, "names": "" if pd.isna(names) else str(names), "sessions": int(sessions),
             "counted": int(counted), "pct": percent_text(pct), "best": percent_text(best),
             "masterpoints": f"{float(points):g}" if awarded and pd.notna(points) else ""}
            for rank, names, sessions, counted, pct, best, points in zip(
                table["rank"], table["names"], table["sessions"], table["counted"], table["pct"], table["best"],
                table["masterpoints"] if awarded else [None] * len(table))]
    return environment().get_template("ladder.html").render(
        ladder=ladder, rows=rows, awarded=awarded, inline_css=stylesheet(), generator=f"bridgeproc {__version__}",
        home=home)


def write_ladder_page(ladder: Ladder, path: str | os.PathLike) -> None:
    """Write :func:`ladder_page` to ``path``."""
    Path(path).write_text(ladder_page(ladder), encoding="utf-8")
