"""PBN text -> games (tags with their sections), line by line, in one linear pass.

Import format per PBN 2.1 chapter 3: ``%`` escape lines, ``;`` and ``{}`` commentary
(braces may span lines, blank ones included), a semi-empty line ends a game, tag
values with ``\\"`` and ``\\\\`` escapes, ``#``/``##`` inheritance. The common export
layout (one ``[Tag "value"]`` per line, table rows one per line) takes a fast path;
anything else goes through a small quote-aware tokenizer that also reports problems.
"""
from __future__ import annotations

import re

from .pbn_model import TOKEN_SECTIONS, Game, Tag, is_table, raise_problems
from .pbn_tables import parse_columns, section_tokens, split_rows, unescape

_FAST_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*) "((?:[^"\\]|\\.)*)"\]\s*$')
_TAG_AT = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_TOKEN = re.compile(r'\s*(?:(\[)|"((?:[^"\\]|\\.)*)"|(;)|(\{)|([^\s"\[\]{};]+)|(\S))')
_NO_CLOSE = re.compile(r'\[\s*[A-Za-z][A-Za-z0-9_]*\s*"(?:[^"\\]|\\.)*"\s*(?:$|[^\]\s])')
_OPEN_VALUE = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s*"')
_UNQUOTED = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s*([^"\]]*)\]')
_BAD_NAME = re.compile(r'\[\s*([^\sA-Za-z"\]][^\s"\]]*)')
_VERSION = re.compile(r"^%\s*PBN\s+(\d+\.\d+)")
#: First characters that end a block of table rows.
_ROW_END = frozenset("[%;{")
MAX_PROBLEMS = 50


def _tag_problem(rest: str) -> str:
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


class _Lexer:
    def __init__(self, lines: list[str], source: str) -> None:
        self.lines = lines
        self.source = source
        self.games: list[Game] = []
        self.tags: list[Tag] = []
        self.comments: list[str] = []
        self.section: Tag | None = None
        self.start = 0
        self.escapes: list[str] = []
        self.problems: list[tuple[int, str]] = []

    # -- building games -------------------------------------------------
    def problem(self, line: int, message: str) -> None:
        self.problems.append((line, message))
        if len(self.problems) >= MAX_PROBLEMS:
            raise_problems(self.source, self.problems)

    def end_game(self) -> None:
        if self.tags:
            self.games.append(Game(self.tags, self.start, self.comments))
            self.comments = []
        self.tags = []
        self.section = None

    def add_tag(self, name: str, value: str, line: int) -> Tag:
        if not self.tags:
            self.start = line
        tag = Tag(name, value, line)
        section = self.section
        if name == "Note" and section is not None and section.tokens is not None:
            if section.notes is None:
                section.notes = []
            section.notes.append(tag)
            return tag
        self.tags.append(tag)
        if name in TOKEN_SECTIONS:
            tag.tokens, tag.token_lines = [], []
            self.section = tag
        elif is_table(name):
            tag.columns, problems = parse_columns(value)
            for message in problems:
                self.problem(line, message)
            tag.rows, tag.row_lines = [], []
            self.section = tag
        else:
            self.section = None
        return tag

    def add_words(self, words: list[str], line: int) -> None:
        section = self.section
        if section is None or section.rows is not None:
            what = "after a table" if section is not None else "outside a section"
            self.problem(line, f"expected [Tag \"value\"], got {words[0]!r} {what}; only Auction, Play "
                               "and table tags are followed by data lines")
            return
        tokens, problems = section_tokens(words, section.name)
        for message in problems:
            self.problem(line, message)
        section.tokens.extend(tokens)  # type: ignore[union-attr]
        section.token_lines.extend([line] * len(tokens))  # type: ignore[union-attr]

    # -- reading lines ----------------------------------------------------
    def run(self) -> list[Game]:
        lines = self.lines
        n = len(lines)
        i = 0
        fast_tag = _FAST_TAG.match
        while i < n:
            line = lines[i]
            if not line or line.isspace():
                self.end_game()
                i += 1
                continue
            first = line[0]
            if first == "%":
                if not self.games and not self.tags:
                    self.escapes.append(line)
                i += 1
                continue
            if first == "[":
                m = fast_tag(line)
                if m:
                    name, value = m.groups()
                    tag = self.add_tag(name, unescape(value), i + 1)
                    i += 1
                    if tag.rows is not None:
                        i = self.read_rows(tag, i)
                    continue
            i = self.slow_line(i)
        self.end_game()
        return self.games

    def read_rows(self, tag: Tag, i: int) -> int:
        lines = self.lines
        n = len(lines)
        j = i
        while j < n:
            head = lines[j].lstrip()[:1]
            if not head or head in _ROW_END:
                break
            j += 1
        if j > i:
            rows, row_lines, problems = split_rows(lines[i:j], i + 1, len(tag.columns or ()), tag.name)
            tag.rows.extend(rows)  # type: ignore[union-attr]
            tag.row_lines.extend(row_lines)  # type: ignore[union-attr]
            for line, message in problems:
                self.problem(line, message)
        self.section = None  # rows end at a tag, a comment or a blank line
        return j

    def skip_brace(self, i: int, pos: int) -> tuple[int, int]:
        """Skip a ``{...}`` comment opening at ``lines[i][pos]``; returns where to continue."""
        lines = self.lines
        start = i
        end = lines[i].find("}", pos)
        while end < 0:
            i += 1
            if i >= len(lines):
                self.problems.append((start + 1, "brace comment '{' is never closed; add the closing '}'"))
                raise_problems(self.source, self.problems)
            end = lines[i].find("}")
        if i == start:
            self.comments.append(lines[i][pos + 1:end])
        else:
            self.comments.append("\n".join([lines[start][pos + 1:], *lines[start + 1:i], lines[i][:end]]))
        return i, end + 1

    def slow_line(self, i: int) -> int:
        """Tokenize a line that is not a plain tag line; returns the next line index."""
        line = self.lines[i]
        pos = 0
        words: list[str] = []
        word_line = i + 1
        while True:
            m = _TOKEN.match(line, pos)
            if m is None:
                break
            bracket, quoted, semi, brace, bare, bad = m.groups()
            if bare is not None:
                words.append(bare)
                pos = m.end()
                continue
            if words:
                self.add_words(words, word_line)
                words = []
            if bracket:
                t = _TAG_AT.match(line, m.start(1))
                if t is None:
                    self.problem(i + 1, _tag_problem(line[m.start(1):]))
                    break
                tag = self.add_tag(t.group(1), unescape(t.group(2)), i + 1)
                pos = t.end()
                if tag.rows is not None:
                    rest = line[pos:].strip()
                    if rest and rest[0] not in ";{":
                        self.read_rows_from(tag, rest, i)
                        break
            elif quoted is not None:
                self.problem(i + 1, f"unexpected quoted text \"{quoted}\" outside a table; "
                                    "put it in a tag value: [Name \"value\"]")
                break
            elif semi:
                self.comments.append(line[m.end():])
                break
            elif brace:
                i, pos = self.skip_brace(i, m.start(4))
                line = self.lines[i]
                word_line = i + 1
            else:
                if bad == '"':
                    self.problem(i + 1, "unbalanced quote: the quoted text is not closed on this line; "
                                        "add the closing \" (write \\\" for a quote inside a value)")
                else:
                    self.problem(i + 1, f"unexpected {bad!r}; expected [Name \"value\"], a comment or section data")
                break
        if words:
            self.add_words(words, word_line)
        section = self.section
        if section is not None and section.rows is not None:
            return self.read_rows(section, i + 1)
        return i + 1

    def read_rows_from(self, tag: Tag, rest: str, i: int) -> None:
        rows, row_lines, problems = split_rows([rest], i + 1, len(tag.columns or ()), tag.name)
        tag.rows.extend(rows)  # type: ignore[union-attr]
        tag.row_lines.extend(row_lines)  # type: ignore[union-attr]
        for line, message in problems:
            self.problem(line, message)


def _inherit(games: list[Game], problems: list[tuple[int, str]]) -> None:
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
        game._index = None
        previous = {}
        for tag in reversed(game.tags):
            previous[tag.name] = tag.value


def lex(text: str, source: str) -> tuple[list[Game], list[str], list[tuple[int, str]]]:
    """Split PBN text into games.

    Returns ``(games, header escape lines, problems)``; problems are ``(line, message)``
    pairs for the caller to raise together with later checks. Fatal problems (an
    unclosed brace comment, too many problems) raise ParseError at once.
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lexer = _Lexer(text.split("\n"), source)
    games = lexer.run()
    if '"#' in text:
        _inherit(games, lexer.problems)
    return games, lexer.escapes, lexer.problems


def pbn_version(escapes: list[str]) -> str | None:
    """The version of the ``% PBN x.y`` header line, if any."""
    for line in escapes:
        m = _VERSION.match(line)
        if m:
            return m.group(1)
    return None
