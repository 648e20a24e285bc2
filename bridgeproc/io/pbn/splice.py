"""Writing a PBN file back as read, with only what changed rewritten.

A director's PBN (a hand record, a scoring program's export) carries more than the
games: ``%`` lines, ``{...}`` and ``;`` commentary, the producer's quoting and spacing,
its encoding and line ends. Reading and writing it back keeps all of that: the file's
own bytes are written for every line no tag changed, and each changed, added or
removed tag is spliced in, in export layout (``writer.tag_lines``), in the file's
encoding and line end. A file nothing changed in is written back byte for byte.

What "changed" means is decided against the file itself: the original text is lexed
again at write time and each game's tags are compared with the games given (a game is
matched by the line it starts on; a game made afresh has line 0 and is appended).
"""
from __future__ import annotations

import re

from bridgeproc.io.pbn.model import Game, Original, Tag
from bridgeproc.io.pbn.writer import game_lines, tag_lines


def _same(a: Tag, b: Tag) -> bool:
    """Two tags hold the same thing (name, value, section tokens and notes, table columns and rows)."""
    if a.name != b.name or a.value != b.value:
        return False
    if (a.tokens is None) != (b.tokens is None) or (a.columns is None) != (b.columns is None):
        return False
    if a.tokens is not None and list(a.tokens) != list(b.tokens or ()):
        return False
    if [(n.name, n.value) for n in a.notes or ()] != [(n.name, n.value) for n in b.notes or ()]:
        return False
    if a.columns is not None:
        return tuple(c.spec() for c in a.columns) == tuple(c.spec() for c in b.columns or ()) and \
            (a.rows or []) == (b.rows or [])
    return True


def _last_line(tag: Tag) -> int:
    """The last file line of a tag with its section data and notes."""
    last = tag.line
    if tag.token_lines:
        last = max(last, max(tag.token_lines))
    rows = tag.row_lines
    if rows:
        last = max(last, max(rows))
    for note in tag.notes or ():
        last = max(last, _last_line(note))
    return last


_CELL = re.compile(r'"(?:[^"\\]|\\.)*"|[^\s"]+')


def _quoted_columns(tag: Tag, text_lines: list[str]) -> frozenset[str]:
    """The columns of a table whose cells the file quoted (in most rows): kept so when rewritten."""
    names = tag.column_names
    counts = [0] * len(names)
    seen = 0
    for line in tag.row_lines or ():
        cells = _CELL.findall(text_lines[line - 1]) if 0 < line <= len(text_lines) else []
        if len(cells) != len(names):
            continue
        seen += 1
        for i, cell in enumerate(cells):
            counts[i] += cell.startswith('"')
    return frozenset(name for name, n in zip(names, counts) if seen and n * 2 > seen)


def _keyed(tags: list[Tag]) -> dict[tuple[str, int], Tag]:
    """Tags by (name, occurrence): a repeated tag name is matched in order."""
    seen: dict[str, int] = {}
    out = {}
    for tag in tags:
        k = seen.get(tag.name, 0)
        seen[tag.name] = k + 1
        out[(tag.name, k)] = tag
    return out


#: An edit: replace file lines ``first..last`` (1-based, inclusive; ``last = first - 1`` inserts before
#: ``first``) by these text lines (without their ends).
Edit = tuple[int, int, list[str]]


def _game_edits(old: Game, new: Game, text_lines: list[str]) -> list[Edit]:
    """The edits that turn ``old``'s lines into ``new``'s, tag by tag; the whole game rewritten in
    export layout when a changed tag shares a line with another one."""
    before, after = _keyed(old.tags), _keyed(new.tags)
    spans = {key: (tag.line, _last_line(tag)) for key, tag in before.items()}
    starts = sorted(first for first, _ in spans.values())
    game_last = max(last for _, last in spans.values())
    edits: list[Edit] = []
    changed = [key for key in before if key not in after or not _same(before[key], after[key])]
    for key in changed:
        first, last = spans[key]
        if sum(first <= s <= last for s in starts) != 1 or before[key].inherited:  # another tag in its lines
            return [(min(starts), game_last, game_lines(new))]
        quoted = _quoted_columns(before[key], text_lines) if before[key].columns is not None else frozenset()
        edits.append((first, last, tag_lines(after[key], quoted) if key in after else []))
    added = [tag for key, tag in after.items() if key not in before]
    if added:
        plain = [tag for tag in added if tag.tokens is None and tag.columns is None]
        data = [tag for tag in added if tag not in plain]
        plain_end = max((spans[k][1] for k, t in before.items() if t.tokens is None and t.columns is None),
                        default=game_last)
        if plain:
            edits.append((plain_end + 1, plain_end, [line for tag in plain for line in tag_lines(tag)]))
        if data:
            edits.append((game_last + 1, game_last, [line for tag in data for line in tag_lines(tag)]))
    return edits


def splice(original: Original, games: list[Game], old_games: list[Game], encoding: str | None = None) -> bytes:
    """The file's bytes with ``games`` in place of ``old_games`` (the file lexed again), changed tags only;
    in ``encoding`` when given, else in the file's own (UnicodeEncodeError if a new text does not fit it)."""
    bom, lines, codec = original.byte_lines(encoding)
    newline = original.newline()
    by_line = {game.line: game for game in old_games}
    edits: list[Edit] = []
    kept = set()
    fresh: list[Game] = []
    text_lines: list[str] | None = None
    for game in games:
        old = by_line.get(game.line) if game.line else None
        if old is None or old.line in kept:
            fresh.append(game)
            continue
        kept.add(old.line)
        if text_lines is None:
            text_lines = original.text_lines()
        edits.extend(_game_edits(old, game, text_lines))
    for old in old_games:
        if old.line not in kept:  # a game left out: its tag lines go
            edits.append((old.line, max(_last_line(t) for t in old.tags), []))
    out: list[bytes] = [bom]
    done = 0  # lines written so far
    for first, last, text in sorted(edits, key=lambda e: (e[0], e[1])):
        out.extend(lines[done:first - 1])
        out.extend((line + newline).encode(codec) for line in text)
        done = max(done, last, first - 1)
    out.extend(lines[done:])
    if fresh:
        if out[-1:] and not out[-1].endswith(newline.encode(codec)) and out[-1] != bom:
            out.append(newline.encode(codec))
        for game in fresh:
            out.append(newline.encode(codec))
            out.extend((line + newline).encode(codec) for line in game_lines(game))
    return b"".join(out)
