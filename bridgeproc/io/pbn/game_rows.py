"""Games -> their result rows, gathered by layout: what each game of a PBN file gives as results.

:func:`collect` gathers the ScoreTable and TotalScoreTable rows of every game by header, and reads a
one-result game (no ScoreTable: its Contract, Result, Score and players' tags) as one row; what a
game's tags say beyond its rows is a note (a game without a Board tag, a repeated result, a game to be
continued, games with neither contract nor result, unfinished tables). The gathered rows become frames
in ``pbn.results``.
"""
from __future__ import annotations

import re

from bridgeproc.io.pbn.model import Game, Tag
from bridgeproc.io.pbn.results import ROOM_TAGS, Problems, RowGroup, is_results_table, lower_names, negate_score

#: A Result tag (PBN 2.1 section 3.4.15): tricks, or one or both sides' tricks, maybe after "^".
_RESULT_TAG = re.compile(r"^\^?\s*(?:(\d{1,2})|(NS|EW)\s+(\d{1,2})(?:\s+(NS|EW)\s+(\d{1,2}))?)$", re.I)
_SCORE_TAG = re.compile(r"^(?:(NS|EW)\s+)?([+-]?\d+)(?:\s+(?:NS|EW)\s+[+-]?\d+)?$", re.I)


def collect(games: list[Game], notes: Problems | None = None, problems: Problems | None = None
            ) -> tuple[dict, dict, dict, list[bool]]:
    """Group table rows by kind and layout; returns (results, totals, matches, has_results per game).

    ``notes`` and ``problems`` (``(line, message)`` lists) collect what a game's tags say
    beyond its rows: a Result in a PBN 2.1 form that is not the declarer's tricks, a game
    with a result but no Board tag (not a board of the event: left out, with a note), a
    frequency table (``Multiplicity``: no pairs to score). When the games with results
    belong to several events (``Event`` tags), each event is scored on its own: the event
    is the section of its results (unless a Section tag names one).
    """
    notes = [] if notes is None else notes
    problems = [] if problems is None else problems
    results: dict = {}
    totals: dict = {}
    matches: dict = {}
    has_results = []
    uses_score_tags = any(g.tag("Score") is not None for g in games)
    plan: list[tuple[Game, list[tuple[Tag, dict]], bool]] = []
    repeats: dict[tuple, int] = {}
    unfinished: list[tuple[int, str]] = []
    for game in games:
        found = False
        tables: list[tuple[Tag, dict]] = []
        for tag in game.table_tags():
            if tag.name not in ("ScoreTable", "TotalScoreTable") or not tag.row_count:
                continue
            if tag.name == "TotalScoreTable":
                tables.append((tag, totals))
            elif is_results_table(tag):
                tables.append((tag, results))
                found = True
            else:
                if "multiplicity" in lower_names(tag.value):
                    notes.append((tag.line, f"ScoreTable of {tag.row_count} distinct scores with their Multiplicity "
                                            "(a frequency table): it names no pairs, so it is not scored"))
                tables.append((tag, matches))
        room = not found and game.tag("ScoreTable") is None and (_contract_given(game) or _auction_given(game))
        line = result_line(game)
        if room and game.tag("Board") is None:
            notes.append((line, "game has a Contract but no Board tag: not a board of the event, so its result is "
                                "not scored (add [Board \"n\"] to score it)"))
            room = False
        if room and not (game.get("Result") or "").strip() and game.tag("Score") is None and _continued(game):
            notes.append((line, "game is to be continued ('+' ends its Auction or Play) and has no Result: not a "
                                "result yet, so it is not scored"))
            room = False
        if room and unfinished_play(game) is not None:
            unfinished.append((line, _unfinished_text(game)))
        if room:
            key = _repeat_key(game)
            if key in repeats:
                notes.append((line, f"game repeats the result of line {repeats[key]} (same event, board, players, "
                                    "contract and result): read once"))
                room = False
            else:
                repeats[key] = line
        plan.append((game, tables, room))
        has_results.append(found or room)
    if any(has_results):
        _unplayed_games(plan, has_results, notes)
    if unfinished:
        notes.append((unfinished[0][0], _unfinished_note(unfinished)))
    events = {_event(game) for (game, _, _), found in zip(plan, has_results) if found}
    for game, tables, room in plan:
        section = game.get("Section", "") or ""
        if len(events) > 1 and not section:
            section = _event(game)
        for tag, target in tables:
            names = lower_names(tag.value)
            group = target.get(names) or target.setdefault(names, RowGroup(names))
            group.add(tag, tag.row_span or tag.row_lines, game.get("Board"), section)
        if room:
            _room_row(game, results, uses_score_tags, section, problems)
    return results, totals, matches, has_results


