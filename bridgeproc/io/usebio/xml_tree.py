"""A small XML element tree that remembers the line of every element, for ``file:line`` messages.

Built with expat directly (the standard library's ElementTree keeps no line numbers).
Tags and attribute names are upper-cased; external entities and DTDs are never fetched
(an external entity is refused with its element and line; an undefined one is a note,
see :func:`parse_tree`).
"""
from __future__ import annotations

import html
import html.entities
import re
import xml.parsers.expat
from dataclasses import dataclass, field
from typing import Iterator

from bridgeproc.errors import ParseError, TooLargeError

__all__ = ["Node", "parse_tree"]


#: The most elements a file may hold: a club's USEBIO file holds a few thousand, 1,000 tables about
#: 260,000. Each costs a few hundred bytes in memory, so 8 MB of empty elements (two million) would
#: take gigabytes: refused as it is read, before memory runs out.
MAX_ELEMENTS = 1_000_000


@dataclass(slots=True)
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


def _expat_input(data: bytes | str) -> tuple[bytes, str | None, str | None]:
    """The bytes expat is given, the encoding to force on it, and what was read other than declared.

    expat knows only UTF-8/16, Latin-1 and ASCII; Windows programs also declare windows-1252, and
    some write Windows-1252 bytes under a UTF-8 (or no) declaration: decoded here. A declared encoding
    Python does not know is read as UTF-8 when the bytes are UTF-8, else as Windows-1252, with a note."""
    if isinstance(data, str):
        return data.encode("utf-8"), "UTF-8", None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data, None, None
    m = re.match(rb"^(?:\xef\xbb\xbf)?<\?xml[^>]*encoding=[\"']([A-Za-z0-9_.\-]+)[\"']", data)
    declared = m.group(1).decode("ascii").lower() if m else "utf-8"
    if declared in ("utf-8", "utf8"):
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return (data.decode("cp1252", errors="replace").encode("utf-8"), "UTF-8",
                    f"the file says {'UTF-8' if m else 'nothing of its encoding (XML then means UTF-8)'} but its "
                    "bytes are not UTF-8: read as Windows-1252")
    if declared in ("utf-8", "utf8", "utf-16", "iso-8859-1", "latin-1", "us-ascii"):
        return data, None, None
    try:
        return data.decode(declared).encode("utf-8"), "UTF-8", None
    except LookupError:
        try:
            return data.decode("utf-8").encode("utf-8"), "UTF-8", \
                f"the declared encoding {declared!r} is not one known: read as UTF-8 (its bytes are UTF-8)"
        except UnicodeDecodeError:
            pass
        how = f"the declared encoding {declared!r} is not one known"
    except UnicodeDecodeError:
        how = f"the bytes are not {declared!r} as declared"
    return data.decode("cp1252", errors="replace").encode("utf-8"), "UTF-8", f"{how}: read as Windows-1252"


#: The entities every XML parser knows (a reference to any other needs a declaration).
_PREDEFINED = {"amp", "lt", "gt", "quot", "apos"}
_ENTITY_REF = re.compile(rb"&([A-Za-z_:][\w.\-:]*);")


