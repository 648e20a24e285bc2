"""PBN text -> games (tags with their sections), line by line, in one linear pass.

Import format per PBN 2.1 chapter 3: ``%`` escape lines, ``;`` and ``{}`` commentary
(braces may span lines, blank ones included), a semi-empty line ends a game, tag
values with ``\\"`` and ``\\\\`` escapes, ``#``/``##`` inheritance. The common export
layout (one ``[Tag "value"]`` per line, table rows one per line) takes a fast path;
anything else goes through a small quote-aware tokenizer that also reports problems.
"""
from __future__ import annotations

import re

from bridgeproc.io.pbn.model import MAX_PROBLEMS, TOKEN_SECTIONS, Game, Tag, is_table, raise_problems
from bridgeproc.io.pbn.tables import CellCache, parse_columns, section_tokens, split_rows, table_cells, unescape
from bridgeproc.io.pbn.tags import inherit, tag_problem

#: A quoted string's inside, with \" and \\ escapes (unrolled: much faster than an alternation).
_STRING = r'[^"\\]*(?:\\.[^"\\]*)*'
_FAST_TAG = re.compile(rf'\[([A-Za-z][A-Za-z0-9_]*) "({_STRING})"\]\s*$')
_TAG_AT = re.compile(rf'\[\s*([A-Za-z][A-Za-z0-9_]*)\s*"({_STRING})"\s*\]')
_TOKEN = re.compile(rf'\s*(?:(\[)|"({_STRING})"|(;)|(\{{)|([^\s"\[\]{{}};]+)|(\S))')
#: An export-format tag line and the data lines after it (up to the next line starting with "[", after
#: any blanks; no look-ahead: in a game every line has something besides blanks).
_TAG_AND_DATA = re.compile(
    r'^\[([A-Za-z][A-Za-z0-9_]*) "([^"\\\n]*(?:\\.[^"\\\n]*)*)"\][ \t]*(?:\n|\Z)'
    r'((?:(?:[^\[ \t\n]|[ \t]+[^\[ \t\n])[^\n]*(?:\n|\Z))*)', re.M)
