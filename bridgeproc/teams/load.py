"""Team results from files: PBN room games, team ScoreTables, traveller sheets with teams.

Every reader returns a raw text frame (like ``io.travellers``) with the bridge
columns (``board contract declarer result lead score``...), ``source line``, and the
team columns ``round ns_team ew_team`` plus, when the file says so, ``home away``.
:func:`assign_matches` then names each match and its rooms.

Which team sits North-South:

* PBN games with ``HomeTeam``/``VisitTeam`` and ``Room``: in the ``Open`` room the
  home team is NS, in the ``Closed`` room the visiting team is NS (PBN 2.1).
* Without a ``Room`` tag (RealBridge, the EBL file): each game's ``HomeTeam`` is the
  team at NS of that table, ``VisitTeam`` at EW (the file swaps them between the
  two tables of a match).
* A ScoreTable with ``TeamId_Home``/``TeamId_Away`` and a Contract column: same two
  rules, with a ``Room`` column if there is one.
* Traveller sheets: ``NS team``/``EW team`` columns; or ``Home``/``Away`` with
  ``Room`` (open/closed, O/C, 1/2); or NS/EW pair numbers and a line-up
  (``team, pair`` and optionally ``round``) naming each pair's team.
* USEBIO ``.xml`` (:func:`read_team_usebio`): each ``MATCH`` names its ``TEAM`` (home) and
  ``OPPOSING_TEAM``; a ``TRAVELLER_LINE``'s ``DIRECTION`` is where the home team sat.

A team ScoreTable without contracts (``TeamId_Home TeamId_Away MatchDetails VP_Home
VP_Away``, Ruter) holds match totals only: :func:`published_matches` reads it.
"""
from __future__ import annotations

import csv
import io
import json
import os
import re

import numpy as np
import pandas as pd

from bridgeproc.errors import BridgeprocError, ParseError, ValidationError
from bridgeproc.io.pbn.game_rows import result_line
from bridgeproc.io.pbn.model import Game, PbnFile
from bridgeproc.io.pbn.results import ROOM_TAGS
from bridgeproc.io.sheets.travellers import canonical_header, raw_frame, sniff_delimiter
from bridgeproc.io.sheets.xlsx import formula_sheet, load_workbooks, sheet_grid
from bridgeproc.io.text import csv_field_limit, read_text
from bridgeproc.io.usebio.teams import UsebioTeams, read_usebio_teams
from bridgeproc.schema import problems_frame
from bridgeproc.teams.matches import match_id

#: Team columns of a traveller sheet -> accepted header spellings (compared lower-case, no spaces/_/-).
TEAM_ALIASES: dict[str, tuple[str, ...]] = {
    "room": ("Room", "Rm", "Raum", "Salle", "Open/Closed"),
    "home": ("Home", "Home team", "HomeTeam", "TeamId_Home", "Team home"),
    "away": ("Away", "Away team", "Visit", "Visitors", "VisitTeam", "Visiting team", "TeamId_Away", "Team away"),
    "ns_team": ("NS team", "Team NS", "NSTeam", "N-S team"),
    "ew_team": ("EW team", "Team EW", "EWTeam", "E-W team"),
}
_TEAM_KEYS = {re.sub(r"[\s._/\-]", "", a.lower()): col for col, aliases in TEAM_ALIASES.items() for a in aliases}
#: Room cell (lower case) -> open/closed.
ROOM_WORDS = {"open": "open", "o": "open", "1": "open", "openroom": "open", "home": "open",
              "closed": "closed", "c": "closed", "2": "closed", "closedroom": "closed", "away": "closed"}


def _team_header(cell: str) -> str | None:
    return _TEAM_KEYS.get(re.sub(r"[\s._/\-]", "", cell.strip().lower()))


def room_codes(text: pd.Series, source: pd.Series, line: pd.Series) -> pd.Series:
    """``open``/``closed`` from room cells (NA stays NA); an unknown word is a ParseError."""
    key = text.astype("string").str.strip().str.lower().str.replace(" ", "", regex=False)
    out = key.map(ROOM_WORDS).astype("string")
    bad = key.notna() & (key != "") & out.isna()
    if bad.any():
        at = np.flatnonzero(bad.to_numpy())[0]
        raise ParseError(str(source.iloc[at]), int(line.iloc[at]),
                         f"room {text.iloc[at]!r} is not a room; write Open or Closed (O/C, 1/2)")
    return out


