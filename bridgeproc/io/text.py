"""Decoding text files the way clubs save them (UTF-8 with or without BOM, UTF-16, Windows-1252)."""
from __future__ import annotations

import os
from pathlib import Path

from bridgeproc.errors import ParseError


def decode(data: bytes, source: str, encoding: str | None = None) -> str:
    """Bytes -> text. Tries UTF-8 (BOM or not), UTF-16 with BOM, then Windows-1252.

    Windows-1252 is the fallback because Excel on Windows saves "CSV" in it; an
    explicit ``encoding`` skips the guessing.
    """
    if encoding:
        try:
            return data.decode(encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise ParseError(source, None, f"cannot decode as {encoding}: {exc}") from None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise ParseError(source, None, f"broken UTF-16 text: {exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_text(path: str | os.PathLike, encoding: str | None = None) -> tuple[str, str]:
    """Read and decode a file; returns ``(text, source name)``."""
    source = Path(path).name
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ParseError(source, None, f"cannot read file: {exc.strerror}") from None
    if b"\x00" in data[:4096] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ParseError(source, None, "this is a binary file, not text; export it as CSV or PBN")
    return decode(data, source, encoding), source


def read_source(path_or_file) -> tuple[bytes | str, str]:
    """The content of a path or an open file (bytes, or str from a text stream) and its name."""
    if isinstance(path_or_file, (str, os.PathLike)):
        source = Path(path_or_file).name
        try:
            return Path(path_or_file).read_bytes(), source
        except OSError as exc:
            raise ParseError(source, None, f"cannot read file: {exc.strerror}") from None
    return path_or_file.read(), Path(getattr(path_or_file, "name", "<stream>")).name