#: A game: a run of lines that each hold something other than white space.
_GAME_CHUNK = re.compile(r"(?:[ \t]*[^\s][^\n]*(?:\n|\Z))+")
#: A data line the fast path does not handle (a tag, escape or comment line).
_BAD_DATA = re.compile(r"^[ \t]*[\[%;{]", re.M)
_PLAIN, _NOTE, _TOKENS, _TABLE = range(4)
#: First characters that end a block of table rows.
_ROW_END = frozenset("[%;{")


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
        #: Harmless quirks (``PbnFile.notes``): a row's ``;`` comment, a line over 255 characters ...
        self.notes: list[tuple[int, str]] = []
        self.kinds = _Kinds()
        self.cells = CellCache()

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
            tag.columns, problems = parse_columns(self.header(name, value))
            for message in problems if value != "#" else ():  # a "#" with nothing to copy: inherit says so
                self.problem(line, message)
            tag.rows, tag.row_lines = [], []
            self.section = tag
        else:
            self.section = None
        return tag

    def header(self, name: str, value: str) -> str:
        """A table's column header, ``#`` (the previous game's) and ``##text`` inheritance resolved
        here: the rows that follow are split by it (``tags.inherit`` sets the value later)."""
        if value.startswith("##"):
            return value[2:]
        if value == "#":
            for game in reversed(self.games):
                previous = game.tag(name)
                if previous is not None and previous.value != "#":
                    return self.header(name, previous.value)
        return value

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

    # -- the fast path: one game (a run of non-blank lines) at a time ------
    def fast_game(self, chunk: str, line0: int) -> bool:
        """Lex one game in export-like layout; False (nothing recorded) if it needs the general path."""
        found = _TAG_AND_DATA.findall(chunk)
        if not found:
            return False
        start = chunk.find("\n[") + 1 if chunk[0] != "[" else 0
        escapes = chunk[:start].split("\n")[:-1]
        if any(not e.startswith("%") for e in escapes):
            return False
        line = line0 + len(escapes)
        tags: list[Tag] = []
        index: dict[str, Tag] = {}  # Game.tag's lookup table, built on the way
        tables: list[Tag] = []  # and Game.table_tags
        problems: list[tuple[int, str]] = []
        notes: list[tuple[int, str]] = []
        section: Tag | None = None
        kinds = self.kinds
        for name, value, data in found:
            if "\\" in value:
                value = unescape(value)
            kind = kinds[name]
            if kind == _PLAIN:  # most tags: kept as short as can be
                if data:
                    return False
                tag = Tag(name, value, line)
                line += 1
                tags.append(tag)
                index.setdefault(name, tag)
                section = None
                continue
            tag = Tag(name, value, line)
            line += 1
            if kind == _NOTE and section is not None:
                if section.notes is None:
                    section.notes = []
                section.notes.append(tag)
            else:
                tags.append(tag)
                index.setdefault(name, tag)
                section = tag if kind == _TOKENS else None
            if kind == _TABLE:
                tables.append(tag)
                tag.columns, bad = parse_columns(self.header(name, value))
                problems.extend((tag.line, b) for b in bad if value != "#")
                if not data:
                    tag.rows, tag.row_lines = [], []
                    continue
                if ("%" in data or ";" in data) and _BAD_DATA.search(data):
                    return False
                ncols = len(tag.columns)
                cells = table_cells(data, ncols, self.cells)  # data may end with a newline: no copy without it
                if cells is None:
                    if data[-1] == "\n":
                        data = data[:-1]
                    tag.rows, tag.row_lines, bad_rows = split_rows(data, line, ncols, name, self.cells, notes)
                    problems.extend(bad_rows)
                    line += data.count("\n") + 1
                else:
                    tag.cells = cells
                    rows = len(cells) // (ncols + 1)
                    tag.row_span = (line, rows)
                    line += rows
            elif kind == _TOKENS:
                tag.tokens, tag.token_lines = [], []
                if not data:
                    continue
                if data[-1] == "\n":
                    data = data[:-1]
                if ("%" in data or ";" in data) and _BAD_DATA.search(data):
                    return False
                block = data.split("\n")
                for offset, text in enumerate(block):
                    tokens, bad_tokens = section_tokens(text.split(), name)
                    problems.extend((line + offset, b) for b in bad_tokens)
                    tag.tokens.extend(tokens)
                    tag.token_lines.extend([line + offset] * len(tokens))
                line += len(block)
            elif data:
                return False
        if line - line0 != chunk.count("\n") + (chunk[-1] != "\n"):
            return False  # a line the pattern skipped (say, a broken tag): let the general path report it
        if escapes and not self.games:
            self.escapes.extend(escapes)
        self.games.append(Game(tags, line0 + len(escapes), _index=index, _tables=tables))
        self.notes.extend(notes)
        for problem in problems:
            self.problem(*problem)
        return True

    # -- reading lines ----------------------------------------------------
    def run(self, i: int = 0, n: int | None = None) -> list[Game]:
        """Lex ``lines[i:n]`` line by line (the general path)."""
        lines = self.lines
        n = len(lines) if n is None else n
        fast_tag = _FAST_TAG.match
        plain: dict[str, bool] = {}
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
                    if "\\" in value:
                        value = unescape(value)
                    is_plain = plain.get(name)
                    if is_plain is None:
                        is_plain = plain[name] = name != "Note" and name not in TOKEN_SECTIONS and not is_table(name)
                    if is_plain and self.tags:
                        self.tags.append(Tag(name, value, i + 1))
                        self.section = None
                        i += 1
                        continue
                    tag = self.add_tag(name, value, i + 1)
                    i += 1
                    if tag.rows is not None:
                        i = self.read_rows(tag, i)
                    continue
            i = self.slow_line(i)
        return self.games

    def read_rows(self, tag: Tag, i: int) -> int:
        """Read the rows of a table from ``lines[i]`` on; returns the index of the line after them.

        Rows end at a tag, an escape line or a blank line. A ``;`` or ``{...}`` comment on a
        line of its own is commentary inside the table (PBN 2.1 section 3.1: comments may
        stand anywhere between tokens), not its end.
        """
        lines = self.lines
        n = len(lines)
        start = j = i
        while j < n:
            text = lines[j].lstrip()
            head = text[:1]
            if head in (";", "{"):
                self.add_rows(tag, start, j)
                if head == ";":
                    self.comments.append(text[1:])
                    j += 1
                else:
                    j, pos = self.skip_brace(j, lines[j].index("{"))
                    rest = lines[j][pos:].strip()
                    if rest and rest[0] not in ";{":
                        self.read_rows_from(tag, rest, j)
                    j += 1
                start = j
                continue
            if not head or head in _ROW_END:
                break
            j += 1
        self.add_rows(tag, start, j)
        self.section = None  # rows end at a tag, an escape line or a blank line
        return j

    def add_rows(self, tag: Tag, i: int, j: int) -> None:
        """Split ``lines[i:j]`` (rows on consecutive lines) into the table's rows."""
        if j <= i:
            return
        rows, row_lines, problems = split_rows("\n".join(self.lines[i:j]), i + 1, len(tag.columns or ()), tag.name,
                                               self.cells, self.notes)
        tag.rows.extend(rows)  # type: ignore[union-attr]
        tag.row_lines.extend(row_lines)  # type: ignore[union-attr]
        for line, message in problems:
            self.problem(line, message)

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
                tag_line = i + 1
                if t is None:
                    t, i = self.split_tag(i, m.start(1))
                    if t is None:
                        self.problem(i + 1, tag_problem(line[m.start(1):]))
                        break
                    line = t.string
                tag = self.add_tag(t.group(1), unescape(t.group(2)), tag_line)
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

    def split_tag(self, i: int, pos: int) -> tuple[re.Match | None, int]:
        """A tag pair written over several lines (PBN 2.1 section 3.1: tokens may be separated by
        any white space, newlines included): the match in the text of its last line, where the
        lexer goes on, and that line's index; ``(None, i)`` if no tag pair starts at ``lines[i][pos]``.

        The value itself stays on one line, and no blank line (a game's end) comes in between.
        """
        lines = self.lines
        text = lines[i][pos:]
        for j in range(i + 1, min(i + 8, len(lines))):
            if not lines[j].strip() or "]" in text:
                break
            text += "\n" + lines[j]
            t = _TAG_AT.match(text)
            if t is not None and "\n" not in t.group(2):
                # the rest of the last line, as a line the caller reads on from
                last = lines[j]
                rest_at = len(last) - (len(text) - t.end())
                flat = f'[{t.group(1)} "{t.group(2)}"]'
                joined = flat + last[rest_at:]
                return _TAG_AT.match(joined), j
        return None, i

    def read_rows_from(self, tag: Tag, rest: str, i: int) -> None:
        rows, row_lines, problems = split_rows(rest, i + 1, len(tag.columns or ()), tag.name, self.cells, self.notes)
        tag.rows.extend(rows)  # type: ignore[union-attr]
        tag.row_lines.extend(row_lines)  # type: ignore[union-attr]
        for line, message in problems:
            self.problem(line, message)