def _sides(frame: pd.DataFrame, home: pd.Series, away: pd.Series, room: pd.Series | None) -> pd.DataFrame:
    """Set ``ns_team``/``ew_team`` (and ``home``/``away`` when rooms are known)."""
    if room is None or room.isna().all():
        return frame.assign(ns_team=home.astype("string"), ew_team=away.astype("string"))
    closed = (room == "closed").fillna(False).to_numpy()
    return frame.assign(
        ns_team=pd.Series(np.where(closed, away, home), index=frame.index, dtype="string"),
        ew_team=pd.Series(np.where(closed, home, away), index=frame.index, dtype="string"),
        home=home.astype("string"), away=away.astype("string"),
    )


def from_pbn_results(results: pd.DataFrame) -> pd.DataFrame:
    """The raw team frame from ``PbnFile.results`` (room games or a ScoreTable with team ids)."""
    cols = results.columns
    if "hometeam" in cols:
        home, away = results["hometeam"], results["visitteam"]
    elif "teamid_home" in cols:
        home, away = results["teamid_home"], results["teamid_away"]
    else:
        raise ParseError(str(results["source"].iloc[0]) if len(results) else "<pbn>", None,
                         "no teams in this PBN: games need HomeTeam/VisitTeam tags, or a ScoreTable with "
                         "TeamId_Home/TeamId_Away; for pairs results use bridgeproc score")
    lacking = (home.isna() | away.isna()).to_numpy()
    if lacking.any():
        at = lacking.argmax()
        raise ParseError(str(results["source"].iloc[at]), int(results["line"].iloc[at]),
                         "no teams in this PBN game: add HomeTeam and VisitTeam tags (and Room Open/Closed); "
                         "for pairs results use bridgeproc score")
    room = room_codes(results["room"], results["source"], results["line"]) if "room" in cols else None
    out = results.assign(round=results["round"] if "round" in cols else pd.NA)
    return _sides(out, home, away, room)


def published_matches(matches: pd.DataFrame) -> pd.DataFrame:
    """Match totals from a Ruter-style team ScoreTable (``PbnFile.matches``).

    Returns
    -------
    DataFrame
        ``round`` (Int64), ``home``, ``away``, ``imps_home``, ``imps_away`` (float64, from
        the ``200,<home>,<away>`` total of MatchDetails, whose other ``|`` parts are
        segments ``<n>,<home>,<away>``), ``segments`` (int64), published ``vp_home`` and
        ``vp_away`` (float64), ``played`` (False for rows of ``-``), ``source``, ``line``.
    """
    details = matches["matchdetails"].astype("string")
    total = details.str.extract(r"(?:^|\|)200,(-?[\d.]+),(-?[\d.]+)")
    segments = details.str.count(r"\|").fillna(0).astype("int64")
    return pd.DataFrame({
        "round": pd.to_numeric(matches["round"], errors="coerce").astype("Int64"),
        "home": matches["teamid_home"].astype("string"), "away": matches["teamid_away"].astype("string"),
        "imps_home": pd.to_numeric(total[0], errors="coerce").astype("float64"),
        "imps_away": pd.to_numeric(total[1], errors="coerce").astype("float64"),
        "segments": segments.to_numpy(),
        "vp_home": pd.to_numeric(matches["vp_home"], errors="coerce").astype("float64"),
        "vp_away": pd.to_numeric(matches["vp_away"], errors="coerce").astype("float64"),
        "played": total[0].notna().to_numpy(),
        "source": matches["source"], "line": matches["line"],
    })


