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


def inherit(games: list[Game], problems: list[tuple[int, str]]) -> None:
    """Resolve ``#`` (previous game's value) and ``##text`` (this and all later games)."""
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