class _Kinds(dict):
    """Tag name -> _PLAIN, _NOTE, _TOKENS or _TABLE, worked out once per name."""

    def __missing__(self, name: str) -> int:
        if name == "Note":
            kind = _NOTE
        elif name in TOKEN_SECTIONS:
            kind = _TOKENS
        else:
            kind = _TABLE if is_table(name) else _PLAIN
        self[name] = kind
        return kind


#: PBN 2.1 section 2.3: a line holds at most 255 characters, its end included (the standard's verifier
#: refuses 255 printable characters and accepts 254: its correct_10 and errors_10).
MAX_LINE = 254
_LONG_LINE = re.compile(rf"^[^\n]{{{MAX_LINE + 1},}}", re.M)
#: At most this many long lines are named one by one; the rest are counted in one note.
_LONG_LINES_NAMED = 20


def lex(text: str, source: str) -> tuple[list[Game], list[str], list[tuple[int, str]], list[tuple[int, str]]]:
    """Split PBN text into games.

    Returns ``(games, header escape lines, problems, notes)``; problems are ``(line, message)``
    pairs for the caller to raise together with later checks, notes the harmless quirks.
    Fatal problems (an unclosed brace comment, too many problems) raise ParseError at once.
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "{" in text:  # brace comments may span blank lines: take the general path for the whole text
        lexer = _Lexer(text.split("\n"), source)
        lexer.run()
        lexer.end_game()
    else:
        lexer = _Lexer([], source)
        line, done = 1, 0
        for m in _GAME_CHUNK.finditer(text):
            line += text.count("\n", done, m.start())
            done = m.start()
            chunk = m.group()
            if not lexer.fast_game(chunk, line):
                if not lexer.lines:
                    lexer.lines = text.split("\n")
                lexer.run(line - 1, line - 1 + chunk.count("\n") + (not chunk.endswith("\n")))
                lexer.end_game()
    games = lexer.games
    if '"#' in text:
        inherit(games, lexer.problems, lexer.notes)
    _long_lines(text, lexer.notes)
    return games, lexer.escapes, lexer.problems, lexer.notes


def _long_lines(text: str, notes: list[tuple[int, str]]) -> None:
    """A note for each line over ``MAX_LINE`` characters (the first ``_LONG_LINES_NAMED``, then a count)."""
    found, first_unnamed = 0, 0
    for m in _LONG_LINE.finditer(text):
        found += 1
        if found <= _LONG_LINES_NAMED:
            line = text.count("\n", 0, m.start()) + 1
            notes.append((line, f"line of {len(m.group())} characters: PBN lines hold at most {MAX_LINE} "
                                "and the line end (read as it is)"))
        elif found == _LONG_LINES_NAMED + 1:
            first_unnamed = text.count("\n", 0, m.start()) + 1
    if found > _LONG_LINES_NAMED:  # at the first line not named, so that it sorts after the named ones
        notes.append((first_unnamed, f"and {found - _LONG_LINES_NAMED} more lines over {MAX_LINE} characters "
                                     "from here on"))