def parse_team_travellers(text: str, source: str = "<string>", lineup: pd.DataFrame | None = None) -> pd.DataFrame:
    """Traveller CSV text with team columns -> the raw team frame (see module docstring).

    The header is the first row naming ``board`` and ``contract``; bridge columns use
    ``io.travellers.HEADER_ALIASES``, team columns TEAM_ALIASES.
    """
    delimiter = sniff_delimiter([t for t in text.splitlines() if t.strip()][:10])
    rows, lines = [], []
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    previous = 0
    with csv_field_limit(len(text)):  # a cell as long as the file is read, never a traceback
        for row in reader:
            start, previous = previous + 1, reader.line_num
            if any(c.strip() for c in row):
                rows.append(row)
                lines.append(start)
    return team_rows_frame(rows, lines, source, lineup)


def team_rows_frame(rows: list[list[str]], lines: list[int], source: str,
                    lineup: pd.DataFrame | None = None) -> pd.DataFrame:
    """Text rows (header among the first 10) with their line/row numbers -> the raw team frame."""
    for index, row in enumerate(rows[:10]):
        headers = ((canonical_header(c) or _team_header(c), i) for i, c in reversed(list(enumerate(row))) if c.strip())
        named = {header: i for header, i in headers if header is not None}
        if "board" in named and "contract" in named:
            break
    else:
        raise ParseError(source, lines[0] if lines else 1, "no header row with Board and Contract found; expected e.g. "
                         "Round,Board,Room,Home,Away,Contract,Declarer,Result,Lead")
    frame = raw_frame(named, rows[index + 1:], lines[index + 1:], source)
    return _team_sides(frame, lineup, source)


def read_team_travellers_xlsx(path: str | os.PathLike, lineup: pd.DataFrame | None = None) -> pd.DataFrame:
    """The first sheet of a workbook with a Board and Contract header, read like the CSV (Excel row numbers)."""
    values, formulas = load_workbooks(path)
    name = os.path.basename(path)
    for ws in values.worksheets:
        rows, lines, _ = sheet_grid(ws, formula_sheet(formulas, ws.title))
        if any(canonical_header(c) == "board" for row in rows[:10] for c in row if c) and \
                any(canonical_header(c) == "contract" for row in rows[:10] for c in row if c):
            return team_rows_frame(rows, lines, f"{name}!{ws.title}", lineup)
    raise ParseError(name, None, "no sheet with a Board and Contract header; expected e.g. "
                     "Round,Board,Room,Home,Away,Contract,Declarer,Result,Lead")


def _team_sides(frame: pd.DataFrame, lineup: pd.DataFrame | None, source: str) -> pd.DataFrame:
    if "round" not in frame:
        frame = frame.assign(round=pd.array([pd.NA] * len(frame), dtype="string"))
    if "ns_team" in frame and "ew_team" in frame:
        return frame
    if "home" in frame and "away" in frame:
        if "room" not in frame:
            raise ParseError(source, None, "Home and Away columns need a Room column (Open/Closed) to tell who sat NS")
        room = room_codes(frame["room"], frame["source"], frame["line"])
        return _sides(frame, frame["home"], frame["away"], room)
    if lineup is not None and "ns" in frame and "ew" in frame:
        return _from_lineup(frame, lineup, source)
    raise ParseError(source, None, "no team columns: give NS team/EW team, or Home/Away/Room, "
                     "or NS/EW pair numbers with a line-up file (team,pair[,round])")


def _from_lineup(frame: pd.DataFrame, lineup: pd.DataFrame, source: str) -> pd.DataFrame:
    """Map NS/EW pair numbers to teams through the line-up (by round when it has one)."""
    lu = lineup.astype({"team": "string", "pair": "string"})
    by_round = "round" in lu and lu["round"].notna().any()
    keys = ["round", "pair"] if by_round else ["pair"]
    if by_round:
        lu = lu.assign(round=lu["round"].astype("string").str.strip())
    table = lu.assign(pair=lu["pair"].str.strip()).drop_duplicates(subset=keys).set_index(keys)["team"]
    out = {}
    for side in ("ns", "ew"):
        pair = frame[side].astype("string").str.strip()
        at = pd.MultiIndex.from_arrays([frame["round"].astype("string").str.strip(), pair]) if by_round else pair
        team = pd.Series(table.reindex(at).to_numpy(), index=frame.index, dtype="string")
        missing = team.isna() & pair.notna()
        if missing.any():
            i = np.flatnonzero(missing.to_numpy())[0]
            raise ParseError(source, int(frame["line"].iloc[i]), f"{side.upper()} pair {pair.iloc[i]} is not in the line-up; "
                             "add it (team,pair[,round]) or correct the pair number")
        out[f"{side}_team"] = team
    return frame.assign(**out)


