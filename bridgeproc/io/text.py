"""Decoding text files the way clubs save them (UTF-8 with or without BOM, UTF-16/32 with BOM, Windows-1252).

Also what every text reader needs against hostile files: binary files named by their kind
(a PNG, a zip/XLSX, a PDF, an old Excel file), NUL bytes refused with their line (trailing NUL
padding, as a crash while saving leaves, is dropped with a note), a UTF-8 file with a few stray
Windows-1252 bytes read as both (with a note) instead of garbling every name, and the CSV field
limit raised to the size of the file being read (:func:`csv_field_limit`).
"""
from __future__ import annotations

import csv
import os
import re
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from bridgeproc.errors import ParseError

__all__ = ["decode", "read_text", "read_source", "csv_field_limit", "binary_kind"]

#: Byte-order marks, longest first (a UTF-32 LE BOM begins with the UTF-16 LE one).
_BOMS = ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"), (b"\xff\xfe", "utf-16"),
         (b"\xfe\xff", "utf-16"))
#: File signatures of the binary files most often given by mistake, and what to do instead.
_MAGIC = ((b"\x89PNG\r\n\x1a\n", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"), (b"GIF8", "a GIF image"),
          (b"%PDF", "a PDF document"), (b"PK\x03\x04", "a zip archive (an XLSX workbook or a zipped file?)"),
          (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Excel (.xls) or other Office file"),
          (b"\x1f\x8b", "a gzip-compressed file"), (b"\x00\x01\x00\x00Standard Jet DB", "an Access (.bws) database"),
          (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"), (b"Rar!", "a RAR archive"))
#: A byte that is not UTF-8, as ``surrogateescape`` decoding leaves it.
_ESCAPED = re.compile("[\udc80-\udcff]")
#: Text that only UTF-8 decoding gives (a character beyond ASCII that is not an escaped byte).
_UTF8_ONLY = re.compile("[^\x00-\x7f\udc80-\udcff]")


def binary_kind(data: bytes) -> str | None:
    """What a binary file is by its first bytes (``"a PNG image"``), or None if it has no known signature."""
    return next((kind for magic, kind in _MAGIC if data.startswith(magic)), None)


def _line_of(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def _mixed(text: str, source: str, notes: list[dict] | None) -> str:
    """UTF-8 text (decoded with ``surrogateescape``) whose stray bytes are read as Windows-1252.

    A file with UTF-8 characters and a few other bytes (one name typed in an old program) is UTF-8
    with Windows-1252 bytes: each stray byte is read as Windows-1252 (the others stay UTF-8), and a
    note names the lines. A file with no UTF-8 character at all is plain Windows-1252 (no note).
    """
    strays = list(_ESCAPED.finditer(text))

    def cp1252(match: re.Match) -> str:
        byte = bytes([ord(match.group()) - 0xDC00])
        try:
            return byte.decode("cp1252")
        except UnicodeDecodeError:  # the five bytes Windows-1252 leaves undefined
            return byte.decode("latin-1")

    fixed = _ESCAPED.sub(cp1252, text)
    if notes is not None and _UTF8_ONLY.search(text):
        shown = ", ".join(f"line {_line_of(text, m.start())}: 0x{ord(m.group()) - 0xDC00:02X} read as "
                          f"{cp1252(m)!r}" for m in strays[:3])
        more = f" and {len(strays) - 3} more" if len(strays) > 3 else ""
        notes.append({"source": source, "line": str(_line_of(text, strays[0].start())), "column": "",
                      "value": "", "message": f"{len(strays)} byte(s) are not UTF-8 in a file that is otherwise UTF-8 "
                      f"({shown}{more}): read as Windows-1252; check those names, and re-save the file as UTF-8"})
    return fixed


def decode(data: bytes, source: str, encoding: str | None = None, notes: list[dict] | None = None) -> str:
    """Bytes -> text. Honours a UTF-32/UTF-16/UTF-8 BOM, else reads UTF-8 with any byte that is not
    UTF-8 as Windows-1252 (a whole Windows-1252 file, as Excel on Windows saves "CSV", reads as such;
    a UTF-8 file with a few stray bytes keeps its UTF-8 names and gets a note in ``notes``).

    An explicit ``encoding`` skips the guessing. Leading BOMs (a file saved twice) are dropped.
    """
    if encoding:
        try:
            return data.decode(encoding).lstrip("\ufeff")
        except UnicodeDecodeError as exc:  # the line and byte, and the way out: every reader alike
            line = data.count(b"\n", 0, exc.start) + 1
            raise ParseError(source, line, f"byte 0x{data[exc.start]:02x} is not valid {encoding}; re-save the "
                             f"file as {encoding}, or leave out --encoding to detect the encoding") from None
        except LookupError as exc:
            raise ParseError(source, None, f"cannot decode as {encoding}: {exc}") from None
    bom = next((name for mark, name in _BOMS if data.startswith(mark)), None)
    if bom is not None:
        try:
            return data.decode(bom).lstrip("\ufeff")
        except UnicodeDecodeError as exc:
            kind = "UTF-16" if bom == "utf-16" else "UTF-32"
            raise ParseError(source, None, f"broken {kind} text: {exc}") from None
    text = data.decode("utf-8-sig", errors="surrogateescape")
    if _ESCAPED.search(text):
        text = _mixed(text, source, notes)
    return text.lstrip("\ufeff")


def _check_bytes(data: bytes, source: str, notes: list[dict] | None) -> bytes:
    """The bytes of a text file, refused when binary or damaged (see the module docstring)."""
    if data.startswith(tuple(mark for mark, _ in _BOMS)):
        return data
    kind = binary_kind(data)
    if kind is not None:
        raise ParseError(source, None, f"this is {kind}, not text; give the text file itself (CSV, PBN), "
                         "or a workbook under its .xlsx name")
    trimmed = data.rstrip(b"\x00")
    if len(trimmed) < len(data) and trimmed:
        if notes is not None:
            notes.append({"source": source, "line": str(trimmed.count(b"\n") + 1), "column": "", "value": "",
                          "message": f"the file ends in {len(data) - len(trimmed)} NUL byte(s), as a program that "
                          "stopped while saving leaves: ignored; check that the last results are all there"})
        data = trimmed
    if b"\x00" in data[:4096]:
        raise ParseError(source, None, "this is a binary file, not text; export it as CSV or PBN")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise ParseError(source, data.count(b"\n", 0, nul) + 1, f"a NUL byte (0x00) at byte {nul + 1}: the file is "
                         "damaged or not text; export it again (or delete the odd characters on this line)")
    return data


#: The largest input file read: far above any real event (a national event's PBN is a few MB), far below
#: what would exhaust memory.
MAX_INPUT_BYTES = 256 * 1024 * 1024


def file_bytes(path: str | os.PathLike, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the file ``path``, read with bounds: a device, a named pipe or a folder is refused
    (``/dev/zero`` would be read until memory runs out, a pipe would block for ever), and so is a file of
    more than ``limit`` bytes. Raises ParseError naming the file."""
    source = Path(path).name
    try:
        kind = os.stat(path).st_mode
        if not stat.S_ISREG(kind):
            what = "a folder" if stat.S_ISDIR(kind) else "a named pipe" if stat.S_ISFIFO(kind) else "a device"
            raise ParseError(source, None, f"cannot read file: {path} is {what}, not a file; give the file itself")
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise ParseError(source, None, f"cannot read file: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise ParseError(source, None, f"the file is larger than {limit:,} bytes, far more than any results file "
                         "holds; give the right file, or split it")
    return data


def read_text(path: str | os.PathLike, encoding: str | None = None,
              notes: list[dict] | None = None) -> tuple[str, str]:
    """Read and decode a file; returns ``(text, source name)``.

    Refuses binary files (named by kind) and NUL bytes (with their line); ``notes`` gets what was
    read other than written (stray non-UTF-8 bytes, trailing NUL padding).
    """
    source = Path(path).name
    data = _check_bytes(file_bytes(path), source, notes)
    return decode(data, source, encoding, notes), source


def read_source(path_or_file) -> tuple[bytes | str, str]:
    """The content of a path or an open file (bytes, or str from a text stream) and its name."""
    if isinstance(path_or_file, (str, os.PathLike)):
        return file_bytes(path_or_file), Path(path_or_file).name
    return path_or_file.read(), Path(getattr(path_or_file, "name", "<stream>")).name


@contextmanager
def csv_field_limit(size: int) -> Iterator[None]:
    """Let the csv module read cells as long as ``size`` (the text being read) while inside.

    The standard limit (131,072 characters) exists to stop a runaway cell eating memory; the text
    is already in memory, so a limit of its own length is safe. Restored on leaving (the limit is
    process-wide; bridgeproc reads one file at a time).
    """
    old = csv.field_size_limit()
    csv.field_size_limit(max(old, size + 1))
    try:
        yield
    finally:
        csv.field_size_limit(old)
