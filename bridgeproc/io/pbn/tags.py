"""Tag pairs beyond the lexer's happy path: why a ``[`` is not a tag, ``#``/``##`` inheritance, version."""
from __future__ import annotations

import re

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


def pbn_version(escapes: list[str]) -> str | None:
    """The version of the ``% PBN x.y`` header line, if any."""
    for line in escapes:
        m = _VERSION.match(line)
        if m:
            return m.group(1)
    return None