def side_file(text: str, source: str) -> pd.DataFrame:
    """A line-up or adjustments CSV as text columns (the delimiter sniffed); a cell as long as the file
    is read (the csv module's limit raised to its size), and text that is not CSV is a ParseError."""
    try:
        with csv_field_limit(len(text)):
            return pd.read_csv(io.StringIO(text), dtype="string", sep=None, engine="python")
    except (pd.errors.ParserError, pd.errors.EmptyDataError, csv.Error) as exc:
        raise ParseError(source, None, f"not a CSV file ({str(exc).splitlines()[0]}); write one row per team "
                         "with a header line") from None


def read_lineup(path: str | os.PathLike) -> pd.DataFrame:
    """A line-up CSV: columns ``team``, ``pair`` and optionally ``round`` (text)."""
    text, source = read_text(path)
    frame = side_file(text, source)
    frame.columns = [c.strip().lower() for c in frame.columns]
    if not {"team", "pair"} <= set(frame.columns):
        raise ParseError(source, 1, "a line-up needs columns team,pair (and optionally round)")
    return frame


def read_adjustments(path: str | os.PathLike) -> pd.DataFrame:
    """Carry-over and penalties CSV: ``team`` and any of ``round``, ``carry``, ``imps``, ``vp``.

    ``carry``: IMPs added to the team's score in that round's match; ``imps``: an IMP
    penalty; ``vp``: a VP penalty (on the total when ``round`` is empty). See
    :func:`bridgeproc.teams.matches.match_totals`. A person types this file, so what cannot be right is
    refused, every problem at once with its line: a round that is not a round number, a carry-over or IMP
    penalty with no round (it belongs to a match), a negative penalty (a penalty is what is taken off),
    a cell that is not a number, a row with no team.
    """
    text, source = read_text(path)
    frame = side_file(text, source)
    frame.columns = [c.strip().lower() for c in frame.columns]
    known = {"team", "round", "carry", "imps", "vp"}
    if "team" not in frame or not (set(frame.columns) & {"carry", "imps", "vp"}) or set(frame.columns) - known:
        raise ParseError(source, 1, f"adjustments need columns team[,round],carry|imps|vp; got {', '.join(frame.columns)}")
    problems: list[dict] = []

    def refuse(rows: np.ndarray, column: str, message) -> None:
        for i in np.flatnonzero(rows):
            value = frame[column].iloc[i] if column in frame else ""
            problems.append({"source": source, "line": str(i + 2), "column": column,
                             "value": "" if pd.isna(value) else str(value),
                             "message": message(i) if callable(message) else message})

    team = frame["team"].str.strip()
    refuse(team.fillna("").eq("").to_numpy(), "team", "no team; write the team the adjustment is for")
    typed_round = frame["round"].str.strip().fillna("") if "round" in frame else pd.Series("", index=frame.index)
    rounds = pd.to_numeric(typed_round.where(typed_round.str.fullmatch(r"\d+")), errors="coerce").astype("Int64")
    refuse(((typed_round != "") & (rounds.isna() | (rounds < 1)).fillna(True)).to_numpy(), "round",
           lambda i: f"{typed_round.iloc[i]!r} is not a round number; write the round as a whole number from 1 (or leave it empty for a VP penalty "
           "on the total)")
    out = {"team": team, "round": rounds}
    for column in ("carry", "imps", "vp"):
        values = frame[column] if column in frame else pd.Series(["0"] * len(frame), dtype="string")
        number = pd.to_numeric(values.fillna("0").str.strip().replace("", "0").str.replace(",", ".", regex=False),
                               errors="coerce")
        refuse(number.isna().to_numpy(), column, lambda i, v=values: f"{v.iloc[i]!r} is not a number")
        out[column] = number.astype("float64")
    no_round = (typed_round == "").to_numpy()
    for column, what in (("carry", "a carry-over"), ("imps", "an IMP penalty")):
        refuse(no_round & (out[column].fillna(0) != 0).to_numpy(), column,
               f"{what} belongs to a round's match; give the round (only a VP penalty may be on the total)")
    for column, unit in (("imps", "IMPs"), ("vp", "VPs")):
        refuse((out[column] < 0).to_numpy(), column, f"a penalty is the {unit} taken off: write it as a positive "
               f"number (a negative one would add {unit})")
    if problems:
        raise ValidationError(problems_frame(problems))
    return pd.DataFrame(out)


