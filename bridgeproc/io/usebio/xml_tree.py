"""A small XML element tree that remembers the line of every element, for ``file:line`` messages.

Built with expat directly (the standard library's ElementTree keeps no line numbers).
Tags and attribute names are upper-cased; external entities and DTDs are never fetched.
"""
from __future__ import annotations

import re
import xml.parsers.expat
from dataclasses import dataclass, field
from typing import Iterator

from bridgeproc.errors import ParseError

__all__ = ["Node", "parse_tree"]


@dataclass
class Node:
    """One XML element: tag, attributes, text, children and the line it starts on."""

    tag: str
    attrib: dict[str, str]
    line: int
    children: list[Node] = field(default_factory=list)
    text: str = ""

    def find(self, tag: str) -> Node | None:
        return next((c for c in self.children if c.tag == tag), None)

    def findall(self, tag: str) -> list[Node]:
        return [c for c in self.children if c.tag == tag]

    def iter(self, tag: str) -> Iterator[Node]:
        """Descendants named ``tag``, in document order (no recursion: nesting depth is the file's)."""
        stack = list(reversed(self.children))
        while stack:
            node = stack.pop()
            if node.tag == tag:
                yield node
            stack.extend(reversed(node.children))

    def value(self, tag: str) -> str | None:
        """Text of the child ``tag`` (else the attribute ``tag``), stripped; None if absent or empty."""
        child = self.find(tag)
        text = child.text.strip() if child is not None else (self.attrib.get(tag) or "").strip()
        return text or None


def _expat_input(data: bytes | str) -> tuple[bytes, str | None]:
    # expat knows only UTF-8/16, Latin-1 and ASCII; Windows programs also declare windows-1252,
    # and some write Windows-1252 bytes under a UTF-8 (or no) declaration: decoded here
    if isinstance(data, str):
        return data.encode("utf-8"), "UTF-8"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data, None
    m = re.match(rb"^(?:\xef\xbb\xbf)?<\?xml[^>]*encoding=[\"']([A-Za-z0-9_.\-]+)[\"']", data)
    declared = m.group(1).decode("ascii").lower() if m else "utf-8"
    if declared in ("utf-8", "utf8"):
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            declared = "cp1252"
    if declared in ("utf-8", "utf8", "utf-16", "iso-8859-1", "latin-1", "us-ascii"):
        return data, None
    try:
        return data.decode(declared).encode("utf-8"), "UTF-8"
    except (LookupError, UnicodeDecodeError):
        return data.decode("cp1252", errors="replace").encode("utf-8"), "UTF-8"


def parse_tree(data: bytes | str, source: str) -> Node:
    """The root element of XML ``data`` (bytes: the declared encoding is honoured).

    Raises ParseError ``source:line: not well-formed XML (...)`` with the column.
    """
    data, forced = _expat_input(data)
    parser = xml.parsers.expat.ParserCreate(forced)
    stack: list[Node] = []
    root: list[Node] = []
    texts: list[list[str]] = []

    def start(tag: str, attrib: dict[str, str]) -> None:
        node = Node(tag.upper(), {k.upper(): v for k, v in attrib.items()}, parser.CurrentLineNumber)
        (stack[-1].children if stack else root).append(node)
        stack.append(node)
        texts.append([])

    def end(tag: str) -> None:
        stack.pop().text = "".join(texts.pop())

    def chars(text: str) -> None:
        if texts:
            texts[-1].append(text)

    parser.StartElementHandler, parser.EndElementHandler, parser.CharacterDataHandler = start, end, chars
    try:
        parser.Parse(data, True)
    except xml.parsers.expat.ExpatError as exc:
        message = xml.parsers.expat.ErrorString(exc.code)
        raise ParseError(source, exc.lineno, f"not well-formed XML ({message}, column {exc.offset + 1}); "
                         "the file is damaged or not USEBIO: export it again from the scoring program") from None
    if not root:
        raise ParseError(source, 1, "no XML element found; expected a USEBIO results file")
    return root[0]