def _contract_given(game: Game) -> bool:
    return (game.get("Contract") or "").strip() not in ("", "?")


def _auction_given(game: Game) -> bool:
    """An Auction with calls and a result beside it (a Result, Score or Play, or four passes): the
    contract can be read from it when the Contract tag is empty. An auction alone is a bidding
    problem (the standard's own files hold such quizzes), not a table's result."""
    tag = game.tag("Auction")
    calls = [t for t in tag.tokens or () if t not in ("+", "*", "-")] if tag is not None else []
    if not calls:
        return False
    passed_out = all(t.upper() in ("PASS", "AP") for t in calls)
    return passed_out or bool((game.get("Result") or "").strip()) or any(
        game.tag(name) is not None for name in ("Score", "Play"))


def result_line(game: Game) -> int:
    """The line a one-result game's row is known by: its Contract tag, else its Auction, else its first tag."""
    for name in ("Contract", "Auction"):
        tag = game.tag(name)
        if tag is not None:
            return tag.line
    return game.tags[0].line if game.tags else 0


#: Tags that say a game is a table's result, not a hand record's deal (the players' names count
#: only when written).
_TABLE_TAGS = ("Contract", "Declarer", "Result", "PairNS", "PairEW", "HomeTeam", "VisitTeam")
_PLAYER_TAGS = ("North", "South", "East", "West")


def _names_a_table(game: Game) -> bool:
    return any(game.tag(name) is not None for name in _TABLE_TAGS) or \
        any((game.get(name) or "").strip() not in ("", "?") for name in _PLAYER_TAGS)


def _unplayed_games(plan: list, has_results: list[bool], notes: Problems) -> None:
    """One note for the games of a results file that give a table but neither contract nor result
    (a board not played there?): they are not results, and saying so keeps nothing dropped silently."""
    lines = [result_line(game) for (game, tables, _), found in zip(plan, has_results)
             if not found and not tables and not _contract_given(game) and not _auction_given(game)
             and not (game.get("Result") or "").strip() and game.tag("Board") is not None and _names_a_table(game)]
    if lines:
        shown = ", ".join(map(str, lines[:5])) + (f" and {len(lines) - 5} more" if len(lines) > 5 else "")
        notes.append((lines[0], f"{len(lines)} game(s) have neither a contract nor a result (lines {shown}): "
                                "not results, so not scored (a board not played at that table?)"))


#: An unfinished table's row: an average to both sides, as BBO publishes it (``A==``, 50 %).
UNFINISHED = "AVE"


def unfinished_play(game: Game) -> int | None:
    """Tricks played at a table that stopped before the end: a Contract, a Play record of fewer than
    13 tricks with no claim (``*``), and neither a Result nor a Score (BBO writes the play of a table that ran out of time so,
    and publishes the board as an average). None for a finished game or one with no play record."""
    play = game.tag("Play")
    if play is None or not _contract_given(game) or (game.get("Contract") or "").strip().upper() in ("PASS", "AP"):
        return None
    if (game.get("Result") or "").strip() or game.tag("Score") is not None:
        return None
    if "*" in (play.tokens or ()):
        return None  # a claim: the table finished, its result is owed
    cards = [t for t in play.tokens or () if t not in ("+", "-") and not t.startswith(("=", "$"))]
    return len(cards) // 4 if len(cards) < 52 else None


def _unfinished_text(game: Game) -> str:
    declarer = (game.get("Declarer") or "").strip().lstrip("^")
    by = f" by {declarer}" if declarer else ""
    return (f"board {game.get('Board') or '?'}, {(game.get('Contract') or '').strip()}{by}, "
            f"{unfinished_play(game)} of 13 tricks played")


def _unfinished_note(unfinished: list[tuple[int, str]]) -> str:
    listed = "; ".join(f"line {line}: {text}" for line, text in unfinished)
    return (f"{len(unfinished)} unfinished table(s): the play stops before the last trick and no Result is given "
            f"({listed}); each is scored as an average to both sides, as BBO publishes an unfinished "
            "table; a corrections file can assign the result or another score")


def _continued(game: Game) -> bool:
    """True when the game's Auction or Play section ends in ``+`` (to be continued, PBN 2.1 section 3.5)."""
    return any(tag is not None and tag.tokens and tag.tokens[-1] == "+"
               for tag in (game.tag("Auction"), game.tag("Play")))