def read_team_travellers(path: str | os.PathLike, lineup: pd.DataFrame | None = None,
                         encoding: str | None = None) -> pd.DataFrame:
    """Read a teams traveller CSV, or XLSX (see :func:`parse_team_travellers`)."""
    if str(path).lower().endswith((".xlsx", ".xlsm")):
        return read_team_travellers_xlsx(path, lineup)
    text, source = read_text(path, encoding)
    return parse_team_travellers(text, source, lineup)


def assign_matches(raw: pd.DataFrame) -> pd.DataFrame:
    """Add ``round`` (Int64; 1 when absent), ``match``, ``home``, ``away`` and ``room``.

    A match is one round's meeting of two teams. Its home team is the ``home``
    column when the file names one, else the NS team of the first table read
    (file order), so the open room is the one where that team sits NS.
    """
    rnd = pd.to_numeric(raw["round"], errors="coerce").astype("Int64").fillna(1) if "round" in raw else \
        pd.Series(1, index=raw.index, dtype="Int64")
    ns, ew = raw["ns_team"].astype("string").str.strip(), raw["ew_team"].astype("string").str.strip()
    low = ns.where(ns <= ew, ew)
    high = ew.where(ns <= ew, ns)
    key = rnd.astype("string") + "\x00" + low + "\x00" + high
    if "home" in raw and raw["home"].notna().all():
        home, away = raw["home"].astype("string").str.strip(), raw["away"].astype("string").str.strip()
    else:
        first_ns = ns.groupby(key, sort=False).transform("first")
        home = first_ns
        away = ew.where(ns == first_ns, ns)
    room = pd.Series(np.where(ns == home, "open", "closed"), index=raw.index, dtype="string")
    return raw.assign(round=rnd, home=home.astype("string"), away=away.astype("string"), room=room,
                      match=match_id(rnd, home, away), ns_team=ns, ew_team=ew)


#: A Contract or Result tag value that says "no contract here" (PBN 2.1: ``?`` unknown, empty not applicable).
_NO_VALUE = ("", "?")


def _unplayed_table(game: Game) -> bool:
    """A room game naming both teams and a board but with no contract, auction, result or score:
    the board was not played at that table (bridgeproc's teams PBN writes it so, ``[Contract "?"]``)."""
    return (game.get("Board") is not None and bool((game.get("HomeTeam") or "").strip())
            and bool((game.get("VisitTeam") or "").strip()) and game.tag("Contract") is not None
            and (game.get("Contract") or "").strip() in _NO_VALUE and (game.get("Result") or "").strip() in _NO_VALUE
            and game.tag("Score") is None and game.tag("Auction") is None and game.tag("ScoreTable") is None)


def unplayed_rooms(pbn: PbnFile) -> pd.DataFrame:
    """``PbnFile.results`` rows (contract ``NP``) for the room games of boards not played at that table.

    The PBN reader does not take a game without a contract or result for a result; in a teams
    file such a game still says which teams were to meet on that board, so the match is kept
    (and reported as not played) instead of vanishing when a teams export is read back.
    """
    rows = []
    for game in pbn.games:
        if _unplayed_table(game):
            row = {"section": game.get("Section") or "", "board": game.get("Board"), "ns": game.get("HomeTeam"),
                   "ew": game.get("VisitTeam"), "contract": "NP"}
            row.update({t.lower(): game.get(t) for t in ROOM_TAGS if (game.get(t) or "").strip()})
            rows.append({**row, "source": pbn.source, "line": result_line(game)})
    if not rows:
        return pd.DataFrame()
    frame = pd.DataFrame(rows)
    return frame.astype({c: "string" for c in frame.columns if c != "line"}).astype({"line": "Int64"})