class _Entities:
    """Entity references the file does not define, as notes: an HTML entity (``&nbsp;``,
    ``&eacute;``) is read as its character, any other is kept as written (``&foo;``), so a
    name never loses text silently. One note per entity name."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.seen: dict[str, list] = {}  # name -> [count, element, line, read as]
        self.declared: set[str] = set()

    def text_of(self, name: str, element: str, line: int) -> str:
        html5 = html.entities.html5.get(f"{name};")
        read = html5 if isinstance(html5, str) else f"&{name};"
        entry = self.seen.setdefault(name, [0, element, line, read])
        entry[0] += 1
        return read

    def notes(self) -> list[dict]:
        out = []
        for name, (count, element, line, read) in self.seen.items():
            how = (f"read as the HTML character {read!r}" if read != f"&{name};" else "kept as written")
            times = f" ({count} times)" if count > 1 else ""
            out.append({"source": self.source, "line": str(line), "column": element, "value": f"&{name};",
                        "message": f"the entity &{name}; in <{element}>{times} is not defined in the file: {how}; "
                        "check the text (the scoring program should write the character itself)"})
        return out


def _start_tags(data: bytes) -> int:
    """About how many elements ``data`` holds (its start tags: a ``<`` that opens no end tag, declaration,
    instruction; a ``<`` in a comment counts too, so this is at least the true number for UTF-8 files)."""
    return data.count(b"<") - data.count(b"</") - data.count(b"<?") - data.count(b"<!")


def _too_many(source: str, line: int) -> TooLargeError:
    return TooLargeError(source, line, f"the file holds more than {MAX_ELEMENTS:,} XML elements (a club's results "
                      "file holds a few thousand, 1,000 tables about 260,000); it is not a results file bridgeproc "
                      "reads whole: export the sessions as separate files")


def parse_tree(data: bytes | str, source: str, notes: list[dict] | None = None) -> Node:
    """The root element of XML ``data`` (bytes: the declared encoding is honoured).

    Entities: those the file declares are expanded (expat bounds the expansion, so a
    billion-laughs file is refused); an external entity (``SYSTEM "file:..."``) is never
    fetched: a ParseError names its element and line; an undefined entity (a file naming an
    external DTD, which is not read) is read as its HTML character or kept as written, with
    a note in ``notes``.

    Raises ParseError ``source:line: not well-formed XML (...)`` with the column.
    """
    if isinstance(data, bytes) and _start_tags(data) > MAX_ELEMENTS:
        raise _too_many(source, 1)  # counted in C before anything is built
    data, forced, decoded = _expat_input(data)
    parser = xml.parsers.expat.ParserCreate(forced)
    stack: list[Node] = []
    root: list[Node] = []
    texts: list[list[str]] = []
    entities = _Entities(source)
    with_dtd: list[bool] = []

    count = [0]

    def start(tag: str, attrib: dict[str, str]) -> None:
        line = parser.CurrentLineNumber
        count[0] += 1
        if count[0] > MAX_ELEMENTS:
            raise _too_many(source, line)
        if with_dtd and attrib and isinstance(data, bytes):
            attrib = _attributes(data, parser.CurrentByteIndex, attrib, tag.upper(), line, entities)
        node = Node(tag.upper(), {k.upper(): v for k, v in attrib.items()}, line)
        (stack[-1].children if stack else root).append(node)
        stack.append(node)
        texts.append([])

    def end(tag: str) -> None:
        stack.pop().text = "".join(texts.pop())

    def chars(text: str) -> None:
        if texts:
            texts[-1].append(text)

    def skipped(name: str, is_parameter: bool) -> None:
        if texts and not is_parameter:
            texts[-1].append(entities.text_of(name, stack[-1].tag, parser.CurrentLineNumber))

    def external(context: str | None, base: str | None, system_id: str | None, public_id: str | None) -> int:
        where = f"<{stack[-1].tag}>" if stack else "the file"
        raise ParseError(source, parser.CurrentLineNumber, f"{where} refers to the external entity &{context};"
                         f" ({system_id or public_id}); bridgeproc never reads a file that an XML file points to: "
                         "replace the reference with its text, or export the file again")

    def doctype(name: str, system_id: str | None, public_id: str | None, internal: bool) -> None:
        with_dtd.append(True)

    def declared(name: str, is_parameter: bool, *rest: object) -> None:
        entities.declared.add(name)

    parser.StartElementHandler, parser.EndElementHandler, parser.CharacterDataHandler = start, end, chars
    parser.SkippedEntityHandler, parser.ExternalEntityRefHandler = skipped, external
    parser.StartDoctypeDeclHandler, parser.EntityDeclHandler = doctype, declared
    try:
        parser.Parse(data, True)
    except xml.parsers.expat.ExpatError as exc:
        message = xml.parsers.expat.ErrorString(exc.code)
        raise ParseError(source, exc.lineno, f"not well-formed XML ({message}, column {exc.offset + 1}); "
                         "the file is damaged or not USEBIO: export it again from the scoring program") from None
    if not root:
        raise ParseError(source, 1, "no XML element found; expected a USEBIO results file")
    if notes is not None:
        if decoded is not None:
            notes.append({"source": source, "line": "1", "column": "encoding", "value": "", "message": decoded})
        notes.extend(entities.notes())
    return root[0]


_ATTRIBUTE = re.compile(rb"""([\w.\-:]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


def _attributes(data: bytes, at: int, attrib: dict[str, str], tag: str, line: int,
                entities: _Entities) -> dict[str, str]:
    """Attributes of the start tag at byte ``at``, with undefined entities read as :class:`_Entities` says
    (expat drops an undefined entity from an attribute without a word)."""
    if at < 0 or data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return attrib
    end = data.find(b">", at)
    segment = data[at:end if end >= 0 else len(data)]
    known = _PREDEFINED | entities.declared
    if not any(m.group(1).decode("ascii", "replace") not in known for m in _ENTITY_REF.finditer(segment)):
        return attrib
    fixed = dict(attrib)
    for m in _ATTRIBUTE.finditer(segment):
        name = m.group(1).decode("utf-8", "replace")
        raw = (m.group(2) if m.group(2) is not None else m.group(3) or b"").decode("utf-8", "replace")
        unknown = [r for r in re.findall(r"&([A-Za-z_:][\w.\-:]*);", raw) if r not in known]
        if name in fixed and unknown:
            for ref in unknown:
                entities.text_of(ref, f"{tag} {name}", line)
            fixed[name] = html.unescape(raw)
    return fixed