#: The tags that make two one-result games the same result.
_SAME_RESULT = ("Event", "Date", "Board", "North", "South", "East", "West", "PairNS", "PairEW", "HomeTeam",
                "VisitTeam", "Room", "Table", "Section", "Contract", "Declarer", "Result", "Score")


def _repeat_key(game: Game) -> tuple:
    return tuple((game.get(name) or "").strip() for name in _SAME_RESULT)


def _event(game: Game) -> str:
    return game.get("Event") or ""


def _room_row(game: Game, results: dict, uses_score_tags: bool, section: str, problems: Problems) -> None:
    names = ("pairid_ns", "pairid_ew", "contract", "declarer", "result", "score_ns",
             *(t.lower() for t in ROOM_TAGS))
    contract = game.get("Contract", "") or ""
    # "^S": an irregular declarer (PBN 2.1 section 3.4.13) is still the declarer
    declarer = (game.get("Declarer") or "").strip().lstrip("^")
    if uses_score_tags and game.tag("Score") is None and game.tag("Auction") is None and contract.upper() == "PASS":
        contract = "NP"  # the file gives every played board a Score tag: this one was not played
    if unfinished_play(game) is not None:
        contract, declarer = UNFINISHED, ""  # the contract and play are in the note (collect)
    # Team files (RealBridge): HomeTeam is the team sitting North-South at this table.
    ns = game.get("PairNS") or game.get("HomeTeam") or _names(game.get("North"), game.get("South"))
    ew = game.get("PairEW") or game.get("VisitTeam") or _names(game.get("East"), game.get("West"))
    result_tag = game.tag("Result")
    result = ""
    if result_tag is not None:
        result, problem = declarer_tricks(result_tag.value, declarer)
        if problem:
            problems.append((result_tag.line, problem))
    row = [ns or "", ew or "", contract, declarer, result,
           score_from_tag(game.get("Score"), declarer) or "", *(game.get(t) or "" for t in ROOM_TAGS)]
    group = results.get(names) or results.setdefault(names, RowGroup(names))
    group.add([row], [result_line(game)], game.get("Board"), section)


def declarer_tricks(value: str, declarer: str | None) -> tuple[str, str | None]:
    """Declarer's tricks (as text) of a Result tag in any PBN 2.1 form (section 3.4.15), and a problem.

    ``"9"``, ``"NS 9"``, ``"EW 4"``, ``"NS 9 EW 4"``, ``"EW 4 NS 9"``, each optionally after
    ``^`` (an agreed result that differs from the play: still the result scored). A form
    naming a side needs the declarer to say whose tricks they are; without one, or for a
    value in no form, the text is returned as written (validation reports it).
    """
    text = value.strip()
    m = _RESULT_TAG.match(text)
    if m is None:
        return text, None
    plain, side, tricks, other_side, other = m.groups()
    if plain is not None:
        return (plain, None) if int(plain) <= 13 else (text, None)
    counts = {side.upper(): int(tricks)}
    if other_side is not None:
        if other_side.upper() == side.upper():
            return text, f"Result {value!r} names {side.upper()} twice; write NS n EW m"
        counts[other_side.upper()] = int(other)
        if sum(counts.values()) != 13:
            return text, f"Result {value!r} gives {sum(counts.values())} tricks, not 13; the two sides' tricks add up to 13"
    if max(counts.values()) > 13:
        return text, f"Result {value!r}: a side takes at most 13 tricks"
    seat = (declarer or "").strip().lstrip("^").upper()
    if seat not in ("N", "E", "S", "W"):
        return text, None
    mine = "NS" if seat in "NS" else "EW"
    theirs = "EW" if mine == "NS" else "NS"
    return str(counts[mine] if mine in counts else 13 - counts[theirs]), None


def _names(first: str | None, second: str | None) -> str | None:
    return f"{first} - {second}" if first and second else None


def score_from_tag(value: str | None, declarer: str | None) -> str | None:
    """NS score from a ``Score`` tag (``NS 420``, ``EW 50``, ``NS 420 EW -420`` or declarer's ``420``)."""
    if not value:
        return None
    m = _SCORE_TAG.match(value.strip())
    if m is None:
        return None
    side, points = (m.group(1) or "").upper(), m.group(2)
    if not side:
        side = "EW" if (declarer or "").upper() in ("E", "W") else "NS"
    return negate_score(points) if side == "EW" else points.lstrip("+")