def room_games(pbn: PbnFile, results: pd.DataFrame) -> pd.Series:
    """The source :class:`Game` of each one-result row of ``results`` (None for ScoreTable rows).

    Rows are matched to games by line (``result_line``), as ``validate.records`` does; the
    games keep every tag (players, Auction, Play, double-dummy tables) for the teams PBN export.
    """
    by_line = {result_line(g): g for g in pbn.games if g.tag("ScoreTable") is None}
    return pd.Series([by_line.get(int(n)) if s == pbn.source else None
                      for s, n in zip(results["source"], results["line"])], index=results.index, dtype="object")


#: USEBIO MATCH_SCORING_METHOD whose TEAM_SCORE is a match's VPs (absent: VPs, the usual teams scoring).
_VP_METHODS = (None, "VPS", "VP", "VICTORY_POINTS")


def from_usebio(usebio: UsebioTeams) -> pd.DataFrame:
    """The raw team frame of a USEBIO team event (``home``/``away`` from each MATCH)."""
    return usebio.results.drop(columns=["imps", "ximp_ns", "ximp_ew"])


def usebio_published(usebio: UsebioTeams) -> pd.DataFrame:
    """The file's match scores in the :func:`published_matches` layout: ``imps_home``/``imps_away`` the IMPs
    each team won on the match's boards (NaN without boards), ``vp_home``/``vp_away`` its ``TEAM_SCORE``/
    ``OPPOSING_TEAM_SCORE`` when ``MATCH_SCORING_METHOD`` is VPs (NaN otherwise), ``points_home``/``points_away``
    those scores whatever their unit (board-a-match points, IMPs), ``played`` when the
    match has both scores (a match not played has none), ``segments`` 0."""
    m = usebio.matches
    in_vps = usebio.meta.get("match_scoring_method") in _VP_METHODS
    home = pd.to_numeric(m["home_score"], errors="coerce").astype("float64")
    away = pd.to_numeric(m["away_score"], errors="coerce").astype("float64")
    return pd.DataFrame({
        "round": pd.to_numeric(m["round"], errors="coerce").astype("Int64").fillna(1),
        "home": m["home"].astype("string"), "away": m["away"].astype("string"),
        "imps_home": pd.to_numeric(m["imps_home"], errors="coerce").astype("float64"),
        "imps_away": pd.to_numeric(m["imps_away"], errors="coerce").astype("float64"),
        "segments": np.zeros(len(m), dtype=np.int64),
        "vp_home": home if in_vps else np.nan, "vp_away": away if in_vps else np.nan,
        "points_home": home, "points_away": away,
        "played": (home.notna() & away.notna()).to_numpy(),
        "source": m["source"], "line": m["line"],
    })


def usebio_board_imps(usebio: UsebioTeams) -> pd.DataFrame:
    """The file's board IMPs: ``round`` (Int64, 1 when absent), ``home``, ``away``, ``board`` (int64) and
    ``imps`` (float64, the home team's ``IMPS``), one row per board of a match that publishes them."""
    r = usebio.results.dropna(subset=["imps"])
    out = pd.DataFrame({
        "round": pd.to_numeric(r["round"], errors="coerce").astype("Int64").fillna(1),
        "home": r["home"].astype("string"), "away": r["away"].astype("string"),
        "board": pd.to_numeric(r["board"], errors="coerce").astype("int64"),
        "imps": pd.to_numeric(r["imps"], errors="coerce").astype("float64"),
    })
    return out.drop_duplicates(subset=["round", "home", "away", "board"], ignore_index=True)


