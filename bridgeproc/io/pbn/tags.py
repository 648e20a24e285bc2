"""Tag pairs beyond the lexer's happy path: why a ``[`` is not a tag, ``#``/``##`` inheritance, version."""
from __future__ import annotations

import re

from bridgeproc.core.boards import vul_from_text
from bridgeproc.core.notation import parse_adjusted
from bridgeproc.io.pbn.model import Game, Tag

_STRING = r'[^"\\]*(?:\\.[^"\\]*)*'
_NO_CLOSE = re.compile(rf'\[\s*[A-Za-z][A-Za-z0-9_]*\s*"{_STRING}"\s*(?:$|[^\]\s])')
_OPEN_VALUE = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s*"')
_UNQUOTED = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s*([^"\]]*)\]')
_BAD_NAME = re.compile(r'\[\s*([^\sA-Za-z"\]][^\s"\]]*)')
_VERSION = re.compile(r"^%\s*PBN\s+(\d+\.\d+)")


def tag_problem(rest: str) -> str:
    """Why the text at a ``[`` is not a tag pair, and how to write it."""
    if _NO_CLOSE.match(rest):
        return "tag has no closing bracket ']'; write [Name \"value\"] on one line"
    m = _OPEN_VALUE.match(rest)
    if m:
        return (f"the value of tag {m.group(1)} has no closing quote; write [{m.group(1)} \"value\"] "
                "(a quote inside a value is written \\\")")
    m = _UNQUOTED.match(rest)
    if m:
        return f"the value of tag {m.group(1)} is not in double quotes; write [{m.group(1)} \"{m.group(2).strip()}\"]"
    m = _BAD_NAME.match(rest)
    if m:
        return f"bad tag name {m.group(1)!r}: a name starts with a letter; write [Name \"value\"]"
    return "malformed tag: expected [Name \"value\"]"


def inherit(games: list[Game], problems: list[tuple[int, str]], notes: list[tuple[int, str]] | None = None) -> None:
    """Resolve ``#`` (previous game's value) and ``##text`` (this and all later games).

    ``#`` of a game's own tag (``OWN_TAGS``: its deal, contract, auction, play) is copied, with a
    note: PBN's verifier refuses it, but the copy is what the writer meant.
    """
    previous: dict[str, str] = {}
    lasting: dict[str, str] = {}
    for game in games:
        present = set()
        for tag in game.tags:
            value = tag.value
            if value.startswith("##"):
                tag.value = lasting[tag.name] = value[2:]
            elif value == "#":
                if tag.name in previous:
                    tag.value = previous[tag.name]
                    if notes is not None and tag.name in OWN_TAGS:
                        notes.append((tag.line, f"tag {tag.name} is \"#\": a game's own {tag.name} copied from the "
                                                "previous game (PBN's verifier refuses this inheritance); write it"))
                else:
                    problems.append((tag.line, f"tag {tag.name} is \"#\" (copy from the previous game) but no "
                                               "previous game has it; write the value"))
            else:
                lasting.pop(tag.name, None)
            present.add(tag.name)
        for name, value in lasting.items():
            if name not in present:
                game.tags.append(Tag(name, value, game.line, inherited=True))
        game._index = game._tables = None
        previous = {}
        for tag in reversed(game.tags):
            previous[tag.name] = tag.value


_SIDE_SCORE = r"(?:NS|EW)\s+[+-]?\d+"
#: A published score: a number, or each side's (``NS 420``, ``NS -3 EW 3``).
_SCORE = r"(?:(?:NS|EW)\s+)?{n}(?:\s+(?:NS|EW)\s+{n})?"
#: Tag values the reader checks in every game (board or not), with the form PBN 2.1 gives them
#: (chapter 3); "" and "?" (unknown) are always allowed.
TAG_FORMS: dict[str, tuple[re.Pattern, str]] = {
    "Dealer": (re.compile(r"^[NESW]$", re.I), "write N, E, S or W"),
    "Vulnerable": (re.compile(r"^(?:None|Love|-|NS|EW|All|Both)$", re.I),
                   "write None, NS, EW or All (also accepted: Love, -, Both)"),
    "Declarer": (re.compile(r"^\^?[NESW]$", re.I), "write N, E, S or W (^S for an irregular declarer)"),
    # a strain alone ("H") is an end position's contract (the PBN verifier's own correct_20)
    "Contract": (re.compile(r"^(?:Pass|(?:[1-7]\s*)?(?:C|D|H|S|NT|N)\s*(?:X|XX)?)$", re.I),
                 "write Pass or a contract such as 4S, 3NTX, 6HXX"),
    "Result": (re.compile(r"^\^?\s*(?:\d{1,2}|(?:NS|EW)\s+\d{1,2}(?:\s+(?:NS|EW)\s+\d{1,2})?)$", re.I),
               "write declarer's tricks (9), or NS 9, EW 4, NS 9 EW 4"),
    # also as pbntools writes BBO's time of play: 2013-08-10 17:04
    "Date": (re.compile(r"^(?:\d{4}|\?{4})([.-])(?:\d{2}|\?\?)\1(?:\d{2}|\?\?)(?: \d{1,2}:\d{2}(?::\d{2})?)?$"),
             "write YYYY.MM.DD, with ?? for an unknown part (1995.06.??)"),
    "Round": (re.compile(r"^[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*$"), "write a round number (3) or its parts (1.A.2)"),
    "Score": (re.compile("^" + _SCORE.format(n=r"[+-]?\d+") + "$", re.I),
              "write a whole number, or the side and its score: NS 420, NS -100 EW 100"),
    "ScoreIMP": (re.compile("^" + _SCORE.format(n=r"[+-]?\d+(?:\.\d*)?") + "$", re.I),
                 "write a number, or the side and its IMPs: NS 3, NS -2.5 EW 2.5"),
    "ScoreMP": (re.compile("^" + _SCORE.format(n=r"[+-]?\d+(?:\.\d*)?") + "$", re.I),
                "write a number, or the side and its matchpoints: NS 7.5"),
    "ScorePercentage": (re.compile("^" + _SCORE.format(n=r"\d+(?:\.\d*)?") + "$", re.I),
                        "write a percentage from 0 up, or the side and its percentage: NS 62.5 EW 37.5"),
    # above / below the line (PBN 4.2.5: 300/40), or one total
    "ScoreRubber": (re.compile("^" + _SCORE.format(n=r"[+-]?\d+(?:\s*/\s*\d+)?") + "$", re.I),
                    "write the score above/below the line, or the side and its score: NS 300/40"),
    "OptimumScore": (re.compile(rf"^{_SIDE_SCORE}(?:\s+{_SIDE_SCORE})?$", re.I),
                     "write the side and its score, e.g. NS 420 or EW -300"),
}
#: Characters a tag value may not hold (PBN 2.1 section 3.2: tab and control characters).
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def check_tags(games: list[Game], problems: list[tuple[int, str]]) -> None:
    """A problem for each tag value that is not in its PBN form (``TAG_FORMS``) or holds a control character."""
    for game in games:
        for tag in game.tags:
            if tag.inherited:
                continue
            value = tag.value
            if _CONTROL.search(value):
                problems.append((tag.line, f"tag {tag.name} holds a tab or control character; "
                                           "write it with spaces and printable characters only"))
            form = TAG_FORMS.get(tag.name)
            if form is None:
                continue
            text = value.strip()
            if text in ("", "?") or (vul_from_text(text) is not None if tag.name == "Vulnerable"
                                     else form[0].match(text)):
                continue
            if tag.name == "Contract" and parse_adjusted(text) is not None:
                continue  # an artificial score in the Contract tag (A+/A-, NP, 60/40), as bridgeproc writes it
            problems.append((tag.line, f"bad {tag.name} value {value!r}; {form[1]}"))


def pbn_version(escapes: list[str]) -> str | None:
    """The version of the ``% PBN x.y`` header line, if any."""
    for line in escapes:
        m = _VERSION.match(line)
        if m:
            return m.group(1)
    return None


#: Every tag name PBN 2.1 defines (chapters 3-5); any other is a producer's own (section 4.9 allows them).
PBN_TAGS = frozenset({
    "Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer", "Vulnerable", "Deal",
    "Scoring", "Declarer", "Contract", "Result", "Auction", "Play", "Note",
    "Competition", "DealId", "Description", "FrenchMP", "Generator", "Hidden", "Room", "Termination",
    "Score", "ScoreIMP", "ScoreMP", "ScorePercentage", "ScoreRubber", "ScoreRubberHistory", "OptimumScore",
    "WestNA", "NorthNA", "EastNA", "SouthNA", "WestType", "NorthType", "EastType", "SouthType",
    "BidSystemEW", "BidSystemNS", "PairEW", "PairNS",
    "EventDate", "EventSponsor", "HomeTeam", "Round", "Section", "Stage", "Table", "VisitTeam",
    "Time", "UTCDate", "UTCTime", "TimeControl", "TimeCall", "TimeCard",
    "Annotator", "AnnotatorNA", "Application", "Mode",
    "ActionTable", "AuctionTimeTable", "InstantScoreTable", "OptimumPlayTable", "OptimumResultTable",
    "PlayTimeTable", "ScoreTable", "TotalScoreTable",
})
#: Producers' own tags that bridgeproc knows (reads, or writes itself): no note. ``OptimumContract``
#: (bridgeproc, Ruter: par with OptimumScore), ``DoubleDummyTricks`` (BridgeComposer, Dealmaster Pro,
#: BridgeWebs: 20 hex digits, checked by analysis.par), ``BCFlags`` (BridgeComposer's display flags).
KNOWN_TAGS = frozenset({"OptimumContract", "DoubleDummyTricks", "BCFlags"})
#: A game's own tags: PBN's verifier refuses ``#`` (copy from the previous game) for them.
OWN_TAGS = ("Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction", "Play")
#: Published scores: only read from a game without ScoreTable (``game_rows.collect``).
_SCORE_TAGS = frozenset({"Score", "ScoreIMP", "ScoreMP", "ScorePercentage", "ScoreRubber"})
_SCORING_PART = re.compile(r"^[A-Za-z][A-Za-z0-9_+-]*$")
_RUBBER_SIDE = re.compile(r"(NS|EW)\s+([\d\s]*)/([\d\s]*)")
_NOTE_VALUE = re.compile(r"^\s*(\d{1,2})\s*:")
_SUFFIXES = frozenset({"!", "?", "!!", "??", "!?", "?!"})
_NAG = re.compile(r"^\$(\d+)$")
_NOTE_REF = re.compile(r"^=(\d+)=$")
_SHORT_NT = re.compile(r"(?i)^[1-7]N$")


def check_repeats(games: list[Game], problems: list[tuple[int, str]], notes: list[tuple[int, str]]) -> None:
    """A tag given twice in one game (issue 15: the first must not silently win).

    The same value twice is a machine-written repeat (a note); two values are an error naming
    both lines (often a missing blank line that merged two games), except published scores of
    a game whose ScoreTable gives the results: those tags are not read (a note).
    """
    for game in games:
        first: dict[str, Tag] = {}
        has_table = None
        for tag in game.tags:
            if tag.inherited or tag.name == "Note":
                continue
            seen = first.setdefault(tag.name, tag)
            if seen is tag:
                continue
            if seen.value == tag.value:
                notes.append((tag.line, f"tag {tag.name} is given again with the same value {tag.value!r} "
                                        f"(first at line {seen.line}); read once"))
                continue
            if has_table is None:
                has_table = any(t.name == "ScoreTable" for t in game.tags)
            if tag.name in _SCORE_TAGS and has_table:
                notes.append((tag.line, f"tag {tag.name} is given twice: {seen.value!r} at line {seen.line} and "
                                        f"{tag.value!r} here; neither is read (the ScoreTable gives the results)"))
                continue
            problems.append((tag.line, f"tag {tag.name} is given twice in one game: {seen.value!r} at line "
                                       f"{seen.line} and {tag.value!r} here; keep one (a missing blank line "
                                       "between two games?)"))


def check_names(games: list[Game], notes: list[tuple[int, str]]) -> None:
    """One note per tag name that PBN does not define (PBN 4.9: allowed, read as information)."""
    unknown: dict[str, list[int]] = {}
    for game in games:
        for tag in game.tags:
            if tag.name not in PBN_TAGS and tag.name not in KNOWN_TAGS and not tag.inherited:
                seen = unknown.setdefault(tag.name, [tag.line, 0])
                seen[1] += 1
    for name, (line, count) in unknown.items():
        times = f" ({count} games)" if count > 1 else ""
        notes.append((line, f"tag {name} is not a PBN tag{times}: a producer's own, kept as information"))


def _rubber_vulnerable(value: str) -> str | None:
    """The vulnerability a ScoreRubberHistory gives (a side that has won a game: 100 or more
    below the line in a game after the '/'), or None if the value is not in that form."""
    sides = dict((side, after) for side, _, after in _RUBBER_SIDE.findall(value))
    if set(sides) != {"NS", "EW"}:
        return None
    won = {side for side, after in sides.items() if any(int(n) >= 100 for n in after.split())}
    return {frozenset(): "None", frozenset({"NS"}): "NS", frozenset({"EW"}): "EW"}.get(frozenset(won), "All")


def _deal_counts(value: str) -> list[tuple[str, int]] | None:
    """(seat, cards) of each known hand of a Deal value, or None if it is not in the hand form."""
    first, _, hands = value.partition(":")
    seats = "NESW"
    if first.upper() not in tuple(seats) or not hands:
        return None
    start = seats.index(first.upper())
    out = []
    for i, hand in enumerate(hands.split()):
        if hand != "-":
            out.append(({"N": "North", "E": "East", "S": "South", "W": "West"}[seats[(start + i) % 4]],
                        len(hand.replace(".", ""))))
    return out


def check_games(games: list[Game], problems: list[tuple[int, str]], notes: list[tuple[int, str]]) -> None:
    """What the PBN standard's verifier reports about a game's tags beyond each value's own form:
    tag pairs that contradict each other, Scoring and Note syntax, deals, and what a section needs."""
    lines = {line for line, _ in problems}
    for game in games:
        tag = game.tag
        vul, history = tag("Vulnerable"), tag("ScoreRubberHistory")
        if vul is not None and history is not None:
            written, implied = vul_from_text(vul.value.strip()), _rubber_vulnerable(history.value)
            if written is not None and implied is not None and written != vul_from_text(implied):
                later, other = (history, vul) if history.line > vul.line else (vul, history)
                problems.append((later.line, f"Vulnerable {vul.value!r} disagrees with ScoreRubberHistory "
                                             f"{history.value!r} (which makes it {implied}); lines {other.line} "
                                             f"and {later.line}: correct one of them"))
        scoring = tag("Scoring")
        if scoring is not None and scoring.value.strip() not in ("", "?") and not all(
                _SCORING_PART.match(p.strip()) for p in scoring.value.split(";")):
            problems.append((scoring.line, f"bad Scoring value {scoring.value!r}; write scoring names separated "
                                           "by ';', e.g. MP, IMP;Cross or IMP;Butler-2;Mean"))
        deal = tag("Deal")
        if deal is not None and not deal.inherited and deal.value not in ("", "?", "#") and deal.line not in lines:
            counts = _deal_counts(deal.value.strip())
            if counts is not None and not counts:
                notes.append((deal.line, "the Deal has no cards (every hand '-'): no hand record"))
            elif counts is not None and len({n for _, n in counts}) > 1:
                said = ", ".join(f"{seat} {n}" for seat, n in counts)
                problems.append((deal.line, f"bad Deal: the hands have different numbers of cards ({said}); "
                                            "every known hand has 13 (or the same number in an end position)"))
            elif "  " in deal.value.strip():
                notes.append((deal.line, "the Deal separates its hands by more than one space; PBN writes one"))
        board = tag("Board")
        if board is not None and deal is None and not board.inherited:
            notes.append((board.line, f"board {board.value} has no Deal tag: no hand record for it (its results are "
                                      "scored without the cards)"))
        _needs(game, notes)


def _needs(game: Game, notes: list[tuple[int, str]]) -> None:
    """Notes for sections and results that lack the tags they are read with."""
    tag = game.tag
    auction, play = tag("Auction"), tag("Play")
    if auction is not None and tag("Dealer") is None and tag("Board") is None:
        notes.append((auction.line, "the Auction has no Dealer tag (and no Board to give one): its first call "
                                    "cannot be checked"))
    if play is not None:
        for name in ("Deal", "Declarer", "Contract"):
            if (game.get(name) or "").strip() in ("", "?"):
                notes.append((play.line, f"the Play has no {name} tag: its cards cannot be checked"))
    result, contract = tag("Result"), (game.get("Contract") or "").strip()
    if result is not None and result.value.strip() not in ("", "?"):
        if contract.upper() == "PASS":
            notes.append((result.line, f"Result {result.value!r} on a passed-out board (Contract Pass, no declarer): "
                                       "not read"))
        elif game.tag("Declarer") is not None and (game.get("Declarer") or "").strip() == "":
            notes.append((result.line, f"Result {result.value!r} but no declarer (the Declarer tag is empty): "
                                       "not read"))


def check_sections(games: list[Game], problems: list[tuple[int, str]], notes: list[tuple[int, str]]) -> None:
    """Annotations and marks of Auction and Play sections (PBN 2.1 sections 3.5-3.9), and their notes.

    Each call or card takes at most one suffix or NAG (a suffix is a NAG: ``!`` is ``$1``),
    NAGs 1-6 annotate calls and 7-12 cards (0-255 in all), at most one ``=n=`` note (1-32);
    irregularity marks go before the card they mark (``^R``/``^L``, one a card) or call
    (``^I``, ``^S``); ``+`` (continued later) ends the section. Annotation slips are notes;
    marks and ``+`` that leave the play unclear are problems.
    """
    for game in games:
        referenced: set[int] = set()
        note_tags: list[Tag] = [t for t in game.tags if t.name == "Note"]
        for section in game.tags:
            if section.tokens is None:
                continue
            note_tags.extend(section.notes or ())
            _check_tokens(section, referenced, problems, notes)
        for note in note_tags:
            m = _NOTE_VALUE.match(note.value)
            if m is None:
                notes.append((note.line, f"Note {note.value!r} has no number: write [Note \"n:text\"] (n from 1 to 32)"))
            elif not 1 <= int(m.group(1)) <= 32:
                notes.append((note.line, f"Note {note.value!r}: note numbers go from 1 to 32"))
            elif int(m.group(1)) not in referenced:
                notes.append((note.line, f"Note {m.group(1)} is not referenced (no ={m.group(1)}= in the auction "
                                         "or play)"))


def _check_tokens(section: Tag, referenced: set[int], problems: list[tuple[int, str]],
                  notes: list[tuple[int, str]]) -> None:
    auction = section.name == "Auction"
    what = "call" if auction else "card"
    item: str | None = None
    suffixes = nags = refs = 0
    marks: list[str] = []
    continued: int | None = None
    for token, line in zip(section.tokens or (), section.token_lines or ()):
        upper = token.upper()
        if continued is not None and not (_NOTE_REF.match(token) or _NAG.match(token) or token in _SUFFIXES) and (
                auction or upper in ("+", "*") or (line > continued and upper != "-")):
            # in the Play '+' takes a seat's place in its trick: the seats after it hold '-'
            # (which of the trick's cards follow it in play is for validate.play to judge)
            last = "the section's last token" if auction else "the last card played"
            problems.append((line, f"{token!r} after '+' (line {continued}): '+' means the {section.name} "
                                   f"continues later, so it is {last}"))
            return
        if upper in ("^I", "^S", "^R", "^L"):
            if not auction and marks:
                problems.append((line, f"two irregularity marks ({marks[0]} {token}) before one card: mark a "
                                       "card ^R (revoke) or ^L (lead out of turn), once"))
            if auction and upper == "^I" and "^I" in marks:
                problems.append((line, "^I twice before one bid: mark an accepted insufficient bid once"))
            marks.append(upper)
            continue
        nag, ref = _NAG.match(token), _NOTE_REF.match(token)
        if token in _SUFFIXES or nag or ref:
            if item is None:
                notes.append((line, f"{token!r} before the first {what} of the {section.name}: an annotation "
                                    f"follows its {what}"))
                continue
            if ref:
                number = int(ref.group(1))
                referenced.add(number)
                refs += 1
                if not 1 <= number <= 32:
                    notes.append((line, f"note reference {token} on {item}: note numbers go from 1 to 32"))
                if refs == 2:
                    notes.append((line, f"two note references on {item}: one =n= a {what}"))
                continue
            suffixes += token in _SUFFIXES
            nags += token in _SUFFIXES or (nag is not None and 1 <= int(nag.group(1)) <= 12)
            if nag:
                number = int(nag.group(1))
                if number > 255:
                    notes.append((line, f"NAG {token} on {item}: NAGs go from $0 to $255"))
                elif auction and 7 <= number <= 12:
                    notes.append((line, f"NAG {token} on {item} annotates a card; a call takes $1-$6"))
                elif not auction and 1 <= number <= 6:
                    notes.append((line, f"NAG {token} on {item} annotates a call; a card takes $7-$12"))
            if nags == 2 and (token in _SUFFIXES or nag is not None and 1 <= int(nag.group(1)) <= 12):
                kind = "suffixes" if suffixes == 2 else "NAGs (a suffix is a NAG: $1-$12 say the same)"
                notes.append((line, f"two {kind} on {item}: one a {what}"))
            continue
        if upper == "+":
            continued = line
        elif auction and _SHORT_NT.match(token):
            notes.append((line, f"call {token} is written {token[0]}NT in PBN; read as {token[0]}NT"))
        item, suffixes, nags, refs, marks = token, 0, 0, 0, []