def usebio_cross_imps(usebio: UsebioTeams) -> pd.DataFrame:
    """The file's pairwise cross-IMPs per traveller line: ``source``, ``line`` (Int64) and ``ximp_ns``,
    ``ximp_ew`` (float64), for the lines that publish them (TeamsScorer's ``NS_CROSS_IMP_POINTS``)."""
    r = usebio.results.dropna(subset=["ximp_ns"])
    return pd.DataFrame({"source": r["source"].astype("string"), "line": r["line"].astype("Int64"),
                         "ximp_ns": pd.to_numeric(r["ximp_ns"], errors="coerce").astype("float64"),
                         "ximp_ew": pd.to_numeric(r["ximp_ew"], errors="coerce").astype("float64")})


def usebio_pair_imps(usebio: UsebioTeams) -> pd.DataFrame:
    """The file's pair totals of pairwise cross-IMPs: ``pair``, ``team``, ``imps`` (float64, ``PAIR_IMPS``)."""
    p = usebio.pairs.dropna(subset=["pair_imps"])
    return pd.DataFrame({"pair": p["pair"].astype("string"), "team": p["team"].astype("string"),
                         "imps": pd.to_numeric(p["pair_imps"], errors="coerce").astype("float64")})


def usebio_places(usebio: UsebioTeams) -> pd.DataFrame:
    """The file's team totals and places: ``team``, ``total`` (float64), ``place`` (text as written, ``7=``) and
    ``masterpoints`` (float64, NaN where none is written)."""
    t = usebio.teams
    return pd.DataFrame({"team": t["team"].astype("string"),
                         "total": pd.to_numeric(t["total"], errors="coerce").astype("float64"),
                         "place": t["place"].astype("string"),
                         "masterpoints": pd.to_numeric(t["masterpoints"], errors="coerce").astype("float64")})


def pbn_places(totals: pd.DataFrame) -> pd.DataFrame | None:
    """A PBN TotalScoreTable's team totals and places (``team total place``, as :func:`usebio_places`),
    or None when it has no ``TeamId`` with ``TotalScoreVP`` (or ``TotalScoreIMP``)."""
    column = next((c for c in ("totalscorevp", "totalscoreimp", "totalscorebam") if c in totals), None)
    if not len(totals) or "teamid" not in totals or column is None:
        return None
    place = totals["rank"].astype("string") if "rank" in totals else pd.Series(pd.NA, index=totals.index, dtype="string")
    return pd.DataFrame({"team": totals["teamid"].astype("string").str.strip(),
                         "total": pd.to_numeric(totals[column].astype("string").str.replace(",", ".", regex=False),
                                                errors="coerce").astype("float64"),
                         "place": place})


def usebio_names(usebio: UsebioTeams) -> dict[str, str]:
    """Team -> its players (`` - `` between names), for the standings' names column."""
    teams = usebio.teams.dropna(subset=["players"])
    return dict(zip(teams["team"].astype(str), teams["players"].astype(str)))


def usebio_members(usebio: UsebioTeams) -> dict[str, tuple]:
    """Team -> its players' (name, member number, club number), where the file gives the numbers."""
    if "members" not in usebio.teams:
        return {}
    teams = usebio.teams.dropna(subset=["members"])
    return {team: tuple(tuple(str(v) for v in m) for m in json.loads(text))
            for team, text in zip(teams["team"].astype(str), teams["members"].astype(str))}


def read_team_usebio(path: str | os.PathLike) -> UsebioTeams:
    """Read a USEBIO team event for scoring (see :mod:`bridgeproc.io.usebio.teams`).

    Raises BridgeprocError for a file whose matches have no boards and whose match scores are VPs:
    USEBIO has no element for a match's IMPs, so such a file cannot be scored again (its published
    VPs and places are in ``matches`` and ``teams``).
    """
    usebio = read_usebio_teams(path)
    if not len(usebio.results) and len(usebio.matches):
        raise BridgeprocError(f"{usebio.source}: the matches have no boards, only their scores "
                              f"({usebio.meta.get('match_scoring_method') or 'VPS'}); USEBIO does not carry a match's "
                              "IMPs, so the event cannot be scored from this file: give the boards (the room results), "
                              "or the match totals as PBN (TeamId_Home, TeamId_Away, MatchDetails)")
    return usebio
